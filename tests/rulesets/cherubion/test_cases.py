"""The rulebook's worked examples and the spec's test cases (§9, TC-1 ... TC-38) as data:
tests/rulesets/cherubion/cases/*.toml, run by the shared case runner. The hooks below test
one rule in isolation where the rulebook example does (a MÉ roll, a card's cost and range,
one blow, a damage expression, production, a resource-destruction loss, the RALLY field,
the fields a teleport can reach)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pbem.core.dice import ScriptedDice
from pbem.core.kit import Context
from pbem.core.ruleset import Ruleset
from pbem.rulesets.cherubion import RULESET, data
from pbem.rulesets.cherubion.rules.cards import card_range, check_play, price, surcharge
from pbem.rulesets.cherubion.rules.combat import blow
from pbem.rulesets.cherubion.rules.life import destroy_resource
from pbem.rulesets.cherubion.rules.queries import board, effective_tk, fe_bonus, holder
from pbem.rulesets.cherubion.rules.resources import production
from pbem.rulesets.cherubion.rules.turn import roll_me
from tests.support.cases import Case, case_params, check_case

from .helpers import parse_line

CASES = Path(__file__).parent / "cases"


def _dice(case: Case) -> ScriptedDice:
    return ScriptedDice(case.get("dice") or [])


def me_roll(ruleset: Ruleset, state: Any, case: Case) -> dict[str, Any]:
    """TC-1: 2d6, again while double six."""
    d = _dice(case)
    me, faces = roll_me(Context(state, d), case.get("seat", "alpha"))
    return {"me": me, "faces": faces, "dice_left": d.remaining}


def card(ruleset: Ruleset, state: Any, case: Case) -> dict[str, Any]:
    """A card play judged now: its price, its range, what is wrong with it ("" if
    nothing), and who holds the special fields."""
    seat = case.get("seat", "alpha")
    play = parse_line(case.get("play"), state["board_size"], tuple(state["players"]))
    caster = state["pieces"][play.caster]
    extra = surcharge(state, caster, play.card)
    return {"price": price(state, seat, play.card, extra, play.k) if isinstance(extra, int)
            else None, "range": card_range(state, seat, play.card, play.k),
            "problem": check_play(state, seat, play) or "",
            "surcharge": extra, "printed": data.card(play.card)["cost"],
            "holder": {e: holder(state, e) for e in ("discount", "reach", "rally")}}


def one_blow(ruleset: Ruleset, state: Any, case: Case) -> dict[str, Any]:
    """One strike of `attacker` on `defender` (TC-16)."""
    b = blow(Context(state, _dice(case)), state["pieces"][case.get("attacker")],
             state["pieces"][case.get("defender")], "Attack")
    return {"hit": b.hit, "dmg": b.dmg}


def damage_expr(ruleset: Ruleset, state: Any, case: Case) -> dict[str, Any]:
    """A damage expression rolled (TC-15: the half die)."""
    return {"total": data.roll_expr(_dice(case), case.get("expr"), "case")[0]}


def energy(ruleset: Ruleset, state: Any, case: Case) -> dict[str, Any]:
    """The energy a seat's resources produce at the start of its turn (TC-8)."""
    return {"production": production(state, case.get("seat", "alpha"))}


def loss(ruleset: Ruleset, state: Any, case: Case) -> Any:
    """Resources of `seat` destroyed (TC-6): the Base pieces lose a quarter of their ÉP."""
    seat = case.get("seat", "alpha")
    before = sum(p["ep"] for p in state["pieces"].values() if p["owner"] == seat)
    ctx = Context(state, ScriptedDice([]))
    for rid in sorted(r for r, x in state["resources"].items() if x["owner"] == seat):
        destroy_resource(ctx, rid, "case")
    after = sum(p["ep"] for p in state["pieces"].values() if p["owner"] == seat)
    return {**state, "lost": before - after}


def rally(ruleset: Ruleset, state: Any, case: Case) -> dict[str, Any]:
    """Attack and damage bonuses of each piece named (TC-33)."""
    return {pid: {"tk": effective_tk(state, state["pieces"][pid]),
                  "fe_bonus": fe_bonus(state, state["pieces"][pid])}
            for pid in case.get("pieces")}


def teleport_reach(ruleset: Ruleset, state: Any, case: Case) -> dict[str, Any]:
    """Which fields a teleport of `steps` from `gate` can land on (TC-18)."""
    b = board(state)
    k = case.get("steps")
    return {f: b.distance(case.get("gate"), f) <= k and
            (k - b.distance(case.get("gate"), f)) % 2 == 0 for f in case.get("fields")}


HOOKS = {"me_roll": me_roll, "card": card, "blow": one_blow, "damage": damage_expr,
         "production": energy, "loss": loss, "rally": rally, "teleport_reach": teleport_reach}


@pytest.mark.parametrize("case", case_params(CASES))
def test_case(case: Case) -> None:
    check_case(RULESET, case, HOOKS)
