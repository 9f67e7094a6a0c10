"""Kard és Korona on the game kit: the game's declarations (variants, options, seats), its
phase table and the decisions it asks. The rules are in `rules/`, the steps in `phases.py`.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from pbem.core.dice import Dice
from pbem.core.i18n import Msg, Translator, _
from pbem.core.kit import Context, Game, Order, Phase, Question, Verdict
from pbem.core.orders import OrderLine, Parsed, Prompt
from pbem.core.ruleset import GameConfig, Option, Result, Ruleset, Variant
from pbem.rulesets.kard_es_korona.bot import answer, orders_for, redeal
from pbem.rulesets.kard_es_korona.orders import (
    GRAMMAR,
    Bid,
    Cede,
    Choose,
    Deploy,
    Fight,
    Give,
    LordAt,
    Move,
    Neutral,
    Oath,
    Pass,
    Ransom,
    Recruit,
    Resign,
)
from pbem.rulesets.kard_es_korona.phases import (
    absorb,
    bid_awaits,
    bid_default,
    bid_prompt,
    deploy_awaits,
    deploy_default,
    deploy_prompt,
    judge_placement,
    orders_awaits,
    orders_default,
    orders_prompt,
    resolve_bids,
    resolve_deploy,
    resolve_orders,
)
from pbem.rulesets.kard_es_korona.phases import (
    check as check_on_arrival,
)
from pbem.rulesets.kard_es_korona.position import problems, warnings
from pbem.rulesets.kard_es_korona.rules.economy import election_due
from pbem.rulesets.kard_es_korona.rules.setup import (
    DEFAULT_SEATS,
    new_state,
    options_of,
    played_problems,
)
from pbem.rulesets.kard_es_korona.rules.victory import reason_message
from pbem.rulesets.kard_es_korona.state import State
from pbem.rulesets.kard_es_korona.view import board_svg as svg_of
from pbem.rulesets.kard_es_korona.view import board_text as text_of
from pbem.rulesets.kard_es_korona.view import phase_label as label_of
from pbem.rulesets.kard_es_korona.view import view as view_of

PHASES = {
    "deploy": Phase("deploy", (Deploy, LordAt, Neutral),
                    _("your starting placement (DEPLOY, LORD, NEUTRAL)"), deploy_awaits,
                    deploy_prompt, deploy_default, resolve_deploy),
    "orders": Phase("orders", (Recruit, Ransom, Give, Cede, Move, Pass, Bid, Resign),
                    _("your year orders (RECRUIT, RANSOM, GIVE, CEDE, MOVE, PASS, BID, RESIGN)"),
                    orders_awaits, orders_prompt, orders_default,
                    resolve_orders),
    "bid": Phase("bid", (Bid,), _("your sealed BID"), bid_awaits, bid_prompt,
                 bid_default, resolve_bids),
}


class KardEsKorona(Game):
    id = "kard-es-korona"
    state_is_plain_json = True  # the engine parses stored states without a copy
    title = _("Kard és Korona (Sword and Crown)")
    rulebook = "001_561befb6be5e49a8.txt"
    min_players = 2
    max_players = 6
    variants = (
        Variant("basic", "Basic game", "Small map (7 counties per province), 8 years."),
        Variant("advanced", "Advanced game", "Large map (10 counties per province), 12 years, "
                "pinning, flight, arm limits around castles, cavalry quota."),
    )
    options = (
        *Ruleset.options,
        Option("years", 0, (), "number of years; 0 = 8 (basic) or 12 (advanced)"),
        Option("fealty", True, (True, False), "a defeated lord may swear fealty (p. 11)"),
        Option("escape_roll", False, (True, False), "a defeated lord escapes on a 6 (p. 11)"),
        Option("lord_freeze", None, (None, True, False), "an attacked lord's player may "
               "not step; default per variant (advanced on, basic off: rulebook p. 14)"),
        Option("cavalry_cap", True, (True, False), "cavalry recruitment caps / quota"),
        Option("movement", "interleaved", ("interleaved", "strict", "traditional"),
               "strict = a player whose step list runs out before PASS is asked for his next "
               "step; traditional = rulebook 6.5: each player moves and fights all at once, "
               "the start player is rolled every year"),
        Option("neutral_placement", "random", ("random", "players"),
               "2-3 players: the neutral units of the unplayed provinces are placed at random "
               "or by the players (each gets provinces dealt in seating order)"),
        Option("control_model", "persistent", ("persistent", "presence"),
               "persistent (rulebook p. 3): a conquered county stays its conqueror's for "
               "victory and the final ranking when he moves on, until someone takes it; a "
               "battle that kills everyone leaves it masterless. presence: only counties "
               "with units count. Income, movement and the step allowance follow the units"),
        Option("pinning", None, (None, True, False), "advanced pinning; default per variant"),
        Option("flight", None, (None, True, False), "advanced flight; default per variant"),
        Option("arm_limits", None, (None, True, False),
               "advanced arm limits around castles; default per variant"),
    )
    grammar = GRAMMAR
    phases = PHASES
    answers: ClassVar[Mapping[str, tuple[type[Order], ...]]] = {
        "battle": (Fight,), "oath": (Oath,), "palatine": (Choose,), "move": (Move, Pass),
        "bid": (Bid,)}
    state_schema = State
    report_outcomes = True

    # --- set-up ----------------------------------------------------------------------
    def seat_ids(self, players: int, variant: str) -> tuple[str, ...]:
        return DEFAULT_SEATS[players]

    def check_config(self, config: GameConfig) -> list[str]:
        if config.variant not in {v.id for v in self.variants}:
            return [f"unknown variant {config.variant!r}; choose basic or advanced"]
        n = len(config.seats)
        if not 2 <= n <= 6:
            return [f"{self.id} takes 2-6 players, not {n}"]
        probs = played_problems(tuple(config.seats))
        years = config.options.get("years", 0)
        if not isinstance(years, int) or not 0 <= years <= 30:
            probs.append("option years must be a whole number from 1 to 30 (0 = default)")
        return probs + self.option_problems(config)

    def setup(self, config: GameConfig, dice: Dice) -> State:
        chosen = {o.key: config.options.get(o.key, o.default) for o in self.options}
        state = new_state(tuple(config.seats), config.variant,
                          options_of(chosen, config.variant))
        # Rulebook p. 7: the first start player by die roll or lot.
        state["start"] = dice.choice(state["seats"], _("first start player"))
        return state

    # --- the kit's hooks -------------------------------------------------------------
    def phase_of(self, state: Any) -> str:
        return str(state["phase"]) if state["phase"] != "over" else "over"

    def ask_mode(self, state: Any) -> bool:
        """Sealed bids are always asked; the other decisions with decisions=ask, the next
        step with movement=strict."""
        return (state["phase"] == "bid" or state["options"]["decisions"] == "ask"
                or state["options"]["movement"] == "strict"
                or (state["phase"] == "orders" and election_due(state)))

    def absorb_standing(self, ctx: Context, seat: str, lines: Sequence[OrderLine]) -> None:
        absorb(ctx, seat, lines)

    def parse(self, state: Any, seat: str, text: str) -> Parsed:
        return judge_placement(state, seat, super().parse(state, seat, text))

    def check(self, state: Any, seat: str, order: Order) -> Verdict:
        return check_on_arrival(state, seat, order, self.questions(state))

    def question_prompt(self, state: Any, q: Question) -> Prompt:
        """A sealed bid is asked like the election's first step: the bid line, no list."""
        if q.kind == "bid":
            return Prompt(q.text, (q.default,))
        return super().question_prompt(state, q)

    def question_public(self, q: Question) -> str | None:
        """A sealed bid is not announced: it is asked in the report's prompt, like the
        election's first step."""
        return None if q.kind == "bid" else super().question_public(q)

    # The kit's notices in this game's own words (its catalog translates them).
    def waiting_notice(self, seat: str, what: str) -> Msg:
        return _("Waiting for {seat}: {what}.", seat=seat, what=what)

    def decision_notice(self, question: str) -> Msg:
        return _("Your decision is needed: {text}", text=question)

    def position_problems(self, state: Any) -> list[str]:
        return problems(state)

    def position_warnings(self, state: Any) -> list[str]:
        return warnings(state)

    # --- what seats see -----------------------------------------------------------------
    def view(self, state: Any, seat: str | None) -> dict[str, Any]:
        return view_of(state, seat)

    def result(self, state: Any) -> Result | None:
        r = state["result"]
        if r is None:
            return None
        return Result(tuple(r["winners"]), dict(r["scores"]), reason_message(r["reason"]),
                      tuple(r["ranking"]))

    def legal_orders(self, state: Any, seat: str, rng: random.Random) -> list[str]:
        """The random bot's lines, without those refused on arrival (a clean file)."""
        qs = self.questions(state)
        q = next((x for x in qs if x.seat == seat), None)
        lines = answer(state, q, rng) if q else orders_for(state, seat, rng)
        ok = [line for line in lines
              if not isinstance(check_on_arrival(state, seat, self.grammar.parse_line(
                  state, seat, line), qs), str)]
        return ok or self.default_orders(state, seat).canonical().splitlines()

    def redeal_hidden(self, state: Any, seat: str | None, rng: random.Random) -> Any:
        return redeal(state, seat, rng)

    def dump(self, state: Any) -> Any:
        return state

    def load(self, data: Any) -> Any:
        return json.loads(json.dumps(data))

    def round_number(self, state: Any) -> int:
        return int(state["year"]) - 1300

    def phase_label(self, state: Any) -> str:  # a message (view.py)
        return label_of(state)

    def board_text(self, view: Mapping[str, Any]) -> str:
        return text_of(dict(view))

    def board_svg(self, view: Mapping[str, Any], t: Translator | None = None) -> str | None:
        return svg_of(dict(view), t)
