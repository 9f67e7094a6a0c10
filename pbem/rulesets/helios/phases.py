"""The steps of a Helios game, as the kit's phase table uses them: who is awaited, what
they are asked, their NMR default, and how the step resolves.

- `setup`: every seat at once: START (and seats 3/4 their CATCHUP resource);
- `actions`: one step per Phase 1 action turn, the seat on turn (any other seat may send
  its coming turns unasked: they are standing orders, stored);
- `characters`: Phase 2, every seat at once with a script for the whole phase (option
  `phase2 = turns`: one seat per step, in phase order).
Mid-step decisions (the Estate Manager's tiles, the Phase 3 catch-up resource) go through
the kit's `ctx.decide` (effects.py, rules/rounds.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.core.i18n import _
from pbem.core.kit import CHANGED, DONE, REFUSED, Context, Lines
from pbem.core.orders import Prompt
from pbem.rulesets.helios import board, data
from pbem.rulesets.helios.orders import Catchup, Start, Sun
from pbem.rulesets.helios.orders import Place as PlaceOrder
from pbem.rulesets.helios.rules import characters, land, rounds, script, sun, turns
from pbem.rulesets.helios.rules.seats import catchup_seats, current_seat
from pbem.rulesets.helios.state import Player, State
from pbem.rulesets.helios.words import term

# --- set-up ------------------------------------------------------------------------------------

def setup_awaits(state: State) -> Sequence[str]:
    return list(state["seats"])


def setup_prompt(state: State, seat: str) -> Prompt:
    extra = seat in catchup_seats(state)
    return Prompt(_("Choose your start tile (redwood, granite or bamboo) and your extra "
                    "resource.") if extra else
                  _("Choose your start tile (redwood, granite or bamboo)."),
                  ("START granite", *(["CATCHUP blue AT 0,0"] if extra else [])))


def setup_default(state: State, seat: str) -> Sequence[str]:
    start = f"START {data.STARTING_LANDS[state['seats'].index(seat) % 3]}"
    return [start, "CATCHUP blue"] if seat in catchup_seats(state) else [start]


def resolve_setup(ctx: Context, lines: Lines) -> None:
    state: State = ctx.state
    starts: dict[str, str] = {}
    extras: dict[str, Catchup | None] = {}
    for seat in state["seats"]:
        mine = lines.get(seat, ())
        start = next((ln for ln in mine if isinstance(ln.order, Start)), None)
        extra = next((ln for ln in mine if isinstance(ln.order, Catchup)), None)
        for ln in mine:
            if ln is not start and ln is not extra:  # judged on arrival: one of each
                ctx.log.outcome(seat, ln, REFUSED, _("only the first {verb} counts",
                                                     verb=str(ln.order).split()[0]))
        starts[seat] = start.order.land if start and isinstance(start.order, Start) else \
            data.STARTING_LANDS[state["seats"].index(seat) % 3]
        extras[seat] = extra.order if extra and isinstance(extra.order, Catchup) else None
        if start:
            ctx.log.outcome(seat, start, DONE, _("you start with {tile} on the centre",
                                                 tile=term(starts[seat])))
    given = rounds.finish_setup(ctx, starts, extras)
    for seat in state["seats"]:
        extra = next((ln for ln in lines.get(seat, ()) if isinstance(ln.order, Catchup)), None)
        asked = extras[seat]
        wanted = asked.colour if asked else None
        if extra is not None and seat not in given:  # judged on arrival
            ctx.log.outcome(seat, extra, REFUSED, _("only seats 3 and 4 after the start player "
                                                    "get a set-up resource"))
        elif extra is not None and wanted == given[seat]:
            ctx.log.outcome(seat, extra, DONE, _("a {colour} resource on your start tile",
                                                 colour=term(wanted)))
        elif extra is not None:
            ctx.log.outcome(seat, extra, CHANGED, _("your start tile's resource is {colour}: the "
                                                    "option setup_bonus_must_differ gave you "
                                                    "{given}", colour=term(wanted),
                                                    given=term(given[seat])))
        elif seat in given:
            ctx.log.private([seat], "default", _("{seat}: no CATCHUP line: the default {colour} "
                                                 "resource goes on your start tile.", seat=seat,
                                                 colour=term(given[seat])))
    turns.play_on(ctx)


# --- Phase 1 -----------------------------------------------------------------------------------

def actions_awaits(state: State) -> Sequence[str]:
    seat = current_seat(state)
    return [seat] if seat is not None else []


def actions_prompt(state: State, seat: str) -> Prompt:
    return Prompt(_("Round {round}, your action turn {n} of {turns}: take a tile and act.",
                    round=state["round"], n=state["turn_index"] // len(state["seats"]) + 1,
                    turns=state["turns"]), tuple(skeleton_turn(state, seat)))


def actions_default(state: State, seat: str) -> Sequence[str]:
    """NMR: the lowest tile of the first column with tiles (sun, land, build), declined."""
    col = next((c for c in ("sun", "land", "build") if state["columns"][c]), "sun")
    return [f"TAKE {col}", "DECLINE"]


def resolve_actions(ctx: Context, lines: Lines) -> None:
    """The seat on turn plays the first turn of its script now; the rest is stored."""
    state: State = ctx.state
    seat = current_seat(state)
    assert seat is not None
    first, *later = script.split(lines.get(seat, ()))
    if first.alternatives:
        turns.run_turn(ctx, seat, first, stored=False)
    else:
        turns.fallback_turn(ctx, seat, _("your orders hold no usable turn for now"))
    turns.store(ctx, seat, later)
    state["turn_index"] += 1
    turns.play_on(ctx)


def skeleton_turn(state: State, seat: str) -> list[str]:
    """A pre-filled, legal first suggestion per column, as OR alternatives (cheap: one
    Sun search and one placement search)."""
    out: list[str] = []
    p: Player = state["players"][seat]
    for col in ("sun", "land", "build"):
        if not state["columns"][col]:
            continue
        if out:
            out.append("OR")
        out.append(f"TAKE {col}")
        line = "DECLINE"
        if col == "sun":
            dests = sun.destinations(state, seat)
            first = next((c for c in board.all_cells() if c in dests), None)
            line = str(Sun((first,))) if first else line
        elif col == "land":
            items = land.offered_items(state)
            cells = board.legal_placements(board.tileset(p), board.sun_cell(p))
            line = str(PlaceOrder(items[0], cells[0])) if items and cells else line
        out.append(line)
    return out or ["TAKE sun", "DECLINE"]


# --- Phase 2 -----------------------------------------------------------------------------------

def characters_awaits(state: State) -> Sequence[str]:
    if state["phase2"]:
        return [characters.phase2_current(state)]
    return list(state["seats"])


def characters_prompt(state: State, seat: str) -> Prompt:
    chars = data.characters()
    free = [c for c in data.CHARACTERS if state["characters"][c]["owner"] is None]
    mine = [c for c in data.CHARACTERS if state["characters"][c]["owner"] == seat
            and not state["characters"][c]["active"]]
    order = ", ".join(state["phase2"]["order"] if state["phase2"]
                      else characters.phase2_order(state))
    sk = ["# free: " + (", ".join(f"{c} ({chars[c]['hire']} mana)" for c in free) or "none"),
          f"# phase order: {order}; your mana: {state['players'][seat]['mana']}"]
    sk += [f"ACTIVATE {c}" for c in mine]
    sk += ["# HIRE princess OR inventor", "# ACTIVATE princess PAY blue brown grey"]
    if not mine:
        sk.append("PASS")
    if state["phase2"]:
        return Prompt(_("Phase 2, your turn: hire at most one character and/or activate "
                        "yours, or PASS."), tuple(sk))
    return Prompt(_("Phase 2: hire and activate characters (a script for the whole phase)."),
                  tuple(sk))


def characters_default(state: State, seat: str) -> Sequence[str]:
    return ["PASS"]


def resolve_characters(ctx: Context, lines: Lines) -> None:
    state: State = ctx.state
    if state["phase2"]:
        seat = characters.phase2_current(state)
        if not characters.phase2_step(ctx, seat, lines.get(seat, ())):
            turns.play_on(ctx)
            return
    else:
        characters.run_characters(ctx, {s: lines.get(s, ()) for s in state["seats"]})
    rounds.end_round(ctx)
    turns.play_on(ctx)
