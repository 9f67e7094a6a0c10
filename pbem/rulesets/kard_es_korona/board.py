"""The map of Kard és Korona: counties, provinces, borders, and the pure geometry the rules
need: movement-point costs (rulebook p. 5 and p. 8; spec 5.4.3) and cheapest legal paths.

Built once per version from `data/map_<version>.toml`. It holds no game state: who stands
where and who controls what live in the state (`state.py`, `rules/control.py`).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache

from pbem.core.i18n import _
from pbem.core.names import NameIndex
from pbem.rulesets.kard_es_korona.data import read


@dataclass(frozen=True)
class County:
    id: str
    name: str
    province: str
    terrain: str  # plain | castle | mountain | swamp
    castle: str  # castle display name, "" when none
    neighbours: tuple[tuple[str, str], ...]  # (county id, river id or "")

    @property
    def has_castle(self) -> bool:
        return self.terrain == "castle"

    @property
    def obstacle(self) -> bool:
        return self.terrain in ("mountain", "swamp")


@dataclass(frozen=True)
class GameMap:
    version: str
    counties: dict[str, County]
    provinces: dict[str, tuple[str, ...]]  # province id -> county ids
    river: dict[tuple[str, str], str]
    names: NameIndex
    pos: dict[str, tuple[float, float]]
    edges: dict[str, tuple[tuple[str, int], ...]]  # county -> (neighbour, cost to enter it)

    def adjacent(self, a: str) -> list[str]:
        return [b for b, _ in self.counties[a].neighbours]

    def is_adjacent(self, a: str, b: str) -> bool:
        return (a, b) in self.river

    def enter_cost(self, a: str, b: str) -> int:
        """MP to step from a into b: 1, or 2 into a mountain or swamp, +1 across a wide
        river. Rulebook p. 5 (obstacles), p. 8 (rivers); spec 5.4.3."""
        cost = 2 if self.counties[b].obstacle else 1
        if self.river[(a, b)]:
            cost += 1
        return cost

    def shortest(self, start: str, target: str, passable: Callable[[str], bool],
                 limit: int) -> tuple[int, str] | None:
        """(cost, last county before the target) of the cheapest path from `start` to
        `target` whose inner counties all satisfy `passable`, or None if none costs at
        most `limit`. Leaving a county is free (rulebook p. 5)."""
        if start == target:
            return None
        best: dict[str, int] = {start: 0}
        heap: list[tuple[int, str]] = [(0, start)]
        found: tuple[int, str] | None = None
        while heap:
            cost, here = heapq.heappop(heap)
            if cost > best.get(here, 1 << 30):
                continue
            if found is not None and cost >= found[0]:
                break
            if here != start and not passable(here):
                continue
            for nxt, step in self.edges[here]:
                c = cost + step
                if c > limit:
                    continue
                if nxt == target:
                    if found is None or c < found[0] or (c == found[0] and here < found[1]):
                        found = (c, here)
                    continue
                if c < best.get(nxt, 1 << 30):
                    best[nxt] = c
                    heapq.heappush(heap, (c, nxt))
        return found


@cache
def game_map(version: str) -> GameMap:
    data = read(f"map_{version}.toml")
    layout = read("layout.toml")["pos"]
    counties: dict[str, County] = {}
    provinces: dict[str, list[str]] = {}
    river: dict[tuple[str, str], str] = {}
    pos: dict[str, tuple[float, float]] = {}
    for c in data["county"]:
        nbs = tuple((b, r) for b, r in c["neighbours"])
        counties[c["id"]] = County(c["id"], c["name"], c["province"], c["terrain"], c["castle"],
                                   nbs)
        provinces.setdefault(c["province"], []).append(c["id"])
        for b, r in nbs:
            river[(c["id"], b)] = r
        merged = c.get("merges", [c["id"]])
        pos[c["id"]] = (sum(layout[m][0] for m in merged) / len(merged),
                        sum(layout[m][1] for m in merged) / len(merged))
    for (a, b), r in river.items():  # broken data must fail loudly
        if river.get((b, a)) != r:
            raise ValueError(f"map {version}: border {a}-{b} is not symmetric")
    aliases: dict[str, list[str]] = {}
    for c in counties.values():
        aliases[c.id] = [c.name] + ([c.castle] if c.castle and c.castle != c.name else [])
    gm = GameMap(version, counties, {k: tuple(v) for k, v in provinces.items()}, river,
                 NameIndex(aliases, what=_("county")), pos, {})
    for a, c in counties.items():
        gm.edges[a] = tuple((b, gm.enter_cost(a, b)) for b, _ in c.neighbours)
    return gm


def connected(gm: GameMap, ids: Iterable[str]) -> bool:
    group = set(ids)
    if not group:
        return False
    start = next(iter(sorted(group)))
    seen = {start}
    todo = [start]
    while todo:
        here = todo.pop()
        for b in gm.adjacent(here):
            if b in group and b not in seen:
                seen.add(b)
                todo.append(b)
    return seen == group
