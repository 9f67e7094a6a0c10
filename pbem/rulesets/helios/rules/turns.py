"""Phase 1 turns: taking an action tile, the action, the 4th-tile and Palace bonus actions,
stored turns, and the end of Phase 1 (rulebook p. 4, 10-11, 14; spec §4.2, §4.5, §5.7).

A turn is a block of alternatives (rules/script.py). The engine plays the first
alternative whose tile is there (matching IF and UNDER) and whose action is legal now.
Every line of a file ends with an outcome: the played alternative's lines are carried out,
the ones before it refused (with the reason), the ones after it not needed; lines of later
turns are stored. A stored turn played later has no lines of its own: what becomes of it
is told to its seat in private events.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.core.i18n import Msg, _
from pbem.core.kit import CHANGED, DONE, NOT_NEEDED, REFUSED, Context
from pbem.core.orders import OrderLine
from pbem.rulesets.helios import data
from pbem.rulesets.helios.orders import GRAMMAR, Action, Bonus, Decline, Take
from pbem.rulesets.helios.rules import actions, characters, script
from pbem.rulesets.helios.rules.script import Alternative, Block, BonusLine
from pbem.rulesets.helios.rules.seats import current_seat
from pbem.rulesets.helios.state import Player, State
from pbem.rulesets.helios.words import term, terms


def outcome(ctx: Context, seat: str, ln: OrderLine | None, status: str, why: Any = "") -> None:
    """The outcome of a line of this step's file (stored turns' lines are numbered 0)."""
    if ln is not None and ln.lineno > 0:
        ctx.log.outcome(seat, ln, status, why)


def stored_block(state: State, seat: str, lines: Sequence[str]) -> Block:
    """A stored turn, read again from its canonical lines."""
    return script.split([OrderLine(0, t, GRAMMAR.parse_line(state, seat, t)) for t in lines])[0]


def default_area(player: Player) -> str:
    """Grey tile without UNDER: the area with most tiles (ties red, yellow, blue)."""
    return max(data.AREAS, key=lambda a: (len(player["under"][a]), -data.AREAS.index(a)))


def take_problem(state: State, t: Take) -> Msg | None:
    """Why the tile of a TAKE line cannot be taken now (None when it can)."""
    col = state["columns"][t.column]
    if not col:
        return _("the {column} column is empty", column=term(t.column))
    low = col[-1]
    if t.only_if and low not in t.only_if:
        return _("the lowest {column} tile is {colour}, not {colours}", column=term(t.column),
                 colour=term(low), colours=terms(t.only_if, "/"))
    # Rulebook p. 4: a coloured tile goes under its own colour; only a grey one may go
    # under an area of the player's choice.
    if t.under and low in data.AREAS and low != t.under:
        return _("the lowest {column} tile is {colour} and goes under {colour}; UNDER {area} "
                 "is for a grey tile", column=term(t.column), colour=term(low), area=t.under)
    return None


def problem_of(state: State, seat: str, alt: Alternative) -> tuple[OrderLine | None, Msg] | None:
    """Why an alternative cannot be played now, and the line that says so."""
    assert alt.take is not None
    why = take_problem(state, alt.take)
    if why:
        return alt.take_line, why
    why = actions.mismatch(alt.take.column, alt.action)
    if why is None and alt.action is not None:
        why = actions.check(state, seat, alt.action)
    return (alt.action_line, why) if why else None


def run_turn(ctx: Context, seat: str, block: Block, *, stored: bool) -> bool:
    """Play `seat`'s turn from a block. Returns False when a stored block has no usable
    alternative (the seat is then asked); a fresh block always plays."""
    state: State = ctx.state
    alts = [alt for alt in block.alternatives if alt.take is not None]  # judged on arrival
    problems: list[tuple[OrderLine | None, Msg]] = []
    for i, alt in enumerate(alts):
        found = problem_of(state, seat, alt)
        if found is None:
            _refuse(ctx, seat, alts[:i], problems)
            _not_needed(ctx, seat, alts[i + 1:], _("an earlier alternative was played"))
            outcome(ctx, seat, alt.or_line, DONE,
                    _("the alternatives before it could not be played"))
            play_alternative(ctx, seat, alt)
            return True
        problems.append(found)
    pick = None if stored else next(
        (i for i, alt in enumerate(alts) if alt.take and take_problem(state, alt.take) is None),
        None)
    if pick is None:
        _refuse(ctx, seat, alts, problems)
        if stored:
            return False
        fallback_turn(ctx, seat, _("no alternative's tile can be taken"))
        return True
    # A fresh turn with no usable alternative (judged on arrival, so rare): the first tile
    # that can be taken, the action declined.
    _refuse(ctx, seat, alts[:pick] + alts[pick + 1:], problems[:pick] + problems[pick + 1:])
    alt = alts[pick]
    outcome(ctx, seat, alt.or_line, DONE, _("the alternatives before it could not be played"))
    outcome(ctx, seat, alt.action_line, REFUSED, problems[pick][1])
    play_alternative(ctx, seat, Alternative(alt.take, None, alt.bonus, take_line=alt.take_line),
                     changed=_("no alternative could be played"))
    return True


def _refuse(ctx: Context, seat: str, alts: Sequence[Alternative],
            problems: Sequence[tuple[OrderLine | None, Msg]]) -> None:
    for alt, (line, why) in zip(alts, problems, strict=False):
        if line is None or line.lineno == 0:
            ctx.log.private([seat], "skipped", _("{seat}: alternative skipped, {take}: {why}.",
                                                 seat=seat, take=str(alt.take), why=why))
            continue
        for ln in alt.lines:
            if ln is line:
                outcome(ctx, seat, ln, REFUSED, why)
            else:
                outcome(ctx, seat, ln, NOT_NEEDED,
                        _("its alternative was not played (line {n})", n=line.lineno))


def _not_needed(ctx: Context, seat: str, alts: Sequence[Alternative], why: Msg) -> None:
    for alt in alts:
        for ln in alt.lines:
            outcome(ctx, seat, ln, NOT_NEEDED, why)


def fallback_turn(ctx: Context, seat: str, why: Any = "") -> None:
    """NMR / nothing usable: first non-empty column of sun, land, build; action declined.
    With all three columns empty the turn is skipped (SPEC-AMBIGUITY A21)."""
    if why:
        ctx.log.private([seat], "default", _("{seat}: {why}; the default turn is played (the "
                                             "lowest tile of the first column with tiles, sun, "
                                             "land, build; the action declined).", seat=seat,
                                             why=why))
    for col in ("sun", "land", "build"):
        if ctx.state["columns"][col]:
            play_alternative(ctx, seat, Alternative(Take(col), Decline()))
            return
    ctx.log.public("skip_turn", _("{seat} skips the turn: all three columns are empty.", seat=seat))


def play_alternative(ctx: Context, seat: str, alt: Alternative,
                     changed: Msg | None = None) -> None:
    """Take the tile and carry out the alternative (`changed`: a fresh turn's fallback, its
    action declined)."""
    state: State = ctx.state
    p = state["players"][seat]
    t = alt.take
    assert t is not None
    colour = state["columns"][t.column].pop()
    # Rulebook p. 4: a coloured tile goes under its own colour, a grey one under any.
    area = colour if colour in data.AREAS else (t.under or default_area(p))
    p["under"][area].append([t.column, colour])
    words = dict(colour=term(colour), column=term(t.column), area=term(area))
    ctx.log.public("take", _("{seat} takes a {colour} {column} tile and puts it under {area}.",
                             seat=seat, **words), seat=seat, column=t.column, colour=colour,
                   area=area)
    took = _("took the {colour} {column} tile, under {area} (the area with most tiles)",
             **words) if colour == "grey" and not t.under else \
        _("took the {colour} {column} tile, under {area}", **words)
    if changed is not None:
        outcome(ctx, seat, alt.take_line, CHANGED, _("{changed}: {took} and declined the action",
                                                     changed=changed, took=took))
    else:
        outcome(ctx, seat, alt.take_line, DONE, took)
    queue = list(alt.bonus)
    action: Action = alt.action if alt.action is not None else Decline()
    wrong = actions.mismatch(t.column, action) or actions.check(state, seat, action)
    if wrong:  # only for a turn put together by hand: played alternatives are legal
        outcome(ctx, seat, alt.action_line, REFUSED, wrong)
        if alt.action_line is None or alt.action_line.lineno == 0:
            ctx.log.private([seat], "skipped", _("{seat}'s {action} is skipped: {why}.",
                                                 seat=seat, action=str(action), why=wrong))
        action = Decline()
        do_action(ctx, seat, action, queue)
    else:
        do_action(ctx, seat, action, queue)
        outcome(ctx, seat, alt.action_line, DONE)
    # Rulebook p. 11: the 4th tile of a colour gives a bonus action after the normal one;
    # the four tiles are then discarded by symbol.
    if len(p["under"][area]) >= 4:
        ctx.log.public("bonus", _("{seat} gets a bonus action (4th {colour} tile).", seat=seat,
                                  colour=term(area)), seat=seat)
        bonus_action(ctx, seat, queue)
        discard_area(state, seat, area)
    for left in queue:
        outcome(ctx, seat, left.line, NOT_NEEDED, _("no bonus action was left for it"))


def do_action(ctx: Context, seat: str, action: Action, queue: list[BonusLine]) -> None:
    """A legal action, and the bonus action a Palace built by it grants at once."""
    rest = [str(Bonus(b.action)) for b in queue]
    if actions.perform(ctx, seat, action, rest):
        ctx.log.public("bonus", _("{seat} gets a bonus action (Palace).", seat=seat), seat=seat)
        bonus_action(ctx, seat, queue)


def bonus_action(ctx: Context, seat: str, queue: list[BonusLine]) -> None:
    """Spec §5.7: any one action without a tile, now or never. BONUS lines are used in
    order; an illegal one is refused and the next is tried."""
    while queue:
        item = queue.pop(0)
        problem = actions.check(ctx.state, seat, item.action)
        if problem is None:
            do_action(ctx, seat, item.action, queue)
            outcome(ctx, seat, item.line, DONE, _("your bonus action"))
            return
        if item.line.lineno:
            outcome(ctx, seat, item.line, REFUSED, problem)
        else:
            ctx.log.private([seat], "skipped", _("{seat}'s BONUS {action} is skipped: {why}.",
                                                 seat=seat, action=str(item.action), why=problem))
    ctx.log.public("bonus_lost", _("{seat} forfeits the bonus action.", seat=seat), seat=seat)


def discard_area(state: State, seat: str, area: str) -> None:
    p = state["players"][seat]
    for symbol, c in p["under"][area]:
        state["discards"][symbol].append(c)
        state["discards"][symbol].sort()
    p["under"][area] = []


# --- stored turns and Phase 1 as a whole ---------------------------------------------------------

def store(ctx: Context, seat: str, blocks: Sequence[Block]) -> None:
    """Keep `blocks` as the seat's coming turns (they replace the stored ones); each line
    says which coming turn it belongs to."""
    ctx.state["players"][seat]["pending"] = [b.canonical() for b in blocks]
    for k, block in enumerate(blocks, start=1):
        which = _("stored for your next turn") if k == 1 else \
            _("stored for your coming turn no. {n}", n=k)
        for i, ln in enumerate(block.lines()):  # the turn's first line says which turn
            outcome(ctx, seat, ln, DONE, which if i == 0 else _("stored"))


def play_on(ctx: Context) -> None:
    """Run stored turns (NEXT blocks) and empty-column skips until orders are needed."""
    state: State = ctx.state
    while state["phase"] == "actions":
        seat = current_seat(state)
        if seat is None:
            end_actions(ctx)
            return
        if not any(state["columns"].values()):
            fallback_turn(ctx, seat)
            state["turn_index"] += 1
            continue
        p = state["players"][seat]
        if not p["pending"]:
            return
        block = stored_block(state, seat, p["pending"].pop(0))
        if block.alternatives and run_turn(ctx, seat, block, stored=True):
            state["turn_index"] += 1
            continue
        ctx.log.private([seat], "ask", _("{seat}'s stored turn cannot be used; {seat} is asked.",
                                         seat=seat))
        p["pending"] = []
        return


def end_actions(ctx: Context) -> None:
    """Rulebook p. 11, 14: leftovers are discarded except 2p rounds 1 and 3. Stored turns
    expire."""
    state: State = ctx.state
    pc = data.player_count(len(state["seats"]))
    if state["round"] not in pc["keep_leftovers_after"]:
        for s in data.SYMBOLS:
            if state["columns"][s]:
                ctx.log.public("discard", _("Leftover {column} tiles discarded: {colours}.",
                                            column=term(s), colours=terms(state["columns"][s])))
            state["discards"][s].extend(state["columns"][s])
            state["discards"][s].sort()
            state["columns"][s] = []
    for seat, p in state["players"].items():
        if p["pending"]:
            ctx.log.private([seat], "expired", _("{seat}'s stored turns expire with Phase 1: "
                                                 "{turns}.", seat=seat, turns=" | ".join(
                                                     "; ".join(b) for b in p["pending"])))
        p["pending"] = []
    state["phase"] = "characters"
    if state["options"]["phase2"] == "turns":
        characters.start_phase2_turns(ctx)
