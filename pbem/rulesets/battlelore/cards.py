"""Command cards (rulebook chapter 1-2, p.7-8, p.22, p.47; spec §2.9, §5.1-§5.2, §5.15).

Which units a card may order (sections seen from the player's own seat, dashed-line hexes
in both sections, colour and class filters, Command = cards in hand including the one
played), Counter Attack copying, and the draw pile. Not here: what ordered units do.
"""

from __future__ import annotations

from typing import Any

from .board import physical_sections, section_to_physical
from .ctx import Ctx
from .state import data, enemies_adjacent, other, uclass, uhex, units_of, weapon

MIRROR = {"left": "right", "right": "left"}


def card(card_id: str) -> dict[str, Any]:
    return {"id": card_id, **data("command_cards")[card_id]}


def card_name(card_id: str) -> str:
    return str(data("command_cards")[card_id]["name"])


def full_deck() -> list[str]:
    out: list[str] = []
    for cid, c in data("command_cards").items():
        out += [cid] * int(c["copies"])
    return sorted(out)


def mirrored_id(card_id: str) -> str:
    """Counter Attack on a section card: his right flank is your left (spec §2.9)."""
    for a, b in (("_left", "_right"), ("_right", "_left")):
        if card_id.endswith(a):
            return card_id[: -len(a)] + b
    return card_id


def effective(s: dict[str, Any], seat: str, card_id: str) -> dict[str, Any] | None:
    """The card as it acts: Counter Attack becomes a copy of the opponent's last card."""
    if data("command_cards")[card_id]["kind"] != "copy":
        return card(card_id)
    last = s["last_card"].get(other(seat))
    if last is None:
        return None
    c = card(mirrored_id(last))
    c["copied_by"] = card_id
    return c


def unit_sections(u: dict[str, Any], seat: str) -> set[str]:
    phys = physical_sections(uhex(u))
    return {sec for sec in ("left", "centre", "right") if section_to_physical(sec, seat) in phys}


def fits_filter(s: dict[str, Any], u: dict[str, Any], f: dict[str, Any]) -> bool:
    if "colour" in f and u["colour"] != f["colour"]:
        return False
    if "class" in f and uclass(u) != f["class"]:
        return False  # p.22: creatures are neither foot nor mounted
    if f.get("ranged") and int(weapon(u)["range"]) <= 1:
        return False
    return not (f.get("not_adjacent_to_enemy") and enemies_adjacent(s, u))


def _assignable(units: list[set[str]], slots: dict[str, int]) -> bool:
    if not units:
        return True
    first, rest = units[0], units[1:]
    for sec in sorted(first):
        if slots.get(sec, 0) > 0:
            slots[sec] -= 1
            ok = _assignable(rest, slots)
            slots[sec] += 1
            if ok:
                return True
    return False


def slots_of(c: dict[str, Any], command: int) -> dict[str, int]:
    return {sec: (command if n == "command" else int(n)) for sec, n in c.get("orders", {}).items()}


def can_order(s: dict[str, Any], seat: str, c: dict[str, Any], command: int,
              chosen: list[str], uid: str, paid_creatures: list[str]) -> str | None:
    """Why `uid` cannot join the already `chosen` units under card `c` (None: it can)."""
    u = s["units"].get(uid)
    if u is None or u["owner"] != seat:
        return f"{uid} is not one of your units on the board"
    if uid in chosen:
        return f"{uid} is already ordered (one order per unit, p.8)"
    if c["kind"] == "tactic":
        if not fits_filter(s, u, c.get("filter", {})):
            return f"{uid} does not meet the conditions of {c['name']}"
        limit = command if c.get("count") == "command" else 999
        if len(chosen) >= limit:
            return f"{c['name']} orders at most {limit} units"
        return None
    secs = [unit_sections(s["units"][x], seat) if x not in paid_creatures else set(slots_of(c, command))
            for x in chosen]
    mine = unit_sections(u, seat)
    if uid in paid_creatures:
        mine = set(slots_of(c, command))
    if not mine & set(slots_of(c, command)):
        return f"{uid} is not in a section that {c['name']} orders"
    if not _assignable([*secs, mine], slots_of(c, command)):
        return f"{c['name']} has no order left for {uid}'s section"
    return None



def auto_order(s: dict[str, Any], seat: str, c: dict[str, Any], command: int) -> list[str]:
    """Darken the Sky orders every unit that meets it (p.8)."""
    return [u["id"] for u in units_of(s, seat) if fits_filter(s, u, c.get("filter", {}))]


def draw_command(ctx: Ctx, seat: str) -> None:
    """p.20: draw one; an empty deck is rebuilt from the discards."""
    s = ctx.s
    if not s["deck"]:
        s["deck"] = sorted(s["discard"])
        s["discard"] = []
        ctx.ev("reshuffle", "The Command deck is empty: the discards are shuffled into a new deck.")
    if not s["deck"]:
        return
    i = ctx.dice.pick(len(s["deck"]), f"Command card drawn by {seat}", visible_to=[seat])
    cid = s["deck"].pop(i)
    s["hands"][seat].append(cid)
    s["hands"][seat].sort()
    ctx.ev("draw", f"You draw {card_name(cid)}.", to=[seat], card=cid)
    ctx.ev("draw_public", f"{seat.capitalize()} draws a Command card.", to=[other(seat)])
