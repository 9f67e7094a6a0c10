"""Macht & Ohnmacht on the game kit: its declarations, its phase table and the answers
to its decisions.

Seats are `orange` and `white` (the rulebook's colours). One mail step is one seat's turn
(phase `turn`); a decision in the middle of a turn (a sealed bid, the serpent, a retreat,
a lightning effect) is a short step of its own only with option `decisions=ask` when no
standing order covers it. The game has no dice: the random set-up, tile reveals, time
tiles and start-player lots are public draws.
Not here: the rules (rules/, phases.py), judging lines on arrival (arrival.py), views and
pictures (view.py), the bot (bot.py).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core.dice import Dice
from pbem.core.engine import SetupResult
from pbem.core.i18n import Msg, Translator, _
from pbem.core.kit import OVER, Context, Game, Log, Phase, Question, Verdict
from pbem.core.orders import OrderLine, Prompt
from pbem.core.ruleset import GameConfig, Option, Result, Ruleset, Variant

from . import arrival, bot, data, phases, position, view
from .data import term
from .orders import (
    GRAMMAR,
    BidAnswer,
    Cancel,
    Decline,
    EndD,
    If,
    Pass,
    Place,
    Play,
    Rebel,
    Recruit,
    RetreatAnswer,
    Swap,
    Take,
)
from .rules import cycle, standing
from .state import State

# One phase: a seat's turn. Decisions inside a turn are the kit's questions (`answers`).
PHASES = {
    "turn": Phase("turn", orders=(Take, Place, Recruit, Play, EndD, If),
                  what=_("your turn's actions (TAKE, PLACE, RECRUIT, PLAY)"),
                  awaits=phases.awaits, prompt=phases.prompt, default=phases.default,
                  resolve=phases.resolve),
}

# What the report calls each decision while it is open.
DECISION_LABELS = {"bid": _("sealed auction"), "serpent": _("serpent window"),
                   "retreat": _("retreat"), "effect": _("lightning effect")}


class MachtUndOhnmacht(Game):
    id = "macht-und-ohnmacht"
    title = _("Macht & Ohnmacht (Power & Weakness)")
    rulebook = "000_a441e0a95575b086.txt"
    min_players = 2
    max_players = 2
    variants = (Variant("standard", "Standard", "The only game the rulebook describes: "
                        "two players, magic and steel cycles."),)
    options = (
        *Ruleset.options,
        Option("start_tiebreak", "previous_cycle", ("previous_cycle", "new_cycle"),
               "spec A3: on equal VP, fewer active regions starts, counted with the active "
               "units of the cycle just scored (rulebook play example) or of the new cycle "
               "(the spec's proposal)"),
        Option("win_regions", "active", ("active", "all"),
               "spec A1: the victory total counts controlled active regions (detailed "
               "rules) or all controlled regions (summary)"),
        Option("simultaneous_win", "another_cycle", ("another_cycle", "draw"),
               "spec §8: both reach 12 with equal totals and VP"),
        Option("sea_destination_coastal", "no", ("no", "yes"),
               "spec A6: must a sea voyage end in a coastal region"),
    )
    grammar = GRAMMAR
    phases = PHASES
    # decision kind (rules/take.py, rules/play.py) -> the order types that answer it
    answers = {"bid": (BidAnswer,), "serpent": (Cancel, Pass), "retreat": (RetreatAnswer,),
               "effect": (Rebel, Swap, Decline)}
    standing_anytime = True  # standing orders are kept from any seat in any step
    state_schema = State
    report_outcomes = True

    # --- set-up ---------------------------------------------------------------------------
    def seat_ids(self, players: int, variant: str) -> tuple[str, ...]:
        return data.SEATS

    def setup(self, config: GameConfig, dice: Dice) -> SetupResult:
        options = {o.key: self.option(config, o.key) for o in self.options}
        state = cycle.new_state(tuple(config.seats), options)
        log = Log()
        cycle.setup(state, dice, log)
        # The first report tells what the set-up drew (markers, display, start player).
        return SetupResult(state, tuple(log.events))

    # --- the kit's hooks ------------------------------------------------------------------
    def phase_of(self, state: Any) -> str:
        return OVER if state["result"] is not None else "turn"

    def ask_mode(self, state: Any) -> bool:
        return standing.ask_mode(state)

    def absorb_standing(self, ctx: Context, seat: str, lines: Sequence[OrderLine]) -> None:
        standing.absorb(ctx.state, ctx.log, seat, lines)

    def check(self, state: Any, seat: str, order: Any) -> Verdict:
        return arrival.judge(state, seat, order, self.questions(state))

    def question_prompt(self, state: Any, q: Question) -> Prompt:
        """A serpent question offers PASS with CANCEL commented out."""
        skeleton = ("PASS", "# CANCEL") if q.kind == "serpent" else (q.default,)
        return Prompt(q.text, skeleton, q.options[:60], {"phase": q.kind})

    def position_problems(self, state: Any) -> list[str]:
        return position.problems(state)

    def position_warnings(self, state: Any) -> list[str]:
        return position.warnings(state)

    # --- views and results ----------------------------------------------------------------
    def view(self, state: Any, seat: str | None) -> dict[str, Any]:
        return view.view(state, seat)

    def result(self, state: Any) -> Result | None:
        r = state["result"]
        if r is None:
            return None
        ranking = tuple(sorted(state["seats"], key=lambda s: (-r["scores"][s], s)))
        return Result(tuple(r["winners"]), dict(r["scores"]), cycle.reason_of(r), ranking)

    def legal_orders(self, state: Any, seat: str, rng: random.Random) -> list[str]:
        return bot.random_script(state, seat, rng)

    def redeal_hidden(self, state: Any, seat: str | None, rng: random.Random) -> Any:
        return view.redeal_hidden(state, seat, rng)

    def dump(self, state: Any) -> Any:
        return view.json_copy(state)

    def load(self, data_: Any) -> Any:
        return view.json_copy(data_)

    # --- presentation ---------------------------------------------------------------------
    def round_number(self, state: Any) -> int:
        return int(state["cycle"])

    def phase_label(self, state: Any) -> Msg:
        args = {"cycle": state["cycle"], "type": term(state["cycle_type"]),
                "n": state["hourglass"]}
        if state["result"] is not None:
            return _("Cycle {cycle} ({type}), game over", **args)
        qs = self.questions(state)
        t = state["turn"]
        if qs:
            return _("Cycle {cycle} ({type}), hourglass {n}, {what}",
                     what=DECISION_LABELS[qs[0].kind], **args)
        return _("Cycle {cycle} ({type}), hourglass {n}, {seat}'s turn {number}",
                 seat=t["seat"], number=t["number"], **args)

    def board_text(self, view_: Mapping[str, Any]) -> Msg:
        return view.board_text(dict(view_))

    def board_svg(self, view_: Mapping[str, Any], t: Translator | None = None) -> str | None:
        return view.board_svg(dict(view_), t)
