"""Reading the words of an order line: fields, pieces, cards, numbers, seats, sizes,
keyword groups; the board size and seats come from the state the parser is given. Each
reader raises OrderError with one line saying what is wrong.

Not here: the order types (the other modules of this package)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from pbem.core.i18n import _
from pbem.core.kit import Order, OrderError, Tokens
from pbem.core.kit.grammar import message_of
from pbem.core.names import NameIndex, UnknownName, fold
from pbem.rulesets.cherubion import data
from pbem.rulesets.cherubion.board import get_board

PIECE_ID = re.compile(r"^[A-Z]{1,2}\d{1,3}$")
SIZE_INDEX = NameIndex({"small": ["kicsi", "kis"], "medium": ["kozepes"], "large": ["nagy"]},
                       what=_("resource size"))


# --- token readers ---------------------------------------------------------------------------

def board_size(t: Tokens) -> int:
    state = t.state
    return int(state.get("board_size", 6)) if isinstance(state, dict) else 6


def seats_of(t: Tokens) -> tuple[str, ...]:
    state = t.state
    if isinstance(state, dict) and isinstance(state.get("config"), dict):
        return tuple(state["config"].get("seats", ()))
    return ()


def field(tok: str, n: int) -> str:
    f = tok.strip().upper()
    b = get_board(n)
    if f not in b.fields:
        close = NameIndex({x: [] for x in b.fields}, what=_("field")).suggest(f)
        raise OrderError(_("\"{tok}\" is not a field of the board (rows A-{last}){close}",
                           tok=tok, last=b.order[-1][0], close=close))
    return f


def piece(tok: str) -> str:
    p = tok.strip().upper()
    if not PIECE_ID.match(p):
        raise OrderError(_("\"{tok}\" is not a piece id (like ME2, CH10 or S3 for a summon)",
                           tok=tok))
    return p


def card(text: str) -> str:
    try:
        return data.card_index().lookup(text)
    except UnknownName as e:
        raise OrderError(message_of(e)) from None


def number(tok: str, what: str) -> int:
    try:
        return int(tok)
    except ValueError:
        raise OrderError(_("\"{tok}\" is not a number ({what})", tok=tok, what=what)) from None


def seat_name(tok: str, seats: tuple[str, ...]) -> str:
    seat = tok.lower()
    if seats and seat not in seats:
        raise OrderError(_('"{tok}" is not a seat; seats are {seats}', tok=tok,
                           seats=", ".join(seats)))
    return seat


def size(tok: str) -> str:
    try:
        return SIZE_INDEX.lookup(tok)
    except UnknownName as e:
        raise OrderError(_("{e}; sizes are SMALL, MEDIUM, LARGE", e=message_of(e))) from None


def split_keywords(words: Sequence[str], keywords: tuple[str, ...]) -> dict[str, list[str]]:
    """Split words at keywords (folded match): {"": head, "BY": [...], ...}."""
    out: dict[str, list[str]] = {"": []}
    cur = ""
    for w in words:
        key = fold(w).upper()
        if key in keywords:
            cur = key
            out[cur] = []
        else:
            out[cur].append(w)
    return out


def take_rest(t: Tokens) -> list[str]:
    """The words after the verb, all consumed (the order parses them itself)."""
    words = t.toks[t.i:]
    t.i = len(t.toks)
    return words


def verb_of(t: Tokens) -> str:
    return fold(t.toks[0])


class Bare(Order):
    """An order of one word."""

    @classmethod
    def parse(cls, t: Tokens) -> Order:
        if t.more():
            raise OrderError(_("{verbs} takes nothing after it", verbs=cls.verbs[0]))
        return cls()

    def __str__(self) -> str:
        return self.verbs[0]
