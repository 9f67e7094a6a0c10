"""What a BattleLore position must hold beyond its declared shape (state.py).

`problems`: hard errors, one line each naming the field (a unit on no hex, two units on
one hex, a card that does not exist). `warnings`: invariants a GM may still confirm for a
position set up by hand (card and token conservation, banners that do not match the units
lost, a full hand between turns).
"""

from __future__ import annotations

from collections import Counter

from .board import valid
from .data import SEATS, data, full_deck, scenario
from .rules.council import hand_limit
from .state import State, feat, lore_of


def problems(s: State) -> list[str]:
    out: list[str] = []
    out += _seat_problems(s)
    out += _unit_problems(s)
    out += _card_problems(s)
    return out


def _seat_problems(s: State) -> list[str]:
    out = []
    if s["scenario"] not in data("scenarios"):
        out.append(f"scenario: {s['scenario']!r} is not an adventure of data/scenarios.toml")
    for key, seat in (("active", s["active"]), ("first", s["first"])):
        if seat not in SEATS:
            out.append(f"{key}: {seat!r} is not a seat (north, south)")
    if sorted(s["seats"]) != sorted(SEATS):
        out.append(f"seats: expected north and south, got {s['seats']}")
    return out


def _unit_problems(s: State) -> list[str]:
    out = []
    seen: dict[tuple[int, int], str] = {}
    for uid, u in sorted(s["units"].items()):
        where = f"units.{uid}"
        if u["id"] != uid:
            out.append(f"{where}.id: {u['id']!r} differs from its key {uid!r}")
        if u["owner"] not in SEATS:
            out.append(f"{where}.owner: {u['owner']!r} is not a seat (north, south)")
        if u["type"] not in data("units")["types"]:
            out.append(f"{where}.type: {u['type']!r} is not a unit type of data/units.toml")
            continue
        h = (u["hex"][0], u["hex"][1]) if len(u["hex"]) == 2 else (0, 0)
        if not valid(h) or feat(s, h, "impassable"):
            out.append(f"{where}.hex: {u['hex']} is not a hex a unit may stand on")
        elif h in seen:
            out.append(f"{where}.hex: {u['hex']} also holds {seen[h]}")
        seen[h] = uid
        if not 1 <= u["figures"] <= u["full"]:
            out.append(f"{where}.figures: {u['figures']} is not 1-{u['full']}")
    return out


def _card_problems(s: State) -> list[str]:
    out = []
    command = data("command_cards")
    for where, cards in (("deck", s["deck"]), ("discard", s["discard"]),
                         *((f"hands.{x}", s["hands"].get(x, [])) for x in SEATS)):
        bad = [c for c in cards if c not in command]
        if bad:
            out.append(f"{where}: {bad[0]!r} is not a Command card")
    if s["lore"] is not None:
        lore = data("lore_cards")["cards"]
        lo = s["lore"]
        for where, cards in (("lore.deck", lo["deck"]), ("lore.discard", lo["discard"]),
                             *((f"lore.hands.{x}", lo["hands"].get(x, [])) for x in SEATS)):
            bad = [c for c in cards if c not in lore]
            if bad:
                out.append(f"{where}: {bad[0]!r} is not a Lore card")
    return out


def warnings(s: State) -> list[str]:
    """Invariants of a position reached by play (spec §8)."""
    out: list[str] = []
    army = scenario(s["scenario"])["units"]
    for seat in SEATS:
        lost = sum(len(g["hexes"]) for g in army if g["owner"] == seat) - sum(
            1 for u in s["units"].values() if u["owner"] == seat)
        winner = "south" if seat == "north" else "north"
        if s["banners"][winner] != lost + s["shields_taken"][winner]:
            out.append(f"banners.{winner}: {s['banners'][winner]}, but {seat} lost {lost} "
                       f"unit(s) and {winner} took {s['shields_taken'][winner]} shield(s)")
    cards = s["deck"] + s["discard"] + s["hands"]["north"] + s["hands"]["south"]
    if s["phase"] == "over" or s["pause"]:
        cards += [s["this_turn"]["card"]] if s["this_turn"]["card"] else []
    if Counter(cards) != Counter(full_deck()):
        out.append("deck, discard, hands: the Command cards are not the whole deck once")
    if s["phase"] == "turn" and not s["pause"]:
        for seat in SEATS:  # between turns every hand is full (p.20)
            if len(s["hands"][seat]) != s["hand_size"][seat]:
                out.append(f"hands.{seat}: {len(s['hands'][seat])} cards, hand size "
                           f"{s['hand_size'][seat]}")
            if s["lore"] is not None and len(s["lore"]["hands"][seat]) > hand_limit(s, seat):
                out.append(f"lore.hands.{seat}: more Lore cards than the hand limit "
                           f"{hand_limit(s, seat)} (p.32)")
    if s["lore"] is not None:
        out += _token_warnings(s)
    return out


def _token_warnings(s: State) -> list[str]:
    lo = lore_of(s)
    stored = sum(u["stored_lore"] for u in s["units"].values())
    held = lo["pool"] + sum(lo["goblet"].values()) + stored + sum(lo["on_cards"].values())
    out = []
    if held != lo["total"]:
        out.append(f"lore.pool: pool, goblets, cards and creatures hold {held} tokens, the "
                   f"game has {lo['total']}")
    if min(lo["pool"], *lo["goblet"].values()) < 0:
        out.append("lore.goblet: a token count is below 0")
    return out
