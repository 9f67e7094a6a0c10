"""Positions: what makes a well-shaped Cherubion state impossible (hard errors) and which
invariants a GM may still confirm (warnings: piece counts, card conservation).

The shape itself is checked field by field against state.py (the kit's positions); the
text form is TOML (`pbem gm position`, `pbem game new --position`). Each message is one
line naming the field.
"""

from __future__ import annotations

from typing import Any

from pbem.rulesets.cherubion import data
from pbem.rulesets.cherubion.board import get_board
from pbem.rulesets.cherubion.rules.resources import MAX_RESOURCES


def _loc_problem(state: Any, loc: str) -> str | None:
    fields = get_board(state["board_size"]).fields
    if loc in fields or loc in ("nml", "gone"):
        return None
    if loc.startswith("base:") and loc[5:].isdigit() and 1 <= int(loc[5:]) <= 6:
        return None
    if loc.startswith("prison:") and loc[7:] in state["players"]:
        return None
    return (f"{loc!r} is not a place: a field, base:<side>, prison:<seat>, nml or gone")


def problems(state: Any) -> list[str]:
    """Hard errors of a position whose shape is right."""
    if state["board_size"] not in (4, 6):
        return [f"board_size: {state['board_size']} is not a board (6 standard, 4 "
                "tournament)"]
    return _seat_problems(state) + _piece_problems(state) + _board_problems(state)


def _seat_problems(state: Any) -> list[str]:
    seats = state["config"]["seats"]
    out = [f"players.{s}: not a seat of this game ({', '.join(seats)})"
           for s in state["players"] if s not in seats]
    if state["order"] and sorted(state["order"]) != sorted(seats):
        out.append(f"order: {state['order']} is not an order of the seats {seats}")
    if state["active"] is not None and state["active"] not in seats:
        out.append(f"active: {state['active']!r} is not a seat")
    for s, pl in state["players"].items():
        bad = next((c for c in pl["hand"] + pl["deck"] if c not in data.cards()), None)
        if bad is not None:
            out.append(f"players.{s}: {bad!r} is not a card")
    return out


def _piece_problems(state: Any) -> list[str]:
    out = []
    for pid, p in state["pieces"].items():
        why = _loc_problem(state, p["loc"])
        if why:
            out.append(f"pieces.{pid}.loc: {why}")
        if p["owner"] not in state["players"]:
            out.append(f"pieces.{pid}.owner: {p['owner']!r} is not a seat")
        if p["hidden"] and p["loc"] != "gone" and p["hidden"] not in state["markers"]:
            out.append(f"pieces.{pid}.hidden: marker {p['hidden']} does not exist")
    return out


def _board_problems(state: Any) -> list[str]:
    fields = get_board(state["board_size"]).fields
    out = []
    for mid, m in state["markers"].items():
        if m["field"] not in fields:
            out.append(f"markers.{mid}.field: {m['field']!r} is not a field")
        if m.get("piece") and m["piece"] not in state["pieces"]:
            out.append(f"markers.{mid}.piece: {m['piece']!r} is not a piece")
    for rid, r in state["resources"].items():
        if r["field"] not in fields:
            out.append(f"resources.{rid}.field: {r['field']!r} is not a field")
        if r["owner"] not in state["players"]:
            out.append(f"resources.{rid}.owner: {r['owner']!r} is not a seat")
    return out


def cards_held(state: Any, seat: str) -> int:
    """Every card of `seat`'s deck, wherever it is now: hand, deck, graveyard, in play
    (summons, permanents, statuses, traps, cards lasting this turn, Időcsapda)."""
    pl = state["players"][seat]
    n = len(pl["hand"]) + len(pl["deck"]) + (1 if pl["deck_top"] else 0)
    n += sum(1 for g in pl["grave"] if g in data.cards())
    n += len(pl["permanents"])
    for p in state["pieces"].values():
        if p["loc"] == "gone":
            continue
        if p["summoned"] and p["origin"] == seat:
            n += 1
        n += sum(1 for a in p["attached"] if a["owner"] == seat)
        n += sum(1 for x in p["status"].values() if x["owner"] == seat)
    n += sum(1 for m in state["markers"].values() if m["owner"] == seat and "piece" not in m)
    n += sum(1 for owner, _ in state["turn"].get("lasting", []) if owner == seat)
    for q in state["players"].values():
        n += sum(1 for owner, _ in q["time_trap_cards"] if owner == seat)
    return n


def warnings(state: Any) -> list[str]:
    """Invariants: every drafted team's pieces all exist, nobody above his maximum ÉP, at
    most five resources each, every card of a living seat's deck accounted for. A paused
    state is judged by the state its step began with (the cards of an open stack are in
    nobody's hand)."""
    if state["pause"]:
        state = state["pause"]["snapshot"]
    out = []
    teams = {t for pl in state["players"].values() for t in ([pl["team"]] if pl["team"] else [])}
    for team in sorted(teams):
        size = len(data.teams()["teams"][team]["pieces"])
        have = sum(1 for p in state["pieces"].values()
                   if not p["summoned"] and data.piece_templates().get(p["id"], {}).get("team") == team)
        if have != size:
            out.append(f"pieces: team {team} has {have} pieces, not {size}")
    for pid, p in sorted(state["pieces"].items()):
        if p["loc"] != "gone" and p["ep"] > p["max_ep"]:
            out.append(f"pieces.{pid}.ep: {p['ep']} is above its maximum {p['max_ep']}")
    for s, pl in sorted(state["players"].items()):
        if sum(1 for r in state["resources"].values() if r["owner"] == s) > MAX_RESOURCES:
            out.append(f"resources: {s} has more than {MAX_RESOURCES}")
        if pl["alive"] and pl["team"] and state["phase"] not in ("draft", "place"):
            held = cards_held(state, s)
            if held != pl["deck_size"]:
                out.append(f"players.{s}: {held} cards accounted for, but the deck registered "
                           f"{pl['deck_size']}")
    return out
