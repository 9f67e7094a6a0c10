"""Positions of Kard és Korona beyond their shape (`state.py` checks field by field): the
hard errors of a well-shaped position (a county or seat that does not exist), and the
invariants a GM may still confirm (castle limits, card conservation, a lord without units).

One line each, naming the field.
"""

from __future__ import annotations

from typing import Any

from pbem.rulesets.kard_es_korona.board import game_map
from pbem.rulesets.kard_es_korona.data import ARMS, OFFICES, events_data, ring
from pbem.rulesets.kard_es_korona.state import State, total


def problems(state: State) -> list[str]:
    """Hard errors: every name in the position must exist."""
    gm = game_map(state["version"])
    seats = state["seats"]
    out: list[str] = []
    bad = [s for s in seats if s not in ring()]
    if bad:
        return [f"seats: {bad[0]!r} is not a province; seats are " + ", ".join(ring())]
    if sorted(state["players"]) != sorted(seats):
        return ["players: one entry per seat: " + ", ".join(seats)]
    if state["player_count"] != len(seats):
        out.append(f"player_count: {state['player_count']}, but there are {len(seats)} seats")
    owners = {*seats, "royal", *(f"n_{p}" for p in ring())}
    for c, stack in state["board"].items():
        if c not in gm.counties:
            out.append(f"board.{c}: no such county on the {state['version']} map")
        elif stack["owner"] not in owners:
            out.append(f"board.{c}.owner: {stack['owner']!r} is not a seat, royal or "
                       "n_<province>")
        elif any(stack["units"][a] < 0 or not 0 <= stack["used"][a] <= stack["units"][a]
                 for a in ARMS):
            out.append(f"board.{c}: unit counts must be 0 or more, used at most units")
    out += _names(state, seats, set(gm.counties))
    return out


def _names(state: State, seats: list[str], counties: set[str]) -> list[str]:
    out: list[str] = []
    maybe = {*seats, None}
    if state["start"] not in seats:
        out.append(f"start: {state['start']!r} is not a seat")
    if state["first_passer"] not in maybe:
        out.append(f"first_passer: {state['first_passer']!r} is not a seat")
    for s, p in state["players"].items():
        if p["lord"] is not None and p["lord"] not in counties:
            out.append(f"players.{s}.lord: {p['lord']!r} is no county")
        if p["overlord"] not in maybe:
            out.append(f"players.{s}.overlord: {p['overlord']!r} is not a seat")
    if sorted(state["offices"]) != sorted(OFFICES):
        out.append("offices: exactly judge, treasurer and palatine")
    out += [f"offices.{o}: {h!r} is not a seat" for o, h in state["offices"].items()
            if h not in maybe]
    for i, b in enumerate(state["battles"]):
        if b["county"] not in counties:
            out.append(f"battles[{i}].county: {b['county']!r} is no county")
    cards = {c["id"] for c in events_data()}
    out += [f"deck: {c!r} is no event card" for c in [*state["deck"], *state["drawn"]]
            if c not in cards]
    out += [f"claims.{c}: no such county" for c in state["claims"] if c not in counties]
    if state["phase"] == "bid" and state["election"] is None:
        out.append("election: the phase is bid but no election is held")
    return out


def warnings(state: State) -> list[str]:
    """Invariants a GM may confirm: castle limits, one card of each kind, lords with
    units, money."""
    gm = game_map(state["version"])
    out: list[str] = []
    for c, stack in sorted(state["board"].items()):
        if c in gm.counties and gm.counties[c].has_castle:
            if total(stack["units"]) > 7:
                out.append(f"board.{c}: more than 7 units in a castle county (rulebook p. 3)")
            elif state["options"]["arm_limits"] and max(stack["units"].values()) > 4:
                out.append(f"board.{c}: more than 4 of one arm in a castle (rulebook p. 14)")
        if total(stack["units"]) == 0:
            out.append(f"board.{c}: an empty stack")
    cards = sorted(c["id"] for c in events_data())
    if sorted([*state["deck"], *state["drawn"]]) != cards:
        out.append("deck: the deck and the drawn cards are not the 16 event cards once each")
    for s, p in state["players"].items():
        if p["treasury"] < 0:
            out.append(f"players.{s}.treasury: below 0")
        if p["status"] in ("captive", "out", "vassal") and p["lord"] is not None:
            out.append(f"players.{s}.lord: a {p['status']} player's lord is on the board")
        if p["status"] == "active" and state["phase"] != "deploy" and not _lord_ok(state, s):
            out.append(f"players.{s}.lord: the lord stands without his units")
    return out


def _lord_ok(state: State, seat: str) -> bool:
    lord: Any = state["players"][seat]["lord"]
    if lord is None:
        return False
    here = state["board"].get(lord)
    return (here is None or here["owner"] == seat
            or any(b["county"] == lord for b in state["battles"]))
