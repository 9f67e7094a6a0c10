"""Reply tokens: round trip, forgery, address safety (hypothesis for the properties)."""

from __future__ import annotations

import base64

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.mail.tokens import (
    TokenClaim,
    check_token,
    find_token,
    make_token,
    peek_token,
    reply_address,
)

SECRET = b"0123456789abcdef0123456789abcdef"
seats = st.text(st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)),
                min_size=1, max_size=30)
ids = st.integers(min_value=0, max_value=2**53 - 1)
small = st.integers(min_value=0, max_value=10**9)


def token_for(game_id: int = 7, seat: str = "hungary", holder: int = 12, step: int = 4,
              generation: int = 0, secret: bytes = SECRET) -> str:
    return make_token(secret, game_id=game_id, seat=seat, holder=holder, step=step,
                      generation=generation)


@given(ids, seats, ids, small, small)
@settings(deadline=None)
def test_round_trip(game_id: int, seat: str, holder: int, step: int, gen: int) -> None:
    token = token_for(game_id, seat, holder, step, gen)
    claim = TokenClaim(holder, step, gen)
    assert check_token(SECRET, token, game_id=game_id, seat=seat) == claim
    assert check_token(SECRET, token.upper(), game_id=game_id, seat=seat) == claim
    assert peek_token(token) == claim
    assert set(token) <= set("abcdefghijklmnopqrstuvwxyz234567")


@given(seats, small, small, st.data())
@settings(max_examples=300, deadline=None)
def test_altered_token_refused(seat: str, step: int, gen: int, data: st.DataObject) -> None:
    token = token_for(3, seat, 99, step, gen)
    at = data.draw(st.integers(0, len(token) - 1))
    new = data.draw(st.sampled_from("abcdefghijklmnopqrstuvwxyz234567").filter(
        lambda c: c != token[at]))
    altered = token[:at] + new + token[at + 1:]
    assert check_token(SECRET, altered, game_id=3, seat=seat) is None


def test_the_mac_covers_game_seat_and_holder_secret() -> None:
    token = token_for()
    assert check_token(SECRET, token, game_id=7, seat="hungary") is not None
    assert check_token(SECRET, token, game_id=8, seat="hungary") is None
    assert check_token(SECRET, token, game_id=7, seat="austria") is None
    assert check_token(b"the next holder's secret", token, game_id=7, seat="hungary") is None


@given(st.text(max_size=80))
@settings(deadline=None)
def test_garbage_never_raises(text: str) -> None:
    assert check_token(SECRET, text, game_id=1, seat="s") is None
    claim = peek_token(text)
    assert claim is None or max(claim.holder, claim.step, claim.generation) < 2**53


def test_truncated_and_extended_refused():
    token = token_for()
    for bad in (token[:-1], token + "a", token[1:], ""):
        assert check_token(SECRET, bad, game_id=7, seat="hungary") is None
    assert check_token(b"", token, game_id=7, seat="hungary") is None


def test_payload_of_one_token_with_the_mac_of_another_refused():
    real = token_for(step=4)
    other = token_for(step=5)
    pad = lambda t: t.upper() + "=" * (-len(t) % 8)  # noqa: E731
    a, b = base64.b32decode(pad(real)), base64.b32decode(pad(other))
    forged = base64.b32encode(b[:-8] + a[-8:]).decode().rstrip("=").lower()
    assert check_token(SECRET, forged, game_id=7, seat="hungary") is None


def test_huge_numbers_are_refused_before_any_lookup():
    # A varint of 2**64 (too big for a database integer): the claim is refused outright.
    payload = bytes([2]) + b"\xff" * 9 + b"\x01" + b"\x01\x00"
    token = base64.b32encode(payload + b"\0" * 8).decode().rstrip("=").lower()
    assert peek_token(token) is None


def test_token_fits_a_plus_address_even_for_big_numbers():
    token = token_for(game_id=2**40, holder=2**40, step=10**6, generation=999)
    assert len(token) <= 40
    addr = reply_address("PBEM <orders@pbem.example.org>", token)
    assert addr == f"PBEM <orders+{token}@pbem.example.org>"
    assert len(f"orders+{token}") <= 64
    assert find_token([addr]) == token
    assert find_token([addr.upper()]) == token
    assert reply_address("orders+old@x.org", token) == f"orders+{token}@x.org"


def test_find_token_ignores_short_details():
    assert find_token(["orders+games@x.org", "bob@x.org"]) is None
    assert find_token([]) is None


def test_bad_arguments():
    with pytest.raises(ValueError):
        token_for(seat="")
    with pytest.raises(ValueError):
        token_for(step=-1)
    with pytest.raises(ValueError):
        token_for(secret=b"")
    with pytest.raises(ValueError):
        reply_address("no address here", "abc")
