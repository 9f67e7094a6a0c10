"""Movement (rulebook chapter 3, p.9-10; terrain p.36-42; spec §5.3, §5.10, §5.12).

Movement allowance by unit type, paths that avoid occupied hexes, terrain stops, and the
"may it still battle" consequences of a move. Not here: retreats (morale.py).
"""

from __future__ import annotations

from collections import deque
from typing import Any

from ..board import Hex, neighbours
from ..data import MOVE
from ..state import State, Unit, feat, occupancy, race, uclass, uhex, utype
from .cards import card_in_play


def allowance(s: State, u: Unit) -> tuple[int, int]:
    """(max hexes, max hexes after which the unit may still battle).

    Rulebook p.9-10: green foot 2, blue foot 1 and battle or 2 and no battle, red foot 1,
    mounted 4/3/2 by colour; creatures per card (p.22). Goblin Rush (p.21): goblinoid foot
    may move 2 to attack (checked by the caller). Mounted Charge: +1 hex, still battle
    (spec §2.9 assumption)."""
    cls = uclass(u)
    if cls == "creature":
        m = int(utype(u).get("move", MOVE[("foot", u["colour"])]))
        mx, bat = m, m
    else:
        mx = MOVE[(cls, u["colour"])]
        bat = 1 if (cls, u["colour"]) == ("foot", "blue") else mx
    card = card_in_play(s)
    if card.get("extra_move") and cls == "mounted":
        mx += int(card["extra_move"])
        bat += int(card["extra_move"])
    for e in s["this_turn"]["effects"]:
        if e.get("kind") == "extra_move" and (e.get("unit") == u["id"] or (
                e.get("unit") == "*" and e.get("seat") == u["owner"])):
            mx += int(e["n"])
            bat += int(e["n"])
    if race(u) == "goblinoid" and cls == "foot":
        mx = max(mx, 2)  # the 2nd hex only as a Goblin Rush (movement.rush_ok)
    return mx, bat


def is_rampart(s: State, h: Hex) -> bool:
    lm = s["landmarks"].get(f"{h[0]}-{h[1]}")
    return lm is not None and lm["kind"] == "rampart"


def reachable(s: State, u: Unit, steps: int) -> dict[Hex, dict[str, Any]]:
    """Every hex the unit can end on within `steps` hexes: {hex: {"d", "path", "no_battle"}}.

    Rulebook p.9: never through an occupied hex; p.37-42: forest, ford, landmark, rampart
    stop the unit (rampart to adjacent rampart excepted, p.41); waterway impassable."""
    occ = occupancy(s)
    start = uhex(u)
    best: dict[Hex, dict[str, Any]] = {}
    queue: deque[tuple[Hex, int, list[Hex], bool]] = deque([(start, 0, [], False)])
    seen = {start: 0}
    while queue:
        h, d, path, nb = queue.popleft()
        if d >= steps:
            continue
        for n in neighbours(h):
            if n in occ or feat(s, n, "impassable"):
                continue
            ramp = is_rampart(s, h) and is_rampart(s, n) and h == start
            stop = bool(feat(s, n, "stop")) and not ramp
            no_battle = nb or (bool(feat(s, n, "no_battle_after_entering")) and not ramp)
            p = [*path, n]
            if n not in best or best[n]["d"] > d + 1 or (
                    best[n]["d"] == d + 1 and best[n]["no_battle"] and not no_battle):
                best[n] = {"d": d + 1, "path": p, "no_battle": no_battle}
            if not stop and (n not in seen or seen[n] > d + 1):
                seen[n] = d + 1
                queue.append((n, d + 1, p, no_battle))
    return best


def _stops(s: State, start: Hex, h: Hex, n: Hex) -> tuple[bool, bool]:
    """(does entering `n` from `h` stop the unit, may it no longer battle)."""
    ramp = is_rampart(s, h) and is_rampart(s, n) and h == start
    return (bool(feat(s, n, "stop")) and not ramp,
            bool(feat(s, n, "no_battle_after_entering")) and not ramp)


def path_via(s: State, u: Unit, dest: Hex, via: tuple[Hex, ...],
             steps: int) -> dict[str, Any] | None:
    """The shortest legal path to `dest` through the hexes `via`, in that order (the player
    moves his unit hex by hex, p.9): {"d", "path", "no_battle"}, or None. Same rules as
    `reachable`: never through units or impassable hexes; no hex before the last may stop
    the unit (forest, ford, landmark)."""
    occ = occupancy(s)
    start = uhex(u)
    pos = start
    path: list[Hex] = []
    for goal in (*via, dest):
        prev: dict[Hex, Hex] = {pos: pos}
        queue: deque[Hex] = deque([pos])
        while queue and goal not in prev:
            h = queue.popleft()
            for n in neighbours(h):
                if n in prev or n in occ or feat(s, n, "impassable"):
                    continue
                prev[n] = h
                if n != goal and _stops(s, start, h, n)[0]:
                    continue  # may end here, not pass through
                queue.append(n)
        if goal not in prev or goal == pos:
            return None
        seg = [goal]
        while prev[seg[-1]] != pos:
            seg.append(prev[seg[-1]])
        path += reversed(seg)
        pos = goal
    if len(path) > steps:
        return None
    no_battle = False
    here = start
    for i, n in enumerate(path):
        stop, nb = _stops(s, start, here, n)
        if stop and i < len(path) - 1:
            return None
        no_battle = no_battle or nb
        here = n
    return {"d": len(path), "path": path, "no_battle": no_battle}
