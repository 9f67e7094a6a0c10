"""Diplomacy (the optional rule: ALLY, BREAK, HOSTAGE, JOIN/ADOPT) and the prisoner
exchange (EXCHANGE, Rulebook "Fogolyejtés"): standing offers recorded until the other side
matches them."""

from __future__ import annotations

from dataclasses import dataclass

from pbem.core.i18n import _
from pbem.core.kit import Order, OrderError, Tokens
from pbem.core.names import fold
from pbem.rulesets.cherubion.orders.read import (
    piece,
    seat_name,
    seats_of,
    split_keywords,
    take_rest,
    verb_of,
)


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
        rest = take_rest(t)
        if not 1 <= len(rest) <= 2 or (len(rest) == 2 and fold(rest[1]) not in ("secret",
                                                                                  "titkos")):
            got = " ".join(rest) or "nothing"
            raise OrderError(_("ALLY takes a seat and optionally SECRET, not {got}; e.g. ALLY beta "
                               "SECRET",
                               got=repr(got)))
        return cls(seat_name(rest[0], seats_of(t)), len(rest) == 2)

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
        rest = take_rest(t)
        if len(rest) != 1:
            got = " ".join(rest) or "nothing"
            raise OrderError(_("BREAK takes one seat, not {got}; e.g. BREAK beta", got=repr(got)))
        return cls(seat_name(rest[0], seats_of(t)))

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
        rest = take_rest(t)
        parts = split_keywords(rest, ("GIVE", "AD", "TAKE", "KAP"))
        give = parts.get("GIVE", parts.get("AD"))
        take = parts.get("TAKE", parts.get("KAP"))
        if len(parts[""]) != 1 or not give or not take or len(give) != 1 or len(take) != 1:
            got = " ".join(rest) or "nothing"
            raise OrderError(_("HOSTAGE takes a seat, GIVE <your piece> and TAKE <their piece>, not"
                               " {got}; e.g. HOSTAGE beta GIVE ME8 TAKE CH8",
                               got=repr(got)))
        return cls(seat_name(parts[""][0], seats_of(t)), piece(give[0]), piece(take[0]))

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
        adopt = verb_of(t) in ("adopt", "befogad")
        verb = "ADOPT" if adopt else "JOIN"
        rest = take_rest(t)
        terms = {"keep": "keep", "megtart": "keep", "handover": "handover", "atad": "handover"}
        if not 1 <= len(rest) <= 2 or (len(rest) == 2 and fold(rest[1]) not in terms):
            got = " ".join(rest) or "nothing"
            raise OrderError(_("{verb} takes a seat and optionally KEEP (the joining player keeps "
                               "control, the default) or HANDOVER, not {got}; e.g. {verb} beta "
                               "HANDOVER",
                               verb=verb, got=repr(got)))
        return cls(seat_name(rest[0], seats_of(t)), adopt,
                   terms[fold(rest[1])] if len(rest) == 2 else "keep")

    def __str__(self) -> str:
        return f"{'ADOPT' if self.adopt else 'JOIN'} {self.seat}" + (
            " HANDOVER" if self.control == "handover" else "")


_EXCHANGE_USAGE = _("e.g. EXCHANGE beta GIVE CH5 TAKE ME8 (GIVE: their prisoners in your Base; "
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
        rest = take_rest(t)
        for kw, alias in (("GIVE", "AD"), ("TAKE", "KAP")):
            if sum(1 for w in rest if fold(w).upper() in (kw, alias)) > 1:
                raise OrderError(_("EXCHANGE has {kw} twice; list all its pieces after one {kw}, "
                                   "{usage}",
                                   kw=kw, usage=_EXCHANGE_USAGE))
        parts = split_keywords(rest, ("GIVE", "AD", "TAKE", "KAP"))
        if len(parts[""]) != 1:
            got = " ".join(parts[""]) or "nothing"
            raise OrderError(_("EXCHANGE takes one seat before GIVE/TAKE, not {got}; "
                               "{usage}",
                               got=repr(got), usage=_EXCHANGE_USAGE))
        who = seat_name(parts[""][0], seats_of(t))
        give = parts.get("GIVE", parts.get("AD"))
        take = parts.get("TAKE", parts.get("KAP"))
        for kw, lst in (("GIVE", give), ("TAKE", take)):
            if lst is not None and not lst:
                raise OrderError(_("{kw} needs at least one piece after it (or leave {kw} out); "
                                   "{usage}",
                                   kw=kw, usage=_EXCHANGE_USAGE))
        if give is None and take is None:
            raise OrderError(_("EXCHANGE {rest} needs GIVE <pieces>, TAKE <pieces> or both; "
                               "{usage}",
                               rest=rest[0], usage=_EXCHANGE_USAGE))
        g = tuple(sorted({piece(w) for w in give or []}))
        k = tuple(sorted({piece(w) for w in take or []}))
        both = sorted(set(g) & set(k))
        if both:
            raise OrderError(_("{both} is both in GIVE and in TAKE; a piece goes one way only, "
                               "{usage}",
                               both=both[0], usage=_EXCHANGE_USAGE))
        return cls(who, g, k)

    def __str__(self) -> str:
        return f"EXCHANGE {self.seat}" + (" GIVE " + " ".join(self.give) if self.give else "") \
            + (" TAKE " + " ".join(self.take) if self.take else "")
