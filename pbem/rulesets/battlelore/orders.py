"""The order language: frozen order values with a canonical text, and the parser.

One command per line, verb first; English and Hungarian verbs; card, unit and hex names
case- and accent-insensitive. `parse(str(o)) == o` for every order. The parser checks
what it can see in the state (cards in hand, own and enemy units, hexes); what depends on
dice is checked at resolution, where an order that became illegal is skipped with an event.

Not here: what orders do (turn.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbem.core.names import NameIndex, UnknownName, fold
from pbem.core.orders import OrderLine, Parsed, order_lines

from .board import Hex, hex_name, hex_problem, parse_hex
from .state import data

VERBS = {
    "play": ["kijatsz", "kijátszik", "card"],
    "order": ["parancs", "parancsol"],
    "move": ["lep", "lép", "mozgat"],
    "rush": ["roham", "goblin rush"],
    "battle": ["tamad", "támad", "harc", "attack"],
    "ignore": ["zaszlo", "zászló", "figyelmen kivul"],
    "retreat": ["hatral", "hátrál", "visszavonul"],
    "battleback": ["visszatamad", "visszatámad", "battle back"],
    "answer": ["valasz", "válasz"],
    "lore": ["tudas", "tudás"],
    "react": ["reakcio", "reakció"],
    "replenish": ["potol", "pótol"],
    "keep": ["megtart"],
    "discard": ["eldob"],
    "council": ["tanacs", "tanács", "war council"],
    "place": ["helyez", "lerak"],
    "drill": ["kikepez", "kiképez"],
    "passage": ["jarat", "járat", "secret passage"],
    "free": ["kiszabadit", "kiszabadít"],
    "creature": ["leny", "lény"],
}
VERB_INDEX = NameIndex(VERBS, what="command")
MASTERS = ("commander", "wizard", "cleric", "rogue", "warrior")
MASTER_INDEX = NameIndex({"commander": ["parancsnok"], "wizard": ["varazslo", "varázsló"],
                          "cleric": ["pap"], "rogue": ["szelhamos", "szélhámos"],
                          "warrior": ["harcos"]}, what="master")
REPLENISH = {"cards": "draw 2 Lore cards, keep 1", "card_token": "draw 1 Lore card and take "
             "1 token", "tokens": "take 2 tokens"}


def card_index() -> NameIndex:
    cc = data("command_cards")
    return NameIndex({cid: [c["name"], c["hu"], *c.get("aliases", [])] for cid, c in cc.items()},
                     what="Command card")


def lore_index() -> NameIndex:
    lc = data("lore_cards")["cards"]
    return NameIndex({cid: [c["name"], *c.get("aliases", [])] for cid, c in lc.items()},
                     what="Lore card")


_CARDS: NameIndex | None = None
_LORE: NameIndex | None = None


def cards() -> NameIndex:
    global _CARDS
    if _CARDS is None:
        _CARDS = card_index()
    return _CARDS


def lores() -> NameIndex:
    global _LORE
    if _LORE is None:
        _LORE = lore_index()
    return _LORE


@dataclass(frozen=True)
class Play:
    card: str

    def __str__(self) -> str:
        return f"PLAY {self.card}"


@dataclass(frozen=True)
class Order:
    units: tuple[str, ...]

    def __str__(self) -> str:
        return "ORDER " + " ".join(self.units)


@dataclass(frozen=True)
class Move:
    """MOVE <unit> <hex> [OR <hex> ...] [VIA <hex> ...]: VIA fixes the path (in order)."""

    unit: str
    dests: tuple[Hex, ...]
    via: tuple[Hex, ...] = ()

    def __str__(self) -> str:
        out = f"MOVE {self.unit} " + " OR ".join(hex_name(h) for h in self.dests)
        if self.via:
            out += " VIA " + " ".join(hex_name(h) for h in self.via)
        return out


@dataclass(frozen=True)
class Rush:
    unit: str
    dest: Hex
    target: str

    def __str__(self) -> str:
        return f"RUSH {self.unit} {hex_name(self.dest)} AT {self.target}"


@dataclass(frozen=True)
class Battle:
    """BATTLE <unit> <target> [OR ...] [ANY] [HOLD] [NOPURSUE | PURSUE <hex> [OR <hex>]]
    [STAY] [NOBONUS] [BONUS <enemy> [OR ...]]."""

    unit: str
    targets: tuple[str, ...]
    hold: bool = False
    nopursue: bool = False
    pursue: tuple[Hex, ...] = ()
    nobonus: bool = False
    bonus: tuple[str, ...] = ()
    stay: bool = False

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

    def opts(self) -> dict[str, Any]:
        return {"hold": self.hold, "nopursue": self.nopursue, "nobonus": self.nobonus,
                "pursue": [list(h) for h in self.pursue] or None, "bonus": list(self.bonus),
                "stay": self.stay}


@dataclass(frozen=True)
class Standing:
    """IGNORE/RETREAT/BATTLEBACK/CREATURE standing orders, for all units or one."""

    verb: str
    value: str
    unit: str = ""

    def key(self) -> str:
        return f"{self.verb} {self.unit}" if self.unit else self.verb

    def __str__(self) -> str:
        u = f" {self.unit}" if self.unit else ""
        return f"{self.verb.upper()}{u} {self.value.upper()}"


@dataclass(frozen=True)
class Answer:
    value: str

    def __str__(self) -> str:
        return f"ANSWER {self.value}"


@dataclass(frozen=True)
class Unitcmd:
    """DRILL <unit>, FREE <unit>."""

    verb: str
    unit: str

    def __str__(self) -> str:
        return f"{self.verb.upper()} {self.unit}"


@dataclass(frozen=True)
class Passage:
    unit: str
    dest: Hex

    def __str__(self) -> str:
        return f"PASSAGE {self.unit} {hex_name(self.dest)}"


@dataclass(frozen=True)
class Lore:
    """LORE <card> [ON <unit>] [TO <hex>]: play a Lore card in your own turn."""

    card: str
    unit: str = ""
    hex: Hex | None = None

    def __str__(self) -> str:
        out = f"LORE {self.card}"
        if self.unit:
            out += f" ON {self.unit}"
        if self.hex is not None:
            out += f" TO {hex_name(self.hex)}"
        return out


@dataclass(frozen=True)
class React:
    """REACT <card> [ON <unit>|ANY] | REACT ASK | REACT NONE: standing reaction orders."""

    card: str
    unit: str = "ANY"

    def __str__(self) -> str:
        if self.card in ("ask", "none"):
            return f"REACT {self.card.upper()}"
        return f"REACT {self.card} ON {self.unit}"


@dataclass(frozen=True)
class Replenish:
    choice: str

    def __str__(self) -> str:
        return f"REPLENISH {self.choice.upper()}"


@dataclass(frozen=True)
class Keep:
    """KEEP <lore card> ... (initial deal, draw-2-keep-1); DISCARD <lore card> ...."""

    verb: str
    cards: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.verb.upper()} " + " ".join(self.cards)


@dataclass(frozen=True)
class Council:
    levels: tuple[tuple[str, int], ...]

    def __str__(self) -> str:
        return "COUNCIL " + " ".join(f"{m} {n}" for m, n in self.levels)


@dataclass(frozen=True)
class Place:
    landmark: str
    hexes: tuple[Hex, ...]

    def __str__(self) -> str:
        return f"PLACE {self.landmark} " + " OR ".join(hex_name(h) for h in self.hexes)


class OrderError(ValueError):
    pass


def _hex(tok: str) -> Hex:
    p = hex_problem(tok)
    if p:
        raise OrderError(p)
    h = parse_hex(tok)
    assert h is not None
    return h


def _alts(toks: list[str]) -> list[str]:
    return [t for t in toks if fold(t) != "or"]


class Parser:
    def __init__(self, s: dict[str, Any], seat: str) -> None:
        self.s = s
        self.seat = seat

    def unit(self, tok: str, *, own: bool | None = True) -> str:
        uid = tok.upper()
        known = self.s["units"]
        if uid not in known:
            ids = sorted(known)
            import difflib
            close = difflib.get_close_matches(uid, ids, n=1, cutoff=0.5)
            hint = f'; did you mean "{close[0]}"?' if close else ""
            mine = [i for i in ids if known[i]["owner"] == self.seat]
            raise OrderError(f'"{tok}" is not a unit on the board{hint} (your units: '
                             f'{" ".join(mine) or "none"})')
        if own is True and known[uid]["owner"] != self.seat:
            raise OrderError(f"{uid} is not your unit; name one of yours")
        if own is False and known[uid]["owner"] == self.seat:
            raise OrderError(f"{uid} is your own unit; name an enemy unit")
        return uid

    def parse_line(self, text: str) -> Any:
        toks = text.split()
        verb = None
        for n in (2, 1):  # two-word verbs first ("battle back")
            if len(toks) >= n and VERB_INDEX.get(" ".join(toks[:n])):
                verb, toks = VERB_INDEX.get(" ".join(toks[:n])), toks[n:]
                break
        if verb is None:
            raise OrderError(f'"{toks[0]}" is not a command{VERB_INDEX.suggest(toks[0])}; '
                             f"commands: PLAY, ORDER, MOVE, RUSH, BATTLE, IGNORE, RETREAT, "
                             f"BATTLEBACK, ANSWER, LORE, REACT, REPLENISH, KEEP, DISCARD, "
                             f"COUNCIL, PLACE, DRILL, PASSAGE, FREE, CREATURE")
        return getattr(self, f"p_{verb}")(toks)

    def p_play(self, t: list[str]) -> Play:
        if not t:
            raise OrderError("PLAY needs a Command card, e.g. PLAY scout_centre")
        try:
            cid = cards().lookup(" ".join(t))
        except UnknownName as e:
            raise OrderError(str(e)) from None
        hand = self.s["hands"].get(self.seat, [])
        if cid not in hand:
            raise OrderError(f"{cid} is not in your hand; you hold " + ", ".join(hand))
        return Play(cid)

    def p_order(self, t: list[str]) -> Order:
        if not t:
            raise OrderError("ORDER needs one or more of your units, e.g. ORDER N1 N2")
        return Order(tuple(self.unit(x) for x in t))

    def p_move(self, t: list[str]) -> Move:
        t = [x for x in t if fold(x) != "to"]
        via: tuple[Hex, ...] = ()
        low = [fold(x) for x in t]
        for w in ("via", "at"):
            if w in low:
                k = low.index(w)
                via = tuple(_hex(x) for x in t[k + 1:])
                if not via:
                    raise OrderError("VIA needs the hexes of the path, e.g. MOVE N1 13-5 VIA 12-6")
                t = t[:k]
                break
        if len(t) < 2:
            raise OrderError("MOVE needs a unit and a hex, e.g. MOVE N1 13-5 (fallbacks: OR 12-6; "
                             "a path: VIA 12-6)")
        return Move(self.unit(t[0]), tuple(_hex(x) for x in _alts(t[1:])), via)

    def p_rush(self, t: list[str]) -> Rush:
        if len(t) != 4 or fold(t[2]) != "at":
            raise OrderError("RUSH needs a unit, a hex and a target: RUSH S3 13-5 AT N2")
        return Rush(self.unit(t[0]), _hex(t[1]), self.unit(t[3], own=False))

    def p_battle(self, t: list[str]) -> Battle:
        if len(t) < 2:
            raise OrderError("BATTLE needs a unit and a target, e.g. BATTLE N1 S3 OR ANY")
        unit = self.unit(t[0])
        targets: list[str] = []
        opts: dict[str, Any] = {}
        i = 1
        while i < len(t):
            w = fold(t[i])
            if w == "or":
                pass
            elif w == "any":
                targets.append("ANY")
            elif w == "hold":
                opts["hold"] = True
            elif w == "nopursue":
                opts["nopursue"] = True
            elif w == "nobonus":
                opts["nobonus"] = True
            elif w in ("stay", "marad"):
                opts["stay"] = True
            elif w == "pursue":
                i += 1
                if i >= len(t):
                    raise OrderError("PURSUE needs a hex, e.g. PURSUE 12-6 (fallback: OR 13-5)")
                hexes = [_hex(t[i])]
                while i + 2 < len(t) and fold(t[i + 1]) == "or" and parse_hex(t[i + 2]):
                    hexes.append(_hex(t[i + 2]))
                    i += 2
                opts["pursue"] = tuple(hexes)
            elif w == "bonus":
                opts["bonus"] = tuple(self.unit(x, own=False) for x in _alts(t[i + 1:]))
                break
            else:
                targets.append(self.unit(t[i], own=False))
            i += 1
        if not targets:
            raise OrderError("BATTLE needs at least one target (an enemy unit or ANY)")
        return Battle(unit, tuple(targets), **opts)

    def _standing(self, verb: str, t: list[str], values: tuple[str, ...], ex: str) -> Standing:
        unit = ""
        if len(t) == 2:
            unit, t = self.unit(t[0]), t[1:]
        numeric = verb in ("battleback", "ignore") and t[-1:] != [] and t[-1].isdigit()
        if len(t) != 1 or (fold(t[0]) not in values and not numeric):
            raise OrderError(f"{verb.upper()} takes [unit] " + "|".join(v.upper() for v in values)
                             + f", e.g. {ex}")
        return Standing(verb, fold(t[0]), unit)

    def p_ignore(self, t: list[str]) -> Standing:
        return self._standing("ignore", t, ("all", "none"), "IGNORE ALL (or a number of "
                              "flags, IGNORE N3 1)")

    def p_retreat(self, t: list[str]) -> Standing:
        # RETREAT [unit] <hex> [<hex> ...]: the hexes to retreat through, in order of
        # preference (any step not covered falls back to SAFE)
        if t and parse_hex(t[-1]):
            unit = ""
            if not parse_hex(t[0]):
                unit, t = self.unit(t[0]), t[1:]
            return Standing("retreat", " ".join(hex_name(_hex(x)) for x in t), unit)
        return self._standing("retreat", t, ("safe", "left", "right", "centre"),
                              "RETREAT SAFE (or the hexes to retreat through, RETREAT N3 12-8 "
                              "11-9)")

    def p_battleback(self, t: list[str]) -> Standing:
        return self._standing("battleback", t, ("always", "never"), "BATTLEBACK ALWAYS (or a "
                              "minimum number of dice, BATTLEBACK 3)")

    def p_creature(self, t: list[str]) -> Standing:
        return self._standing("creature", t, ("auto", "web", "poison", "store"), "CREATURE AUTO")

    def p_answer(self, t: list[str]) -> Answer:
        if len(t) != 1:
            raise OrderError("ANSWER takes one word: the hex, number, yes/no or card asked for")
        h = parse_hex(t[0])
        return Answer(hex_name(h) if h else fold(t[0]).replace(" ", "_"))

    def p_drill(self, t: list[str]) -> Unitcmd:
        if len(t) != 1:
            raise OrderError("DRILL needs one unit, e.g. DRILL S4")
        return Unitcmd("drill", self.unit(t[0]))

    def p_free(self, t: list[str]) -> Unitcmd:
        if len(t) != 1:
            raise OrderError("FREE needs one webbed unit, e.g. FREE S4")
        return Unitcmd("free", self.unit(t[0]))

    def p_passage(self, t: list[str]) -> Passage:
        if len(t) != 2:
            raise OrderError("PASSAGE needs a unit and the exit hex, e.g. PASSAGE S4 3-7")
        return Passage(self.unit(t[0]), _hex(t[1]))

    def lore_card(self, words: list[str]) -> str:
        try:
            return lores().lookup(" ".join(words))
        except UnknownName as e:
            raise OrderError(str(e)) from None

    def p_lore(self, t: list[str]) -> Lore:
        if self.s["mode"] != "lore":
            raise OrderError("this is a medieval adventure: there are no Lore cards")
        words: list[str] = []
        unit, h = "", None
        i = 0
        while i < len(t):
            w = fold(t[i])
            if w == "on" and i + 1 < len(t):
                unit = t[i + 1].upper()
                if unit not in self.s["units"]:
                    self.unit(unit, own=None)
                i += 2
                continue
            if w == "to" and i + 1 < len(t):
                h = _hex(t[i + 1])
                i += 2
                continue
            words.append(t[i])
            i += 1
        if not words:
            raise OrderError("LORE needs a Lore card, e.g. LORE bless ON N3")
        cid = self.lore_card(words)
        hand = self.s["lore"]["hands"].get(self.seat, [])
        if cid not in hand:
            raise OrderError(f"{cid} is not in your Lore hand; you hold {', '.join(hand) or 'none'}")
        return Lore(cid, unit, h)

    def p_react(self, t: list[str]) -> React:
        if self.s["mode"] != "lore":
            raise OrderError("this is a medieval adventure: there are no Lore cards")
        if len(t) == 1 and fold(t[0]) in ("ask", "none"):
            return React(fold(t[0]))
        unit = "ANY"
        if len(t) >= 3 and fold(t[-2]) == "on":
            unit = "ANY" if fold(t[-1]) == "any" else self.unit(t[-1])
            t = t[:-2]
        if not t:
            raise OrderError("REACT needs a Lore card (REACT fearless ON N3), ASK or NONE")
        return React(self.lore_card(t), unit)

    def p_replenish(self, t: list[str]) -> Replenish:
        if len(t) != 1 or fold(t[0]).replace(" ", "_") not in REPLENISH:
            raise OrderError("REPLENISH takes CARDS (draw 2 keep 1), CARD_TOKEN (1 card and 1 "
                             "token) or TOKENS (2 tokens)")
        return Replenish(fold(t[0]).replace(" ", "_"))

    def _cards(self, verb: str, t: list[str]) -> Keep:
        if not t:
            raise OrderError(f"{verb.upper()} needs Lore card names")
        return Keep(verb, tuple(self.lore_card([x]) for x in t))

    def p_keep(self, t: list[str]) -> Keep:
        return self._cards("keep", t)

    def p_discard(self, t: list[str]) -> Keep:
        return self._cards("discard", t)

    def p_council(self, t: list[str]) -> Council:
        if not t or len(t) % 2:
            raise OrderError("COUNCIL takes master-level pairs, e.g. COUNCIL commander 2 wizard 3")
        out = []
        for m, n in zip(t[::2], t[1::2], strict=True):
            try:
                mid = MASTER_INDEX.lookup(m)
            except UnknownName as e:
                raise OrderError(str(e)) from None
            if not n.isdigit() or not 1 <= int(n) <= 3:
                raise OrderError(f"a master's level is 1, 2 or 3, not {n}")
            out.append((mid, int(n)))
        if len({m for m, _ in out}) != len(out):
            raise OrderError("a master is named twice")
        return Council(tuple(sorted(out, key=lambda x: MASTERS.index(x[0]))))

    def p_place(self, t: list[str]) -> Place:
        kinds = ("pentagram", "hideout", "training_camp", "healing_spring", "stronghold")
        if len(t) < 2 or fold(t[0]).replace(" ", "_") not in kinds:
            raise OrderError("PLACE takes a landmark (" + ", ".join(kinds) + ") and a hex")
        return Place(fold(t[0]).replace(" ", "_"), tuple(_hex(x) for x in _alts(t[1:])))


def parse_text(s: dict[str, Any], seat: str, text: str) -> Parsed:
    p = Parser(s, seat)
    lines = []
    for no, line in order_lines(text):
        try:
            lines.append(OrderLine(no, line, p.parse_line(line)))
        except OrderError as e:
            lines.append(OrderLine(no, line, None, str(e)))
    return Parsed.of(lines)
