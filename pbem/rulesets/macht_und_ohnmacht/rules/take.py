"""Action A: taking an action tile, and the sealed auction of a lightning tile with the
winner's effect (rulebook "A) Akciólapka elvétele"; spec §5.2, DP-02, DP-03).

"A játékosok egyszerre és egymás elől titokban licitálnak a tartalékukban lévő aktív
egységeikkel": every seat without a bid (on the TAKE line or standing) is asked at once
(`ctx.decide_all`); the effect is then chosen by the winner (`ctx.decide`).
Not here: the effects (effects.py), the defaults (standing.py).
"""

from __future__ import annotations

from typing import Any

from pbem.core.i18n import Msg, _, join
from pbem.core.kit import CHANGED, DONE, Ask, Context
from pbem.core.orders import OrderLine

from .. import board, data
from ..data import KNIGHT, listed
from ..effects import EFFECTS
from ..orders import Effect, Take, parse_line
from . import actions, standing

Outcome = tuple[str, Msg]  # (status, why) of the TAKE line


def take(ctx: Context, seat: str, ln: OrderLine, o: Take) -> Outcome:
    """Carry out a legal TAKE; returns the line's outcome."""
    state = ctx.state
    tid = data.first_of_type(state["display"], o.tile)
    assert tid is not None
    state["display"].remove(tid)
    if data.tile(tid)["lightning"]:
        return auction(ctx, seat, ln, o, tid)
    state["held"][seat] = sorted([*state["held"][seat], tid])
    name = data.tile_name(o.tile)
    ctx.log.public("take", _("{seat} takes a {tile} tile.", seat=seat, tile=name), seat=seat,
                   tile=tid)
    return DONE, _("the {tile} tile is in your reserve", tile=name)


def auction(ctx: Context, seat: str, ln: OrderLine, o: Take, tid: str) -> Outcome:
    """The lightning tile is discarded and one cube removed whatever happens; both seats
    bid active reserve units in secret (spec §5.2)."""
    state = ctx.state
    kind = data.ttype(tid)
    state["discard"] = sorted([*state["discard"], tid])
    ctx.log.public("take_lightning", _("{seat} takes {tile}: it is auctioned.", seat=seat,
                                       tile=data.tile_name(kind)), seat=seat, tile=tid)
    actions.cube(state, ctx.log, _("lightning tile"))
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
                   exhaustive=False, public=_("a sealed bid for {tile}", tile=data.tile_name(kind)),
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


def _bid_question(state: Any, seat: str, kind: str, taker: str) -> Msg:
    act = board.active_type(state)
    args = {"taker": taker, "tile": data.tile_name(kind), "have": state["reserve"][seat][act]}
    ifwin: Msg | str = ""  # the victory point tile has no effect to choose
    if kind == "rebellion":
        ifwin = _("; add IFWIN REBEL <region of your opponent> <n>K <n>M (at most 2 units) for "
                  "a win")
    elif kind == "swap":
        ifwin = _("; add IFWIN SWAP <region> <set-aside marker: {markers}> (or IFWIN DECLINE) "
                  "for a win", markers=listed(list(state["set_aside"])))
    if act == KNIGHT:
        return _("{taker} took {tile}: sealed auction. Bid 0-{have} knights from your "
                 "reserve{ifwin}. The higher bid pays its units to stock and wins; equal bids: "
                 "nobody wins or pays.", ifwin=ifwin, **args)
    return _("{taker} took {tile}: sealed auction. Bid 0-{have} mages from your "
             "reserve{ifwin}. The higher bid pays its units to stock and wins; equal bids: "
             "nobody wins or pays.", ifwin=ifwin, **args)


def settle(ctx: Context, ln: OrderLine, o: Take, kind: str, tid: str, bids: dict[str, int],
           ifwin: dict[str, Effect | None]) -> Outcome:
    """"Akié a nagyobb licit, az licitjét visszarakja a készletbe, elveszi a lapkát és
    nyomban végre is hajtja; a vesztes visszarakja licitjét saját tartalékába.
    Egyenlőségnél senki sem kapja meg a lapkát"."""
    state = ctx.state
    taker = state["turn"]["seat"]
    act = board.active_type(state)
    changes: list[Msg] = []  # what became different from the TAKE line
    for s in state["seats"]:
        have = state["reserve"][s][act]
        if bids[s] > have:
            # SPEC-AMBIGUITY A11: a bid above the reserve is cut to the reserve.
            if s == taker and o.bid is not None:
                changes.append(_("your bid of {bid} was cut to {have}, your knights in reserve",
                                 bid=bids[s], have=have) if act == KNIGHT else
                               _("your bid of {bid} was cut to {have}, your mages in reserve",
                                 bid=bids[s], have=have))
            else:  # a standing bid: its line had its outcome when it was sent
                ctx.log.private([s], "bid_cut", _(
                    "Your standing bid of {bid} is cut to {have}: you have only {have} "
                    "knight(s) in reserve.", bid=bids[s], have=have) if act == KNIGHT else _(
                    "Your standing bid of {bid} is cut to {have}: you have only {have} "
                    "mage(s) in reserve.", bid=bids[s], have=have))
            bids[s] = have
    a, b = state["seats"]
    ctx.log.public("bids", _("Bids for {tile}: {bids}.", tile=data.tile_name(kind),
                             bids=listed([f"{s} {bids[s]}" for s in state["seats"]])), bids=bids)
    if bids[a] == bids[b]:
        ctx.log.public("auction_tie", _("Equal bids: the tile is discarded without effect."))
        result = _("equal bids: nobody won the tile")
    else:
        winner = a if bids[a] > bids[b] else b
        state["reserve"][winner][act] -= bids[winner]
        state["stock"][winner][act] += bids[winner]
        ctx.log.public("auction_won", _("{seat} wins the {tile} auction and pays {units} to "
                                        "stock.", seat=winner, tile=data.tile_name(kind),
                                        units=data.unit_word(act, bids[winner])), winner=winner)
        choice = None
        if kind != "vp":
            choice, unusable = choose_effect(ctx, ln, winner, kind, tid, ifwin[winner])
            if unusable and winner == taker and ifwin[winner] == o.ifwin:
                changes.append(_("IFWIN {effect} could not be used ({why}); {choice} instead",
                                 effect=str(o.ifwin), why=unusable, choice=str(choice)))
        EFFECTS(kind, ctx, winner, choice)
        result = (_("you won the auction") if winner == taker
                  else _("{seat} won the auction", seat=winner))
    if changes:
        return CHANGED, join([*changes, result], "; ")
    return DONE, result


def choose_effect(ctx: Context, ln: OrderLine, winner: str, kind: str, tid: str,
                  ifwin: Effect | None) -> tuple[Effect, Msg | None]:
    """The winner's IFWIN if it is legal now, else ask him (`ask`), else the default.
    Returns the effect and why the IFWIN could not be used (None: it was, or none)."""
    state = ctx.state
    written = unusable = None
    if ifwin is not None:
        unusable = standing.check_effect(state, winner, kind, ifwin)
        if unusable:
            ctx.log.private([winner], "ifwin_unusable", _("IFWIN {effect} cannot be used: "
                                                          "{why}.", effect=str(ifwin),
                                                          why=unusable))
        else:
            written = str(ifwin)
    default = standing.default_effect(state, winner, kind)  # the `auto` default
    question = (_("You won {tile}: choose its effect (REBEL <region> <n>K <n>M, at most 2 "
                  "units).", tile=data.tile_name(kind)) if kind == "rebellion" else
                _("You won {tile}: choose its effect (SWAP <region> <set-aside symbol>, or "
                  "DECLINE).", tile=data.tile_name(kind)))
    public = _("the effect of {tile}", tile=data.tile_name(kind))
    answer = ctx.decide(
        winner, "effect", question=question,
        default=str(default), options=[str(e) for e in standing.legal_effects(state, winner, kind)],
        standing=written, exhaustive=False,
        accept=lambda a: standing.check_effect(state, winner, kind, parse_line(state, a)) is None,
        public=public,
        data={"line": ln.lineno, "pending": {"kind": "effect", "seat": winner,
                                             "type": kind, "tile": tid}})
    return parse_line(state, answer), unusable
