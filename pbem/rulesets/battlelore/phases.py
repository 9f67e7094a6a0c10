"""The steps of a BattleLore game, each a row of the phase table in ruleset.py: who is
awaited, what the report asks (prompt and pre-filled skeleton), the NMR default, how the
step resolves, and how its lines are judged on arrival.

- council (Lore adventures with a custom War Council): both seats, sealed (D1);
- keep: the seats with a Lore Master keep their starting Lore cards, sealed (D2);
- place: the landmarks of level-3 masters and the Stronghold, first player first (D3);
- turn: the active player's whole turn as one script (rules/turn.py).

Decisions of the other seat inside a turn go through the kit (rules/common.decide).
Not here: the rules themselves (rules/), the views (view.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.core.i18n import _, join
from pbem.core.kit import Context, Lines
from pbem.core.orders import OrderLine, Prompt

from .board import Hex, hex_name
from .data import SEATS, term
from .rules.cards import candidate_units, default_card, effective
from .rules.common import GameOver, state_of
from .rules.council import (
    apply_councils,
    apply_keep,
    apply_places,
    budget,
    council_problem,
    default_council,
    default_keep,
    default_place,
    keep_count,
    keep_problem,
    keepers,
)
from .rules.turn import run_turn
from .state import State, lore_of, unit_sort

# --- council (D1) --------------------------------------------------------------------------


def council_prompt(s: State, seat: str) -> Prompt:
    return Prompt(_("Build your War Council secretly: up to {n} levels (Commander, Wizard, "
                    "Cleric, Rogue, Warrior; level 1-3 each).", n=budget(s, seat)),
                  tuple(council_default(s, seat)))


def council_default(s: State, seat: str) -> list[str]:
    return ["COUNCIL " + " ".join(f"{m} {n}" for m, n in default_council(s, seat).items())]


def resolve_council(ctx: Context, lines: Lines) -> None:
    s = state_of(ctx)
    chosen: dict[str, dict[str, int] | None] = {}
    for seat in SEATS:
        chosen[seat] = None
        for ln in lines.get(seat, ()):
            why = council_problem(s, seat, ln.order.levels)
            if why is None and chosen[seat] is None:
                chosen[seat] = dict(ln.order.levels)
                ctx.log.done(seat, ln, _("your War Council"))
            else:
                ctx.log.refused(seat, ln, why or _("one War Council per seat (p.35)"))
    apply_councils(ctx, chosen)


# --- keep (D2) ---------------------------------------------------------------------------------

def keep_prompt(s: State, seat: str) -> Prompt:
    offer = lore_of(s)["offer"][seat]
    return Prompt(_("Keep {n} of your 4 Lore cards: {cards}.", n=keep_count(s, seat),
                    cards=", ".join(offer)),
                  tuple(keep_default(s, seat)))


def keep_default(s: State, seat: str) -> list[str]:
    return ["KEEP " + " ".join(default_keep(s, seat))] if seat in keepers(s) else []


def resolve_keep(ctx: Context, lines: Lines) -> None:
    s = state_of(ctx)
    kept: dict[str, Sequence[str]] = {}
    for seat in SEATS:
        for ln in lines.get(seat, ()):
            why = keep_problem(s, seat, ln.order.cards)
            if why is None and seat not in kept:
                kept[seat] = ln.order.cards
                ctx.log.done(seat, ln, _("your starting Lore cards"))
            else:
                ctx.log.refused(seat, ln, why or _("one choice of starting Lore cards (p.35)"))
    apply_keep(ctx, kept)


# --- place (D3) -----------------------------------------------------------------------------------

def placing(s: State) -> list[str]:
    return [s["place_queue"][0]["seat"]] if s["place_queue"] else []


def place_prompt(s: State, seat: str) -> Prompt:
    kinds = [p["kind"] for p in s["place_queue"] if p["seat"] == seat]
    return Prompt(_("Place {landmarks} (Lore-Master landmarks on an empty hex in your 3rd or "
                    "4th row; the Stronghold under one of your units).",
                    landmarks=join([term(k) for k in kinds])),
                  tuple(place_default(s, seat)))


def place_default(s: State, seat: str) -> list[str]:
    return [f"PLACE {p['kind']} {hex_name(default_place(s, seat, p['kind']))}"
            for p in s["place_queue"] if p["seat"] == seat]


def resolve_place(ctx: Context, lines: Lines) -> None:
    """D3: each landmark on the first legal hex of its PLACE line. A line none of whose
    hexes is legal any more (the seat's own other landmark took it) is changed to the
    legal hex nearest the centre; the NMR default is such a line, too."""
    s = state_of(ctx)
    seat = s["place_queue"][0]["seat"]
    owed = [p["kind"] for p in s["place_queue"] if p["seat"] == seat]
    wanted: dict[str, tuple[Hex, ...]] = {}
    first: dict[str, OrderLine] = {}
    for ln in lines.get(seat, ()):
        kind = ln.order.landmark
        if kind not in owed:
            ctx.log.refused(seat, ln, _("you place no {landmark}",
                                        landmark=term(kind.replace("_", " "))))
        elif kind in first:
            ctx.log.refused(seat, ln, _("one place for each landmark: line {line} places the "
                                        "{landmark}", line=first[kind].lineno,
                                        landmark=term(kind.replace("_", " "))))
        else:
            first[kind] = ln
            wanted[kind] = ln.order.hexes
    placed = apply_places(ctx, seat, wanted)
    for kind, ln in first.items():
        h, i = placed[kind]
        if i == 0:
            ctx.log.done(seat, ln, _("placed at {hex}", hex=hex_name(h)))
        elif i > 0:
            ctx.log.done(seat, ln, _("{hexes} taken; placed at {hex}", hex=hex_name(h),
                                     hexes=" / ".join(hex_name(x) for x in ln.order.hexes[:i])))
        else:
            ctx.log.changed(seat, ln, _("no hex of the line is free for it any more; placed at "
                                        "{hex}, the legal hex nearest the centre",
                                        hex=hex_name(h)))


# --- turn -----------------------------------------------------------------------------------------

def active(s: State) -> list[str]:
    return [s["active"]]


def turn_default(s: State, seat: str) -> list[str]:
    """NMR: play the card that orders the most units, order them, no moves, every ordered
    unit battles ANY legal target."""
    if s["active"] != seat:
        return []
    cid = default_card(s, seat)
    c = effective(s, seat, cid)
    out = [f"PLAY {cid}"]
    if c is not None:
        units = candidate_units(s, seat, c, len(s["hands"][seat]))
        if units:
            out.append("ORDER " + " ".join(units))
            out += [f"BATTLE {u} ANY" for u in units]
    return out


def turn_prompt(s: State, seat: str) -> Prompt:
    hand = sorted(set(s["hands"][seat]))
    mine = sorted((u for u in s["units"].values() if u["owner"] == seat), key=unit_sort)
    sk = [f"# Your hand: {', '.join(hand)}",
          "# The lines below are what you get if you send nothing (NMR); edit them.",
          *turn_default(s, seat),
          "# ORDER <unit> ...   (units named in MOVE/BATTLE lines are ordered too)"]
    if mine:
        sk.append(f"# MOVE {mine[0]['id']} <hex> OR <hex>")
        sk.append(f"# BATTLE {mine[0]['id']} <enemy unit> OR ANY")
    sk += ["# standing orders for your units when attacked:", "# IGNORE ALL", "# RETREAT SAFE",
           "# BATTLEBACK ALWAYS"]
    if s["mode"] == "lore":
        sk += ["# LORE <card> [ON <unit>] [TO <hex>]", "# REPLENISH CARD_TOKEN"]
    return Prompt(_("Turn {turn}: play a Command card and give your orders.", turn=s["turn"]),
                  tuple(sk),
                  tuple(f"PLAY {c}" for c in hand))


def resolve_turn(ctx: Context, lines: Lines) -> None:
    s = state_of(ctx)
    try:
        run_turn(ctx, lines.get(s["active"], ()))
    except GameOver:
        s["phase"] = "over"
