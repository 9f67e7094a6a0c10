"""The turn orders (MOVE/FLEE, DEPLOY, DRAW, BUILD, UPGRADE, PLAY, ATTACK, EXECUTE) and the
fallbacks for what the dice may change (IF <condition> THEN <order>, ELSE <order>)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pbem.core.i18n import _
from pbem.core.kit import Order, OrderError, Tokens
from pbem.core.names import fold
from pbem.rulesets.cherubion.orders.read import (
    PIECE_ID,
    Bare,
    board_size,
    card,
    field,
    number,
    piece,
    size,
    split_keywords,
    take_rest,
    verb_of,
)


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
        flee = verb_of(t) in ("flee", "menekul")
        verb = "FLEE" if flee else "MOVE"
        n = board_size(t)
        parts = split_keywords(take_rest(t), ("WITH", "VISZ"))
        head = parts[""]
        carry = tuple(piece(w) for w in parts.get("WITH", parts.get("VISZ", [])))
        if len(head) < 2:
            raise OrderError(_("{verb} takes a piece and a path of fields, e.g. {verb} ME2 K11 K12,"
                               " or {verb} ME2 TO K12",
                               verb=verb))
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
                raise OrderError(_("after GATE ROLL the landing field depends on the dice; put "
                                   "further steps in a new MOVE line"))
            continue
        else:
            path.append(field(words[i], n))
        i += 1
    return tuple(path)


def _gate(words: list[str], i: int, n: int) -> str:
    if i + 1 >= len(words):
        raise OrderError(_("GATE needs a gate (GATE T2) or ROLL and a field (GATE ROLL E16)"))
    nxt = words[i + 1].upper()
    if fold(nxt) in ("roll", "dob"):
        if i + 2 >= len(words):
            raise OrderError(_("GATE ROLL needs the field to land nearest to"))
        return f"GATE ROLL {field(words[i + 2], n)}"
    if not re.match(r"^T\d+$", nxt):
        raise OrderError(_("\"{i}\" is not a gate marker (T1, T2, ...)", i=words[i + 1]))
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
        rest = take_rest(t)
        if len(rest) != 2:
            raise OrderError(_("DEPLOY takes a piece and a border field, e.g. DEPLOY SA7 J17"))
        return cls(piece(rest[0]), field(rest[1], board_size(t)))

    def __str__(self) -> str:
        return f"DEPLOY {self.piece} {self.field}"


@dataclass(frozen=True)
class Draw(Bare):
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
        rest = take_rest(t)
        if len(rest) != 2:
            raise OrderError(_("BUILD takes a size and a field, e.g. BUILD LARGE E13"))
        return cls(size(rest[0]), field(rest[1], board_size(t)))

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
        rest = take_rest(t)
        if len(rest) != 2:
            raise OrderError(_("UPGRADE takes the resource's field and the new size, e.g. UPGRADE "
                               "L10 MEDIUM"))
        return cls(field(rest[0], board_size(t)), size(rest[1]))

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
        parts = split_keywords(take_rest(t), ("BY", "ALTAL", "ON", "RA", "X"))
        if not parts[""]:
            raise OrderError(_("PLAY takes a card, BY a caster, and ON a target, e.g. PLAY "
                               "Kezigranat BY ME2 ON CH2"))
        cid = card(" ".join(parts[""]))
        by = parts.get("BY", parts.get("ALTAL"))
        if not by or len(by) != 1:
            raise OrderError(_("PLAY needs BY <caster>: the character that casts the card, e.g. "
                               "PLAY Kezigranat BY ME2 ON CH2"))
        targets = tuple(w.upper() for w in parts.get("ON", parts.get("RA", [])))
        for x in targets:
            if not PIECE_ID.match(x) and not x.isalpha():
                raise OrderError(_("\"{x}\" is not a piece, field, marker or seat", x=x))
        k = 1
        if "X" in parts:
            if len(parts["X"]) != 1:
                raise OrderError(_("X takes the cost multiple, e.g. X 2"))
            k = number(parts["X"][0], _("cost multiple"))
            if k < 1:
                raise OrderError(_("the cost multiple is a whole number from 1 up"))
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
        parts = split_keywords(take_rest(t), ("CAPTURE", "ELFOG"))
        head = parts[""]
        if len(head) != 2:
            raise OrderError(_("ATTACK takes a piece and a target piece or resource, e.g. ATTACK "
                               "CH2 ME4"))
        cap = parts.get("CAPTURE", parts.get("ELFOG"))
        if cap is not None and len(cap) != 1:
            raise OrderError(_("CAPTURE takes one transport piece, e.g. ATTACK CH2 ME4 CAPTURE CH4"))
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
        rest = take_rest(t)
        if len(rest) != 1:
            raise OrderError(_("EXECUTE takes one prisoner, e.g. EXECUTE SA7"))
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
        return Cond("ENERGY" if head != "ME" else "ME", words[1], str(number(words[2], _("amount"))))
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
        raise OrderError(_("IF/ELSE take a turn order (MOVE, PLAY, ATTACK, ...), not {o}", o=o))
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
        rest = take_rest(t)
        words = [fold(w).upper() for w in rest]
        if "THEN" not in words and "AKKOR" not in words:
            raise OrderError(_("IF needs THEN, e.g. IF CH2 ALIVE THEN ATTACK ME4 CH2"))
        k = words.index("THEN") if "THEN" in words else words.index("AKKOR")
        if not rest[k + 1:]:
            raise OrderError(_("IF ... THEN needs an order after THEN, e.g. IF CH2 ALIVE THEN "
                               "ATTACK ME4 CH2"))
        return cls(_cond(rest[:k], board_size(t)), _inner(t, rest[k + 1:]))

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
        rest = take_rest(t)
        if not rest:
            raise OrderError(_("ELSE takes an order, e.g. ELSE MOVE ME2 TO K12"))
        return cls(_inner(t, rest))

    def __str__(self) -> str:
        return f"ELSE {self.order}"
