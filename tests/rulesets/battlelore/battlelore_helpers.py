"""Builders for BattleLore rule tests: blank boards, units, scripted dice, quick runs.

Imported by the tests through conftest.py, which puts this folder on sys.path."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from pbem.core.dice import ScriptedDice
from pbem.core.ruleset import GameConfig
from pbem.rulesets.battlelore import RULESET
from pbem.rulesets.battlelore.ctx import Ctx, RecDice
from pbem.rulesets.battlelore.state import new_unit
from pbem.rulesets.battlelore.turn import fresh_tf

FACE = {"G": 1, "B": 2, "R": 3, "BS": 4, "F": 5, "L": 6}


def dice(*faces: str | int) -> ScriptedDice:
    """ScriptedDice from face names (G B R BS F L) or raw numbers (picks)."""
    return ScriptedDice([FACE[f] if isinstance(f, str) else f for f in faces])


def blank(variant: str = "agincourt", mode: str | None = None) -> dict[str, Any]:
    """A game state of `variant` with no units and no terrain, north to play."""
    s = RULESET.setup(GameConfig(("north", "south"), variant), _Zero())
    s = copy.deepcopy(s)
    s["units"] = {}
    s["terrain"] = {}
    s["landmarks"] = {}
    s["phase"] = "turn"
    if mode:
        s["mode"] = mode
    s["tf"] = fresh_tf(s)
    return s


class _Zero(ScriptedDice):
    def __init__(self) -> None:
        super().__init__([])

    def _next(self, n: int, kind: str) -> int:
        return 0


def put(s: dict[str, Any], uid: str, owner: str, utype: str, h: tuple[int, int],
        fig: int | None = None) -> dict[str, Any]:
    u = new_unit(uid, owner, utype, h)
    if fig is not None:
        u["fig"] = fig
    s["units"][uid] = u
    s["tf"]["start_hex"][uid] = f"{h[0]}-{h[1]}"
    return u


def ctx(s: dict[str, Any], *faces: str | int, ask: bool = False,
        answers: list[str] | None = None) -> Ctx:
    return Ctx(s, RecDice(dice(*faces), []), ask=ask, answers=answers)


@pytest.fixture
def R() -> Any:
    return RULESET
