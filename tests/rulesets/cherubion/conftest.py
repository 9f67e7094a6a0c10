"""Shared builders for the Cherubion tests: a turn-phase state with chosen teams, Bases and
placements, scripted dice, and a helper that resolves one turn script."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from pbem.core.dice import ScriptedDice
from pbem.core.events import Event
from pbem.rulesets.cherubion import RULESET
from pbem.rulesets.cherubion.model import Ctx
from pbem.rulesets.cherubion.orders import BaseChoice, Team
from pbem.rulesets.cherubion.setup import apply_draft, new_state


def build(teams: dict[str, str], sides: dict[str, int], *, variant: str = "standard",
          options: dict[str, Any] | None = None, n: int = 6) -> dict[str, Any]:
    """A state in the turn phase: every piece in its Base, empty hands, no resources, the
    first seat active with 0 MÉ. Seats are the keys of `teams`, in turn order."""
    seats = list(teams)
    opts = {"decisions": "auto", "round_limit": 0, "summon_move": False, **(options or {})}
    st = new_state({"seats": seats, "variant": variant, "options": opts}, n, [6],
                   [1, 2, 3, 4, 5])
    st["order"] = seats
    ctx = Ctx(st, ScriptedDice([]))
    apply_draft(ctx, {s: [Team((teams[s],)), BaseChoice((sides[s],))] for s in seats})
    for pl in st["players"].values():
        pl["pile"] = []
        pl["placed"] = True
    st["phase"] = "turn"
    st["round"] = 1
    st["active"] = seats[0]
    st["awaiting_orders"] = True
    for s in seats:
        st["players"][s]["turns"] = 1
    return st


def place(st: dict[str, Any], **where: str) -> None:
    for pid, field in where.items():
        st["pieces"][pid]["loc"] = field


def resource(st: dict[str, Any], seat: str, field: str, size: str = "large",
             active: bool = True) -> str:
    from pbem.rulesets.cherubion.model import new_id
    from pbem.rulesets.cherubion.setup import RESOURCE_TABLE
    rid = new_id(st, "N")
    st["resources"][rid] = {"id": rid, "owner": seat, "field": field, "size": size,
                            "ep": RESOURCE_TABLE[size]["ep"], "active": active}
    return rid


def set_turn(st: dict[str, Any], seat: str, *, me: int = 0, energy: int | None = None) -> None:
    st["active"] = seat
    st["turn"] = {}
    st["awaiting_orders"] = True
    st["ask"] = None
    st["players"][seat]["me"] = me
    if energy is not None:
        st["players"][seat]["energy"] = energy


def play_turn(st: dict[str, Any], seat: str, text: str, dice: list[int]) -> tuple[
        dict[str, Any], list[Event], ScriptedDice]:
    """Resolve `seat`'s turn script with scripted dice (include the next seat's MÉ dice)."""
    parsed = RULESET.parse(st, seat, text)
    assert parsed.ok, parsed.echo()
    d = ScriptedDice(dice)
    st, events = RULESET.resolve(st, {seat: parsed}, d)
    return st, events, d


def texts(events: list[Event]) -> str:
    return "\n".join(e.text for e in events)


@pytest.fixture
def ruleset():
    return RULESET


# Test modules import these helpers as `cherubion_testkit` (importlib mode cannot import
# conftest by name; a unique alias avoids clashing with other folders' conftest modules).
sys.modules.setdefault("cherubion_testkit", sys.modules[__name__])
