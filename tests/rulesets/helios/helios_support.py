"""Shared builders for the Helios tests: states, boards and scripted situations (imported
by the test modules as `helios_support`; conftest.py puts this folder on sys.path)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from pbem.core.dice import HmacDice
from pbem.core.engine import canonical_json, split_setup
from pbem.core.ruleset import GameConfig
from pbem.rulesets.helios import RULESET, board, phases
from pbem.rulesets.helios.board import key

SEATS = {n: RULESET.seat_ids(n, "standard") for n in (2, 3, 4)}


def dice(tag: str = "t") -> HmacDice:
    return HmacDice(hashlib.sha256(tag.encode()).digest(), "0" * 64)


def new_game(n: int = 2, *, start: str | None = None, starts: dict[str, str] | None = None,
             options: dict[str, Any] | None = None, tag: str = "g") -> dict[str, Any]:
    """A game right after set-up (Phase 1 of round 1), start tiles granite by default."""
    cfg = GameConfig(SEATS[n], "standard", options or {})
    state = split_setup(RULESET.setup(cfg, dice(tag)))[0]
    if start is not None:
        state["start"] = start
    events: list = []
    phases.finish_setup(state, {s: (starts or {}).get(s, "granite") for s in state["seats"]},
                        {}, dice(tag + "x"), events)
    return state


def anchor(cell: tuple[int, int], tiles) -> int:
    for k in range(6):
        if board.add(cell, k) in tiles and board.add(cell, k - 1) not in tiles:
            return k
    raise AssertionError(f"{cell} touches no tile")


def set_board(state: dict[str, Any], seat: str, tiles: dict[tuple[int, int], Any],
              sun: tuple[int, int] | None = None, **fields: Any) -> dict[str, Any]:
    """Replace a seat's tiles. Values: a land/bonus type, or (type, [cubes]) or
    (type, [cubes], temple)."""
    p = state["players"][seat]
    p["tiles"] = {}
    for c, v in tiles.items():
        if isinstance(v, str):
            v = (v, [])
        typ, cubes = v[0], list(v[1])
        temple = bool(v[2]) if len(v) > 2 else False
        kind = "land" if typ in ("redwood", "granite", "bamboo", "spring", "obsidian") else "bonus"
        p["tiles"][key(c)] = {"kind": kind, "type": typ, "cubes": cubes, "temple": temple}
    if sun is not None:
        p["sun"] = list(sun)
        p["sun_k"] = anchor(sun, {board.unkey(k) for k in p["tiles"]})
        p["phi"] = board.theta(sun)
    p.update(fields)
    return p


def canon(data: Any) -> str:
    return canonical_json(data)


def roundtrip(state: dict[str, Any]) -> dict[str, Any]:
    return RULESET.load(json.loads(canon(RULESET.dump(state))))

