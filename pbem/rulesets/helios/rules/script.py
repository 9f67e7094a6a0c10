"""A Phase 1 script as written: turn blocks (split at NEXT) of alternatives (split at OR),
each alternative a TAKE line, at most one action line and BONUS lines (spec §4.5, the
conditional-order layer). One reading serves both the judgement on arrival (arrival.py,
which also sees lines that failed to parse) and the resolution (rules/turns.py, which gets
the accepted lines, or a stored turn's canonical lines numbered 0).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from pbem.core.orders import OrderLine
from pbem.rulesets.helios.orders import (
    Action,
    Bonus,
    Build,
    Catchup,
    Decline,
    Next,
    Or,
    Place,
    Sun,
    Take,
    Temple,
)


@dataclass
class BonusLine:
    action: Action
    line: OrderLine


@dataclass
class Alternative:
    take: Take | None = None
    action: Action | None = None
    bonus: list[BonusLine] = field(default_factory=list)
    or_line: OrderLine | None = None
    take_line: OrderLine | None = None
    action_line: OrderLine | None = None
    lines: list[OrderLine] = field(default_factory=list)  # every line, in file order

    def canonical(self) -> list[str]:
        out = [str(self.take)] if self.take is not None else []
        if self.action is not None:
            out.append(str(self.action))
        return out + [str(Bonus(b.action)) for b in self.bonus]


@dataclass
class Block:
    alternatives: list[Alternative] = field(default_factory=list)
    next_line: OrderLine | None = None  # the NEXT line that opened it
    loose: list[OrderLine] = field(default_factory=list)  # lines before any TAKE or OR

    def canonical(self) -> list[str]:
        """The block as canonical lines (how a stored turn is kept)."""
        out: list[str] = []
        for i, alt in enumerate(self.alternatives):
            if i:
                out.append("OR")
            out.extend(alt.canonical())
        return out

    def lines(self) -> list[OrderLine]:
        return ([self.next_line] if self.next_line else []) + self.loose + [
            ln for alt in self.alternatives for ln in alt.lines]


def split(lines: Sequence[OrderLine]) -> list[Block]:
    """Order lines -> turn blocks -> alternatives. Block 0 always exists (it is empty when
    the script starts with NEXT); CATCHUP lines belong to no turn."""
    blocks = [Block()]
    alt: Alternative | None = None
    fresh_or: OrderLine | None = None  # an OR whose alternative has no line yet
    for ln in lines:
        o = ln.order
        if isinstance(o, Catchup):
            continue
        if isinstance(o, Next):
            blocks.append(Block(next_line=ln))
            alt, fresh_or = None, None
            continue
        if isinstance(o, Or):
            alt = Alternative(or_line=ln, lines=[ln])
            blocks[-1].alternatives.append(alt)
            fresh_or = ln
            continue
        if isinstance(o, Take) and (alt is None or alt.or_line is not fresh_or or alt.take):
            alt = Alternative(lines=[])
            blocks[-1].alternatives.append(alt)
        fresh_or = None
        if alt is None:
            blocks[-1].loose.append(ln)
            continue
        alt.lines.append(ln)
        if isinstance(o, Take) and alt.take is None:
            alt.take, alt.take_line = o, ln
        elif isinstance(o, Bonus):
            alt.bonus.append(BonusLine(o.action, ln))
        elif isinstance(o, Place | Temple | Build | Sun | Decline) and alt.action is None:
            alt.action, alt.action_line = o, ln
    return blocks
