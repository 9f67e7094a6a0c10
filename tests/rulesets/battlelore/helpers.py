"""Builders for the BattleLore tests: blank boards, units, scripted battle dice, a turn run
through the rules with a real resolution context, and the case runner's hooks."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from pbem.core.dice import ScriptedDice
from pbem.core.kit import Context, OrderError, ReplayDice
from pbem.core.ruleset import GameConfig
from pbem.rulesets.battlelore import RULESET
from pbem.rulesets.battlelore.board import distance
from pbem.rulesets.battlelore.orders import GRAMMAR, Battle
from pbem.rulesets.battlelore.rules.battle import attack, battle
from pbem.rulesets.battlelore.rules.common import GameOver
from pbem.rulesets.battlelore.rules.turn import run_turn
from pbem.rulesets.battlelore.state import State, Unit, new_turn, new_unit, uhex
from tests.support.cases import Case, Outcome

R = RULESET
CASES = Path(__file__).parent / "cases"
FACE = {"G": 1, "B": 2, "R": 3, "BS": 4, "F": 5, "L": 6}


def dice(*faces: str | int) -> ScriptedDice:
    """ScriptedDice from face names (G B R BS F L) or raw numbers (picks)."""
    return ScriptedDice([FACE[f] if isinstance(f, str) else f for f in faces])


class Zero(ScriptedDice):
    """Every draw picks the first (set-ups in tests)."""

    def __init__(self) -> None:
        super().__init__([])

    def _next(self, n: int, kind: str) -> int:
        return 0


def blank(variant: str = "agincourt", mode: str | None = None) -> State:
    """A game state of `variant` with no units, terrain or landmarks, north to play."""
    s: State = copy.deepcopy(R.setup(GameConfig(("north", "south"), variant), Zero()))
    s["units"] = {}
    s["terrain"] = {}
    s["landmarks"] = {}
    s["phase"] = "turn"
    if mode:
        s["mode"] = mode  # type: ignore[typeddict-item]
    s["this_turn"] = new_turn(s["units"])
    return s


def lore_state(council: dict[str, int] | None = None,
               goblets: tuple[int, int] = (0, 0)) -> State:
    """The Spider's Lair with empty board and hands: both councils `council`, tokens in
    the goblets, 4 Scout Centre cards each."""
    s = blank("spiders_lair")
    lo = s["lore"]
    assert lo is not None
    lo["council"] = {"north": dict(council or {}), "south": dict(council or {})}
    lo["hands"] = {"north": [], "south": []}
    lo["offer"] = {"north": [], "south": []}
    lo["goblet"] = {"north": goblets[0], "south": goblets[1]}
    lo["pool"] = 36 - sum(goblets)
    s["hands"] = {"north": ["scout_centre"] * 4, "south": ["scout_centre"] * 4}
    s["hand_size"] = {"north": 4, "south": 4}
    return s


def put(s: State, uid: str, owner: str, utype: str, h: tuple[int, int],
        fig: int | None = None) -> Unit:
    u = new_unit(uid, owner, utype, h)
    if fig is not None:
        u["figures"] = fig
    s["units"][uid] = u
    s["this_turn"]["start_hex"][uid] = f"{h[0]}-{h[1]}"
    return u


def ctx(s: State, *faces: str | int, ask: bool = False) -> Context:
    """A resolution context on `s` with scripted dice (auto decisions unless `ask`)."""
    return Context(s, ReplayDice(dice(*faces)), ask=ask)


def run(s: State, seat: str, text: str, *faces: str | int) -> Context:
    """The seat's turn script run through the rules (auto decisions); every die is used."""
    p = GRAMMAR.parse(s, seat, text)
    assert p.ok, p.echo()
    c = ctx(s, *faces)
    run_turn(c, p.lines)
    assert isinstance(c.dice, ReplayDice)
    left = c.dice.inner.remaining  # type: ignore[attr-defined]
    assert left == 0, f"{left} scripted dice left unused"
    return c


def texts(c: Context) -> str:
    return "\n".join(e.text for e in c.log.events)


# --- hooks of the shared case runner (tests/support/cases.py) ----------------------------------

def _fight(state: State, case: Case, whole: bool) -> Outcome:
    """`battle = "BATTLE <unit> <target> [follow-on choices]"`, one roll (`attack`) or the
    whole battle with its follow-on actions (`battle`); dice as faces G B R BS F L."""
    line = str(case.get("battle"))
    try:
        order = GRAMMAR.parse_line(state, state["units"][line.split()[1]]["owner"], line)
    except OrderError as exc:
        raise AssertionError(f"{case}: {line}: {exc}") from None
    assert isinstance(order, Battle)
    att, tgt = state["units"][order.unit], state["units"][order.targets[0]]
    c = Context(state, ReplayDice(dice(*case.get("dice", []))))
    try:
        if whole:
            battle(c, att, tgt, order)
        else:
            attack(c, att, tgt, melee=distance(uhex(att), uhex(tgt)) == 1)
    except GameOver:
        state["phase"] = "over"
    assert isinstance(c.dice, ReplayDice)
    left = c.dice.inner.remaining  # type: ignore[attr-defined]
    assert left == 0, f"{case}: {left} scripted dice left unused"
    return Outcome(state, c.log.events)


def attack_hook(ruleset: Any, state: State, case: Case) -> Outcome:
    return _fight(state, case, whole=False)


def battle_hook(ruleset: Any, state: State, case: Case) -> Outcome:
    return _fight(state, case, whole=True)


HOOKS = {"attack": attack_hook, "battle": battle_hook}
