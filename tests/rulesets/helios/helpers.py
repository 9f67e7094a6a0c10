"""Shared builders for the Helios tests: states, boards, a resolution context, and one
action or step carried out with given dice."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from pbem.core.dice import Dice, HmacDice, ScriptedDice
from pbem.core.engine import StepOutcome, canonical_json, process, set_up, split_setup
from pbem.core.kit import Context, Log
from pbem.core.orders import OrderLine
from pbem.core.ruleset import GameConfig
from pbem.rulesets.helios import RULESET, board
from pbem.rulesets.helios.board import key
from pbem.rulesets.helios.orders import GRAMMAR, Action
from pbem.rulesets.helios.rules import actions, rounds, turns

SEATS = {n: RULESET.seat_ids(n, "standard") for n in (2, 3, 4)}
LANDS = ("redwood", "granite", "bamboo", "spring", "obsidian")


def dice(tag: str = "t") -> HmacDice:
    return HmacDice(hashlib.sha256(tag.encode()).digest(), "0" * 64)


def ctx(state: dict[str, Any], d: Dice | None = None) -> Context:
    """A resolution context on `state` (auto decisions), its events in `.log.events`."""
    return Context(state, d or dice(), Log())


def new_game(n: int = 2, *, start: str | None = None, starts: dict[str, str] | None = None,
             options: dict[str, Any] | None = None, tag: str = "g") -> dict[str, Any]:
    """A game right after set-up (Phase 1 of round 1), start tiles granite by default."""
    cfg = GameConfig(SEATS[n], "standard", options or {})
    state = split_setup(RULESET.setup(cfg, dice(tag)))[0]
    if start is not None:
        state["start"] = start
    rounds.finish_setup(ctx(state, dice(tag + "x")),
                        {s: (starts or {}).get(s, "granite") for s in state["seats"]}, {})
    return state


def anchor(cell: tuple[int, int], tiles: Any) -> int:
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
        kind = "land" if typ in LANDS else "bonus"
        p["tiles"][key(c)] = {"kind": kind, "type": typ, "cubes": cubes, "temple": temple}
    if sun is not None:
        p["sun"] = list(sun)
        p["sun_anchor"] = anchor(sun, {board.unkey(k) for k in p["tiles"]})
        p["sun_angle"] = board.theta(sun)
    p.update(fields)
    return p


def run(state: dict[str, Any], seat: str, order: Action, queue: list[Action] | None = None,
        d: Dice | None = None) -> list[Any]:
    """Carry out one legal action (and the bonus action a Palace grants); its events."""
    problem = actions.check(state, seat, order)
    assert problem is None, problem
    c = ctx(state, d)
    turns.do_action(c, seat, order, queue if queue is not None else [])
    return c.log.events


def line(text: str, state: dict[str, Any] | None = None, seat: str = "north") -> Any:
    """One order line parsed by the grammar."""
    return GRAMMAR.parse_line(state or {}, seat, text)


def numbered(*orders: Any) -> list[OrderLine]:
    """Orders as the lines 1, 2, ... of a file."""
    return [OrderLine(i, str(o), o) for i, o in enumerate(orders, start=1)]


def canon(data: Any) -> str:
    return canonical_json(data)


def roundtrip(state: dict[str, Any]) -> dict[str, Any]:
    return RULESET.load(json.loads(canon(RULESET.dump(state))))


# --- through the engine ------------------------------------------------------------------------

def start(n: int = 2, options: dict[str, Any] | None = None, seed: bytes = b"flow") -> StepOutcome:
    """A game after its set-up step (everyone START granite)."""
    out = set_up(RULESET, GameConfig(SEATS[n], "standard", options or {}), seed)
    texts = {s: "START granite" for s in out.awaiting}
    return process(RULESET, out.state_json, texts, seed=seed + b"1")


def step(out: StepOutcome, texts: dict[str, str], tag: bytes = b"s",
         scripted: list[int] | None = None) -> StepOutcome:
    return process(RULESET, out.state_json, texts, seed=tag,
                   dice=ScriptedDice(scripted) if scripted is not None else None)


def with_state(out: StepOutcome, fn: Any) -> StepOutcome:
    s = json.loads(out.state_json)
    fn(s)
    out.state_json = canonical_json(s)
    out.state = s
    out.awaiting = RULESET.awaiting(s)
    return out
