"""Command cards (rulebook chapter 1-2, p.7-8, p.22, p.47; spec §2.9, §5.1-§5.2, §5.15).

Which units a card may order (sections seen from the player's own seat, dashed-line hexes
in both sections, colour and class filters, Command = cards in hand including the one
played), Counter Attack copying, and the draw pile. Not here: what ordered units do.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from pbem.core.i18n import Msg, _
from pbem.core.kit import Context

from ..board import physical_sections, section_to_physical
from ..data import card_name, command_card
from ..state import State, Unit, enemies_adjacent, other, uclass, units_of, weapon
from .common import state_of


def mirrored_id(card_id: str) -> str:
    """Counter Attack on a section card: his right flank is your left (spec §2.9)."""
    for a, b in (("_left", "_right"), ("_right", "_left")):
        if card_id.endswith(a):
            return card_id[: -len(a)] + b
    return card_id


def effective(s: State, seat: str, card_id: str) -> dict[str, Any] | None:
    """The card as it acts: Counter Attack becomes a copy of the opponent's last card."""
    if command_card(card_id)["kind"] != "copy":
        return command_card(card_id)
    last = s["last_card"].get(other(seat))
    if last is None:
        return None
    return command_card(mirrored_id(last))


def card_in_play(s: State) -> dict[str, Any]:
    """The Command card this turn's units act under ({} when none)."""
    acts_as = s["this_turn"]["acts_as"]
    return command_card(acts_as) if acts_as else {}


def unit_sections(u: Unit, seat: str) -> set[str]:
    """The sections (the seat's own left, centre, right) the unit stands in (p.8)."""
    return set(_sections(u["hex"][0], seat))


@cache
def _sections(column: int, seat: str) -> frozenset[str]:
    phys = physical_sections((column, 0))
    return frozenset(sec for sec in ("left", "centre", "right")
                     if section_to_physical(sec, seat) in phys)


def fits_filter(s: State, u: Unit, f: dict[str, Any]) -> bool:
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


def can_order(s: State, seat: str, c: dict[str, Any], command: int,
              chosen: list[str], uid: str, paid_creatures: list[str]) -> Msg | None:
    """Why `uid` cannot join the already `chosen` units under card `c` (None: it can)."""
    u = s["units"].get(uid)
    if u is None or u["owner"] != seat:
        return _("{unit} is not one of your units on the board", unit=uid)
    if uid in chosen:
        return _("{unit} is already ordered (one order per unit, p.8)", unit=uid)
    if c["kind"] == "tactic":
        if not fits_filter(s, u, c.get("filter", {})):
            return _("{unit} does not meet the conditions of {card}", unit=uid, card=c["name"])
        limit = command if c.get("count") == "command" else 999
        if len(chosen) >= limit:
            return _("{card} orders at most {n} units", card=c["name"], n=limit)
        return None
    slots = slots_of(c, command)
    secs = [unit_sections(s["units"][x], seat) if x not in paid_creatures else set(slots)
            for x in chosen]
    mine = set(slots) if uid in paid_creatures else unit_sections(u, seat)
    if not mine & set(slots):
        return _("{unit} is not in a section that {card} orders", unit=uid, card=c["name"])
    if not _assignable([*secs, mine], slots):
        return _("{card} has no order left for {unit}'s section", card=c["name"], unit=uid)
    return None


def auto_order(s: State, seat: str, c: dict[str, Any]) -> list[str]:
    """Darken the Sky orders every unit that meets it (p.8)."""
    return [u["id"] for u in units_of(s, seat) if fits_filter(s, u, c.get("filter", {}))]


def candidate_units(s: State, seat: str, c: dict[str, Any], command: int) -> list[str]:
    """The units the card would order, taken in id order (NMR default, bots)."""
    if c.get("count") == "all":
        return auto_order(s, seat, c)
    chosen: list[str] = []
    for u in units_of(s, seat):
        if can_order(s, seat, c, command, chosen, u["id"], []) is None:
            chosen.append(u["id"])
    return chosen


def default_card(s: State, seat: str) -> str:
    """NMR / no PLAY line: the card that can order the most units (first by name)."""
    best, best_n = None, -1
    for cid in sorted(set(s["hands"][seat])):
        c = effective(s, seat, cid)
        if c is None:
            continue
        n = len(candidate_units(s, seat, c, len(s["hands"][seat])))
        if n > best_n:
            best, best_n = cid, n
    return best or sorted(s["hands"][seat])[0]


def draw_command(ctx: Context, seat: str) -> None:
    """p.20: draw one; an empty deck is rebuilt from the discards."""
    s = state_of(ctx)
    if not s["deck"]:
        s["deck"] = sorted(s["discard"])
        s["discard"] = []
        ctx.log.public("reshuffle", _("The Command deck is empty: the discards are shuffled "
                                      "into a new deck."))
    if not s["deck"]:
        return
    i = ctx.dice.pick(len(s["deck"]), _("Command card drawn by {seat}", seat=seat),
                      visible_to=[seat])
    cid = s["deck"].pop(i)
    s["hands"][seat].append(cid)
    s["hands"][seat].sort()
    ctx.log.private([seat], "draw", _("You draw {card}.", card=card_name(cid)), card=cid)
    ctx.log.private([other(seat)], "draw_public",
                    _("{seat} draws a Command card.", seat=seat.capitalize()))
