"""The Cherubion order language: frozen order values and the line parser.

One command per line, verb first, English or Hungarian verb, names case- and
accent-insensitive. `str(order)` is the canonical line and `parse_line(str(o)) == o`.
The parser checks syntax and names (cards, fields, demigods); whether an order is legal
when it is reached is decided at resolution, where an illegal command is skipped with an
event saying why (DESIGN §3). See docs/rulesets/cherubion.md for the whole language.

Not here: executing orders (movement.py, combat.py, cards.py, ...).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pbem.core.names import NameIndex, UnknownName, fold
from pbem.rulesets.cherubion import data
from pbem.rulesets.cherubion.orders_base import (
    OrderError,
    _card,
    _field,
    _int,
    _piece,
    _split_kw,
)
from pbem.rulesets.cherubion.orders_more import (
    Ally,
    Break,
    Exchange,
    Hostage,
    Join,
    _parse_diplomacy,
    _parse_if,
)
from pbem.rulesets.cherubion.orders_more import Cond as Cond  # re-exported
from pbem.rulesets.cherubion.orders_more import Else as Else  # re-exported
from pbem.rulesets.cherubion.orders_more import If as If  # re-exported

SIZES = ("small", "medium", "large")
SIZE_INDEX = NameIndex({"small": ["kicsi", "kis"], "medium": ["kozepes"], "large": ["nagy"]},
                       what="resource size")


# --- order values ------------------------------------------------------------------------

@dataclass(frozen=True)
class Team:
    prefs: tuple[str, ...]

    def __str__(self) -> str:
        return "TEAM " + " ".join(self.prefs)


@dataclass(frozen=True)
class BaseChoice:
    prefs: tuple[int, ...]

    def __str__(self) -> str:
        return "BASE " + " ".join(map(str, self.prefs))


@dataclass(frozen=True)
class Lineup:
    kind: str  # standard | advanced

    def __str__(self) -> str:
        return f"LINEUP {self.kind}"


@dataclass(frozen=True)
class Deck:
    cards: tuple[tuple[str, int], ...] = ()  # empty: the default deck

    def __str__(self) -> str:
        if not self.cards:
            return "DECK DEFAULT"
        return "DECK " + ", ".join(f"{c}={n}" for c, n in self.cards)


@dataclass(frozen=True)
class Place:
    piece: str
    field: str

    def __str__(self) -> str:
        return f"PLACE {self.piece} {self.field}"


@dataclass(frozen=True)
class StartResource:
    field: str

    def __str__(self) -> str:
        return f"RESOURCE {self.field}"


@dataclass(frozen=True)
class Move:
    """A walk. `path` items: field labels, "OUT" (cross the border edge of the current
    field), "HOME" (cross it; in No-Man's Land go home at once), "GATE Tn" (gate travel,
    mode B) or "GATE ROLL <field>" (mode A, land on the reachable field nearest to it).
    `to` instead of a path: the shortest walk to that field. `flee` marks FLEE."""

    piece: str
    path: tuple[str, ...] = ()
    to: str = ""
    carry: tuple[str, ...] = ()
    flee: bool = False

    def __str__(self) -> str:
        verb = "FLEE" if self.flee else "MOVE"
        body = f"TO {self.to}" if self.to else " ".join(self.path)
        tail = f" WITH {' '.join(self.carry)}" if self.carry else ""
        return f"{verb} {self.piece} {body}{tail}"


@dataclass(frozen=True)
class Deploy:
    piece: str
    field: str

    def __str__(self) -> str:
        return f"DEPLOY {self.piece} {self.field}"


@dataclass(frozen=True)
class Draw:
    def __str__(self) -> str:
        return "DRAW"


@dataclass(frozen=True)
class Build:
    size: str
    field: str

    def __str__(self) -> str:
        return f"BUILD {self.size} {self.field}"


@dataclass(frozen=True)
class Upgrade:
    field: str
    size: str

    def __str__(self) -> str:
        return f"UPGRADE {self.field} {self.size}"


@dataclass(frozen=True)
class Play:
    card: str
    caster: str
    targets: tuple[str, ...] = ()
    k: int = 1

    def __str__(self) -> str:
        s = f"PLAY {self.card} BY {self.caster}"
        if self.targets:
            s += " ON " + " ".join(self.targets)
        if self.k != 1:
            s += f" X {self.k}"
        return s


@dataclass(frozen=True)
class Attack:
    piece: str
    target: str
    capture: str = ""  # transporter for a capture of the body (spec §5.13)

    def __str__(self) -> str:
        return f"ATTACK {self.piece} {self.target}" + (f" CAPTURE {self.capture}"
                                                        if self.capture else "")


@dataclass(frozen=True)
class Execute:
    piece: str

    def __str__(self) -> str:
        return f"EXECUTE {self.piece}"


@dataclass(frozen=True)
class Surrender:
    def __str__(self) -> str:
        return "SURRENDER"


@dataclass(frozen=True)
class Pass:
    def __str__(self) -> str:
        return "PASS"


@dataclass(frozen=True)
class Intruder:
    choice: str  # prisoner | kill

    def __str__(self) -> str:
        return f"INTRUDER {self.choice.upper()}"


@dataclass(frozen=True)
class StrikeBack:
    """Whom `piece` strikes back at when attacked (Rulebook "Harc több ellenféllel": a
    piece that reaches other fields fights the attacker its player chooses, at most one per
    round): only the listed attackers (it saves its one strike-back for them), or FIRST
    (the first attacker it can reach; the default)."""
    piece: str
    targets: tuple[str, ...] = ()  # empty: FIRST

    def __str__(self) -> str:
        return f"STRIKEBACK {self.piece} " + (
            "AT " + " ".join(self.targets) if self.targets else "FIRST")


@dataclass(frozen=True)
class CaptureWith:
    """Take enemy characters your blows leave at -9..0 ÉP (strike-backs, mandatory melee,
    free attacks, card damage) captive with this transport piece, ANY of yours with room,
    or NO (Rulebook "Fogolyejtés": capture is possible whenever an enemy character is
    wounded to 9..0 and you have a transport piece). `ATTACK ... CAPTURE t` still names
    the carrier for that one attack."""
    carrier: str  # a piece id, ANY or NO

    def __str__(self) -> str:
        return f"CAPTURE {self.carrier}"


@dataclass(frozen=True)
class FreeAttack:
    take: bool

    def __str__(self) -> str:
        return "FREEATTACK " + ("YES" if self.take else "NO")


@dataclass(frozen=True)
class Loss:
    pieces: tuple[str, ...]

    def __str__(self) -> str:
        return "LOSS " + " ".join(self.pieces)


@dataclass(frozen=True)
class Scry:
    seat: str

    def __str__(self) -> str:
        return f"SCRY {self.seat}"


@dataclass(frozen=True)
class When:
    """A standing reaction trigger (spec §5.21.3). event: DAMAGE | CAST | AFTER | ZERO |
    TELEPORT | BUILD | START (AFTER: a card played openly has resolved and left a permanent
    card or a binding status on a piece; BUILD: an enemy announces a build or upgrade;
    START: another player's turn begins).
    `subject`: the card cast (CAST, AFTER) or ANY; `on`: my piece id, ANY (any of mine) or ALL
    (any piece, another player's too: spec §5.21.2, anyone may answer); `over`: damage
    threshold (DAMAGE: fires when the rolled damage is at least this)."""

    event: str
    card: str
    caster: str = "ANY"
    on: str = "ANY"
    subject: str = "ANY"
    over: int = 0

    def __str__(self) -> str:
        s = f"WHEN {self.event}"
        if self.event in ("CAST", "AFTER"):
            s += f" {self.subject}"
        if self.event not in ("TELEPORT", "BUILD"):
            s += f" ON {self.on}"
        if self.event == "DAMAGE" and self.over:
            s += f" OVER {self.over}"
        return s + f" PLAY {self.card} BY {self.caster}"


@dataclass(frozen=True)
class Clear:
    """Forget all standing triggers (FORGET; not CLEAR, which the mail envelope owns)."""

    def __str__(self) -> str:
        return "FORGET"


STANDING = (Intruder, FreeAttack, Loss, Scry, When, Clear, StrikeBack, CaptureWith)
DIPLOMACY = (Ally, Break, Hostage, Join, Exchange)

VERBS = {
    "team": "TEAM", "csapat": "TEAM", "demigod": "TEAM", "felisten": "TEAM",
    "base": "BASE", "bazis": "BASE",
    "lineup": "LINEUP", "felallas": "LINEUP",
    "deck": "DECK", "pakli": "DECK",
    "place": "PLACE", "lerak": "PLACE", "elhelyez": "PLACE",
    "resource": "RESOURCE", "eroforras": "RESOURCE",
    "move": "MOVE", "lep": "MOVE", "mozgat": "MOVE",
    "flee": "FLEE", "menekul": "FLEE",
    "deploy": "DEPLOY", "kihoz": "DEPLOY",
    "draw": "DRAW", "huz": "DRAW",
    "build": "BUILD", "epit": "BUILD",
    "upgrade": "UPGRADE", "bovit": "UPGRADE",
    "play": "PLAY", "kijatszik": "PLAY", "kijatsz": "PLAY",
    "attack": "ATTACK", "tamad": "ATTACK",
    "execute": "EXECUTE", "kivegez": "EXECUTE",
    "surrender": "SURRENDER", "megadja": "SURRENDER", "felad": "SURRENDER",
    "pass": "PASS", "passz": "PASS",
    "intruder": "INTRUDER", "betolakodo": "INTRUDER",
    "freeattack": "FREEATTACK", "szabadtamadas": "FREEATTACK",
    "loss": "LOSS", "veszteseg": "LOSS",
    "scry": "SCRY", "kikemlel": "SCRY",
    "strikeback": "STRIKEBACK", "visszaut": "STRIKEBACK",
    "capture": "CAPTURE", "elfog": "CAPTURE",
    "when": "WHEN", "amikor": "WHEN",
    "ally": "ALLY", "szovetseg": "ALLY", "break": "BREAK", "felbont": "BREAK",
    "hostage": "HOSTAGE", "tusz": "HOSTAGE", "join": "JOIN", "csatlakozik": "JOIN",
    "adopt": "ADOPT", "befogad": "ADOPT",
    "exchange": "EXCHANGE", "fogolycsere": "EXCHANGE", "csere": "EXCHANGE",
    "if": "IF", "ha": "IF", "else": "ELSE", "kulonben": "ELSE",
    "forget": "FORGET", "elfelejt": "FORGET", "torol": "FORGET",
}
VERB_INDEX = NameIndex({v: [k for k, vv in VERBS.items() if vv == v] for v in set(VERBS.values())},
                       what="command")

def parse_line(text: str, n: int = 6, seats: tuple[str, ...] = ()) -> object:
    """One order line -> its value, or OrderError naming what is wrong."""
    words = text.split()
    if not words:
        raise OrderError("empty line")
    verb = VERB_INDEX.get(words[0])
    if verb is None:
        raise OrderError(f'"{words[0]}" is not a command{VERB_INDEX.suggest(words[0])}; '
                         "commands are MOVE, DEPLOY, DRAW, BUILD, UPGRADE, PLAY, ATTACK, ...")
    rest = words[1:]
    if verb in ("DRAW", "SURRENDER", "PASS", "FORGET"):
        if rest:
            raise OrderError(f"{verb} takes nothing after it")
        return {"DRAW": Draw, "SURRENDER": Surrender, "PASS": Pass, "FORGET": Clear}[verb]()
    if verb == "TEAM":
        if not rest:
            raise OrderError("TEAM needs one or more demigods in order of preference")
        try:
            return Team(tuple(data.team_index().lookup(w) for w in rest))
        except UnknownName as e:
            raise OrderError(str(e)) from None
    if verb == "BASE":
        sides = tuple(_int(w, "a board side 1-5") for w in rest)
        if not sides or any(not 1 <= s <= 5 for s in sides):
            raise OrderError("BASE needs board sides 1-5 in order of preference (side 6 is "
                             "No-Man's Land)")
        return BaseChoice(sides)
    if verb == "LINEUP":
        kinds = {"standard": "standard", "advanced": "advanced", "fejlesztett": "advanced"}
        if len(rest) != 1 or fold(rest[0]) not in kinds:
            raise OrderError("LINEUP takes STANDARD or ADVANCED (fejlesztett)")
        return Lineup(kinds[fold(rest[0])])
    if verb == "DECK":
        body = " ".join(rest)
        if fold(body) in ("default", "alap"):
            return Deck()
        items = []
        for part in body.split(","):
            if "=" not in part:
                raise OrderError(f'"{part.strip()}": write each card as name=copies, e.g. '
                                 '"DECK Barlangi gyik=3, n04=2", or DECK DEFAULT')
            name, count = part.rsplit("=", 1)
            items.append((_card(name.strip()), _int(count.strip(), "copies")))
        merged: dict[str, int] = {}
        for c, k in items:
            merged[c] = merged.get(c, 0) + k
        return Deck(tuple(sorted(merged.items())))
    if verb == "PLACE":
        if len(rest) != 2:
            raise OrderError("PLACE takes a piece and a field, e.g. PLACE ME2 K10")
        return Place(_piece(rest[0]), _field(rest[1], n))
    if verb == "RESOURCE":
        if len(rest) != 1:
            raise OrderError("RESOURCE takes one field, e.g. RESOURCE L8")
        return StartResource(_field(rest[0], n))
    if verb in ("MOVE", "FLEE"):
        return _parse_move(rest, n, verb == "FLEE")
    if verb == "DEPLOY":
        if len(rest) != 2:
            raise OrderError("DEPLOY takes a piece and a border field, e.g. DEPLOY SA7 J17")
        return Deploy(_piece(rest[0]), _field(rest[1], n))
    if verb == "BUILD":
        if len(rest) != 2:
            raise OrderError("BUILD takes a size and a field, e.g. BUILD LARGE E13")
        return Build(_size(rest[0]), _field(rest[1], n))
    if verb == "UPGRADE":
        if len(rest) != 2:
            raise OrderError("UPGRADE takes the resource's field and the new size, "
                             "e.g. UPGRADE L10 MEDIUM")
        return Upgrade(_field(rest[0], n), _size(rest[1]))
    if verb == "PLAY":
        return _parse_play(rest)
    if verb == "ATTACK":
        parts = _split_kw(rest, ("CAPTURE", "ELFOG"))
        head = parts[""]
        if len(head) != 2:
            raise OrderError("ATTACK takes a piece and a target piece or resource, "
                             "e.g. ATTACK CH2 ME4")
        cap = parts.get("CAPTURE", parts.get("ELFOG"))
        if cap is not None and len(cap) != 1:
            raise OrderError("CAPTURE takes one transport piece, e.g. CAPTURE CH4")
        return Attack(_piece(head[0]), _piece(head[1]), _piece(cap[0]) if cap else "")
    if verb == "EXECUTE":
        if len(rest) != 1:
            raise OrderError("EXECUTE takes one prisoner")
        return Execute(_piece(rest[0]))
    if verb == "INTRUDER":
        choices = {"prisoner": "prisoner", "fogoly": "prisoner", "kill": "kill", "megol": "kill"}
        if len(rest) != 1 or fold(rest[0]) not in choices:
            raise OrderError("INTRUDER takes PRISONER or KILL")
        return Intruder(choices[fold(rest[0])])
    if verb == "FREEATTACK":
        yn = {"yes": True, "igen": True, "no": False, "nem": False}
        if len(rest) != 1 or fold(rest[0]) not in yn:
            raise OrderError("FREEATTACK takes YES or NO")
        return FreeAttack(yn[fold(rest[0])])
    if verb == "LOSS":
        if not rest:
            raise OrderError("LOSS takes the pieces in your Base in the order they take losses")
        return Loss(tuple(_piece(w) for w in rest))
    if verb == "STRIKEBACK":
        if len(rest) == 2 and fold(rest[1]) in ("first", "elso"):
            return StrikeBack(_piece(rest[0]))
        if len(rest) < 3 or fold(rest[1]) not in ("at", "ra"):
            raise OrderError("STRIKEBACK takes your piece and AT <attacker> [<attacker> ...] "
                             "or FIRST, e.g. STRIKEBACK CH1 AT ME1 or STRIKEBACK CH1 FIRST")
        return StrikeBack(_piece(rest[0]), tuple(_piece(w) for w in rest[2:]))
    if verb == "CAPTURE":
        if len(rest) != 1:
            raise OrderError("CAPTURE takes one transport piece of yours, ANY or NO, e.g. "
                             "CAPTURE CH4")
        w = fold(rest[0])
        return CaptureWith("ANY" if w in ("any", "barmely") else "NO" if w in ("no", "nem")
                           else _piece(rest[0]))
    if verb == "SCRY":
        if len(rest) != 1:
            raise OrderError("SCRY takes one opponent's seat")
        seat = rest[0].lower()
        if seats and seat not in seats:
            raise OrderError(f'"{rest[0]}" is not a seat; seats are ' + ", ".join(seats))
        return Scry(seat)
    if verb == "WHEN":
        return _parse_when(rest)
    if verb in ("ALLY", "BREAK", "JOIN", "ADOPT", "HOSTAGE", "EXCHANGE"):
        return _parse_diplomacy(verb, rest, seats)
    if verb in ("IF", "ELSE"):
        return _parse_if(verb, rest, n, seats)
    raise OrderError(f"{verb} is not handled")  # pragma: no cover


def _size(tok: str) -> str:
    try:
        return SIZE_INDEX.lookup(tok)
    except UnknownName as e:
        raise OrderError(f"{e}; sizes are SMALL, MEDIUM, LARGE") from None


def _parse_move(rest: list[str], n: int, flee: bool) -> Move:
    verb = "FLEE" if flee else "MOVE"
    parts = _split_kw(rest, ("WITH", "VISZ"))
    head = parts[""]
    carry = tuple(_piece(w) for w in parts.get("WITH", parts.get("VISZ", [])))
    if len(head) < 2:
        raise OrderError(f"{verb} takes a piece and a path of fields, e.g. {verb} ME2 K11 K12,"
                         f" or {verb} ME2 TO K12")
    piece = _piece(head[0])
    words = head[1:]
    if fold(words[0]) in ("to", "ide") and len(words) == 2:
        return Move(piece, (), _field(words[1], n), carry, flee)
    path: list[str] = []
    i = 0
    while i < len(words):
        w = fold(words[i])
        if w in ("out", "ki"):
            path.append("OUT")
        elif w in ("home", "haza"):
            path.append("HOME")
        elif w in ("gate", "kapu"):
            if i + 1 >= len(words):
                raise OrderError("GATE needs a gate (GATE T2) or ROLL and a field "
                                 "(GATE ROLL E16)")
            nxt = words[i + 1].upper()
            if fold(nxt) in ("roll", "dob"):
                if i + 2 >= len(words):
                    raise OrderError("GATE ROLL needs the field to land nearest to")
                path.append(f"GATE ROLL {_field(words[i + 2], n)}")
                i += 3
                if i < len(words):
                    raise OrderError("after GATE ROLL the landing field depends on the dice; "
                                     "put further steps in a new MOVE line")
                break
            if not re.match(r"^T\d+$", nxt):
                raise OrderError(f'"{words[i + 1]}" is not a gate marker (T1, T2, ...)')
            path.append(f"GATE {nxt}")
            i += 2
            continue
        else:
            path.append(_field(words[i], n))
        i += 1
    return Move(piece, tuple(path), "", carry, flee)


def _parse_play(rest: list[str]) -> Play:
    parts = _split_kw(rest, ("BY", "ALTAL", "ON", "RA", "X"))
    if not parts[""]:
        raise OrderError("PLAY takes a card, BY a caster, and ON a target, "
                         "e.g. PLAY Kezigranat BY ME2 ON CH2")
    card = _card(" ".join(parts[""]))
    by = parts.get("BY", parts.get("ALTAL"))
    if not by or len(by) != 1:
        raise OrderError("PLAY needs BY <caster>: the character that casts the card")
    targets = tuple(w.upper() for w in parts.get("ON", parts.get("RA", [])))
    for t in targets:
        if not re.match(r"^[A-Z]{1,2}\d{1,3}$", t) and not t.isalpha():
            raise OrderError(f'"{t}" is not a piece, field, marker or seat')
    k = 1
    if "X" in parts:
        if len(parts["X"]) != 1:
            raise OrderError("X takes the cost multiple, e.g. X 2")
        k = _int(parts["X"][0], "cost multiple")
        if k < 1:
            raise OrderError("the cost multiple is a whole number from 1 up")
    return Play(card, _piece(by[0]), tuple(t.lower() if t.isalpha() else t for t in targets), k)


def _parse_when(rest: list[str]) -> When:
    if not rest:
        raise OrderError("WHEN takes DAMAGE, CAST, AFTER, ZERO, TELEPORT, BUILD or START")
    event = {"damage": "DAMAGE", "sebzes": "DAMAGE", "cast": "CAST", "varazs": "CAST",
             "zero": "ZERO", "nulla": "ZERO", "teleport": "TELEPORT", "after": "AFTER",
             "utana": "AFTER", "build": "BUILD", "epites": "BUILD", "start": "START",
             "kezdet": "START"}.get(fold(rest[0]))
    if event is None:
        raise OrderError(f'"{rest[0]}" is not a trigger; use DAMAGE, CAST, AFTER, ZERO, '
                         'TELEPORT, BUILD or START')
    parts = _split_kw(rest[1:], ("ON", "OVER", "PLAY", "BY"))
    subject = "ANY"
    if event in ("CAST", "AFTER"):
        head = " ".join(parts[""])
        subject = "ANY" if fold(head) in ("any", "") else _card(head)
    elif parts[""]:
        raise OrderError(f"unexpected {' '.join(parts[''])!r} after WHEN {event}")
    on = "ANY"
    if "ON" in parts and event in ("TELEPORT", "BUILD"):
        raise OrderError(f"WHEN {event} takes no ON: it fires for any enemy piece or build")
    if "ON" in parts:
        if len(parts["ON"]) != 1:
            raise OrderError("ON takes one of your pieces, ANY (any of yours) or ALL (any "
                             "piece, also another player's)")
        w = fold(parts["ON"][0])
        on = "ANY" if w in ("any", "barmely") else "ALL" if w in ("all", "mind") \
            else _piece(parts["ON"][0])
    over = 0
    if "OVER" in parts:
        if event != "DAMAGE" or len(parts["OVER"]) != 1:
            raise OrderError("OVER <n> goes with WHEN DAMAGE only")
        over = _int(parts["OVER"][0], "damage threshold")
    if not parts.get("PLAY"):
        raise OrderError("a trigger needs PLAY <card> BY <caster|ANY>")
    card = _card(" ".join(parts["PLAY"]))
    by = parts.get("BY", ["ANY"])
    if len(by) != 1:
        raise OrderError("BY takes one caster or ANY")
    caster = "ANY" if fold(by[0]) == "any" else _piece(by[0])
    return When(event, card, caster, on, subject, over)

