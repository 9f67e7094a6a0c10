"""The steps through the public API (phases.py): set-up, conditional orders, stored
turns, Phase 2 scripts, the catch-up and Estate Manager decisions (standing order / auto /
ask), NMR defaults, parse errors."""

from __future__ import annotations

import pytest

from pbem.core.engine import StepOutcome, process, set_up
from pbem.core.kit import OUTCOME
from pbem.core.ruleset import GameConfig
from pbem.core.selfplay import play
from pbem.rulesets.helios import RULESET
from pbem.rulesets.helios.rules import characters, seats

from .helpers import SEATS, ctx, set_board, start, step, with_state


def outcomes(out: StepOutcome, seat: str) -> list[tuple[int, str]]:
    return sorted((e.data["line"], e.data["status"]) for e in out.events
                  if e.kind == OUTCOME and e.to == (seat,))


def test_setup_step_collects_all_seats_at_once():
    out = set_up(RULESET, GameConfig(SEATS[4], "standard"), b"x")
    assert set(out.awaiting) == set(SEATS[4])
    extra = seats.catchup_seats(out.state)
    assert len(extra) == 2 and all("CATCHUP" in " ".join(out.awaiting[s].skeleton) for s in extra)
    texts = {s: "START bamboo" + ("\nCATCHUP black" if s in extra else "") for s in SEATS[4]}
    out = process(RULESET, out.state_json, texts, seed=b"y")
    for s in SEATS[4]:
        cubes = out.state["players"][s]["tiles"]["0,0"]["cubes"]
        assert cubes == (["green", "black"] if s in extra else ["green"])
    assert list(out.awaiting) == [out.state["start"]]


def test_conditional_alternative_skips_missing_colour():
    out = start()
    seat = next(iter(out.awaiting))
    bottom = out.state["columns"]["sun"][-1]
    other = next(c for c in ("red", "yellow", "blue", "grey") if c != bottom)
    text = f"TAKE sun IF {other}\nSUN TO 1,0\nOR\nTAKE land\nPLACE granite AT 0,1\n"
    parsed = RULESET.parse(out.state, seat, text)
    assert parsed.lines[0].error.startswith(f"the lowest sun tile is {bottom}, not {other}")
    out = step(out, {seat: text})
    p = out.state["players"][seat]
    assert "0,1" in p["tiles"] and p["sun"] == [1, -1]
    # the OR line opens the second alternative: it was played
    assert outcomes(out, seat) == [(1, "refused"), (2, "refused"), (3, "carried out"),
                                   (4, "carried out"), (5, "carried out")]


def test_a_turn_with_every_alternative_refused_plays_the_default_turn_and_says_so():
    out = start()
    seat = next(iter(out.awaiting))
    out2 = step(out, {seat: "TAKE sun\nSUN TO 3,3\nOR\nTAKE build\nBUILD palace\n"})
    p = out2.state["players"][seat]
    assert p["sun"] == [1, -1] and p["buildings"] == []
    took = [e for e in out2.events if e.kind == "take"]
    assert len(took) == 1 and took[0].data["column"] == "sun"  # the default: sun, declined
    assert any(e.kind == "decline" for e in out2.events)
    assert [st for _, st in outcomes(out2, seat)] == ["refused"] * 5
    assert any(e.kind == "default" and e.to == (seat,) for e in out2.events)


def test_stored_next_turn_runs_without_a_mail():
    out = start()
    first = next(iter(out.awaiting))
    other = [s for s in SEATS[2] if s != first][0]
    out = step(out, {first: "TAKE sun\nSUN TO 1,0\nNEXT\nTAKE land\nPLACE granite AT 0,-1\n"})
    assert list(out.awaiting) == [other]
    assert out.state["players"][first]["pending"] == [["TAKE land", "PLACE granite AT 0,-1"]]
    assert "pending" not in RULESET.view(out.state, other)["players"][first]
    out = step(out, {other: "TAKE sun\nDECLINE\n"}, b"t")
    assert list(out.awaiting) == [other]  # first's stored turn was played automatically
    assert "0,-1" in out.state["players"][first]["tiles"]


def test_stored_turn_that_no_longer_works_asks_the_seat():
    out = start()
    first = next(iter(out.awaiting))
    other = [s for s in SEATS[2] if s != first][0]
    out = step(out, {first: "TAKE sun\nDECLINE\nNEXT\nTAKE land\nPLACE granite AT 3,3\n"})
    out = step(out, {other: "TAKE sun\nDECLINE\n"}, b"t")
    assert list(out.awaiting) == [first]
    assert out.state["players"][first]["pending"] == []
    assert any(e.kind == "ask" and e.to == (first,) for e in out.events)


def test_nmr_defaults_parse_and_play():
    out = set_up(RULESET, GameConfig(SEATS[3], "standard"), b"nmr")
    for _ in range(30):
        for seat in out.awaiting:
            d = RULESET.default_orders(out.state, seat)
            assert d.ok and d.lines, seat
        out = process(RULESET, out.state_json, {}, seed=b"n%d" % _)
    assert out.state["round"] >= 2


def test_phase2_scripts_in_phase_order():
    out = start()
    seats = SEATS[2]

    def prep(s):
        s["phase"] = "characters"
        s["players"][seats[0]]["mana"] = 3
        s["players"][seats[1]]["mana"] = 5
        set_board(s, seats[1], {(0, 0): ("granite", ["blue", "brown"]), (1, 0): ("granite", ["grey"])},
                  sun=(1, -1))
    out = with_state(out, prep)
    assert set(RULESET.awaiting(out.state)) == set(seats)
    out = step(out, {seats[0]: "HIRE princess OR inventor\nACTIVATE inventor\n",
                     seats[1]: "HIRE princess\nACTIVATE princess PAY blue grey brown\nHIRE priestess\n"})
    ch = out.state["characters"]
    assert ch["princess"] == {"owner": seats[1], "active": True}  # most mana goes first
    assert ch["inventor"]["owner"] == seats[0] and not ch["inventor"]["active"]
    # second turn of the richer seat: one hire per turn, 5 - 3 = 2 mana left for the Priestess
    assert ch["priestess"] == {"owner": seats[1], "active": False}
    assert out.state["players"][seats[1]]["mana"] == 0
    assert out.state["players"][seats[1]]["sun_value"] == 3


def test_catchup_standing_order_auto_and_ask():
    for decisions in ("auto", "ask"):
        out = start(4, {"decisions": decisions}, seed=b"cu")
        st = out.state
        new_start = seats.order_from(st, st["start"])[1]
        order = seats.order_from(st, new_start)
        third, fourth = order[2], order[3]

        def prep(s):
            s["phase"] = "characters"
            for p in s["players"].values():
                p["tiles"]["0,0"]["cubes"] = ["grey"]
        out = with_state(out, prep)
        texts = {s: "PASS" for s in SEATS[4]}
        texts[third] = "PASS\nCATCHUP black AT 0,0"
        out = step(out, texts)
        if decisions == "auto":
            assert out.state["players"][third]["tiles"]["0,0"]["cubes"][-1] == "black"
            assert out.state["phase"] == "actions"
            assert len(out.state["players"][fourth]["tiles"]["0,0"]["cubes"]) == 2
        else:
            assert list(out.awaiting) == [fourth]
            assert RULESET.view(out.state, None)["phase"] == "catchup"
            assert RULESET.phase_label(out.state).endswith("Phase 3 (catch-up resource)")
            assert RULESET.view(out.state, None)["asking"] == [fourth]
            assert out.awaiting[fourth].text == "Phase 3: place your catch-up resource."
            out = step(out, {fourth: "CATCHUP blue AT 0,0"}, b"c2")
            # both resources are placed once the asked seat has answered
            assert out.state["players"][third]["tiles"]["0,0"]["cubes"][-1] == "black"
            assert out.state["players"][fourth]["tiles"]["0,0"]["cubes"][-1] == "blue"
            assert out.state["phase"] == "actions" and out.state["round"] == 2


@pytest.mark.parametrize("text,phase,error", [
    ("TAKE sunn", "actions", 'did you mean "sun"'),
    ("SUN TO 1,0", "actions", "start a turn with TAKE"),
    ("TAKE sun\nTAKE land", "actions", "a second TAKE"),
    ("TAKE sun\nSUN TO 1,0\nPLACE granite AT 0,1", "actions", "one action per turn"),
    ("HIRE princess", "actions", "HIRE is not part of this step; it asks for your action turn"),
    ("TAKE sun", "characters", "TAKE is not part of this step; it asks for Phase 2"),
    ("PLACE Gomr AT 1,1", "actions", 'unknown tile "Gomr"'),
    ("TAKE land\nPLACE spring AT 1;1", "actions", "not a cell"),
    ("BUILD palce", "actions", 'did you mean "palace"'),
    ("START obsidian", "setup", "may not be a starting tile"),
    ("HIRE princes", "characters", 'did you mean "princess"'),
    ("ACTIVATE priestess BONUS blue", "characters", "places no bonus resource"),
    ("TAKE build\nBUILD market", "actions", "unknown building"),
    ("TAKE land\nSUN TO 1,0", "actions", "a land tile grants PLACE (or DECLINE), not SUN"),
    ("TAKE sun\nTEMPLE AT 0,0", "actions", "a sun tile grants SUN"),
    ("TAKE build\nPLACE spring AT 0,1", "actions", "a build tile grants TEMPLE or BUILD"),
])
def test_parse_errors_say_what_is_right(text, phase, error):
    out = start()
    s = dict(out.state, phase=phase)
    parsed = RULESET.parse(s, next(iter(out.awaiting)), text)
    assert not parsed.ok
    assert any(error in ln.error for ln in parsed.errors), parsed.echo()


def test_hungarian_aliases():
    out = start()
    idle = next(s for s in SEATS[2] if s not in out.awaiting)  # coming turns: judged with notes
    p = RULESET.parse(out.state, idle,
                      "VESZ nap ALA piros\nNAP IDE 1,0\nVAGY\nVESZ terulet\nLETESZ Forrás AT 0,1 "
                      "BONUS kék\nBONUSZ ÉPÍT Palota FIZET zöld zöld szürke")
    assert p.ok, p.echo()
    assert p.canonical().splitlines() == [
        "TAKE sun UNDER red", "SUN TO 1,0", "OR", "TAKE land", "PLACE spring AT 0,1 BONUS blue",
        "BONUS BUILD palace PAY green green grey"]


def test_every_prompt_skeleton_parses():
    for n, options in ((2, {}), (4, {"decisions": "ask"})):
        pl = play(RULESET, GameConfig(SEATS[n], "standard", options), 31, keep=True)
        for out in pl.outcomes:
            for seat, prompt in out.awaiting.items():
                parsed = RULESET.parse(out.state, seat, "\n".join(prompt.skeleton))
                assert parsed.ok and parsed.orders, (seat, prompt.skeleton, parsed.echo())


def test_phase2_turn_by_turn_option():
    """Option phase2 = turns: the rulebook's Phase 2, one seat per step in phase order,
    ending when everybody has passed in a row."""
    out = start(3, {"phase2": "turns"}, seed=b"p2")

    def prep(s):
        s["phase"] = "characters"
        for seat, m in zip(SEATS[3], [2, 5, 3], strict=True):
            s["players"][seat]["mana"] = m
        characters.start_phase2_turns(ctx(s))
    out = with_state(out, prep)
    a, b, c = SEATS[3]
    assert list(RULESET.awaiting(out.state)) == [b]  # most mana
    out = step(out, {b: "HIRE princess\nHIRE inventor"}, b"1")
    assert out.state["characters"]["princess"]["owner"] == b
    assert outcomes(out, b) == [(1, "carried out"), (2, "not needed")]
    assert any("one Phase 2 turn per step" in e.text for e in out.events if e.to == (b,))
    assert list(out.awaiting) == [c]
    out = step(out, {c: "HIRE princess OR priestess"}, b"2")
    assert out.state["characters"]["priestess"]["owner"] == c
    out = step(out, {a: "PASS"}, b"3")
    out = step(out, {b: "PASS"}, b"4")
    assert list(out.awaiting) == [c] and out.state["phase"] == "characters"
    out = step(out, {c: "PASS"}, b"5")
    assert out.state["round"] == 2


def test_conditional_orders_can_be_switched_off():
    out = start(2, {"conditional_orders": "no"}, seed=b"strict")
    seat = next(iter(out.awaiting))
    for text in ("TAKE sun\nDECLINE\nOR\nTAKE land\nDECLINE", "TAKE sun IF red\nDECLINE",
                 "TAKE sun\nDECLINE\nNEXT\nTAKE land\nDECLINE"):
        p = RULESET.parse(out.state, seat, text)
        assert not p.ok and any("switched off" in ln.error for ln in p.errors), p.echo()
    assert RULESET.parse(out.state, seat, "TAKE sun\nDECLINE").ok


def _estate_game(stage):
    """4 players, decisions = ask; the current seat can build the Estate Manager."""
    out = start(4, {"decisions": "ask"}, seed=b"em")
    seat = next(iter(out.awaiting))

    def prep(s):
        set_board(s, seat, {(0, 0): ("redwood", ["brown", "green"]), (1, 0): ("granite", ["grey", "grey"])},
                  sun=(1, -1))
        p = s["players"][seat]
        p["under"]["red"] = [["land", "red"]] * 3
        s["columns"]["build"][-1] = "red"
        s["columns"]["sun"][-1] = "red"
        s["extra_pile"] = sorted(["spring", "obsidian", "bamboo"])
    return with_state(out, prep), seat


def test_estate_manager_ask_pauses_and_resumes_the_turn():
    out, seat = _estate_game(2)
    text = "TAKE build\nBUILD estate_manager PAY brown green\nBONUS SUN TO 2,-1"
    out = step(out, {seat: text}, b"e1")
    assert list(out.awaiting) == [seat] and out.state["pause"] is not None
    drawn = RULESET.view(out.state, None)["estate"]["tiles"]
    assert len(drawn) == 2 and "drew" in out.awaiting[seat].text
    assert RULESET.parse(out.state, seat, "\n".join(out.awaiting[seat].skeleton)).ok
    others = [s for s in SEATS[4] if s != seat]
    assert "rest_of_turn" not in RULESET.view(out.state, others[0])["estate"]
    assert RULESET.view(out.state, seat)["estate"]["rest_of_turn"] == ["BONUS SUN TO 2,-1"]
    assert RULESET.phase_label(out.state).endswith(f"Estate Manager tiles ({seat})")
    assert "does not answer the question" in RULESET.parse(out.state, seat, "TAKE sun").errors[0].error
    assert not RULESET.accepts_unasked(out.state, others[0])
    out = step(out, {seat: "ESTATE TO -1,0 0,-1"}, b"e2")
    p = out.state["players"][seat]
    assert p["tiles"]["-1,0"]["type"] == drawn[0] and p["tiles"]["0,-1"]["type"] == drawn[1]
    assert p["sun"] == [2, -1]  # the 4th-tile bonus action ran after the placement
    assert p["under"]["red"] == [] and out.state["pause"] is None
    assert list(out.awaiting) != [seat]


def test_estate_manager_inside_the_fourth_tile_bonus():
    out, seat = _estate_game(3)
    text = "TAKE sun\nDECLINE\nBONUS BUILD estate_manager"
    out = step(out, {seat: text}, b"e3")
    assert RULESET.questions(out.state)[0].kind == "estate"
    assert len(out.state["players"][seat]["under"]["red"]) == 4
    out = step(out, {seat: ""}, b"e4")  # nothing sent: the default placement
    p = out.state["players"][seat]
    assert len(p["tiles"]) == 4 and p["under"]["red"] == []


def test_estate_manager_with_a_plan_is_not_asked():
    out, seat = _estate_game(2)
    out = step(out, {seat: "TAKE build\nBUILD estate_manager TO 0,1 -1,1"}, b"e5")
    assert out.state["pause"] is None
    assert {"0,1", "-1,1"} <= set(out.state["players"][seat]["tiles"])


def test_a_seat_not_on_turn_may_send_its_next_turns_and_catchup_unasked():
    # Few mail round trips (RULESET-DONE 3): while another seat acts, a seat may send its
    # coming turns (stored, replacing its earlier ones) and a standing CATCHUP.
    out = start()
    first = next(iter(out.awaiting))
    other = [s for s in SEATS[2] if s != first][0]
    assert RULESET.accepts_unasked(out.state, other) and list(out.awaiting) == [first]
    out = step(out, {first: "TAKE sun\nDECLINE\n",
                     other: "TAKE land\nPLACE granite AT 0,-1\nCATCHUP black AT 0,0\n"})
    # the other seat's stored turn was played at once, without asking it
    assert "0,-1" in out.state["players"][other]["tiles"]
    assert out.state["players"][other]["catchup"] == "CATCHUP black AT 0,0"
    assert any(e.kind == "stored" and e.to == (other,) for e in out.events)
    # a file with only a standing order keeps the stored turns
    out = with_state(out, lambda s: s["players"][other].update(pending=[["TAKE sun", "DECLINE"]]))
    assert list(out.awaiting) == [first]
    took = len(out.state["players"][other]["under"]["red"] + out.state["players"][other]["under"]["yellow"]
               + out.state["players"][other]["under"]["blue"])
    out = step(out, {first: "TAKE sun\nDECLINE\n", other: "CATCHUP blue\n"}, b"u")
    assert out.state["players"][other]["catchup"] == "CATCHUP blue"
    p = out.state["players"][other]
    assert len(p["under"]["red"] + p["under"]["yellow"] + p["under"]["blue"]) == took + 1


def test_unasked_orders_are_refused_outside_phase_1_turns():
    out = start()
    first = next(iter(out.awaiting))
    other = [s for s in SEATS[2] if s != first][0]
    out = with_state(out, lambda s: s.update(phase="characters"))
    assert not RULESET.accepts_unasked(out.state, other)
    # while a question is open (the Estate Manager's tiles), only the asked seat writes
    out = with_state(out, lambda s: s.update(phase="actions", pause={
        "phase": "actions", "snapshot": {}, "script": {}, "answers": [], "late": [], "dice": [],
        "emitted": 0, "questions": [{"seat": first, "kind": "estate", "text": "?",
                                     "default": "ESTATE", "data": {"tiles": [], "rest_of_turn": []}}]}))
    assert not RULESET.accepts_unasked(out.state, other)


def test_setup_reports_the_start_player_and_the_columns():
    # RULESET-DONE 5: the first report says what the set-up drew (start player, columns).
    out = set_up(RULESET, GameConfig(SEATS[3], "standard"), b"su")
    texts = [e.text for e in out.events if e.to is None]
    assert any(out.state["start"] in t and "start player" in t for t in texts)
    assert any("land column" in t.lower() for t in texts)
