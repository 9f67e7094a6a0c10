"""The map and the static game data of Kard és Korona: counties, provinces, cards.

Reads the TOML data files of the package (maps, provinces, events, layout) once and keeps
them as immutable lookups. Also the pure map geometry the rules need: movement-point costs
(rulebook p. 5 and p. 8; spec 5.4.3) and shortest legal paths. It holds no game state;
control of counties and everything that depends on units lives in `state.py`.
"""

from __future__ import annotations

import heapq
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources

from pbem.core.names import NameIndex

ARMS: tuple[str, ...] = ("cav", "inf", "arch")
ARM_NAMES = {"cav": "cavalry", "inf": "infantry", "arch": "archer"}
ARM_ALIASES = {
    "cav": ("c", "cavalry", "cavalries", "horse", "knight", "knights", "l", "lovas", "lovasok",
            "lovag", "lovagok"),
    "inf": ("i", "inf", "infantry", "foot", "gy", "gyalogos", "gyalogosok", "gyalog"),
    "arch": ("a", "archer", "archers", "arch", "ij", "ijasz", "ijaszok", "ijász", "íjászok"),
}
# Rulebook p. 4: cavalry and the lord 4 MP, infantry and archers 2 MP; spec 2.2.
MP = {"cav": 4, "inf": 2, "arch": 2, "lord": 4}
OFFICES: tuple[str, ...] = ("judge", "treasurer", "palatine")
OFFICE_NAMES = {"judge": "Judge Royal (Országbíró)", "treasurer": "Master of the Treasury "
                "(Tárnokmester)", "palatine": "Palatine (Nádor)"}
OFFICE_ALIASES = {
    "judge": ("judge royal", "orszagbiro", "biro", "jr"),
    "treasurer": ("treasury", "master of the treasury", "tarnokmester", "tarnok", "mt"),
    "palatine": ("nador", "pal"),
}
CENTRE = "kiralyi"


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
            for nxt in self.adjacent(here):
                c = cost + self.enter_cost(here, nxt)
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


def _read(name: str) -> dict:
    text = resources.files(__package__).joinpath("data", name).read_text(encoding="utf-8")
    return tomllib.loads(text)


@cache
def provinces_data() -> dict:
    return _read("provinces.toml")


@cache
def events_data() -> tuple[dict, ...]:
    return tuple(_read("events.toml")["card"])


@cache
def card(card_id: str) -> dict:
    for c in events_data():
        if c["id"] == card_id:
            return c
    raise KeyError(card_id)


def ring() -> list[str]:
    return list(provinces_data()["ring"])


def province_name(pid: str) -> str:
    return provinces_data()["province"][pid]["name"]


def lord_name(pid: str) -> str:
    return provinces_data()["province"][pid]["lord"]


def colour(pid: str) -> str:
    return provinces_data()["province"][pid]["colour"]


@cache
def game_map(version: str) -> GameMap:
    data = _read(f"map_{version}.toml")
    layout = _read("layout.toml")["pos"]
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
    return GameMap(version, counties, {k: tuple(v) for k, v in provinces.items()}, river,
                   NameIndex(aliases, what="county"), pos)


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


ARM_INDEX = NameIndex({k: list(v) for k, v in ARM_ALIASES.items()}, what="arm")
OFFICE_INDEX = NameIndex({k: list(v) for k, v in OFFICE_ALIASES.items()}, what="office")
