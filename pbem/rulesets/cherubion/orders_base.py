"""Order-language basics shared by orders.py and orders_more.py: the error type and the
token readers (fields, pieces, cards, numbers, keyword splitting)."""

from __future__ import annotations

import re

from pbem.core.names import NameIndex, UnknownName, fold
from pbem.rulesets.cherubion import data
from pbem.rulesets.cherubion.board import get_board


class OrderError(ValueError):
    pass


_PIECE = re.compile(r"^[A-Z]{1,2}\d{1,3}$")
_FIELD = re.compile(r"^[A-P]\d{1,2}$")


def _field(tok: str, n: int) -> str:
    f = tok.strip().upper()
    if f not in get_board(n).fields:
        b = get_board(n)
        close = NameIndex({x: [] for x in b.fields}, what="field").suggest(f)
        raise OrderError(f'"{tok}" is not a field of the board (rows A-{b.order[-1][0]}){close}')
    return f


def _piece(tok: str) -> str:
    p = tok.strip().upper()
    if not _PIECE.match(p):
        raise OrderError(f'"{tok}" is not a piece id (like ME2, CH10 or S3 for a summon)')
    return p


def _card(text: str) -> str:
    try:
        return data.card_index().lookup(text)
    except UnknownName as e:
        raise OrderError(str(e)) from None


def _int(tok: str, what: str) -> int:
    try:
        return int(tok)
    except ValueError:
        raise OrderError(f'"{tok}" is not a number ({what})') from None


def _split_kw(words: list[str], keywords: tuple[str, ...]) -> dict[str, list[str]]:
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
