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
    # the answer plus a standing order: the standing order takes the next retreat step,
    # so the turn finishes in this step (the end-of-turn draw is the only new draw)
    s4, _ = RULESET.resolve(s3, {"south": RULESET.parse(s3, "south", "ANSWER 12-4\nRETREAT SAFE")},
                            dice(0))
    assert s4["phase"] == "turn" and s4["active"] == "south"
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


def test_reaction_card_asked_with_react_ask() -> None:
    s = blank("spiders_lair")
    s["phase"] = "turn"
    s["options"]["decisions"] = "ask"
    s["lore"]["council"] = {"north": {"rogue": 1}, "south": {"rogue": 1}}
    s["lore"]["hands"] = {"north": [], "south": ["fearless"]}
    s["lore"]["offer"] = {"north": [], "south": []}
    s["lore"]["goblet"] = {"north": 0, "south": 3}
    s["lore"]["pool"] = 33
    s["hands"]["north"] = ["scout_centre"] * 4
    s["hand_size"]["north"] = 4
    s["standing"]["south"] = {"react_ask": "yes"}
    put(s, "N1", "north", "regular_infantry", (13, 7))
    put(s, "S1", "south", "regular_infantry", (12, 6))
    text = "PLAY scout_centre\nBATTLE N1 S1\nREPLENISH TOKENS\n"
    s2, ev2 = RULESET.resolve(s, {"north": RULESET.parse(s, "north", text)}, dice())
    assert s2["phase"] == "decision"
    assert s2["resume"]["pending"]["options"] == ["none", "fearless"]
    # the question names a card of south's hidden hand: nobody else may read it
    assert all("fearless" not in e.text for e in ev2 if e.visible("north") or e.to is None)
    assert any("fearless" in e.text for e in ev2 if e.to == ("south",))
    s3, ev = RULESET.resolve(s2, {"south": RULESET.parse(s2, "south", "ANSWER fearless\n"
                                                                     "IGNORE ALL\n"
                                                                     "BATTLEBACK NEVER")},
                             dice("F", "F", "F", 0))
    assert s3["phase"] == "turn"
    assert s3["units"]["S1"]["hex"] == [12, 6]
    assert any("Fearless" in e.text for e in ev) and s3["lore"]["goblet"]["south"] == 0


def test_replay_keeps_earlier_standing_layers() -> None:
    """A standing order sent with answer 1 decides a later question; when the turn is
    replayed for answer 2 it decides that question the same way."""
    s = setup_fight(ask=True)
    put(s, "N2", "north", "regular_infantry", (16, 6))
    put(s, "S4", "south", "regular_infantry", (17, 5))
    put(s, "S5", "south", "regular_infantry", (19, 5))
    put(s, "S6", "south", "regular_infantry", (18, 4))
    s["hands"]["north"] = ["order_two_centre"] * 6
    text = "PLAY order_two_centre\nBATTLE N1 S1\nBATTLE N2 S4\n"
    s2, _ = RULESET.resolve(s, {"north": RULESET.parse(s, "north", text)}, dice("F", "F", "L"))
    assert s2["resume"]["pending"]["kind"] == "ignore"
    s3, _ = RULESET.resolve(s2, {"south": RULESET.parse(s2, "south", "ANSWER 1\nRETREAT SAFE")},
                            dice("F", "L", "L"))
    assert s3["resume"]["pending"]["question"].startswith("S4")  # the retreat was not asked
    s4, ev = RULESET.resolve(s3, {"south": RULESET.parse(s3, "south", "ANSWER 0")}, dice(0))
    assert s4["phase"] == "turn"
    assert s4["units"]["S1"]["hex"] == [12, 4] and s4["units"]["S4"]["hex"] == [16, 4]
    assert s4["units"]["N1"]["hex"] == [13, 5] and s4["units"]["N2"]["hex"] == [17, 5]
    assert s4["standing"]["south"]["retreat"] == "safe"


def ask_state(hand: list[str], goblet: int = 3, **options: object) -> dict:
    s = blank("spiders_lair")
    s["phase"] = "turn"
    s["options"]["decisions"] = "ask"
    s["options"].update(options)
    s["lore"]["council"] = {"north": {"rogue": 1}, "south": {"rogue": 1}}
    s["lore"]["hands"] = {"north": [], "south": list(hand)}
    s["lore"]["offer"] = {"north": [], "south": []}
    s["lore"]["deck"] = ["agility", "fearless", "pick_pocket"]
    s["lore"]["discard"] = []
    s["lore"]["goblet"] = {"north": 0, "south": goblet}
    s["lore"]["pool"] = s["lore"]["total"] - goblet
    s["hands"]["north"] = ["scout_centre"] * 4
    s["hand_size"]["north"] = 4
    put(s, "N1", "north", "regular_infantry", (13, 7))
    put(s, "S1", "south", "regular_infantry", (12, 6))
    return s


ASK_TURN = "PLAY scout_centre\nBATTLE N1 S1\nREPLENISH TOKENS\n"


def test_ask_means_ask_without_react_ask() -> None:
    """decisions=ask: a reaction window with no standing order covering it asks the seat
    (the issue: reactions work as standing orders and as `ask`), no REACT ASK needed."""
    s = ask_state(["fearless"])
    s2, _ = RULESET.resolve(s, {"north": RULESET.parse(s, "north", ASK_TURN)}, dice())
    assert s2["phase"] == "decision"
    assert s2["resume"]["pending"]["options"] == ["none", "fearless"]
    # REACT NONE: pass without being asked
    s = ask_state(["fearless"])
    s["standing"]["south"] = {"react_ask": "no"}
    s3, _ = RULESET.resolve(s, {"north": RULESET.parse(s, "north", ASK_TURN)},
                            dice("G", "G", "G", 0))
    assert s3["phase"] == "turn"
    # a standing REACT that covers the window answers it without a question
    s = ask_state(["fearless"])
    s["standing"]["south"] = {"react fearless": "S1"}
    s4, ev = RULESET.resolve(s, {"north": RULESET.parse(s, "north", ASK_TURN)},
                             dice("F", "G", "G", 0))
    assert any("Fearless" in e.text for e in ev)


def _public(events: list) -> list[str]:
    return [e.text for e in events if e.to is None or e.visible("north")]


def test_ask_blind_asks_whether_or_not_the_hand_holds_a_card() -> None:
    """ask_blind (default): asked at every window where some card of the game's deck could
    be played with the seat's (public) tokens, so north learns nothing from the question."""
    with_card = ask_state(["fearless"])
    without = ask_state(["pick_pocket"])
    a, ev_a = RULESET.resolve(with_card, {"north": RULESET.parse(with_card, "north", ASK_TURN)},
                              dice())
    b, ev_b = RULESET.resolve(without, {"north": RULESET.parse(without, "north", ASK_TURN)},
                              dice())
    assert a["phase"] == b["phase"] == "decision"
    assert b["resume"]["pending"]["options"] == ["none"]
    assert _public(ev_a) == _public(ev_b)
    assert RULESET.view(a, "north") == RULESET.view(b, "north")
    assert RULESET.view(a, None) == RULESET.view(b, None)
    # too few tokens for any card of the deck: not asked (tokens are public)
    poor = ask_state(["fearless"], goblet=0)
    c, _ = RULESET.resolve(poor, {"north": RULESET.parse(poor, "north", ASK_TURN)},
                           dice("G", "G", "G", 0))
    assert c["phase"] == "turn"


def test_ask_blind_off_asks_only_a_seat_holding_a_playable_card() -> None:
    s = ask_state(["pick_pocket"], ask_blind=False)
    s2, _ = RULESET.resolve(s, {"north": RULESET.parse(s, "north", ASK_TURN)},
                            dice("G", "G", "G", 0))
    assert s2["phase"] == "turn"
    s = ask_state(["fearless"], ask_blind=False)
    s3, _ = RULESET.resolve(s, {"north": RULESET.parse(s, "north", ASK_TURN)}, dice())
    assert s3["phase"] == "decision"


def test_unasked_seat_may_send_standing_orders_only() -> None:
    """accepts_unasked: south, not awaited in north's turn, sends REACT NONE with north's
    step and is not asked in it; any other line from it is refused with the reason."""
    s = ask_state(["fearless"])
    s["hands"]["south"] = ["scout_centre"] * 4
    s["hand_size"]["south"] = 4
    assert RULESET.accepts_unasked(s, "south")
    bad = RULESET.parse(s, "south", "REACT NONE\nBATTLE S1 N1\n")
    assert bad.lines[0].ok and not bad.lines[1].ok
    assert "north is awaited" in (bad.lines[1].error or "")
    texts = {"north": ASK_TURN, "south": "REACT NONE\n"}
    out = process(RULESET, canonical_json(RULESET.dump(s)), texts, seed=b"r" * 32)
    assert out.state["phase"] == "turn"
    out2 = process(RULESET, canonical_json(RULESET.dump(s)), {"north": ASK_TURN},
                   seed=b"r" * 32)
    assert out2.state["phase"] == "decision"


def test_ask_before_a_bonus_attack() -> None:
    """decisions=ask: the defender is asked again before the bonus attack's roll (p.30: a
    'before your opponent rolls' card covers one roll), here after passing the first."""
    s = ask_state(["agility"])
    s["standing"]["south"] = {"retreat": "safe"}
    s["units"] = {}
    put(s, "N1", "north", "regular_cavalry", (13, 7))
    put(s, "S1", "south", "regular_infantry", (12, 6))
    put(s, "S2", "south", "regular_infantry", (10, 6))
    text = "PLAY scout_centre\nBATTLE N1 S1 NOPURSUE BONUS S2\nREPLENISH TOKENS\n"
    s2, _ = RULESET.resolve(s, {"north": RULESET.parse(s, "north", text)}, dice())
    assert "N1 attacks your S1" in s2["resume"]["pending"]["question"]
    s3, _ = RULESET.resolve(s2, {"south": RULESET.parse(s2, "south", "ANSWER none")},
                            dice("F", "R", "R"))
    # after the roll: the 'after opponent rolls' window, no card in the deck for it: no
    # question; the retreat by the standing order; then the bonus attack's window
    assert s3["phase"] == "decision"
    assert "bonus attack on your S2" in s3["resume"]["pending"]["question"]
    assert s3["resume"]["pending"]["options"] == ["none", "agility"]
    s4, ev = RULESET.resolve(s3, {"south": RULESET.parse(s3, "south", "ANSWER agility")},
                             dice("B", "R", "R", 0))
    assert s4["phase"] == "turn" and any("Agility: S2 ignores one hit" in e.text for e in ev)
    assert s4["units"]["S2"]["fig"] == 4
