"""The game state of Kard és Korona as plain JSON data, and the questions rules ask of it.

The state is a dict (exactly what `dump` stores). Units of one owner and arm in one county
are interchangeable, so a county's stack is counts per arm plus how many of them have
already moved or fought this year (`used`). An attacking army waiting for its battle is
kept in its battle record, not on the board, with the county it came from (its origin).

Owners: a seat id (= the player's home province id) for players; "royal" for the white
royal troops; "n_<province>" for troops of an unplayed lord or of a player who is gone.
This module answers control, holdings and counting questions (spec 5.1); it changes
nothing except through the small stack helpers at the end.
"""

from __future__ import annotations

from typing import Any

from pbem.rulesets.kard_es_korona.board import ARMS, CENTRE, GameMap, game_map

St = dict[str, Any]


def gmap(state: St) -> GameMap:
    return game_map(state["version"])


def empty_army() -> dict[str, int]:
    return {a: 0 for a in ARMS}


def total(army: dict[str, int]) -> int:
    return sum(army.get(a, 0) for a in ARMS)


def is_player(state: St, owner: str | None) -> bool:
    return owner is not None and owner in state["players"]


def is_neutral(state: St, owner: str | None) -> bool:
    return owner is not None and owner not in state["players"]


def stack(state: St, county: str) -> dict[str, Any] | None:
    return state["board"].get(county)


def units_in(state: St, county: str) -> dict[str, int]:
    s = state["board"].get(county)
    return dict(s["u"]) if s else empty_army()


def owner_of_units(state: St, county: str) -> str | None:
    s = state["board"].get(county)
    return s["owner"] if s and total(s["u"]) > 0 else None


def battle_at(state: St, county: str) -> dict[str, Any] | None:
    for b in state["battles"]:
        if b["county"] == county:
            return b
    return None


def lord_at(state: St, county: str) -> str | None:
    """The player whose lord stands in `county` on the defending side (not an attacker
    waiting for his battle)."""
    for seat, p in state["players"].items():
        if p["lord"] == county and not p.get("lord_attacking"):
            return seat
    return None


def controller(state: St, county: str) -> str | None:
    """Who controls `county`: the owner of the units there, with no battle pending; a
    lord left alone after a battle holds his county too (spec 5.1, PR-3, PR-20)."""
    if battle_at(state, county) is not None:
        return None
    owner = owner_of_units(state, county)
    if owner is not None:
        return owner
    return lord_at(state, county)


def holder(state: St, county: str) -> str | None:
    """The controller, with neutral owners included (for display and movement)."""
    return controller(state, county)


def in_play(state: St, county: str) -> bool:
    return county not in state["out_of_play"]


def overlord(state: St, seat: str) -> str:
    """The seat whose victory a seat's holdings count for: his overlord if a vassal."""
    p = state["players"][seat]
    return p["overlord"] if p["status"] == "vassal" and p["overlord"] else seat


def camp(state: St, seat: str) -> set[str]:
    """A seat and all its vassals (rulebook p. 11: a vassal's lands count as his lord's)."""
    out = {seat}
    for s, p in state["players"].items():
        if p["status"] == "vassal" and p["overlord"] == seat:
            out.add(s)
    return out


def allied(state: St, a: str, b: str) -> bool:
    """Overlord and vassal: they never enter each other's counties (p. 11; PR-46)."""
    if a == b:
        return False
    pa, pb = state["players"].get(a), state["players"].get(b)
    if pa is None or pb is None:
        return False
    return ((pa["status"] == "vassal" and pa["overlord"] == b)
            or (pb["status"] == "vassal" and pb["overlord"] == a))


def control_map(state: St) -> dict[str, str]:
    """county -> controller for every controlled county (same answers as `controller`)."""
    out: dict[str, str] = {}
    for seat, p in state["players"].items():
        if p["lord"] is not None and not p.get("lord_attacking"):
            out.setdefault(p["lord"], seat)
    for c, s in state["board"].items():
        if total(s["u"]) > 0:
            out[c] = s["owner"]
    for b in state["battles"]:
        out.pop(b["county"], None)
    for c in state["out_of_play"]:
        out.pop(c, None)
    return out


def counties_of(state: St, seats: set[str]) -> list[str]:
    cm = control_map(state)
    return [c for c in gmap(state).counties if cm.get(c) in seats]


def castles_of(state: St, seats: set[str]) -> list[str]:
    gm = gmap(state)
    return [c for c in counties_of(state, seats) if gm.counties[c].has_castle]


def scoring_provinces(state: St) -> list[str]:
    """Provinces that count (centre included, PR-37); with 5 players Szlavónia is no
    province at all (PR-45)."""
    provs = list(gmap(state).provinces)
    if state["nplayers"] == 5:
        provs = [p for p in provs if p != "szlavonia"]
    return provs


def complete_provinces(state: St, seats: set[str]) -> list[str]:
    gm = gmap(state)
    out = []
    cm = control_map(state)
    for prov in scoring_provinces(state):
        cs = [c for c in gm.provinces[prov] if in_play(state, c)]
        if cs and all(cm.get(c) in seats for c in cs):
            out.append(prov)
    return out


def step_allowance(state: St, seat: str) -> int:
    """Castles held + 2, at most 6 (rulebook p. 8; spec 5.4.1)."""
    return min(6, len(castles_of(state, {seat})) + 2)


def turn_order(state: St, seats: list[str] | None = None) -> list[str]:
    """Seats from the start player clockwise."""
    order = state["seats"]
    i = order.index(state["start"])
    ring = order[i:] + order[:i]
    return [s for s in ring if seats is None or s in seats]


def players_in(state: St) -> list[str]:
    """Seats still in the game (not eliminated), in turn order."""
    return [s for s in turn_order(state) if state["players"][s]["status"] != "out"]


def cavalry_on_map(state: St, seats: set[str]) -> int:
    n = sum(s["u"]["cav"] for s in state["board"].values() if s["owner"] in seats)
    n += sum(b["army"]["cav"] for b in state["battles"] if b["attacker"] in seats)
    return n


def add_units(state: St, county: str, owner: str, army: dict[str, int], *,
              used: bool = False) -> None:
    s = state["board"].get(county)
    if s is None or total(s["u"]) == 0:
        s = {"owner": owner, "u": empty_army(), "used": empty_army()}
        state["board"][county] = s
    if s["owner"] != owner:
        raise AssertionError(f"{owner} units added to {county} held by {s['owner']}")
    for a in ARMS:
        s["u"][a] += army.get(a, 0)
        if used:
            s["used"][a] += army.get(a, 0)


def remove_units(state: St, county: str, army: dict[str, int]) -> None:
    s = state["board"][county]
    for a in ARMS:
        n = army.get(a, 0)
        if n > s["u"][a]:
            raise AssertionError(f"removing {n} {a} from {county} which has {s['u'][a]}")
        s["u"][a] -= n
        s["used"][a] = min(s["used"][a], s["u"][a])
    if total(s["u"]) == 0:
        del state["board"][county]


def set_units(state: St, county: str, owner: str | None, army: dict[str, int],
              used: bool = True) -> None:
    if owner is None or total(army) == 0:
        state["board"].pop(county, None)
        return
    state["board"][county] = {"owner": owner, "u": {a: army.get(a, 0) for a in ARMS},
                              "used": {a: army.get(a, 0) if used else 0 for a in ARMS}}


def centre() -> str:
    return CENTRE


def fmt_army(army: dict[str, int], lord: bool = False) -> str:
    parts = [f"{army[a]} {n}" for a, n in (("cav", "cav"), ("inf", "inf"), ("arch", "arch"))
             if army.get(a)]
    if lord:
        parts.append("lord")
    return ", ".join(parts) if parts else "nothing"
