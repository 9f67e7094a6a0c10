"""Who holds what (rulebook 2.3, p. 3; spec 5.1): control of counties, castles and
provinces, the camps of overlords and vassals, the turn order and the step allowance.

Pure questions about a state; nothing here changes it.
"""

from __future__ import annotations

from collections.abc import Callable

from pbem.rulesets.kard_es_korona.board import GameMap, game_map
from pbem.rulesets.kard_es_korona.state import Battle, State, total


def gmap(state: State) -> GameMap:
    return game_map(state["version"])


def is_neutral(state: State, owner: str | None) -> bool:
    return owner is not None and owner not in state["players"]


def battle_at(state: State, county: str) -> Battle | None:
    for b in state["battles"]:
        if b["county"] == county:
            return b
    return None


def owner_of_units(state: State, county: str) -> str | None:
    s = state["board"].get(county)
    return s["owner"] if s and total(s["units"]) > 0 else None


def lord_at(state: State, county: str) -> str | None:
    """The player whose lord stands in `county` on the defending side (not an attacker
    waiting for his battle)."""
    for seat, p in state["players"].items():
        if p["lord"] == county and not p["lord_attacking"]:
            return seat
    return None


def controller(state: State, county: str) -> str | None:
    """Who controls `county` now: the owner of the units there, with no battle pending; a
    lord left alone after a battle holds his county too (spec 5.1, PR-3, PR-20)."""
    if battle_at(state, county) is not None:
        return None
    owner = owner_of_units(state, county)
    if owner is not None:
        return owner
    return lord_at(state, county)


def in_play(state: State, county: str) -> bool:
    return county not in state["out_of_play"]


def camp(state: State, seat: str) -> set[str]:
    """A seat and all its vassals (rulebook p. 11: a vassal's lands count as his lord's)."""
    out = {seat}
    for s, p in state["players"].items():
        if p["status"] == "vassal" and p["overlord"] == seat:
            out.add(s)
    return out


def allied(state: State, a: str, b: str) -> bool:
    """Overlord and vassal: they never enter each other's counties (p. 11; PR-46)."""
    if a == b:
        return False
    pa, pb = state["players"].get(a), state["players"].get(b)
    if pa is None or pb is None:
        return False
    return ((pa["status"] == "vassal" and pa["overlord"] == b)
            or (pb["status"] == "vassal" and pb["overlord"] == a))


def control_map(state: State) -> dict[str, str]:
    """county -> controller for every controlled county (same answers as `controller`)."""
    out: dict[str, str] = {}
    for seat, p in state["players"].items():
        if p["lord"] is not None and not p["lord_attacking"]:
            out.setdefault(p["lord"], seat)
    for c, s in state["board"].items():
        if total(s["units"]) > 0:
            out[c] = s["owner"]
    for b in state["battles"]:
        out.pop(b["county"], None)
    for c in state["out_of_play"]:
        out.pop(c, None)
    return out


def counties_of(state: State, seats: set[str]) -> list[str]:
    """The counties `seats` control now (income, step allowance)."""
    cm = control_map(state)
    return [c for c in gmap(state).counties if cm.get(c) in seats]


def castles_of(state: State, seats: set[str]) -> list[str]:
    gm = gmap(state)
    return [c for c in counties_of(state, seats) if gm.counties[c].has_castle]


def scoring_provinces(state: State) -> list[str]:
    """Provinces that count (centre included, PR-37); with 5 players Szlavónia is no
    province at all (PR-45)."""
    provs = list(gmap(state).provinces)
    if state["player_count"] == 5:
        provs = [p for p in provs if p != "szlavonia"]
    return provs


def complete_provinces(state: State, seats: set[str]) -> list[str]:
    gm = gmap(state)
    out = []
    cm = control_map(state)
    for prov in scoring_provinces(state):
        cs = [c for c in gm.provinces[prov] if in_play(state, c)]
        if cs and all(cm.get(c) in seats for c in cs):
            out.append(prov)
    return out


def step_allowance(state: State, seat: str) -> int:
    """Castles held + 2, at most 6 (rulebook p. 8; spec 5.4.1)."""
    return min(6, len(castles_of(state, {seat})) + 2)


def turn_order(state: State, seats: list[str] | None = None) -> list[str]:
    """Seats from the start player clockwise."""
    order = state["seats"]
    i = order.index(state["start"])
    ring = order[i:] + order[:i]
    return [s for s in ring if seats is None or s in seats]


def players_in(state: State) -> list[str]:
    """Seats still in the game (not eliminated), in turn order."""
    return [s for s in turn_order(state) if state["players"][s]["status"] != "out"]


def cavalry_on_map(state: State, seats: set[str]) -> int:
    n = sum(s["units"]["cav"] for s in state["board"].values() if s["owner"] in seats)
    n += sum(b["army"]["cav"] for b in state["battles"] if b["attacker"] in seats)
    return n


def passable_for(state: State, seat: str) -> Callable[[str], bool]:
    """Which counties `seat`'s units may cross: in play, no battle pending (advanced
    pinning: the pinning attacker's other units may, spec 5.4.7), empty or his own."""
    out = set(state["out_of_play"])
    battles = {b["county"]: b for b in state["battles"]}
    lords = {p["lord"]: s for s, p in state["players"].items()
             if p["lord"] is not None and not p["lord_attacking"]}

    def ok(county: str) -> bool:  # what `controller` answers, for many counties at once
        if county in out:
            return False
        b = battles.get(county)
        if b is not None:
            return b["pinned"] and b["attacker"] == seat
        here = state["board"].get(county)
        if here is not None and total(here["units"]) > 0:
            return here["owner"] == seat
        return lords.get(county, seat) == seat
    return ok
