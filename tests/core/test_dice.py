"""Dice: the HMAC construction recomputed independently, ranges, scripting, digests."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem.core.dice import (
    HmacDice,
    ScriptedDice,
    commitment,
    file_hash,
    orders_digest,
    step_seed,
)


def reference_draw(seed: bytes, digest: str, n: int, start: int = 0) -> tuple[int, int]:
    """The documented recipe (docs/dice.md), written out independently of the module."""
    counter = start
    while True:
        block = hmac.new(seed, digest.encode() + b":" + str(counter).encode(), hashlib.sha256)
        x = int.from_bytes(block.digest()[:8], "big")
        counter += 1
        if x < 2**64 - (2**64 % n):
            return x % n, counter


def test_hmac_dice_follow_the_documented_recipe() -> None:
    seed = step_seed(b"master", 3)
    dig = orders_digest({"north": file_hash("PLAY 3\n")})
    dice = HmacDice(seed, dig)
    counter = 0
    for sides in (6, 6, 20, 2, 12):
        want, counter = reference_draw(seed, dig, sides, counter)
        assert dice.roll(sides, "x") == want + 1
    want, counter = reference_draw(seed, dig, 9, counter)
    assert dice.pick(9, "card") == want


def test_same_seed_and_orders_same_numbers_different_orders_different_numbers() -> None:
    seed = step_seed(b"m", 1)
    a = [HmacDice(seed, "d1").roll(6, "p") for _ in range(1)]
    b = [HmacDice(seed, "d1").roll(6, "p") for _ in range(1)]
    assert a == b
    d1, d2 = HmacDice(seed, "d1"), HmacDice(seed, "d2")
    assert [d1.roll(1000, "p") for _ in range(5)] != [d2.roll(1000, "p") for _ in range(5)]


def test_rolls_are_uniform_enough() -> None:
    dice = HmacDice(b"k", "d")
    counts = Counter(dice.roll(6, "u") for _ in range(6000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(850 < c < 1150 for c in counts.values()), counts


def test_every_roll_is_logged_with_purpose_and_visibility() -> None:
    dice = HmacDice(b"k", "d")
    dice.roll(6, "attack dice, Kassa, round 2")
    pile = ["a", "b", "c"]
    card = dice.draw(pile, "draw", visible_to=["north"])
    assert card not in pile and len(pile) == 2
    assert [r.purpose for r in dice.log] == ["attack dice, Kassa, round 2", "draw"]
    assert dice.log[0].visible_to is None and dice.log[1].visible_to == ("north",)
    assert not dice.all_public
    assert dice.log[1].visible("north") and not dice.log[1].visible("south")


def test_scripted_dice_replay_and_refuse_wrong_values() -> None:
    dice = ScriptedDice([6, 1, 0])
    assert dice.rolls(2, 6, "x") == [6, 1]
    assert dice.pick(3, "y") == 0
    with pytest.raises(AssertionError, match="ran out"):
        dice.roll(6, "z")
    with pytest.raises(AssertionError, match="not a face"):
        ScriptedDice([7]).roll(6, "z")


def test_permutation_is_a_permutation() -> None:
    dice = HmacDice(b"k", "d")
    items = list(range(10))
    assert sorted(dice.permutation(items, "seats")) == items


def test_orders_digest_ignores_dict_order_and_commitment_hides_seed() -> None:
    a = orders_digest({"north": "1", "south": "2"})
    b = orders_digest({"south": "2", "north": "1"})
    assert a == b != orders_digest({"north": "2", "south": "1"})
    seed = step_seed(b"m", 5)
    assert commitment(seed) == hashlib.sha256(seed).hexdigest()
    assert step_seed(b"m", 5) != step_seed(b"m", 6) != step_seed(b"n", 6)


@given(st.integers(min_value=1, max_value=10**6), st.binary(min_size=1, max_size=32))
def test_picks_stay_in_range(n: int, key: bytes) -> None:
    v = HmacDice(key, "d").pick(n, "p")
    assert 0 <= v < n
