"""The steps of a game (phases.py): the set-up steps, the turn, and the mid-turn decisions
of the other seat through the kit: standing orders, `ask` (a short step that resumes the
turn exactly where it stopped, dice kept) and `auto` defaults."""

from __future__ import annotations

import random
from typing import Any

import pytest

from pbem.core.engine import canonical_json, process, set_up
from pbem.core.orders import Parsed
from pbem.core.ruleset import GameConfig

from .helpers import R as RULESET
from .helpers import Zero, blank, dice, put


def question(s: Any) -> Any:
    """The open question of a paused turn (kind, text, bare options, default)."""
    q = RULESET.questions(s)[0]
    return {"seat": q.seat, "kind": q.kind, "question": q.text, "default": q.default[7:],
            "options": [o[7:] for o in q.options]}


def paused(s: Any) -> bool:
    return s["pause"] is not None


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
    assert not paused(s2) and s2["active"] == "south"
    assert s2["units"]["S1"]["hex"][1] == 4  # ignored one flag (supported), retreated one


def test_ask_pauses_and_resumes_with_the_same_dice() -> None:
    s = setup_fight(ask=True)
    s2, ev = RULESET.resolve(s, {"north": RULESET.parse(s, "north", TURN)}, dice("F", "F", "L"))
    assert paused(s2)
    prompt = RULESET.awaiting(s2)
    assert list(prompt) == ["south"] and "ignore" in prompt["south"].text
    assert RULESET.view(s2, "south")["question"]["options"] == ["1", "0"]
    assert "question" not in RULESET.view(s2, "north")
    bad = RULESET.parse(s2, "south", "ANSWER 3")
    assert "not an answer" in (bad.lines[0].error or "")
    # the answer: ignore none -> retreat 2 hexes, each step asked again
    s3, ev3 = RULESET.resolve(s2, {"south": RULESET.parse(s2, "south", "ANSWER 0")}, dice())
    assert paused(s3) and question(s3)["kind"] == "retreat"
    # the answer plus a standing order: the standing order takes the next retreat step,
    # so the turn finishes in this step (the end-of-turn draw is the only new draw)
    s4, _ = RULESET.resolve(s3, {"south": RULESET.parse(s3, "south", "ANSWER 12-4\nRETREAT SAFE")},
                            dice(0))
    assert not paused(s4) and s4["active"] == "south"
    assert s4["units"]["S1"]["hex"][1] == 3
    assert s4["standing"]["south"]["retreat"] == "safe"
    # events already reported are not repeated
    assert not any("attacks" in e.text for e in ev3)


def test_standing_orders_avoid_questions() -> None:
    s = setup_fight(ask=True)
    s["standing"]["south"] = {"ignore": "all", "battleback": "never"}
    s2, ev = RULESET.resolve(s, {"north": RULESET.parse(s, "north", TURN)},
                             dice("F", "L", "L", 0))
    assert not paused(s2) and any("does not battle back" in e.text for e in ev)


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
        if paused(out.state):  # NMR for the question: the default answer
            texts = {}
        seen_question |= paused(out.state)
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
    assert paused(s2)
    assert question(s2)["options"] == ["none", "fearless"]
    # the question names a card of south's hidden hand: nobody else may read it
    assert all("fearless" not in e.text for e in ev2 if e.visible("north") or e.to is None)
    assert any("fearless" in e.text for e in ev2 if e.to == ("south",))
    s3, ev = RULESET.resolve(s2, {"south": RULESET.parse(s2, "south", "ANSWER fearless\n"
                                                                     "IGNORE ALL\n"
                                                                     "BATTLEBACK NEVER")},
                             dice("F", "F", "F", 0))
    assert not paused(s3)
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
    assert question(s2)["kind"] == "ignore"
    s3, _ = RULESET.resolve(s2, {"south": RULESET.parse(s2, "south", "ANSWER 1\nRETREAT SAFE")},
                            dice("F", "L", "L"))
    assert question(s3)["question"].startswith("S4")  # the retreat was not asked
    s4, ev = RULESET.resolve(s3, {"south": RULESET.parse(s3, "south", "ANSWER 0")}, dice(0))
    assert not paused(s4)
    assert s4["units"]["S1"]["hex"] == [12, 4] and s4["units"]["S4"]["hex"] == [16, 4]
    assert s4["units"]["N1"]["hex"] == [13, 5] and s4["units"]["N2"]["hex"] == [17, 5]
    assert s4["standing"]["south"]["retreat"] == "safe"


def test_a_standing_order_sent_with_an_answer_is_in_force_and_shown_at_once() -> None:
    """The kit absorbs standing orders sent with an answer right after that answer: they
    decide the rest of the paused turn, and the seat's report lists them from the next
    question on (before the kit, the list showed them only once the turn was over)."""
    s = setup_fight(ask=True)
    put(s, "N2", "north", "regular_infantry", (16, 6))
    put(s, "S4", "south", "regular_infantry", (17, 5))
    put(s, "S5", "south", "regular_infantry", (19, 5))
    put(s, "S6", "south", "regular_infantry", (18, 4))
    s["hands"]["north"] = ["order_two_centre"] * 6
    text = "PLAY order_two_centre\nBATTLE N1 S1\nBATTLE N2 S4\n"
    s2, _ = RULESET.resolve(s, {"north": RULESET.parse(s, "north", text)}, dice("F", "F", "L"))
    s3, _ = RULESET.resolve(s2, {"south": RULESET.parse(s2, "south", "ANSWER 1\nRETREAT LEFT")},
                            dice("F", "L", "L"))
    assert paused(s3) and question(s3)["question"].startswith("S4")
    assert RULESET.view(s3, "south")["standing"] == {"retreat": "left"}
    assert "standing" not in RULESET.view(s3, "north") or \
        RULESET.view(s3, "north")["standing"] == {}


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
    assert paused(s2)
    assert question(s2)["options"] == ["none", "fearless"]
    # REACT NONE: pass without being asked
    s = ask_state(["fearless"])
    s["standing"]["south"] = {"react_ask": "no"}
    s3, _ = RULESET.resolve(s, {"north": RULESET.parse(s, "north", ASK_TURN)},
                            dice("G", "G", "G", 0))
    assert not paused(s3)
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
    assert paused(a) and paused(b)
    assert question(b)["options"] == ["none"]
    assert _public(ev_a) == _public(ev_b)
    assert RULESET.view(a, "north") == RULESET.view(b, "north")
    assert RULESET.view(a, None) == RULESET.view(b, None)
    # too few tokens for any card of the deck: not asked (tokens are public)
    poor = ask_state(["fearless"], goblet=0)
    c, _ = RULESET.resolve(poor, {"north": RULESET.parse(poor, "north", ASK_TURN)},
                           dice("G", "G", "G", 0))
    assert not paused(c)


def test_ask_blind_off_asks_only_a_seat_holding_a_playable_card() -> None:
    s = ask_state(["pick_pocket"], ask_blind=False)
    s2, _ = RULESET.resolve(s, {"north": RULESET.parse(s, "north", ASK_TURN)},
                            dice("G", "G", "G", 0))
    assert not paused(s2)
    s = ask_state(["fearless"], ask_blind=False)
    s3, _ = RULESET.resolve(s, {"north": RULESET.parse(s, "north", ASK_TURN)}, dice())
    assert paused(s3)


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
    assert not paused(out.state)
    out2 = process(RULESET, canonical_json(RULESET.dump(s)), {"north": ASK_TURN},
                   seed=b"r" * 32)
    assert paused(out2.state)


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
    assert "N1 attacks your S1" in question(s2)["question"]
    s3, _ = RULESET.resolve(s2, {"south": RULESET.parse(s2, "south", "ANSWER none")},
                            dice("F", "R", "R"))
    # after the roll: the 'after opponent rolls' window, no card in the deck for it: no
    # question; the retreat by the standing order; then the bonus attack's window
    assert paused(s3)
    assert "bonus attack on your S2" in question(s3)["question"]
    assert question(s3)["options"] == ["none", "agility"]
    s4, ev = RULESET.resolve(s3, {"south": RULESET.parse(s3, "south", "ANSWER agility")},
                             dice("B", "R", "R", 0))
    assert not paused(s4) and any("Agility: S2 ignores one hit" in e.text for e in ev)
    assert s4["units"]["S2"]["figures"] == 4


# --- set-up steps (D1-D3) --------------------------------------------------------------------

def test_sealed_council_keep_and_place_steps() -> None:
    s = RULESET.setup(GameConfig(("north", "south"), "spiders_lair"), Zero())
    assert set(RULESET.awaiting(s)) == {"north", "south"}
    orders = {"north": RULESET.parse(s, "north", "COUNCIL commander 3 wizard 3"),
              "south": RULESET.parse(s, "south", "COUNCIL cleric 3 commander 2")}
    s, _ = RULESET.resolve(s, orders, Zero())
    assert s["phase"] == "keep" and set(RULESET.awaiting(s)) == {"north", "south"}
    keep = {x: RULESET.parse(s, x, "KEEP " + " ".join(s["lore"]["offer"][x][:3]))
            for x in ("north", "south")}
    assert all(p.ok for p in keep.values())
    s, _ = RULESET.resolve(s, keep, Zero())
    assert s["lore"]["goblet"] == {"north": 3, "south": 3}
    assert s["phase"] == "place" and list(RULESET.awaiting(s)) == ["north"]
    assert [p["kind"] for p in s["place_queue"]] == ["pentagram", "stronghold", "healing_spring"]
    s, _ = RULESET.resolve(s, {"north": RULESET.parse(s, "north", "PLACE pentagram 13-7\n"
                                                                     "PLACE stronghold 12-8")},
                           Zero())
    assert s["landmarks"]["13-7"]["kind"] == "pentagram"
    assert s["landmarks"]["12-8"] == {"kind": "stronghold", "owner": "north"}
    assert list(RULESET.awaiting(s)) == ["south"]
    s, _ = RULESET.resolve(s, {"south": Parsed()}, Zero())
    assert any(v["kind"] == "healing_spring" for v in s["landmarks"].values())
    assert s["phase"] == "turn"


def test_a_council_over_budget_is_refused_on_arrival() -> None:
    """TC-48 (p.35): the levels add up to at most the option council_levels (6)."""
    s0 = RULESET.setup(GameConfig(("north", "south"), "spiders_lair"), Zero())
    bad = RULESET.parse(s0, "north", "COUNCIL commander 3 wizard 3 cleric 3")
    assert "the council uses 9 levels; you have 6" in (bad.lines[0].error or "")
    orders = {"north": RULESET.parse(s0, "north", "COUNCIL commander 2 wizard 1 cleric 1"),
              "south": RULESET.parse(s0, "south", "COUNCIL wizard 3 commander 2")}
    s, _ = RULESET.resolve(s0, orders, Zero())
    later = RULESET.parse(s, "north", "COUNCIL commander 3 wizard 3 cleric 3")
    assert "not part of this step" in (later.lines[0].error or "")  # the council is over


@pytest.mark.parametrize("text,err", [
    ("KEEP fireball fireball fireball", "not among your 4 cards"),
    ("KEEP portal portal", "keep exactly 1 card(s)"),
])
def test_keep_errors(text: str, err: str) -> None:
    s = RULESET.setup(GameConfig(("north", "south"), "spiders_lair"), Zero())
    s["phase"] = "keep"
    s["lore"]["council"] = {"north": {"wizard": 1}, "south": {"wizard": 1}}
    s["lore"]["offer"]["north"] = ["eagle_eye", "mass_speed", "portal", "portal"]
    assert err in (RULESET.parse(s, "north", text).lines[0].error or "")


def test_nmr_defaults_parse_in_every_step() -> None:
    s = blank()
    put(s, "N1", "north", "regular_infantry", (13, 7))
    p = RULESET.default_orders(s, "north")
    assert p.ok and p.orders and str(p.orders[0]).startswith("PLAY ")
    s = RULESET.setup(GameConfig(("north", "south"), "spiders_lair"), Zero())
    # south's Giant Spider costs one of the 6 levels (spec §2.11)
    assert RULESET.default_orders(s, "south").canonical() == "COUNCIL commander 2 wizard 3\n"
