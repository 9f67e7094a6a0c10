"""The lightning effects registry (effects.py): every lightning tile kind of the data
files has a handler, and each handler does what its rulebook passage says."""

from __future__ import annotations

from pbem.core.dice import ScriptedDice
from pbem.core.kit import Context, ReplayDice
from pbem.rulesets.macht_und_ohnmacht import data
from pbem.rulesets.macht_und_ohnmacht.effects import EFFECTS
from pbem.rulesets.macht_und_ohnmacht.orders import Decline, Rebel, Swap

from .helpers import ex1, region


def test_every_lightning_tile_of_the_data_has_a_handler() -> None:
    kinds = {e["kind"] for e in data.components()["tile"] if e.get("lightning")}
    assert kinds == {"vp", "rebellion", "swap"}
    assert EFFECTS.missing(kinds) == []
    assert EFFECTS.ids() == kinds


def _ctx(state: dict) -> Context:
    return Context(state, ReplayDice(ScriptedDice([])))


def test_handlers() -> None:
    state = ex1()
    EFFECTS("vp", _ctx(state), "white", None)
    assert state["vp"]["white"] == 1
    EFFECTS("rebellion", _ctx(state), "white", Rebel("a", 1, 1))
    assert region(state, "a") == ("orange", 1, 0)
    assert state["stock"]["orange"] == {"knight": 13, "mage": 14}
    EFFECTS("swap", _ctx(state), "white", Swap("a", "key"))
    assert state["regions"]["a"]["marker"] == "key"
    assert state["set_aside"] == ["castle", "tent", "tent"]
    ctx = _ctx(state)
    EFFECTS("swap", ctx, "white", Decline())
    assert [e.text for e in ctx.log.events] == ["white declines the effect."]
