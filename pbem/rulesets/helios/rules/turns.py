"""Phase 1 turns: taking an action tile, the action, the 4th-tile and Palace bonus actions,
the turn order, and the conditional-order layer (rulebook p. 4, 10-11, 14; spec §4.2,
§4.5, §5.7).

A turn block is a list of alternatives separated by OR; each alternative is `TAKE ...`, at
most one action line and any number of `BONUS ...` lines. A seat's script is turn blocks
separated by NEXT: the first is played now, the others are stored (`pending`) and played
when the seat's turn comes, if one of their alternatives works then. The engine uses the
first alternative whose tile is there (and matches IF) and whose action is legal now.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from pbem.core.kit import Context, Order
from pbem.rulesets.helios import data
from pbem.rulesets.helios.orders import (
    GRAMMAR,
    Action,
    Bonus,
    Decline,
    Next,
    Or,
    Take,
)
from pbem.rulesets.helios.rules import actions, characters
from pbem.rulesets.helios.rules.seats import current_seat
from pbem.rulesets.helios.state import Player, State


@dataclass
class Alternative:
    take: Take
    action: Action | None = None
    bonus: list[Action] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = [str(self.take)]
        if self.action is not None:
            out.append(str(self.action))
        return out + [str(Bonus(b)) for b in self.bonus]


Block = list[Alternative]


def split_turns(orders: Sequence[Order]) -> list[Block]:
    """Order objects -> turn blocks (split at NEXT) -> alternatives (split at OR)."""
    turns: list[Block] = []
    block: Block = []
    for o in [*orders, Next()]:
        if isinstance(o, Next):
            if block:
                turns.append(block)
            block = []
        elif isinstance(o, Or):
            continue
        elif isinstance(o, Take):
            block.append(Alternative(o))
        elif isinstance(o, Bonus):
            if block:
                block[-1].bonus.append(o.action)
        elif block and block[-1].action is None:
            block[-1].action = o  # type: ignore[assignment]
    return turns


def block_lines(block: Block) -> list[str]:
    """A turn block as canonical lines (how stored turns are kept)."""
    out: list[str] = []
    for i, alt in enumerate(block):
        if i:
            out.append("OR")
        out.extend(alt.lines())
    return out


def parse_block(state: State, seat: str, lines: Sequence[str]) -> Block:
    blocks = split_turns([GRAMMAR.parse_line(state, seat, line) for line in lines])
    return blocks[0] if blocks else []


# --- one turn --------------------------------------------------------------------------------

def default_area(player: Player) -> str:
    """Grey tile without UNDER: the area with most tiles (ties red, yellow, blue)."""
    return max(data.AREAS, key=lambda a: (len(player["under"][a]), -data.AREAS.index(a)))


def take_problem(state: State, t: Take) -> str | None:
    col = state["columns"][t.column]
    if not col:
        return f"the {t.column} column is empty"
    if t.only_if and col[-1] not in t.only_if:
        return f"the lowest {t.column} tile is {col[-1]}, not {'/'.join(t.only_if)}"
    return None


def viable(state: State, seat: str, alt: Alternative) -> str | None:
    problem = take_problem(state, alt.take) or actions.mismatch(alt.take.column, alt.action)
    if problem:
        return problem
    if alt.action is not None:
        return actions.check(state, seat, alt.action)
    return None


def run_turn(ctx: Context, seat: str, block: Block, *, stored: bool) -> bool:
    """Play `seat`'s turn from a block. Returns False when a stored block has no usable
    alternative (the seat is then asked); a fresh block always plays."""
    state: State = ctx.state
    for alt in block:
        problem = viable(state, seat, alt)
        if problem is None:
            play_alternative(ctx, seat, alt)
            return True
        ctx.log.private([seat], "skipped", f"{seat}: alternative skipped, {alt.take}: "
                        f"{problem}.")
    if stored:
        return False
    # Fresh orders with no usable alternative: take the first tile that is there and
    # decline the action (documented fallback).
    for alt in block:
        if take_problem(state, alt.take) is None:
            play_alternative(ctx, seat, Alternative(alt.take, Decline(), alt.bonus))
            return True
    fallback_turn(ctx, seat)
    return True


def fallback_turn(ctx: Context, seat: str) -> None:
    """NMR / nothing usable: first non-empty column of sun, land, build; action declined.
    With all three columns empty the turn is skipped (SPEC-AMBIGUITY A21)."""
    for col in ("sun", "land", "build"):
        if ctx.state["columns"][col]:
            play_alternative(ctx, seat, Alternative(Take(col), Decline()))
            return
    ctx.log.public("skip_turn", f"{seat} skips the turn: all three columns are empty.")


def play_alternative(ctx: Context, seat: str, alt: Alternative) -> None:
    state: State = ctx.state
    p = state["players"][seat]
    t = alt.take
    colour = state["columns"][t.column].pop()
    # Rulebook p. 4: a coloured tile goes under its own colour, a grey one under any.
    area = colour if colour in data.AREAS else (t.under or default_area(p))
    p["under"][area].append([t.column, colour])
    ctx.log.public("take", f"{seat} takes a {colour} {t.column} tile and puts it under "
                   f"{area}.", seat=seat, column=t.column, colour=colour, area=area)
    queue = list(alt.bonus)
    action: Action = alt.action if alt.action is not None else Decline()
    wrong = actions.mismatch(t.column, action)
    if wrong:
        ctx.log.public("skipped", f"{seat}'s {action} is skipped: {wrong}.", seat=seat)
        action = Decline()
    # Rulebook p. 10: an action may be declined; the tile is taken either way.
    problem = actions.check(state, seat, action)
    if problem:
        ctx.log.public("skipped", f"{seat}'s {action} is skipped: {problem}.", seat=seat)
    else:
        do_action(ctx, seat, action, queue)
    # Rulebook p. 11: the 4th tile of a colour gives a bonus action after the normal one;
    # the four tiles are then discarded by symbol.
    if len(p["under"][area]) >= 4:
        ctx.log.public("bonus", f"{seat} gets a bonus action (4th {area} tile).", seat=seat)
        bonus_action(ctx, seat, queue)
        discard_area(state, seat, area)


def do_action(ctx: Context, seat: str, action: Action, queue: list[Action]) -> None:
    """A legal action, and the bonus action a Palace built by it grants at once."""
    if actions.perform(ctx, seat, action, queue):
        ctx.log.public("bonus", f"{seat} gets a bonus action (Palace).", seat=seat)
        bonus_action(ctx, seat, queue)


def bonus_action(ctx: Context, seat: str, queue: list[Action]) -> None:
    """Spec §5.7: any one action without a tile, now or never. BONUS lines are used in
    order; an illegal one is skipped with an event and the next is tried."""
    while queue:
        action = queue.pop(0)
        problem = actions.check(ctx.state, seat, action)
        if problem is None:
            do_action(ctx, seat, action, queue)
            return
        ctx.log.public("skipped", f"{seat}'s BONUS {action} is skipped: {problem}.",
                       seat=seat)
    ctx.log.public("bonus_lost", f"{seat} forfeits the bonus action.", seat=seat)


def discard_area(state: State, seat: str, area: str) -> None:
    p = state["players"][seat]
    for symbol, c in p["under"][area]:
        state["discards"][symbol].append(c)
        state["discards"][symbol].sort()
    p["under"][area] = []


# --- Phase 1 as a whole ------------------------------------------------------------------------

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
        block = parse_block(state, seat, p["pending"].pop(0))
        if block and run_turn(ctx, seat, block, stored=True):
            state["turn_index"] += 1
            continue
        ctx.log.private([seat], "ask", f"{seat}'s stored turn cannot be used; {seat} is "
                        "asked.")
        p["pending"] = []
        return


def end_actions(ctx: Context) -> None:
    """Rulebook p. 11, 14: leftovers are discarded except 2p rounds 1 and 3."""
    state: State = ctx.state
    pc = data.player_count(len(state["seats"]))
    if state["round"] not in pc["keep_leftovers_after"]:
        for s in data.SYMBOLS:
            if state["columns"][s]:
                ctx.log.public("discard", f"Leftover {s} tiles discarded: "
                               f"{', '.join(state['columns'][s])}.")
            state["discards"][s].extend(state["columns"][s])
            state["discards"][s].sort()
            state["columns"][s] = []
    for p in state["players"].values():
        p["pending"] = []
    state["phase"] = "characters"
    if state["options"]["phase2"] == "turns":
        characters.start_phase2_turns(ctx)
