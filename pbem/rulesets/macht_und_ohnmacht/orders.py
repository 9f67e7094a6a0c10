"""The order language of Macht & Ohnmacht: one order type per command, on the kit's grammar.

Verbs first, English and the rulebook's Hungarian; region, symbol and tile names are
accent- and case-insensitive with did-you-mean. `str(order)` is the canonical line and
`GRAMMAR.parse_line(state, seat, str(order)) == order`. Each type's `check(state, seat)`
judges a line on arrival against the position as it stands (a refusal, or a `Note` when
the line may still work out). See docs/rulesets/macht-und-ohnmacht.md for the language.

Not here: carrying orders out (rules/), which step accepts which type (ruleset.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from pbem.core.i18n import _
from pbem.core.kit import Grammar, Order, Tokens
from pbem.core.names import NameIndex, fold

from . import data

# --- names ----------------------------------------------------------------------------------

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
_ANY = ("any", "barmely", "minden")
_COUNT = re.compile(r"^(\d+)([kml])$")


@cache
def symbol_index() -> NameIndex:
    aliases = {s["id"]: [s["name"], s["hu"], *s.get("aliases", [])]
               for s in data.components()["symbol"]}
    return NameIndex(aliases, what=_("region marker symbol"))


@cache
def tile_index() -> NameIndex:
    aliases: dict[str, list[str]] = {}
    for ttype in data.tile_types():
        if ttype in data.symbols():
            s = data.symbol_info()[ttype]
            aliases[ttype] = [s["name"], s["hu"], *s.get("aliases", []),
                              f"{ttype} influence", f"befolyas {s['hu']}"]
        elif ttype.startswith("strength-"):
            s = data.symbol_info()[ttype.split("-", 1)[1]]
            names = [s["id"], s["name"], s["hu"], *s.get("aliases", [])]
            aliases[ttype] = [f"{st} {n}" for st in _STRENGTH for n in names]
        else:
            aliases[ttype] = _KIND_ALIASES.get(ttype, [])
    return NameIndex(aliases, what=_("action tile"))


_REGION_INDEXES: dict[tuple[str, ...], NameIndex] = {}


def region_index(state: Any) -> NameIndex:
    """The regions of the state's map (test maps differ from the standard one)."""
    key = tuple(sorted(state["map"]))
    index = _REGION_INDEXES.get(key)
    if index is None:
        index = NameIndex({rid: [info["name"], *info.get("aliases", [])]
                           for rid, info in state["map"].items()}, what=_("region"))
        _REGION_INDEXES[key] = index
    return index


def _region(t: Tokens) -> str:
    return t.name(region_index(t.state), _("a region"))


def _symbol(t: Tokens) -> str:
    return t.name(symbol_index(), _("a region marker symbol (castle, helmet, tent or key)"))


def _tile(t: Tokens) -> str:
    return t.name(tile_index(), _("an action tile"))


def _counts(t: Tokens) -> tuple[int, int]:
    """Unit counts like `2K 1M` (K or L = knights, M = mages); a missing one is 0."""
    k = m = 0
    seen = False
    while t.more():
        match = _COUNT.match(fold(t.peek() or ""))
        if not match:
            break
        t.i += 1
        seen = True
        if match.group(2) == "m":
            m += int(match.group(1))
        else:
            k += int(match.group(1))
    if not seen:
        raise t.error(_("unit counts are missing; write them like 2K 1M (K = knights, M = "
                        "mages)"))
    return k, m


# --- lightning effects (after IFWIN, in a standing bid, or as the answer to an effect) --------

@dataclass(frozen=True)
class Rebel(Order):
    """REBELLION won: remove up to 2 of the opponent's units from one of his regions."""
    verbs = ("REBEL", "lazadas", "lazit")
    usage = "REBEL <region> <n>K <n>M (at most 2 units)"
    example = "REBEL mer 1K 1M"
    region: str
    knights: int
    mages: int

    @classmethod
    def parse(cls, t: Tokens) -> Rebel:
        region = _region(t)
        if not t.more():
            raise t.error(_("say which units to remove, e.g. REBEL {region} 1K 1M (at most 2)",
                            region=region))
        k, m = _counts(t)
        if k + m > 2:
            raise t.error(_("a rebellion removes at most 2 units, not {n}; e.g. 1K 1M", n=k + m))
        return cls(region, k, m)

    def __str__(self) -> str:
        return f"REBEL {self.region} {self.knights}K {self.mages}M"


@dataclass(frozen=True)
class Swap(Order):
    """MARKER SWAP won: put a set-aside marker on a region; its marker is set aside."""
    verbs = ("SWAP", "csere", "cserel")
    usage = "SWAP <region> <set-aside symbol>"
    example = "SWAP mer tent"
    region: str
    marker: str

    @classmethod
    def parse(cls, t: Tokens) -> Swap:
        return cls(_region(t), _symbol(t))

    def __str__(self) -> str:
        return f"SWAP {self.region} {self.marker}"


@dataclass(frozen=True)
class Decline(Order):
    """A won marker swap (or rebellion) does nothing."""
    verbs = ("DECLINE", "elutasit")
    usage = "DECLINE"

    @classmethod
    def parse(cls, t: Tokens) -> Decline:
        return cls()

    def __str__(self) -> str:
        return "DECLINE"


Effect = Rebel | Swap | Decline
EFFECTS = (Rebel, Swap, Decline)


def _ifwin(t: Tokens, tile: str) -> Effect | None:
    """`IFWIN <effect>` at the end of a bid, checked against the auctioned tile type."""
    if not t.take_word("IFWIN"):
        return None
    cls, _n = t.grammar.order_type(t.toks[t.i:])
    if cls not in EFFECTS:
        got = t.peek() or "nothing"
        raise t.error(_('"{got}" is not an effect; after IFWIN write REBEL <region> <n>K <n>M, '
                        "SWAP <region> <symbol> or DECLINE", got=got))
    effect = t.sub_order(EFFECTS)
    assert isinstance(effect, Rebel | Swap | Decline)
    if tile == "vp":
        raise t.error(_("the victory point tile has no choice to make; drop IFWIN"))
    if isinstance(effect, Rebel) and tile == "swap":
        raise t.error(_("REBEL is the rebellion's effect; for a marker swap write SWAP"))
    if isinstance(effect, Swap) and tile == "rebellion":
        raise t.error(_("SWAP is the marker swap's effect; for a rebellion write REBEL"))
    if tile == "any" and isinstance(effect, Rebel | Swap):
        raise t.error(_("BID any cannot carry REBEL or SWAP; name the tile: BID rebellion <n> "
                        "IFWIN REBEL ... or BID swap <n> IFWIN SWAP ..."))
    return effect


def _with_ifwin(effect: Effect | None) -> str:
    return f" IFWIN {effect}" if effect is not None else ""


# --- actions: the active seat's turn script ---------------------------------------------------

@dataclass(frozen=True)
class Take(Order):
    """Action A: take a tile type from the display; a lightning tile is auctioned at once,
    with this sealed bid and what to do if you win."""
    verbs = ("TAKE", "vesz", "elvesz", "elvetel")
    usage = "TAKE <tile> [BID <n>] [IFWIN <effect>]"
    example = "TAKE rebellion BID 2 IFWIN REBEL mer 1K 1M"
    tile: str
    bid: int | None = None
    ifwin: Effect | None = None

    @classmethod
    def parse(cls, t: Tokens) -> Take:
        tile = _tile(t)
        bid = t.int(_("the bid")) if t.take_word("BID") else None
        lightning = data.type_info(tile)["lightning"]
        if not lightning and (bid is not None or t.word() == "IFWIN"):
            raise t.error(_("{name} is not a lightning tile and is not auctioned; write just "
                            "TAKE {tile}", name=data.tile_name(tile), tile=tile))
        return cls(tile, bid, _ifwin(t, tile))

    def __str__(self) -> str:
        bid = f" BID {self.bid}" if self.bid is not None else ""
        return f"TAKE {self.tile}{bid}{_with_ifwin(self.ifwin)}"


@dataclass(frozen=True)
class Place(Order):
    """Action B: one active unit from reserve onto an empty or own region (<= 3 units)."""
    verbs = ("PLACE", "felrak", "lerak", "rak")
    usage = "PLACE <region>"
    example = "PLACE mer"
    region: str

    @classmethod
    def parse(cls, t: Tokens) -> Place:
        return cls(_region(t))

    def __str__(self) -> str:
        return f"PLACE {self.region}"


@dataclass(frozen=True)
class Recruit(Order):
    """Action C: 2 passive units from stock to reserve (3 for the cycle's first)."""
    verbs = ("RECRUIT", "toboroz", "toborzas")
    usage = "RECRUIT"

    @classmethod
    def parse(cls, t: Tokens) -> Recruit:
        return cls()

    def __str__(self) -> str:
        return "RECRUIT"


class Play(Order):
    """Action D: play a held tile (consecutive PLAY lines are one action D). The line parses
    into one of the tile modes below."""
    verbs = ("PLAY", "kijatsz", "kijatszik", "jatszik")
    usage = "PLAY <tile> ..."
    example = "PLAY castle SEIZE mer"

    @property
    def tile_type(self) -> str:
        """The tile type the play spends."""
        raise NotImplementedError

    @classmethod
    def parse(cls, t: Tokens) -> Play:
        tile = _tile(t)
        info = data.type_info(tile)
        kind = info["kind"]
        if info["lightning"]:
            raise t.error(_("{name} is auctioned when taken and never played; write TAKE {tile} "
                            "BID <n>", name=data.tile_name(tile), tile=tile))
        if t.take_word("RECRUIT"):
            return PlayRecruit.parse_rest(t, tile)
        if kind in ("influence", "merlin"):
            return PlayInfluence.parse_rest(t, tile)
        if kind == "strength":
            return PlayStrength(info["symbol"])
        if kind == "movement":
            return PlayMovement.parse_rest(t)
        if kind == "sea":
            return PlaySea.parse_rest(t)
        raise t.error(_("a serpent is played in your opponent's turn (CANCEL, or a standing "
                        "SERPENT order) or in your own turn as PLAY serpent RECRUIT "
                        "KNIGHTS|MAGES"))


@dataclass(frozen=True)
class PlayInfluence(Play):
    """An influence tile (or Merlin as any symbol): BOLSTER or SEIZE a region with its
    marker. SEIZE flags: NOPLACE (leave the won region empty), SURE (play only if the
    count wins)."""
    tile: str  # a symbol, or "merlin"
    symbol: str
    mode: str  # BOLSTER | SEIZE
    region: str
    place: bool = True
    sure: bool = False

    @property
    def tile_type(self) -> str:
        return self.tile

    @classmethod
    def parse_rest(cls, t: Tokens, tile: str) -> PlayInfluence:
        merlin = tile == "merlin"
        symbol = _symbol(t) if merlin else str(data.type_info(tile)["symbol"])
        mode = t.take_word("BOLSTER", "SEIZE")
        if mode is None:
            head = f"PLAY {tile} {symbol}" if merlin else f"PLAY {tile}"
            raise t.error(_("say how the tile is played: {head} BOLSTER <region> or ... SEIZE "
                            "<region> or RECRUIT KNIGHTS|MAGES", head=head) if merlin else
                          _("say how the tile is played: {head} BOLSTER <region> or ... SEIZE "
                            "<region>", head=head))
        region = _region(t)
        place, sure = True, False
        while mode == "SEIZE" and t.more():
            flag = t.take_word("NOPLACE", "SURE")
            if flag is None:
                break
            place = place and flag != "NOPLACE"
            sure = sure or flag == "SURE"
        return cls(tile, symbol, mode, region, place, sure)

    def __str__(self) -> str:
        head = f"PLAY merlin {self.symbol}" if self.tile == "merlin" else f"PLAY {self.tile}"
        flags = ("" if self.place else " NOPLACE") + (" SURE" if self.sure else "")
        return f"{head} {self.mode} {self.region}{flags if self.mode == 'SEIZE' else ''}"


@dataclass(frozen=True)
class PlayStrength(Play):
    """A strength tile: +1 in seizes of its symbol for the rest of the cycle."""
    symbol: str

    @property
    def tile_type(self) -> str:
        return f"strength-{self.symbol}"

    def __str__(self) -> str:
        return f"PLAY strength-{self.symbol}"


@dataclass(frozen=True)
class PlayMovement(Play):
    """A movement tile: own units both ways between two adjacent regions."""
    a: str
    b: str
    knights: int = 0
    mages: int = 0
    back_knights: int = 0
    back_mages: int = 0

    @property
    def tile_type(self) -> str:
        return "movement"

    @classmethod
    def parse_rest(cls, t: Tokens) -> PlayMovement:
        a, b = _region(t), _region(t)
        if a == b:
            raise t.error(_("movement needs two different regions"))
        k = m = bk = bm = 0
        if t.more() and t.word() != "BACK":
            k, m = _counts(t)
        if t.take_word("BACK"):
            bk, bm = _counts(t)
        if k + m + bk + bm == 0:
            raise t.error(_("movement moves at least one unit; e.g. PLAY movement {a} {b} 1K 0M "
                            "BACK 0K 1M", a=a, b=b))
        return cls(a, b, k, m, bk, bm)

    def __str__(self) -> str:
        return (f"PLAY movement {self.a} {self.b} {self.knights}K {self.mages}M"
                f" BACK {self.back_knights}K {self.back_mages}M")


@dataclass(frozen=True)
class PlaySea(Play):
    """A sea voyage: own units one way from a coastal region to any empty or own one."""
    src: str
    dst: str
    knights: int = 0
    mages: int = 0

    @property
    def tile_type(self) -> str:
        return "sea"

    @classmethod
    def parse_rest(cls, t: Tokens) -> PlaySea:
        a, b = _region(t), _region(t)
        if a == b:
            raise t.error(_("a sea voyage goes to another region"))
        k, m = _counts(t)
        if k + m == 0:
            raise t.error(_("a sea voyage moves at least one unit; e.g. PLAY sea {a} {b} 1K 0M",
                            a=a, b=b))
        return cls(a, b, k, m)

    def __str__(self) -> str:
        return f"PLAY sea {self.src} {self.dst} {self.knights}K {self.mages}M"


@dataclass(frozen=True)
class PlayRecruit(Play):
    """A strength, movement, sea, Merlin or serpent tile used for its recruit strip."""
    tile: str
    choice: str | None = None  # "knight" | "mage" for Merlin and serpent

    @property
    def tile_type(self) -> str:
        return self.tile

    @classmethod
    def parse_rest(cls, t: Tokens, tile: str) -> PlayRecruit:
        info = data.type_info(tile)
        if info["kind"] == "influence":
            raise t.error(_("influence tiles have no recruit strip; play them with BOLSTER or "
                            "SEIZE, e.g. PLAY {tile} SEIZE <region>", tile=tile))
        if info["recruit"] != "choice2":
            return cls(tile)
        word = t.take_word("MAGES", "KNIGHTS")
        if word is None:
            raise t.error(_("{name} recruits 2 knights or 2 mages; write PLAY {tile} RECRUIT "
                            "KNIGHTS or ... RECRUIT MAGES", name=data.tile_name(tile), tile=tile))
        return cls(tile, "mage" if word == "MAGES" else "knight")

    def __str__(self) -> str:
        choice = f" {self.choice.upper()}S" if self.choice else ""
        return f"PLAY {self.tile} RECRUIT{choice}"


ACTIONS: tuple[type[Order], ...] = (Take, Place, Recruit, Play)


@dataclass(frozen=True)
class EndD(Order):
    """Ends an action D: the next PLAY line starts a new one (two action D's in a row)."""
    verbs = ("END D", "ENDD", "D vege", "vege D")
    usage = "END D (between two runs of PLAY lines)"

    @classmethod
    def parse(cls, t: Tokens) -> EndD:
        return cls()

    def __str__(self) -> str:
        return "END D"


@dataclass(frozen=True)
class If(Order):
    """A fallback with a condition checked when the line is reached: you HOLD (or NOT
    HOLD) a region, or the hourglass has >=, <= or = n cubes."""
    verbs = ("IF", "ha")
    usage = "IF HOLD <region> THEN <action> (also IF NOT HOLD, IF HOURGLASS >=|<=|= <n>)"
    example = "IF HOLD mer THEN PLACE mer"
    test: str  # "HOLD" | "NOT HOLD" | "HOURGLASS >=" | "HOURGLASS <=" | "HOURGLASS ="
    arg: str
    order: Order  # an action (TAKE, PLACE, RECRUIT, PLAY)

    @classmethod
    def parse(cls, t: Tokens) -> If:
        negated = t.take_word("NOT") is not None
        what = t.take_word("HOLD", "HOURGLASS")
        if what is None:
            raise t.error(_("write IF HOLD <region> THEN <order>, IF NOT HOLD <region> THEN "
                            "<order> or IF HOURGLASS >= <n> THEN <order> (also <= and =)"))
        if what == "HOLD":
            test, arg = ("NOT HOLD" if negated else "HOLD"), _region(t)
        else:
            if negated:
                raise t.error(_("NOT goes with HOLD only; for the hourglass use >=, <= or ="))
            op = t.next(_("a comparison (>=, <= or =)"))
            if op not in (">=", "<=", "="):
                raise t.error(_('"{op}" is not a comparison; write >=, <= or =', op=op))
            test, arg = f"HOURGLASS {op}", str(t.int(_("the number of cubes")))
        if not t.take_word("THEN"):
            raise t.error(_("the condition is followed by THEN and an order, e.g. IF HOLD mer "
                            "THEN PLACE mer"))
        rest = t.rest()
        if not rest:
            raise t.error(_("THEN needs an order after it"))
        order = t.sub_order()
        if not isinstance(order, ACTIONS):
            raise t.error(_("IF ... THEN takes an action (TAKE, PLACE, RECRUIT, PLAY), not {rest}",
                            rest=rest))
        return cls(test, arg, order)

    def __str__(self) -> str:
        return f"IF {self.test} {self.arg} THEN {self.order}"


# --- answers to decisions, and standing orders -------------------------------------------

class Bid(Order):
    """BID: `BID <n> [IFWIN ...]` answers an open auction; `BID <tile> <n> [IFWIN ...]` is a
    standing bid for that lightning tile type (or `any`)."""
    verbs = ("BID", "licit", "licital")
    usage = "BID <n> [IFWIN <effect>] (a standing bid: BID <vp|rebellion|swap|any> <n>)"
    example = "BID 2"

    @classmethod
    def parse(cls, t: Tokens) -> Bid:
        tok = t.peek()
        if tok is None or tok.isdigit():
            n = t.int(_("the bid"))
            return BidAnswer(n, _ifwin(t, "?"))
        if fold(tok) in _ANY:
            t.i += 1
            tile = "any"
        else:
            tile = _tile(t)
            if not data.type_info(tile)["lightning"]:
                raise t.error(_("{name} is not auctioned; a standing bid names vp, rebellion, "
                                "swap or any", name=data.tile_name(tile)))
        n = t.int(_("the bid"))
        return StandingBid(tile, n, _ifwin(t, tile))


@dataclass(frozen=True)
class BidAnswer(Bid):
    """The answer to an open auction: how many active reserve units to bid."""
    n: int
    ifwin: Effect | None = None

    def __str__(self) -> str:
        return f"BID {self.n}{_with_ifwin(self.ifwin)}"


@dataclass(frozen=True)
class StandingBid(Bid):
    """Standing bid for a lightning type (or `any`): bid min(n, reserve)."""
    standing: ClassVar[bool] = True
    tile: str
    n: int
    ifwin: Effect | None = None

    def __str__(self) -> str:
        return f"BID {self.tile} {self.n}{_with_ifwin(self.ifwin)}"


@dataclass(frozen=True)
class Serpent(Order):
    """Standing serpent rule: cancel the NEXT (used once) or EVERY opponent tile matching
    `what` (a tile type, seize, bolster or any), optionally only one naming `region`; or
    NEVER (no serpent, never asked)."""
    verbs = ("SERPENT", "kigyo", "snake")
    usage = "SERPENT NEXT|EVERY <what> [region] or SERPENT NEVER"
    example = "SERPENT NEXT seize mer"
    standing: ClassVar[bool] = True
    when: str  # NEXT | EVERY | NEVER
    what: str | None = None
    region: str | None = None

    @classmethod
    def parse(cls, t: Tokens) -> Serpent:
        if t.take_word("NEVER"):
            return cls("NEVER")
        when = t.take_word("NEXT", "EVERY")
        if when is None:
            raise t.error(_("write SERPENT NEXT <what> [region], SERPENT EVERY <what> [region] "
                            "or SERPENT NEVER; <what> is a tile type, seize, bolster or any"))
        word = fold(t.next(_("what to cancel (a tile type, seize, bolster or any)")))
        what = {"seize": "seize", "megszerzes": "seize", "megszerez": "seize",
                "bolster": "bolster", "erosites": "bolster", "erosit": "bolster"}.get(word)
        if what is None and word in _ANY:
            what = "any"
        if what is None:
            t.i -= 1
            what = _tile(t)
            if data.type_info(what)["lightning"] or what == "serpent":
                raise t.error(_("{name} is never played in action D, so a serpent cannot cancel "
                                "it", name=data.tile_name(what)))
        return cls(when, what, _region(t) if t.more() else None)

    def __str__(self) -> str:
        if self.when == "NEVER":
            return "SERPENT NEVER"
        return f"SERPENT {self.when} {self.what}" + (f" {self.region}" if self.region else "")


UNIT_CHOICES = {"active": "active", "aktiv": "active", "passive": "passive",
                "passziv": "passive", "mage": "mage", "magus": "mage", "knight": "knight",
                "lovag": "knight", "none": "none", "nothing": "none", "semmi": "none"}


@dataclass(frozen=True)
class RetreatPref(Order):
    """Standing retreat preference: which unit to save (active, passive, mage, knight or
    none) and destinations in order of preference. Sent while the seat is asked about a
    retreat, the same line is the answer to that retreat (RetreatAnswer) and is not kept."""
    verbs = ("RETREAT", "visszavonul", "visszavonulas")
    usage = "RETREAT <active|passive|mage|knight|none> [TO <region> ...]"
    example = "RETREAT mage TO wes"
    standing: ClassVar[bool] = True
    unit: str
    to: tuple[str, ...] = ()

    @classmethod
    def parse(cls, t: Tokens) -> RetreatPref:
        tok = t.next(_("which unit to save (active, passive, mage, knight or none)"))
        unit = UNIT_CHOICES.get(fold(tok))
        if unit is None:
            raise t.error(_('"{tok}" is not a unit choice; write active, passive, mage, knight '
                            "or none", tok=tok))
        to: list[str] = []
        if t.take_word("TO"):
            while t.more():
                to.append(_region(t))
            if not to:
                raise t.error(_("TO needs at least one region"))
        if unit == "none" and to:
            raise t.error(_("RETREAT none saves no unit, so it takes no TO list"))
        asked = _asked(t.state, t.seat, "retreat")
        return (RetreatAnswer if asked else RetreatPref)(unit, tuple(to))

    def __str__(self) -> str:
        return f"RETREAT {self.unit}" + (" TO " + " ".join(self.to) if self.to else "")


@dataclass(frozen=True)
class RetreatAnswer(RetreatPref):
    """The answer to an open retreat question (same words as the standing preference)."""
    standing: ClassVar[bool] = False


def _asked(state: Any, seat: str | None, kind: str) -> bool:
    """Is `seat` asked a question of this kind now (the kit's pause record)?"""
    pause = state.get("pause") if isinstance(state, dict) else None
    questions = pause["questions"] if pause else []
    return any(q["seat"] == seat and q["kind"] == kind for q in questions)


@dataclass(frozen=True)
class Cancel(Order):
    """Answer to a serpent question: play a serpent to cancel the tile just played."""
    verbs = ("CANCEL", "semlegesit", "semlegesites")
    usage = "CANCEL"

    @classmethod
    def parse(cls, t: Tokens) -> Cancel:
        return cls()

    def __str__(self) -> str:
        return "CANCEL"


@dataclass(frozen=True)
class Pass(Order):
    """Answer to a serpent question: let the tile take effect."""
    verbs = ("PASS", "passz")
    usage = "PASS"

    @classmethod
    def parse(cls, t: Tokens) -> Pass:
        return cls()

    def __str__(self) -> str:
        return "PASS"


_CLEARABLE = {"bid": "bid", "licit": "bid", "serpent": "serpent", "kigyo": "serpent",
              "retreat": "retreat", "visszavonulas": "retreat", "visszavonul": "retreat"}


@dataclass(frozen=True)
class Clear(Order):
    """Forget your standing orders of one kind: bid, serpent or retreat."""
    verbs = ("CLEAR", "torol", "torles")
    usage = "CLEAR bid|serpent|retreat"
    example = "CLEAR serpent"
    standing: ClassVar[bool] = True
    what: str

    @classmethod
    def parse(cls, t: Tokens) -> Clear:
        tok = t.next(_("bid, serpent or retreat"))
        what = _CLEARABLE.get(fold(tok))
        if what is None:
            raise t.error(_('"{tok}" cannot be cleared; write CLEAR bid, CLEAR serpent or '
                            "CLEAR retreat", tok=tok))
        return cls(what)

    def __str__(self) -> str:
        return f"CLEAR {self.what}"


STANDING = (StandingBid, Serpent, RetreatPref, Clear)

GRAMMAR = Grammar(
    [Take, Place, Recruit, Play, EndD, If, Bid, Serpent, RetreatPref, Cancel, Pass, Clear,
     Rebel, Swap, Decline],
    keywords={
        "IFWIN": ["if win", "hanyer", "ha nyer"],
        "BID": ["licit", "licital"],
        "BOLSTER": ["erosit", "erosites"],
        "SEIZE": ["megszerez", "megszerzes"],
        "RECRUIT": ["toboroz", "toborzas"],
        "NOPLACE": ["no place", "nemrak", "nem rak"],
        "SURE": ["biztos"],
        "BACK": ["vissza"],
        "TO": ["ide", "oda"],
        "NEXT": ["kovetkezo"],
        "EVERY": ["minden", "mindig"],
        "NEVER": ["soha"],
        "NOT": ["nem"],
        "HOLD": ["holds", "iranyit", "birtokol"],
        "HOURGLASS": ["cubes", "homokora", "kocka"],
        "THEN": ["akkor"],
        "MAGES": ["mage", "magus", "magusok", "m"],
        "KNIGHTS": ["knight", "lovag", "lovagok", "k", "l"],
    })


def parse_line(state: Any, text: str, seat: str | None = None) -> Any:
    """One canonical order line back into its order (stored lines, answers)."""
    return GRAMMAR.parse_line(state, seat, text)
