"""Set-up, Phase 3 (refill and catch-up resources), and the end of a round and of the game
(rulebook p. 2-4, 12-14; spec §3, §4.4, §5.9, §8).

Action piles and the extra land pile hold no hidden order: each draw picks from what is
still in the pile at that moment (dice contract). Phase 1 is rules/turns.py, Phase 2
rules/characters.py.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, cast

from pbem.core.dice import Dice
from pbem.core.i18n import _, join
from pbem.core.kit import Ask, Context, Log, OrderError
from pbem.rulesets.helios import board, data
from pbem.rulesets.helios.board import key
from pbem.rulesets.helios.orders import GRAMMAR, Catchup
from pbem.rulesets.helios.rules import economy, scoring, supply
from pbem.rulesets.helios.rules.seats import catchup_seats, order_from
from pbem.rulesets.helios.rules.supply import display
from pbem.rulesets.helios.state import Options, Player, State
from pbem.rulesets.helios.words import term, terms


def new_player() -> Player:
    return {
        "tiles": {}, "sun": list(board.SUN_START), "sun_anchor": board.SUN_ANCHOR,
        "sun_angle": board.theta(board.SUN_START), "laps": 0, "circuit_round": 0,
        "sun_value": data.board()["sun_track_start"], "sun_infinite": False,
        "mana": 1, "vp": 0, "temples": 0, "buildings": [],
        "under": {a: [] for a in data.AREAS}, "pending": [], "catchup": None,
    }


def setup(seats: list[str], options: Mapping[str, str], variant: str, dice: Dice) -> State:
    """Rulebook p. 2-3; spec §3. Start tiles and the seats-3/4 resource come as orders."""
    n = len(seats)
    pc = data.player_count(n)
    comp = data.components()
    per = comp["actions"]["per_colour"]
    state: State = {
        "seats": list(seats), "options": cast(Options, dict(options)), "variant": variant,
        "round": 1, "rounds": pc["rounds"], "turns": pc["turns"], "phase": "setup",
        "start": dice.choice(seats, _("start player (rulebook p. 3; PBEM: random)")),
        "turn_index": 0,
        "piles": {s: sorted(c for c in data.TILE_COLOURS for _i in range(per))
                  for s in data.SYMBOLS},
        "columns": {s: [] for s in data.SYMBOLS},
        "discards": {s: [] for s in data.SYMBOLS},
        "type_piles": {t: comp["lands"]["pile_size"] for t in data.LANDS},
        "extra_pile": [],
        "display": {"redwood": False, "granite": False, "bamboo": False, "spring": False,
                    "obsidian": False, "extra": None},
        "bonus_supply": {b: comp["bonus_tiles"]["count"] for b in data.BONUS_TYPES},
        "characters": {c: {"owner": None, "active": False} for c in data.CHARACTERS},
        "players": {s: new_player() for s in seats},
        "final": None, "removed_lands": 0, "display_cubes": {}, "phase2": None,
        "pause": None,
    }
    for s in data.SYMBOLS:
        fill_column(state, s, dice)
    return state


def finish_setup(ctx: Context, starts: Mapping[str, str],
                 extras: Mapping[str, Catchup | None]) -> dict[str, str]:
    """Start tiles, the piles, the display and the seats-3/4 resource (spec §3 steps 6-8).
    Returns the colour each seat 3/4 got."""
    state: State = ctx.state
    counts = Counter(data.components()["lands"]["count"])
    for seat in order_from(state, state["start"]):
        land = starts[seat]
        counts[land] -= 1
        state["players"][seat]["tiles"][key(board.CENTRE)] = {
            "kind": "land", "type": land, "cubes": [data.LAND_COLOUR[land]], "temple": False}
        ctx.log.public("start_tile", _("{seat} starts with {tile} on the centre.", seat=seat,
                                         tile=term(land)), seat=seat)
    for t in data.LANDS:
        counts[t] -= state["type_piles"][t]
    state["extra_pile"] = sorted(t for t, c in counts.items() for _i in range(c))
    reveal_display(state, ctx.dice, ctx.log)
    given = {}
    for seat in catchup_seats(state):
        c = extras.get(seat)
        colour = c.colour if c else "blue"
        if state["options"]["setup_bonus_must_differ"] == "yes":
            own = state["players"][seat]["tiles"][key(board.CENTRE)]["cubes"][0]
            if colour == own:  # refused on arrival; the NMR default may meet it
                colour = "blue" if own != "blue" else "black"
        if supply.cube_available(state, colour, ctx.log):
            state["players"][seat]["tiles"][key(board.CENTRE)]["cubes"].append(colour)
        ctx.log.public("catchup", _("{seat} adds a {colour} resource to the start tile.",
                                    seat=seat, colour=term(colour)), seat=seat)
        given[seat] = colour
    start_round(state, ctx.log)
    return given


def reveal_display(state: State, dice: Dice, log: Log) -> None:
    """Rulebook p. 2, 12: one tile of each type plus the top of the extra pile."""
    disp = display(state)
    for t in data.LANDS:
        if state["type_piles"][t] > 0:
            state["type_piles"][t] -= 1
            state["display_cubes"][t] = supply.cube_available(state, data.LAND_COLOUR[t], log)
            disp[t] = True
    if state["extra_pile"]:
        t = dice.draw(state["extra_pile"], _("extra land pile, top tile"))
        state["display_cubes"]["extra"] = supply.cube_available(state, data.LAND_COLOUR[t], log)
        disp["extra"] = t
    shown = [term(t) for t in data.LANDS if disp[t]] + \
        ([_("extra {tile}", tile=term(disp["extra"]))] if disp["extra"] else [])
    bare = [s for s in [*data.LANDS, "extra"] if s in state["display_cubes"]
            and not state["display_cubes"][s] and (disp[s])]
    if bare:
        log.public("display", _("Land display: {tiles} (each with 1 resource except {bare}).",
                                tiles=join(shown), bare=terms(bare)))
    else:
        log.public("display", _("Land display: {tiles} (each with 1 resource).",
                                tiles=join(shown)))


def fill_column(state: State, symbol: str, dice: Dice) -> None:
    """Spec §5.9: 6 tiles; an empty pile takes its symbol's discards; short if both run out."""
    size = data.components()["actions"]["column_size"]
    col = state["columns"][symbol]
    while len(col) < size:
        pile = state["piles"][symbol]
        if not pile:
            if not state["discards"][symbol]:
                break
            pile.extend(state["discards"][symbol])
            pile.sort()
            state["discards"][symbol] = []
        col.append(dice.draw(pile, _("{column} column, tile {n}", column=term(symbol),
                                     n=len(col) + 1)))


def start_round(state: State, log: Log) -> None:
    state["phase"] = "actions"
    state["turn_index"] = 0
    log.public("round", _("Round {n} begins; {seat} is start player.", n=state["round"],
                          seat=state["start"]))


# --- the end of a round: Phase 3 or final scoring -------------------------------------------

def end_round(ctx: Context) -> None:
    """After Phase 2: final scoring after the last round, else Phase 3 and the next round."""
    state: State = ctx.state
    if state["round"] >= state["rounds"]:
        final_scoring(ctx)
        return
    phase3(ctx)
    catch_up(ctx)
    state["round"] += 1
    start_round(state, ctx.log)


def phase3(ctx: Context) -> None:
    """Rulebook p. 12-13: the untaken land tiles leave, the display is turned up anew, the
    columns are refilled (per player count), the dragon passes on."""
    state: State = ctx.state
    disp = display(state)
    for t in data.LANDS:
        if disp[t]:
            state["removed_lands"] += 1
            ctx.log.public("display", _("The untaken {tile} leaves the game.", tile=term(t)))
        disp[t] = False
    if disp["extra"]:
        state["removed_lands"] += 1
        ctx.log.public("display", _("The untaken extra {tile} leaves the game.",
                                    tile=term(disp["extra"])))
    disp["extra"] = None
    state["display_cubes"] = {}
    reveal_display(state, ctx.dice, ctx.log)
    if state["round"] in data.player_count(len(state["seats"]))["refill_after"]:
        for s in data.SYMBOLS:
            fill_column(state, s, ctx.dice)
        ctx.log.public("refill", _("The action columns are refilled."))
    state["start"] = order_from(state, state["start"])[1]
    ctx.log.public("dragon", _("The dragon passes to {seat}.", seat=state["start"]))


CATCHUP_QUESTION = _("Phase 3: place your catch-up resource.")
CATCHUP_PUBLIC = _("where to place the catch-up resource")


def catchup_default(state: State, seat: str) -> Catchup:
    """Your rarest colour on your first tile (reading order, fewest cubes) that can take it."""
    p = state["players"][seat]
    return Catchup(economy.rarest_colour(p), economy.first_cube_tile(p))


def is_catchup(line: str) -> bool:
    try:
        return isinstance(GRAMMAR.parse_line({}, None, line), Catchup)
    except OrderError:
        return False


def catch_up(ctx: Context) -> None:
    """Rulebook p. 13: seats 3 and 4 after the new start player each place a resource of
    their choice on one of their tiles. The choice: a standing CATCHUP (used once), else
    asked (`decisions = ask`, all asked seats at once), else the documented default."""
    state: State = ctx.state
    seats = catchup_seats(state)
    if not seats:
        return
    asks = {seat: Ask(CATCHUP_QUESTION,
                      str(catchup_default(state, seat)), exhaustive=False,
                      standing=state["players"][seat]["catchup"], accept=is_catchup,
                      public=CATCHUP_PUBLIC)
            for seat in seats}
    answers = ctx.decide_all("catchup", asks)
    for seat in seats:
        standing = state["players"][seat]["catchup"]
        state["players"][seat]["catchup"] = None
        c = GRAMMAR.parse_line(state, seat, answers[seat])
        assert isinstance(c, Catchup)
        moved = economy.place_cube(ctx, seat, c.colour, c.cell, _("catch-up resource"))
        why: Any = ""
        if answers[seat] == standing:
            why = _("your standing {order} could not be used as written: {what}",
                    order=standing, what=moved) if moved else \
                _("your standing {order} was used", order=standing)
        elif answers[seat] == asks[seat].default and not ctx.ask:
            why = _("no standing CATCHUP order: the default {order} (your rarest colour on your "
                    "first tile that can take it)", order=answers[seat])
            why = join([why, moved], "; ") if moved else why
        elif moved:
            why = join([answers[seat], moved], ": ")
        if why:
            ctx.log.private([seat], "catchup", _("Catch-up resource: {why}.", why=why))


def final_scoring(ctx: Context) -> None:
    state: State = ctx.state
    final = {s: scoring.final_scores(state, s) for s in state["seats"]}
    totals = {s: f["total"] for s, f in final.items()}
    win, ranking = scoring.winners(state, totals)
    state["final"] = {"scores": final, "winners": win, "ranking": ranking}
    state["phase"] = "over"
    for s in state["seats"]:
        f = final[s]
        ctx.log.public("final", _("{seat}: {total} VP (bag {bag}, corners {corners}, bonus "
                                  "tiles {bonus_tiles}, buildings {buildings}, characters "
                                  "{characters}, mana {mana}, resources {resources}; leftover "
                                  "resources for a tie: {resources_left}).", seat=s, **f),
                       seat=s, **f)
    ctx.log.public("winner", scoring.winner_text(state, totals, win))
