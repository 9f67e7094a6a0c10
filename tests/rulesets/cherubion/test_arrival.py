"""A turn file judged on arrival, against the board as it stands (arrival.py): a path
that would break off part-way and a file that leaves MÉ unused are refused, with the
reason and the choices; what may still work out is taken with a note. Rulebook
"Mozgások a játéktéren": "A karakterekkel a háromszög alakú játékmezők oldalán keresztül
lehet haladni" (a step crosses a side of the triangular field) and "kötelező mindet
meglépni (kivételt képez, ha a karakter harcba bonyolódik ...)" (every MÉ must be used,
unless the piece gets into combat)."""

from __future__ import annotations

from pbem.core.dice import ScriptedDice
from pbem.rulesets.cherubion import RULESET

from .helpers import place, play_turn, refusal, set_turn, texts, two

ALL = "\"kötelező mindet meglépni\""


def rifleman(me: int) -> dict:
    """alpha's rifleman ME8 on K8 with `me` MÉ; Choler's pieces far away in their Base."""
    st = two()
    place(st, ME8="K8")
    set_turn(st, "alpha", me=me)
    return st


def verdicts(st: dict, text: str) -> list[tuple[str, str]]:
    return [(ln.error or "", ln.note or "") for ln in RULESET.parse(st, "alpha", text).lines]


def test_a_path_that_breaks_off_part_way_is_refused_not_run_part_way() -> None:
    st = rifleman(3)
    why = refusal(st, "alpha", "MOVE ME8 K9 K10 K12")
    assert why == "K12 is not next to K10 (next to K10: K9, K11, L9)"
    # the refused line is not run at all (it used to walk K9 K10 and stop)
    st, ev, _ = play_turn(st, "alpha", "MOVE ME8 K9 K10 K11", [1, 2])
    assert st["pieces"]["ME8"]["loc"] == "K11"


def test_the_refused_line_is_reported_and_the_piece_stays() -> None:
    st = rifleman(3)
    parsed = RULESET.parse(st, "alpha", "MOVE ME8 K9 K10 K12")
    st, ev = RULESET.resolve(st, {"alpha": parsed}, ScriptedDice([1, 2]))
    said = [e for e in ev if e.kind == "outcome"]
    assert [e.data["status"] for e in said] == ["refused"] and said[0].to == ("alpha",)
    assert st["pieces"]["ME8"]["loc"] == "K8"


def test_a_path_longer_than_the_me_left_is_refused() -> None:
    st = rifleman(2)
    assert refusal(st, "alpha", "MOVE ME8 K9 K10 K11") == \
        "the path takes 3 MÉ; 2 are left after the lines before it"


def test_unused_me_refuses_the_last_line_that_spends_it() -> None:
    st = rifleman(3)
    [(why, _)] = verdicts(st, "MOVE ME8 K9")
    assert why.startswith("your lines use 1 of your 3 MÉ and leave 2: every MÉ must be used")
    assert ALL in why and "write PASS" in why
    assert verdicts(st, "MOVE ME8 K9 K10 K11") == [("", "")]


def test_pass_leaves_the_rest_to_the_engine_and_must_come_last() -> None:
    st = rifleman(3)
    assert verdicts(st, "MOVE ME8 K9\nPASS") == [
        ("", ""), ("", "the engine walks out the 2 MÉ left (as when no orders come)")]
    st2, ev, _ = play_turn(st, "alpha", "MOVE ME8 K9\nPASS", [1, 2])
    assert "alpha must use all 2 MÉ" in texts(ev) and st2["players"]["alpha"]["me"] == 0
    assert verdicts(rifleman(3), "PASS\nMOVE ME8 K9 K10 K11")[0][0] == \
        "PASS ends your turn: put it last (it walks out the MÉ you leave)"


def test_combat_excuses_the_me_left() -> None:
    """"kivételt képez, ha a karakter harcba bonyolódik": a path ending on an enemy."""
    st = rifleman(3)
    place(st, CH8="K9")
    assert verdicts(st, "MOVE ME8 K9") == [("", "")]


def test_what_the_dice_decide_is_only_noted() -> None:
    st = rifleman(3)
    place(st, CH8="K10")
    [(why, note)] = verdicts(st, "IF CH8 ALIVE THEN MOVE ME8 K9")
    assert not why and "up to 3 MÉ may be left unused" in note and ALL in note
