"""The BattleLore ruleset: declarations and the phase table (pbem.core.kit).

Steps: (council: sealed War Councils) -> (keep: sealed choice of starting Lore cards) ->
(place: landmarks, first player first) -> turn (the active player's whole turn as one
script), with a short question step for a seat asked mid-turn when `decisions=ask` (the
kit's decisions) -> over. Not here: the steps (phases.py), the rules (rules/), the views
(view.py).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from pbem.core.dice import Dice
from pbem.core.i18n import Msg, Translator, _
from pbem.core.kit import OVER, Context, Game, Order, Phase, Verdict
from pbem.core.orders import OrderLine, Parsed
from pbem.core.ruleset import GameConfig, Option, Result, Ruleset, Variant

from . import arrival, bot, phases, position, view
from .data import SEATS, data
from .orders import GRAMMAR, TURN_ORDERS, Answer, Council, Keep, Place, React, Standing
from .rules.council import keepers
from .rules.setup import new_game
from .state import Options, State, jcopy, other


def _variants() -> tuple[Variant, ...]:
    sc = data("scenarios")
    return tuple(Variant(k, v["name"], v.get("description", v.get("source", "")))
                 for k, v in sc.items())


PHASES = {
    "council": Phase("council", (Council,), _("your War COUNCIL"), lambda s: list(SEATS),
                     phases.council_prompt, phases.council_default, phases.resolve_council),
    "keep": Phase("keep", (Keep,), _("the starting Lore cards you KEEP"), keepers,
                  phases.keep_prompt, phases.keep_default, phases.resolve_keep),
    "place": Phase("place", (Place,), _("where to PLACE your landmarks"), phases.placing,
                   phases.place_prompt, phases.place_default, phases.resolve_place),
    "turn": Phase("turn", TURN_ORDERS, _("your turn (PLAY, ORDER, MOVE, RUSH, BATTLE, DRILL, "
                                         "FREE, PASSAGE, LORE, REPLENISH, KEEP, DISCARD)"),
                  phases.active,
                  phases.turn_prompt, phases.turn_default, phases.resolve_turn),
}
DECISIONS = ("retreat", "ignore", "battleback", "react", "creature")


class BattleLore(Game):
    id = "battlelore"
    state_is_plain_json = True  # the engine parses stored states without a copy
    title = "BattleLore"
    rulebook = "004_74ba96457336387d.txt"
    min_players = 2
    max_players = 2
    variants = _variants()
    options = (
        *Ruleset.options,
        Option("council_levels", 6, (4, 5, 6, 7, 8, 9, 10),
               "custom War Council: level tokens each player may spend (rulebook p.35: "
               "6 recommended, never more than 10)"),
        Option("ask_blind", True, (True, False),
               "with decisions=ask: ask about a reaction Lore card at every window where some "
               "card of the game's deck could be played with the seat's tokens (true: the "
               "question tells the opponent nothing about the hand), or only when the hand "
               "holds one (false: fewer questions, but being asked shows that it does)"),
        Option("hill_los", "adjacent", ("adjacent", "contiguous"),
               "SPEC-AMBIGUITY §10.11: from a hill, a hill hex does not block the view when it "
               "is next to the attacker's hill (adjacent) or joined to it by hills "
               "(contiguous)"),
    )
    grammar = GRAMMAR
    phases = PHASES
    answers: ClassVar[Mapping[str, tuple[type[Order], ...]]] = {k: (Answer,) for k in DECISIONS}
    # Standing orders (REACT, RETREAT, IGNORE, BATTLEBACK, CREATURE) are welcome from either
    # seat in every step: they decide that step's questions (e.g. REACT NONE sent during
    # the opponent's turn).
    standing_anytime = True
    state_schema = State
    report_outcomes = True

    def seat_ids(self, players: int, variant: str) -> tuple[str, ...]:
        return SEATS

    def setup(self, config: GameConfig, dice: Dice) -> State:
        opts: Options = {"decisions": self.option(config, "decisions"),
                         "council_levels": self.option(config, "council_levels"),
                         "ask_blind": self.option(config, "ask_blind"),
                         "hill_los": self.option(config, "hill_los")}
        return new_game(config.variant or self.default_variant(), opts, dice)

    # --- the kit's hooks ------------------------------------------------------------------
    def phase_of(self, state: Any) -> str:
        return OVER if state["phase"] == "over" else str(state["phase"])

    def ask_mode(self, state: Any) -> bool:
        return bool(state["options"]["decisions"] == "ask")

    def check(self, state: Any, seat: str, order: Order) -> Verdict:
        return arrival.check(state, seat, order)

    def parse(self, state: Any, seat: str, text: str) -> Parsed:
        return arrival.judge_file(state, seat, super().parse(state, seat, text))

    def absorb_standing(self, ctx: Context, seat: str, lines: Sequence[OrderLine]) -> None:
        """Standing orders are kept until changed, line by line: a unit's own line beside
        the general one; `REACT NONE` silences every reaction (and the questions about
        them), `REACT ASK` undoes that."""
        mine = ctx.state["standing"].setdefault(seat, {})
        for ln in lines:
            o = ln.order
            if isinstance(o, Standing):
                mine[o.key()] = o.value
            elif isinstance(o, React) and o.card == "none":
                for k in [k for k in mine if k.startswith("react ")]:
                    mine[k] = "NONE"
                mine["react_ask"] = "no"
            elif isinstance(o, React) and o.card == "ask":
                mine["react_ask"] = "yes"
            elif isinstance(o, React):
                mine[f"react {o.card}"] = o.unit
            ctx.log.done(seat, ln, _("kept as your standing order"))

    def waiting_notice(self, seat: str, what: str) -> Msg:
        """Without a final period: the public line is often the question itself (with its
        question mark)."""
        return _("Waiting for {seat}: {what}", seat=seat, what=what)

    def position_problems(self, state: Any) -> list[str]:
        return position.problems(state)

    def position_warnings(self, state: Any) -> list[str]:
        return position.warnings(state)

    # --- views and results --------------------------------------------------------------
    def view(self, state: Any, seat: str | None) -> dict[str, Any]:
        return view.make_view(state, seat)

    def result(self, state: Any) -> Result | None:
        r = state["result"]
        if not r:
            return None
        w = r["winner"]
        # the reason as a message (the stored state keeps its English text only)
        reason = _("{seat} reached {n} Victory Banners", seat=w, n=state["banners"][w])
        return Result((w,), {s: float(state["banners"][s]) for s in SEATS},
                      reason if reason == r["reason"] else r["reason"], (w, other(w)))

    def legal_orders(self, state: Any, seat: str, rng: random.Random) -> list[str]:
        return bot.random_orders(state, seat, rng)

    def redeal_hidden(self, state: Any, seat: str | None, rng: random.Random) -> Any:
        return view.redeal(state, seat, rng)

    def dump(self, state: Any) -> Any:
        return state

    def load(self, data_: Any) -> Any:
        return jcopy(data_)

    def round_number(self, state: Any) -> int:
        return (int(state["turn"]) + 1) // 2

    def phase_label(self, state: Any) -> str:
        return view.phase_label(state)

    def board_text(self, v: Mapping[str, Any]) -> str:
        return view.board_text(v)

    def board_svg(self, v: Mapping[str, Any], t: Translator | None = None) -> str | None:
        return view.board_svg(v, t)
