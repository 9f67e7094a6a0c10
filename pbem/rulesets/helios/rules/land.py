"""PREPARE_LAND: a land tile from the display or a bonus tile onto a player board, and the
special spaces a placed tile fires (rulebook p. 5, 13; spec §5.2, §5.8).

`check_place` says why a placement is illegal now (None when legal) without changing
anything; `do_place` carries out a legal one.
"""

from __future__ import annotations

from pbem.core.i18n import Msg, _
from pbem.core.kit import Context
from pbem.rulesets.helios import board, data
from pbem.rulesets.helios.board import Cell, key
from pbem.rulesets.helios.orders import Place
from pbem.rulesets.helios.rules import supply
from pbem.rulesets.helios.rules.supply import display
from pbem.rulesets.helios.state import State
from pbem.rulesets.helios.words import term


def display_slot(state: State, item: str) -> str | None:
    """Which display slot offers `item`: a land type's own slot first, then the extra slot;
    a bonus tile type while one is left."""
    if item in data.BONUS_TYPES:
        return item if state["bonus_supply"][item] > 0 else None
    disp = display(state)
    if disp.get(item):
        return item
    if disp.get("extra") == item:
        return "extra"
    return None


def offered_items(state: State) -> list[str]:
    disp = display(state)
    lands = [t for t in data.LANDS if disp[t] or disp["extra"] == t]
    return lands + [b for b in data.BONUS_TYPES if state["bonus_supply"][b] > 0]


def check_place(state: State, seat: str, o: Place) -> Msg | None:
    if display_slot(state, o.item) is None:
        return _("no {tile} tile is on offer", tile=term(o.item))
    p = state["players"][seat]
    return board.placement_problem(o.cell, board.tileset(p), board.sun_cell(p))


def put_tile(ctx: Context, seat: str, cell: Cell, kind: str, typ: str, cubes: list[str],
             bonus: str | None) -> None:
    """Place a tile and fire its special space (rulebook p. 13; spec §5.8)."""
    state: State = ctx.state
    p = state["players"][seat]
    p["tiles"][key(cell)] = {"kind": "land" if kind == "land" else "bonus", "type": typ,
                             "cubes": list(cubes), "temple": False}
    ctx.log.public("place", _("{seat} places {tile} on {cell}.", seat=seat, tile=term(typ),
                              cell=key(cell)), seat=seat, cell=key(cell), tile=typ)
    if cell in board.BONUS_SPACES:
        # Rulebook p. 13: a resource of the player's choice on the new tile.
        colour = bonus or (data.LAND_COLOUR[typ] if kind == "land" else "blue")
        if supply.cube_available(state, colour, ctx.log):
            p["tiles"][key(cell)]["cubes"].append(colour)
            ctx.log.public("bonus_resource", _("{seat} puts a bonus {colour} resource on {cell} "
                                               "(bonus-resource space).", seat=seat,
                                               colour=term(colour), cell=key(cell)), seat=seat)
    if cell in board.MANA_SPACES:
        supply.gain_mana(ctx, seat, 2, _("mana space"))


def do_place(ctx: Context, seat: str, o: Place) -> None:
    state: State = ctx.state
    slot = display_slot(state, o.item)
    if o.item in data.BONUS_TYPES:
        state["bonus_supply"][o.item] -= 1
        put_tile(ctx, seat, o.cell, "bonus", o.item, [], o.bonus)
        return
    assert slot is not None
    cubes = [data.LAND_COLOUR[o.item]] if state["display_cubes"].get(slot) else []
    display(state)[slot] = None if slot == "extra" else False
    state["display_cubes"][slot] = False
    # Rulebook p. 5: the tile comes with its resource; nothing is turned up now.
    put_tile(ctx, seat, o.cell, "land", o.item, cubes, o.bonus)
