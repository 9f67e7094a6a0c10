"""The Cherubion order language: one frozen order type per command, and the grammar.

One command per line, verb first, English or Hungarian verb, names case- and
accent-insensitive. Each type parses itself from the words after its verb, and
`str(order)` is its canonical line (`GRAMMAR.parse_line(state, seat, str(o)) == o`). A
parse error is one line saying what is wrong, with a correct example. The parser knows the
board (fields) and the seats from the state it is given; whether an order is legal in the
position is judged on arrival (ruleset.py `check`) and again when the line is reached.

See docs/rulesets/cherubion.md for the whole language. Not here: carrying orders out
(rules/).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pbem.core.kit import Grammar, Order, OrderError, Tokens
from pbem.core.names import NameIndex, UnknownName, fold
from pbem.rulesets.cherubion import data
from pbem.rulesets.cherubion.board import get_board

_PIECE = re.compile(r"^[A-Z]{1,2}\d{1,3}$")
SIZE_INDEX = NameIndex({"small": ["kicsi", "kis"], "medium": ["kozepes"], "large": ["nagy"]},
                       what="resource size")


# --- token readers ---------------------------------------------------------------------------

def _board_size(t: Tokens) -> int:
    state = t.state
    return int(state.get("board_size", 6)) if isinstance(state, dict) else 6


def _seats(t: Tokens) -> tuple[str, ...]:
    state = t.state
    if isinstance(state, dict) and isinstance(state.get("config"), dict):
        return tuple(state["config"].get("seats", ()))
    return ()


def field(tok: str, n: int) -> str:
    f = tok.strip().upper()
    b = get_board(n)
    if f not in b.fields:
        close = NameIndex({x: [] for x in b.fields}, what="field").suggest(f)
        raise OrderError(f'"{tok}" is not a field of the board (rows A-{b.order[-1][0]}){close}')
    return f


def piece(tok: str) -> str:
    p = tok.strip().upper()
    if not _PIECE.match(p):
        raise OrderError(f'"{tok}" is not a piece id (like ME2, CH10 or S3 for a summon)')
    return p


def card(text: str) -> str:
    try:
        return data.card_index().lookup(text)
    except UnknownName as e:
        raise OrderError(str(e)) from None


def number(tok: str, what: str) -> int:
    try:
        return int(tok)
    except ValueError:
        raise OrderError(f'"{tok}" is not a number ({what})') from None


def seat_name(tok: str, seats: tuple[str, ...]) -> str:
    seat = tok.lower()
    if seats and seat not in seats:
        raise OrderError(f'"{tok}" is not a seat; seats are ' + ", ".join(seats))
    return seat


def size(tok: str) -> str:
    try:
        return SIZE_INDEX.lookup(tok)
    except UnknownName as e:
        raise OrderError(f"{e}; sizes are SMALL, MEDIUM, LARGE") from None


def split_keywords(words: Sequence[str], keywords: tuple[str, ...]) -> dict[str, list[str]]:
    """Split words at keywords (folded match): {"": head, "BY": [...], ...}."""
    out: dict[str, list[str]] = {"": []}
    cur = ""
    for w in words:
        key = fold(w).upper()
        if key in keywords:
            cur = key
            out[cur] = []
        else:
            out[cur].append(w)
    return out


def _rest(t: Tokens) -> list[str]:
    """The words after the verb, all consumed (the order parses them itself)."""
    words = t.toks[t.i:]
    t.i = len(t.toks)
    return words


def _verb(t: Tokens) -> str:
    return fold(t.toks[0])


class _Bare(Order):
    """An order of one word."""

    @classmethod
    def parse(cls, t: Tokens) -> Order:
        if t.more():
            raise OrderError(f"{cls.verbs[0]} takes nothing after it")
        return cls()

    def __str__(self) -> str:
        return self.verbs[0]


# --- set-up ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Team(Order):
    verbs = ("TEAM", "csapat", "demigod", "felisten")
    usage = "TEAM <demigod> [<demigod> ...]"
    example = "TEAM Melan Choler Sang"
    prefs: tuple[str, ...]

    @classmethod
    def parse(cls, t: Tokens) -> Team:
        rest = _rest(t)
        if not rest:
            raise OrderError("TEAM needs one or more demigods in order of preference")
        try:
            return cls(tuple(data.team_index().lookup(w) for w in rest))
        except UnknownName as e:
            raise OrderError(str(e)) from None

    def __str__(self) -> str:
        return "TEAM " + " ".join(self.prefs)


@dataclass(frozen=True)
class BaseChoice(Order):
    verbs = ("BASE", "bazis")
    usage = "BASE <side> [<side> ...]"
    example = "BASE 4 1 3"
    prefs: tuple[int, ...]

    @classmethod
    def parse(cls, t: Tokens) -> BaseChoice:
        sides = tuple(number(w, "a board side 1-5") for w in _rest(t))
        if not sides or any(not 1 <= s <= 5 for s in sides):
            raise OrderError("BASE needs board sides 1-5 in order of preference (side 6 is "
                             "No-Man's Land)")
        return cls(sides)

    def __str__(self) -> str:
        return "BASE " + " ".join(map(str, self.prefs))


@dataclass(frozen=True)
class Lineup(Order):
    verbs = ("LINEUP", "felallas")
    usage = "LINEUP STANDARD|ADVANCED"
    example = "LINEUP ADVANCED"
    kind: str  # standard | advanced

    @classmethod
    def parse(cls, t: Tokens) -> Lineup:
        rest = _rest(t)
        kinds = {"standard": "standard", "advanced": "advanced", "fejlesztett": "advanced"}
        if len(rest) != 1 or fold(rest[0]) not in kinds:
            raise OrderError("LINEUP takes STANDARD or ADVANCED (fejlesztett)")
        return cls(kinds[fold(rest[0])])

    def __str__(self) -> str:
        return f"LINEUP {self.kind}"


@dataclass(frozen=True)
class Deck(Order):
    verbs = ("DECK", "pakli")
    usage = "DECK DEFAULT | DECK <card>=<copies>, ..."
    example = "DECK Barlangi gyik=3, n04=2"
    cards: tuple[tuple[str, int], ...] = ()  # empty: the default deck

    @classmethod
    def parse(cls, t: Tokens) -> Deck:
        body = " ".join(_rest(t))
        if fold(body) in ("default", "alap"):
            return cls()
        merged: dict[str, int] = {}
        for part in body.split(","):
            if "=" not in part:
                raise OrderError(f'"{part.strip()}": write each card as name=copies, e.g. '
                                 '"DECK Barlangi gyik=3, n04=2", or DECK DEFAULT')
            name, count = part.rsplit("=", 1)
            cid = card(name.strip())
            merged[cid] = merged.get(cid, 0) + number(count.strip(), "copies")
        return cls(tuple(sorted(merged.items())))

    def __str__(self) -> str:
        if not self.cards:
            return "DECK DEFAULT"
        return "DECK " + ", ".join(f"{c}={n}" for c, n in self.cards)


@dataclass(frozen=True)
class Place(Order):
    verbs = ("PLACE", "lerak", "elhelyez")
    usage = "PLACE <piece> <field>"
    example = "PLACE ME2 K10"
    piece: str
    field: str

    @classmethod
    def parse(cls, t: Tokens) -> Place:
        rest = _rest(t)
        if len(rest) != 2:
            raise OrderError("PLACE takes a piece and a field, e.g. PLACE ME2 K10")
        return cls(piece(rest[0]), field(rest[1], _board_size(t)))

    def __str__(self) -> str:
        return f"PLACE {self.piece} {self.field}"


@dataclass(frozen=True)
class StartResource(Order):
    verbs = ("RESOURCE", "eroforras")
    usage = "RESOURCE <field>"
    example = "RESOURCE L8"
    field: str

    @classmethod
    def parse(cls, t: Tokens) -> StartResource:
        rest = _rest(t)
        if len(rest) != 1:
            raise OrderError("RESOURCE takes one field, e.g. RESOURCE L8")
        return cls(field(rest[0], _board_size(t)))

    def __str__(self) -> str:
        return f"RESOURCE {self.field}"


# --- the turn ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Move(Order):
    """A walk. `path` items: field labels, "OUT" (cross the border edge of the current
    field), "HOME" (cross it; in No-Man's Land go home at once), "GATE Tn" (gate travel,
    mode B) or "GATE ROLL <field>" (mode A, land on the reachable field nearest to it).
    `to` instead of a path: the shortest walk to that field. `flee` marks FLEE."""

    verbs = ("MOVE", "lep", "mozgat", "FLEE", "menekul")
    usage = "MOVE <piece> <field> <field> ... | MOVE <piece> TO <field>"
    example = "MOVE ME2 K11 K12"
    piece: str
    path: tuple[str, ...] = ()
    to: str = ""
    carry: tuple[str, ...] = ()
    flee: bool = False

    @classmethod
    def parse(cls, t: Tokens) -> Move:
        flee = _verb(t) in ("flee", "menekul")
        verb = "FLEE" if flee else "MOVE"
        n = _board_size(t)
        parts = split_keywords(_rest(t), ("WITH", "VISZ"))
        head = parts[""]
        carry = tuple(piece(w) for w in parts.get("WITH", parts.get("VISZ", [])))
        if len(head) < 2:
            raise OrderError(f"{verb} takes a piece and a path of fields, e.g. {verb} ME2 K11 "
                             f"K12, or {verb} ME2 TO K12")
        who = piece(head[0])
        words = head[1:]
        if fold(words[0]) in ("to", "ide") and len(words) == 2:
            return cls(who, (), field(words[1], n), carry, flee)
        return cls(who, _path(words, n), "", carry, flee)

    def __str__(self) -> str:
        verb = "FLEE" if self.flee else "MOVE"
        body = f"TO {self.to}" if self.to else " ".join(self.path)
        tail = f" WITH {' '.join(self.carry)}" if self.carry else ""
        return f"{verb} {self.piece} {body}{tail}"


def _path(words: list[str], n: int) -> tuple[str, ...]:
    path: list[str] = []
    i = 0
    while i < len(words):
        w = fold(words[i])
        if w in ("out", "ki"):
            path.append("OUT")
        elif w in ("home", "haza"):
            path.append("HOME")
        elif w in ("gate", "kapu"):
            path.append(_gate(words, i, n))
            i += 3 if path[-1].startswith("GATE ROLL") else 2
            if path[-1].startswith("GATE ROLL") and i < len(words):
                raise OrderError("after GATE ROLL the landing field depends on the dice; "
                                 "put further steps in a new MOVE line")
            continue
        else:
            path.append(field(words[i], n))
        i += 1
    return tuple(path)


def _gate(words: list[str], i: int, n: int) -> str:
    if i + 1 >= len(words):
        raise OrderError("GATE needs a gate (GATE T2) or ROLL and a field (GATE ROLL E16)")
    nxt = words[i + 1].upper()
    if fold(nxt) in ("roll", "dob"):
        if i + 2 >= len(words):
            raise OrderError("GATE ROLL needs the field to land nearest to")
        return f"GATE ROLL {field(words[i + 2], n)}"
    if not re.match(r"^T\d+$", nxt):
        raise OrderError(f'"{words[i + 1]}" is not a gate marker (T1, T2, ...)')
    return f"GATE {nxt}"


@dataclass(frozen=True)
class Deploy(Order):
    verbs = ("DEPLOY", "kihoz")
    usage = "DEPLOY <piece> <border field>"
    example = "DEPLOY SA7 J17"
    piece: str
    field: str

    @classmethod
    def parse(cls, t: Tokens) -> Deploy:
        rest = _rest(t)
        if len(rest) != 2:
            raise OrderError("DEPLOY takes a piece and a border field, e.g. DEPLOY SA7 J17")
        return cls(piece(rest[0]), field(rest[1], _board_size(t)))

    def __str__(self) -> str:
        return f"DEPLOY {self.piece} {self.field}"


@dataclass(frozen=True)
class Draw(_Bare):
    verbs = ("DRAW", "huz")
    usage = "DRAW"


@dataclass(frozen=True)
class Build(Order):
    verbs = ("BUILD", "epit")
    usage = "BUILD <size> <field>"
    example = "BUILD LARGE E13"
    size: str
    field: str

    @classmethod
    def parse(cls, t: Tokens) -> Build:
        rest = _rest(t)
        if len(rest) != 2:
            raise OrderError("BUILD takes a size and a field, e.g. BUILD LARGE E13")
        return cls(size(rest[0]), field(rest[1], _board_size(t)))

    def __str__(self) -> str:
        return f"BUILD {self.size} {self.field}"


@dataclass(frozen=True)
class Upgrade(Order):
    verbs = ("UPGRADE", "bovit")
    usage = "UPGRADE <field> <size>"
    example = "UPGRADE L10 MEDIUM"
    field: str
    size: str

    @classmethod
    def parse(cls, t: Tokens) -> Upgrade:
        rest = _rest(t)
        if len(rest) != 2:
            raise OrderError("UPGRADE takes the resource's field and the new size, "
                             "e.g. UPGRADE L10 MEDIUM")
        return cls(field(rest[0], _board_size(t)), size(rest[1]))

    def __str__(self) -> str:
        return f"UPGRADE {self.field} {self.size}"


@dataclass(frozen=True)
class Play(Order):
    verbs = ("PLAY", "kijatszik", "kijatsz")
    usage = "PLAY <card> BY <caster> [ON <target> ...] [X <k>]"
    example = "PLAY Kezigranat BY ME2 ON CH2"
    card: str
    caster: str
    targets: tuple[str, ...] = ()
    k: int = 1

    @classmethod
    def parse(cls, t: Tokens) -> Play:
        parts = split_keywords(_rest(t), ("BY", "ALTAL", "ON", "RA", "X"))
        if not parts[""]:
            raise OrderError("PLAY takes a card, BY a caster, and ON a target, "
                             "e.g. PLAY Kezigranat BY ME2 ON CH2")
        cid = card(" ".join(parts[""]))
        by = parts.get("BY", parts.get("ALTAL"))
        if not by or len(by) != 1:
            raise OrderError("PLAY needs BY <caster>: the character that casts the card, "
                             "e.g. PLAY Kezigranat BY ME2 ON CH2")
        targets = tuple(w.upper() for w in parts.get("ON", parts.get("RA", [])))
        for x in targets:
            if not _PIECE.match(x) and not x.isalpha():
                raise OrderError(f'"{x}" is not a piece, field, marker or seat')
        k = 1
        if "X" in parts:
            if len(parts["X"]) != 1:
                raise OrderError("X takes the cost multiple, e.g. X 2")
            k = number(parts["X"][0], "cost multiple")
            if k < 1:
                raise OrderError("the cost multiple is a whole number from 1 up")
        return cls(cid, piece(by[0]), tuple(x.lower() if x.isalpha() else x for x in targets), k)

    def __str__(self) -> str:
        s = f"PLAY {self.card} BY {self.caster}"
        if self.targets:
            s += " ON " + " ".join(self.targets)
        if self.k != 1:
            s += f" X {self.k}"
        return s


@dataclass(frozen=True)
class Attack(Order):
    verbs = ("ATTACK", "tamad")
    usage = "ATTACK <piece> <target> [CAPTURE <transport piece>]"
    example = "ATTACK CH2 ME4"
    piece: str
    target: str
    capture: str = ""  # transporter for a capture of the body (spec §5.13)

    @classmethod
    def parse(cls, t: Tokens) -> Attack:
        parts = split_keywords(_rest(t), ("CAPTURE", "ELFOG"))
        head = parts[""]
        if len(head) != 2:
            raise OrderError("ATTACK takes a piece and a target piece or resource, "
                             "e.g. ATTACK CH2 ME4")
        cap = parts.get("CAPTURE", parts.get("ELFOG"))
        if cap is not None and len(cap) != 1:
            raise OrderError("CAPTURE takes one transport piece, e.g. ATTACK CH2 ME4 CAPTURE CH4")
        return cls(piece(head[0]), piece(head[1]), piece(cap[0]) if cap else "")

    def __str__(self) -> str:
        return f"ATTACK {self.piece} {self.target}" + (f" CAPTURE {self.capture}"
                                                        if self.capture else "")


@dataclass(frozen=True)
class Execute(Order):
    verbs = ("EXECUTE", "kivegez")
    usage = "EXECUTE <prisoner>"
    example = "EXECUTE SA7"
    piece: str

    @classmethod
    def parse(cls, t: Tokens) -> Execute:
        rest = _rest(t)
        if len(rest) != 1:
            raise OrderError("EXECUTE takes one prisoner, e.g. EXECUTE SA7")
        return cls(piece(rest[0]))

    def __str__(self) -> str:
        return f"EXECUTE {self.piece}"


# --- conditions ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Cond:
    """A condition on the state when the line is reached: `<piece> ALIVE|DEAD|ENGAGED`,
    `<piece> AT <field>`, `<piece> EP >= n` / `EP < n`, `ME >= n`, `ENERGY >= n`."""

    subject: str  # piece id, "ME" or "ENERGY"
    test: str  # ALIVE DEAD ENGAGED AT >= <
    value: str = ""

    def __str__(self) -> str:
        if self.subject in ("ME", "ENERGY"):
            return f"{self.subject} {self.test} {self.value}"
        if self.test in (">=", "<"):
            return f"{self.subject} EP {self.test} {self.value}"
        return f"{self.subject} {self.test}" + (f" {self.value}" if self.value else "")


_COND_USAGE = ("conditions: <piece> ALIVE | DEAD | ENGAGED | AT <field> | EP >= <n> | "
               "EP < <n>, ME >= <n>, ENERGY >= <n>; e.g. IF CH2 ALIVE THEN ATTACK ME4 CH2")


def _cond(words: list[str], n: int) -> Cond:
    if len(words) < 2:
        raise OrderError(_COND_USAGE)
    head = fold(words[0]).upper()
    if head in ("ME", "ENERGY", "ENERGIA"):
        if len(words) != 3 or words[1] not in (">=", "<"):
            raise OrderError(_COND_USAGE)
        return Cond("ENERGY" if head != "ME" else "ME", words[1], str(number(words[2], "amount")))
    who = piece(words[0])
    test = fold(words[1]).upper()
    if test in ("ALIVE", "EL", "DEAD", "HALOTT", "ENGAGED", "HARCBAN") and len(words) == 2:
        return Cond(who, {"EL": "ALIVE", "HALOTT": "DEAD", "HARCBAN": "ENGAGED"}.get(test, test))
    if test == "AT" and len(words) == 3:
        return Cond(who, "AT", field(words[2], n))
    if test == "EP" and len(words) == 4 and words[2] in (">=", "<"):
        return Cond(who, words[2], str(number(words[3], "ÉP")))
    raise OrderError(_COND_USAGE)


TURN_ORDERS: tuple[type[Order], ...] = (Move, Deploy, Draw, Build, Upgrade, Play, Attack,
                                         Execute)


def _inner(t: Tokens, words: list[str]) -> Order:
    o = t.grammar.parse_line(t.state, t.seat, " ".join(words))
    if not isinstance(o, TURN_ORDERS):
        raise OrderError(f"IF/ELSE take a turn order (MOVE, PLAY, ATTACK, ...), not {o}")
    return o


@dataclass(frozen=True)
class If(Order):
    """`IF <cond> THEN <order>`: the order runs only if the condition holds when reached;
    an `ELSE <order>` line right after runs otherwise (spec §11.3, dice fallbacks)."""

    verbs = ("IF", "ha")
    usage = "IF <condition> THEN <order>"
    example = "IF CH2 ALIVE THEN ATTACK ME4 CH2"
    cond: Cond
    order: Order

    @classmethod
    def parse(cls, t: Tokens) -> If:
        rest = _rest(t)
        words = [fold(w).upper() for w in rest]
        if "THEN" not in words and "AKKOR" not in words:
            raise OrderError("IF needs THEN, e.g. IF CH2 ALIVE THEN ATTACK ME4 CH2")
        k = words.index("THEN") if "THEN" in words else words.index("AKKOR")
        if not rest[k + 1:]:
            raise OrderError("IF ... THEN needs an order after THEN, e.g. IF CH2 ALIVE THEN "
                             "ATTACK ME4 CH2")
        return cls(_cond(rest[:k], _board_size(t)), _inner(t, rest[k + 1:]))

    def __str__(self) -> str:
        return f"IF {self.cond} THEN {self.order}"


@dataclass(frozen=True)
class Else(Order):
    verbs = ("ELSE", "kulonben")
    usage = "ELSE <order>"
    example = "ELSE MOVE ME2 TO K12"
    order: Order

    @classmethod
    def parse(cls, t: Tokens) -> Else:
        rest = _rest(t)
        if not rest:
            raise OrderError("ELSE takes an order, e.g. ELSE MOVE ME2 TO K12")
        return cls(_inner(t, rest))

    def __str__(self) -> str:
        return f"ELSE {self.order}"


# --- standing orders (any file, any step; kept until replaced) --------------------------------

@dataclass(frozen=True)
class Surrender(_Bare):
    """Accepted at any time, also in a file sent while the seat is not awaited; it takes
    effect when the file is applied (spec DP16)."""

    verbs = ("SURRENDER", "megadja", "felad")
    usage = "SURRENDER"
    standing = True


@dataclass(frozen=True)
class Intruder(Order):
    verbs = ("INTRUDER", "betolakodo")
    usage = "INTRUDER PRISONER|KILL"
    example = "INTRUDER KILL"
    standing = True
    choice: str  # prisoner | kill

    @classmethod
    def parse(cls, t: Tokens) -> Intruder:
        rest = _rest(t)
        choices = {"prisoner": "prisoner", "fogoly": "prisoner", "kill": "kill", "megol": "kill"}
        if len(rest) != 1 or fold(rest[0]) not in choices:
            raise OrderError("INTRUDER takes PRISONER or KILL, e.g. INTRUDER KILL")
        return cls(choices[fold(rest[0])])

    def __str__(self) -> str:
        return f"INTRUDER {self.choice.upper()}"


@dataclass(frozen=True)
class FreeAttack(Order):
    verbs = ("FREEATTACK", "szabadtamadas")
    usage = "FREEATTACK YES|NO"
    example = "FREEATTACK NO"
    standing = True
    take: bool

    @classmethod
    def parse(cls, t: Tokens) -> FreeAttack:
        rest = _rest(t)
        yn = {"yes": True, "igen": True, "no": False, "nem": False}
        if len(rest) != 1 or fold(rest[0]) not in yn:
            raise OrderError("FREEATTACK takes YES or NO, e.g. FREEATTACK NO")
        return cls(yn[fold(rest[0])])

    def __str__(self) -> str:
        return "FREEATTACK " + ("YES" if self.take else "NO")


@dataclass(frozen=True)
class Loss(Order):
    """How a resource-destruction loss is split among your Base pieces (Rulebook
    "Erőforrások": "a játékos maga osztja el a veszteséget"): `CH8=12` takes 12 ÉP on CH8,
    a piece without an amount takes all it can of what is left, in the order written;
    what is still left goes one point at a time to the piece with the most ÉP."""

    verbs = ("LOSS", "veszteseg")
    usage = "LOSS <piece>[=<ÉP>] [<piece>[=<ÉP>] ...]"
    example = "LOSS CH8=12 CH9=1 CH10=1 CH1=1"
    standing = True
    pieces: tuple[str, ...]
    amounts: tuple[int, ...] = ()  # per piece; 0: all it can take; () : all 0

    @classmethod
    def parse(cls, t: Tokens) -> Loss:
        rest = _rest(t)
        if not rest:
            raise OrderError("LOSS takes the pieces in your Base that take the loss, each with "
                             "the ÉP it loses or in the order they take it, e.g. LOSS CH8=12 "
                             "CH9=1 CH10=1 CH1=1 or LOSS CH8 CH9")
        pieces, amounts = [], []
        for w in rest:
            name, _, amount = w.partition("=")
            pieces.append(piece(name))
            n = number(amount, "the ÉP a piece loses") if amount else 0
            if amount and n < 1:
                raise OrderError(f'"{w}": a piece given an amount loses 1 ÉP or more; leave '
                                 "it out of the list instead, e.g. LOSS CH8=12 CH9=3")
            amounts.append(n)
        if len(set(pieces)) < len(pieces):
            raise OrderError("LOSS names a piece twice; give each piece once, e.g. LOSS CH8=12 "
                             "CH9=3")
        return cls(tuple(pieces), tuple(amounts) if any(amounts) else ())

    def items(self) -> list[tuple[str, int]]:
        return list(zip(self.pieces, self.amounts or (0,) * len(self.pieces), strict=True))

    def __str__(self) -> str:
        return "LOSS " + " ".join(f"{pid}={n}" if n else pid for pid, n in self.items())


@dataclass(frozen=True)
class Scry(Order):
    verbs = ("SCRY", "kikemlel")
    usage = "SCRY <seat>"
    example = "SCRY beta"
    standing = True
    seat: str

    @classmethod
    def parse(cls, t: Tokens) -> Scry:
        rest = _rest(t)
        if len(rest) != 1:
            raise OrderError("SCRY takes one opponent's seat, e.g. SCRY beta")
        return cls(seat_name(rest[0], _seats(t)))

    def __str__(self) -> str:
        return f"SCRY {self.seat}"


@dataclass(frozen=True)
class StrikeBack(Order):
    """Whom `piece` strikes back at when attacked (Rulebook "Harc több ellenféllel": a
    piece that reaches other fields fights the attacker its player chooses, at most one per
    round): only the listed attackers (it saves its one strike-back for them), or FIRST
    (the first attacker it can reach; the default)."""

    verbs = ("STRIKEBACK", "visszaut")
    usage = "STRIKEBACK <piece> AT <attacker> [...] | STRIKEBACK <piece> FIRST"
    example = "STRIKEBACK CH1 AT ME1"
    standing = True
    piece: str
    targets: tuple[str, ...] = ()  # empty: FIRST

    @classmethod
    def parse(cls, t: Tokens) -> StrikeBack:
        rest = _rest(t)
        if len(rest) == 2 and fold(rest[1]) in ("first", "elso"):
            return cls(piece(rest[0]))
        if len(rest) < 3 or fold(rest[1]) not in ("at", "ra"):
            raise OrderError("STRIKEBACK takes your piece and AT <attacker> [<attacker> ...] "
                             "or FIRST, e.g. STRIKEBACK CH1 AT ME1 or STRIKEBACK CH1 FIRST")
        return cls(piece(rest[0]), tuple(piece(w) for w in rest[2:]))

    def __str__(self) -> str:
        return f"STRIKEBACK {self.piece} " + (
            "AT " + " ".join(self.targets) if self.targets else "FIRST")


@dataclass(frozen=True)
class CaptureWith(Order):
    """Take enemy characters your blows leave at -9..0 ÉP (strike-backs, mandatory melee,
    free attacks, card damage) captive with this transport piece, ANY of yours with room,
    or NO (Rulebook "Fogolyejtés": capture is possible whenever an enemy character is
    wounded to 9..0 and you have a transport piece). `ATTACK ... CAPTURE t` still names
    the carrier for that one attack."""

    verbs = ("CAPTURE", "elfog")
    usage = "CAPTURE <transport piece>|ANY|NO"
    example = "CAPTURE CH4"
    standing = True
    carrier: str  # a piece id, ANY or NO

    @classmethod
    def parse(cls, t: Tokens) -> CaptureWith:
        rest = _rest(t)
        if len(rest) != 1:
            raise OrderError("CAPTURE takes one transport piece of yours, ANY or NO, e.g. "
                             "CAPTURE CH4")
        w = fold(rest[0])
        return cls("ANY" if w in ("any", "barmely") else "NO" if w in ("no", "nem")
                   else piece(rest[0]))

    def __str__(self) -> str:
        return f"CAPTURE {self.carrier}"


WHEN_EVENTS = {"damage": "DAMAGE", "sebzes": "DAMAGE", "cast": "CAST", "varazs": "CAST",
               "zero": "ZERO", "nulla": "ZERO", "teleport": "TELEPORT", "after": "AFTER",
               "utana": "AFTER", "build": "BUILD", "epites": "BUILD", "start": "START",
               "kezdet": "START"}


@dataclass(frozen=True)
class When(Order):
    """A standing reaction trigger (spec §5.21.3). event: DAMAGE | CAST | AFTER | ZERO |
    TELEPORT | BUILD | START (AFTER: a card played openly has resolved and left a permanent
    card or a binding status on a piece; BUILD: an enemy announces a build or upgrade;
    START: another player's turn begins).
    `subject`: the card cast (CAST, AFTER) or ANY; `on`: my piece id, ANY (any of mine) or ALL
    (any piece, another player's too: spec §5.21.2, anyone may answer); `over`: damage
    threshold (DAMAGE: fires when the rolled damage is at least this)."""

    verbs = ("WHEN", "amikor")
    usage = "WHEN <event> [<card>|ANY] [ON <piece>|ANY|ALL] [OVER <n>] PLAY <card> BY <caster>|ANY"
    example = "WHEN DAMAGE ON ME4 OVER 6 PLAY Eppenhogy BY ANY"
    standing = True
    event: str
    card: str
    caster: str = "ANY"
    on: str = "ANY"
    subject: str = "ANY"
    over: int = 0

    @classmethod
    def parse(cls, t: Tokens) -> When:
        rest = _rest(t)
        if not rest:
            raise OrderError("WHEN takes DAMAGE, CAST, AFTER, ZERO, TELEPORT, BUILD or START, "
                             "e.g. WHEN DAMAGE ON ME4 OVER 6 PLAY Eppenhogy BY ANY")
        event = WHEN_EVENTS.get(fold(rest[0]))
        if event is None:
            raise OrderError(f'"{rest[0]}" is not a trigger; use DAMAGE, CAST, AFTER, ZERO, '
                             'TELEPORT, BUILD or START')
        parts = split_keywords(rest[1:], ("ON", "OVER", "PLAY", "BY"))
        subject = "ANY"
        if event in ("CAST", "AFTER"):
            head = " ".join(parts[""])
            subject = "ANY" if fold(head) in ("any", "") else card(head)
        elif parts[""]:
            raise OrderError(f"unexpected {' '.join(parts[''])!r} after WHEN {event}")
        on = cls._on(event, parts)
        over = 0
        if "OVER" in parts:
            if event != "DAMAGE" or len(parts["OVER"]) != 1:
                raise OrderError("OVER <n> goes with WHEN DAMAGE only")
            over = number(parts["OVER"][0], "damage threshold")
        if not parts.get("PLAY"):
            raise OrderError("a trigger needs PLAY <card> BY <caster|ANY>, e.g. "
                             "WHEN ZERO ON ANY PLAY Gyogyitas BY ANY")
        cid = card(" ".join(parts["PLAY"]))
        by = parts.get("BY", ["ANY"])
        if len(by) != 1:
            raise OrderError("BY takes one caster or ANY")
        caster = "ANY" if fold(by[0]) == "any" else piece(by[0])
        return cls(event, cid, caster, on, subject, over)

    @staticmethod
    def _on(event: str, parts: dict[str, list[str]]) -> str:
        if "ON" not in parts:
            return "ANY"
        if event in ("TELEPORT", "BUILD"):
            raise OrderError(f"WHEN {event} takes no ON: it fires for any enemy piece or build")
        if len(parts["ON"]) != 1:
            raise OrderError("ON takes one of your pieces, ANY (any of yours) or ALL (any "
                             "piece, also another player's)")
        w = fold(parts["ON"][0])
        return "ANY" if w in ("any", "barmely") else "ALL" if w in ("all", "mind") \
            else piece(parts["ON"][0])

    def __str__(self) -> str:
        s = f"WHEN {self.event}"
        if self.event in ("CAST", "AFTER"):
            s += f" {self.subject}"
        if self.event not in ("TELEPORT", "BUILD"):
            s += f" ON {self.on}"
        if self.event == "DAMAGE" and self.over:
            s += f" OVER {self.over}"
        return s + f" PLAY {self.card} BY {self.caster}"

    def to_trigger(self) -> dict[str, Any]:
        return {"event": self.event, "card": self.card, "caster": self.caster, "on": self.on,
                "subject": self.subject, "over": self.over}


@dataclass(frozen=True)
class Forget(_Bare):
    """Forget all standing triggers (FORGET; not CLEAR, which the mail envelope owns)."""

    verbs = ("FORGET", "elfelejt", "torol")
    usage = "FORGET"
    standing = True


# --- Diplomacy (standing offers: recorded until the other side matches them) ----------------

@dataclass(frozen=True)
class Ally(Order):
    """Diplomacy (optional rule): propose or confirm an alliance; SECRET keeps it between
    the two."""

    verbs = ("ALLY", "szovetseg")
    usage = "ALLY <seat> [SECRET]"
    example = "ALLY beta SECRET"
    standing = True
    seat: str
    secret: bool = False

    @classmethod
    def parse(cls, t: Tokens) -> Ally:
        rest = _rest(t)
        if not 1 <= len(rest) <= 2 or (len(rest) == 2 and fold(rest[1]) not in ("secret",
                                                                                  "titkos")):
            got = " ".join(rest) or "nothing"
            raise OrderError(f"ALLY takes a seat and optionally SECRET, not {got!r}; "
                             "e.g. ALLY beta SECRET")
        return cls(seat_name(rest[0], _seats(t)), len(rest) == 2)

    def __str__(self) -> str:
        return f"ALLY {self.seat}" + (" SECRET" if self.secret else "")


@dataclass(frozen=True)
class Break(Order):
    verbs = ("BREAK", "felbont")
    usage = "BREAK <seat>"
    example = "BREAK beta"
    standing = True
    seat: str

    @classmethod
    def parse(cls, t: Tokens) -> Break:
        rest = _rest(t)
        if len(rest) != 1:
            got = " ".join(rest) or "nothing"
            raise OrderError(f"BREAK takes one seat, not {got!r}; e.g. BREAK beta")
        return cls(seat_name(rest[0], _seats(t)))

    def __str__(self) -> str:
        return f"BREAK {self.seat}"


@dataclass(frozen=True)
class Hostage(Order):
    """Diplomacy: swap one character each with an ally (both must send matching orders)."""

    verbs = ("HOSTAGE", "tusz")
    usage = "HOSTAGE <seat> GIVE <your piece> TAKE <their piece>"
    example = "HOSTAGE beta GIVE ME8 TAKE CH8"
    standing = True
    seat: str
    give: str
    take: str

    @classmethod
    def parse(cls, t: Tokens) -> Hostage:
        rest = _rest(t)
        parts = split_keywords(rest, ("GIVE", "AD", "TAKE", "KAP"))
        give = parts.get("GIVE", parts.get("AD"))
        take = parts.get("TAKE", parts.get("KAP"))
        if len(parts[""]) != 1 or not give or not take or len(give) != 1 or len(take) != 1:
            got = " ".join(rest) or "nothing"
            raise OrderError(f"HOSTAGE takes a seat, GIVE <your piece> and TAKE <their piece>, "
                             f"not {got!r}; e.g. HOSTAGE beta GIVE ME8 TAKE CH8")
        return cls(seat_name(parts[""][0], _seats(t)), piece(give[0]), piece(take[0]))

    def __str__(self) -> str:
        return f"HOSTAGE {self.seat} GIVE {self.give} TAKE {self.take}"


@dataclass(frozen=True)
class Join(Order):
    """Diplomacy: after your demigod died, your team joins `seat`'s demigod (JOIN), or you
    accept such a team (ADOPT). Both must send it, with the same control term: KEEP (the
    default: the joining player keeps controlling his pieces) or HANDOVER (the adopting
    player takes them over)."""

    verbs = ("JOIN", "csatlakozik", "ADOPT", "befogad")
    usage = "JOIN <seat> [KEEP|HANDOVER] | ADOPT <seat> [KEEP|HANDOVER]"
    example = "JOIN gamma HANDOVER"
    standing = True
    seat: str
    adopt: bool = False
    control: str = "keep"  # keep | handover

    @classmethod
    def parse(cls, t: Tokens) -> Join:
        adopt = _verb(t) in ("adopt", "befogad")
        verb = "ADOPT" if adopt else "JOIN"
        rest = _rest(t)
        terms = {"keep": "keep", "megtart": "keep", "handover": "handover", "atad": "handover"}
        if not 1 <= len(rest) <= 2 or (len(rest) == 2 and fold(rest[1]) not in terms):
            got = " ".join(rest) or "nothing"
            raise OrderError(f"{verb} takes a seat and optionally KEEP (the joining player "
                             f"keeps control, the default) or HANDOVER, not {got!r}; "
                             f"e.g. {verb} beta HANDOVER")
        return cls(seat_name(rest[0], _seats(t)), adopt,
                   terms[fold(rest[1])] if len(rest) == 2 else "keep")

    def __str__(self) -> str:
        return f"{'ADOPT' if self.adopt else 'JOIN'} {self.seat}" + (
            " HANDOVER" if self.control == "handover" else "")


_EXCHANGE_USAGE = ("e.g. EXCHANGE beta GIVE CH5 TAKE ME8 (GIVE: their prisoners in your Base; "
                   "TAKE: your pieces in their Base; one of them may be left out)")


@dataclass(frozen=True)
class Exchange(Order):
    """Prisoner exchange (Rulebook "Fogolyejtés": free terms, both must send matching
    orders): `give` are prisoners of `seat` held in your Base, handed back to it; `take` are
    your pieces held in its Base, handed back to you. One side may be empty (a release),
    not both. Sorted, so that the canonical line is unique."""

    verbs = ("EXCHANGE", "fogolycsere", "csere")
    usage = "EXCHANGE <seat> [GIVE <pieces>] [TAKE <pieces>]"
    example = "EXCHANGE beta GIVE CH5 TAKE ME8"
    standing = True
    seat: str
    give: tuple[str, ...] = ()
    take: tuple[str, ...] = ()

    @classmethod
    def parse(cls, t: Tokens) -> Exchange:
        rest = _rest(t)
        for kw, alias in (("GIVE", "AD"), ("TAKE", "KAP")):
            if sum(1 for w in rest if fold(w).upper() in (kw, alias)) > 1:
                raise OrderError(f"EXCHANGE has {kw} twice; list all its pieces after one "
                                 f"{kw}, {_EXCHANGE_USAGE}")
        parts = split_keywords(rest, ("GIVE", "AD", "TAKE", "KAP"))
        if len(parts[""]) != 1:
            got = " ".join(parts[""]) or "nothing"
            raise OrderError(f"EXCHANGE takes one seat before GIVE/TAKE, not {got!r}; "
                             f"{_EXCHANGE_USAGE}")
        who = seat_name(parts[""][0], _seats(t))
        give = parts.get("GIVE", parts.get("AD"))
        take = parts.get("TAKE", parts.get("KAP"))
        for kw, lst in (("GIVE", give), ("TAKE", take)):
            if lst is not None and not lst:
                raise OrderError(f"{kw} needs at least one piece after it (or leave {kw} "
                                 f"out); {_EXCHANGE_USAGE}")
        if give is None and take is None:
            raise OrderError(f"EXCHANGE {rest[0]} needs GIVE <pieces>, TAKE <pieces> or both; "
                             f"{_EXCHANGE_USAGE}")
        g = tuple(sorted({piece(w) for w in give or []}))
        k = tuple(sorted({piece(w) for w in take or []}))
        both = sorted(set(g) & set(k))
        if both:
            raise OrderError(f"{both[0]} is both in GIVE and in TAKE; a piece goes one way "
                             f"only, {_EXCHANGE_USAGE}")
        return cls(who, g, k)

    def __str__(self) -> str:
        return f"EXCHANGE {self.seat}" + (" GIVE " + " ".join(self.give) if self.give else "") \
            + (" TAKE " + " ".join(self.take) if self.take else "")


# --- answers ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Pass(_Bare):
    """An answer: no instant now (or the documented default of the question)."""

    verbs = ("PASS", "passz")
    usage = "PASS"


DRAFT_ORDERS: tuple[type[Order], ...] = (Team, BaseChoice, Lineup, Deck)
PLACEMENT_ORDERS: tuple[type[Order], ...] = (Place, StartResource)
TURN_SCRIPT: tuple[type[Order], ...] = TURN_ORDERS + (If, Else, Pass)
DIPLOMACY: tuple[type[Order], ...] = (Ally, Break, Hostage, Join, Exchange)
STANDING: tuple[type[Order], ...] = (Intruder, FreeAttack, Loss, Scry, When, Forget,
                                     StrikeBack, CaptureWith, Surrender)
# the standing orders a question asks for: sent by the asked seat, they answer it
ANSWERED_BY_STANDING: dict[str, type[Order]] = {
    "FREEATTACK": FreeAttack, "SCRY": Scry, "INTRUDER": Intruder, "LOSS": Loss}

GRAMMAR = Grammar(
    DRAFT_ORDERS + PLACEMENT_ORDERS + TURN_SCRIPT + STANDING + DIPLOMACY + (Pass,))
