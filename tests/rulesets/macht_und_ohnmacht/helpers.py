"""Shared builders for the Macht & Ohnmacht tests: small test maps (the spec's
reconstructed EX1-EX3), states with given units, tiles and hourglass, and a helper that
sends one seat's orders through parse + resolve with scripted dice."""

from __future__ import annotations

import json
from typing import Any

from pbem.core.dice import ScriptedDice
from pbem.core.engine import canonical_json
from pbem.rulesets.macht_und_ohnmacht import RULESET, position
from pbem.rulesets.macht_und_ohnmacht import data as bd
from pbem.rulesets.macht_und_ohnmacht.rules import cycle

RS = RULESET
UNITS_PER_TYPE = 16


def build(markers: dict[str, str], borders: list[str], units: dict[str, tuple[str, int, int]],
          *, coastal: tuple[str, ...] = (), cycle_type: str = "steel", hourglass: int = 5,
          turn: str = "orange", actions: int = 2, held: dict[str, list[str]] | None = None,
          reserve: dict[str, tuple[int, int]] | None = None, vp: dict[str, int] | None = None,
          display: list[str] | None = None, aside: list[str] | None = None,
          **opts: Any) -> dict[str, Any]:
    """A state on a test map. units: region -> (seat, knights, mages); reserve: seat ->
    (knights, mages); stock is what is left of 16 per type; tiles come from the pile."""
    game_map = {}
    for rid in markers:
        nb = sorted({b for e in borders for a, b in [e.split("-")] + [e.split("-")[::-1]]
                     if a == rid})
        game_map[rid] = {"name": rid.upper(), "aliases": [], "coastal": rid in coastal,
                         "borders": nb, "x": None, "y": None}
    state = cycle.new_state(("orange", "white"), opts, game_map)
    for rid, sym in markers.items():
        state["regions"][rid]["marker"] = sym
    for rid, (seat, k, m) in units.items():
        reg = state["regions"][rid]
        reg.update({"owner": seat, bd.KNIGHT: k, bd.MAGE: m})
    state["cycle_type"] = cycle_type
    state["hourglass"] = hourglass
    state["set_aside"] = sorted(aside if aside is not None else ["castle", "key", "tent"])
    for seat in state["seats"]:
        k, m = (reserve or {}).get(seat, (0, 0))
        state["reserve"][seat] = {bd.KNIGHT: k, bd.MAGE: m}
        for unit in bd.UNIT_TYPES:
            on_board = sum(r[unit] for r in state["regions"].values() if r["owner"] == seat)
            state["stock"][seat][unit] = UNITS_PER_TYPE - on_board - state["reserve"][seat][unit]
            assert state["stock"][seat][unit] >= 0
        for ttype in (held or {}).get(seat, []):
            tid = bd.first_of_type(state["pile"], ttype)
            assert tid is not None, ttype
            state["pile"].remove(tid)
            state["held"][seat].append(tid)
        state["held"][seat].sort()
    for ttype in display or []:
        tid = bd.first_of_type(state["pile"], ttype)
        assert tid is not None
        state["pile"].remove(tid)
        state["display"].append(tid)
    state["display"].sort()
    state["vp"] = dict(vp or {"orange": 0, "white": 0})
    state["turn"] = cycle.new_turn(turn, actions, number=2)
    state["start_player"] = "orange"
    return state


def send(state: dict[str, Any], seat: str, text: str,
         dice: list[int] | tuple[int, ...] | None = ()) -> list[Any]:
    """Parse `text` for `seat` (must be clean) and resolve it; returns the events.
    `dice` must all be used; None gives plenty of zeros (a cycle change) unchecked."""
    parsed = RS.parse(state, seat, text)
    assert parsed.ok, parsed.echo()
    sd = ScriptedDice([0] * 40 if dice is None else list(dice))
    events = resolve(state, {seat: parsed}, sd)
    assert dice is None or sd.remaining == 0, "unused scripted dice"
    return events


def send_many(state: dict[str, Any], texts: dict[str, str]) -> list[Any]:
    parsed = {s: RS.parse(state, s, t) for s, t in texts.items()}
    for p in parsed.values():
        assert p.ok, p.echo()
    return resolve(state, parsed, ScriptedDice([]))


def resolve(state: dict[str, Any], parsed: dict[str, Any], dice: ScriptedDice) -> list[Any]:
    """Resolve a step and put the new state into `state` (a resumed decision replays from
    the step's start and returns a new state object); returns the events."""
    new, events = RS.resolve(state, parsed, dice)
    if new is not state:
        state.clear()
        state.update(new)
    return events


def texts(events: list[Any]) -> str:
    return "\n".join(e.text for e in events)


def region(state: dict[str, Any], rid: str) -> tuple[str | None, int, int]:
    r = state["regions"][rid]
    return r["owner"], r[bd.KNIGHT], r[bd.MAGE]


def canon(data: Any) -> str:
    return canonical_json(json.loads(json.dumps(data)))


# Spec §9 test map EX1 (RECONSTRUCTED for the rulebook's map examples).
EX1_MARKERS = {"a": "tent", "b": "tent", "g": "tent", "c": "helmet", "f": "helmet",
               "d": "castle"}
EX1_BORDERS = ["a-b", "a-d", "g-b", "g-d", "b-c", "b-d", "c-d", "c-f"]
EX1_UNITS = {"a": ("orange", 2, 1), "g": ("orange", 2, 1), "f": ("orange", 0, 1),
             "b": ("white", 1, 1), "c": ("white", 1, 2), "d": ("white", 1, 0)}


def ex1(**kw: Any) -> dict[str, Any]:
    return build(EX1_MARKERS, EX1_BORDERS, EX1_UNITS, coastal=("a",), **kw)


def conservation(state: dict[str, Any]) -> None:
    """Invariants: 16 units per type per seat; 40 tiles; 18 markers; one owner per region;
    no held lightning tile; hourglass within 0..8; no negative counts."""
    assert position.problems(state) == [], position.problems(state)
    assert position.warnings(state) == [], position.warnings(state)
    for seat in state["seats"]:
        for unit in bd.UNIT_TYPES:
            assert state["reserve"][seat][unit] >= 0 and state["stock"][seat][unit] >= 0
        assert state["vp"][seat] >= 0
    for r in state["regions"].values():
        assert r[bd.MAGE] >= 0 and r[bd.KNIGHT] >= 0
    assert len(state["time_pile"]) + len(state["time_used"]) == 11


def phase(state: dict[str, Any]) -> str:
    """The phase the views show: turn, over, or the kind of the open decision."""
    return str(RS.view(state, None)["phase"])
