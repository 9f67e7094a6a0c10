"""The order language of Kard és Korona: one frozen order type per command, each with its
English and Hungarian verbs, usage and example, parsing itself; `str(order)` is the
canonical line and parses back to an equal order.

One command per line, verb first; county, arm, office and player names case- and
accent-insensitive (`Gomor` finds Gömör, castle names name their county); `2inf` reads as
`2 inf`. Not here: whether an order is legal in the position (`phases.py` judges each line
on arrival, the rules modules when it is carried out).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from pbem.core.i18n import _
from pbem.core.kit import Grammar, Order, OrderError, Tokens
from pbem.core.kit.grammar import message_of
from pbem.core.names import NameIndex, UnknownName
from pbem.rulesets.kard_es_korona.board import GameMap, game_map
from pbem.rulesets.kard_es_korona.data import (
    ARM_INDEX,
    ARMS,
    KIND_INDEX,
    OFFICE_INDEX,
    OFFICES,
    lord_name,
    province_name,
)

# --- reading names -----------------------------------------------------------------------


def _map(t: Tokens) -> GameMap:
    return game_map(t.state["version"])


@cache
def _seat_index(seats: tuple[str, ...]) -> NameIndex:
    return NameIndex({s: [province_name(s), lord_name(s)] for s in seats}, what=_("player"))


def seat_index(seats: list[str] | tuple[str, ...]) -> NameIndex:
    return _seat_index(tuple(seats))


@lru_cache(maxsize=16384)
def _one_word(index: NameIndex, word: str) -> str | None:
    return index.get(word)


def _name(t: Tokens, index: NameIndex) -> str:
    """A name at the cursor: one word looked up fast (no alias of a county or a player
    begins with another alias), else the kit's longest match with its did-you-mean."""
    word = t.peek()
    ident = _one_word(index, word) if word is not None else None
    if ident is not None:
        t.i += 1
        return ident
    return t.name(index)


def _county(t: Tokens) -> str:
    return _name(t, _map(t).names)


def _seat(t: Tokens) -> str:
    return _name(t, seat_index(t.state["seats"]))


def _arm(t: Tokens) -> str:
    tok = t.next(_("an arm"))
    try:
        return ARM_INDEX.lookup(tok)
    except UnknownName:
        raise t.error(_('"{word}" is not an arm; write cav, inf or arch (lovas, gyalogos, '
                          'íjász)', word=tok)) from None


def _office(t: Tokens) -> str:
    tok = t.next(_("an office"))
    try:
        return OFFICE_INDEX.lookup(tok)
    except UnknownName as e:
        raise t.error(_("{error}; write judge, treasurer or palatine", error=message_of(e))) from None


def _skip_commas(t: Tokens) -> None:
    while t.peek() == ",":
        t.i += 1


def _arm_list(t: Tokens, stop: tuple[str, ...] = ()) -> tuple[str, ...]:
    """Arms in priority order, each once (commas allowed), up to a keyword in `stop`."""
    arms: list[str] = []
    _skip_commas(t)
    while t.more() and not (stop and t.word() in stop):
        arms.append(_arm(t))
        _skip_commas(t)
    if not arms or len(set(arms)) != len(arms):
        raise t.error(_("list each arm once, e.g. cav arch inf"))
    return tuple(arms)


def _county_list(t: Tokens, stop: tuple[str, ...] = ()) -> tuple[str, ...]:
    out: list[str] = []
    _skip_commas(t)
    while t.more() and not (stop and t.word() in stop):
        out.append(_county(t))
        _skip_commas(t)
    if not out:
        raise t.error(_("name at least one county"))
    return tuple(out)


def _counts(t: Tokens, where: str) -> dict[str, int]:
    """'2 inf 1 cav' -> counts; each arm once, at least 1."""
    out = {a: 0 for a in ARMS}
    _skip_commas(t)
    while t.more() and (t.peek() or "").isdigit():
        n = t.int(_("a unit count"))
        a = _arm(t)
        if n == 0 or out[a]:
            raise t.error(_("give each arm once with a count of at least 1 ({county})",
                              county=where))
        out[a] = n
        _skip_commas(t)
    return out


def _kind(t: Tokens) -> str:
    tok = t.next(_("a battle type"))
    kind = KIND_INDEX.get(tok)
    if kind is None:
        raise t.error(_('"{word}" is not a battle type; write open, terrain, siege, volley or '
                          'all', word=tok))
    return kind


def _arms_text(arms: tuple[str, ...]) -> str:
    return " ".join(arms)


def _nothing_after(t: Tokens, verb: str) -> None:
    if t.more():
        raise t.error(_("{verb} takes nothing after it", verb=verb))


ALWAYS = -1  # FLEE ALWAYS: flee at the first chance, whatever the numbers


def _flee(t: Tokens) -> int:
    """NEVER (0), ALWAYS (-1) or a percentage of the enemy's units (1-1000)."""
    if t.take_word("NEVER", "NO"):
        return 0
    if t.take_word("ALWAYS"):
        return ALWAYS
    return t.int(_("the percentage"), 1, 1000)


def _flee_text(percent: int) -> str:
    return {0: "NEVER", ALWAYS: "ALWAYS"}.get(percent, str(percent))


@dataclass(frozen=True)
class RerollPolicy:
    """When the Judge Royal rerolls (rulebook p. 12: once per battle, for one arm, all the
    dice of an exchange): the arm (the named one, else the one with most dice) that rolled
    at least `dice` dice and hit at most `hits` times. `dice` 0 = never."""

    dice: int
    hits: int = 0
    arm: str = ""

    def __str__(self) -> str:
        if self.dice == 0:
            return "NEVER"
        return (f"{self.dice}" + (f" HITS {self.hits}" if self.hits else "")
                + (f" ARM {self.arm}" if self.arm else ""))


def _reroll(t: Tokens) -> RerollPolicy:
    if t.take_word("NEVER", "NO"):
        return RerollPolicy(0)
    dice = t.int(_("the number of dice"), 1, 20)
    hits = t.int(_("the number of hits"), 0, 20) if t.take_word("HITS") else 0
    arm = _arm(t) if t.take_word("ARM") else ""
    return RerollPolicy(dice, hits, arm)


# --- set-up ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Deploy(Order):
    """Set-up: starting units in a county of the home province (rulebook p. 6, p. 14)."""

    verbs = ("DEPLOY", "felallit", "felrak", "setup")
    usage = "DEPLOY <county> <count> <arm> ..."
    example = "DEPLOY trencsen 2 inf 2 arch 1 cav"
    county: str
    cav: int = 0
    inf: int = 0
    arch: int = 0

    @classmethod
    def parse(cls, t: Tokens) -> Deploy:
        county = _county(t)
        c = _counts(t, county)
        if not any(c.values()):
            raise t.error(_("say which units stand in {county}", county=county))
        return cls(county, c["cav"], c["inf"], c["arch"])

    def army(self) -> dict[str, int]:
        return {"cav": self.cav, "inf": self.inf, "arch": self.arch}

    def __str__(self) -> str:
        return f"DEPLOY {self.county} " + " ".join(
            f"{getattr(self, a)} {a}" for a in ARMS if getattr(self, a))


@dataclass(frozen=True)
class LordAt(Order):
    """Set-up: where the lord stands."""

    verbs = ("LORD", "hadur")
    usage = "LORD <county>"
    example = "LORD trencsen"
    county: str

    @classmethod
    def parse(cls, t: Tokens) -> LordAt:
        return cls(_county(t))

    def __str__(self) -> str:
        return f"LORD {self.county}"


@dataclass(frozen=True)
class Neutral(Order):
    """Set-up with option neutral_placement=players: which neutral unit stands in a plain
    county of an unplayed province dealt to you (rulebook p. 6)."""

    verbs = ("NEUTRAL", "semleges")
    usage = "NEUTRAL <county> <arm>"
    example = "NEUTRAL borsod cav"
    county: str
    arm: str

    @classmethod
    def parse(cls, t: Tokens) -> Neutral:
        return cls(_county(t), _arm(t))

    def __str__(self) -> str:
        return f"NEUTRAL {self.county} {self.arm}"


# --- the year orders -----------------------------------------------------------------------


@dataclass(frozen=True)
class Recruit(Order):
    verbs = ("RECRUIT", "toboroz", "toborzas", "buy")
    usage = "RECRUIT <count> <arm> IN <castle county>"
    example = "RECRUIT 2 inf IN trencsen"
    count: int
    arm: str
    county: str

    @classmethod
    def parse(cls, t: Tokens) -> Recruit:
        n = t.int(_("the count"), 1)
        arm = _arm(t)
        t.expect_word("IN", "TO")
        county = _county(t)
        if not _map(t).counties[county].has_castle:
            raise t.error(_("{county} has no castle; recruits go only into castle counties",
                              county=county))
        return cls(n, arm, county)

    def __str__(self) -> str:
        return f"RECRUIT {self.count} {self.arm} IN {self.county}"


@dataclass(frozen=True)
class Ransom(Order):
    verbs = ("RANSOM", "valtsag", "valtsagdij")
    usage = "RANSOM <county>"
    example = "RANSOM abauj"
    county: str

    @classmethod
    def parse(cls, t: Tokens) -> Ransom:
        return cls(_county(t))

    def __str__(self) -> str:
        return f"RANSOM {self.county}"


@dataclass(frozen=True)
class Give(Order):
    verbs = ("GIVE", "transfer", "ad", "atad")
    usage = "GIVE <garas> TO <player>"
    example = "GIVE 5 TO erdely"
    amount: int
    seat: str

    @classmethod
    def parse(cls, t: Tokens) -> Give:
        n = t.int(_("the amount"), 1)
        t.expect_word("TO")
        return cls(n, _seat(t))

    def __str__(self) -> str:
        return f"GIVE {self.amount} TO {self.seat}"


@dataclass(frozen=True)
class Cede(Order):
    """Hand an office to another player (the rulebook's tip on selling offices, p. 12)."""

    verbs = ("CEDE", "atruhaz", "atad_tisztseg")
    usage = "CEDE <office> TO <player>"
    example = "CEDE judge TO erdely"
    office: str
    seat: str

    @classmethod
    def parse(cls, t: Tokens) -> Cede:
        office = _office(t)
        t.expect_word("TO")
        return cls(office, _seat(t))

    def __str__(self) -> str:
        return f"CEDE {self.office} TO {self.seat}"


@dataclass(frozen=True)
class Part:
    """The movers taken from one county: counts per arm, or all unmoved units."""

    county: str
    cav: int = 0
    inf: int = 0
    arch: int = 0
    all: bool = False
    lord: bool = False

    def __str__(self) -> str:
        bits = [self.county]
        if self.all:
            bits.append("all")
        else:
            bits += [f"{getattr(self, a)} {a}" for a in ARMS if getattr(self, a)]
        if self.lord:
            bits.append("lord")
        return " ".join(bits)


def _part(t: Tokens) -> Part:
    county = _county(t)
    if t.take_word("ALL"):
        lord = bool(t.take_word("LORD"))
        if t.more() and t.peek() != ";" and t.word() != "IF":
            raise t.error(_('after "all" only "lord" may follow ({county})', county=county))
        return Part(county, all=True, lord=lord)
    c = _counts(t, county)
    lord = bool(t.take_word("LORD"))
    if not lord and not any(c.values()):
        raise t.error(_("say what moves from {county}: counts like 2 inf, or all, or lord",
                          county=county))
    return Part(county, c["cav"], c["inf"], c["arch"], lord=lord)


@dataclass(frozen=True)
class Move(Order):
    """One step (rulebook p. 8): movers from one or several counties into one target."""

    verbs = ("MOVE", "step", "lep", "lepes", "mozgat")
    usage = "MOVE TO <county> FROM <county> <count> <arm> ... [; <county> ...] [IF EMPTY]"
    example = "MOVE TO abauj FROM szepes 1 inf; gomor 1 arch"
    target: str
    parts: tuple[Part, ...]
    cond: str = ""  # "" | "empty" | "enemy"
    limit: int = 0  # for cond == "enemy": at most this many units in the target

    @classmethod
    def parse(cls, t: Tokens) -> Move:
        if not t.take_word("TO", "IN"):
            raise t.error(_("a step names its target first"))
        target = _county(t)
        if not t.take_word("FROM"):
            raise t.error(_("the origins follow FROM"))
        parts = [_part(t)]
        while t.peek() == ";":
            t.i += 1
            if t.more() and t.word() != "IF":
                parts.append(_part(t))
        cond, limit = "", 0
        if t.take_word("IF"):
            if t.take_word("EMPTY"):
                cond = "empty"
            elif t.take_word("ENEMY") and t.take_word("<="):
                cond, limit = "enemy", t.int(_("the enemy limit"), 0)
            else:
                raise t.error(_("a condition is IF EMPTY or IF ENEMY <= <count>"))
        if t.more():
            raise t.error(_('unexpected "{rest}"; a condition is IF EMPTY or IF ENEMY <= '
                              '<count>', rest=t.rest()))
        if len({p.county for p in parts}) != len(parts):
            raise t.error(_("name each origin county once in a step"))
        if any(p.county == target for p in parts):
            raise t.error(_("{county} is the target; units cannot move from it into it",
                              county=target))
        return cls(target, tuple(parts), cond, limit)

    def __str__(self) -> str:
        s = f"MOVE TO {self.target} FROM " + "; ".join(str(p) for p in self.parts)
        if self.cond == "empty":
            s += " IF EMPTY"
        elif self.cond == "enemy":
            s += f" IF ENEMY <= {self.limit}"
        return s


@dataclass(frozen=True)
class Pass(Order):
    """End your movement for the year (rulebook p. 8)."""

    verbs = ("PASS", "passz", "done")
    usage = "PASS"

    @classmethod
    def parse(cls, t: Tokens) -> Pass:
        _nothing_after(t, "PASS")
        return cls()

    def __str__(self) -> str:
        return "PASS"


@dataclass(frozen=True)
class Resign(Order):
    """Leave the game (rulebook p. 3: the units of a player who quits become neutral)."""

    verbs = ("RESIGN", "kilep", "felad")
    usage = "RESIGN"

    @classmethod
    def parse(cls, t: Tokens) -> Resign:
        _nothing_after(t, "RESIGN")
        return cls()

    def __str__(self) -> str:
        return "RESIGN"


@dataclass(frozen=True)
class Bid(Order):
    """A sealed bid (rulebook p. 12). Sent before its auction (with the year orders or an
    earlier auction) it is a pre-bid; `cond` = "won"/"lost" makes it depend on the result
    of an earlier auction (`cond_office`) of the same election."""

    verbs = ("BID", "licit", "licital")
    usage = "BID <office> <garas> [IF WON|LOST <office>]"
    example = "BID judge 6"
    office: str
    amount: int
    cond: str = ""
    cond_office: str = ""

    @classmethod
    def parse(cls, t: Tokens) -> Bid:
        office = _office(t)
        amount = t.int(_("the bid"), 0)
        cond, cond_office = "", ""
        if t.take_word("IF"):
            won = t.expect_word("WON", "LOST")
            cond, cond_office = won.lower(), _office(t)
            if OFFICES.index(cond_office) >= OFFICES.index(office):
                raise t.error(_("a condition can only name an office auctioned before {office} "
                                  "(order: judge, treasurer, palatine)", office=office))
        return cls(office, amount, cond, cond_office)

    def __str__(self) -> str:
        tail = f" IF {self.cond.upper()} {self.cond_office}" if self.cond else ""
        return f"BID {self.office} {self.amount}{tail}"


# --- standing orders (kept until replaced) ---------------------------------------------------


@dataclass(frozen=True)
class Lead(Order):
    """Which arm the lord leads (+1), per battle type (rulebook p. 11)."""

    verbs = ("LEAD", "vezet")
    usage = "LEAD <open|terrain|siege|all> <arms>"
    example = "LEAD open arch cav inf"
    standing = True
    kind: str  # open | terrain | siege | volley | all
    arms: tuple[str, ...]

    @classmethod
    def parse(cls, t: Tokens) -> Lead:
        return cls(_kind(t), _arm_list(t))

    def __str__(self) -> str:
        return f"LEAD {self.kind} {_arms_text(self.arms)}"


@dataclass(frozen=True)
class Target(Order):
    """Casualty priority for your hits (rulebook p. 10: the hitting side chooses)."""

    verbs = ("TARGET", "celpont", "kill")
    usage = "TARGET <open|terrain|siege|volley|all> <arms>"
    example = "TARGET siege arch inf cav"
    standing = True
    kind: str
    arms: tuple[str, ...]

    @classmethod
    def parse(cls, t: Tokens) -> Target:
        return cls(_kind(t), _arm_list(t))

    def __str__(self) -> str:
        return f"TARGET {self.kind} {_arms_text(self.arms)}"


@dataclass(frozen=True)
class Reroll(Order):
    """The Judge Royal's reroll policy (rulebook p. 12): once per battle, for one arm, all
    the dice of one exchange, those that hit too."""

    verbs = ("REROLL", "ujradob")
    usage = "REROLL <dice> [HITS <hits>] [ARM <arm>] | REROLL NEVER"
    example = "REROLL 3 HITS 1"
    standing = True
    policy: RerollPolicy

    @classmethod
    def parse(cls, t: Tokens) -> Reroll:
        return cls(_reroll(t))

    def __str__(self) -> str:
        return f"REROLL {self.policy}"


@dataclass(frozen=True)
class Flee(Order):
    """Advanced flight (rulebook p. 15): after a full round either side may flee, whatever
    the numbers; the percentage is of the enemy's units (FLEE 50: when you have at most
    half as many; FLEE 150: up to one and a half times as many)."""

    verbs = ("FLEE", "menekul", "visszavonul")
    usage = "FLEE <percent>|ALWAYS|NEVER"
    example = "FLEE 50"
    standing = True
    percent: int  # 0 = never, ALWAYS (-1) = at the first chance

    @classmethod
    def parse(cls, t: Tokens) -> Flee:
        return cls(_flee(t))

    def __str__(self) -> str:
        return f"FLEE {_flee_text(self.percent)}"


@dataclass(frozen=True)
class Fealty(Order):
    """If your lord is defeated by another lord: swear fealty or be eliminated (p. 11)."""

    verbs = ("FEALTY", "hubereskü", "hubereku", "huber")
    usage = "FEALTY YES|NO|CASTLE"
    example = "FEALTY CASTLE"
    standing = True
    mode: str  # yes | no | castle

    @classmethod
    def parse(cls, t: Tokens) -> Fealty:
        return cls(t.expect_word("YES", "NO", "CASTLE").lower())

    def __str__(self) -> str:
        return f"FEALTY {self.mode.upper()}"


@dataclass(frozen=True)
class Retreat(Order):
    """Preferred destinations of organized retreats (rulebook p. 11)."""

    verbs = ("RETREAT", "hatral", "vonul")
    usage = "RETREAT <county> [<county> ...]"
    example = "RETREAT nyitra gomor"
    standing = True
    counties: tuple[str, ...]

    @classmethod
    def parse(cls, t: Tokens) -> Retreat:
        return cls(_county_list(t))

    def __str__(self) -> str:
        return "RETREAT " + " ".join(self.counties)


@dataclass(frozen=True)
class Rejoin(Order):
    """Where the lord goes in a duel winner's extra step (rulebook p. 11; DP19)."""

    verbs = ("REJOIN", "csatlakoz", "visszater")
    usage = "REJOIN <county> [<county> ...]"
    example = "REJOIN trencsen pozsony"
    standing = True
    counties: tuple[str, ...]

    @classmethod
    def parse(cls, t: Tokens) -> Rejoin:
        return cls(_county_list(t))

    def __str__(self) -> str:
        return "REJOIN " + " ".join(self.counties)


@dataclass(frozen=True)
class Place(Order):
    """The arm you place in each county of a lord you eliminate (rulebook p. 11)."""

    verbs = ("PLACE", "lerak", "csere")
    usage = "PLACE <arms>"
    example = "PLACE cav arch inf"
    standing = True
    arms: tuple[str, ...]

    @classmethod
    def parse(cls, t: Tokens) -> Place:
        return cls(_arm_list(t))

    def __str__(self) -> str:
        return "PLACE " + _arms_text(self.arms)


@dataclass(frozen=True)
class Losses(Order):
    """Which of your units are lost to the plague and to a flight across an obstacle."""

    verbs = ("LOSSES", "loss", "veszteseg")
    usage = "LOSSES <arms>"
    example = "LOSSES inf arch cav"
    standing = True
    arms: tuple[str, ...]

    @classmethod
    def parse(cls, t: Tokens) -> Losses:
        return cls(_arm_list(t))

    def __str__(self) -> str:
        return "LOSSES " + _arms_text(self.arms)


@dataclass(frozen=True)
class Prefer(Order):
    """As Palatine: whom you choose between tied bidders (rulebook p. 12)."""

    verbs = ("PREFER", "rangsor")
    usage = "PREFER <player> [<player> ...]"
    example = "PREFER erdely felvidek"
    standing = True
    seats: tuple[str, ...]

    @classmethod
    def parse(cls, t: Tokens) -> Prefer:
        seats = [_seat(t)]
        _skip_commas(t)
        while t.more():
            seats.append(_seat(t))
            _skip_commas(t)
        return cls(tuple(seats))

    def __str__(self) -> str:
        return "PREFER " + " ".join(self.seats)


@dataclass(frozen=True)
class Veto(Order):
    """An overlord's veto over his vassal (rulebook p. 11): `what` is attack or leave;
    `counties` empty = none, ("all",) = every county."""

    verbs = ("VETO", "megtilt")
    usage = "VETO ATTACK|LEAVE <county...>|ALL|NONE"
    example = "VETO ATTACK heves"
    standing = True
    what: str
    counties: tuple[str, ...]

    @classmethod
    def parse(cls, t: Tokens) -> Veto:
        what = t.expect_word("ATTACK", "LEAVE").lower()
        if t.take_word("NONE"):
            return cls(what, ())
        if t.take_word("ALL"):
            return cls(what, ("all",))
        return cls(what, _county_list(t))

    def __str__(self) -> str:
        return f"VETO {self.what.upper()} " + (" ".join(self.counties) if self.counties
                                                 else "NONE")


@dataclass(frozen=True)
class Sequence(Order):
    """Traditional movement mode (rulebook 6.5): the start player moves first or last."""

    verbs = ("SEQUENCE", "sorrend")
    usage = "SEQUENCE FIRST|LAST"
    example = "SEQUENCE LAST"
    standing = True
    first: bool

    @classmethod
    def parse(cls, t: Tokens) -> Sequence:
        return cls(t.expect_word("FIRST", "LAST") == "FIRST")

    def __str__(self) -> str:
        return "SEQUENCE " + ("FIRST" if self.first else "LAST")


# --- answers to questions (decisions=ask, movement=strict) ------------------------------------


@dataclass(frozen=True)
class Fight(Order):
    """Battle instructions for the one battle asked about (decisions=ask): each part
    optional, unnamed parts from the standing orders or the defaults."""

    verbs = ("FIGHT", "harc", "harcol")
    usage = ("FIGHT [LEAD <arms>] [TARGET <arms>] [REROLL <dice> [HITS <hits>] [ARM <arm>]"
             "|NEVER] [FLEE <percent>|ALWAYS|NEVER] [RETREAT <county> ...]")
    example = "FIGHT LEAD arch cav inf TARGET cav arch inf RETREAT pest"
    lead: tuple[str, ...] = ()
    target: tuple[str, ...] = ()
    reroll: RerollPolicy | None = None
    flee: int | None = None
    retreat: tuple[str, ...] = ()

    @classmethod
    def parse(cls, t: Tokens) -> Fight:
        parts: dict[str, Any] = {}
        clauses = ("LEAD", "TARGET", "REROLL", "FLEE", "RETREAT")
        while t.more():
            word = t.take_word(*clauses)
            if word is None:
                raise t.error(_('"{word}" is no part of a FIGHT line', word=t.peek()))
            if word.lower() in parts:
                raise t.error(_("{word} is given twice", word=word))
            if word in ("LEAD", "TARGET"):
                parts[word.lower()] = _arm_list(t, clauses)
            elif word == "REROLL":
                parts["reroll"] = _reroll(t)
            elif word == "FLEE":
                parts["flee"] = _flee(t)
            else:
                parts["retreat"] = _county_list(t, clauses)
        return cls(**parts)

    def __str__(self) -> str:
        bits = ["FIGHT"]
        if self.lead:
            bits.append("LEAD " + _arms_text(self.lead))
        if self.target:
            bits.append("TARGET " + _arms_text(self.target))
        if self.reroll is not None:
            bits.append(f"REROLL {self.reroll}")
        if self.flee is not None:
            bits.append(f"FLEE {_flee_text(self.flee)}")
        if self.retreat:
            bits.append("RETREAT " + " ".join(self.retreat))
        return " ".join(bits)


@dataclass(frozen=True)
class Oath(Order):
    """The answer of a defeated lord (decisions=ask): swear fealty or be eliminated."""

    verbs = ("OATH", "esku")
    usage = "OATH YES|NO"
    example = "OATH YES"
    swear: bool

    @classmethod
    def parse(cls, t: Tokens) -> Oath:
        return cls(t.expect_word("YES", "NO") == "YES")

    def __str__(self) -> str:
        return "OATH YES" if self.swear else "OATH NO"


@dataclass(frozen=True)
class Choose(Order):
    """The Palatine's answer to a tie (decisions=ask): who gets the office (p. 12)."""

    verbs = ("CHOOSE", "valaszt")
    usage = "CHOOSE <player>"
    example = "CHOOSE erdely"
    seat: str

    @classmethod
    def parse(cls, t: Tokens) -> Choose:
        return cls(_seat(t))

    def __str__(self) -> str:
        return f"CHOOSE {self.seat}"


STANDING = (Lead, Target, Reroll, Flee, Fealty, Retreat, Rejoin, Place, Losses, Prefer, Veto,
            Sequence)

KEYWORDS = {
    "TO": ["ide", "nak", "nek", "neki"], "IN": ["be"], "FROM": ["innen", "bol"],
    "IF": ["ha"], "EMPTY": ["ures"], "ENEMY": ["ellenseg"], "<=": [],
    "ALL": ["mind", "minden"], "LORD": ["hadur"], "NEVER": ["soha"], "NO": ["nem"],
    "YES": ["igen"], "CASTLE": ["var"], "WON": ["nyert"], "LOST": ["vesztett"],
    "ATTACK": ["tamadas"], "LEAVE": ["elhagy"], "NONE": ["semmi"], "FIRST": ["elso"],
    "LAST": ["utolso"], "LEAD": ["vezet"], "TARGET": ["celpont"], "REROLL": ["ujradob"],
    "FLEE": ["menekul"], "RETREAT": ["hatral"], "HITS": ["talalat"], "ARM": ["fegyvernem"],
    "ALWAYS": ["mindig"],
}


class KekGrammar(Grammar):
    """The kit's grammar, reading `2inf` as `2 inf` and `;`, `,`, `<=` as words.

    A line's meaning depends only on its text, the map and the seats, so parses are
    remembered (a resolution reads every line again, and a resumed one once more)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._known: dict[tuple[str, tuple[str, ...], str], Order | str] = {}

    def parse_line(self, state: Any, seat: str | None, text: str) -> Order:
        key = (state["version"], tuple(state["seats"]), text)
        known = self._known.get(key)
        if known is None:
            spaced = re.sub(r"(\d+)([^\d\s;,<=]+)", r"\1 \2", text)
            spaced = spaced.replace(";", " ; ").replace(",", " , ").replace("<=", " <= ")
            try:
                known = super().parse_line(state, seat, spaced)
            except OrderError as exc:
                known = message_of(exc)  # a message stays one
            if len(self._known) > 50_000:
                self._known.clear()
            self._known[key] = known
        if isinstance(known, str):
            raise OrderError(known)
        return known


GRAMMAR = KekGrammar(
    [Deploy, LordAt, Neutral, Recruit, Ransom, Give, Cede, Move, Pass, Resign, Bid, *STANDING,
     Fight, Oath, Choose], keywords=KEYWORDS)
