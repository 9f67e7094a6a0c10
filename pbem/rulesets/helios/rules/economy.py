"""Resources on tiles and paying costs (rulebook p. 6-7, 11; spec §5.3, §5.5, §5.12).

A cost is a list of requirements: a colour, "any" (the white neutral symbol) or
"black|blue" (either). The 2-for-1 substitution: a coloured requirement whose colour the
player owns none of may be paid with 2 resources of any colours (spec A13 strict reading).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from pbem.core.i18n import Msg, _, join
from pbem.core.kit import Context
from pbem.rulesets.helios import data
from pbem.rulesets.helios.board import Cell, all_cells, key, unkey
from pbem.rulesets.helios.orders import Token
from pbem.rulesets.helios.rules import supply
from pbem.rulesets.helios.state import Player, State, Tile
from pbem.rulesets.helios.words import term, terms


def owned(player: Player) -> Counter[str]:
    c: Counter[str] = Counter()
    for t in player["tiles"].values():
        c.update(t["cubes"])
    return c


def cube_count(player: Player) -> int:
    return sum(len(t["cubes"]) for t in player["tiles"].values())


def allowed(req: str) -> tuple[str, ...]:
    return data.COLOURS if req == "any" else tuple(req.split("|"))


def covers(reqs: list[str], paid: Counter[str], have: Counter[str]) -> bool:
    """Can exactly the multiset `paid` settle `reqs`, given what was owned before paying?"""
    if not reqs:
        return sum(paid.values()) == 0
    req, rest = reqs[0], reqs[1:]
    for colour in allowed(req):
        if paid[colour] > 0:
            paid[colour] -= 1
            ok = covers(rest, paid, have)
            paid[colour] += 1
            if ok:
                return True
    # Rulebook p. 7, 11: a resource you do not have may be replaced by 2 of any colour.
    if req != "any" and sum(have[c] for c in allowed(req)) == 0:
        colours = [c for c in data.COLOURS if paid[c] > 0]
        for i, a in enumerate(colours):
            for b in colours[i:]:
                if a == b and paid[a] < 2:
                    continue
                paid[a] -= 1
                paid[b] -= 1
                ok = covers(rest, paid, have)
                paid[a] += 1
                paid[b] += 1
                if ok:
                    return True
    return False


def _sources(player: Player, prefer: Cell | None) -> list[Cell]:
    cells = [c for c in all_cells() if key(c) in player["tiles"]]
    return ([prefer] if prefer is not None and key(prefer) in player["tiles"] else []) + \
        [c for c in cells if c != prefer]


def auto_tokens(player: Player, reqs: list[str], prefer: Cell | None = None) -> list[Token] | None:
    """A payment for `reqs` chosen by the engine (documented default), or None."""
    have = owned(player)
    left = Counter(have)
    chosen: list[str] = []
    pref_cubes = Counter(player["tiles"][key(prefer)]["cubes"]) if prefer is not None and \
        key(prefer) in player["tiles"] else Counter()

    def pick_any(n: int) -> bool:
        for _i in range(n):
            options = [c for c in data.COLOURS if left[c] > 0]
            if not options:
                return False
            # cubes on the preferred tile first (they would be lost), then the most plentiful
            best = max(options, key=lambda c: (min(pref_cubes[c], left[c]), left[c],
                                               -data.COLOURS.index(c)))
            left[best] -= 1
            if pref_cubes[best] > 0:
                pref_cubes[best] -= 1
            chosen.append(best)
        return True

    anys = 0
    # single colours first, then either/or symbols, so the greedy choice cannot block
    for req in sorted(reqs, key=lambda r: len(allowed(r))):
        if req == "any":
            anys += 1
            continue
        options = [c for c in allowed(req) if left[c] > 0]
        if options:
            best = max(options, key=lambda c: (left[c], -data.COLOURS.index(c)))
            left[best] -= 1
            chosen.append(best)
        elif sum(have[c] for c in allowed(req)) == 0:
            anys += 2
        else:
            return None
    if not pick_any(anys):
        return None
    if not covers(list(reqs), Counter(chosen), have):
        return None
    return [Token(c) for c in chosen]


def locate(player: Player, tokens: list[Token] | tuple[Token, ...],
           prefer: Cell | None = None) -> tuple[list[tuple[str, Cell]], Msg | None]:
    """Assign each paid resource to a tile: explicit ones checked, the others taken from
    `prefer` first, then the tile with most of that colour (reading order on ties)."""
    left = {key(c): Counter(player["tiles"][key(c)]["cubes"]) for c in _sources(player, prefer)}
    out: list[tuple[str, Cell]] = []
    for t in tokens:
        if t.cell is not None:
            k = key(t.cell)
            if k not in left:
                return [], _("you have no tile on {cell}", cell=k)
            if left[k][t.colour] <= 0:
                return [], _("there is no {colour} resource left on {cell} to pay with",
                             colour=term(t.colour), cell=k)
            left[k][t.colour] -= 1
            out.append((t.colour, t.cell))
    for t in tokens:
        if t.cell is None:
            cands = [k for k in left if left[k][t.colour] > 0]
            if not cands:
                return [], _("you have no {colour} resource to pay with", colour=term(t.colour))
            if prefer is not None and key(prefer) in cands:
                k = key(prefer)
            else:
                k = max(cands, key=lambda k: left[k][t.colour])  # stable: reading order
            left[k][t.colour] -= 1
            out.append((t.colour, unkey(k)))
    return out, None


def payment(player: Player, reqs: list[str], tokens: tuple[Token, ...] | None,
            what: Any, prefer: Cell | None = None) -> tuple[list[tuple[str, Cell]], Msg | None]:
    """Validate (or choose, when `tokens` is None) a payment: cubes with their tiles."""
    if tokens is None:
        auto = auto_tokens(player, reqs, prefer)
        if auto is None:
            return [], _("you cannot pay for {what} ({cost})", what=what,
                         cost=terms(reqs, " + ") or _("nothing"))
        tokens = tuple(auto)
    located, problem = locate(player, tokens, prefer)
    if problem:
        return [], problem
    if not covers(list(reqs), Counter(c for c, _ in located), owned(player)):
        return [], _("{paid} does not pay for {what} ({cost}; a missing colour may be paid "
                     "with 2 others, but only if you own none of it)",
                     paid=" ".join(map(str, tokens)), what=what, cost=terms(reqs, " + "))
    return located, None


def spend(player: Player, located: list[tuple[str, Cell]]) -> None:
    for colour, cell in located:
        player["tiles"][key(cell)]["cubes"].remove(colour)


def can_take_cube(tile: Tile) -> bool:
    """Spec §5.12: at most 2 cubes, never on a temple."""
    return not tile["temple"] and len(tile["cubes"]) < 2


def first_cube_tile(player: Player) -> Cell | None:
    """Default tile for a chosen resource: the first in reading order with the fewest cubes."""
    cands = [c for c in all_cells() if key(c) in player["tiles"]
             and can_take_cube(player["tiles"][key(c)])]
    if not cands:
        return None
    return min(cands, key=lambda c: len(player["tiles"][key(c)]["cubes"]))


def rarest_colour(player: Player) -> str:
    have = owned(player)
    order = ["blue", "black", "green", "grey", "brown"]
    return min(order, key=lambda c: (have[c], order.index(c)))


def place_cube(ctx: Context, seat: str, colour: str, cell: Cell | None, why: Any) -> Msg | None:
    """A chosen resource onto one of your tiles (no temple, max 2; rulebook p. 13: "A
    játékosnak soha nem lehet kettőnél több nyersanyaga egy föld- vagy bónuszlapkán sem").
    If the tile asked for cannot take it, it goes on the first tile that can; if none can,
    it is lost (spec §5.13). Returns what differs from the asking (None: as asked)."""
    state: State = ctx.state
    p = state["players"][seat]
    problem = cube_problem(p, cell) if cell is not None else None
    if problem is not None:
        cell = None
    if cell is None:
        cell = first_cube_tile(p)
    if cell is None:
        ctx.log.public("cube_lost", _("{seat}'s {colour} resource ({why}) is lost: no tile "
                                      "can take it.", seat=seat, colour=term(colour), why=why))
        lost = _("no tile can take it: it is lost")
        return join([problem, lost], "; ") if problem else lost
    if not supply.cube_available(state, colour, ctx.log):
        return _("no {colour} resource is left in the supply", colour=term(colour))
    p["tiles"][key(cell)]["cubes"].append(colour)
    ctx.log.public("cube", _("{seat} puts a {colour} resource on {cell} ({why}).", seat=seat,
                             colour=term(colour), cell=key(cell), why=why), seat=seat)
    return _("{problem}; it went on {cell} instead", problem=problem, cell=key(cell)) \
        if problem else None


def cube_problem(player: Player, cell: Cell) -> Msg | None:
    """Why a resource cannot go on the tile at `cell` now (None when it can)."""
    t = player["tiles"].get(key(cell))
    if t is None:
        return _("you have no tile on {cell}", cell=key(cell))
    if t["temple"]:
        return _("{cell} holds a temple", cell=key(cell))
    if len(t["cubes"]) >= 2:
        return _("{cell} already holds 2 resources", cell=key(cell))
    return None


def cube_tiles(player: Player) -> list[str]:
    """The tiles that can take one more resource, in reading order."""
    return [key(c) for c in all_cells() if key(c) in player["tiles"]
            and can_take_cube(player["tiles"][key(c)])]
