"""The standing orders: sent in any file, also while the seat is not awaited, and kept
until replaced (SURRENDER, INTRUDER, FREEATTACK, LOSS, SCRY, STRIKEBACK, CAPTURE, WHEN,
FORGET)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbem.core.i18n import _
from pbem.core.kit import Order, OrderError, Tokens
from pbem.core.names import fold
from pbem.rulesets.cherubion.orders.read import (
    Bare,
    card,
    number,
    piece,
    seat_name,
    seats_of,
    split_keywords,
    take_rest,
)


@dataclass(frozen=True)
class Surrender(Bare):
    """Accepted at any time, also in a file sent while the seat is not awaited; it takes
    effect when the file is applied (spec DP16)."""

    verbs = ("SURRENDER", "megadja", "felad")
    usage = "SURRENDER"
    standing = True


@dataclass(frozen=True)
class Intruder(Order):
    verbs = ("INTRUDER", "betolakodo")
    usage = "INTRUDER PRISONER|KILL"
    example = "INTRUDER KILL"
    standing = True
    choice: str  # prisoner | kill

    @classmethod
    def parse(cls, t: Tokens) -> Intruder:
        rest = take_rest(t)
        choices = {"prisoner": "prisoner", "fogoly": "prisoner", "kill": "kill", "megol": "kill"}
        if len(rest) != 1 or fold(rest[0]) not in choices:
            raise OrderError(_("INTRUDER takes PRISONER or KILL, e.g. INTRUDER KILL"))
        return cls(choices[fold(rest[0])])

    def __str__(self) -> str:
        return f"INTRUDER {self.choice.upper()}"


@dataclass(frozen=True)
class FreeAttack(Order):
    verbs = ("FREEATTACK", "szabadtamadas")
    usage = "FREEATTACK YES|NO"
    example = "FREEATTACK NO"
    standing = True
    take: bool

    @classmethod
    def parse(cls, t: Tokens) -> FreeAttack:
        rest = take_rest(t)
        yn = {"yes": True, "igen": True, "no": False, "nem": False}
        if len(rest) != 1 or fold(rest[0]) not in yn:
            raise OrderError(_("FREEATTACK takes YES or NO, e.g. FREEATTACK NO"))
        return cls(yn[fold(rest[0])])

    def __str__(self) -> str:
        return "FREEATTACK " + ("YES" if self.take else "NO")


@dataclass(frozen=True)
class Loss(Order):
    """How a resource-destruction loss is split among your Base pieces (Rulebook
    "Erőforrások": "a játékos maga osztja el a veszteséget"): `CH8=12` takes 12 ÉP on CH8,
    a piece without an amount takes all it can of what is left, in the order written;
    what is still left goes one point at a time to the piece with the most ÉP."""

    verbs = ("LOSS", "veszteseg")
    usage = "LOSS <piece>[=<ÉP>] [<piece>[=<ÉP>] ...]"
    example = "LOSS CH8=12 CH9=1 CH10=1 CH1=1"
    standing = True
    pieces: tuple[str, ...]
    amounts: tuple[int, ...] = ()  # per piece; 0: all it can take; () : all 0

    @classmethod
    def parse(cls, t: Tokens) -> Loss:
        rest = take_rest(t)
        if not rest:
            raise OrderError(_("LOSS takes the pieces in your Base that take the loss, each with "
                               "the ÉP it loses or in the order they take it, e.g. LOSS CH8=12 "
                               "CH9=1 CH10=1 CH1=1 or LOSS CH8 CH9"))
        pieces, amounts = [], []
        for w in rest:
            name, _eq, amount = w.partition("=")
            pieces.append(piece(name))
            n = number(amount, _("the ÉP a piece loses")) if amount else 0
            if amount and n < 1:
                raise OrderError(_("\"{w}\": a piece given an amount loses 1 ÉP or more; leave it out"
                                   " of the list instead, e.g. LOSS CH8=12 CH9=3",
                                   w=w))
            amounts.append(n)
        if len(set(pieces)) < len(pieces):
            raise OrderError(_("LOSS names a piece twice; give each piece once, e.g. LOSS CH8=12 "
                               "CH9=3"))
        return cls(tuple(pieces), tuple(amounts) if any(amounts) else ())

    def items(self) -> list[tuple[str, int]]:
        return list(zip(self.pieces, self.amounts or (0,) * len(self.pieces), strict=True))

    def __str__(self) -> str:
        return "LOSS " + " ".join(f"{pid}={n}" if n else pid for pid, n in self.items())


@dataclass(frozen=True)
class Scry(Order):
    verbs = ("SCRY", "kikemlel")
    usage = "SCRY <seat>"
    example = "SCRY beta"
    standing = True
    seat: str

    @classmethod
    def parse(cls, t: Tokens) -> Scry:
        rest = take_rest(t)
        if len(rest) != 1:
            raise OrderError(_("SCRY takes one opponent's seat, e.g. SCRY beta"))
        return cls(seat_name(rest[0], seats_of(t)))

    def __str__(self) -> str:
        return f"SCRY {self.seat}"


@dataclass(frozen=True)
class StrikeBack(Order):
    """Whom `piece` strikes back at when attacked (Rulebook "Harc több ellenféllel": a
    piece that reaches other fields fights the attacker its player chooses, at most one per
    round): only the listed attackers (it saves its one strike-back for them), or FIRST
    (the first attacker it can reach; the default)."""

    verbs = ("STRIKEBACK", "visszaut")
    usage = "STRIKEBACK <piece> AT <attacker> [...] | STRIKEBACK <piece> FIRST"
    example = "STRIKEBACK CH1 AT ME1"
    standing = True
    piece: str
    targets: tuple[str, ...] = ()  # empty: FIRST

    @classmethod
    def parse(cls, t: Tokens) -> StrikeBack:
        rest = take_rest(t)
        if len(rest) == 2 and fold(rest[1]) in ("first", "elso"):
            return cls(piece(rest[0]))
        if len(rest) < 3 or fold(rest[1]) not in ("at", "ra"):
            raise OrderError(_("STRIKEBACK takes your piece and AT <attacker> [<attacker> ...] or "
                               "FIRST, e.g. STRIKEBACK CH1 AT ME1 or STRIKEBACK CH1 FIRST"))
        return cls(piece(rest[0]), tuple(piece(w) for w in rest[2:]))

    def __str__(self) -> str:
        return f"STRIKEBACK {self.piece} " + (
            "AT " + " ".join(self.targets) if self.targets else "FIRST")


@dataclass(frozen=True)
class CaptureWith(Order):
    """Take enemy characters your blows leave at -9..0 ÉP (strike-backs, mandatory melee,
    free attacks, card damage) captive with this transport piece, ANY of yours with room,
    or NO (Rulebook "Fogolyejtés": capture is possible whenever an enemy character is
    wounded to 9..0 and you have a transport piece). `ATTACK ... CAPTURE t` still names
    the carrier for that one attack."""

    verbs = ("CAPTURE", "elfog")
    usage = "CAPTURE <transport piece>|ANY|NO"
    example = "CAPTURE CH4"
    standing = True
    carrier: str  # a piece id, ANY or NO

    @classmethod
    def parse(cls, t: Tokens) -> CaptureWith:
        rest = take_rest(t)
        if len(rest) != 1:
            raise OrderError(_("CAPTURE takes one transport piece of yours, ANY or NO, e.g. CAPTURE"
                               " CH4"))
        w = fold(rest[0])
        return cls("ANY" if w in ("any", "barmely") else "NO" if w in ("no", "nem")
                   else piece(rest[0]))

    def __str__(self) -> str:
        return f"CAPTURE {self.carrier}"


WHEN_EVENTS = {"damage": "DAMAGE", "sebzes": "DAMAGE", "cast": "CAST", "varazs": "CAST",
               "zero": "ZERO", "nulla": "ZERO", "teleport": "TELEPORT", "after": "AFTER",
               "utana": "AFTER", "build": "BUILD", "epites": "BUILD", "start": "START",
               "kezdet": "START"}


@dataclass(frozen=True)
class When(Order):
    """A standing reaction trigger (spec §5.21.3). event: DAMAGE | CAST | AFTER | ZERO |
    TELEPORT | BUILD | START (AFTER: a card played openly has resolved and left a permanent
    card or a binding status on a piece; BUILD: an enemy announces a build or upgrade;
    START: another player's turn begins).
    `subject`: the card cast (CAST, AFTER) or ANY; `on`: my piece id, ANY (any of mine) or ALL
    (any piece, another player's too: spec §5.21.2, anyone may answer); `over`: damage
    threshold (DAMAGE: fires when the rolled damage is at least this)."""

    verbs = ("WHEN", "amikor")
    usage = "WHEN <event> [<card>|ANY] [ON <piece>|ANY|ALL] [OVER <n>] PLAY <card> BY <caster>|ANY"
    example = "WHEN DAMAGE ON ME4 OVER 6 PLAY Eppenhogy BY ANY"
    standing = True
    event: str
    card: str
    caster: str = "ANY"
    on: str = "ANY"
    subject: str = "ANY"
    over: int = 0

    @classmethod
    def parse(cls, t: Tokens) -> When:
        rest = take_rest(t)
        if not rest:
            raise OrderError(_("WHEN takes DAMAGE, CAST, AFTER, ZERO, TELEPORT, BUILD or START, "
                               "e.g. WHEN DAMAGE ON ME4 OVER 6 PLAY Eppenhogy BY ANY"))
        event = WHEN_EVENTS.get(fold(rest[0]))
        if event is None:
            raise OrderError(_("\"{rest}\" is not a trigger; use DAMAGE, CAST, AFTER, ZERO, TELEPORT,"
                               " BUILD or START",
                               rest=rest[0]))
        parts = split_keywords(rest[1:], ("ON", "OVER", "PLAY", "BY"))
        subject = "ANY"
        if event in ("CAST", "AFTER"):
            head = " ".join(parts[""])
            subject = "ANY" if fold(head) in ("any", "") else card(head)
        elif parts[""]:
            raise OrderError(_("unexpected {value} after WHEN {event}",
                               value=repr(" ".join(parts[""])), event=event))
        on = cls._on(event, parts)
        over = 0
        if "OVER" in parts:
            if event != "DAMAGE" or len(parts["OVER"]) != 1:
                raise OrderError(_("OVER <n> goes with WHEN DAMAGE only"))
            over = number(parts["OVER"][0], _("damage threshold"))
        if not parts.get("PLAY"):
            raise OrderError(_("a trigger needs PLAY <card> BY <caster|ANY>, e.g. WHEN ZERO ON ANY "
                               "PLAY Gyogyitas BY ANY"))
        cid = card(" ".join(parts["PLAY"]))
        by = parts.get("BY", ["ANY"])
        if len(by) != 1:
            raise OrderError(_("BY takes one caster or ANY"))
        caster = "ANY" if fold(by[0]) == "any" else piece(by[0])
        return cls(event, cid, caster, on, subject, over)

    @staticmethod
    def _on(event: str, parts: dict[str, list[str]]) -> str:
        if "ON" not in parts:
            return "ANY"
        if event in ("TELEPORT", "BUILD"):
            raise OrderError(_("WHEN {event} takes no ON: it fires for any enemy piece or build",
                               event=event))
        if len(parts["ON"]) != 1:
            raise OrderError(_("ON takes one of your pieces, ANY (any of yours) or ALL (any piece, "
                               "also another player's)"))
        w = fold(parts["ON"][0])
        return "ANY" if w in ("any", "barmely") else "ALL" if w in ("all", "mind") \
            else piece(parts["ON"][0])

    def __str__(self) -> str:
        s = f"WHEN {self.event}"
        if self.event in ("CAST", "AFTER"):
            s += f" {self.subject}"
        if self.event not in ("TELEPORT", "BUILD"):
            s += f" ON {self.on}"
        if self.event == "DAMAGE" and self.over:
            s += f" OVER {self.over}"
        return s + f" PLAY {self.card} BY {self.caster}"

    def to_trigger(self) -> dict[str, Any]:
        return {"event": self.event, "card": self.card, "caster": self.caster, "on": self.on,
                "subject": self.subject, "over": self.over}


@dataclass(frozen=True)
class Forget(Bare):
    """Forget all standing triggers (FORGET; not CLEAR, which the mail envelope owns)."""

    verbs = ("FORGET", "elfelejt", "torol")
    usage = "FORGET"
    standing = True
