"""The effects named in the data files, one small rulebook-cited function each:

- `BUILT`: a city building's ability (buildings.toml `ability`), applied as it is built;
  a permanent ability is applied where its rule is (the handler says where);
- `CHARACTER_VP`: an active character's final VP (characters.toml `scoring`);
- `BONUS_TILE_VP`: a bonus tile's final VP (components.toml bonus tile types).

Not here: paying for a building (rules/buildings.py), the bonus action a Palace grants
(rules/turns.py runs it).
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.core.i18n import Msg, _
from pbem.core.kit import Context, Effects, OrderError
from pbem.rulesets.helios import board, data
from pbem.rulesets.helios.board import Cell, key
from pbem.rulesets.helios.orders import (
    GRAMMAR,
    Build,
    Estate,
    PlanEntry,
    plan_target,
)
from pbem.rulesets.helios.rules import supply
from pbem.rulesets.helios.rules.land import put_tile
from pbem.rulesets.helios.state import Player, State
from pbem.rulesets.helios.words import term, terms

# Handlers: (ctx, seat, the BUILD order, the rest of the turn: its unused BONUS lines) ->
# True when the building grants a bonus action now.
BUILT = Effects("building ability")


@BUILT.register("none")
def plain(ctx: Context, seat: str, o: Build, rest: Sequence[str]) -> bool:
    """Rulebook p. 16: Observatory, Shrine, Sun Hut, Sacred Grove: their Sun and mana only."""
    return False


@BUILT.register("temple_bonus", "cheap_temples", "double_circuit", "warehouse")
def permanent(ctx: Context, seat: str, o: Build, rest: Sequence[str]) -> bool:
    """Rulebook p. 16, permanent: Town Hall +3 VP per sunlit temple and Warehouse second
    resources (rules/sun.py sunlight), Citadel temples cost 1 (rules/temples.py), Clock
    Tower 10 VP per circuit (rules/sun.py circuit)."""
    return False


@BUILT.register("infinite_sun")
def power_plant(ctx: Context, seat: str, o: Build, rest: Sequence[str]) -> bool:
    """Rulebook p. 16 (Erőmű): the Sun may move any distance, and circuits score no more."""
    ctx.state["players"][seat]["sun_infinite"] = True
    ctx.log.public("sun_track", _("{seat}'s Sun may now move any distance; no more circuit VP "
                                  "(Power Plant).", seat=seat), seat=seat)
    return False


@BUILT.register("bazaar")
def bazaar(ctx: Context, seat: str, o: Build, rest: Sequence[str]) -> bool:
    """Rulebook p. 16 (Bazár): once, up to 3 mana become 4 VP each (default 3)."""
    p = ctx.state["players"][seat]
    n = min(o.convert if o.convert is not None else 3, p["mana"], 3)
    if n:
        p["mana"] -= n
        supply.gain_vp(ctx, seat, 4 * n, _("Bazaar converts {n} mana", n=n))
    return False


@BUILT.register("bonus_action")
def palace(ctx: Context, seat: str, o: Build, rest: Sequence[str]) -> bool:
    """Rulebook p. 7, 16 (Palota): a bonus action at once, as part of the build."""
    return True


@BUILT.register("estate")
def estate_manager(ctx: Context, seat: str, o: Build, rest: Sequence[str]) -> bool:
    """Rulebook p. 16 (Birtokintéző): draw the bottom two tiles of the extra pile and place
    them, each with 1 matching resource. Placement rules and special spaces apply
    (SPEC-AMBIGUITY A22); an unplaceable tile leaves the game. Where they go is the seat's
    decision: the BUILD line's TO plan, else (`decisions = ask`) it is asked, else the
    first legal cells in reading order."""
    state: State = ctx.state
    drawn = []
    for i in range(2):
        if not state["extra_pile"]:
            ctx.log.public("estate", _("The extra pile is empty; no tile for the Estate Manager."))
            break
        drawn.append(ctx.dice.draw(state["extra_pile"],
                                   _("Estate Manager, {seat}, tile {n} from the extra pile",
                                     seat=seat, n=i + 1)))
    if not drawn:
        return False
    ctx.log.public("estate", _("{seat}'s Estate Manager draws {tiles}.", seat=seat,
                               tiles=both(drawn)), seat=seat)
    p = state["players"][seat]
    cells = board.legal_placements(board.tileset(p), board.sun_cell(p))
    answer = ctx.decide(
        seat, "estate",
        question=estate_question(drawn),
        default="ESTATE", options=("ESTATE TO " + " ".join(key(c) for c in cells[:2]),)
        if cells else ("ESTATE",), exhaustive=False,
        standing=str(Estate(o.cells, o.bonus)) if o.cells else None,
        accept=is_estate, public=_("where the Estate Manager's {tiles} go", tiles=both(drawn)),
        data={"tiles": drawn, "rest_of_turn": list(rest)})
    plan = GRAMMAR.parse_line(state, seat, answer)
    assert isinstance(plan, Estate)
    place_estate_tiles(ctx, seat, drawn, plan.cells, plan.bonus or o.bonus)
    return False


def both(drawn: Sequence[str]) -> Msg:
    """The Estate Manager's one or two tiles, as words."""
    if len(drawn) == 2:
        return _("{first} and {second}", first=term(drawn[0]), second=term(drawn[1]))
    return terms(drawn)


def estate_question(drawn: Sequence[str]) -> Msg:
    return _("Your Estate Manager drew {tiles}: where do they go? ESTATE [TO <cells>] "
             "[BONUS <colour>]", tiles=both(drawn))


def is_estate(line: str) -> bool:
    try:
        return isinstance(GRAMMAR.parse_line({}, None, line), Estate)
    except OrderError:
        return False


def place_estate_tiles(ctx: Context, seat: str, drawn: Sequence[str],
                       plan: Sequence[PlanEntry], bonus: str | None) -> None:
    """Each tile on the first legal cell of the plan that applies to its type, else on the
    first legal cell in reading order (documented default)."""
    state: State = ctx.state
    p = state["players"][seat]
    for typ in drawn:
        tiles, sun = board.tileset(p), board.sun_cell(p)
        wanted = [cell for kind, cell in map(plan_target, plan) if kind in (None, typ)]
        spot = next((c for c in wanted if board.placement_problem(c, tiles, sun) is None), None)
        if spot is None:
            legal = board.legal_placements(tiles, sun)
            spot = legal[0] if legal else None
            if spot is not None:  # the documented default: say so
                why = _("none of your cells for it ({cells}) is legal now",
                        cells=", ".join(map(key, wanted))) if wanted else \
                    _("you named no cell for it")
                ctx.log.private([seat], "estate", _("{seat}'s Estate Manager {tile}: {why}; it "
                                                    "goes on {cell}, the first legal cell.",
                                                    seat=seat, tile=term(typ), why=why,
                                                    cell=key(spot)))
        if spot is None:
            state["removed_lands"] += 1
            ctx.log.public("estate", _("The Estate Manager's {tile} cannot be placed and leaves "
                                       "the game.", tile=term(typ)))
            continue
        colour = data.LAND_COLOUR[typ]
        cubes = [colour] if supply.cube_available(state, colour, ctx.log) else []
        put_tile(ctx, seat, spot, "land", typ, cubes, bonus)


# --- final scoring -------------------------------------------------------------------------

# Handlers: (state, seat) -> VP of that active character (rulebook p. 15; spec §2.6).
CHARACTER_VP = Effects("character scoring")


@CHARACTER_VP.register("houses")
def architect(state: State, seat: str) -> int:
    """Építész: 3 VP per house (temples and buildings)."""
    p = state["players"][seat]
    return 3 * (p["temples"] + len(p["buildings"]))


@CHARACTER_VP.register("bonus_tiles")
def inventor(state: State, seat: str) -> int:
    """Feltaláló: 5 VP per bonus tile."""
    return 5 * sum(1 for t in state["players"][seat]["tiles"].values() if t["kind"] == "bonus")


@CHARACTER_VP.register("flat12")
def priestess(state: State, seat: str) -> int:
    """Papnő: 12 VP."""
    return 12


@CHARACTER_VP.register("tiles")
def fortune_teller(state: State, seat: str) -> int:
    """Jósnő: 2 VP per land and bonus tile."""
    return 2 * len(state["players"][seat]["tiles"])


@CHARACTER_VP.register("land_types")
def cartographer(state: State, seat: str) -> int:
    """Térképész: 3 VP per land type on the board."""
    return 3 * len({t["type"] for t in state["players"][seat]["tiles"].values()
                    if t["kind"] == "land"})


@CHARACTER_VP.register("sun_track")
def princess(state: State, seat: str) -> int:
    """Hercegnő: 2 VP per space of the Sun track (SPEC-AMBIGUITY A6: the numeric value,
    also with the Power Plant's infinite Sun)."""
    return 2 * state["players"][seat]["sun_value"]


@CHARACTER_VP.register("corners8", "treasurer")
def changes_other_lines(state: State, seat: str) -> int:
    """Felfedező (corners score 8 instead of 4) and Kincstárnok (mana 3 VP each, resources
    2 VP each) change other lines of the final scoring (rules/scoring.py)."""
    return 0


# Handlers: (player, the tile's cell) -> VP of that bonus tile (rulebook p. 15; spec §2.5).
# Its scoring area is the tile and its 6 neighbours.
BONUS_TILE_VP = Effects("bonus tile scoring")


@BONUS_TILE_VP.register("empty_spaces")
def empty_spaces(player: Player, cell: Cell) -> int:
    """Üres mezők: 1 VP per empty neighbouring space (SPEC-AMBIGUITY A16: any on-board cell
    without a tile, dark cells and the Sun's cell included)."""
    return sum(1 for n in board.neighbours(cell)
               if board.on_board(n) and key(n) not in player["tiles"])


@BONUS_TILE_VP.register("prepared_land")
def prepared_land(player: Player, cell: Cell) -> int:
    """Előkészített terület: 2 VP per tile in the area, itself included."""
    return 2 * (1 + sum(1 for n in board.neighbours(cell) if key(n) in player["tiles"]))


@BONUS_TILE_VP.register("resources")
def resources(player: Player, cell: Cell) -> int:
    """Nyersanyagok: 2 VP per resource in the area."""
    tiles = player["tiles"]
    return 2 * sum(len(tiles[key(c)]["cubes"]) for c in (cell, *board.neighbours(cell))
                   if key(c) in tiles)


@BONUS_TILE_VP.register("temples")
def temples(player: Player, cell: Cell) -> int:
    """Templomok: 4 VP per temple in the area."""
    tiles = player["tiles"]
    return 4 * sum(1 for c in (cell, *board.neighbours(cell))
                   if key(c) in tiles and tiles[key(c)]["temple"])
