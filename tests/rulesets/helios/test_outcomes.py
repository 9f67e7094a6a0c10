"""Every line of every applied order file ends with exactly one outcome, seen by its seat
only (DESIGN section 3, issue 14): played, refused (why), not needed, changed (what was
done instead), stored; and the fallbacks say so."""

from __future__ import annotations

import hashlib
import random
from collections import Counter

import pytest

from pbem.core.dice import step_seed
from pbem.core.engine import StepOutcome, process, set_up
from pbem.core.kit import OUTCOME
from pbem.core.ruleset import GameConfig
from pbem.rulesets.helios import RULESET, bot
from pbem.rulesets.helios.orders import Sun, Take
from pbem.rulesets.helios.rules import rounds, script, turns

from .helpers import (
    SEATS,
    ctx,
    new_game,
    numbered,
    set_board,
    start,
    step,
    with_state,
)


def said(out: StepOutcome, seat: str) -> list[str]:
    """The outcome texts `seat` sees, in line order."""
    mine = [e for e in out.events if e.kind == OUTCOME and e.to == (seat,)]
    return [e.text for e in sorted(mine, key=lambda e: e.data["line"])]


def private(out: StepOutcome, seat: str, kind: str) -> list[str]:
    return [e.text for e in out.events if e.kind == kind and e.to == (seat,)]


def test_each_line_of_a_turn_says_what_became_of_it():
    out = start()
    seat = next(iter(out.awaiting))

    def prep(s):
        s["columns"]["sun"][-1] = "blue"
        s["columns"]["land"][-1] = "grey"
        set_board(s, seat, {(0, 0): ("granite", ["grey"])}, sun=(1, -1))
    out = with_state(out, prep)
    text = ("TAKE sun IF red\nSUN TO 1,0\nOR\nTAKE land UNDER red\nPLACE granite AT 0,1\n"
            "BONUS SUN TO 1,0\nOR\nTAKE build\nDECLINE\nNEXT\nTAKE sun\nDECLINE")
    out = step(out, {seat: text})
    build = out.state["columns"]["build"][-1]  # the build column was not touched
    assert said(out, seat) == [
        "line 1: TAKE sun IF red -> refused: the lowest sun tile is blue, not red; columns "
        f"with tiles: land (lowest grey), build (lowest {build}), sun (lowest blue)",
        "line 2: SUN TO 1,0 -> refused: its alternative is refused with line 1; an alternative "
        "is used whole or not at all",
        "line 3: OR -> carried out: the alternatives before it could not be played",
        "line 4: TAKE land UNDER red -> carried out: took the grey land tile, under red",
        "line 5: PLACE granite AT 0,1 -> carried out",
        "line 6: BONUS SUN TO 1,0 -> not needed: no bonus action was left for it",
        "line 7: OR -> not needed: an earlier alternative was played",
        "line 8: TAKE build -> not needed: an earlier alternative was played",
        "line 9: DECLINE -> not needed: an earlier alternative was played",
        "line 10: NEXT -> carried out: stored for your next turn",
        "line 11: TAKE sun -> carried out: stored",
        "line 12: DECLINE -> carried out: stored",
    ]
    other = next(s for s in SEATS[2] if s != seat)
    assert said(out, other) == []  # nobody else sees them


def test_a_mistyped_turn_processed_anyway_refuses_every_line_and_plays_the_default():
    # Issue 14: "a mistyped Helios turn was played as 'takes a grey land tile, declines'".
    # The file has no valid line (the service keeps the seat awaited); if the step is
    # processed anyway, every line is refused and the default turn is announced.
    out = start()
    seat = next(iter(out.awaiting))
    out = step(out, {seat: "TAKE land\nPLACE granit AT 9,9"})
    assert [t.split(" -> ")[1].split(":")[0] for t in said(out, seat)] == ["refused", "refused"]
    assert private(out, seat, "default") == [
        f"{seat}: your orders hold no usable turn for now; the default turn is played (the "
        "lowest tile of the first column with tiles, sun, land, build; the action declined)."]


def test_a_fresh_turn_with_no_playable_alternative_at_resolution_says_what_was_done():
    # Issue 14: "if every alternative of a Phase-1 turn is illegal the first tile is taken
    # and the action declined" -> an outcome saying so (the arrival check makes this rare).
    state = new_game(2, start="north")
    set_board(state, "north", {(0, 0): ("granite", ["grey"])}, sun=(1, -1))
    state["columns"]["sun"][-1] = "red"
    c = ctx(state)
    block = script.split(numbered(Take("sun"), Sun(((3, 3),))))[0]
    turns.run_turn(c, "north", block, stored=False)
    assert [e.text for e in c.log.events if e.kind == OUTCOME] == [
        "line 2: SUN TO 3,3 -> refused: your Sun cannot reach 3,3; it can reach 1,0, 0,1",
        "line 1: TAKE sun -> changed: no alternative could be played: took the red sun tile, "
        "under red and declined the action"]
    assert any(e.kind == "decline" for e in c.log.events)


def test_a_stored_turn_whose_tile_goes_under_another_colour_is_skipped_with_the_reason():
    # Rulebook p. 4 (a coloured tile goes under its own colour): a stored alternative with
    # UNDER is used only for a grey tile or a tile of that colour.
    out = start()
    first = next(iter(out.awaiting))
    other = next(s for s in SEATS[2] if s != first)
    out = with_state(out, lambda s: s["columns"]["sun"].__setitem__(-1, "blue"))
    out = step(out, {first: "TAKE build\nDECLINE",
                     other: "TAKE sun UNDER red\nDECLINE\nOR\nTAKE land\nDECLINE"})
    assert private(out, other, "skipped") == [
        f"{other}: alternative skipped, TAKE sun UNDER red: the lowest sun tile is blue and goes "
        "under blue; UNDER red is for a grey tile."]
    assert any(e.kind == "take" and e.data["seat"] == other and e.data["column"] == "land"
               for e in out.events)


def test_the_nmr_turn_takes_a_tile_that_is_there():
    state = new_game(2, start="north")
    state["columns"]["sun"] = []
    assert RULESET.default_orders(state, "north").canonical() == "TAKE land\nDECLINE\n"


def test_stored_turns_expire_with_phase_1_and_say_so():
    state = new_game(2, start="north")
    state["turn_index"] = 7  # east's last turn
    state["players"]["north"]["pending"] = [["TAKE sun", "DECLINE"]]
    c = ctx(state)
    turns.end_actions(c)
    assert [e.text for e in c.log.events if e.kind == "expired"] == [
        "north's stored turns expire with Phase 1: TAKE sun; DECLINE."]


def test_an_unasked_seats_lines_are_stored_or_kept():
    out = start()
    first = next(iter(out.awaiting))
    other = next(s for s in SEATS[2] if s != first)
    out = step(out, {first: "TAKE sun\nDECLINE",
                     other: "CATCHUP black\nTAKE land\nDECLINE\nCATCHUP blue"})
    assert said(out, other) == [
        "line 1: CATCHUP black -> not needed: line 4 replaces it",
        "line 2: TAKE land -> carried out: stored for your next turn",
        "line 3: DECLINE -> carried out: stored",
        "line 4: CATCHUP blue -> carried out: kept as your standing order for your next "
        "Phase 3 catch-up resource"]


def test_an_activation_resource_on_a_full_tile_goes_elsewhere_and_says_so():
    # Rulebook p. 13: "A játékosnak soha nem lehet kettőnél több nyersanyaga egy föld- vagy
    # bónuszlapkán sem." A note on arrival (paying might free the tile); at the resolution
    # the line is changed, not silently moved.
    out = start()

    def prep(s):
        s["phase"] = "characters"
        s["characters"]["architect"]["owner"] = "north"
        set_board(s, "north", {(0, 0): ("granite", ["blue", "grey"]),
                               (1, 0): ("granite", ["grey", "grey"]),
                               (0, 1): ("bamboo", ["green"])}, mana=0)
    out = with_state(out, prep)
    text = "ACTIVATE architect PAY blue@0,0 grey@0,0 green@0,1 BONUS black AT 1,0\nPASS"
    note = RULESET.parse(out.state, "north", text).lines[0].note
    assert note == ("1,0 already holds 2 resources now; if it still is, the resource goes on "
                    "the first tile that can take it")
    out = step(out, {"north": text, "east": "PASS"}, scripted=[0])
    assert out.state["players"]["north"]["tiles"]["0,0"]["cubes"] == ["black"]
    assert said(out, "north") == [
        "line 1: ACTIVATE architect PAY blue@0,0 grey@0,0 green@0,1 BONUS black AT 1,0 -> "
        "changed: the black resource: 1,0 already holds 2 resources; it went on 0,0 instead",
        "line 2: PASS -> carried out: you pass when you have nothing else to do"]


def test_a_standing_catchup_that_cannot_be_used_as_written_says_why():
    state = new_game(4, start="north")
    state["phase"] = "characters"
    # after Phase 3 east starts: west and north are seats 3 and 4
    set_board(state, "west", {(0, 0): ("granite", ["grey", "grey"]), (1, 0): ("granite", [])})
    state["players"]["west"]["catchup"] = "CATCHUP black AT 0,0"
    c = ctx(state)
    rounds.phase3(c)
    rounds.catch_up(c)
    assert state["players"]["west"]["tiles"]["1,0"]["cubes"] == ["black"]
    assert [e.text for e in c.log.events if e.kind == "catchup" and e.to == ("west",)] == [
        "Catch-up resource: your standing CATCHUP black AT 0,0 could not be used as written: "
        "0,0 already holds 2 resources; it went on 1,0 instead."]


def test_phase_2_lines():
    out = start(3)

    def prep(s):
        s["phase"] = "characters"
        for seat, m in zip(SEATS[3], [2, 0, 0], strict=True):
            s["players"][seat]["mana"] = m
    out = with_state(out, prep)
    a, b, c = SEATS[3]
    out = step(out, {a: "HIRE treasurer\nHIRE princess OR inventor\nACTIVATE inventor\n"
                        "ACTIVATE explorer",
                     b: "PASS", c: "HIRE architect"}, scripted=[0])
    assert said(out, a) == [
        "line 1: HIRE treasurer -> refused: the treasurer costs 4 mana, you have 2",
        "line 2: HIRE princess OR inventor -> carried out: hired the inventor for 2 mana",
        "line 3: ACTIVATE inventor -> refused: you cannot pay for the inventor (black + any + "
        "grey)",
        "line 4: ACTIVATE explorer -> not needed: you did not hire the explorer"]
    assert said(out, b) == ["line 1: PASS -> carried out: you pass when you have nothing else "
                            "to do"]
    assert said(out, c) == ["line 1: HIRE architect -> refused: the architect costs 2 mana, "
                            "you have 0"]


def test_nmr_defaults_get_outcomes_too():
    out = set_up(RULESET, GameConfig(SEATS[4], "standard"), b"nmr")
    for i in range(12):
        nxt = process(RULESET, out.state_json, {}, seed=b"n%d" % i)
        for seat in out.awaiting:
            sent = {ln.lineno for ln in RULESET.parse(out.state, seat, nxt.applied[seat])}
            got = [e.data["line"] for e in nxt.events if e.kind == OUTCOME and e.to == (seat,)]
            assert sent and sorted(got) == sorted(sent), (seat, nxt.applied[seat], got)
        out = nxt


# --- random playouts with deliberately broken lines -------------------------------------------

BROKEN = [
    "BUILD bazaar CONVERT 9", "PLACE granite AT 9,9", "SUN TO 4,4", "TEMPLE AT 0,0 PAY blue blue "
    "blue blue blue", "TAKE sun IF blue UNDER red", "HIRE princess", "ACTIVATE architect",
    "START obsidian", "CATCHUP pink", "CATCHUP blue AT 4,0", "ESTATE TO 9,9", "TAKE TAKE",
    "BONUS SUN TO 9,9", "NEXT", "OR", "PASS", "DECLINE", "TAKE land", "fly to the moon",
]


def broken_step(out: StepOutcome, rng: random.Random, n: int) -> dict[str, str]:
    """Bot orders for the awaited seats (and sometimes an unasked seat) with broken lines
    mixed in: wrong counts, unreachable targets, another step's or another seat's lines."""
    texts = {}
    seats = sorted(out.awaiting)
    idle = [s for s in SEATS[n] if s not in out.awaiting and RULESET.accepts_unasked(out.state, s)]
    if idle and rng.random() < 0.4:
        seats.append(rng.choice(idle))
    for seat in seats:
        lines = bot.random_orders(out.state, seat, rng, RULESET.questions(out.state))
        for _ in range(rng.randrange(3)):
            lines.insert(rng.randrange(len(lines) + 1), rng.choice(BROKEN))
        if rng.random() < 0.1 and seat in out.awaiting:
            continue  # nothing sent: the NMR default's lines get outcomes too
        texts[seat] = "".join(f"{x}\n" for x in lines)
    return texts


@pytest.mark.parametrize("n,options", [(2, {}), (3, {"phase2": "turns"}),
                                       (4, {"decisions": "ask"}),
                                       (3, {"conditional_orders": "no"})])
def test_broken_orders_every_line_gets_exactly_one_outcome_seen_by_its_seat(n, options):
    statuses: Counter[str] = Counter()
    for seed in range(3):
        rng = random.Random(seed)
        master = hashlib.sha256(b"broken%d" % seed).digest()
        out = set_up(RULESET, GameConfig(SEATS[n], "standard", options), master)
        owed: dict[tuple[str, int], set[int]] = {}  # (seat, file) -> lines without outcome
        for k in range(1, 400):
            if not out.awaiting:
                break
            pause = out.state["pause"]
            file = len(pause["answers"]) + 1 if pause else 0
            if not pause:
                assert not any(owed.values()), owed
                owed = {}
            texts = broken_step(out, rng, n)
            nxt = process(RULESET, out.state_json, texts, seed=step_seed(master, k))
            for seat, text in nxt.applied.items():
                owed[(seat, file)] = {ln.lineno for ln in RULESET.parse(out.state, seat, text)}
            for e in nxt.events:
                if e.kind != OUTCOME:
                    continue
                seat = e.data["seat"]
                assert e.to == (seat,)
                assert e.data["line"] in owed[(seat, e.data["file"])], e.text
                owed[(seat, e.data["file"])].discard(e.data["line"])
                statuses[e.data["status"]] += 1
            out = nxt
        assert out.result is not None
        assert not any(owed.values()), owed
    assert set(statuses) >= {"carried out", "refused", "not needed"}
