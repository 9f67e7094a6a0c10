"""The Cherubion order language: one frozen order type per command, and the grammar.

One command per line, verb first, English or Hungarian verb, names case- and
accent-insensitive. Each type parses itself from the words after its verb, and
`str(order)` is its canonical line (`GRAMMAR.parse_line(state, seat, str(o)) == o`). A
parse error is one line saying what is wrong, with a correct example. The parser knows the
board (fields) and the seats from the state it is given; whether an order is legal in the
position is judged on arrival (ruleset.py `check`) and again when the line is reached.

See docs/rulesets/cherubion.md for the whole language. Not here: carrying orders out
(rules/).

The package: `read` (token readers), `setup`, `turn` (with IF/ELSE), `standing`,
`diplomacy`; here PASS, the groups of order types the steps accept, and the grammar.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbem.core.kit import Grammar, Order
from pbem.rulesets.cherubion.orders.diplomacy import Ally, Break, Exchange, Hostage, Join
from pbem.rulesets.cherubion.orders.read import Bare
from pbem.rulesets.cherubion.orders.setup import (
    BaseChoice,
    Deck,
    Lineup,
    Place,
    StartResource,
    Team,
)
from pbem.rulesets.cherubion.orders.standing import (
    WHEN_EVENTS,
    CaptureWith,
    Forget,
    FreeAttack,
    Intruder,
    Loss,
    Scry,
    StrikeBack,
    Surrender,
    When,
)
from pbem.rulesets.cherubion.orders.turn import (
    TURN_ORDERS,
    Attack,
    Build,
    Cond,
    Deploy,
    Draw,
    Else,
    Execute,
    If,
    Move,
    Play,
    Upgrade,
)

__all__ = [
    "ANSWERED_BY_STANDING", "DIPLOMACY", "DRAFT_ORDERS", "GRAMMAR", "PLACEMENT_ORDERS",
    "STANDING", "TURN_ORDERS", "TURN_SCRIPT", "WHEN_EVENTS",
    "Ally", "Attack", "BaseChoice", "Break", "Build", "CaptureWith", "Cond", "Deck",
    "Deploy", "Draw", "Else", "Exchange", "Execute", "Forget", "FreeAttack", "Hostage",
    "If", "Intruder", "Join", "Lineup", "Loss", "Move", "Pass", "Place", "Play", "Scry",
    "StartResource", "StrikeBack", "Surrender", "Team", "Upgrade", "When",
]


# --- answers ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Pass(Bare):
    """An answer: no instant now (or the documented default of the question)."""

    verbs = ("PASS", "passz")
    usage = "PASS"


DRAFT_ORDERS: tuple[type[Order], ...] = (Team, BaseChoice, Lineup, Deck)
PLACEMENT_ORDERS: tuple[type[Order], ...] = (Place, StartResource)
TURN_SCRIPT: tuple[type[Order], ...] = TURN_ORDERS + (If, Else, Pass)
DIPLOMACY: tuple[type[Order], ...] = (Ally, Break, Hostage, Join, Exchange)
STANDING: tuple[type[Order], ...] = (Intruder, FreeAttack, Loss, Scry, When, Forget,
                                     StrikeBack, CaptureWith, Surrender)
# the standing orders a question asks for: sent by the asked seat, they answer it
ANSWERED_BY_STANDING: dict[str, type[Order]] = {
    "FREEATTACK": FreeAttack, "SCRY": Scry, "INTRUDER": Intruder, "LOSS": Loss}

GRAMMAR = Grammar(
    DRAFT_ORDERS + PLACEMENT_ORDERS + TURN_SCRIPT + STANDING + DIPLOMACY + (Pass,))
