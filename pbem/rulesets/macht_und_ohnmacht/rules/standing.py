"""Standing orders and the documented defaults of the decisions in the middle of a turn
(spec §4.5 DP-02..DP-07): auction bids, the lightning winner's effect, the serpent, the
retreat after a lost region.

A decision is taken (in rules/auction.py and rules/play.py, through `ctx.decide`) from
what the seat wrote (the bid and IFWIN on its TAKE line, its standing orders stored here),
then, with option `decisions=ask`, by asking it, else by the default computed here.
Not here: the effects themselves (effects.py, rules/actions.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pbem.core.i18n import Msg, _, join
from pbem.core.kit import Log
from pbem.core.orders import OrderLine

from .. import board, data
from ..data import KNIGHT, MAGE, Unit, listed, term, units_text
from ..orders import (
    Clear,
    Decline,
    Effect,
    Play,
    PlayInfluence,
    PlayMovement,
    PlaySea,
    Rebel,
    RetreatPref,
    Serpent,
    StandingBid,
    Swap,
    parse_line,
)
from ..state import State

Kind = Literal["bid", "serpent", "retreat"]


def ask_mode(state: State) -> bool:
    return state["options"]["decisions"] == "ask"


# --- storing -----------------------------------------------------------------------------

def _kind(order: object) -> Kind:
    if isinstance(order, StandingBid):
        return "bid"
    if isinstance(order, Serpent):
        return "serpent"
    assert isinstance(order, RetreatPref)
    return "retreat"


def absorb(state: State, log: Log, seat: str, lines: Sequence[OrderLine]) -> None:
    """Store the standing orders of a seat's file, each line with its outcome. Lines of one
    kind (bid, serpent, retreat) replace all earlier ones of that kind; one retreat
    preference is kept (the last); CLEAR forgets a kind."""
    new: dict[Kind, list[OrderLine]] = {}
    for ln in lines:
        order = ln.order
        if isinstance(order, Clear):
            what: Kind = "bid" if order.what == "bid" else (
                "serpent" if order.what == "serpent" else "retreat")
            for old in new.get(what, []):
                log.changed(seat, old, _("cleared by line {n} ({order})", n=ln.lineno,
                                         order=str(order)))
            new[what] = []
            log.done(seat, ln, CLEARED[what])
            continue
        kind = _kind(order)
        if kind == "retreat":
            for old in new.get("retreat", []):
                log.changed(seat, old, _("replaced by line {n}: one retreat preference is kept",
                                         n=ln.lineno))
            new["retreat"] = [ln]
        else:
            new.setdefault(kind, []).append(ln)
    if not new:
        return
    for kind, kept in new.items():
        state["standing"][seat][kind] = [str(ln.order) for ln in kept]
        for ln in kept:
            log.done(seat, ln, _("kept as your standing order"))
    mine = state["standing"][seat]
    log.private([seat], "standing", _("Your standing orders now: bid: {bid}; retreat: {retreat}; "
                                      "serpent: {serpent}", bid=_listed(mine["bid"]),
                                      retreat=_listed(mine["retreat"]),
                                      serpent=_listed(mine["serpent"])))


CLEARED = {"bid": _("your bid standing orders are cleared"),
           "serpent": _("your serpent standing orders are cleared"),
           "retreat": _("your retreat standing orders are cleared")}


def _listed(lines: list[str]) -> Msg:
    return join(list(lines)) if lines else _("(none)")


# --- bids ----------------------------------------------------------------------------------

def standing_bid(state: State, seat: str, tile_type: str) -> StandingBid | None:
    """The seat's standing bid for this lightning type (an exact type beats `any`)."""
    best = None
    for line in state["standing"][seat]["bid"]:
        bid = parse_line(state, line)
        if bid.tile == tile_type:
            return bid
        if bid.tile == "any" and best is None:
            best = bid
    return best


# --- lightning effects ---------------------------------------------------------------------

def check_effect(state: State, winner: str, kind: str, e: Effect) -> Msg | None:
    """Is the effect legal now (spec §5.9 REBELLION / MARKER SWAP rows)?"""
    opp = board.opponent(state, winner)
    if isinstance(e, Decline):
        return None
    if isinstance(e, Rebel):
        if kind != "rebellion":
            return _("REBEL is the rebellion's effect")
        reg = state["regions"][e.region]
        if reg["owner"] != opp:
            return _("{region} is not held by {seat}", region=board.region_name(state, e.region),
                     seat=opp)
        if e.knights > reg[KNIGHT] or e.mages > reg[MAGE]:
            return _("{seat} has no {units} in {region}", seat=opp,
                     units=units_text(e.knights, e.mages),
                     region=board.region_name(state, e.region))
        return None
    if kind != "swap":
        return _("SWAP is the marker swap's effect")
    if e.marker not in state["set_aside"]:
        return _("no {marker} marker is set aside (set aside: {aside})", marker=term(e.marker),
                 aside=listed([term(m) for m in state["set_aside"]]))
    return None


def default_effect(state: State, winner: str, kind: str) -> Effect:
    """The `auto` default. REBELLION: the opponent region with the most of his active
    units (then most units, then first by id); remove up to 2 units there, active units
    first. MARKER SWAP: decline (the swap is optional)."""
    if kind == "swap":
        return Decline()
    opp = board.opponent(state, winner)
    act, pas = board.active_type(state), board.passive_type(state)
    cands = board.controlled(state, opp)
    if not cands:
        return Decline()
    regs = state["regions"]
    rid = min(cands, key=lambda r: (-regs[r][act], -board.units_in(state, r), r))
    a = min(2, regs[rid][act])
    p = min(2 - a, regs[rid][pas])
    counts = {act: a, pas: p}
    return Rebel(rid, counts[KNIGHT], counts[MAGE])


# --- serpent -------------------------------------------------------------------------------

def serpent_possible(state: State, holder: str) -> bool:
    """Rulebook "Kígyó": only with a serpent in reserve and a cube left for it."""
    return (data.first_of_type(state["held"][holder], "serpent") is not None
            and state["hourglass"] >= 1)


def _matches(rule: Serpent, o: Play) -> bool:
    if rule.what == "seize":
        hit = isinstance(o, PlayInfluence) and o.mode == "SEIZE"
    elif rule.what == "bolster":
        hit = isinstance(o, PlayInfluence) and o.mode == "BOLSTER"
    elif rule.what == "any":
        hit = True
    else:
        hit = o.tile_type == rule.what
    if not hit or rule.region is None:
        return hit
    if isinstance(o, PlayInfluence):
        return o.region == rule.region
    if isinstance(o, PlayMovement):
        return rule.region in (o.a, o.b)
    if isinstance(o, PlaySea):
        return rule.region in (o.src, o.dst)
    return False


def serpent_policy(state: State, holder: str, o: Play) -> bool | None:
    """True/False when the holder's standing serpent rules decide, None when he has none.
    A NEXT rule is used up when it fires; rules that match nothing mean no serpent."""
    lines = state["standing"][holder]["serpent"]
    if not lines:
        return None
    for i, line in enumerate(lines):
        rule = parse_line(state, line)
        if rule.when == "NEVER":
            return False
        if _matches(rule, o):
            if rule.when == "NEXT":
                state["standing"][holder]["serpent"] = lines[:i] + lines[i + 1:]
            return True
    return False


# --- retreat -------------------------------------------------------------------------------

def retreat_choice(state: State, defender: str, target: str,
                   pref: RetreatPref | None) -> tuple[Unit, str] | None:
    """(unit, destination) of the retreat, or None. With no preference this is the `auto`
    default: save an active unit if one is there, else a passive one; go to the first of
    the defender's own adjacent regions (by id), else the first empty one. A preference
    falls back the same way: a unit type that is not there -> the other type; TO regions
    that are not possible -> the default destination."""
    dests = board.retreat_options(state, defender, target)
    reg = state["regions"][target]
    if not dests or reg[MAGE] + reg[KNIGHT] == 0:
        return None
    unit_pref = pref.unit if pref else "active"
    if unit_pref == "none":
        return None
    act, pas = board.active_type(state), board.passive_type(state)
    order: dict[str, list[Unit]] = {"active": [act, pas], "passive": [pas, act],
                                    "mage": [MAGE, KNIGHT], "knight": [KNIGHT, MAGE]}
    unit = next(u for u in order[unit_pref] if reg[u] > 0)
    wanted = [r for r in (pref.to if pref else ()) if r in dests]
    if wanted:
        return unit, wanted[0]
    own = [r for r in dests if state["regions"][r]["owner"] == defender]
    return unit, (own or dests)[0]


def standing_retreat(state: State, seat: str) -> RetreatPref | None:
    lines = state["standing"][seat]["retreat"]
    return parse_line(state, lines[-1]) if lines else None


def legal_effects(state: State, winner: str, kind: str) -> list[Effect]:
    """Every effect the winner of a rebellion or marker swap may choose now."""
    opp = board.opponent(state, winner)
    out: list[Effect] = [Decline()]
    if kind == "rebellion":
        for rid in board.controlled(state, opp):
            reg = state["regions"][rid]
            for k in range(min(2, reg[KNIGHT]) + 1):
                for m in range(min(2, reg[MAGE]) + 1):
                    if k + m <= 2:
                        out.append(Rebel(rid, k, m))
    elif kind == "swap":
        for rid in board.region_ids(state):
            for marker in sorted(set(state["set_aside"])):
                out.append(Swap(rid, marker))
    return out
