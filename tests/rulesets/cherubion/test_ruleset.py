"""Files from seats that are not awaited (Ruleset.accepts_unasked): standing orders and a
surrender sent at any time (spec DP16, §5.21.3) are locked with the step and applied when
it is processed; turn actions in such a file are refused at parse time."""

from __future__ import annotations

import json

from pbem.core.dice import ScriptedDice
from pbem.core.engine import process
from pbem.rulesets.cherubion import RULESET

from .helpers import build, place, set_turn, texts


def three(**kw):
    return build({"alpha": "melan", "beta": "choler", "gamma": "sang"},
                 {"alpha": 4, "beta": 1, "gamma": 2}, **kw)


def test_accepts_unasked_only_in_the_turn_phase_and_for_living_seats() -> None:
    st = three()
    set_turn(st, "alpha")
    assert RULESET.accepts_unasked(st, "beta")
    st["players"]["beta"]["alive"] = False
    assert not RULESET.accepts_unasked(st, "beta")
    st["phase"] = "place"
    assert not RULESET.accepts_unasked(st, "gamma")


def test_unasked_file_may_hold_standing_orders_and_surrender_only() -> None:
    st = three()
    set_turn(st, "alpha")
    p = RULESET.parse(st, "beta", "WHEN ZERO ON ANY PLAY Gyogyitas BY ANY\nSURRENDER\n"
                      "MOVE CH2 A1 A2\nFREEATTACK NO")
    assert [ln.error is None for ln in p.lines] == [True, True, False, True]
    err = p.lines[2].error
    assert err is not None and "not yours to send now" in err and "standing orders" in err


def test_surrender_sent_in_another_players_turn_takes_effect_when_the_step_is_processed(
        ) -> None:
    st = three()
    place(st, ME4="H12", CH2="B5", SA1="L3")
    set_turn(st, "alpha", me=0)
    out = process(RULESET, json.dumps(st), {"alpha": "", "beta": "SURRENDER"},
                  seed=b"x", dice=ScriptedDice([3, 4]))
    assert "beta" in out.applied
    assert not out.state["players"]["beta"]["alive"]
    assert out.state["pieces"]["CH2"]["loc"] == "gone"
    assert "beta surrenders" in texts(out.events)
    assert out.state["active"] == "gamma"  # alpha's turn went on; beta is skipped
    assert out.result is None


def test_unasked_surrender_of_the_last_opponent_ends_the_game() -> None:
    st = build({"alpha": "melan", "beta": "choler"}, {"alpha": 4, "beta": 1})
    place(st, ME4="H12", CH2="B5")
    set_turn(st, "alpha", me=0)
    out = process(RULESET, json.dumps(st), {"alpha": "MOVE ME4 H13", "beta": "SURRENDER"},
                  seed=b"x", dice=ScriptedDice([]))
    assert out.result is not None and out.result.winners == ("alpha",)


def test_unasked_standing_orders_are_stored_and_actions_ignored() -> None:
    st = three()
    place(st, ME4="H12", CH2="B5")
    set_turn(st, "alpha", me=0)
    out = process(RULESET, json.dumps(st), {
        "alpha": "", "beta": "FREEATTACK NO\nWHEN DAMAGE ON ANY PLAY Eppenhogy BY ANY\n"
        "MOVE CH2 B6"}, seed=b"x", dice=ScriptedDice([3, 4]))
    pl = out.state["players"]["beta"]
    assert pl["standing"]["freeattack"] is False
    assert pl["triggers"] and pl["triggers"][0]["event"] == "DAMAGE"
    assert out.state["pieces"]["CH2"]["loc"] == "B5"


def test_active_seat_surrenders_during_an_answer_step() -> None:
    st = build({"alpha": "melan", "beta": "choler", "gamma": "sang"},
               {"alpha": 4, "beta": 1, "gamma": 2}, options={"decisions": "ask"})
    place(st, ME4="H12", CH2="H12", SA1="L3")
    st["players"]["alpha"]["hand"] = ["n05"]
    st["players"]["alpha"]["energy"] = 3
    set_turn(st, "beta")
    p = RULESET.parse(st, "beta", "ATTACK CH2 ME4")
    st, _ = RULESET.resolve(st, {"beta": p}, ScriptedDice([2, 4, 4]))
    assert list(RULESET.awaiting(st)) == ["alpha"]
    out = process(RULESET, json.dumps(st), {"alpha": "PASS", "beta": "SURRENDER"},
                  seed=b"x", dice=ScriptedDice([6, 1, 1, 2, 3, 4, 5, 6, 1, 2]))
    assert not out.state["players"]["beta"]["alive"]
    assert out.state["active"] in ("gamma", "alpha") and out.result is None


def test_active_seat_surrenders_while_an_answer_is_asked_keeps_the_cards() -> None:
    """alpha answers beta's blow with Éppenhogy in the same step where beta (the active
    seat) surrenders unasked: the stack lapses, the card goes to alpha's graveyard."""
    st = build({"alpha": "melan", "beta": "choler", "gamma": "sang"},
               {"alpha": 4, "beta": 1, "gamma": 2}, options={"decisions": "ask"})
    place(st, ME4="H12", CH2="H12", SA1="L3")
    st["players"]["alpha"]["hand"] = ["n05"]
    st["players"]["alpha"]["energy"] = 3
    set_turn(st, "beta")
    p = RULESET.parse(st, "beta", "ATTACK CH2 ME4")
    st, _ = RULESET.resolve(st, {"beta": p}, ScriptedDice([2, 4, 4]))
    out = process(RULESET, json.dumps(st), {"alpha": "PLAY n05 BY ME4 ON CH2",
                                            "beta": "SURRENDER"},
                  seed=b"x", dice=ScriptedDice([6, 1, 1, 2, 3, 4, 5, 6, 1, 2]))
    assert not out.state["players"]["beta"]["alive"]
    assert out.state["players"]["alpha"]["grave"] == ["n05"]
