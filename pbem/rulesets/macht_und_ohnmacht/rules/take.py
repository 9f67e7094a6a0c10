"""Action A: taking an action tile, and the sealed auction of a lightning tile with the
winner's effect (rulebook "A) Akciólapka elvétele"; spec §5.2, DP-02, DP-03).

"A játékosok egyszerre és egymás elől titokban licitálnak a tartalékukban lévő aktív
egységeikkel": every seat without a bid (on the TAKE line or standing) is asked at once
(`ctx.decide_all`); the effect is then chosen by the winner (`ctx.decide`).
Not here: the effects (effects.py), the defaults (standing.py).
"""

from __future__ import annotations

from typing import Any

from pbem.core.kit import CHANGED, DONE, Ask, Context
from pbem.core.orders import OrderLine

from .. import board, data
from ..effects import EFFECTS
from ..orders import Effect, Take, parse_line
from . import actions, standing

Outcome = tuple[str, str]  # (status, why) of the TAKE line


def take(ctx: Context, seat: str, ln: OrderLine, o: Take) -> Outcome:
    """Carry out a legal TAKE; returns the line's outcome."""
    state = ctx.state
    tid = data.first_of_type(state["display"], o.tile)
    assert tid is not None
    state["display"].remove(tid)
    if data.tile(tid)["lightning"]:
        return auction(ctx, seat, ln, o, tid)
    state["held"][seat] = sorted([*state["held"][seat], tid])
    ctx.log.public("take", f"{seat} takes a {data.tile_name(o.tile)} tile.", seat=seat, tile=tid)
    return DONE, f"the {data.tile_name(o.tile)} tile is in your reserve"


def auction(ctx: Context, seat: str, ln: OrderLine, o: Take, tid: str) -> Outcome:
    """The lightning tile is discarded and one cube removed whatever happens; both seats
    bid active reserve units in secret (spec §5.2)."""
    state = ctx.state
    kind = data.ttype(tid)
    state["discard"] = sorted([*state["discard"], tid])
    ctx.log.public("take_lightning", f"{seat} takes {data.tile_name(kind)}: it is "
                   "auctioned.", seat=seat, tile=tid)
    actions.cube(state, ctx.log, "lightning tile")
    act = board.active_type(state)
    fixed: dict[str, tuple[int, Effect | None]] = {}  # bids already written
    if o.bid is not None:
        fixed[seat] = (o.bid, o.ifwin)
    for s in state["seats"]:
        sb = standing.standing_bid(state, s, kind) if s not in fixed else None
        if sb is not None:
            fixed[s] = (sb.n, sb.ifwin)
        elif s not in fixed and state["reserve"][s][act] == 0:
            # No active unit in reserve: 0 is the only bid; nobody is asked for it.
            fixed[s] = (0, o.ifwin if s == seat else None)
    facts = {"line": ln.lineno,
             "pending": {"kind": "bid", "type": kind, "tile": tid, "taker": seat,
                         "need": [s for s in state["seats"] if s not in fixed]},
             # each seat's own bid for its view (no null: positions are TOML)
             "sealed": {s: {"bid": n, **({"ifwin": str(e)} if e else {})}
                        for s, (n, e) in fixed.items()}}
    asks = {s: Ask(_bid_question(state, s, kind, seat), "BID 0",
                   tuple(f"BID {i}" for i in range(state["reserve"][s][act] + 1)),
                   standing=(f"BID {fixed[s][0]}" + (f" IFWIN {fixed[s][1]}" if fixed[s][1]
                                                     else "")) if s in fixed else None,
                   exhaustive=False, public=f"a sealed bid for {data.tile_name(kind)}",
                   data=facts)
            for s in state["seats"]}
    answers = ctx.decide_all("bid", asks)
    bids: dict[str, int] = {}
    ifwin: dict[str, Effect | None] = {}
    for s in state["seats"]:
        answer = parse_line(state, answers[s])
        bids[s] = answer.n
        # An IFWIN written on the TAKE line stays unless the answer names another.
        ifwin[s] = answer.ifwin or (o.ifwin if s == seat else None)
    return settle(ctx, ln, o, kind, tid, bids, ifwin)


def _bid_question(state: Any, seat: str, kind: str, taker: str) -> str:
    act = board.active_type(state)
    have = state["reserve"][seat][act]
    ifwin = {"vp": "",
             "rebellion": "; add IFWIN REBEL <region of your opponent> <n>K <n>M (at most 2 "
                          "units) for a win",
             "swap": "; add IFWIN SWAP <region> <set-aside marker: "
                     + ", ".join(state["set_aside"]) + "> (or IFWIN DECLINE) for a win",
             }[kind]
    return (f"{taker} took {data.tile_name(kind)}: sealed auction. Bid 0-{have} {act}s from "
            f"your reserve{ifwin}. The higher bid pays its units to stock and wins; equal "
            "bids: nobody wins or pays.")


def settle(ctx: Context, ln: OrderLine, o: Take, kind: str, tid: str, bids: dict[str, int],
           ifwin: dict[str, Effect | None]) -> Outcome:
    """"Akié a nagyobb licit, az licitjét visszarakja a készletbe, elveszi a lapkát és
    nyomban végre is hajtja; a vesztes visszarakja licitjét saját tartalékába.
    Egyenlőségnél senki sem kapja meg a lapkát"."""
    state = ctx.state
    taker = state["turn"]["seat"]
    act = board.active_type(state)
    changes = []  # what became different from the TAKE line
    for s in state["seats"]:
        have = state["reserve"][s][act]
        if bids[s] > have:
            # SPEC-AMBIGUITY A11: a bid above the reserve is cut to the reserve.
            if s == taker and o.bid is not None:
                changes.append(f"your bid of {bids[s]} was cut to {have}, your {act}s in "
                               "reserve")
            else:  # a standing bid: its line had its outcome when it was sent
                ctx.log.private([s], "bid_cut", f"Your standing bid of {bids[s]} is cut to "
                                f"{have}: you have only {have} {act}(s) in reserve.")
            bids[s] = have
    a, b = state["seats"]
    ctx.log.public("bids", f"Bids for {data.tile_name(kind)}: "
                   + ", ".join(f"{s} {bids[s]}" for s in state["seats"]) + ".", bids=bids)
    if bids[a] == bids[b]:
        ctx.log.public("auction_tie", "Equal bids: the tile is discarded without effect.")
        result = "equal bids: nobody won the tile"
    else:
        winner = a if bids[a] > bids[b] else b
        state["reserve"][winner][act] -= bids[winner]
        state["stock"][winner][act] += bids[winner]
        ctx.log.public("auction_won", f"{winner} wins the {data.tile_name(kind)} auction and "
                       f"pays {data.unit_word(act, bids[winner])} to stock.", winner=winner)
        choice = None
        if kind != "vp":
            choice, unusable = choose_effect(ctx, ln, winner, kind, tid, ifwin[winner])
            if unusable and winner == taker and ifwin[winner] == o.ifwin:
                changes.append(f"IFWIN {o.ifwin} could not be used ({unusable}); {choice} "
                               "instead")
        EFFECTS(kind, ctx, winner, choice)
        result = "you won the auction" if winner == taker else f"{winner} won the auction"
    if changes:
        return CHANGED, "; ".join(changes) + f"; {result}"
    return DONE, result


def choose_effect(ctx: Context, ln: OrderLine, winner: str, kind: str, tid: str,
                  ifwin: Effect | None) -> tuple[Effect, str | None]:
    """The winner's IFWIN if it is legal now, else ask him (`ask`), else the default.
    Returns the effect and why the IFWIN could not be used (None: it was, or none)."""
    state = ctx.state
    written = unusable = None
    if ifwin is not None:
        unusable = standing.check_effect(state, winner, kind, ifwin)
        if unusable:
            ctx.log.private([winner], "ifwin_unusable", f"IFWIN {ifwin} cannot be used: "
                            f"{unusable}.")
        else:
            written = str(ifwin)
    default = standing.default_effect(state, winner, kind)  # the `auto` default
    what = ("(REBEL <region> <n>K <n>M, at most 2 units)." if kind == "rebellion"
            else "(SWAP <region> <set-aside symbol>, or DECLINE).")
    answer = ctx.decide(
        winner, "effect", question=f"You won {data.tile_name(kind)}: choose its effect {what}",
        default=str(default), options=[str(e) for e in standing.legal_effects(state, winner, kind)],
        standing=written, exhaustive=False,
        accept=lambda a: standing.check_effect(state, winner, kind, parse_line(state, a)) is None,
        public=f"the effect of {data.tile_name(kind)}",
        data={"line": ln.lineno,
              "pending": {"kind": "effect", "seat": winner, "type": kind, "tile": tid}})
    return parse_line(state, answer), unusable
