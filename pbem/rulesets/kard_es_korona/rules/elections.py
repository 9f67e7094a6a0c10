"""Elections (rulebook ch. 4, p. 12; spec 5.16): three sealed-bid auctions, Judge Royal,
Master of the Treasury, Palatine, each a simultaneous decision of all eligible players.

A bid comes from a BID line sent before the auction (a pre-bid: with the year orders, or in
the election's first step), else the player is asked (all such players at once, in one
step: `decide_all`). All bids are paid to the bank; a tied top bidder who does not get the
office gets half his bid back (rounded down). Ties: the holder keeps his office; otherwise,
from the second election on, the Palatine chooses (his PREFER list, else with
decisions=ask a question, else himself if tied, else the first tied player in turn order);
otherwise a die roll-off (PR-41).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from pbem.core.dice import Dice
from pbem.core.i18n import Msg, _
from pbem.core.kit import Ask, Context, Log
from pbem.core.orders import OrderLine
from pbem.rulesets.kard_es_korona.data import OFFICE_NAMES, OFFICE_WORDS, OFFICES
from pbem.rulesets.kard_es_korona.orders import Bid
from pbem.rulesets.kard_es_korona.rules.control import turn_order
from pbem.rulesets.kard_es_korona.rules.victory import check_victory
from pbem.rulesets.kard_es_korona.state import Prebid, State, appoint, holder

POWERS = {"judge": _("once per battle he rerolls all dice of one arm, and his own other rolls "
                     "once"),
          "treasurer": _("his castles pay 5 garas instead of 3"),
          "palatine": _("recruits at 7/4/4 and, from the second election on, chooses between "
                        "tied bidders")}


def eligible(state: State) -> list[str]:
    """Rulebook p. 11-12: vassals and captives may not bid."""
    return [s for s in turn_order(state) if state["players"][s]["status"] == "active"]


def current_office(state: State) -> str:
    election = state["election"]
    assert election is not None
    return OFFICES[min(election["office"], 2)]


def start_election(state: State, log: Log) -> bool:
    """Declare the treasuries (p. 12). Returns False when nobody may bid (the election is
    then over at once)."""
    who = eligible(state)
    declared = {s: state["players"][s]["treasury"] for s in who}
    state["election"] = {"office": 0, "declared": declared, "results": []}
    log.public("election", _("Election at the end of {year}. Declared treasuries: {money}.",
                             year=state["year"],
                             money=", ".join(f"{s} {m}" for s, m in declared.items())),
               declared=declared)
    if not who:
        end_election(state, log)
    return bool(who)


def end_election(state: State, log: Log) -> None:
    state["elections_held"] += 1
    state["election"] = None
    state["extra_election"] = False
    check_victory(state, log)


def _results(state: State) -> dict[str, str | None]:
    election = state["election"]
    assert election is not None
    return {r["office"]: r["winner"] for r in election["results"]}


def applies(bid: Bid | Prebid, office: str, seat: str, results: Mapping[str, str | None]) -> bool:
    """Is this BID line the seat's bid for `office` now (its condition holds)?"""
    b = bid if isinstance(bid, dict) else {"office": bid.office, "cond": bid.cond,
                                           "cond_office": bid.cond_office}
    if b["office"] != office:
        return False
    if b["cond"] == "won":
        return results.get(b["cond_office"]) == seat
    if b["cond"] == "lost":
        return results.get(b["cond_office"]) != seat
    return True


def prebid(state: State, seat: str) -> int | None:
    """The seat's standing pre-bid for the office now auctioned (sent with this year's
    orders): the first BID line for it whose condition holds, or None."""
    office = current_office(state)
    results = _results(state)
    year = state["players"][seat]["standing"].get("prebids", {}).get(str(state["year"]), [])
    for line in year:
        if applies(line, office, seat, results):
            return int(line["amount"])
    return None


def _sent_bid(state: State, seat: str, lines: Sequence[OrderLine]) -> OrderLine | None:
    """The first BID line of this step's file that is the seat's bid for the office now."""
    office, results = current_office(state), _results(state)
    return next((ln for ln in lines if applies(ln.order, office, seat, results)), None)


def to_ask(state: State) -> list[str]:
    """Eligible seats that have no pre-bid for the office now auctioned."""
    return [s for s in eligible(state) if prebid(state, s) is None]


def bid_question(state: State, seat: str) -> Msg:
    """The sealed-bid question (rulebook p. 12): the office, its power, the auction rules."""
    office = current_office(state)
    election = state["election"]
    assert election is not None
    held_by = holder(state, office)
    pal = state["offices"]["palatine"]
    tie = (_("else the Palatine {seat} chooses", seat=pal)
           if state["elections_held"] >= 1 and pal is not None else _("else a die roll-off"))
    return _("Election at the end of {year}, auction {n} of 3: {office}: {power}. Now held by "
             "{holder}. Your sealed bid, 0 to {have} garas: every bid is paid; a tied bidder who "
             "does not get the office gets half his bid back; ties: the holder keeps it, {tie}. "
             "All bids 0: nothing changes.", year=state["year"], n=election["office"] + 1,
             office=OFFICE_NAMES[office], power=POWERS[office], holder=held_by or _("nobody"),
             have=state["players"][seat]["treasury"], tie=tie)


Sent = Mapping[str, Sequence[OrderLine]]  # seat -> the BID lines of this step's file


def run_election(ctx: Context, sent: Sent | None = None) -> None:
    """The auctions still to hold, in order (rulebook p. 12); `sent`: the BID lines of this
    step (the election's first step). Each auction is one sealed decision of all eligible
    players: a bid sent before (this step's line, else the year orders' pre-bid) stands,
    the others are asked at once."""
    state = ctx.state
    sent = sent or {}
    done: set[tuple[str, int]] = set()
    first = current_office(state) if state["election"] is not None else ""
    while state["election"] is not None:
        office = current_office(state)
        lines = {seat: _sent_bid(state, seat, sent.get(seat, ())) for seat in eligible(state)}
        asks = {}
        for seat, line in lines.items():
            have = line.order.amount if line is not None else prebid(state, seat)
            if have is None and seat in sent and office == first:  # asked now: no bid is 0
                have = 0
                ctx.log.private([seat], "bid", _("You sent no bid for the {office} auction: "
                                                 "your bid is 0.", office=OFFICE_WORDS[office]))
            asks[seat] = Ask(bid_question(state, seat), f"BID {office} 0",
                             options=(f"BID {office} 0",),
                             standing=None if have is None else f"BID {office} {have}",
                             accept=_for_office(office), exhaustive=False,
                             public=_("a sealed bid for the office {office}",
                                      office=OFFICE_WORDS[office]),
                             data={"office": office})
        got = ctx.decide_all("bid", asks)
        bids = {seat: int(got[seat].split()[2]) for seat in asks}  # in turn order
        _bid_outcomes(ctx, office, bids, lines, sent, done)
        resolve_auction(ctx, bids)
        election = state["election"]
        if election is None:
            break
        election["office"] += 1
        if election["office"] >= 3 or not eligible(state):
            end_election(state, ctx.log)
    for seat, seat_lines in sent.items():
        for ln in seat_lines:
            if (seat, ln.lineno) in done:
                continue
            ctx.log.not_needed(seat, ln, _("vassals and captives do not bid")
                               if state["players"][seat]["status"] != "active"
                               else _("no {office} auction was held",
                                      office=OFFICE_WORDS[ln.order.office]))


def _bid_outcomes(ctx: Context, office: str, bids: dict[str, int],
                  used: Mapping[str, OrderLine | None], sent: Sent,
                  done: set[tuple[str, int]]) -> None:
    """What became of the bids for `office`: a bid above the bidder's treasury is cut to it
    (his line's outcome says so; a pre-bid of the year orders is told privately); the
    seat's other lines for this office did not count."""
    state, log = ctx.state, ctx.log
    for seat, amount in bids.items():
        have = state["players"][seat]["treasury"]
        line = used.get(seat)
        if line is not None:
            if amount > have:
                log.changed(seat, line, _("cut to your treasury: you bid {n} garas", n=have))
            else:
                log.done(seat, line)
            done.add((seat, line.lineno))
        elif amount > have:
            log.private([seat], "bid", _("Your pre-bid of {amount} garas for {office} is more "
                                         "than your treasury: you bid {have} garas.",
                                         amount=amount, office=OFFICE_WORDS[office], have=have),
                        seat=seat)
        for ln in sent.get(seat, ()):
            if ln.order.office == office and (seat, ln.lineno) not in done:
                log.not_needed(seat, ln, _("an earlier BID line for {office} counted",
                                           office=OFFICE_WORDS[office])
                               if line is not None else _("its condition did not hold"))
                done.add((seat, ln.lineno))


def _for_office(office: str) -> Callable[[str], bool]:
    return lambda line: line.split()[:2] == ["BID", office]


def palatine_choice(state: State, pal: str, tied: list[str]) -> str:
    # SPEC-AMBIGUITY (DP22 default): the Palatine picks himself if tied, else the first tied
    # player in turn order, unless his PREFER list says otherwise.
    for s in state["players"][pal]["standing"].get("prefer", []):
        if s in tied:
            return s
    if pal in tied:
        return pal
    return [s for s in turn_order(state) if s in tied][0]


def roll_off(state: State, log: Log, dice: Dice, tied: list[str], office: str) -> str:
    judge = state["offices"]["judge"]
    rnd = 0
    while len(tied) > 1:
        rnd += 1
        rolls = {s: dice.roll(6, _("roll-off for {office}, round {n}: {seat}",
                                   office=OFFICE_WORDS[office], n=rnd, seat=s)) for s in tied}
        if judge in rolls and rolls[judge] < max(rolls.values()):
            rolls[judge] = dice.roll(6, _("roll-off for {office}, round {n}: {seat} Judge Royal "
                                          "reroll", office=OFFICE_WORDS[office], n=rnd,
                                          seat=judge))
            judge = None
        log.public("election", _("Roll-off for {office}: {rolls}.", office=OFFICE_WORDS[office],
                                 rolls=", ".join(f"{s} {r}" for s, r in rolls.items())),
                   rolls=rolls)
        top = max(rolls.values())
        tied = [s for s in tied if rolls[s] == top]
    return tied[0]


def _palatine_decides(ctx: Context, pal: str, tied: list[str], office: str) -> str:
    """Rulebook p. 12: "ő dönthet közöttük" - the Palatine chooses between tied bidders
    (himself included); DP22."""
    state = ctx.state
    standing = None
    if state["players"][pal]["standing"].get("prefer") or state["options"]["decisions"] != "ask":
        standing = f"CHOOSE {palatine_choice(state, pal, tied)}"
    else:
        ctx.log.public("election", _("Tie for {office} between {seats}: the Palatine {pal} "
                                     "chooses.", office=OFFICE_NAMES[office],
                                     seats=", ".join(tied), pal=pal), office=office, tied=tied)
    default = f"CHOOSE {palatine_choice(state, pal, tied)}"
    answer = ctx.decide(
        pal, "palatine",
        question=_("As Palatine you choose who gets the office {office}: {seats} tied with the "
                   "highest bid (rulebook p. 12; you may pick yourself if tied). Answer CHOOSE "
                   "<player>; no answer: yourself if tied, else the first of them in turn "
                   "order.", office=OFFICE_NAMES[office], seats=", ".join(tied)),
        public=_("who of {seats} gets {office}", seats=", ".join(tied),
                 office=OFFICE_WORDS[office]),
        data={"office": office, "tied": list(tied)}, default=default,
        options=tuple(f"CHOOSE {s}" for s in tied), standing=standing)
    return answer.split()[1]


def resolve_auction(ctx: Context, bids: dict[str, int]) -> None:
    """One auction (rulebook p. 12; spec 5.16.3, T17)."""
    state, log = ctx.state, ctx.log
    election = state["election"]
    assert election is not None
    office = current_office(state)
    for s in list(bids):
        bids[s] = max(0, min(bids[s], state["players"][s]["treasury"]))
    log.public("bids", _("Bids for {office}: {bids}.", office=OFFICE_NAMES[office],
                         bids=", ".join(f"{s} {b}" for s, b in bids.items())),
               office=office, bids=bids)
    if not bids or max(bids.values()) == 0:
        log.public("election", _("Nobody bids for {office}: nothing changes.",
                                 office=OFFICE_NAMES[office]), office=office)
        election["results"].append({"office": office, "winner": holder(state, office)})
        return
    top = max(bids.values())
    tied = [s for s in turn_order(state) if bids.get(s) == top]
    held_by = holder(state, office)
    pal = state["offices"]["palatine"]
    how = "won"
    if len(tied) == 1:
        winner = tied[0]
    elif held_by in tied:
        winner, how = held_by, "kept"
    elif state["elections_held"] >= 1 and pal is not None \
            and state["players"][pal]["status"] == "active":
        winner = _palatine_decides(ctx, pal, tied, office)
        how = "palatine"
    else:
        winner = roll_off(state, log, ctx.dice, tied, office)
        how = "roll-off"
    for s, b in bids.items():
        state["players"][s]["treasury"] -= b
    for s in tied:
        if s != winner:
            back = top // 2
            state["players"][s]["treasury"] += back
            log.public("refund", _("{seat} gets {n} garas back (half of a tied bid).", seat=s,
                                   n=back), seat=s,
                       amount=back)
    appoint(state, office, winner)
    election["results"].append({"office": office, "winner": winner})
    log.public("office", _elected(winner, OFFICE_NAMES[office], how, pal), office=office,
               seat=winner)


def _elected(winner: str, office: Msg, how: str, pal: str | None) -> Msg:
    if how == "kept":
        return _("{seat} becomes {office} (the holder keeps the office on a tie).", seat=winner,
                 office=office)
    if how == "palatine":
        return _("{seat} becomes {office} (the Palatine {pal} decides the tie).", seat=winner,
                 office=office, pal=pal)
    if how == "roll-off":
        return _("{seat} becomes {office} (roll-off).", seat=winner, office=office)
    return _("{seat} becomes {office}.", seat=winner, office=office)
