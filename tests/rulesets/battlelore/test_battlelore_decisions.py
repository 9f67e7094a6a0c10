"""Mid-turn decisions of the other seat: standing orders, `ask` (a short step that resumes
the turn exactly where it stopped, dice kept) and `auto` defaults."""

from __future__ import annotations

import random

from battlelore_helpers import RULESET, blank, dice, put

from pbem.core.engine import canonical_json, process, set_up
from pbem.core.ruleset import GameConfig


def setup_fight(ask: bool) -> dict:
    s = blank()
    s["options"]["decisions"] = "ask" if ask else "auto"
    s["hands"]["north"] = ["scout_centre"] * 6
    put(s, "N1", "north", "regular_infantry", (12, 6))
    put(s, "S1", "south", "regular_infantry", (13, 5))
    put(s, "S2", "south", "regular_infantry", (11, 5))
    put(s, "S3", "south", "regular_infantry", (15, 5))
    return s


TURN = "PLAY scout_centre\nBATTLE N1 S1\n"


def test_auto_turn_resolves_in_one_step() -> None:
    s = setup_fight(ask=False)
    s2, ev = RULESET.resolve(s, {"north": RULESET.parse(s, "north", TURN)},
                             dice("F", "F", "L", 0))
    assert s2["phase"] == "turn" and s2["active"] == "south"
    assert s2["units"]["S1"]["hex"][1] == 4  # ignored one flag (supported), retreated one


def test_ask_pauses_and_resumes_with_the_same_dice() -> None:
    s = setup_fight(ask=True)
    s2, ev = RULESET.resolve(s, {"north": RULESET.parse(s, "north", TURN)}, dice("F", "F", "L"))
    assert s2["phase"] == "decision"
    prompt = RULESET.awaiting(s2)
    assert list(prompt) == ["south"] and "ignore" in prompt["south"].text
    assert RULESET.view(s2, "south")["question"]["options"] == ["1", "0"]
    assert "question" not in RULESET.view(s2, "north")
    bad = RULESET.parse(s2, "south", "ANSWER 3")
    assert "not an answer" in (bad.lines[0].error or "")
    # the answer: ignore none -> retreat 2 hexes, each step asked again
    s3, ev3 = RULESET.resolve(s2, {"south": RULESET.parse(s2, "south", "ANSWER 0")}, dice())
    assert s3["phase"] == "decision" and s3["resume"]["pending"]["kind"] == "retreat"
    s4, _ = RULESET.resolve(s3, {"south": RULESET.parse(s3, "south", "ANSWER 12-4\nRETREAT SAFE")},
                            dice())
    assert s4["units"]["S1"]["hex"] == [12, 4] or s4["phase"] == "decision"
    while s4["phase"] == "decision":
        s4, _ = RULESET.resolve(s4, {"south": RULESET.default_orders(s4, "south")}, dice(0))
    assert s4["units"]["S1"]["hex"][1] == 3
    assert s4["standing"]["south"]["retreat"] == "safe"
    # events already reported are not repeated
    assert not any("attacks" in e.text for e in ev3)


def test_standing_orders_avoid_questions() -> None:
    s = setup_fight(ask=True)
    s["standing"]["south"] = {"ignore": "all", "battleback": "never"}
    s2, ev = RULESET.resolve(s, {"north": RULESET.parse(s, "north", TURN)},
                             dice("F", "L", "L", 0))
    assert s2["phase"] == "turn" and any("does not battle back" in e.text for e in ev)


def test_engine_round_trip_through_a_question() -> None:
    cfg = GameConfig(("north", "south"), "agincourt", {"decisions": "ask"})
    out = set_up(RULESET, cfg, b"k" * 32)
    seen_question = False
    rng = random.Random(1)
    for step in range(1, 200):
        if not out.awaiting:
            break
        texts = {seat: "\n".join(RULESET.legal_orders(out.state, seat, rng)) + "\n"
                 for seat in out.awaiting}
        if out.state["phase"] == "decision":  # NMR for the question: the default answer
            texts = {}
        seen_question |= out.state["phase"] == "decision"
        out = process(RULESET, out.state_json, texts, seed=bytes([step]) * 32)
        assert canonical_json(RULESET.dump(out.state)) == out.state_json
    assert seen_question
