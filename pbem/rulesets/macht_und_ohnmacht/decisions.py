"""Decisions that fall to a seat in the middle of a turn: auction bids, the lightning
winner's effect, the serpent, the retreat after a lost region (spec §4.5 DP-02..DP-07).

Each is taken, in this order, from (1) what the seat already said (the bid and IFWIN on
its TAKE line, its standing orders stored in state), (2) option `decisions`: `ask` pauses
the step and asks the seat, `auto` applies the documented default below. The functions
here only choose; turn.py applies and pauses.
Not here: the effects themselves (actions.py).
"""

from __future__ import annotations

from typing import Any

from pbem.core.events import Event, private

from . import board
from .actions import retreat_options
from .board import KNIGHT, MAGE, State
from .orders import (
    Clear,
    Decline,
    Effect,
    Order,
    PlayInfluence,
    PlayMovement,
    PlaySea,
    Rebel,
    RetreatPref,
    SerpentNever,
    SerpentRule,
    StandingBid,
    Swap,
)
from .parser import parse_line

# --- standing orders ------------------------------------------------------------------------


def absorb_standing(state: State, seat: str, orders: list[Order],
                    events: list[Event]) -> None:
    """Store standing orders from a seat's file. Lines of one kind (bid, serpent, retreat)
    replace all earlier ones of that kind; CLEAR forgets a kind."""
    new: dict[str, list[str]] = {}
    cleared: list[str] = []
    for o in orders:
        if isinstance(o, StandingBid):
            new.setdefault("bid", []).append(str(o))
        elif isinstance(o, SerpentRule | SerpentNever):
            new.setdefault("serpent", []).append(str(o))
        elif isinstance(o, RetreatPref):
            new["retreat"] = [str(o)]  # one preference: the last one sent
        elif isinstance(o, Clear):
            new[o.what] = []
            cleared.append(o.what)
    if not new:
        return
    for kind, lines in new.items():
        state["standing"][seat][kind] = lines
    events.append(private("standing", "Your standing orders now: " + "; ".join(
        f"{k}: {', '.join(v) if v else '(none)'}" for k, v in sorted(state["standing"][seat].items())),
        [seat]))


def standing_bid(state: State, seat: str, tile_type: str) -> tuple[int, Effect | None] | None:
    """The seat's standing bid for this lightning type (an exact type beats `any`)."""
    best = None
    for line in state["standing"][seat]["bid"]:
        o = parse_line(state, line)
        if o.tile == tile_type:
            return o.n, o.ifwin
        if o.tile == "any" and best is None:
            best = (o.n, o.ifwin if not isinstance(o.ifwin, Rebel | Swap) else None)
    return best


# --- lightning effects ------------------------------------------------------------------------

def check_effect(state: State, winner: str, kind: str, e: Effect) -> str | None:
    """Is the effect legal now (spec §5.9 REBELLION / MARKER SWAP rows)?"""
    opp = board.opponent(state, winner)
    if isinstance(e, Decline):
        return None
    if isinstance(e, Rebel):
        if kind != "rebellion":
            return "REBEL is the rebellion's effect"
        reg = state["regions"][e.region]
        if reg["owner"] != opp:
            return f"{board.region_name(state, e.region)} is not held by {opp}"
        if e.knights > reg[KNIGHT] or e.mages > reg[MAGE]:
            return (f"{opp} has no {board.units_text(e.knights, e.mages)} in "
                    f"{board.region_name(state, e.region)}")
        return None
    assert isinstance(e, Swap)
    if kind != "swap":
        return "SWAP is the marker swap's effect"
    if e.marker not in state["aside"]:
        return f"no {e.marker} marker is set aside (set aside: {', '.join(state['aside'])})"
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
    return (board.first_of_type(state["held"][holder], "serpent") is not None
            and state["hourglass"] >= 1)


def _matches(rule: SerpentRule, o: Order, ttype: str) -> bool:
    if rule.what == "seize":
        hit = isinstance(o, PlayInfluence) and o.mode == "SEIZE"
    elif rule.what == "bolster":
        hit = isinstance(o, PlayInfluence) and o.mode == "BOLSTER"
    elif rule.what == "any":
        hit = True
    else:
        hit = ttype == rule.what
    if not hit or rule.region is None:
        return hit
    if isinstance(o, PlayInfluence):
        return o.region == rule.region
    if isinstance(o, PlayMovement):
        return rule.region in (o.a, o.b)
    if isinstance(o, PlaySea):
        return rule.region in (o.src, o.dst)
    return False


def serpent_policy(state: State, holder: str, o: Order, ttype: str) -> bool | None:
    """True/False when the holder's standing serpent orders decide, None when he has none.
    A NEXT rule is used up when it fires; a policy that matches nothing means no."""
    lines = state["standing"][holder]["serpent"]
    if not lines:
        return None
    for i, line in enumerate(lines):
        rule = parse_line(state, line)
        if isinstance(rule, SerpentNever):
            return False
        if _matches(rule, o, ttype):
            if rule.when == "NEXT":
                state["standing"][holder]["serpent"] = lines[:i] + lines[i + 1:]
            return True
    return False


# --- retreat -------------------------------------------------------------------------------

def retreat_choice(state: State, defender: str, target: str,
                   pref: RetreatPref | None) -> tuple[str, str] | None:
    """(unit, destination) of the retreat, or None. With no preference this is the `auto`
    default: save an active unit if one is there, else a passive one; go to the first of
    the defender's own adjacent regions (by id), else the first empty one."""
    dests = retreat_options(state, defender, target)
    reg = state["regions"][target]
    if not dests or reg[MAGE] + reg[KNIGHT] == 0:
        return None
    unit_pref = pref.unit if pref else "active"
    if unit_pref == "none":
        return None
    act, pas = board.active_type(state), board.passive_type(state)
    order = {"active": [act, pas], "passive": [pas, act], "mage": [MAGE, KNIGHT],
             "knight": [KNIGHT, MAGE]}[unit_pref]
    unit = next(u for u in order if reg[u] > 0)
    wanted = [r for r in (pref.to if pref else ()) if r in dests]
    if wanted:
        return unit, wanted[0]
    own = [r for r in dests if state["regions"][r]["owner"] == defender]
    return unit, (own or dests)[0]


def standing_retreat(state: State, seat: str) -> RetreatPref | None:
    lines = state["standing"][seat]["retreat"]
    return parse_line(state, lines[-1]) if lines else None


def ask_mode(state: State) -> bool:
    return bool(state["opts"]["decisions"] == "ask")


def public_pending(pending: dict[str, Any] | None) -> dict[str, Any] | None:
    """The part of a pending decision everybody may see (no sealed bids or IFWINs)."""
    if pending is None:
        return None
    return {k: v for k, v in pending.items() if k not in ("bids", "ifwin")}
