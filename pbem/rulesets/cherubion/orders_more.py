"""More of the order language: conditional orders (IF/ELSE) and Diplomacy orders, with
their parsers. Split from orders.py for size; orders.parse_line dispatches here.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbem.core.names import fold
from pbem.rulesets.cherubion.orders_base import OrderError, _field, _int, _piece, _split_kw


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


@dataclass(frozen=True)
class If:
    """`IF <cond> THEN <order>`: the order runs only if the condition holds when reached;
    an `ELSE <order>` line right after runs otherwise (spec §11.3, dice fallbacks)."""

    cond: Cond
    order: object

    def __str__(self) -> str:
        return f"IF {self.cond} THEN {self.order}"


@dataclass(frozen=True)
class Else:
    order: object

    def __str__(self) -> str:
        return f"ELSE {self.order}"


@dataclass(frozen=True)
class Ally:
    """Diplomacy (optional rule): propose or confirm an alliance; SECRET keeps it between
    the two."""

    seat: str
    secret: bool = False

    def __str__(self) -> str:
        return f"ALLY {self.seat}" + (" SECRET" if self.secret else "")


@dataclass(frozen=True)
class Break:
    seat: str

    def __str__(self) -> str:
        return f"BREAK {self.seat}"


@dataclass(frozen=True)
class Hostage:
    """Diplomacy: swap one character each with an ally (both must send matching orders)."""

    seat: str
    give: str
    take: str

    def __str__(self) -> str:
        return f"HOSTAGE {self.seat} GIVE {self.give} TAKE {self.take}"


@dataclass(frozen=True)
class Join:
    """Diplomacy: after your demigod died, your team joins `seat`'s demigod (JOIN), or you
    accept such a team (ADOPT). Both must send it, with the same control term: KEEP (the
    default: the joining player keeps controlling his pieces) or HANDOVER (the adopting
    player takes them over)."""

    seat: str
    adopt: bool = False
    control: str = "keep"  # keep | handover

    def __str__(self) -> str:
        return f"{'ADOPT' if self.adopt else 'JOIN'} {self.seat}" + (
            " HANDOVER" if self.control == "handover" else "")


@dataclass(frozen=True)
class Exchange:
    """Prisoner exchange (Rulebook "Fogolyejtés": free terms, both must send matching
    orders): `give` are prisoners of `seat` held in your Base, handed back to it; `take` are
    your pieces held in its Base, handed back to you. One side may be empty (a release),
    not both. Sorted, so that the canonical line is unique."""

    seat: str
    give: tuple[str, ...] = ()
    take: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"EXCHANGE {self.seat}" + (" GIVE " + " ".join(self.give) if self.give else "") \
            + (" TAKE " + " ".join(self.take) if self.take else "")


def _seat(tok: str, seats: tuple[str, ...]) -> str:
    seat = tok.lower()
    if seats and seat not in seats:
        raise OrderError(f'"{tok}" is not a seat; seats are ' + ", ".join(seats))
    return seat


def _parse_diplomacy(verb: str, rest: list[str], seats: tuple[str, ...]) -> object:
    if verb == "ALLY":
        if not 1 <= len(rest) <= 2 or (len(rest) == 2 and fold(rest[1]) not in ("secret",
                                                                                  "titkos")):
            got = " ".join(rest) or "nothing"
            raise OrderError(f"ALLY takes a seat and optionally SECRET, not {got!r}; "
                             "e.g. ALLY beta SECRET")
        return Ally(_seat(rest[0], seats), len(rest) == 2)
    if verb == "HOSTAGE":
        parts = _split_kw(rest, ("GIVE", "AD", "TAKE", "KAP"))
        give = parts.get("GIVE", parts.get("AD"))
        take = parts.get("TAKE", parts.get("KAP"))
        if len(parts[""]) != 1 or not give or not take or len(give) != 1 or len(take) != 1:
            got = " ".join(rest) or "nothing"
            raise OrderError(f"HOSTAGE takes a seat, GIVE <your piece> and TAKE <their piece>, "
                             f"not {got!r}; e.g. HOSTAGE beta GIVE ME8 TAKE CH8")
        return Hostage(_seat(parts[""][0], seats), _piece(give[0]), _piece(take[0]))
    if verb == "EXCHANGE":
        return _parse_exchange(rest, seats)
    if verb in ("JOIN", "ADOPT"):
        terms = {"keep": "keep", "megtart": "keep", "handover": "handover", "atad": "handover"}
        if not 1 <= len(rest) <= 2 or (len(rest) == 2 and fold(rest[1]) not in terms):
            got = " ".join(rest) or "nothing"
            raise OrderError(f"{verb} takes a seat and optionally KEEP (the joining player keeps "
                             f"control, the default) or HANDOVER, not {got!r}; "
                             f"e.g. {verb} beta HANDOVER")
        return Join(_seat(rest[0], seats), verb == "ADOPT",
                    terms[fold(rest[1])] if len(rest) == 2 else "keep")
    if len(rest) != 1:
        got = " ".join(rest) or "nothing"
        raise OrderError(f"{verb} takes one seat, not {got!r}; e.g. {verb} beta")
    return Break(_seat(rest[0], seats))


_EXCHANGE_USAGE = ("e.g. EXCHANGE beta GIVE CH5 TAKE ME8 (GIVE: their prisoners in your Base; "
                   "TAKE: your pieces in their Base; one of them may be left out)")


def _parse_exchange(rest: list[str], seats: tuple[str, ...]) -> Exchange:
    keys = ("GIVE", "AD", "TAKE", "KAP")
    for kw, alias in (("GIVE", "AD"), ("TAKE", "KAP")):
        if sum(1 for w in rest if fold(w).upper() in (kw, alias)) > 1:
            raise OrderError(f"EXCHANGE has {kw} twice; list all its pieces after one {kw}, "
                             f"{_EXCHANGE_USAGE}")
    parts = _split_kw(rest, keys)
    if len(parts[""]) != 1:
        got = " ".join(parts[""]) or "nothing"
        raise OrderError(f"EXCHANGE takes one seat before GIVE/TAKE, not {got!r}; "
                         f"{_EXCHANGE_USAGE}")
    seat = _seat(parts[""][0], seats)
    give = parts.get("GIVE", parts.get("AD"))
    take = parts.get("TAKE", parts.get("KAP"))
    for kw, lst in (("GIVE", give), ("TAKE", take)):
        if lst is not None and not lst:
            raise OrderError(f"{kw} needs at least one piece after it (or leave {kw} out); "
                             f"{_EXCHANGE_USAGE}")
    if give is None and take is None:
        raise OrderError(f"EXCHANGE {rest[0]} needs GIVE <pieces>, TAKE <pieces> or both; "
                         f"{_EXCHANGE_USAGE}")
    g = tuple(sorted({_piece(w) for w in give or []}))
    t = tuple(sorted({_piece(w) for w in take or []}))
    both = sorted(set(g) & set(t))
    if both:
        raise OrderError(f"{both[0]} is both in GIVE and in TAKE; a piece goes one way only, "
                         f"{_EXCHANGE_USAGE}")
    return Exchange(seat, g, t)


TURN_VERBS = ("MOVE", "FLEE", "DEPLOY", "DRAW", "BUILD", "UPGRADE", "PLAY", "ATTACK",
              "EXECUTE")


def _parse_if(verb: str, rest: list[str], n: int, seats: tuple[str, ...]) -> object:
    if verb == "ELSE":
        if not rest:
            raise OrderError("ELSE takes an order, e.g. ELSE MOVE ME2 TO K12")
        return Else(_inner(rest, n, seats))
    words = [fold(w).upper() for w in rest]
    if "THEN" not in words and "AKKOR" not in words:
        raise OrderError("IF needs THEN, e.g. IF CH2 ALIVE THEN ATTACK ME4 CH2")
    k = words.index("THEN") if "THEN" in words else words.index("AKKOR")
    cond_w, order_w = rest[:k], rest[k + 1:]
    if not order_w:
        raise OrderError("IF ... THEN needs an order after THEN")
    return If(_cond(cond_w, n), _inner(order_w, n, seats))


def _inner(words: list[str], n: int, seats: tuple[str, ...]) -> object:
    from pbem.rulesets.cherubion.orders import parse_line
    o = parse_line(" ".join(words), n, seats)
    if str(o).split()[0] not in TURN_VERBS:
        raise OrderError(f"IF/ELSE take a turn order (MOVE, PLAY, ATTACK, ...), not {o}")
    return o


def _cond(words: list[str], n: int) -> Cond:
    usage = ("conditions: <piece> ALIVE | DEAD | ENGAGED | AT <field> | EP >= <n> | EP < <n>,"
             " ME >= <n>, ENERGY >= <n>")
    if len(words) < 2:
        raise OrderError(usage)
    head = fold(words[0]).upper()
    if head in ("ME", "ENERGY", "ENERGIA"):
        if len(words) != 3 or words[1] not in (">=", "<"):
            raise OrderError(usage)
        return Cond("ENERGY" if head != "ME" else "ME", words[1], str(_int(words[2], "amount")))
    piece = _piece(words[0])
    test = fold(words[1]).upper()
    if test in ("ALIVE", "EL", "DEAD", "HALOTT", "ENGAGED", "HARCBAN") and len(words) == 2:
        return Cond(piece, {"EL": "ALIVE", "HALOTT": "DEAD", "HARCBAN": "ENGAGED"}.get(test, test))
    if test == "AT" and len(words) == 3:
        return Cond(piece, "AT", _field(words[2], n))
    if test == "EP" and len(words) == 4 and words[2] in (">=", "<"):
        return Cond(piece, words[2], str(_int(words[3], "ÉP")))
    raise OrderError(usage)
