"""The lenient line parser of the Macht & Ohnmacht order language.

Verbs come first; English and Hungarian aliases; region, symbol and tile names are
accent- and case-insensitive (NameIndex). The parser checks form and names only; whether
an order is legal is decided when it is reached at resolution (a command that has become
illegal then is skipped with an event). Errors say what is wrong and what would be right.
Not here: the order values (orders.py), which lines a step accepts (rules.py `parse`).
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from pbem.core.names import NameIndex, UnknownName, fold

from . import board
from .orders import (
    ACTIONS,
    BidAnswer,
    Cancel,
    Clear,
    Decline,
    Effect,
    If,
    Order,
    Pass,
    Place,
    PlayInfluence,
    PlayMovement,
    PlayRecruit,
    PlaySea,
    PlayStrength,
    Rebel,
    Recruit,
    RetreatPref,
    SerpentNever,
    SerpentRule,
    StandingBid,
    Swap,
    Take,
)


class OrderError(ValueError):
    """A line that does not parse; the message says what is wrong and what would be right."""


# --- vocabulary ---------------------------------------------------------------------------

_VERBS = {
    "TAKE": ["take", "vesz", "elvesz", "elvetel"],
    "PLACE": ["place", "felrak", "lerak", "rak"],
    "RECRUIT": ["recruit", "toboroz", "toborzas"],
    "PLAY": ["play", "kijatsz", "kijatszik", "jatszik"],
    "BID": ["bid", "licit", "licital"],
    "SERPENT": ["serpent", "kigyo", "snake"],
    "RETREAT": ["retreat", "visszavonul", "visszavonulas"],
    "CANCEL": ["cancel", "semlegesit", "semlegesites"],
    "PASS": ["pass", "passz"],
    "CLEAR": ["clear", "torol", "torles"],
    "REBEL": ["rebel", "lazadas", "lazit"],
    "SWAP": ["swap", "csere", "cserel"],
    "DECLINE": ["decline", "elutasit"],
    "IF": ["if", "ha"],
}
_WORDS = {
    "IFWIN": ["ifwin", "if win", "hanyer", "ha nyer"],
    "BOLSTER": ["bolster", "erosit", "erosites"],
    "SEIZE": ["seize", "megszerez", "megszerzes"],
    "RECRUIT": ["recruit", "toboroz", "toborzas"],
    "NOPLACE": ["noplace", "no place", "nemrak", "nem rak"],
    "SURE": ["sure", "biztos"],
    "BACK": ["back", "vissza"],
    "TO": ["to", "ide", "oda"],
    "NEXT": ["next", "kovetkezo"],
    "EVERY": ["every", "minden", "mindig"],
    "NEVER": ["never", "soha"],
    "NOT": ["not", "nem"],
    "HOLD": ["hold", "holds", "iranyit", "birtokol"],
    "HOURGLASS": ["hourglass", "cubes", "homokora", "kocka"],
    "THEN": ["then", "akkor"],
    "MAGES": ["mages", "mage", "magus", "magusok", "m"],
    "KNIGHTS": ["knights", "knight", "lovag", "lovagok", "k", "l"],
}
_VERB = {fold(a): k for k, v in _VERBS.items() for a in v}
_WORD = {fold(a): k for k, v in _WORDS.items() for a in v}
_KIND_ALIASES = {
    "movement": ["move", "mozgas", "mozgo"],
    "sea": ["sea voyage", "voyage", "ship", "hajozas", "hajo"],
    "merlin": [],
    "serpent": ["snake", "kigyo"],
    "vp": ["victory", "victory point", "gyozelmi pont", "pont", "gyp"],
    "rebellion": ["revolt", "rebel", "lazadas"],
    "swap": ["marker swap", "csere", "regiojelzo csere", "jelzocsere"],
}
_STRENGTH = ("strength", "ero", "ero lapka")
UNIT_PREFS = ("active", "passive", "mage", "knight", "none")
_UNIT_PREF = {"active": "active", "aktiv": "active", "passive": "passive", "passziv": "passive",
              "mage": "mage", "magus": "mage", "knight": "knight", "lovag": "knight",
              "none": "none", "nothing": "none", "semmi": "none"}
_CLEARABLE = {"bid": "bid", "licit": "bid", "serpent": "serpent", "kigyo": "serpent",
              "retreat": "retreat", "visszavonulas": "retreat", "visszavonul": "retreat"}
_COUNT = re.compile(r"^(\d+)([kml])$")


@cache
def symbol_index() -> NameIndex:
    aliases = {s["id"]: [s["name"], s["hu"], *s.get("aliases", [])]
               for s in board.components()["symbol"]}
    return NameIndex(aliases, what="region marker symbol")


@cache
def tile_index() -> NameIndex:
    aliases: dict[str, list[str]] = {}
    for ttype in board.tile_types():
        if ttype in board.symbols():
            s = board.symbol_info()[ttype]
            aliases[ttype] = [s["name"], s["hu"], *s.get("aliases", []),
                              f"{ttype} influence", f"befolyas {s['hu']}"]
        elif ttype.startswith("strength-"):
            s = board.symbol_info()[ttype.split("-", 1)[1]]
            names = [s["id"], s["name"], s["hu"], *s.get("aliases", [])]
            aliases[ttype] = [f"{st} {n}" for st in _STRENGTH for n in names]
        else:
            aliases[ttype] = _KIND_ALIASES.get(ttype, [])
    return NameIndex(aliases, what="action tile")


def region_index(state: dict[str, Any]) -> NameIndex:
    key = tuple(sorted(state["map"]))
    cached = _REGION_CACHE.get(key)
    if cached is None:
        cached = NameIndex({rid: [info["name"], *info.get("aliases", [])]
                            for rid, info in state["map"].items()}, what="region")
        _REGION_CACHE[key] = cached
    return cached


_REGION_CACHE: dict[tuple[str, ...], NameIndex] = {}


# --- the parser ----------------------------------------------------------------------------

class _Tokens:
    def __init__(self, state: dict[str, Any], text: str) -> None:
        self.state = state
        self.toks = text.split()
        self.i = 0

    def more(self) -> bool:
        return self.i < len(self.toks)

    def peek(self) -> str | None:
        return self.toks[self.i] if self.more() else None

    def next(self, what: str) -> str:
        if not self.more():
            raise OrderError(f"the line ends where {what} should follow")
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def word(self) -> str | None:
        """The keyword at the cursor (folded to its canonical form), without consuming."""
        tok = self.peek()
        return _WORD.get(fold(tok)) if tok is not None else None

    def take_word(self, *words: str) -> str | None:
        w = self.word()
        if w in words:
            self.i += 1
            return w
        return None

    def region(self) -> str:
        tok = self.next("a region")
        try:
            return region_index(self.state).lookup(tok)
        except UnknownName as exc:
            raise OrderError(str(exc).replace("unknown region", "no region is called", 1)
                             + "; regions are named by id or name, e.g. "
                             + f'"{sorted(self.state["map"])[0]}"') from None

    def symbol(self) -> str:
        tok = self.next("a region marker symbol (castle, helmet, tent or key)")
        try:
            return symbol_index().lookup(tok)
        except UnknownName as exc:
            raise OrderError(f"{exc}; symbols are castle, helmet, tent, key") from None

    def tile(self) -> str:
        tok = self.next("an action tile")
        if fold(tok) in _STRENGTH and self.more():
            nxt = symbol_index().get(self.toks[self.i])
            if nxt is not None:
                self.i += 1
                return f"strength-{nxt}"
        try:
            return tile_index().lookup(tok)
        except UnknownName as exc:
            raise OrderError(f"{exc}; tiles are castle, helmet, tent, key, "
                             "strength-<symbol>, movement, sea, merlin, serpent, vp, "
                             "rebellion, swap") from None

    def int(self, what: str) -> int:
        tok = self.next(what)
        if not tok.isdigit():
            raise OrderError(f'"{tok}" is not a number; {what} is a whole number like 2')
        return int(tok)

    def counts(self) -> tuple[int, int]:
        """Unit counts like `2K 1M` (K or L = knights, M = mages); missing ones are 0."""
        k = m = 0
        seen = False
        while self.more():
            match = _COUNT.match(fold(self.toks[self.i]))
            if not match:
                break
            self.i += 1
            seen = True
            n = int(match.group(1))
            if match.group(2) == "m":
                m += n
            else:
                k += n
        if not seen:
            raise OrderError("unit counts are missing; write them like 2K 1M "
                             "(K = knights, M = mages)")
        return k, m

    def done(self) -> None:
        if self.more():
            raise OrderError(f'unexpected "{" ".join(self.toks[self.i:])}" at the end of the line')


def parse_line(state: dict[str, Any], text: str) -> Order:
    """One order from one line; raises OrderError naming the problem and the fix."""
    tk = _Tokens(state, text)
    head = tk.next("a command")
    verb = _VERB.get(fold(head))
    if verb is None:
        close = [v for v in _VERBS if fold(head)[:3] == v.lower()[:3]]
        hint = f'; did you mean "{close[0]}"?' if close else ""
        raise OrderError(f'"{head}" is not a command{hint} Commands: TAKE, PLACE, RECRUIT, '
                         "PLAY, BID, SERPENT, RETREAT, CANCEL, PASS, REBEL, SWAP, DECLINE, "
                         "CLEAR, IF")
    order = _PARSERS[verb](tk)
    tk.done()
    return order


def _effect(tk: _Tokens) -> Effect:
    tok = tk.next("REBEL, SWAP or DECLINE")
    verb = _VERB.get(fold(tok))
    if verb == "REBEL":
        return _rebel(tk)
    if verb == "SWAP":
        return _swap(tk)
    if verb == "DECLINE":
        return Decline()
    raise OrderError(f'"{tok}" is not an effect; after IFWIN write REBEL <region> <n>K <n>M, '
                     "SWAP <region> <symbol> or DECLINE")


def _rebel(tk: _Tokens) -> Rebel:
    region = tk.region()
    if not tk.more():
        raise OrderError(f"say which units to remove, e.g. REBEL {region} 1K 1M (at most 2)")
    k, m = tk.counts()
    if k + m > 2:
        raise OrderError(f"a rebellion removes at most 2 units, not {k + m}; e.g. 1K 1M")
    return Rebel(region, k, m)


def _swap(tk: _Tokens) -> Swap:
    return Swap(tk.region(), tk.symbol())


def _maybe_ifwin(tk: _Tokens) -> Effect | None:
    if tk.take_word("IFWIN"):
        return _effect(tk)
    return None


def _take(tk: _Tokens) -> Take:
    tile = tk.tile()
    bid = None
    if tk.more() and _VERB.get(fold(tk.peek() or "")) == "BID":
        tk.i += 1
        bid = tk.int("the bid")
    ifwin = _maybe_ifwin(tk)
    lightning = board.type_info(tile)["lightning"]
    if not lightning and (bid is not None or ifwin is not None):
        raise OrderError(f"{board.tile_name(tile)} is not a lightning tile and is not "
                         "auctioned; write just TAKE " + tile)
    if tile == "vp" and ifwin is not None:
        raise OrderError("the victory point tile has no choice to make; drop IFWIN")
    _check_effect_kind(tile, ifwin)
    return Take(tile, bid, ifwin)


def _check_effect_kind(tile: str, ifwin: Effect | None) -> None:
    if isinstance(ifwin, Rebel) and tile == "swap":
        raise OrderError("REBEL is the rebellion's effect; for a marker swap write SWAP")
    if isinstance(ifwin, Swap) and tile == "rebellion":
        raise OrderError("SWAP is the marker swap's effect; for a rebellion write REBEL")


def _play(tk: _Tokens) -> Order:
    tile = tk.tile()
    info = board.type_info(tile)
    kind = info["kind"]
    if info["lightning"]:
        raise OrderError(f"{board.tile_name(tile)} is auctioned when taken and never played; "
                         f"write TAKE {tile} BID <n>")
    if tk.take_word("RECRUIT"):
        if kind == "influence":
            raise OrderError("influence tiles have no recruit strip; play them with "
                             f"BOLSTER or SEIZE, e.g. PLAY {tile} SEIZE <region>")
        choice = None
        if info["recruit"] == "choice2":
            w = tk.take_word("MAGES", "KNIGHTS")
            if w is None:
                raise OrderError(f"{board.tile_name(tile)} recruits 2 knights or 2 mages; "
                                 f"write PLAY {tile} RECRUIT KNIGHTS or ... RECRUIT MAGES")
            choice = "mage" if w == "MAGES" else "knight"
        return PlayRecruit(tile, choice)
    if kind in ("influence", "merlin"):
        symbol = info["symbol"] if kind == "influence" else tk.symbol()
        mode = tk.take_word("BOLSTER", "SEIZE")
        if mode is None:
            raise OrderError(f"say how the tile is played: PLAY {tile}"
                             f"{' ' + symbol if kind == 'merlin' else ''} BOLSTER <region> or "
                             "... SEIZE <region>" + (" or RECRUIT KNIGHTS|MAGES"
                                                      if kind == "merlin" else ""))
        region = tk.region()
        place, sure = True, False
        while mode == "SEIZE" and tk.more():
            w = tk.take_word("NOPLACE", "SURE")
            if w is None:
                break
            place = place and w != "NOPLACE"
            sure = sure or w == "SURE"
        return PlayInfluence(tile, symbol, mode, region, place, sure)
    if kind == "strength":
        return PlayStrength(info["symbol"])
    if kind == "movement":
        a, b = tk.region(), tk.region()
        if a == b:
            raise OrderError("movement needs two different regions")
        k = m = bk = bm = 0
        if tk.more() and tk.word() != "BACK":
            k, m = tk.counts()
        if tk.take_word("BACK"):
            bk, bm = tk.counts()
        if k + m + bk + bm == 0:
            raise OrderError(f"movement moves at least one unit; e.g. PLAY movement {a} {b} "
                             "1K 0M BACK 0K 1M")
        return PlayMovement(a, b, k, m, bk, bm)
    if kind == "sea":
        a, b = tk.region(), tk.region()
        if a == b:
            raise OrderError("a sea voyage goes to another region")
        k, m = tk.counts()
        if k + m == 0:
            raise OrderError(f"a sea voyage moves at least one unit; e.g. PLAY sea {a} {b} 1K 0M")
        return PlaySea(a, b, k, m)
    if kind == "serpent":
        raise OrderError("a serpent is played in your opponent's turn (CANCEL, or a standing "
                         "SERPENT order) or in your own turn as PLAY serpent RECRUIT "
                         "KNIGHTS|MAGES")
    raise OrderError(f"{board.tile_name(tile)} cannot be played")  # pragma: no cover


def _bid(tk: _Tokens) -> Order:
    tok = tk.peek()
    if tok is not None and not tok.isdigit():
        tile = tk.tile() if fold(tok) not in ("any", "barmely", "minden") else None
        if tile is None:
            tk.i += 1
            tile = "any"
        elif not board.type_info(tile)["lightning"]:
            raise OrderError(f"{board.tile_name(tile)} is not auctioned; a standing bid names "
                             "vp, rebellion, swap or any")
        n = tk.int("the bid")
        ifwin = _maybe_ifwin(tk)
        if tile == "vp" and ifwin is not None:
            raise OrderError("the victory point tile has no choice to make; drop IFWIN")
        if tile == "any" and isinstance(ifwin, Rebel | Swap):
            raise OrderError("BID any cannot carry REBEL or SWAP; name the tile: "
                             "BID rebellion <n> IFWIN REBEL ... or BID swap <n> IFWIN SWAP ...")
        _check_effect_kind(tile, ifwin)
        return StandingBid(tile, n, ifwin)
    n = tk.int("the bid")
    return BidAnswer(n, _maybe_ifwin(tk))


def _serpent(tk: _Tokens) -> Order:
    if tk.take_word("NEVER"):
        return SerpentNever()
    when = tk.take_word("NEXT", "EVERY")
    if when is None:
        raise OrderError("write SERPENT NEXT <what> [region], SERPENT EVERY <what> [region] "
                         "or SERPENT NEVER; <what> is a tile type, seize, bolster or any")
    tok = tk.next("what to cancel (a tile type, seize, bolster or any)")
    f = fold(tok)
    what: str
    if f in ("seize", "megszerzes", "megszerez"):
        what = "seize"
    elif f in ("bolster", "erosites", "erosit"):
        what = "bolster"
    elif f in ("any", "barmely", "minden"):
        what = "any"
    else:
        tk.i -= 1
        what = tk.tile()
        if board.type_info(what)["lightning"] or what == "serpent":
            raise OrderError(f"{board.tile_name(what)} is never played in action D, so a "
                             "serpent cannot cancel it")
    region = tk.region() if tk.more() else None
    return SerpentRule(when, what, region)


def _retreat(tk: _Tokens) -> RetreatPref:
    tok = tk.next("which unit to save (active, passive, mage, knight or none)")
    unit = _UNIT_PREF.get(fold(tok))
    if unit is None:
        raise OrderError(f'"{tok}" is not a unit choice; write active, passive, mage, knight '
                         "or none")
    to: list[str] = []
    if tk.take_word("TO"):
        while tk.more():
            to.append(tk.region())
        if not to:
            raise OrderError("TO needs at least one region")
    if unit == "none" and to:
        raise OrderError("RETREAT none saves no unit, so it takes no TO list")
    return RetreatPref(unit, tuple(to))


def _clear(tk: _Tokens) -> Clear:
    tok = tk.next("bid, serpent or retreat")
    what = _CLEARABLE.get(fold(tok))
    if what is None:
        raise OrderError(f'"{tok}" cannot be cleared; write CLEAR bid, CLEAR serpent or '
                         "CLEAR retreat")
    return Clear(what)


def _if(tk: _Tokens) -> If:
    neg = tk.take_word("NOT") is not None
    what = tk.take_word("HOLD", "HOURGLASS")
    if what is None:
        raise OrderError("write IF HOLD <region> THEN <order>, IF NOT HOLD <region> THEN "
                         "<order> or IF HOURGLASS >= <n> THEN <order> (also <= and =)")
    if what == "HOLD":
        test, arg = ("NOT HOLD" if neg else "HOLD"), tk.region()
    else:
        if neg:
            raise OrderError("NOT goes with HOLD only; for the hourglass use >=, <= or =")
        op = tk.next("a comparison (>=, <= or =)")
        if op not in (">=", "<=", "="):
            raise OrderError(f'"{op}" is not a comparison; write >=, <= or =')
        test, arg = f"HOURGLASS {op}", str(tk.int("the number of cubes"))
    if not tk.take_word("THEN"):
        raise OrderError("the condition is followed by THEN and an order, e.g. "
                         "IF HOLD mer THEN PLACE mer")
    rest = " ".join(tk.toks[tk.i:])
    tk.i = len(tk.toks)
    if not rest:
        raise OrderError("THEN needs an order after it")
    order = parse_line(tk.state, rest)
    if not isinstance(order, ACTIONS) or isinstance(order, If):
        raise OrderError(f"IF ... THEN takes an action (TAKE, PLACE, RECRUIT, PLAY), not {rest}")
    return If(test, arg, order)


_PARSERS = {
    "TAKE": _take,
    "PLACE": lambda tk: Place(tk.region()),
    "RECRUIT": lambda tk: Recruit(),
    "PLAY": _play,
    "BID": _bid,
    "SERPENT": _serpent,
    "RETREAT": _retreat,
    "CANCEL": lambda tk: Cancel(),
    "PASS": lambda tk: Pass(),
    "CLEAR": _clear,
    "REBEL": _rebel,
    "SWAP": _swap,
    "DECLINE": lambda tk: Decline(),
    "IF": _if,
}
