"""Every order line ends with exactly one outcome its seat sees (DESIGN §3), lines are judged
on arrival, and the findings of the outcome audit: a RETREAT naming no possible
destination, standing orders from a seat that is not awaited, two action D's in one turn,
a bid cut to the reserve."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from pbem.core.dice import ScriptedDice
from pbem.core.engine import canonical_json, process, set_up
from pbem.core.kit import OUTCOME
from pbem.core.ruleset import GameConfig

from .helpers import RS, ex1, region, send


def outcomes(events: list[Any], seat: str) -> list[tuple[int, str, str]]:
    return [(e.data["line"], e.data["status"], e.data["why"]) for e in events
            if e.kind == OUTCOME and e.to == (seat,)]


# --- RETREAT ... TO: "az ellenfél átrakhatja egy egységét egy üres vagy egy általa
# irányított szomszédos régióra" (rulebook "Megszerzés": one unit to an adjacent region
# that is empty or the loser's own) --------------------------------------------------------

def _asked_to_retreat() -> dict[str, Any]:
    state = ex1(cycle_type="steel", held={"orange": ["castle"]}, decisions="ask")
    send(state, "orange", "PLAY castle SEIZE d\nRECRUIT")
    assert [q.kind for q in RS.questions(state)] == ["retreat"]
    return state


def test_a_retreat_answer_naming_no_possible_destination_is_refused_on_arrival() -> None:
    state = _asked_to_retreat()
    bad = RS.parse(state, "white", "RETREAT knight TO a g")
    assert bad.lines[0].error == (
        "a, g: not a possible destination; the unit may go to b, c (adjacent, empty or "
        "yours), e.g. RETREAT knight TO b")
    bad = RS.parse(state, "white", "RETREAT mage TO b")
    assert bad.lines[0].error == "there is no mage in D; answer RETREAT knight TO b or RETREAT none"
    assert RS.parse(state, "white", "RETREAT knight TO a c").ok  # c is possible
    events = send(state, "white", "RETREAT knight TO a c")
    assert region(state, "c") == ("white", 2, 2)
    assert outcomes(events, "white") == [(1, "carried out", "your answer was used")]


def test_a_standing_retreat_preference_that_cannot_be_followed_is_reported() -> None:
    state = ex1(cycle_type="steel", held={"orange": ["castle"]})
    state["standing"]["white"]["retreat"] = ["RETREAT mage TO a g"]
    events = send(state, "orange", "PLAY castle SEIZE d\nRECRUIT")
    assert region(state, "b") == ("white", 2, 1)  # the documented fallback
    told = [e for e in events if e.kind == "retreat_changed"]
    assert [(e.to, e.text) for e in told] == [(
        ("white",), "Your standing order RETREAT mage TO a g: there was no mage in D, so a "
        "knight retreated; a, g could not take it, so it went to B.")]


# --- a seat that is not awaited: its standing orders are kept, as the refusal says -----------

def test_standing_orders_from_a_seat_that_is_not_awaited_are_kept() -> None:
    state = ex1(cycle_type="steel", held={"orange": ["castle"]})
    assert RS.accepts_unasked(state, "white")
    parsed = RS.parse(state, "white", "SERPENT NEVER\nRECRUIT")
    assert parsed.lines[0].ok
    assert parsed.lines[1].error == ("RECRUIT is not yours to send now: orange is awaited; "
                                     "you may send standing orders only")
    out = process(RS, canonical_json(state), {"orange": "RECRUIT\nRECRUIT\n",
                                              "white": "SERPENT NEVER\nRECRUIT\n"},
                  seed=b"s" * 32, dice=ScriptedDice([]))
    assert out.state["standing"]["white"]["serpent"] == ["SERPENT NEVER"]
    assert outcomes(out.events, "white") == [
        (2, "refused", parsed.lines[1].error), (1, "carried out", "kept as your standing order")]


# --- two action D's: "A játékos kijátszik bárhány akciólapkát" (rulebook "D) Akciólapkák
# kijátszása": one action D plays any number of tiles), so two D's in a turn need a marker -

def test_end_d_separates_two_action_ds() -> None:
    state = ex1(cycle_type="steel", held={"orange": ["strength-tent", "sea"]})
    events = send(state, "orange", "PLAY strength-tent\nEND D\nPLAY sea RECRUIT\nRECRUIT")
    assert outcomes(events, "orange") == [
        (1, "carried out", ""),
        (2, "carried out", "the action D ends here; a PLAY line after it starts a new one"),
        (3, "carried out", ""),
        (4, "not needed", "your 2 actions were used before this line")]
    assert state["turn"]["seat"] == "white"
    # without the marker the two tiles are one action D, and the RECRUIT is the second action
    state = ex1(cycle_type="steel", held={"orange": ["strength-tent", "sea"]})
    events = send(state, "orange", "PLAY strength-tent\nPLAY sea RECRUIT\nRECRUIT")
    assert [o[1] for o in outcomes(events, "orange")] == ["carried out"] * 3


# --- bids: "A játékosok ... licitálnak a tartalékukban lévő aktív egységeikkel" (bids are
# made with the active units in reserve) ---------------------------------------------------

def test_a_bid_cut_to_the_reserve_is_a_changed_outcome() -> None:
    state = ex1(cycle_type="steel", hourglass=4, turn="white", display=["vp"],
                reserve={"white": (1, 0)})
    assert RS.parse(state, "white", "TAKE vp BID 3").lines[0].note == (
        "you have 1 knights in reserve now; a higher bid is cut to your reserve when the "
        "auction is held")
    events = send(state, "white", "PLACE b\nTAKE vp BID 1")
    assert outcomes(events, "white") == [
        (1, "carried out", ""),
        (2, "changed", "your bid of 1 was cut to 0, your knights in reserve; equal bids: "
                       "nobody won the tile")]
    assert "bid_cut" not in {e.kind for e in events}


# --- the generic check: random playouts with broken lines ------------------------------------

JUNK = {
    "turn": ["PLAY movement mer wes 9K 0M", "PLACE {enemy}", "BID 3", "CANCEL", "fly away",
             "REBEL mer 3K", "PLAY sea pow wes 1K", "TAKE vp BID 99", "END D",
             "IF HOLD {enemy} THEN PLACE {enemy}", "RETREAT knight TO str"],
    "asked": ["RECRUIT", "BID 99", "RETREAT mage TO str", "PASS", "SWAP mer nowhere",
              "SERPENT NEXT seize", "DECLINE"],
    "unasked": ["RECRUIT", "SERPENT NEVER", "BID any 1", "CANCEL", "PLACE mer"],
}


def _junk(state: dict[str, Any], seat: str, kind: str, rng: random.Random) -> list[str]:
    enemy = [r for r, reg in state["regions"].items() if reg["owner"] not in (None, seat)]
    return [rng.choice(JUNK[kind]).format(enemy=rng.choice(enemy) if enemy else "mer")
            for _ in range(rng.randint(1, 3))]


def test_every_line_of_broken_random_playouts_gets_exactly_one_outcome_seen_by_its_seat(
) -> None:
    rng = random.Random(14)
    checked = Counter[str]()
    for game in range(8):
        options = {"decisions": "ask" if game % 2 else "auto"}
        out = set_up(RS, GameConfig(("orange", "white"), "standard", options),
                     game.to_bytes(4, "big"))
        waiting: Counter[tuple[str, int, str]] = Counter()
        steps = 0
        while out.awaiting and steps < 400:
            steps += 1
            state = out.state
            asked = {q.seat for q in RS.questions(state)}
            texts = {}
            for seat in ("orange", "white"):
                if seat in out.awaiting:
                    lines = RS.legal_orders(state, seat, rng)
                    junk = _junk(state, seat, "asked" if asked else "turn", rng)
                elif rng.random() < 0.3:
                    lines, junk = [], _junk(state, seat, "unasked", rng)
                else:
                    continue
                for line in junk:
                    lines.insert(rng.randint(0, len(lines)), line)
                texts[seat] = "\n".join(lines) + "\n"
            out = process(RS, out.state_json, texts, seed=rng.randbytes(32))
            for seat, text in out.applied.items():
                for ln in RS.parse(state, seat, text).lines:
                    waiting[(seat, ln.lineno, str(ln.order) if ln.ok else ln.text)] += 1
            for e in out.events:
                if e.kind != OUTCOME:
                    continue
                key = (e.data["seat"], e.data["line"], e.data["order"])
                assert e.to == (e.data["seat"],), e.text  # its seat only
                assert waiting[key] > 0, f"an outcome for no line: {e.text}"
                waiting[key] -= 1
                checked[e.data["status"]] += 1
        assert out.result is not None
        assert +waiting == Counter(), f"lines without an outcome: {+waiting}"
    assert set(checked) == {"carried out", "not needed", "changed", "refused"}


def test_a_won_seize_without_a_unit_to_place_says_so() -> None:
    # Rulebook "Megszerzés": "Ha nem tud vagy nem akar egységet felrakni, a régió üresen
    # marad" - the placement is optional; the line's outcome tells why the region is empty.
    state = ex1(cycle_type="steel", held={"orange": ["castle"]})
    events = send(state, "orange", "PLAY castle SEIZE d\nRECRUIT")
    assert outcomes(events, "orange")[0] == (
        1, "carried out", "the seize succeeded; D stays empty: no knight was in your reserve "
        "to place")


def test_a_retreat_answer_for_a_unit_kind_that_is_not_there_gets_a_note() -> None:
    state = _asked_to_retreat()  # D holds one white knight; knights are active in steel
    assert RS.parse(state, "white", "RETREAT passive TO b").lines[0].note == (
        "there is no passive unit (mage) in D: the other kind retreats")
