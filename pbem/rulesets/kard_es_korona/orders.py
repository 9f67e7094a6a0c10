"""The order language of Kard és Korona: frozen order values and their parser.

One command per line, verb first, English or Hungarian verbs, county/arm/office/seat names
case- and accent-insensitive. Every order's `str()` is its canonical line and parses back to
an equal value. This module knows the grammar and the names only; whether an order is legal
in the position is decided when it is carried out (movement.py, economy.py, ...), where a
command that has become illegal is skipped with an event saying why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pbem.core.names import NameIndex, UnknownName, fold
from pbem.rulesets.kard_es_korona.board import (
    ARM_INDEX,
    ARMS,
    OFFICE_INDEX,
    OFFICES,
    GameMap,
    lord_name,
    province_name,
)

KINDS = ("open", "terrain", "siege", "volley")
KIND_ALIASES = {"open": ("nyilt", "field"), "terrain": ("hegy", "mocsar", "mountain", "swamp"),
                "siege": ("ostrom", "castle"), "volley": ("sortuz", "ijaszsortuz")}
KIND_INDEX = NameIndex({k: list(v) for k, v in KIND_ALIASES.items()}, what="battle type")

VERBS = {
    "deploy": ("deploy", "felallit", "felrak", "setup"),
    "lord": ("lord", "hadur"),
    "recruit": ("recruit", "toboroz", "toborzas", "buy"),
    "ransom": ("ransom", "valtsag", "valtsagdij"),
    "give": ("give", "transfer", "ad", "atad"),
    "move": ("move", "step", "lep", "lepes", "mozgat"),
    "pass": ("pass", "passz", "done"),
    "lead": ("lead", "vezet"),
    "target": ("target", "celpont", "kill"),
    "reroll": ("reroll", "ujradob"),
    "flee": ("flee", "menekul", "visszavonul"),
    "fealty": ("fealty", "hubereskü", "hubereku", "huber"),
    "retreat": ("retreat", "hatral", "vonul"),
    "rejoin": ("rejoin", "csatlakoz", "visszater"),
    "place": ("place", "lerak", "csere"),
    "losses": ("losses", "loss", "veszteseg"),
    "prefer": ("prefer", "rangsor"),
    "cede": ("cede", "atruhaz", "atad_tisztseg"),
    "veto": ("veto", "megtilt"),
    "sequence": ("sequence", "sorrend"),
    "resign": ("resign", "kilep", "felad"),
    "neutral": ("neutral", "semleges"),
    "bid": ("bid", "licit", "licital"),
}
_VERB = {fold(a): v for v, aliases in VERBS.items() for a in aliases}


def _arm_list(arms: tuple[str, ...]) -> str:
    return " ".join(arms)


@dataclass(frozen=True)
class Deploy:
    county: str
    cav: int = 0
    inf: int = 0
    arch: int = 0

    def __str__(self) -> str:
        return f"DEPLOY {self.county} " + " ".join(
            f"{getattr(self, a)} {a}" for a in ARMS if getattr(self, a))


@dataclass(frozen=True)
class LordAt:
    county: str

    def __str__(self) -> str:
        return f"LORD {self.county}"


@dataclass(frozen=True)
class Recruit:
    count: int
    arm: str
    county: str

    def __str__(self) -> str:
        return f"RECRUIT {self.count} {self.arm} IN {self.county}"


@dataclass(frozen=True)
class Ransom:
    county: str

    def __str__(self) -> str:
        return f"RANSOM {self.county}"


@dataclass(frozen=True)
class Give:
    amount: int
    seat: str

    def __str__(self) -> str:
        return f"GIVE {self.amount} TO {self.seat}"


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


@dataclass(frozen=True)
class Move:
    """One step (rulebook p. 8): movers from one or several counties into one target."""

    target: str
    parts: tuple[Part, ...]
    cond: str = ""  # "" | "empty" | "enemy"
    limit: int = 0  # for cond == "enemy": at most this many units in the target

    def __str__(self) -> str:
        s = f"MOVE TO {self.target} FROM " + "; ".join(str(p) for p in self.parts)
        if self.cond == "empty":
            s += " IF EMPTY"
        elif self.cond == "enemy":
            s += f" IF ENEMY <= {self.limit}"
        return s


@dataclass(frozen=True)
class Pass:
    def __str__(self) -> str:
        return "PASS"


@dataclass(frozen=True)
class Lead:
    kind: str  # open | terrain | siege | all
    arms: tuple[str, ...]

    def __str__(self) -> str:
        return f"LEAD {self.kind} {_arm_list(self.arms)}"


@dataclass(frozen=True)
class Target:
    kind: str
    arms: tuple[str, ...]

    def __str__(self) -> str:
        return f"TARGET {self.kind} {_arm_list(self.arms)}"


@dataclass(frozen=True)
class Reroll:
    misses: int  # 0 = never

    def __str__(self) -> str:
        return "REROLL NEVER" if self.misses == 0 else f"REROLL {self.misses}"


@dataclass(frozen=True)
class Flee:
    percent: int  # 0 = never

    def __str__(self) -> str:
        return "FLEE NEVER" if self.percent == 0 else f"FLEE {self.percent}"


@dataclass(frozen=True)
class Fealty:
    mode: str  # yes | no | castle

    def __str__(self) -> str:
        return f"FEALTY {self.mode.upper()}"


@dataclass(frozen=True)
class Retreat:
    counties: tuple[str, ...]

    def __str__(self) -> str:
        return "RETREAT " + " ".join(self.counties)


@dataclass(frozen=True)
class Rejoin:
    """Standing: where the lord goes in a duel winner's extra step (rulebook p. 11; DP19)."""
    counties: tuple[str, ...]

    def __str__(self) -> str:
        return "REJOIN " + " ".join(self.counties)


@dataclass(frozen=True)
class Place:
    arms: tuple[str, ...]

    def __str__(self) -> str:
        return "PLACE " + _arm_list(self.arms)


@dataclass(frozen=True)
class Losses:
    arms: tuple[str, ...]

    def __str__(self) -> str:
        return "LOSSES " + _arm_list(self.arms)


@dataclass(frozen=True)
class Prefer:
    seats: tuple[str, ...]

    def __str__(self) -> str:
        return "PREFER " + " ".join(self.seats)


@dataclass(frozen=True)
class Bid:
    """A sealed bid. Sent in the year orders of an election year it is a pre-bid, used
    without a mail round when that office is auctioned; `cond` = "won"/"lost" makes it
    depend on the result of an earlier auction (`cond_office`) of the same election."""

    office: str
    amount: int
    cond: str = ""
    cond_office: str = ""

    def __str__(self) -> str:
        tail = f" IF {self.cond.upper()} {self.cond_office}" if self.cond else ""
        return f"BID {self.office} {self.amount}{tail}"


@dataclass(frozen=True)
class Cede:
    """Hand an office to another player (the rulebook's tip on selling offices, p. 12)."""

    office: str
    seat: str

    def __str__(self) -> str:
        return f"CEDE {self.office} TO {self.seat}"


@dataclass(frozen=True)
class Veto:
    """An overlord's veto over his vassal (rulebook p. 11): `what` is attack or leave;
    `counties` empty = none, ("all",) = every county."""

    what: str
    counties: tuple[str, ...]

    def __str__(self) -> str:
        return f"VETO {self.what.upper()} " + (" ".join(self.counties) if self.counties
                                                 else "NONE")


@dataclass(frozen=True)
class Sequence:
    """Traditional movement mode (rulebook 6.5): the start player moves first or last."""

    first: bool

    def __str__(self) -> str:
        return "SEQUENCE " + ("FIRST" if self.first else "LAST")


@dataclass(frozen=True)
class Neutral:
    """Set-up with option neutral_placement=players: which neutral unit stands in a plain
    county of an unplayed province dealt to you (rulebook p. 6)."""

    county: str
    arm: str

    def __str__(self) -> str:
        return f"NEUTRAL {self.county} {self.arm}"


@dataclass(frozen=True)
class Resign:
    """Leave the game (rulebook p. 3: the units of a player who quits become neutral)."""

    def __str__(self) -> str:
        return "RESIGN"


STANDING = (Lead, Target, Reroll, Flee, Fealty, Retreat, Rejoin, Place, Losses, Prefer, Veto,
            Sequence)
Order = (Deploy | LordAt | Recruit | Ransom | Give | Move | Pass | Lead | Target | Reroll | Flee
         | Fealty | Retreat | Rejoin | Place | Losses | Prefer | Bid | Cede | Veto | Sequence
         | Resign | Neutral)


class OrderError(ValueError):
    """A line that does not parse; the message says what is wrong and what would be right."""


def seat_index(seats: list[str] | tuple[str, ...]) -> NameIndex:
    return NameIndex({s: [province_name(s), lord_name(s)] for s in seats}, what="player")


def _split(text: str) -> list[str]:
    # "2inf" -> "2 inf"; separators ; and , kept as tokens
    text = re.sub(r"(\d+)([^\d\s;,<=]+)", r"\1 \2", text)
    text = text.replace(";", " ; ").replace(",", " , ").replace("<=", " <= ")
    return text.split()


def _int(tok: str, what: str) -> int:
    if not tok.isdigit():
        raise OrderError(f'"{tok}" is not a number; {what} must be a whole number like 3')
    return int(tok)


def _county(gm: GameMap, tok: str) -> str:
    try:
        return gm.names.lookup(tok)
    except UnknownName as e:
        raise OrderError(str(e)) from None


def _arm(tok: str) -> str:
    try:
        return ARM_INDEX.lookup(tok)
    except UnknownName:
        raise OrderError(f'"{tok}" is not an arm; write cav, inf or arch '
                         '(lovas, gyalogos, íjász)') from None


def _arms(toks: list[str]) -> tuple[str, ...]:
    arms = tuple(_arm(t) for t in toks if t != ",")
    if not arms or len(set(arms)) != len(arms):
        raise OrderError("list each arm once, e.g. cav arch inf")
    return arms


def _counts(toks: list[str]) -> dict[str, int]:
    """'2 inf 1 cav' -> counts; an arm may appear once."""
    toks = [t for t in toks if t != ","]
    if len(toks) % 2:
        raise OrderError("write units as count and arm pairs, e.g. 2 inf 1 cav")
    out = {a: 0 for a in ARMS}
    for i in range(0, len(toks), 2):
        n = _int(toks[i], "a unit count")
        a = _arm(toks[i + 1])
        if n == 0 or out[a]:
            raise OrderError(f"give each arm once with a count of at least 1 ({toks[i]} "
                             f"{toks[i + 1]})")
        out[a] = n
    return out


def _kind(tok: str) -> str:
    if fold(tok) in ("all", "any", "mind"):
        return "all"
    try:
        return KIND_INDEX.lookup(tok)
    except UnknownName:
        raise OrderError(f'"{tok}" is not a battle type; write open, terrain, siege, '
                         'volley or all') \
            from None


def _part(gm: GameMap, toks: list[str]) -> Part:
    if not toks:
        raise OrderError("an empty origin; write e.g. FROM borsod 2 inf")
    county = _county(gm, toks[0])
    rest = [t for t in toks[1:] if t != ","]
    lord = False
    if rest and fold(rest[-1]) in ("lord", "hadur"):
        lord = True
        rest = rest[:-1]
    if rest and fold(rest[0]) in ("all", "mind", "minden"):
        if len(rest) > 1:
            raise OrderError(f'after "all" only "lord" may follow ({county})')
        return Part(county, all=True, lord=lord)
    c = _counts(rest) if rest else {a: 0 for a in ARMS}
    if not lord and not any(c.values()):
        raise OrderError(f"say what moves from {county}: counts like 2 inf, or all, or lord")
    return Part(county, c["cav"], c["inf"], c["arch"], lord=lord)


def parse_line(gm: GameMap, seats: list[str], line: str) -> Order:
    toks = _split(line)
    verb = _VERB.get(fold(toks[0]))
    if verb is None:
        raise OrderError(f'"{toks[0]}" is not a command; commands are ' +
                         ", ".join(v.upper() for v in VERBS))
    args = toks[1:]
    up = [fold(t) for t in args]
    if verb == "neutral":
        if len(args) != 2:
            raise OrderError("write NEUTRAL <county> <arm>, e.g. NEUTRAL borsod cav")
        return Neutral(_county(gm, args[0]), _arm(args[1]))
    if verb == "resign":
        if args:
            raise OrderError("RESIGN takes nothing after it")
        return Resign()
    if verb == "pass":
        if args:
            raise OrderError("PASS takes nothing after it")
        return Pass()
    if verb == "deploy":
        if len(args) < 3:
            raise OrderError("write DEPLOY <county> <count> <arm> ..., e.g. DEPLOY abauj 2 inf")
        c = _counts(args[1:])
        return Deploy(_county(gm, args[0]), c["cav"], c["inf"], c["arch"])
    if verb in ("lord", "ransom"):
        if len(args) != 1:
            raise OrderError(f"write {verb.upper()} <county>, e.g. {verb.upper()} abauj")
        return LordAt(_county(gm, args[0])) if verb == "lord" else Ransom(_county(gm, args[0]))
    if verb == "recruit":
        if len(args) != 4 or up[2] not in ("in", "be", "ide"):
            raise OrderError("write RECRUIT <count> <arm> IN <castle county>, "
                             "e.g. RECRUIT 2 inf IN abauj")
        n = _int(args[0], "the count")
        if n < 1:
            raise OrderError("recruit at least 1 unit")
        county = _county(gm, args[3])
        if not gm.counties[county].has_castle:
            raise OrderError(f"{county} has no castle; recruits go only into castle counties")
        return Recruit(n, _arm(args[1]), county)
    if verb == "give":
        if len(args) < 3 or up[1] not in ("to", "nak", "nek", "neki"):
            raise OrderError("write GIVE <garas> TO <player>, e.g. GIVE 5 TO erdely")
        n = _int(args[0], "the amount")
        if n < 1:
            raise OrderError("give at least 1 garas")
        try:
            return Give(n, seat_index(seats).lookup(" ".join(args[2:])))
        except UnknownName as e:
            raise OrderError(str(e)) from None
    if verb == "move":
        return _move(gm, args, up)
    if verb in ("lead", "target"):
        if not args:
            raise OrderError(f"write {verb.upper()} <open|terrain|siege|all> <arms...>")
        kind = _kind(args[0])
        arms = _arms(args[1:])
        return Lead(kind, arms) if verb == "lead" else Target(kind, arms)
    if verb in ("reroll", "flee"):
        if len(args) != 1:
            raise OrderError(f"write {verb.upper()} <number> or {verb.upper()} NEVER")
        if up[0] in ("never", "soha", "no"):
            return Reroll(0) if verb == "reroll" else Flee(0)
        n = _int(args[0], "the threshold")
        if verb == "reroll":
            if not 1 <= n <= 20:
                raise OrderError("REROLL takes a number of missed dice from 1 to 20, or NEVER")
            return Reroll(n)
        if not 1 <= n <= 100:
            raise OrderError("FLEE takes a percentage from 1 to 100, or NEVER")
        return Flee(n)
    if verb == "fealty":
        modes = {"yes": "yes", "igen": "yes", "no": "no", "nem": "no", "castle": "castle",
                 "var": "castle"}
        if len(args) != 1 or up[0] not in modes:
            raise OrderError("write FEALTY YES, FEALTY NO or FEALTY CASTLE")
        return Fealty(modes[up[0]])
    if verb == "retreat":
        if not args:
            raise OrderError("write RETREAT <county> [<county> ...]")
        return Retreat(tuple(_county(gm, t) for t in args if t != ","))
    if verb == "rejoin":
        if not args:
            raise OrderError("write REJOIN <county> [<county> ...]: where your lord goes "
                             "after winning a duel")
        return Rejoin(tuple(_county(gm, t) for t in args if t != ","))
    if verb in ("place", "losses"):
        arms = _arms(args)
        return Place(arms) if verb == "place" else Losses(arms)
    if verb == "prefer":
        if not args:
            raise OrderError("write PREFER <player> [<player> ...]")
        try:
            idx = seat_index(seats)
            return Prefer(tuple(idx.lookup(t) for t in args if t != ","))
        except UnknownName as e:
            raise OrderError(str(e)) from None
    if verb == "cede":
        if len(args) < 3 or up[1] not in ("to", "nak", "nek", "neki"):
            raise OrderError("write CEDE <office> TO <player>, e.g. CEDE judge TO erdely")
        try:
            office = OFFICE_INDEX.lookup(args[0])
        except UnknownName:
            raise OrderError(f'"{args[0]}" is not an office; write judge, treasurer or '
                             'palatine') from None
        try:
            return Cede(office, seat_index(seats).lookup(" ".join(args[2:])))
        except UnknownName as e:
            raise OrderError(str(e)) from None
    if verb == "veto":
        what = {"attack": "attack", "tamadas": "attack", "leave": "leave", "elhagy": "leave"}
        if len(args) < 2 or up[0] not in what:
            raise OrderError("write VETO ATTACK <county...>|ALL|NONE or VETO LEAVE "
                             "<county...>|ALL|NONE")
        if up[1:] == ["none"] or up[1:] == ["semmi"]:
            return Veto(what[up[0]], ())
        if up[1:] == ["all"] or up[1:] == ["mind"]:
            return Veto(what[up[0]], ("all",))
        return Veto(what[up[0]], tuple(_county(gm, t) for t in args[1:] if t != ","))
    if verb == "sequence":
        modes = {"first": True, "elso": True, "last": False, "utolso": False}
        if len(args) != 1 or up[0] not in modes:
            raise OrderError("write SEQUENCE FIRST or SEQUENCE LAST")
        return Sequence(modes[up[0]])
    if verb == "bid":
        if len(args) not in (2, 5) or (len(args) == 5 and (
                up[2] not in ("if", "ha") or up[3] not in ("won", "lost", "nyert", "vesztett"))):
            raise OrderError("write BID <office> <garas> [IF WON|LOST <office>], e.g. "
                             "BID judge 6")
        try:
            office = OFFICE_INDEX.lookup(args[0])
            cond_office = OFFICE_INDEX.lookup(args[4]) if len(args) == 5 else ""
        except UnknownName as e:
            raise OrderError(f"{e}; write judge, treasurer or palatine") from None
        cond = {"won": "won", "nyert": "won", "lost": "lost", "vesztett": "lost"}.get(
            up[3], "") if len(args) == 5 else ""
        if cond and OFFICES.index(cond_office) >= OFFICES.index(office):
            raise OrderError(f"a condition can only name an office auctioned before {office} "
                             "(order: judge, treasurer, palatine)")
        return Bid(office, _int(args[1], "the bid"), cond, cond_office)
    raise AssertionError(verb)  # pragma: no cover


def _move(gm: GameMap, args: list[str], up: list[str]) -> Move:
    usage = "write MOVE TO <county> FROM <county> <count> <arm> ...[; <county> ...] [IF EMPTY]"
    if len(args) < 4 or up[0] not in ("to", "ide", "be") or up[2] not in ("from", "innen",
                                                                          "bol"):
        raise OrderError(usage)
    target = _county(gm, args[1])
    rest = args[3:]
    cond, limit = "", 0
    low = [fold(t) for t in rest]
    if "if" in low or "ha" in low:
        i = low.index("if") if "if" in low else low.index("ha")
        tail = low[i + 1:]
        rest = rest[:i]
        if tail in (["empty"], ["ures"]):
            cond = "empty"
        elif len(tail) == 3 and tail[0] in ("enemy", "ellenseg") and tail[1] == "<=":
            cond, limit = "enemy", _int(tail[2], "the enemy limit")
        else:
            raise OrderError("a condition is IF EMPTY or IF ENEMY <= <count>")
    parts: list[Part] = []
    chunk: list[str] = []
    for t in [*rest, ";"]:
        if t == ";":
            if chunk:
                parts.append(_part(gm, chunk))
            chunk = []
        else:
            chunk.append(t)
    if not parts:
        raise OrderError(usage)
    if len({p.county for p in parts}) != len(parts):
        raise OrderError("name each origin county once in a step")
    if any(p.county == target for p in parts):
        raise OrderError(f"{target} is the target; units cannot move from it into it")
    return Move(target, tuple(parts), cond, limit)
