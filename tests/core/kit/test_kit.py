"""The game kit, through a tiny kit-built game (tests/core/kit/duel.py)."""

from __future__ import annotations

import json
import random

import pytest

from pbem.core.dice import ScriptedDice
from pbem.core.engine import canonical_json, process, set_up
from pbem.core.kit import OUTCOME, Effects, PositionError
from pbem.core.kit.position import to_toml
from pbem.core.ruleset import GameConfig
from pbem.core.selfplay import play

from .duel import GRAMMAR, Attack, Duel, Guard

DUEL = Duel()


def start(ask: bool = False, first: str = "red") -> str:
    cfg = GameConfig(("red", "blue"), "standard", {"decisions": "ask" if ask else "auto"})
    out = set_up(DUEL, cfg, b"k" * 32)
    bids = {"red": "BID 3\n", "blue": "BID 0\n"} if first == "red" else \
        {"red": "BID 0\n", "blue": "BID 3\n"}
    return process(DUEL, out.state_json, bids, seed=b"s" * 32).state_json


def step(state_json: str, texts: dict[str, str], dice: list[int]):
    d = ScriptedDice(dice)
    out = process(DUEL, state_json, texts, seed=b"x" * 32, dice=d)
    assert d.remaining == 0, "every scripted die is used"
    return out


# --- grammar -----------------------------------------------------------------------------

def test_orders_parse_from_their_canonical_form_and_aliases() -> None:
    for line in ["ATTACK 2", "HEAL", "BID 0", "GUARD ALWAYS", "BLOCK", "TAKE"]:
        assert str(GRAMMAR.parse_line({}, "red", line)) == line
    assert GRAMMAR.parse_line({}, "red", "támad 3") == Attack(3)
    assert GRAMMAR.parse_line({}, "red", "véd mindig") == Guard("ALWAYS")


def test_a_malformed_line_says_what_is_wrong_and_shows_an_example() -> None:
    p = GRAMMAR.parse({}, "red", "ATTACK 5\nATACK 2\nGUARD sometimes\n")
    errors = [ln.error for ln in p.lines]
    assert errors[0] == "the number of dice must be 1-3, not 5; write ATTACK <1-3 dice>, e.g. ATTACK 3"
    assert errors[1].startswith('"ATACK" is not a command; did you mean "ATTACK"?')
    assert errors[2] == ('expected ALWAYS or NEVER, not "sometimes"; write GUARD ALWAYS|NEVER, '
                         "e.g. GUARD ALWAYS")


# --- phases: judged on arrival -------------------------------------------------------------

def test_a_line_of_another_step_or_seat_is_refused_on_arrival() -> None:
    state = DUEL.load(json.loads(start()))
    assert set(DUEL.awaiting(state)) == {"red"}
    p = DUEL.parse(state, "red", "BID 2\nATTACK 1\nGUARD NEVER\nHEAL\n")
    assert [ln.ok for ln in p.lines] == [False, True, True, True]
    assert "not part of this step; it asks for your two actions" in p.lines[0].error
    assert p.lines[3].note == "you are at full health now; HEAL would do nothing"
    assert p.lines[3].echo().endswith("-> OK, note: you are at full health now; HEAL would do nothing")
    blue = DUEL.parse(state, "blue", "ATTACK 1\nGUARD ALWAYS\n")
    assert "not yours to send now: red is awaited" in blue.lines[0].error
    assert blue.lines[1].ok
    assert DUEL.accepts_unasked(state, "blue")


# --- decisions: auto, standing, ask with replay -------------------------------------------------

def test_auto_takes_the_default_and_every_line_gets_one_outcome() -> None:
    out = step(start(), {"red": "ATTACK 2\nATTACK 1\nHEAL\nBID 1\n"}, [5, 6, 6])
    assert out.state["hp"] == {"red": 10, "blue": 7}
    mine = [e for e in out.events if e.kind == OUTCOME]
    assert [(e.data["line"], e.data["status"]) for e in mine] == [
        (4, "refused"), (1, "carried out"), (2, "carried out"), (3, "not needed")]
    assert all(e.to == ("red",) for e in mine)


def test_a_standing_order_sent_unasked_decides_the_question() -> None:
    out = step(start(ask=True), {"red": "ATTACK 2\n", "blue": "GUARD ALWAYS\n"}, [5, 6])
    assert out.state["hp"]["blue"] == 8  # 2 hits blocked: half of 2, plus 1
    assert out.state["pause"] is None
    assert DUEL.awaited_seats(out.state) == ["blue"]


def test_ask_pauses_and_the_answer_replays_the_same_dice_without_repeating_events() -> None:
    s0 = start(ask=True)
    out1 = step(s0, {"red": "ATTACK 2\nATTACK 3\n"}, [5, 6])
    assert out1.state["pause"] is not None
    assert set(out1.awaiting) == {"blue"}
    assert out1.awaiting["blue"].options == ("BLOCK", "TAKE")
    texts1 = [e.text for e in out1.events]
    assert "red attacks: [5, 6], 2 hit(s)." in texts1
    assert [e.text for e in out1.events if e.kind == "ask" and e.to == ("red",)] == [
        "Waiting for blue: whether to block 2 hit(s)."]
    # A wrong answer is refused on arrival, with the answers.
    bad = DUEL.parse(out1.state, "blue", "HEAL\n")
    assert "does not answer the question" in bad.lines[0].error
    # The answer: the first attack's dice are replayed, the second is drawn fresh.
    d = ScriptedDice([1, 2, 5])
    out2 = process(DUEL, out1.state_json, {"blue": "BLOCK\n"}, seed=b"x" * 32, dice=d)
    assert d.remaining == 0
    assert [r.value for r in out2.rolls] == [1, 2, 5]  # only fresh draws are this step's
    texts2 = [e.text for e in out2.events]
    assert "red attacks: [5, 6], 2 hit(s)." not in texts2
    assert "blue blocks." in texts2
    # blocked 2 -> 2 (1 + 1); the second attack, 1 hit, is asked again
    assert out2.state["hp"]["blue"] == 8
    assert set(out2.awaiting) == {"blue"}
    out3 = process(DUEL, out2.state_json, {"blue": "TAKE\nGUARD NEVER\n"}, seed=b"x" * 32,
                   dice=ScriptedDice([]))
    assert out3.state["hp"]["blue"] == 7
    assert out3.state["guard"]["blue"] == "NEVER"
    assert set(out3.awaiting) == {"blue"} and out3.state["active"] == "blue"
    outcome_lines = [(e.to, e.data["line"], e.data["status"]) for e in out3.events
                     if e.kind == OUTCOME]
    # red's lines end now (each once, across three steps); blue's answer and standing order
    assert sorted(outcome_lines) == sorted([
        (("red",), 2, "carried out"), (("blue",), 1, "carried out"),
        (("blue",), 2, "carried out")])


def test_a_missing_answer_gets_the_default_at_the_deadline() -> None:
    out1 = step(start(ask=True), {"red": "ATTACK 2\n"}, [5, 6])
    assert DUEL.default_orders(out1.state, "blue").canonical() == "TAKE\n"
    out2 = process(DUEL, out1.state_json, {}, seed=b"x" * 32, dice=ScriptedDice([]))
    assert out2.defaulted == ["blue"]
    assert out2.state["hp"]["blue"] == 8


def test_random_playouts_in_ask_mode_end_and_replay_deterministically() -> None:
    cfg = GameConfig(("red", "blue"), "standard", {"decisions": "ask"})
    for seed in range(30):
        a = play(DUEL, cfg, seed)
        b = play(DUEL, cfg, seed)
        assert a.result is not None and a.final_digest == b.final_digest


# --- positions ------------------------------------------------------------------------------

def test_every_state_of_a_playout_round_trips_through_its_position() -> None:
    cfg = GameConfig(("red", "blue"), "standard", {"decisions": "ask"})
    p = play(DUEL, cfg, 3, keep=True)
    paused = 0
    for out in p.outcomes:
        text = DUEL.dump_position(out.state)
        back = DUEL.load_position(text)
        assert canonical_json(DUEL.dump(back)) == out.state_json
        assert DUEL.dump_position(back) == text
        paused += out.state["pause"] is not None
    assert paused > 0, "the playout paused for a decision at least once"


def test_a_bad_position_gets_one_line_naming_the_field() -> None:
    state = DUEL.load(json.loads(start()))
    text = DUEL.dump_position(state)
    assert "[hp]" in text and "pause" not in text  # None is left out
    cases = {
        text.replace('phase = "turn"', 'phase = "dance"'):
            "position: phase: expected 'bid' or 'turn' or 'over', got 'dance'",
        text.replace("red = 10", 'red = "ten"'): "position: hp.red: expected a whole number, got 'ten'",
        text.replace("round = 1", "rounds = 1"): "position: rounds: unknown field",
        text.replace('active = "red"', 'active = "green"'): "position: active: 'green' is not a seat",
        text.replace("pbem.ruleset = \"duel\"", "pbem.ruleset = \"chess\""): "position: pbem.ruleset: expected 'duel', got 'chess'",
        "x = [": "position: not valid TOML",
    }
    for bad, message in cases.items():
        with pytest.raises(PositionError) as err:
            DUEL.load_position(bad)
        assert str(err.value).startswith(message), str(err.value)
        assert "\n" not in str(err.value)


def test_toml_writer_round_trips_json_data() -> None:
    import tomllib
    data = {"a b": "q\"\n\\", "n": [1, 2.5, True], "t": {"x": {}, "y": [[1, {"z": 1}]]},
            "rows": [{"k": 1, "sub": {"j": 2}}, {"k": 2}], "e": [], "f": -0.0}
    assert tomllib.loads(to_toml(data)) == data


# --- effects ----------------------------------------------------------------------------------

def test_effect_registry_dispatches_and_lists_missing_handlers() -> None:
    fx = Effects("lore effect")

    @fx.register("heal", "mend")
    def heal(n: int) -> int:
        return n + 1

    assert fx("mend", 1) == 2
    assert fx.missing(["heal", "fire"]) == ["fire"]
    with pytest.raises(KeyError, match="no handler for lore effect 'fire'"):
        fx("fire", 1)
    with pytest.raises(ValueError):
        fx.register("heal")(heal)


def test_a_random_bot_with_broken_lines_never_crashes_the_kit() -> None:
    rng = random.Random(5)
    state_json = start()
    junk = ["ATTACK 9", "BID 2", "HEAL now", "GUARD", "fly away", "BLOCK"]
    for _ in range(12):
        state = DUEL.load(json.loads(state_json))
        if not DUEL.awaiting(state):
            break
        texts = {seat: "\n".join(DUEL.legal_orders(state, seat, rng) + [rng.choice(junk)]) + "\n"
                 for seat in DUEL.awaiting(state)}
        out = process(DUEL, state_json, texts, seed=bytes([rng.randrange(256)]) * 32)
        for seat in texts:
            lines = [e.data["line"] for e in out.events if e.kind == OUTCOME and e.to == (seat,)]
            assert len(lines) == len(set(lines))
        state_json = out.state_json


def test_not_required_fields_work_with_postponed_annotations() -> None:
    import sys
    import types as _types

    from pbem.core.kit.position import Shape

    mod = _types.ModuleType("postponed_state")
    exec("from __future__ import annotations\n"
         "from typing import NotRequired, TypedDict\n"
         "class S(TypedDict):\n    a: int\n    b: NotRequired[int]\n", mod.__dict__)
    sys.modules["postponed_state"] = mod
    try:
        assert Shape(mod.S).load(mod.S, {"a": 1}, "") == {"a": 1}
        with pytest.raises(PositionError, match="position: a: missing"):
            Shape(mod.S).load(mod.S, {"b": 1}, "")
    finally:
        del sys.modules["postponed_state"]
