"""The Helios ruleset: declarations, options and the phase table (the kit builds the
engine-facing protocol from them).

Steps (phases.py): set-up (all seats at once), one step per Phase 1 action turn (scripts
with OR alternatives and NEXT turns cut the mail round trips; seats not on turn may send
their coming turns unasked), Phase 2 (all seats at once, or turn by turn). Decisions
inside a step (Estate Manager tiles, the Phase 3 catch-up resource) are the kit's
`ctx.decide`: a standing order, else asked with `decisions = ask`, else the default.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core.dice import Dice
from pbem.core.engine import SetupResult
from pbem.core.i18n import Msg, Translator, _, n_
from pbem.core.kit import OVER, Context, Game, Log, Order, Phase, Question, Verdict
from pbem.core.orders import OrderLine, Parsed, Prompt
from pbem.core.ruleset import GameConfig, Option, Result, Ruleset, Variant
from pbem.rulesets.helios import arrival, bot, data, position, view
from pbem.rulesets.helios.orders import (
    GRAMMAR,
    TURN_ORDERS,
    Activate,
    Catchup,
    Estate,
    Hire,
    Pass,
    Start,
)
from pbem.rulesets.helios.phases import (
    actions_awaits,
    actions_default,
    actions_prompt,
    characters_awaits,
    characters_default,
    characters_prompt,
    resolve_actions,
    resolve_characters,
    resolve_setup,
    setup_awaits,
    setup_default,
    setup_prompt,
)
from pbem.rulesets.helios.rules import rounds, script, turns
from pbem.rulesets.helios.rules.seats import current_seat
from pbem.rulesets.helios.state import State
from pbem.rulesets.helios.words import term, terms

SEATS = ("north", "east", "south", "west")

PHASES = {
    "setup": Phase("setup", (Start, Catchup),
                   _("your start tile (START) and, seats 3 and 4 only, CATCHUP"),
                   setup_awaits, setup_prompt, setup_default, resolve_setup),
    "actions": Phase("actions", TURN_ORDERS,
                     _("your action turn (TAKE, an action, BONUS, OR, NEXT)"),
                     actions_awaits, actions_prompt, actions_default, resolve_actions,
                     unasked=True),
    "characters": Phase("characters", (Hire, Activate, Pass),
                        _("Phase 2 (HIRE, ACTIVATE or PASS)"),
                        characters_awaits, characters_prompt, characters_default,
                        resolve_characters),
}
PHASE_NAMES = {"setup": _("set-up"), "actions": _("Phase 1 (your action turn)"),
               "characters": _("Phase 2 (characters)"),
               "catchup": _("Phase 3 (catch-up resource)"), "over": _("the end of the game")}


class Helios(Game):
    id = "helios"
    title = "Helios"
    rulebook = "002_1a13e19d8d136db9.txt"
    min_players = 2
    max_players = 4
    variants = (Variant("standard", "Standard", "The rulebook's game for 2, 3 or 4 players; "
                        "the rulebook has no variants."),)
    options = (
        *Ruleset.options,
        Option("public_scores", "no", ("no", "yes"),
               "show every seat's VP bag total to everyone (rulebook: the bag is private)"),
        Option("setup_bonus_must_differ", "no", ("no", "yes"),
               "the set-up resource of seats 3/4 must differ from the start tile's (spec A14)"),
        Option("conditional_orders", "yes", ("yes", "no"),
               "Phase 1 scripts may carry OR alternatives, IF conditions and NEXT turns "
               "(spec §4.5); no = strictly one plain turn per mail"),
        Option("phase2", "script", ("script", "turns"),
               "Phase 2: script = every seat sends its whole Phase 2 at once (one step); "
               "turns = the rulebook's turn-by-turn order, one step per Phase 2 turn"),
        Option("enforce_component_limits", "no", ("no", "yes"),
               "cap the supply at 14 resources per colour, 30 mana and 35 houses; a gain the "
               "supply cannot cover is lost (spec §2.9, A15)"),
    )
    grammar = GRAMMAR
    phases = PHASES
    answers = {"estate": (Estate,), "catchup": (Catchup,)}
    state_schema = State
    report_outcomes = True

    def seat_ids(self, players: int, variant: str) -> tuple[str, ...]:
        return SEATS[:players]

    def setup(self, config: GameConfig, dice: Dice) -> SetupResult:
        opts = {o.key: config.options.get(o.key, o.default) for o in self.options}
        state = rounds.setup(list(config.seats), opts, config.variant or "standard", dice)
        log = Log()
        log.public("start_player", _("{seat} is the start player (drawn at random; the "
                                     "rulebook's 'most continents visited' has no PBEM "
                                     "equivalent).", seat=state["start"]))
        for sym in data.SYMBOLS:
            log.public("column", _("The {column} column is dealt (top to lowest): {colours}.",
                                   column=term(sym),
                                   colours=terms(state["columns"][sym], " ")))
        return SetupResult(state, tuple(log.events))

    # --- the kit's hooks ---------------------------------------------------------------
    def phase_of(self, state: Any) -> str:
        phase = state["phase"]
        return OVER if phase == "over" else str(phase)

    def ask_mode(self, state: Any) -> bool:
        return bool(state["options"]["decisions"] == "ask")

    def is_standing(self, state: Any, seat: str, order: Order) -> bool:
        """CATCHUP is a standing order for the next Phase 3, except at set-up and when its
        seat is asked for it. Phase 1 turn lines of a seat not on turn are its coming turns,
        stored until its turn comes."""
        if isinstance(order, Catchup):
            return state["phase"] != "setup" and not any(
                q.seat == seat and q.kind == "catchup" for q in self.questions(state))
        if isinstance(order, TURN_ORDERS):
            return state["phase"] == "actions" and seat != current_seat(state)
        return order.standing

    def check(self, state: Any, seat: str, order: Order) -> Verdict:
        return arrival.check(state, seat, order)

    def parse(self, state: Any, seat: str, text: str) -> Parsed:
        parsed = super().parse(state, seat, text)
        if self.questions(state):
            return parsed
        if state["phase"] == "actions":
            return arrival.script_verdicts(state, seat, parsed)
        if state["phase"] == "setup":
            return arrival.setup_file(state, seat, parsed)
        return parsed

    def absorb_standing(self, ctx: Context, seat: str, lines: Sequence[OrderLine]) -> None:
        """A standing CATCHUP is kept for the next Phase 3 (the latest wins); the coming
        turns of a seat not on turn replace its stored turns."""
        p = ctx.state["players"][seat]
        catchups = [ln for ln in lines if isinstance(ln.order, Catchup)]
        for ln in catchups[:-1]:
            ctx.log.not_needed(seat, ln, _("line {n} replaces it", n=catchups[-1].lineno))
        if catchups:
            p["catchup"] = str(catchups[-1].order)
            ctx.log.done(seat, catchups[-1], _("kept as your standing order for your next "
                                               "Phase 3 catch-up resource"))
        blocks = script.split([ln for ln in lines if not isinstance(ln.order, Catchup)])
        if any(b.alternatives for b in blocks):
            turns.store(ctx, seat, blocks)
            ctx.log.private([seat], "stored", n_("{seat}'s next turn is stored.",
                                                 "{seat}'s next {n} turns are stored.",
                                                 len(blocks), seat=seat))

    def question_prompt(self, state: Any, q: Question) -> Prompt:
        prompt = super().question_prompt(state, q)
        if q.kind == "estate":  # a skeleton with legal cells
            return Prompt(q.text, q.options or prompt.skeleton, (), prompt.data)
        return prompt

    # --- positions -------------------------------------------------------------------------
    def position_problems(self, state: Any) -> list[str]:
        return position.problems(state)

    def position_warnings(self, state: Any) -> list[str]:
        return position.warnings(state)

    # --- results, views --------------------------------------------------------------------
    def result(self, state: Any) -> Result | None:
        f = state["final"]
        if not f:
            return None
        return Result(tuple(f["winners"]), {s: v["total"] for s, v in f["scores"].items()},
                      _("final scoring after the last round"), tuple(f["ranking"]))

    def view(self, state: Any, seat: str | None) -> dict[str, Any]:
        return view.view(state, seat, self.questions(state))

    def legal_orders(self, state: Any, seat: str, rng: random.Random) -> list[str]:
        return bot.random_orders(state, seat, rng, self.questions(state))

    def redeal_hidden(self, state: Any, seat: str | None, rng: random.Random) -> State:
        return view.redeal_hidden(self.load(self.dump(state)), seat, rng)

    def dump(self, state: Any) -> Any:
        return state

    def load(self, data: Any) -> State:
        loaded: State = json.loads(json.dumps(data))  # a private copy; faster than deepcopy
        return loaded

    def round_number(self, state: Any) -> int:
        return int(state["round"])

    def phase_label(self, state: Any) -> Msg:
        if state is None:  # the set-up step, closed before there was a state
            return PHASE_NAMES["setup"]
        ph = state["phase"]
        asked = {q.kind: q.seat for q in self.questions(state)}
        n = state["round"]
        if "estate" in asked:
            return _("Round {n}, Phase 1, Estate Manager tiles ({seat})", n=n,
                     seat=asked["estate"])
        if "catchup" in asked:
            ph = "catchup"
        if ph == "actions":
            return _("Round {n}, Phase 1, turn {turn} ({seat})", n=n,
                     turn=state["turn_index"] + 1, seat=current_seat(state))
        if ph == "over":
            return _("Game over")
        if ph == "characters" and state["phase2"]:
            p2 = state["phase2"]
            return _("Round {n}, Phase 2 (characters), turn {turn} ({seat})", n=n,
                     turn=p2["turn"] + 1, seat=p2["order"][p2["turn"] % len(p2["order"])])
        return _("Round {n}, {phase}", n=n, phase=PHASE_NAMES[ph])

    def board_text(self, v: Mapping[str, Any]) -> Msg:
        return view.board_text(v)

    def board_svg(self, v: Mapping[str, Any], t: Translator | None = None) -> str | None:
        return view.board_svg(v, t)
