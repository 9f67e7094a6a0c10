"""The year (rulebook 3.3, p. 7; traditional movement 6.5, p. 15; spec 4): phase I (event
card), II (income, transfers, ransom, recruitment), III (movement rounds), IV (battles),
V (election), run straight through inside one resolution until orders are needed.

A player's steps come from his year orders: his MOVE lines in order up to PASS. In each
movement round, in turn order, his next step is carried out; a step that has become illegal
(or whose IF condition fails) is skipped with a note and the next one is tried at once; a
PASS, an exhausted list, used-up steps or a lord freeze make him pass. With
movement=strict a player whose list runs out before PASS is asked for his next step.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.core.i18n import Msg, _
from pbem.core.kit import Context
from pbem.core.orders import OrderLine
from pbem.rulesets.kard_es_korona.effects import apply_card
from pbem.rulesets.kard_es_korona.orders import (
    GRAMMAR,
    Bid,
    Cede,
    Give,
    Move,
    Pass,
    Ransom,
    Recruit,
    Resign,
)
from pbem.rulesets.kard_es_korona.rules import defeat, economy, elections
from pbem.rulesets.kard_es_korona.rules.battles import run_battles
from pbem.rulesets.kard_es_korona.rules.combat import rolls
from pbem.rulesets.kard_es_korona.rules.control import step_allowance, turn_order
from pbem.rulesets.kard_es_korona.rules.movement import check_step, do_step
from pbem.rulesets.kard_es_korona.rules.victory import check_victory, end_of_game
from pbem.rulesets.kard_es_korona.state import State

Scripts = dict[str, list[OrderLine]]  # seat -> its MOVE and PASS lines not yet used


def start_year(ctx: Context) -> None:
    """Phase I and the income of phase II (rulebook p. 7); then the year orders."""
    state, log = ctx.state, ctx.log
    year = state["year"]
    log.public("year", _("Year {year} begins; start player {seat}.", year=year,
                         seat=state["start"]), year=year)
    state["first_passer"] = None
    state["cavalry_recruited"] = {}
    state["cavalry_quota"] = (year - 1300) if (state["version"] == "advanced"
                                               and state["options"]["cavalry_cap"]) else 0
    for p in state["players"].values():
        p.update(lord_moved=False, frozen=False, cavalry_bought=0, passed=False, steps_left=0,
                 cavalry_allowance=0)
    for s in state["board"].values():
        s["used"] = {a: 0 for a in s["used"]}
    defeat.captive_deaths(state, log)
    economy.draw_card(state, ctx.dice, log)
    if state["options"]["movement"] == "traditional":
        roll_start_player(ctx)
    apply_card(state, log)
    economy.collect_income(state, log)
    if not check_victory(state, log):
        state["phase"] = "orders"


def roll_start_player(ctx: Context) -> None:
    """Rulebook 6.5 (PR-42): every year each player rolls two dice, the highest total is
    the start player; ties roll again."""
    state = ctx.state
    tied = [s for s in state["seats"] if state["players"][s]["status"] != "out"]
    rnd = 0
    while len(tied) > 1:
        rnd += 1
        totals = {s: sum(rolls(ctx.dice, 2, 6, _("start player roll {year}, round {n}: {seat}",
                                                 year=state["year"], n=rnd, seat=s)))
                  for s in tied}
        ctx.log.public("start_roll", _("Start player roll: {totals}.", totals=", ".join(
            f"{s} {t}" for s, t in totals.items())), totals=totals)
        top = max(totals.values())
        tied = [s for s in tied if totals[s] == top]
    if tied:
        state["start"] = tied[0]
        ctx.log.public("start_roll", _("{seat} is start player in {year}.", seat=tied[0],
                                       year=state["year"]), seat=tied[0])


def play_year(ctx: Context, scripts: Scripts, bids: Scripts | None = None) -> None:
    """Phases III to V after the year orders' transfers and recruitment: movement, battles,
    the election (`bids`: the pre-bid lines of the year orders); then the next year begins
    (or the game ends)."""
    bids = bids or {}
    state = ctx.state
    for seat in state["seats"]:  # phase III: allowance counted at its start (PR-10)
        p = state["players"][seat]
        p["steps_left"] = step_allowance(state, seat) if p["status"] != "out" else 0
    if state["options"]["movement"] == "traditional":
        over = traditional_movement(ctx, scripts)
    else:
        over = movement_rounds(ctx, scripts)
        if not over:
            ctx.log.public("phase", _("{year}, phase IV: all units are turned face up; "
                                      "battles and sieges.", year=state["year"]))
            over = run_battles(ctx)
    _not_reached(ctx, scripts)
    if over:
        _not_reached(ctx, bids)
        return
    if economy.election_due(state) and elections.start_election(state, ctx.log):
        state["phase"] = "bid"
        if elections.to_ask(state):  # the first auction's bids are a step of its own
            for seat, lines in bids.items():
                for ln in lines:
                    ctx.log.done(seat, ln, _("kept as your pre-bid: the auctions begin in "
                                             "the next step"))
            return
        elections.run_election(ctx, bids)
    elif economy.election_due(state):
        elections.end_election(state, ctx.log)
        for seat, lines in bids.items():
            for ln in lines:
                ctx.log.not_needed(seat, ln, _("nobody may bid: no election was held"))
    end_year(ctx)


def _not_reached(ctx: Context, scripts: Scripts) -> None:
    """Lines of the step lists that were never reached (the game ended, the player was out)."""
    state = ctx.state
    for seat, script in scripts.items():
        why = (_("the game is over") if state["result"] is not None else
               _("you are out of the game") if state["players"][seat]["status"] == "out" else
               _("not reached"))
        for ln in script:
            ctx.log.not_needed(seat, ln, why)
        script.clear()


def end_year(ctx: Context) -> None:
    """The year is over: the game ends after the last year, else the next one begins."""
    state = ctx.state
    if state["result"] is not None:
        state["phase"] = "over"
        return
    if state["year"] >= state["last_year"]:
        end_of_game(state, ctx.log)
        return
    state["year"] += 1
    if state["first_passer"]:
        state["start"] = state["first_passer"]
    start_year(ctx)


def traditional_movement(ctx: Context, scripts: Scripts) -> bool:
    """Rulebook 6.5: each player in turn makes all his steps, then fights all his battles;
    the start player may move first or last (SEQUENCE). Returns True when the game is over."""
    state = ctx.state
    # SPEC-AMBIGUITY: in the traditional mode units that already fought this year may be
    # attacked again by a later player (the book says the start player moving last
    # "cannot be attacked by anyone this year", so earlier movers can be).
    order = [s for s in turn_order(state) if state["players"][s]["status"] != "out"]
    if state["players"][state["start"]]["standing"].get("sequence") == "last":
        order = order[1:] + order[:1]
    ctx.log.public("phase", _("{year}: traditional movement; order {seats}.", year=state["year"],
                              seats=", ".join(order)), order=order)
    for seat in order:
        if state["players"][seat]["status"] != "out" and movement_rounds(ctx, scripts, seat):
            return True
        if run_battles(ctx):
            return True
    return False


def movement_rounds(ctx: Context, scripts: Scripts, only: str | None = None) -> bool:
    """Movement rounds (rulebook p. 8; spec 5.4.1, DP7): in turn order each player makes one
    step or passes, until all have passed; `only`: the one player who moves now
    (traditional mode). Returns True when the game is over."""
    state = ctx.state
    order = [only] if only else [s for s in turn_order(state)
                                 if state["players"][s]["status"] != "out"]
    for s in order:
        state["players"][s]["passed"] = False
    if only is None:
        state["first_passer"] = None
    strict = only is None and state["options"]["movement"] == "strict"
    ptr = 0
    while not all(state["players"][s]["passed"] for s in order):
        s = order[ptr]
        if not state["players"][s]["passed"]:
            script = scripts.setdefault(s, [])
            why = _turn(ctx, s, script, strict)
            if why is None:
                return True
            if why:
                _passes(ctx, s, why, script, single=only is not None)
        ptr = (ptr + 1) % len(order)
    return False


def _turn(ctx: Context, seat: str, script: list[OrderLine], strict: bool) -> str | None:
    """One player's turn of a movement round: his next step that can be made. Returns why
    he passes, "" when he stepped, or None when the step ended the game."""
    state = ctx.state
    p = state["players"][seat]
    if p["steps_left"] <= 0:
        return "has no steps left"
    if p["frozen"]:
        return "is frozen (lord attacked)"
    # SPEC-AMBIGUITY (DP7): a skipped step does not use the turn; the next line of the
    # list is tried at once, so a script can carry its own fallbacks.
    while True:
        line = script.pop(0) if script else None
        if line is None and not strict:
            return "has no more steps in his orders"
        order = line.order if line is not None else _ask_step(ctx, seat)
        if isinstance(order, Pass):
            if line is not None:
                ctx.log.done(seat, line, _("you passed"))
            return "passes"
        assert isinstance(order, Move)
        battles = len(state["battles"])
        why = do_step(state, ctx.log, seat, order)
        if why:
            if line is not None:
                ctx.log.refused(seat, line, _("step skipped: {why}", why=why))
            ctx.log.public("skip_public", _("{seat} skips a step.", seat=seat), seat=seat)
            continue
        if line is not None:
            ctx.log.done(seat, line)
        p["steps_left"] -= 1
        if len(state["battles"]) > battles:
            return ""  # an attack only takes land from the holders: it wins nothing yet
        return None if check_victory(state, ctx.log) else ""


def _ask_step(ctx: Context, seat: str) -> Move | Pass:
    """movement=strict: the player whose list ran out is asked for his next step (DP7);
    the answer's outcome is the kit's."""
    state = ctx.state

    def legal(line: str) -> bool:
        order = GRAMMAR.parse_line(state, seat, line)
        return isinstance(order, Pass) or (isinstance(order, Move)
                                           and not check_step(state, seat, order)[0])
    left = state["players"][seat]["steps_left"]
    line = ctx.decide(
        seat, "move",
        question=_("Movement, your turn ({n} steps left): send your next step (one MOVE line) "
                   "or PASS.", n=left),
        public=_("his next step"), default="PASS", options=("PASS",), exhaustive=False,
        accept=legal)
    order = GRAMMAR.parse_line(state, seat, line)
    assert isinstance(order, (Move, Pass))
    return order


PASS_REASONS = {"has no steps left": _("you had used all your steps"),
                "is frozen (lord attacked)": _("your lord was attacked (lord freeze): you could "
                                               "only pass"),
                "passes": _("you had passed")}


def _passed(seat: str, why: str, first: bool) -> Msg:
    """'<seat> passes.' and the other reasons a player passes, as whole sentences; `first`:
    the first to pass (the next start player)."""
    if why == "has no steps left":
        return (_("{seat} has no steps left: first to pass, start player next year.", seat=seat)
                if first else _("{seat} has no steps left.", seat=seat))
    if why == "is frozen (lord attacked)":
        return (_("{seat} is frozen (lord attacked): first to pass, start player next year.",
                  seat=seat) if first else _("{seat} is frozen (lord attacked).", seat=seat))
    if why == "has no more steps in his orders":
        return (_("{seat} has no more steps in his orders: first to pass, start player next "
                  "year.", seat=seat) if first else
                _("{seat} has no more steps in his orders.", seat=seat))
    return (_("{seat} passes: first to pass, start player next year.", seat=seat) if first
            else _("{seat} passes.", seat=seat))


def _passes(ctx: Context, seat: str, why: str, script: list[OrderLine], single: bool) -> None:
    state, log = ctx.state, ctx.log
    state["players"][seat]["passed"] = True
    for ln in script:
        log.not_needed(seat, ln, PASS_REASONS.get(why, why))
    script.clear()
    if single or state["first_passer"] is not None:
        log.public("pass", _passed(seat, why, first=False), seat=seat)
    else:
        state["first_passer"] = seat
        log.public("pass", _passed(seat, why, first=True), seat=seat)


def year_orders(ctx: Context, lines: Mapping[str, Sequence[OrderLine]]) -> None:
    """The year orders of every player (rulebook p. 7-8): resignations, transfers first
    (p. 2), then ransom and recruitment in turn order (none in 1301), then the rest of the
    year. Pre-bids and standing orders were kept before (`phases.keep_standing`)."""
    state, log = ctx.state, ctx.log
    seats = [s for s in turn_order(state) if s in lines]
    for seat in list(seats):
        resign = [ln for ln in lines[seat] if isinstance(ln.order, Resign)]
        if resign:
            defeat.leave_game(state, log, seat)
            seats.remove(seat)
            for ln in lines[seat]:
                if ln is resign[0]:
                    log.done(seat, ln, _("you have left the game; your units stay as "
                                         "neutral troops"))
                else:
                    log.not_needed(seat, ln, _("you left the game"))
    scripts: Scripts = {}
    bids: Scripts = {}
    for seat in seats:
        scripts[seat] = [ln for ln in lines[seat] if isinstance(ln.order, (Move, Pass))]
        bids[seat] = [ln for ln in lines[seat] if isinstance(ln.order, Bid)]
        keep_prebids(state, seat, [ln.order for ln in bids[seat]])
    for seat in seats:  # transfers first (rulebook p. 2)
        for ln in lines[seat]:
            if isinstance(ln.order, (Give, Cede)):
                _transfer(ctx, seat, ln)
    recruitment(ctx, {s: lines[s] for s in seats})
    if not check_victory(state, log):
        play_year(ctx, scripts, bids)
    else:
        _not_reached(ctx, scripts)
        _not_reached(ctx, bids)


def _transfer(ctx: Context, seat: str, ln: OrderLine) -> None:
    o = ln.order
    if isinstance(o, Give):
        given, why = economy.give(ctx.state, ctx.log, seat, o.amount, o.seat)
        if why:
            ctx.log.refused(seat, ln, why)
        elif given < o.amount:
            ctx.log.changed(seat, ln, _("only {n} garas given: all your treasury", n=given))
        else:
            ctx.log.done(seat, ln)
    elif isinstance(o, Cede):
        why = economy.cede(ctx.state, ctx.log, seat, o.office, o.seat)
        if why:
            ctx.log.refused(seat, ln, why)
        else:
            ctx.log.done(seat, ln)


def keep_prebids(state: State, seat: str, bids: Sequence[Bid]) -> None:
    """BID lines in the year orders are pre-bids for this year's election (p. 12); earlier
    years' pre-bids are forgotten."""
    standing = state["players"][seat]["standing"]
    standing.pop("prebids", None)
    if bids:
        standing["prebids"] = {str(state["year"]): [
            {"office": b.office, "amount": b.amount, "cond": "won" if b.cond == "won" else
             "lost" if b.cond == "lost" else "", "cond_office": b.cond_office} for b in bids]}


def recruitment(ctx: Context, lines: Mapping[str, Sequence[OrderLine]]) -> None:
    """Phase II in turn order (rulebook p. 7): ransom and recruitment lines in the order
    written; the advanced cavalry allowance is fixed when the player's turn comes (PR-9).
    No recruitment in 1301 (p. 7)."""
    state, log = ctx.state, ctx.log
    first_year = state["year"] == 1301
    for seat in turn_order(state):
        if seat not in lines:
            continue
        p = state["players"][seat]
        p["cavalry_allowance"] = max(state["cavalry_quota"], 1)
        for ln in lines[seat]:
            o = ln.order
            if not isinstance(o, (Ransom, Recruit)):
                continue
            if first_year:
                log.refused(seat, ln, _("no income and no recruitment in 1301 (rulebook p. 7)"))
            elif isinstance(o, Ransom):
                why = economy.ransom(state, log, seat, o.county)
                log.refused(seat, ln, why) if why else log.done(seat, ln)
            else:
                _recruit(ctx, seat, ln, o)


def _recruit(ctx: Context, seat: str, ln: OrderLine, o: Recruit) -> None:
    n, why = economy.recruit(ctx.state, ctx.log, seat, o.count, o.arm, o.county)
    if n == 0:
        ctx.log.refused(seat, ln, _("none recruited: {why}", why=why))
    elif n < o.count:
        ctx.log.changed(seat, ln, _("only {n} recruited: {why}", n=n, why=why))
    else:
        ctx.log.done(seat, ln)
