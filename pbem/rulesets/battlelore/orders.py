"""The order language: one frozen order type per command, each parsing itself, and the
game's grammar (pbem.core.kit.grammar).

One command per line, verb first; English and Hungarian verbs; card, unit and hex names
case- and accent-insensitive. `str(order)` is the canonical form and parses back to the
same order. The parser resolves names against the state (cards in hand, own and enemy
units, hexes); whether a line is legal in the position is judged on arrival (phases.py)
and again when it is reached in the turn.

Not here: what orders do (rules/turn.py and friends).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from pbem.core.i18n import Msg, _
from pbem.core.kit import Grammar, Order, OrderError, Tokens
from pbem.core.kit.grammar import message_of
from pbem.core.names import NameIndex, UnknownName, fold

from .board import Hex, hex_name, hex_problem, parse_hex
from .data import LANDMARKS, MASTERS, data

MASTER_INDEX = NameIndex({"commander": ["parancsnok"], "wizard": ["varazslo", "varázsló"],
                          "cleric": ["pap"], "rogue": ["szelhamos", "szélhámos"],
                          "warrior": ["harcos"]}, what=_("master"))
REPLENISH = {"cards": "draw 2 Lore cards, keep 1", "card_token": "draw 1 Lore card and take "
             "1 token", "tokens": "take 2 tokens"}


@cache
def cards() -> NameIndex:
    cc = data("command_cards")
    return NameIndex({cid: [c["name"], c["hu"], *c.get("aliases", [])] for cid, c in cc.items()},
                     what=_("Command card"))


@cache
def lores() -> NameIndex:
    lc = data("lore_cards")["cards"]
    return NameIndex({cid: [c["name"], *c.get("aliases", [])] for cid, c in lc.items()},
                     what=_("Lore card"))


# --- reading words ----------------------------------------------------------------------

def _words(t: Tokens) -> list[str]:
    """The rest of the line (the order types below read it as a list)."""
    rest = t.toks[t.i:]
    t.i = len(t.toks)
    return rest


def _lookup(index: NameIndex, text: str) -> str:
    """The id a name stands for; an unknown name is refused with the closest one."""
    try:
        return index.lookup(text)
    except UnknownName as e:
        raise OrderError(message_of(e)) from None


def _hex(tok: str) -> Hex:
    p = hex_problem(tok)
    if p:
        raise OrderError(p)
    h = parse_hex(tok)
    assert h is not None
    return h


def _alts(toks: list[str]) -> list[str]:
    return [x for x in toks if fold(x) != "or"]


def _unit(t: Tokens, tok: str, *, own: bool | None = True) -> str:
    """A unit id of the board; `own`: it must be the seat's (True) or an enemy's (False)."""
    uid = tok.upper()
    known = t.state["units"]
    if uid not in known:
        ids = sorted(known)
        close = difflib.get_close_matches(uid, ids, n=1, cutoff=0.5)
        mine = " ".join(i for i in ids if known[i]["owner"] == t.seat) or _("none")
        if close:
            raise OrderError(_('"{name}" is not a unit on the board; did you mean "{near}"? '
                               '(your units: {units})', name=tok, near=close[0], units=mine))
        raise OrderError(_('"{name}" is not a unit on the board (your units: {units})',
                           name=tok, units=mine))
    if own is True and known[uid]["owner"] != t.seat:
        raise OrderError(_("{unit} is not your unit; name one of yours", unit=uid))
    if own is False and known[uid]["owner"] == t.seat:
        raise OrderError(_("{unit} is your own unit; name an enemy unit", unit=uid))
    return uid


def _lore_card(words: list[str]) -> str:
    return _lookup(lores(), " ".join(words))


def _lore_mode(t: Tokens) -> None:
    if t.state["mode"] != "lore":
        raise OrderError(_("this is a medieval adventure: there are no Lore cards"))


# --- the active player's turn ----------------------------------------------------------------

@dataclass(frozen=True)
class Play(Order):
    verbs = ("PLAY", "kijatsz", "kijatszik", "card")
    usage = "PLAY <Command card>"
    example = "PLAY scout_centre"
    card: str

    @classmethod
    def parse(cls, t: Tokens) -> Play:
        words = _words(t)
        if not words:
            raise OrderError(_("PLAY needs a Command card, e.g. PLAY scout_centre"))
        cid = _lookup(cards(), " ".join(words))
        hand = t.state["hands"].get(t.seat, [])
        if cid not in hand:
            raise OrderError(_("{card} is not in your hand; you hold {cards}", card=cid,
                               cards=", ".join(hand)))
        return cls(cid)

    def __str__(self) -> str:
        return f"PLAY {self.card}"


@dataclass(frozen=True)
class OrderUnits(Order):
    verbs = ("ORDER", "parancs", "parancsol")
    usage = "ORDER <unit> ..."
    example = "ORDER N1 N2"
    units: tuple[str, ...]

    @classmethod
    def parse(cls, t: Tokens) -> OrderUnits:
        words = _words(t)
        if not words:
            raise OrderError(_("ORDER needs one or more of your units, e.g. ORDER N1 N2"))
        return cls(tuple(_unit(t, x) for x in words))

    def __str__(self) -> str:
        return "ORDER " + " ".join(self.units)


@dataclass(frozen=True)
class Move(Order):
    """MOVE <unit> <hex> [OR <hex> ...] [VIA <hex> ...]: VIA fixes the path (in order)."""

    verbs = ("MOVE", "lep", "mozgat")
    usage = "MOVE <unit> <hex> [OR <hex> ...] [VIA <hex> ...]"
    example = "MOVE N1 13-5 OR 12-6"
    unit: str
    dests: tuple[Hex, ...]
    via: tuple[Hex, ...] = ()

    @classmethod
    def parse(cls, t: Tokens) -> Move:
        words = [x for x in _words(t) if fold(x) != "to"]
        via: tuple[Hex, ...] = ()
        low = [fold(x) for x in words]
        for w in ("via", "at"):
            if w in low:
                k = low.index(w)
                via = tuple(_hex(x) for x in words[k + 1:])
                if not via:
                    raise OrderError(_("VIA needs the hexes of the path, e.g. MOVE N1 13-5 VIA "
                                       "12-6"))
                words = words[:k]
                break
        if len(words) < 2:
            raise OrderError(_("MOVE needs a unit and a hex, e.g. MOVE N1 13-5 (fallbacks: OR "
                               "12-6; a path: VIA 12-6)"))
        return cls(_unit(t, words[0]), tuple(_hex(x) for x in _alts(words[1:])), via)

    def __str__(self) -> str:
        out = f"MOVE {self.unit} " + " OR ".join(hex_name(h) for h in self.dests)
        if self.via:
            out += " VIA " + " ".join(hex_name(h) for h in self.via)
        return out


@dataclass(frozen=True)
class Rush(Order):
    verbs = ("RUSH", "roham", "goblin rush")
    usage = "RUSH <unit> <hex> AT <enemy>"
    example = "RUSH S3 13-5 AT N2"
    unit: str
    dest: Hex
    target: str

    @classmethod
    def parse(cls, t: Tokens) -> Rush:
        words = _words(t)
        if len(words) != 4 or fold(words[2]) != "at":
            raise OrderError(_("RUSH needs a unit, a hex and a target: RUSH S3 13-5 AT N2"))
        return cls(_unit(t, words[0]), _hex(words[1]), _unit(t, words[3], own=False))

    def __str__(self) -> str:
        return f"RUSH {self.unit} {hex_name(self.dest)} AT {self.target}"


_BATTLE_FLAGS = {"hold": "hold", "nopursue": "nopursue", "nobonus": "nobonus", "stay": "stay",
                 "marad": "stay"}


@dataclass(frozen=True)
class Battle(Order):
    """BATTLE <unit> <target> [OR ...] [ANY] [HOLD] [NOPURSUE | PURSUE <hex> [OR <hex>]]
    [STAY] [NOBONUS] [BONUS <enemy> [OR ...]]."""

    verbs = ("BATTLE", "tamad", "harc", "attack")
    usage = "BATTLE <unit> <target> [OR <target> ...] [ANY] [HOLD] [PURSUE <hex>] [BONUS <enemy>]"
    example = "BATTLE N1 S3 OR ANY"
    unit: str
    targets: tuple[str, ...]
    hold: bool = False
    nopursue: bool = False
    pursue: tuple[Hex, ...] = ()
    nobonus: bool = False
    bonus: tuple[str, ...] = ()
    stay: bool = False

    @classmethod
    def parse(cls, t: Tokens) -> Battle:
        words = _words(t)
        if len(words) < 2:
            raise OrderError(_("BATTLE needs a unit and a target, e.g. BATTLE N1 S3 OR ANY"))
        unit = _unit(t, words[0])
        targets: list[str] = []
        opts: dict[str, Any] = {}
        i = 1
        while i < len(words):
            w = fold(words[i])
            if w == "or":
                pass
            elif w == "any":
                targets.append("ANY")
            elif w in _BATTLE_FLAGS:
                opts[_BATTLE_FLAGS[w]] = True
            elif w == "pursue":
                i += 1
                if i >= len(words):
                    raise OrderError(_("PURSUE needs a hex, e.g. PURSUE 12-6 (fallback: OR "
                                       "13-5)"))
                hexes = [_hex(words[i])]
                while i + 2 < len(words) and fold(words[i + 1]) == "or" and parse_hex(words[i + 2]):
                    hexes.append(_hex(words[i + 2]))
                    i += 2
                opts["pursue"] = tuple(hexes)
            elif w == "bonus":
                opts["bonus"] = tuple(_unit(t, x, own=False) for x in _alts(words[i + 1:]))
                break
            else:
                targets.append(_unit(t, words[i], own=False))
            i += 1
        if not targets:
            raise OrderError(_("BATTLE needs at least one target (an enemy unit or ANY), "
                               "e.g. BATTLE N1 S3 OR ANY"))
        return cls(unit, tuple(targets), **opts)

    def __str__(self) -> str:
        out = f"BATTLE {self.unit} " + " OR ".join(self.targets)
        if self.hold:
            out += " HOLD"
        if self.nopursue:
            out += " NOPURSUE"
        if self.pursue:
            out += " PURSUE " + " OR ".join(hex_name(h) for h in self.pursue)
        if self.stay:
            out += " STAY"
        if self.nobonus:
            out += " NOBONUS"
        if self.bonus:
            out += " BONUS " + " OR ".join(self.bonus)
        return out


def _one_unit(cls: type[Order], t: Tokens, what: Msg) -> str:
    words = _words(t)
    if len(words) != 1:
        raise OrderError(_("{verb} needs {what}, e.g. {example}", verb=cls.verbs[0], what=what,
                           example=cls.example))
    return _unit(t, words[0])


@dataclass(frozen=True)
class Drill(Order):
    verbs = ("DRILL", "kikepez")
    usage = "DRILL <unit>"
    example = "DRILL S4"
    unit: str

    @classmethod
    def parse(cls, t: Tokens) -> Drill:
        return cls(_one_unit(cls, t, _("one unit")))

    def __str__(self) -> str:
        return f"DRILL {self.unit}"


@dataclass(frozen=True)
class Free(Order):
    verbs = ("FREE", "kiszabadit")
    usage = "FREE <unit>"
    example = "FREE S4"
    unit: str

    @classmethod
    def parse(cls, t: Tokens) -> Free:
        return cls(_one_unit(cls, t, _("one webbed unit")))

    def __str__(self) -> str:
        return f"FREE {self.unit}"


@dataclass(frozen=True)
class Passage(Order):
    verbs = ("PASSAGE", "jarat", "secret passage")
    usage = "PASSAGE <unit> <exit hex>"
    example = "PASSAGE S4 3-7"
    unit: str
    dest: Hex

    @classmethod
    def parse(cls, t: Tokens) -> Passage:
        words = _words(t)
        if len(words) != 2:
            raise OrderError(_("PASSAGE needs a unit and the exit hex, e.g. PASSAGE S4 3-7"))
        return cls(_unit(t, words[0]), _hex(words[1]))

    def __str__(self) -> str:
        return f"PASSAGE {self.unit} {hex_name(self.dest)}"


@dataclass(frozen=True)
class Lore(Order):
    """LORE <card> [ON <unit>] [TO <hex>]: play a Lore card in your own turn."""

    verbs = ("LORE", "tudas")
    usage = "LORE <card> [ON <unit>] [TO <hex>]"
    example = "LORE bless ON N3"
    card: str
    unit: str = ""
    hex: Hex | None = None

    @classmethod
    def parse(cls, t: Tokens) -> Lore:
        _lore_mode(t)
        toks = _words(t)
        words: list[str] = []
        unit, h = "", None
        i = 0
        while i < len(toks):
            w = fold(toks[i])
            if w == "on" and i + 1 < len(toks):
                unit = toks[i + 1].upper()
                if unit not in t.state["units"]:
                    _unit(t, unit, own=None)
                i += 2
                continue
            if w == "to" and i + 1 < len(toks):
                h = _hex(toks[i + 1])
                i += 2
                continue
            words.append(toks[i])
            i += 1
        if not words:
            raise OrderError(_("LORE needs a Lore card, e.g. LORE bless ON N3"))
        cid = _lore_card(words)
        hand = t.state["lore"]["hands"].get(t.seat, [])
        if cid not in hand:
            raise OrderError(_("{card} is not in your Lore hand; you hold {cards}", card=cid,
                               cards=", ".join(hand) or _("none")))
        return cls(cid, unit, h)

    def __str__(self) -> str:
        out = f"LORE {self.card}"
        if self.unit:
            out += f" ON {self.unit}"
        if self.hex is not None:
            out += f" TO {hex_name(self.hex)}"
        return out


@dataclass(frozen=True)
class Replenish(Order):
    verbs = ("REPLENISH", "potol")
    usage = "REPLENISH CARDS|CARD_TOKEN|TOKENS"
    example = "REPLENISH CARDS"
    choice: str

    @classmethod
    def parse(cls, t: Tokens) -> Replenish:
        words = _words(t)
        if len(words) != 1 or fold(words[0]).replace(" ", "_") not in REPLENISH:
            raise OrderError(_("REPLENISH takes CARDS (draw 2 keep 1), CARD_TOKEN (1 card and 1 "
                               "token) or TOKENS (2 tokens), e.g. REPLENISH CARDS"))
        return cls(fold(words[0]).replace(" ", "_"))

    def __str__(self) -> str:
        return f"REPLENISH {self.choice.upper()}"


def _card_list(cls: type[Order], t: Tokens) -> tuple[str, ...]:
    words = _words(t)
    if not words:
        raise OrderError(_("{verb} needs Lore card names, e.g. {example}", verb=cls.verbs[0],
                           example=cls.example))
    return tuple(_lore_card([x]) for x in words)


@dataclass(frozen=True)
class Keep(Order):
    """KEEP <lore card> ...: the starting cards, or the card kept after REPLENISH CARDS."""

    verbs = ("KEEP", "megtart")
    usage = "KEEP <Lore card> ..."
    example = "KEEP portal"
    cards: tuple[str, ...]

    @classmethod
    def parse(cls, t: Tokens) -> Keep:
        return cls(_card_list(cls, t))

    def __str__(self) -> str:
        return "KEEP " + " ".join(self.cards)


@dataclass(frozen=True)
class Discard(Order):
    """DISCARD <lore card> ...: what to drop when over the Lore hand limit."""

    verbs = ("DISCARD", "eldob")
    usage = "DISCARD <Lore card> ..."
    example = "DISCARD lightning_bolt"
    cards: tuple[str, ...]

    @classmethod
    def parse(cls, t: Tokens) -> Discard:
        return cls(_card_list(cls, t))

    def __str__(self) -> str:
        return "DISCARD " + " ".join(self.cards)


# --- set-up steps ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Council(Order):
    verbs = ("COUNCIL", "tanacs", "war council")
    usage = "COUNCIL <master> <level> ..."
    example = "COUNCIL commander 2 wizard 3"
    levels: tuple[tuple[str, int], ...]

    @classmethod
    def parse(cls, t: Tokens) -> Council:
        words = _words(t)
        if not words or len(words) % 2:
            raise OrderError(_("COUNCIL takes master-level pairs, e.g. COUNCIL commander 2 "
                               "wizard 3"))
        out = []
        for m, n in zip(words[::2], words[1::2], strict=True):
            mid = _lookup(MASTER_INDEX, m)
            if not n.isdigit() or not 1 <= int(n) <= 3:
                raise OrderError(_("a master's level is 1, 2 or 3, not {n}; e.g. COUNCIL "
                                   "commander 2 wizard 3", n=n))
            out.append((mid, int(n)))
        if len({m for m, _n in out}) != len(out):
            raise OrderError(_("a master is named twice; e.g. COUNCIL commander 2 wizard 3"))
        return cls(tuple(sorted(out, key=lambda x: MASTERS.index(x[0]))))

    def __str__(self) -> str:
        return "COUNCIL " + " ".join(f"{m} {n}" for m, n in self.levels)


@dataclass(frozen=True)
class Place(Order):
    verbs = ("PLACE", "helyez", "lerak")
    usage = "PLACE <landmark> <hex> [OR <hex> ...]"
    example = "PLACE pentagram 13-7 OR 11-7"
    landmark: str
    hexes: tuple[Hex, ...]

    @classmethod
    def parse(cls, t: Tokens) -> Place:
        words = _words(t)
        if len(words) < 2 or fold(words[0]).replace(" ", "_") not in LANDMARKS:
            raise OrderError(_("PLACE takes a landmark ({landmarks}) and a hex, e.g. PLACE "
                               "pentagram 13-7", landmarks=", ".join(LANDMARKS)))
        return cls(fold(words[0]).replace(" ", "_"), tuple(_hex(x) for x in _alts(words[1:])))

    def __str__(self) -> str:
        return f"PLACE {self.landmark} " + " OR ".join(hex_name(h) for h in self.hexes)


# --- answers and standing orders -----------------------------------------------------------

@dataclass(frozen=True)
class Answer(Order):
    verbs = ("ANSWER", "valasz")
    usage = "ANSWER <value>"
    example = "ANSWER 12-4"
    value: str

    @classmethod
    def parse(cls, t: Tokens) -> Answer:
        words = _words(t)
        if len(words) != 1:
            raise OrderError(_("ANSWER takes one word: the hex, number, yes/no or card asked "
                               "for, e.g. ANSWER 12-4"))
        h = parse_hex(words[0])
        return cls(hex_name(h) if h else fold(words[0]).replace(" ", "_"))

    def __str__(self) -> str:
        return f"ANSWER {self.value}"


@dataclass(frozen=True)
class Standing(Order):
    """IGNORE/RETREAT/BATTLEBACK/CREATURE [unit] <value>: kept until changed; a unit's own
    line overrides the general one."""

    standing = True
    key_word: ClassVar[str] = ""
    values: ClassVar[tuple[str, ...]] = ()
    numeric: ClassVar[bool] = False
    value: str
    unit: str = ""

    def key(self) -> str:
        return f"{self.key_word} {self.unit}" if self.unit else self.key_word

    @classmethod
    def parse(cls, t: Tokens) -> Standing:
        words = _words(t)
        unit = ""
        if len(words) == 2:
            unit, words = _unit(t, words[0]), words[1:]
        number = cls.numeric and words[-1:] != [] and words[-1].isdigit()
        if len(words) != 1 or (fold(words[0]) not in cls.values and not number):
            raise OrderError(_("{verb} takes [unit] {values}, e.g. {example}", verb=cls.verbs[0],
                               values="|".join(v.upper() for v in cls.values),
                               example=cls.example))
        return cls(fold(words[0]), unit)

    def __str__(self) -> str:
        u = f" {self.unit}" if self.unit else ""
        return f"{self.verbs[0]}{u} {self.value.upper()}"


@dataclass(frozen=True)
class Ignore(Standing):
    verbs = ("IGNORE", "zaszlo", "figyelmen kivul")
    usage = "IGNORE [unit] ALL|NONE|<n>"
    example = "IGNORE ALL (or a number of flags, IGNORE N3 1)"
    key_word = "ignore"
    values = ("all", "none")
    numeric = True


@dataclass(frozen=True)
class Retreat(Standing):
    verbs = ("RETREAT", "hatral", "visszavonul")
    usage = "RETREAT [unit] SAFE|LEFT|RIGHT|CENTRE|<hex> ..."
    example = "RETREAT SAFE (or the hexes to retreat through, RETREAT N3 12-8 11-9)"
    key_word = "retreat"
    values = ("safe", "left", "right", "centre")

    @classmethod
    def parse(cls, t: Tokens) -> Standing:
        # RETREAT [unit] <hex> [<hex> ...]: the hexes to retreat through, in order of
        # preference (any step not covered falls back to SAFE)
        words = t.toks[t.i:]
        if words and parse_hex(words[-1]):
            t.i = len(t.toks)
            unit = ""
            if not parse_hex(words[0]):
                unit, words = _unit(t, words[0]), words[1:]
            return cls(" ".join(hex_name(_hex(x)) for x in words), unit)
        return super().parse(t)


@dataclass(frozen=True)
class Battleback(Standing):
    verbs = ("BATTLEBACK", "visszatamad", "battle back")
    usage = "BATTLEBACK [unit] ALWAYS|NEVER|<min dice>"
    example = "BATTLEBACK ALWAYS (or a minimum number of dice, BATTLEBACK 3)"
    key_word = "battleback"
    values = ("always", "never")
    numeric = True


CREATURE_POWERS = ("auto", "web", "poison")


@dataclass(frozen=True)
class Creature(Standing):
    """CREATURE [unit] <choice> [OR <choice> ...]: what a creature does with the Lore it
    rolls (p.24-26): a power (AUTO, WEB, POISON), the rest stored on it, or with TOKEN taken
    as Lore tokens instead (p.24: storing is a choice; p.32: Lore neither used nor stored
    gives a token); STORE or TOKEN alone: no power. The first choice that fits is taken."""

    verbs = ("CREATURE", "leny")
    usage = "CREATURE [unit] AUTO|WEB|POISON [TOKEN]|STORE|TOKEN [OR ...]"
    example = "CREATURE POISON OR WEB TOKEN"
    key_word = "creature"
    values = ("auto", "web", "poison", "store", "token")

    @classmethod
    def parse(cls, t: Tokens) -> Standing:
        words = [fold(x) for x in t.toks[t.i:]]
        unit = ""
        if words and words[0] not in (*cls.values, "or"):
            unit = _unit(t, t.toks[t.i])
            words = words[1:]
        t.i = len(t.toks)
        items, item = [], []
        for w in [*words, "or"]:
            if w != "or":
                item.append(w)
                continue
            ok = (len(item) == 1 and item[0] in cls.values) or (
                len(item) == 2 and item[0] in CREATURE_POWERS and item[1] in ("token", "store"))
            if not ok:
                raise OrderError(_('CREATURE takes [unit] and choices like AUTO, WEB, POISON, WEB '
                                   'TOKEN, STORE or TOKEN joined by OR, not "{words}"; e.g. '
                                   '{example}', words=" ".join(item) or _("nothing"),
                                   example=cls.example))
            items.append(" ".join(x for x in item if not (len(item) == 2 and x == "store")))
            item = []
        return cls(" or ".join(items), unit)


@dataclass(frozen=True)
class React(Order):
    """REACT <card> [ON <unit>|ANY] | REACT ASK | REACT NONE: standing reaction orders."""

    verbs = ("REACT", "reakcio")
    usage = "REACT <Lore card> [ON <unit>|ANY] | REACT ASK | REACT NONE"
    example = "REACT fearless ON N3"
    standing = True
    card: str
    unit: str = "ANY"

    @classmethod
    def parse(cls, t: Tokens) -> React:
        _lore_mode(t)
        words = _words(t)
        if len(words) == 1 and fold(words[0]) in ("ask", "none"):
            return cls(fold(words[0]))
        unit = "ANY"
        if len(words) >= 3 and fold(words[-2]) == "on":
            unit = "ANY" if fold(words[-1]) == "any" else _unit(t, words[-1])
            words = words[:-2]
        if not words:
            raise OrderError(_("REACT needs a Lore card (REACT fearless ON N3), ASK or NONE"))
        return cls(_lore_card(words), unit)

    def __str__(self) -> str:
        if self.card in ("ask", "none"):
            return f"REACT {self.card.upper()}"
        return f"REACT {self.card} ON {self.unit}"


TURN_ORDERS: tuple[type[Order], ...] = (Play, OrderUnits, Move, Rush, Battle, Drill, Free,
                                        Passage, Lore, Replenish, Keep, Discard)
STANDING_ORDERS: tuple[type[Order], ...] = (Ignore, Retreat, Battleback, Creature, React)
GRAMMAR = Grammar([*TURN_ORDERS, Answer, *STANDING_ORDERS, Council, Place])
