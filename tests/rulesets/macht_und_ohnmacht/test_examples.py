"""The rulebook's worked examples (spec §9, TC-01..TC-13) with the rulebook's numbers,
on the spec's reconstructed test maps EX1-EX3."""

from __future__ import annotations

import pytest

from pbem.core.dice import ScriptedDice
from pbem.core.engine import split_setup
from pbem.core.kit import Log
from pbem.rulesets.macht_und_ohnmacht import board
from pbem.rulesets.macht_und_ohnmacht.data import KNIGHT, MAGE
from pbem.rulesets.macht_und_ohnmacht.rules import cycle

from .helpers import build, ex1, region, send, texts


def test_tc01_time_tile_seven_gives_seven_cubes_and_ten_tiles() -> None:
    state = ex1(cycle_type="magic", hourglass=0, display=["castle", "helmet"])
    state["time_pile"] = [7]
    state["time_used"] = [3, 4, 4, 5, 5, 6, 6, 7, 8, 8]
    old_display = list(state["display"])
    events = Log()
    cycle.start_cycle(state, ScriptedDice([0] * 12), events)  # + start lot
    assert state["hourglass"] == 7
    assert len(state["display"]) == 10
    assert set(old_display) <= set(state["discard"])  # the old display is discarded first
    assert not set(old_display) & set(state["display"])


def test_tc02_first_cycle() -> None:
    from pbem.core.ruleset import GameConfig
    from pbem.rulesets.macht_und_ohnmacht import RULESET

    dice = ScriptedDice([0] * 15 + [0] * 7 + [1])  # markers, 7 tiles, start lot -> white
    state = split_setup(RULESET.setup(GameConfig(("orange", "white"), "standard"), dice))[0]
    for seat in ("orange", "white"):
        assert state["reserve"][seat] == {MAGE: 5, KNIGHT: 3}
    assert state["hourglass"] == 4
    assert len(state["display"]) == 7
    assert state["time_tile"] is None and state["time_used"] == []
    assert state["cycle_type"] == "magic"
    assert state["turn"]["seat"] == "white" and state["turn"]["actions"] == 1
    assert [r.purpose for r in dice.log][-1] == "start player lot, cycle 1"
    assert len(state["set_aside"]) == 3


def test_tc03_turn_order_example() -> None:
    # VP 2-2; White controls 4 active regions, Orange 2: Orange starts with 1 action.
    markers = {r: "castle" for r in "abcdef"}
    units = {"a": ("white", 0, 1), "b": ("white", 0, 1), "c": ("white", 0, 1),
             "d": ("white", 0, 1), "e": ("orange", 0, 1), "f": ("orange", 0, 1)}
    state = build(markers, [], units, cycle_type="magic", vp={"orange": 2, "white": 2})
    cycle.choose_start_player(state, ScriptedDice([]), Log())
    assert state["turn"]["seat"] == "orange" and state["turn"]["actions"] == 1
    send(state, "orange", "RECRUIT")
    assert state["turn"]["seat"] == "white" and state["turn"]["actions"] == 2
    send(state, "white", "RECRUIT\nRECRUIT")
    assert state["turn"]["seat"] == "orange" and state["turn"]["actions"] == 2


def test_tc04_steel_seize_of_d() -> None:
    state = ex1(cycle_type="steel", held={"orange": ["castle"]}, reserve={"orange": (1, 0)})
    assert board.seize_count(state, "orange", "d") == (4, 3)
    assert board.retreat_options(state, "white", "d") == ["b", "c"]
    ev = send(state, "orange", "PLAY castle SEIZE d\nRECRUIT")
    assert "4:3, success" in texts(ev)
    assert region(state, "d") == ("orange", 1, 0)
    assert region(state, "b") == ("white", 2, 1)  # auto retreat: own region, first by id
    assert state["hourglass"] == 3  # the seize and the recruit


def test_tc05_steel_failed_seize_of_b() -> None:
    state = ex1(cycle_type="steel", held={"orange": ["tent"]})
    assert board.seize_count(state, "orange", "b") == (4, 4)
    ev = send(state, "orange", "PLAY tent SEIZE b\nRECRUIT")
    assert "4:4, fails" in texts(ev)
    assert region(state, "b") == ("white", 1, 1)
    assert state["hourglass"] == 3
    assert not state["held"]["orange"]


def test_tc06_magic_seize_of_f_without_retreat() -> None:
    state = ex1(cycle_type="magic", turn="white", held={"white": ["helmet"]},
                reserve={"white": (0, 1)})
    assert board.neighbours(state, "f") == ["c"]
    assert board.seize_count(state, "white", "f") == (2, 1)
    assert board.retreat_options(state, "orange", "f") == []
    stock_before = state["stock"]["orange"][MAGE]
    send(state, "white", "PLAY helmet SEIZE f\nRECRUIT")
    assert region(state, "f") == ("white", 0, 1)
    assert state["stock"]["orange"][MAGE] == stock_before + 1


@pytest.mark.parametrize("target", ["a", "g"])
def test_tc07_magic_a_and_g_hold(target: str) -> None:
    state = ex1(cycle_type="magic", turn="white", held={"white": ["tent"]})
    assert board.seize_count(state, "white", target) == (1, 4)
    ev = send(state, "white", f"PLAY tent SEIZE {target}\nRECRUIT")
    assert "1:4, fails" in texts(ev)


def test_tc08_strength_example() -> None:
    state = ex1(cycle_type="magic", hourglass=4, held={"orange": ["strength-tent", "tent"]})
    assert board.seize_count(state, "orange", "b") == (2, 2)
    ev = send(state, "orange", "PLAY strength-tent\nPLAY tent SEIZE b NOPLACE\nRECRUIT")
    assert "3:2, success" in texts(ev)
    assert state["hourglass"] == 1  # two tiles and the recruit
    assert state["strength"]["orange"] == {"tent": 1}
    assert region(state, "b")[0] is None


def test_tc09_movement_example() -> None:
    state = ex1(cycle_type="steel", turn="white", held={"white": ["movement"]})
    send(state, "white", "PLAY movement c d 0K 2M BACK 1K 0M\nRECRUIT")
    assert region(state, "c") == ("white", 2, 0)
    assert region(state, "d") == ("white", 0, 2)
    assert state["hourglass"] == 3


@pytest.mark.parametrize("ctype", ["steel", "magic"])
def test_tc10_sea_example(ctype: str) -> None:
    state = ex1(cycle_type=ctype, held={"orange": ["sea"]})
    send(state, "orange", "PLAY sea a f 0K 1M\nRECRUIT")
    assert region(state, "a") == ("orange", 2, 0)
    assert region(state, "f") == ("orange", 0, 2)


def test_tc11_recruit_tile_example() -> None:
    state = ex1(cycle_type="steel", held={"orange": ["sea"]})
    before = dict(state["reserve"]["orange"])
    send(state, "orange", "PLAY sea RECRUIT\nPLACE a")
    assert state["reserve"]["orange"][KNIGHT] == before[KNIGHT] + 1 - 1  # one placed
    assert state["reserve"]["orange"][MAGE] == before[MAGE] + 1
    assert state["hourglass"] == 4
    assert state["first_recruit_done"] is False


def _ex2(**opts: str) -> dict:
    return build({"c": "helmet", "b": "key", "d": "castle", "e": "tent", "f": "key"},
                 ["b-c", "c-d", "d-e"],
                 {"c": ("white", 2, 1), "b": ("white", 2, 0), "d": ("orange", 3, 0),
                  "e": ("orange", 3, 0), "f": ("orange", 0, 1)},
                 cycle_type="steel", hourglass=2, held={"orange": ["movement", "helmet"]},
                 reserve={"orange": (2, 0)}, vp={"orange": 1, "white": 2}, **opts)


@pytest.mark.parametrize("basis", ["new_cycle", "previous_cycle"])
def test_tc12_play_example_part_1(basis: str) -> None:
    state = _ex2(start_tiebreak=basis)
    # time tile 3 (first of the sorted pile), 6 tiles revealed
    ev = send(state, "orange", "PLAY movement e d 3K\nPLAY helmet SEIZE c\nPLACE d",
              dice=[0] * 7)
    log = texts(ev)
    assert "6:5, success" in log
    assert "white retreats a knight from C to B" in log
    assert "PLACE d" not in log  # the rest of the turn does not happen
    assert region(state, "c") == ("orange", 1, 0)
    assert region(state, "b") == ("white", 3, 0)
    assert region(state, "d") == ("orange", 6, 0)
    assert state["vp"] == {"orange": 2, "white": 2}
    assert "Active regions: orange 2, white 1" in log
    assert "Totals (VP + active regions): orange 4, white 3." in log
    assert state["cycle_type"] == "magic" and state["cycle"] == 2
    assert state["turn"]["seat"] == "white" and state["turn"]["actions"] == 1
    # 4 knights on the board before; of C's 2K + 1M one knight retreated, 1K + 1M to stock
    assert state["stock"]["white"][KNIGHT] == 16 - 4 + 1


def test_tc13_play_example_part_2() -> None:
    state = build({"d": "castle", "h": "helmet", "c": "tent", "g": "key", "b": "key"},
                  ["d-h", "d-c", "d-g", "c-b"],
                  {"h": ("orange", 1, 0), "g": ("orange", 2, 0), "d": ("white", 1, 0),
                   "c": ("white", 0, 1), "b": ("white", 1, 0)},
                  cycle_type="steel", hourglass=5, reserve={"orange": (5, 0), "white": (3, 0)},
                  vp={"orange": 2, "white": 3}, display=["castle", "tent", "vp"])
    cycle.choose_start_player(state, ScriptedDice([]), Log())
    assert state["turn"]["seat"] == "orange" and state["turn"]["actions"] == 2
    send(state, "orange", "TAKE castle\nPLACE h")
    assert region(state, "h") == ("orange", 2, 0)
    ev = send(state, "white", "RECRUIT\nPLACE b")
    assert "white recruits 3 mages (first recruitment of the cycle)" in texts(ev)
    assert state["hourglass"] == 4
    ev = send(state, "orange", "PLACE h\nPLAY castle SEIZE d")
    assert "5:1, success" in texts(ev)
    assert region(state, "d") == ("orange", 1, 0)
    assert region(state, "c") == ("white", 1, 1)
    assert state["hourglass"] == 3
    assert state["turn"]["seat"] == "white"
