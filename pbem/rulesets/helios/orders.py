"""Helios orders: frozen value objects whose str() is the canonical line, and the parser.

One command per line, verb first, English and Hungarian aliases, names accent- and
case-insensitive (NameIndex). Cells are axial coordinates written `q,r` (e.g. `1,-1`).
This module only reads text; whether an order is legal now is decided in actions.py.
See docs/rulesets/helios.md for the language with examples.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pbem.core.names import NameIndex, UnknownName, fold
from pbem.rulesets.helios import data

Cell = tuple[int, int]


def _index(table: dict, what: str) -> NameIndex:
    return NameIndex({k: [*v] for k, v in table.items()}, what=what)


_C = data.components()
COLOUR_NAMES = _index({c: _C["colours"]["names"][c] for c in data.COLOURS}, "resource colour")
LAND_NAMES = _index({k: _C["lands"]["names"][k] for k in data.LANDS}, "land type")
BONUS_NAMES = _index({k: _C["bonus_tiles"]["names"][k] for k in data.BONUS_TYPES}, "bonus tile")
COLUMN_NAMES = _index({k: _C["actions"]["names"][k] for k in data.SYMBOLS}, "action column")
AREA_NAMES = _index({k: _C["areas"]["names"][k] for k in data.AREAS}, "colour area")
TILE_COLOUR_NAMES = NameIndex({"red": ["piros"], "yellow": ["sarga"], "blue": ["kek"],
                               "grey": ["gray", "szurke"]}, what="action tile colour")
BUILDING_NAMES = _index({k: v["names"] for k, v in data.buildings().items()}, "building")
CHARACTER_NAMES = _index({k: v["names"] for k, v in data.characters().items()}, "character")


def cell_str(c: Cell) -> str:
    return f"{c[0]},{c[1]}"


@dataclass(frozen=True)
class Token:
    """One resource paid: its colour and, optionally, the tile it comes from."""

    colour: str
    cell: Cell | None = None

    def __str__(self) -> str:
        return self.colour if self.cell is None else f"{self.colour}@{cell_str(self.cell)}"


def plan_str(entry: Cell | tuple[str, Cell]) -> str:
    if isinstance(entry[0], str):
        return f"{entry[0]}@{cell_str(entry[1])}"  # type: ignore[arg-type]
    return cell_str(entry)  # type: ignore[arg-type]


def _plan(toks: list[str]) -> tuple[tuple[Cell | tuple[str, Cell], ...], list[str]]:
    out: list[Cell | tuple[str, Cell]] = []
    i = 0
    while i < len(toks):
        tok = toks[i]
        if "@" in tok:
            name, where = tok.split("@", 1)
            out.append((_lookup(LAND_NAMES, name), parse_cell(where)))
        elif _CELL_RE.match(tok):
            out.append(parse_cell(tok))
        else:
            break
        i += 1
    if not out:
        raise OrderError("TO needs cells, e.g. TO 0,1 spring@1,1")
    return tuple(out), toks[i:]


def _pay_str(pay: tuple[Token, ...] | None) -> str:
    return "" if pay is None else " PAY " + " ".join(map(str, pay))


@dataclass(frozen=True)
class Take:
    column: str
    under: str | None = None
    only_if: tuple[str, ...] = ()

    def __str__(self) -> str:
        s = f"TAKE {self.column}"
        if self.only_if:
            s += " IF " + ",".join(self.only_if)
        if self.under:
            s += f" UNDER {self.under}"
        return s


@dataclass(frozen=True)
class Place:
    item: str  # a land type or a bonus tile type
    cell: Cell
    bonus: str | None = None

    def __str__(self) -> str:
        s = f"PLACE {self.item} AT {cell_str(self.cell)}"
        return s + (f" BONUS {self.bonus}" if self.bonus else "")


@dataclass(frozen=True)
class Temple:
    cell: Cell
    pay: tuple[Token, ...] | None = None

    def __str__(self) -> str:
        return f"TEMPLE AT {cell_str(self.cell)}" + _pay_str(self.pay)


@dataclass(frozen=True)
class Build:
    building: str
    pay: tuple[Token, ...] | None = None
    convert: int | None = None          # Bazaar: mana to convert (0-3)
    # Estate Manager: preferred cells in order; ("spring", cell) only for that land type
    cells: tuple[Cell | tuple[str, Cell], ...] = ()
    bonus: str | None = None            # Estate Manager: colour on a bonus-resource space

    def __str__(self) -> str:
        s = f"BUILD {self.building}" + _pay_str(self.pay)
        if self.convert is not None:
            s += f" CONVERT {self.convert}"
        if self.cells:
            s += " TO " + " ".join(plan_str(c) for c in self.cells)
        if self.bonus:
            s += f" BONUS {self.bonus}"
        return s


@dataclass(frozen=True)
class Sun:
    cells: tuple[Cell, ...]
    path: bool = False       # True: every step given; False: destination only
    nostore: bool = False    # Warehouse: do not add second cubes
    nostore_at: tuple[Cell, ...] = ()  # Warehouse: no second cube on these tiles only

    def __str__(self) -> str:
        s = ("SUN PATH " if self.path else "SUN TO ") + " ".join(cell_str(c) for c in self.cells)
        if self.nostore:
            return s + " NOSTORE"
        if self.nostore_at:
            return s + " NOSTORE " + " ".join(cell_str(c) for c in self.nostore_at)
        return s


@dataclass(frozen=True)
class Decline:
    def __str__(self) -> str:
        return "DECLINE"


@dataclass(frozen=True)
class Bonus:
    action: Place | Temple | Build | Sun | Decline

    def __str__(self) -> str:
        return f"BONUS {self.action}"


@dataclass(frozen=True)
class Or:
    def __str__(self) -> str:
        return "OR"


@dataclass(frozen=True)
class Next:
    def __str__(self) -> str:
        return "NEXT"


@dataclass(frozen=True)
class Start:
    land: str

    def __str__(self) -> str:
        return f"START {self.land}"


@dataclass(frozen=True)
class Catchup:
    colour: str
    cell: Cell | None = None

    def __str__(self) -> str:
        return f"CATCHUP {self.colour}" + (f" AT {cell_str(self.cell)}" if self.cell else "")


@dataclass(frozen=True)
class Hire:
    names: tuple[str, ...]

    def __str__(self) -> str:
        return "HIRE " + " OR ".join(self.names)


@dataclass(frozen=True)
class Activate:
    name: str
    pay: tuple[Token, ...] | None = None
    colour: str | None = None  # Architect / Cartographer bonus resource
    cell: Cell | None = None

    def __str__(self) -> str:
        s = f"ACTIVATE {self.name}" + _pay_str(self.pay)
        if self.colour:
            s += f" BONUS {self.colour}"
            if self.cell:
                s += f" AT {cell_str(self.cell)}"
        return s


@dataclass(frozen=True)
class Estate:
    """Where the Estate Manager's drawn tiles go (asked with decisions = ask)."""

    cells: tuple[Cell | tuple[str, Cell], ...] = ()
    bonus: str | None = None

    def __str__(self) -> str:
        s = "ESTATE"
        if self.cells:
            s += " TO " + " ".join(plan_str(c) for c in self.cells)
        return s + (f" BONUS {self.bonus}" if self.bonus else "")


@dataclass(frozen=True)
class Pass:
    def __str__(self) -> str:
        return "PASS"


Action = Place | Temple | Build | Sun | Decline

VERBS = NameIndex({
    "take": ["vesz", "elvesz", "valaszt"],
    "place": ["letesz", "lerak", "prepare"],
    "temple": ["templom"],
    "build": ["epit", "epites"],
    "sun": ["nap", "move"],
    "decline": ["kihagy", "skip", "none"],
    "bonus": ["bonusz", "bonuszakcio"],
    "or": ["vagy", "else"],
    "next": ["kovetkezo"],
    "start": ["kezdo", "kezd"],
    "catchup": ["potlas", "catch up", "extra"],
    "hire": ["fogad", "felfogad"],
    "activate": ["aktival", "aktivál"],
    "pass": ["passz"],
    "estate": ["birtok", "birtokintezo"],
}, what="command")

_WORDS = {
    "at": {"at", "ide", "mezo"}, "pay": {"pay", "fizet"}, "under": {"under", "ala"},
    "if": {"if", "ha"}, "to": {"to", "ide", "cel"}, "path": {"path", "ut", "utvonal"},
    "convert": {"convert", "valt"}, "bonus": {"bonus", "bonusz"}, "nostore": {"nostore"},
    "or": {"or", "vagy"},
}


class OrderError(ValueError):
    pass


_CELL_RE = re.compile(r"^\(?\s*(-?\d+)\s*,\s*(-?\d+)\s*\)?$")


def parse_cell(text: str) -> Cell:
    m = _CELL_RE.match(text)
    if not m:
        raise OrderError(f'"{text}" is not a cell; write cells as q,r, e.g. 1,-1')
    return (int(m.group(1)), int(m.group(2)))


def _lookup(index: NameIndex, text: str) -> str:
    try:
        return index.lookup(text)
    except UnknownName as e:
        raise OrderError(str(e)) from None


def _tokens(line: str) -> list[str]:
    # glue "1, -1" and "( 1,-1 )" into one token
    line = re.sub(r"\s*,\s*", ",", line.strip())
    line = re.sub(r"\(\s*", "(", line)
    line = re.sub(r"\s*\)", ")", line)
    return line.split()


def _is(word: str, which: str) -> bool:
    return fold(word) in _WORDS[which]


def _name_and_rest(toks: list[str], index: NameIndex, stops: set[str]) -> tuple[str, list[str]]:
    """A (possibly multi-word) name up to the first keyword among `stops`."""
    words: list[str] = []
    i = 0
    while i < len(toks) and not any(_is(toks[i], s) for s in stops):
        words.append(toks[i])
        i += 1
    if not words:
        raise OrderError(f"a {index.what} is missing")
    return _lookup(index, " ".join(words)), toks[i:]


def _pay(toks: list[str]) -> tuple[tuple[Token, ...], list[str]]:
    out: list[Token] = []
    i = 0
    while i < len(toks) and "@" in toks[i] or (i < len(toks) and fold(toks[i]) in COLOUR_NAMES
                                               and not any(_is(toks[i], w) for w in _WORDS)):
        tok = toks[i]
        if "@" in tok:
            colour, where = tok.split("@", 1)
            out.append(Token(_lookup(COLOUR_NAMES, colour), parse_cell(where)))
        else:
            out.append(Token(_lookup(COLOUR_NAMES, tok)))
        i += 1
    if not out:
        raise OrderError("PAY needs resources, e.g. PAY green@1,0 grey")
    return tuple(out), toks[i:]


def _cells(toks: list[str]) -> tuple[tuple[Cell, ...], list[str]]:
    out = []
    i = 0
    while i < len(toks) and _CELL_RE.match(toks[i]):
        out.append(parse_cell(toks[i]))
        i += 1
    if not out:
        if toks:
            raise OrderError(f'"{toks[0]}" is not a cell; write cells as q,r, e.g. 1,-1')
        raise OrderError("a cell is missing; write cells as q,r, e.g. 1,-1")
    return tuple(out), toks[i:]


def _expect_end(toks: list[str], what: str) -> None:
    if toks:
        raise OrderError(f'unexpected "{" ".join(toks)}" after {what}')


def parse_action(verb: str, toks: list[str]) -> Action:
    if verb == "decline":
        _expect_end(toks, "DECLINE")
        return Decline()
    if verb == "place":
        if not toks:
            raise OrderError("PLACE needs a tile and a cell, e.g. PLACE spring AT 0,1")
        text_words: list[str] = []
        i = 0
        while i < len(toks) and not _is(toks[i], "at"):
            text_words.append(toks[i])
            i += 1
        name = " ".join(text_words)
        item = LAND_NAMES.get(name) or BONUS_NAMES.get(name)
        if item is None:
            hint = LAND_NAMES.suggest(name) or BONUS_NAMES.suggest(name)
            raise OrderError(f'unknown tile "{name}"{hint}; a land type (redwood, granite, '
                             "bamboo, spring, obsidian) or a bonus tile (empty_spaces, "
                             "prepared_land, resources, temples)")
        rest = toks[i:]
        if not rest:
            raise OrderError("PLACE needs AT and a cell, e.g. PLACE spring AT 0,1")
        cells, rest = _cells(rest[1:])
        if len(cells) != 1:
            raise OrderError("PLACE takes one cell")
        bonus = None
        if rest and _is(rest[0], "bonus"):
            if len(rest) < 2:
                raise OrderError("BONUS needs a resource colour, e.g. BONUS blue")
            bonus = _lookup(COLOUR_NAMES, rest[1])
            rest = rest[2:]
        _expect_end(rest, "PLACE")
        return Place(item, cells[0], bonus)
    if verb == "temple":
        if not toks or not _is(toks[0], "at"):
            raise OrderError("TEMPLE needs AT and a cell, e.g. TEMPLE AT 1,0")
        cells, rest = _cells(toks[1:])
        pay = None
        if rest and _is(rest[0], "pay"):
            pay, rest = _pay(rest[1:])
        _expect_end(rest, "TEMPLE")
        return Temple(cells[0], pay)
    if verb == "build":
        name, rest = _name_and_rest(toks, BUILDING_NAMES, {"pay", "convert", "to", "bonus"})
        pay = convert = bonus = None
        cells: tuple[Cell | tuple[str, Cell], ...] = ()
        while rest:
            if _is(rest[0], "pay") and pay is None:
                pay, rest = _pay(rest[1:])
            elif _is(rest[0], "convert") and convert is None:
                if len(rest) < 2 or not rest[1].isdigit():
                    raise OrderError("CONVERT needs a number of mana, 0 to 3")
                convert = int(rest[1])
                rest = rest[2:]
            elif _is(rest[0], "to") and not cells:
                cells, rest = _plan(rest[1:])
            elif _is(rest[0], "bonus") and bonus is None:
                if len(rest) < 2:
                    raise OrderError("BONUS needs a resource colour")
                bonus = _lookup(COLOUR_NAMES, rest[1])
                rest = rest[2:]
            else:
                raise OrderError(f'unexpected "{rest[0]}" in BUILD; expected PAY, CONVERT, TO or BONUS')
        if convert is not None and name != "bazaar":
            raise OrderError("CONVERT belongs to the Bazaar only")
        if convert is not None and convert > 3:
            raise OrderError(f"the Bazaar converts at most 3 mana, not {convert}")
        if (cells or bonus) and name != "estate_manager":
            raise OrderError("TO and BONUS belong to the Estate Manager only")
        return Build(name, pay, convert, cells, bonus)
    if verb == "sun":
        if not toks or not (_is(toks[0], "to") or _is(toks[0], "path")):
            raise OrderError("SUN needs TO <cell> or PATH <cell> <cell> ..., e.g. SUN TO 2,-1")
        is_path = _is(toks[0], "path")
        cells, rest = _cells(toks[1:])
        nostore, nostore_at = False, ()
        if rest and _is(rest[0], "nostore"):
            # Rulebook p. 16 "tehetsz": the Warehouse's second cube is optional per tile.
            rest = rest[1:]
            if rest:
                nostore_at, rest = _cells(rest)
            nostore = not nostore_at
        _expect_end(rest, "SUN")
        if not is_path and len(cells) != 1:
            raise OrderError("SUN TO takes one cell; use SUN PATH for a whole path")
        return Sun(cells, is_path, nostore, tuple(nostore_at))
    raise OrderError(f"{verb.upper()} is not an action")


def parse_line(line: str) -> object:
    """One order line to its value object (raises OrderError with a helpful message)."""
    toks = _tokens(line)
    if not toks:
        raise OrderError("empty line")
    verb = VERBS.get(toks[0])
    rest = toks[1:]
    if verb is None:
        raise OrderError(f'unknown command "{toks[0]}"{VERBS.suggest(toks[0])}; commands are '
                         "TAKE, PLACE, TEMPLE, BUILD, SUN, DECLINE, BONUS, OR, NEXT, START, "
                         "CATCHUP, HIRE, ACTIVATE, PASS, ESTATE")
    if verb in ("place", "temple", "build", "sun", "decline"):
        return parse_action(verb, rest)
    if verb == "bonus":
        if not rest:
            raise OrderError("BONUS needs an action, e.g. BONUS SUN TO 2,-1 or BONUS DECLINE")
        inner = VERBS.get(rest[0])
        if inner not in ("place", "temple", "build", "sun", "decline"):
            raise OrderError("BONUS takes PLACE, TEMPLE, BUILD, SUN or DECLINE")
        return Bonus(parse_action(inner, rest[1:]))
    if verb in ("or", "next", "pass"):
        _expect_end(rest, verb.upper())
        return {"or": Or, "next": Next, "pass": Pass}[verb]()
    if verb == "take":
        if not rest:
            raise OrderError("TAKE needs a column: land, build or sun")
        column = _lookup(COLUMN_NAMES, rest[0])
        rest = rest[1:]
        only: tuple[str, ...] = ()
        under = None
        while rest:
            if _is(rest[0], "if") and not only and len(rest) > 1:
                only = tuple(dict.fromkeys(_lookup(TILE_COLOUR_NAMES, w)
                                           for w in rest[1].split(",") if w))
                rest = rest[2:]
            elif _is(rest[0], "under") and under is None and len(rest) > 1:
                under = _lookup(AREA_NAMES, rest[1])
                rest = rest[2:]
            else:
                raise OrderError(f'unexpected "{rest[0]}" in TAKE; expected IF <colours> or '
                                 "UNDER red|yellow|blue")
        return Take(column, under, only)
    if verb == "start":
        if len(rest) != 1:
            raise OrderError("START needs one land type: redwood, granite or bamboo")
        land = _lookup(LAND_NAMES, rest[0])
        if land not in data.STARTING_LANDS:
            raise OrderError(f"{land} may not be a starting tile; choose redwood, granite or bamboo")
        return Start(land)
    if verb == "catchup":
        if not rest:
            raise OrderError("CATCHUP needs a resource colour, e.g. CATCHUP blue AT 0,0")
        colour = _lookup(COLOUR_NAMES, rest[0])
        cell = None
        rest = rest[1:]
        if rest and _is(rest[0], "at"):
            cells, rest = _cells(rest[1:])
            cell = cells[0]
        _expect_end(rest, "CATCHUP")
        return Catchup(colour, cell)
    if verb == "estate":
        cells: tuple[Cell | tuple[str, Cell], ...] = ()
        bonus = None
        if rest and _is(rest[0], "to"):
            cells, rest = _plan(rest[1:])
        if rest and _is(rest[0], "bonus"):
            if len(rest) < 2:
                raise OrderError("BONUS needs a resource colour")
            bonus = _lookup(COLOUR_NAMES, rest[1])
            rest = rest[2:]
        _expect_end(rest, "ESTATE")
        return Estate(cells, bonus)
    if verb == "hire":
        names = []
        words: list[str] = []
        for w in rest + ["OR"]:
            if _is(w, "or"):
                if not words:
                    raise OrderError("HIRE needs a character, e.g. HIRE princess OR inventor")
                names.append(_lookup(CHARACTER_NAMES, " ".join(words)))
                words = []
            else:
                words.append(w)
        return Hire(tuple(dict.fromkeys(names)))
    if verb == "activate":
        name, rest = _name_and_rest(rest, CHARACTER_NAMES, {"pay", "bonus"})
        pay = colour = cell = None
        if rest and _is(rest[0], "pay"):
            pay, rest = _pay(rest[1:])
        if rest and _is(rest[0], "bonus"):
            if len(rest) < 2:
                raise OrderError("BONUS needs a resource colour")
            colour = _lookup(COLOUR_NAMES, rest[1])
            rest = rest[2:]
            if rest and _is(rest[0], "at"):
                cells, rest = _cells(rest[1:])
                cell = cells[0]
        _expect_end(rest, "ACTIVATE")
        if colour and not data.characters()[name]["place"]:
            raise OrderError(f"{name} places no bonus resource; only the Architect and the "
                             "Cartographer do")
        return Activate(name, pay, colour, cell)
    raise OrderError(f"unknown command {toks[0]}")  # pragma: no cover
