"""The set-up orders: the draft (TEAM, BASE, LINEUP, DECK) and the initial placement (PLACE,
RESOURCE)."""

from __future__ import annotations

from dataclasses import dataclass

from pbem.core.i18n import _
from pbem.core.kit import Order, OrderError, Tokens
from pbem.core.kit.grammar import message_of
from pbem.core.names import UnknownName, fold
from pbem.rulesets.cherubion import data
from pbem.rulesets.cherubion.orders.read import (
    board_size,
    card,
    field,
    number,
    piece,
    take_rest,
)


@dataclass(frozen=True)
class Team(Order):
    verbs = ("TEAM", "csapat", "demigod", "felisten")
    usage = "TEAM <demigod> [<demigod> ...]"
    example = "TEAM Melan Choler Sang"
    prefs: tuple[str, ...]

    @classmethod
    def parse(cls, t: Tokens) -> Team:
        rest = take_rest(t)
        if not rest:
            raise OrderError(_("TEAM needs one or more demigods in order of preference"))
        try:
            return cls(tuple(data.team_index().lookup(w) for w in rest))
        except UnknownName as e:
            raise OrderError(message_of(e)) from None

    def __str__(self) -> str:
        return "TEAM " + " ".join(self.prefs)


@dataclass(frozen=True)
class BaseChoice(Order):
    verbs = ("BASE", "bazis")
    usage = "BASE <side> [<side> ...]"
    example = "BASE 4 1 3"
    prefs: tuple[int, ...]

    @classmethod
    def parse(cls, t: Tokens) -> BaseChoice:
        sides = tuple(number(w, _("a board side 1-5")) for w in take_rest(t))
        if not sides or any(not 1 <= s <= 5 for s in sides):
            raise OrderError(_("BASE needs board sides 1-5 in order of preference (side 6 is "
                               "No-Man's Land)"))
        return cls(sides)

    def __str__(self) -> str:
        return "BASE " + " ".join(map(str, self.prefs))


@dataclass(frozen=True)
class Lineup(Order):
    verbs = ("LINEUP", "felallas")
    usage = "LINEUP STANDARD|ADVANCED"
    example = "LINEUP ADVANCED"
    kind: str  # standard | advanced

    @classmethod
    def parse(cls, t: Tokens) -> Lineup:
        rest = take_rest(t)
        kinds = {"standard": "standard", "advanced": "advanced", "fejlesztett": "advanced"}
        if len(rest) != 1 or fold(rest[0]) not in kinds:
            raise OrderError(_("LINEUP takes STANDARD or ADVANCED (fejlesztett)"))
        return cls(kinds[fold(rest[0])])

    def __str__(self) -> str:
        return f"LINEUP {self.kind}"


@dataclass(frozen=True)
class Deck(Order):
    verbs = ("DECK", "pakli")
    usage = "DECK DEFAULT | DECK <card>=<copies>, ..."
    example = "DECK Barlangi gyik=3, n04=2"
    cards: tuple[tuple[str, int], ...] = ()  # empty: the default deck

    @classmethod
    def parse(cls, t: Tokens) -> Deck:
        body = " ".join(take_rest(t))
        if fold(body) in ("default", "alap"):
            return cls()
        merged: dict[str, int] = {}
        for part in body.split(","):
            if "=" not in part:
                raise OrderError(_("\"{strip}\": write each card as name=copies, e.g. \"DECK Barlangi "
                                   "gyik=3, n04=2\", or DECK DEFAULT",
                                   strip=part.strip()))
            name, count = part.rsplit("=", 1)
            cid = card(name.strip())
            merged[cid] = merged.get(cid, 0) + number(count.strip(), _("copies"))
        return cls(tuple(sorted(merged.items())))

    def __str__(self) -> str:
        if not self.cards:
            return "DECK DEFAULT"
        return "DECK " + ", ".join(f"{c}={n}" for c, n in self.cards)


@dataclass(frozen=True)
class Place(Order):
    verbs = ("PLACE", "lerak", "elhelyez")
    usage = "PLACE <piece> <field>"
    example = "PLACE ME2 K10"
    piece: str
    field: str

    @classmethod
    def parse(cls, t: Tokens) -> Place:
        rest = take_rest(t)
        if len(rest) != 2:
            raise OrderError(_("PLACE takes a piece and a field, e.g. PLACE ME2 K10"))
        return cls(piece(rest[0]), field(rest[1], board_size(t)))

    def __str__(self) -> str:
        return f"PLACE {self.piece} {self.field}"


@dataclass(frozen=True)
class StartResource(Order):
    verbs = ("RESOURCE", "eroforras")
    usage = "RESOURCE <field>"
    example = "RESOURCE L8"
    field: str

    @classmethod
    def parse(cls, t: Tokens) -> StartResource:
        rest = take_rest(t)
        if len(rest) != 1:
            raise OrderError(_("RESOURCE takes one field, e.g. RESOURCE L8"))
        return cls(field(rest[0], board_size(t)))

    def __str__(self) -> str:
        return f"RESOURCE {self.field}"
