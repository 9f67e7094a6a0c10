"""The Cherubion ruleset: declarations (seats, variants, options), the phase table, and what
is judged when an order file arrives.

Steps: one sealed draft step (team, Base, line-up, deck), one placement step per player
in choice order, then one step per player turn (the whole turn as a script), plus short
steps for the questions of decisions=ask (phases.py; the questions are `ctx.decide` calls
in rules/). Views and board pictures in view.py; the random bot and prompts in bot.py;
positions in position.py.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core.dice import Dice
from pbem.core.engine import SetupResult
from pbem.core.i18n import Msg, Translator, _
from pbem.core.kit import DECISION, OVER, Context, Game, Order, Phase, Question, Verdict
from pbem.core.orders import OrderLine, Parsed, Prompt
from pbem.core.ruleset import GameConfig, Option, Result, Variant
from pbem.rulesets.cherubion import arrival, bot, effects, phases, position
from pbem.rulesets.cherubion import view as view_mod
from pbem.rulesets.cherubion.board import board_data
from pbem.rulesets.cherubion.orders import (
    ANSWERED_BY_STANDING,
    DRAFT_ORDERS,
    GRAMMAR,
    PLACEMENT_ORDERS,
    TURN_SCRIPT,
    Pass,
    Play,
)
from pbem.rulesets.cherubion.rules.reactions import REACTIONS
from pbem.rulesets.cherubion.rules.results import END_REASONS
from pbem.rulesets.cherubion.rules.setup import choice_order, new_state
from pbem.rulesets.cherubion.state import State

SEATS = ("alpha", "beta", "gamma", "delta", "epsilon")
assert effects.__name__  # the card effects register themselves on import


def _awaits_draft(state: State) -> Sequence[str]:
    return list(state["order"])


def _awaits_place(state: State) -> Sequence[str]:
    return [state["order"][state["placing"]]]


def _awaits_turn(state: State) -> Sequence[str]:
    return [state["active"]] if state["active"] else []


PHASES = {
    "draft": Phase("draft", DRAFT_ORDERS, _("the draft (TEAM, BASE, LINEUP, DECK)"),
                   _awaits_draft, bot.draft_prompt, lambda s, seat: [], phases.resolve_draft),
    "place": Phase("place", PLACEMENT_ORDERS, _("your placement (PLACE, RESOURCE)"),
                   _awaits_place, bot.place_prompt, bot.default_placement,
                   phases.resolve_place),
    "turn": Phase("turn", TURN_SCRIPT, _("your turn orders (MOVE, DEPLOY, DRAW, BUILD, "
                                         "UPGRADE, PLAY, ATTACK, EXECUTE, IF, ELSE, PASS)"),
                  _awaits_turn, bot.turn_prompt, lambda s, seat: ["PASS"], phases.resolve_turn,
                  unasked=True),
}


class Cherubion(Game):
    id = "cherubion"
    title = "Cherubion"
    rulebook = "003_ac4a3b7f5ae333ba.txt"
    min_players = 2
    max_players = 5
    variants = (
        Variant("standard", "Standard board", "216 fields; 2-5 players; unchosen sides closed"),
        Variant("multibase", "Multiple Bases", "optional rule for 2-4 players: players draft a "
                "second team and Base in choice order while teams last"),
        Variant("tournament", "Tournament board", "small 96-field board for 2 players "
                "(spec §3.5, assumption)"),
    )
    options = Game.options + (
        Option("round_limit", 0, (), "optional PBEM round limit (0 = none); at the limit the "
               "score decides (spec §8)"),
        Option("summon_move", False, (True, False), "optional rule: summoned pieces without "
               "own MÉ may be stepped with the player's MÉ (never into a Base)"),
        Option("ask_blind", False, (True, False), "with decisions=ask: ask at every window "
               "that concerns a seat, even when it holds no answer (being asked then reveals "
               "nothing about its hand; more steps)"),
        Option("diplomacy", False, (True, False), "optional rule: alliances, hostage "
               "exchange, joining a dead demigod's team (ALLY, BREAK, HOSTAGE, JOIN, ADOPT)"),
    )
    grammar = GRAMMAR
    phases = PHASES
    answers = {**{kind: (Play, Pass) for kind in REACTIONS},
               **{kind: (t, Pass) for kind, t in ANSWERED_BY_STANDING.items()}}
    state_schema = State
    report_outcomes = True
    state_is_plain_json = True  # the engine parses stored states without a copy

    def seat_ids(self, players: int, variant: str) -> tuple[str, ...]:
        return SEATS[:players]

    def check_config(self, config: GameConfig) -> list[str]:
        problems = super().check_config(config)
        n = len(config.seats)
        if not problems and config.variant == "tournament" and n != 2:
            problems.append("the tournament board is for 2 players")
        if not problems and config.variant == "multibase" and n > 4:
            problems.append("Multiple Bases is for fewer than 5 players")
        return problems

    # --- set-up -------------------------------------------------------------------------
    def setup(self, config: GameConfig, dice: Dice) -> SetupResult:
        bd = board_data()
        if config.variant == "tournament":
            n, nml, sides = bd["n_tournament"], bd["nml_sides_tournament"], \
                bd["base_sides_tournament"]
        else:
            n, nml, sides = bd["n_standard"], bd["nml_sides_standard"], [1, 2, 3, 4, 5]
        opts = {o.key: config.options.get(o.key, o.default) for o in self.options}
        state = new_state({"seats": list(config.seats), "variant": config.variant,  # type: ignore[typeddict-item]
                           "options": opts}, n, nml, sides)  # type: ignore[typeddict-item]
        ctx = Context(state, dice)
        state["order"] = choice_order(ctx, list(config.seats))
        # the choice-order rolls are reported in the first report (step 0)
        return SetupResult(state, tuple(ctx.log.events))

    # --- the kit's hooks ----------------------------------------------------------------
    def phase_of(self, state: Any) -> str:
        return OVER if state["phase"] == "over" else str(state["phase"])

    def ask_mode(self, state: Any) -> bool:
        return bool(state["config"]["options"]["decisions"] == "ask")

    def seats_of(self, state: Any) -> Sequence[str]:
        return tuple(state["config"]["seats"])

    def accepts_unasked(self, state: Any, seat: str) -> bool:
        """Spec DP16 and §5.21.3: a surrender is accepted at any time and standing orders
        (WHEN, FORGET, FREEATTACK, INTRUDER, LOSS, SCRY, CAPTURE, STRIKEBACK, diplomacy) may be
        sent while another seat is awaited; they are applied when the step is processed.
        From the first turn on (the draft awaits everybody; a placement file holds no
        standing orders worth early)."""
        pl = state["players"].get(seat)
        return pl is not None and pl["alive"] and \
            (state["phase"] == "turn" or bool(self.pause_of(state)))

    def absorb_standing(self, ctx: Context, seat: str, lines: Sequence[OrderLine]) -> None:
        phases.absorb_standing(ctx, seat, lines)

    def check(self, state: Any, seat: str, order: Order) -> Verdict:
        q = next((q for q in self.questions(state) if q.seat == seat), None)
        return arrival.check_line(state, seat, order, q)

    def parse(self, state: Any, seat: str, text: str) -> Parsed:
        """The kit's parse (syntax, the step, each line on its own), then the file as a
        whole on arrival: a turn file line by line on a plan of the turn (arrival.py)."""
        parsed = super().parse(state, seat, text)
        return Parsed.of(arrival.judge_file(state, seat, parsed.lines))

    def is_standing(self, state: Any, seat: str, order: Order) -> bool:
        """A standing order that the question open for `seat` asks for (SCRY, FREEATTACK,
        INTRUDER, LOSS) is the answer to it (and stays as the standing order)."""
        if not order.standing:
            return False
        kind = next((q.kind for q in self.questions(state) if q.seat == seat), None)
        wanted = ANSWERED_BY_STANDING.get(kind or "")
        return wanted is None or not isinstance(order, wanted)

    def question_prompt(self, state: Any, q: Question) -> Prompt:
        """Every answer is a skeleton line too."""
        return Prompt(q.text, q.options, q.options, {"phase": DECISION, "kind": q.kind})

    def decision_notice(self, question: str) -> Msg:
        return _("Your decision is needed: {text}", text=question)  # this game's own words

    # --- views and results ----------------------------------------------------------------
    def view(self, state: Any, seat: str | None) -> dict[str, Any]:
        return view_mod.view(state, seat)

    def result(self, state: Any) -> Result | None:
        r = state["result"]
        if not r:
            return None
        return Result(tuple(r["winners"]), dict(r.get("scores", {})),
                      END_REASONS.get(r["reason"], r["reason"]),
                      tuple(r["winners"]))

    def legal_orders(self, state: Any, seat: str, rng: random.Random) -> list[str]:
        return bot.random_orders(state, seat, rng)

    def redeal_hidden(self, state: Any, seat: str | None, rng: random.Random) -> Any:
        return view_mod.redeal(state, seat, rng)

    def dump(self, state: Any) -> Any:
        return state

    def load(self, data: Any) -> Any:
        # a private copy; the state is plain JSON, so a JSON round trip copies it fast
        return json.loads(json.dumps(data))

    def position_problems(self, state: Any) -> list[str]:
        return position.problems(state)

    def position_warnings(self, state: Any) -> list[str]:
        return position.warnings(state)

    def round_number(self, state: Any) -> int:
        return int(state["round"])

    def phase_label(self, state: Any) -> str:
        if state["phase"] == "draft":
            return _("Set-up: draft of teams, Bases and decks")
        if state["phase"] == "place":
            return _("Set-up: initial placement, {seat}", seat=state["order"][state["placing"]])
        if state["phase"] == "over":
            return _("Game over after round {round}", round=state["round"])
        qs = self.questions(state)
        if qs:
            return _("Round {round}, {seat}'s turn: {other} may answer", round=state["round"],
                     seat=state["active"], other=qs[0].seat)
        return _("Round {round}, {seat}'s turn", round=state["round"], seat=state["active"])

    def board_text(self, view: Mapping[str, Any]) -> str:
        return view_mod.board_text(view)

    def board_svg(self, view: Mapping[str, Any], t: Translator | None = None) -> str | None:
        return view_mod.board_svg(view, t)
