"""The Helios order language: one frozen order type per command, each parsing itself from
the kit's `Tokens`, `str(order)` its canonical line; `GRAMMAR` dispatches a line by its
verb (English and the rulebook's Hungarian, any case and accents).

Cells are axial coordinates written `q,r` (e.g. `1,-1`; `(1, -1)` also works). Only the
text is read here: whether a line is legal in the position is judged in arrival.py (on
arrival) and rules/ (when it is carried out). docs/rulesets/helios.md has every command.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from pbem.core.i18n import _
from pbem.core.kit import Grammar, Order, OrderError, Tokens
from pbem.core.kit.grammar import message_of
from pbem.core.names import NameIndex, UnknownName
from pbem.rulesets.helios import data
from pbem.rulesets.helios.words import idterm

Cell = tuple[int, int]
PlanEntry = Cell | tuple[str, Cell]  # a cell, or (land type, cell): for that type only


def _index(table: dict[str, Any], what: Any) -> NameIndex:
    return NameIndex({k: [*v] for k, v in table.items()}, what=what)


_C = data.components()
COLOUR_NAMES = _index({c: _C["colours"]["names"][c] for c in data.COLOURS},
                      _("resource colour"))
LAND_NAMES = _index({k: _C["lands"]["names"][k] for k in data.LANDS}, _("land type"))
BONUS_NAMES = _index({k: _C["bonus_tiles"]["names"][k] for k in data.BONUS_TYPES},
                     _("bonus tile"))
COLUMN_NAMES = _index({k: _C["actions"]["names"][k] for k in data.SYMBOLS}, _("action column"))
AREA_NAMES = _index({k: _C["areas"]["names"][k] for k in data.AREAS}, _("colour area"))
TILE_COLOUR_NAMES = NameIndex({"red": ["piros"], "yellow": ["sarga"], "blue": ["kek"],
                               "grey": ["gray", "szurke"]}, what=_("action tile colour"))
BUILDING_NAMES = _index({k: v["names"] for k, v in data.buildings().items()}, _("building"))
CHARACTER_NAMES = _index({k: v["names"] for k, v in data.characters().items()},
                         _("character"))

# Keywords inside a line. "ide" (here) is read as AT; where TO is expected AT is taken too.
KEYWORDS = {
    "AT": ["ide", "mezo"], "TO": ["cel"], "PAY": ["fizet"], "UNDER": ["ala"], "IF": ["ha"],
    "PATH": ["ut", "utvonal"], "CONVERT": ["valt"], "BONUS": ["bonusz"], "NOSTORE": [],
    "OR": ["vagy"],
}

_CELL_RE = re.compile(r"^\(?\s*(-?\d+)\s*,\s*(-?\d+)\s*\)?$")
CELL_HINT = _("write cells as q,r, e.g. 1,-1")


def cell_str(c: Cell) -> str:
    return f"{c[0]},{c[1]}"


def glue_cells(line: str) -> str:
    """One token per cell: "1, -1" and "( 1,-1 )" become "1,-1" and "(1,-1)"."""
    line = re.sub(r"\s*,\s*", ",", line.strip())
    line = re.sub(r"\(\s*", "(", line)
    return re.sub(r"\s*\)", ")", line)


def parse_cell(text: str) -> Cell:
    m = _CELL_RE.match(text)
    if not m:
        raise OrderError(_('"{text}" is not a cell; {hint}', text=text, hint=CELL_HINT))
    return (int(m.group(1)), int(m.group(2)))


def is_cell(text: str | None) -> bool:
    return text is not None and _CELL_RE.match(text) is not None


def lookup(index: NameIndex, text: str) -> str:
    try:
        return index.lookup(text)
    except UnknownName as e:
        raise OrderError(message_of(e)) from None


@dataclass(frozen=True)
class Token:
    """One resource paid: its colour and, optionally, the tile it comes from."""

    colour: str
    cell: Cell | None = None

    def __str__(self) -> str:
        return self.colour if self.cell is None else f"{self.colour}@{cell_str(self.cell)}"


def plan_target(entry: PlanEntry) -> tuple[str | None, Cell]:
    """(the land type it is for, or None for any tile; the cell) of a plan entry."""
    if isinstance(entry[0], str):
        return entry[0], entry[1]
    return None, entry


def plan_str(entry: PlanEntry) -> str:
    typ, cell = plan_target(entry)
    return cell_str(cell) if typ is None else f"{typ}@{cell_str(cell)}"


def _pay_str(pay: tuple[Token, ...] | None) -> str:
    return "" if pay is None else " PAY " + " ".join(map(str, pay))


# --- reading parts of a line ------------------------------------------------------------

def take_cells(t: Tokens, what: Any = None) -> tuple[Cell, ...]:
    what = what or _("a cell")
    out = []
    while is_cell(t.peek()):
        out.append(parse_cell(t.next(what)))
    if not out:
        got = t.peek()
        if got is not None:
            raise OrderError(_('"{text}" is not a cell; {hint}', text=got, hint=CELL_HINT))
        raise OrderError(_("{what} is missing; {hint}", what=what, hint=CELL_HINT))
    return tuple(out)


def take_cell(t: Tokens) -> Cell:
    """Exactly one cell."""
    tok = t.peek()
    if tok is None:
        raise OrderError(_("a cell is missing; {hint}", hint=CELL_HINT))
    t.i += 1
    return parse_cell(tok)


def take_plan(t: Tokens) -> tuple[PlanEntry, ...]:
    """Estate Manager cells: `0,1` (any tile) or `spring@1,1` (that land type only)."""
    out: list[PlanEntry] = []
    while t.more():
        tok = t.peek() or ""
        if "@" in tok:
            name, where = tok.split("@", 1)
            out.append((lookup(LAND_NAMES, name), parse_cell(where)))
        elif is_cell(tok):
            out.append(parse_cell(tok))
        else:
            break
        t.i += 1
    if not out:
        raise OrderError(_("TO needs cells, e.g. TO 0,1 spring@1,1"))
    return tuple(out)


def take_pay(t: Tokens) -> tuple[Token, ...]:
    """Resources after PAY: `green` (any tile) or `green@1,0` (from that tile)."""
    out: list[Token] = []
    while t.more():
        tok = t.peek() or ""
        if "@" in tok:
            colour, where = tok.split("@", 1)
            out.append(Token(lookup(COLOUR_NAMES, colour), parse_cell(where)))
        elif tok in COLOUR_NAMES and t.word() is None:
            out.append(Token(lookup(COLOUR_NAMES, tok)))
        else:
            break
        t.i += 1
    if not out:
        raise OrderError(_("PAY needs resources, e.g. PAY green@1,0 grey"))
    return tuple(out)


def take_colour(t: Tokens, after: str) -> str:
    if not t.more():
        raise OrderError(_("{after} needs a resource colour, e.g. {after} blue", after=after))
    return lookup(COLOUR_NAMES, t.next(_("a resource colour")))


def take_name(t: Tokens, index: NameIndex, *stops: str) -> str:
    """A (possibly multi-word) name up to the first of the keywords `stops`."""
    words: list[str] = []
    while t.more() and t.word() not in stops:
        words.append(t.next(index.what))
    if not words:
        raise OrderError(_("a {what} is missing", what=index.what))
    return lookup(index, " ".join(words))


def expect_end(t: Tokens, what: str) -> None:
    if t.more():
        raise OrderError(_('unexpected "{rest}" after {what}', rest=t.rest(), what=what))


# --- Phase 1: a turn -------------------------------------------------------------------

@dataclass(frozen=True)
class Take(Order):
    """Take the lowest tile of a column; IF: only a tile of these colours; UNDER: the
    colour area the tile goes under (a grey tile's choice)."""

    verbs = ("TAKE", "vesz", "elvesz", "valaszt")
    usage = "TAKE <land|build|sun> [IF <colours>] [UNDER <red|yellow|blue>]"
    example = "TAKE sun IF red,grey UNDER red"
    column: str
    under: str | None = None
    only_if: tuple[str, ...] = ()

    @classmethod
    def parse(cls, t: Tokens) -> Take:
        if not t.more():
            raise OrderError(_("TAKE needs a column: land, build or sun"))
        column = lookup(COLUMN_NAMES, t.next(_("a column")))
        only: tuple[str, ...] = ()
        under = None
        while t.more():
            if t.word() == "IF" and not only and len(t.toks) > t.i + 1:
                t.take_word("IF")
                only = tuple(dict.fromkeys(lookup(TILE_COLOUR_NAMES, w)
                                           for w in t.next(_("colours")).split(",") if w))
            elif t.word() == "UNDER" and under is None and len(t.toks) > t.i + 1:
                t.take_word("UNDER")
                under = lookup(AREA_NAMES, t.next(_("a colour area")))
            else:
                raise OrderError(_('unexpected "{word}" in TAKE; expected IF <colours> or UNDER '
                                   'red|yellow|blue', word=t.peek()))
        return cls(column, under, only)

    def __str__(self) -> str:
        s = f"TAKE {self.column}"
        if self.only_if:
            s += " IF " + ",".join(self.only_if)
        if self.under:
            s += f" UNDER {self.under}"
        return s


@dataclass(frozen=True)
class Place(Order):
    """PREPARE_LAND: a land tile from the display or a bonus tile onto a cell."""

    verbs = ("PLACE", "letesz", "lerak", "prepare")
    usage = "PLACE <tile> AT <cell> [BONUS <colour>]"
    example = "PLACE spring AT 0,1"
    item: str  # a land type or a bonus tile type
    cell: Cell
    bonus: str | None = None

    @classmethod
    def parse(cls, t: Tokens) -> Place:
        if not t.more():
            raise OrderError(_("PLACE needs a tile and a cell, e.g. PLACE spring AT 0,1"))
        words = []
        while t.more() and t.word() != "AT":
            words.append(t.next(_("a tile")))
        name = " ".join(words)
        item = LAND_NAMES.get(name) or BONUS_NAMES.get(name)
        if item is None:
            hint = LAND_NAMES.suggest(name) or BONUS_NAMES.suggest(name)
            raise OrderError(_('unknown tile "{name}"{hint}; a land type (redwood, granite, '
                               "bamboo, spring, obsidian) or a bonus tile (empty_spaces, "
                               "prepared_land, resources, temples)", name=name, hint=hint))
        if not t.take_word("AT"):
            raise OrderError(_("PLACE needs AT and a cell, e.g. PLACE spring AT 0,1"))
        cells = take_cells(t)
        if len(cells) != 1:
            raise OrderError(_("PLACE takes one cell"))
        bonus = take_colour(t, "BONUS") if t.take_word("BONUS") else None
        expect_end(t, "PLACE")
        return cls(item, cells[0], bonus)

    def __str__(self) -> str:
        s = f"PLACE {self.item} AT {cell_str(self.cell)}"
        return s + (f" BONUS {self.bonus}" if self.bonus else "")


@dataclass(frozen=True)
class Temple(Order):
    """BUILD a temple on one of your tiles."""

    verbs = ("TEMPLE", "templom")
    usage = "TEMPLE AT <cell> [PAY <resources>]"
    example = "TEMPLE AT 1,0 PAY green@1,0 blue"
    cell: Cell
    pay: tuple[Token, ...] | None = None

    @classmethod
    def parse(cls, t: Tokens) -> Temple:
        if not t.take_word("AT"):
            raise OrderError(_("TEMPLE needs AT and a cell, e.g. TEMPLE AT 1,0"))
        cell = take_cell(t)
        pay = take_pay(t) if t.take_word("PAY") else None
        expect_end(t, "TEMPLE")
        return cls(cell, pay)

    def __str__(self) -> str:
        return f"TEMPLE AT {cell_str(self.cell)}" + _pay_str(self.pay)


@dataclass(frozen=True)
class Build(Order):
    """BUILD a city building."""

    verbs = ("BUILD", "epit", "epites")
    usage = "BUILD <building> [PAY <resources>] [CONVERT <0-3>] [TO <cells>] [BONUS <colour>]"
    example = "BUILD palace PAY green green@0,0 grey"
    building: str
    pay: tuple[Token, ...] | None = None
    convert: int | None = None  # Bazaar: mana to convert (0-3)
    # Estate Manager: preferred cells in order; ("spring", cell) only for that land type
    cells: tuple[PlanEntry, ...] = ()
    bonus: str | None = None  # Estate Manager: colour on a bonus-resource space

    @classmethod
    def parse(cls, t: Tokens) -> Build:
        name = take_name(t, BUILDING_NAMES, "PAY", "CONVERT", "TO", "AT", "BONUS")
        pay: tuple[Token, ...] | None = None
        convert = bonus = None
        cells: tuple[PlanEntry, ...] = ()
        while t.more():
            if t.word() == "PAY" and pay is None:
                t.take_word("PAY")
                pay = take_pay(t)
            elif t.word() == "CONVERT" and convert is None:
                t.take_word("CONVERT")
                tok = t.peek()
                if tok is None or not tok.isdigit():
                    raise OrderError(_("CONVERT needs a number of mana, 0 to 3"))
                convert = int(t.next(_("a number")))
            elif t.word() in ("TO", "AT") and not cells:
                t.take_word("TO", "AT")
                cells = take_plan(t)
            elif t.word() == "BONUS" and bonus is None:
                t.take_word("BONUS")
                if not t.more():
                    raise OrderError(_("BONUS needs a resource colour"))
                bonus = lookup(COLOUR_NAMES, t.next(_("a colour")))
            else:
                raise OrderError(_('unexpected "{word}" in BUILD; expected PAY, CONVERT, TO or '
                                   'BONUS', word=t.peek()))
        if convert is not None and name != "bazaar":
            raise OrderError(_("CONVERT belongs to the Bazaar only"))
        if convert is not None and convert > 3:
            raise OrderError(_("the Bazaar converts at most 3 mana, not {n}", n=convert))
        if (cells or bonus) and name != "estate_manager":
            raise OrderError(_("TO and BONUS belong to the Estate Manager only"))
        return cls(name, pay, convert, cells, bonus)

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
class Sun(Order):
    """MOVE_SUN to a cell (shortest legal path) or along a path."""

    verbs = ("SUN", "nap", "move")
    usage = "SUN TO <cell> | SUN PATH <cell> <cell> ... [NOSTORE [<cells>]]"
    example = "SUN TO 2,-1"
    cells: tuple[Cell, ...]
    path: bool = False  # True: every step given; False: destination only
    nostore: bool = False  # Warehouse: do not add second cubes
    nostore_at: tuple[Cell, ...] = ()  # Warehouse: no second cube on these tiles only

    @classmethod
    def parse(cls, t: Tokens) -> Sun:
        how = t.take_word("TO", "AT", "PATH")
        if how is None:
            raise OrderError(_("SUN needs TO <cell> or PATH <cell> <cell> ..., e.g. SUN TO 2,-1"))
        is_path = how == "PATH"
        cells = take_cells(t)
        nostore, nostore_at = False, tuple[Cell, ...]()
        if t.take_word("NOSTORE"):
            # Rulebook p. 16 "tehetsz": the Warehouse's second cube is optional per tile.
            if t.more():
                nostore_at = take_cells(t)
            nostore = not nostore_at
        expect_end(t, "SUN")
        if not is_path and len(cells) != 1:
            raise OrderError(_("SUN TO takes one cell; use SUN PATH for a whole path"))
        return cls(cells, is_path, nostore, tuple(nostore_at))

    def __str__(self) -> str:
        s = ("SUN PATH " if self.path else "SUN TO ") + " ".join(cell_str(c) for c in self.cells)
        if self.nostore:
            return s + " NOSTORE"
        if self.nostore_at:
            return s + " NOSTORE " + " ".join(cell_str(c) for c in self.nostore_at)
        return s


@dataclass(frozen=True)
class Decline(Order):
    """Take the tile, do no action (rulebook p. 10: an action may be declined)."""

    verbs = ("DECLINE", "kihagy", "skip", "none")
    usage = "DECLINE"

    @classmethod
    def parse(cls, t: Tokens) -> Decline:
        expect_end(t, "DECLINE")
        return cls()

    def __str__(self) -> str:
        return "DECLINE"


Action = Place | Temple | Build | Sun | Decline
ACTIONS: tuple[type[Order], ...] = (Place, Temple, Build, Sun, Decline)


@dataclass(frozen=True)
class Bonus(Order):
    """The action for a bonus action (Palace, 4th tile of a colour)."""

    verbs = ("BONUS", "bonusz", "bonuszakcio")
    usage = "BONUS <action>"
    example = "BONUS SUN TO 2,-1"
    action: Action

    @classmethod
    def parse(cls, t: Tokens) -> Bonus:
        if not t.more():
            raise OrderError(_("BONUS needs an action, e.g. BONUS SUN TO 2,-1 or BONUS DECLINE"))
        inner, n = t.grammar.order_type(t.toks[t.i:])
        if inner not in ACTIONS:
            raise OrderError(_("BONUS takes PLACE, TEMPLE, BUILD, SUN or DECLINE"))
        assert inner is not None
        t.i += n
        action = inner.parse(t)
        assert isinstance(action, Place | Temple | Build | Sun | Decline)
        return cls(action)

    def __str__(self) -> str:
        return f"BONUS {self.action}"


@dataclass(frozen=True)
class Or(Order):
    """The next alternative for this turn."""

    verbs = ("OR", "vagy", "else")
    usage = "OR"

    @classmethod
    def parse(cls, t: Tokens) -> Or:
        expect_end(t, "OR")
        return cls()

    def __str__(self) -> str:
        return "OR"


@dataclass(frozen=True)
class Next(Order):
    """What follows is your next turn (stored)."""

    verbs = ("NEXT", "kovetkezo")
    usage = "NEXT"

    @classmethod
    def parse(cls, t: Tokens) -> Next:
        expect_end(t, "NEXT")
        return cls()

    def __str__(self) -> str:
        return "NEXT"


TURN_ORDERS: tuple[type[Order], ...] = (Take, *ACTIONS, Bonus, Or, Next)


# --- set-up, Phase 3 -------------------------------------------------------------------

@dataclass(frozen=True)
class Start(Order):
    """Your start tile (rulebook p. 2: redwood, granite or bamboo)."""

    verbs = ("START", "kezdo", "kezd")
    usage = "START <redwood|granite|bamboo>"
    example = "START bamboo"
    land: str

    @classmethod
    def parse(cls, t: Tokens) -> Start:
        if len(t.toks) - t.i != 1:
            raise OrderError(_("START needs one land type: redwood, granite or bamboo"))
        land = lookup(LAND_NAMES, t.next(_("a land type")))
        if land not in data.STARTING_LANDS:
            raise OrderError(_("{land} may not be a starting tile; choose redwood, granite or "
                               "bamboo", land=land))
        return cls(land)

    def __str__(self) -> str:
        return f"START {self.land}"


@dataclass(frozen=True)
class Catchup(Order):
    """The extra resource of seats 3 and 4: at set-up, in Phase 3 when asked, and at other
    times a standing order for the next Phase 3 (the ruleset's `is_standing` says which)."""

    verbs = ("CATCHUP", "potlas", "catch up", "extra")
    usage = "CATCHUP <colour> [AT <cell>]"
    example = "CATCHUP blue AT 0,0"
    standing = True
    colour: str
    cell: Cell | None = None

    @classmethod
    def parse(cls, t: Tokens) -> Catchup:
        if not t.more():
            raise OrderError(_("CATCHUP needs a resource colour, e.g. CATCHUP blue AT 0,0"))
        colour = lookup(COLOUR_NAMES, t.next(_("a colour")))
        cell = take_cell(t) if t.take_word("AT") else None
        expect_end(t, "CATCHUP")
        return cls(colour, cell)

    def __str__(self) -> str:
        return f"CATCHUP {self.colour}" + (f" AT {cell_str(self.cell)}" if self.cell else "")


@dataclass(frozen=True)
class Estate(Order):
    """Where the Estate Manager's drawn tiles go (asked with decisions = ask)."""

    verbs = ("ESTATE", "birtok", "birtokintezo")
    usage = "ESTATE [TO <cells>] [BONUS <colour>]"
    example = "ESTATE TO spring@1,1 0,1"
    cells: tuple[PlanEntry, ...] = ()
    bonus: str | None = None

    @classmethod
    def parse(cls, t: Tokens) -> Estate:
        cells: tuple[PlanEntry, ...] = ()
        bonus = None
        if t.take_word("TO", "AT"):
            cells = take_plan(t)
        if t.take_word("BONUS"):
            if not t.more():
                raise OrderError(_("BONUS needs a resource colour"))
            bonus = lookup(COLOUR_NAMES, t.next(_("a colour")))
        expect_end(t, "ESTATE")
        return cls(cells, bonus)

    def __str__(self) -> str:
        s = "ESTATE"
        if self.cells:
            s += " TO " + " ".join(plan_str(c) for c in self.cells)
        return s + (f" BONUS {self.bonus}" if self.bonus else "")


# --- Phase 2 -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Hire(Order):
    """Hire one character: the first of the list still free that you can pay."""

    verbs = ("HIRE", "fogad", "felfogad")
    usage = "HIRE <character> [OR <character> ...]"
    example = "HIRE princess OR inventor"
    names: tuple[str, ...]

    @classmethod
    def parse(cls, t: Tokens) -> Hire:
        names = []
        words: list[str] = []
        while True:
            if not t.more() or t.word() == "OR":
                if not words:
                    raise OrderError(_("HIRE needs a character, e.g. HIRE princess OR "
                                       "inventor"))
                names.append(lookup(CHARACTER_NAMES, " ".join(words)))
                words = []
                if not t.take_word("OR"):
                    break
            else:
                words.append(t.next(_("a character")))
        return cls(tuple(dict.fromkeys(names)))

    def __str__(self) -> str:
        return "HIRE " + " OR ".join(self.names)


@dataclass(frozen=True)
class Activate(Order):
    """Flip a hired character to its day side."""

    verbs = ("ACTIVATE", "aktival")
    usage = "ACTIVATE <character> [PAY <resources>] [BONUS <colour> [AT <cell>]]"
    example = "ACTIVATE architect PAY blue grey grey BONUS black AT 0,0"
    name: str
    pay: tuple[Token, ...] | None = None
    colour: str | None = None  # Architect / Cartographer bonus resource
    cell: Cell | None = None

    @classmethod
    def parse(cls, t: Tokens) -> Activate:
        name = take_name(t, CHARACTER_NAMES, "PAY", "BONUS")
        pay = take_pay(t) if t.take_word("PAY") else None
        colour = cell = None
        if t.take_word("BONUS"):
            if not t.more():
                raise OrderError(_("BONUS needs a resource colour"))
            colour = lookup(COLOUR_NAMES, t.next(_("a colour")))
            if t.take_word("AT"):
                cell = take_cell(t)
        expect_end(t, "ACTIVATE")
        if colour and not data.characters()[name]["place"]:
            raise OrderError(_("{name} places no bonus resource; only the Architect and the "
                               "Cartographer do", name=idterm(name)))
        return cls(name, pay, colour, cell)

    def __str__(self) -> str:
        s = f"ACTIVATE {self.name}" + _pay_str(self.pay)
        if self.colour:
            s += f" BONUS {self.colour}"
            if self.cell:
                s += f" AT {cell_str(self.cell)}"
        return s


@dataclass(frozen=True)
class Pass(Order):
    """Nothing in Phase 2."""

    verbs = ("PASS", "passz")
    usage = "PASS"

    @classmethod
    def parse(cls, t: Tokens) -> Pass:
        expect_end(t, "PASS")
        return cls()

    def __str__(self) -> str:
        return "PASS"


class HeliosGrammar(Grammar):
    """The kit's grammar, with a cell written with spaces ("1, -1") read as one word. A
    Helios line reads the same in every position and for every seat, so a parsed line
    (a frozen value) is remembered: scripts are read on arrival and again when resolved."""

    def parse_line(self, state: Any, seat: str | None, text: str) -> Order:
        return _parse_line(text)


GRAMMAR = HeliosGrammar([Take, Place, Temple, Build, Sun, Decline, Bonus, Or, Next, Start,
                         Catchup, Hire, Activate, Pass, Estate], keywords=KEYWORDS)


@functools.lru_cache(maxsize=4096)
def _parse_line(text: str) -> Order:
    return Grammar.parse_line(GRAMMAR, None, None, glue_cells(text))
