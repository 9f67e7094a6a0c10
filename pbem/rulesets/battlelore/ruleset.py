"""The BattleLore ruleset: the step protocol around the rules modules.

Steps: (council: sealed War Councils) -> (keep: sealed choice of starting Lore cards) ->
(place: landmarks, first player first) -> turn (the active player's whole turn as one
script) <-> decision (a short step for a seat asked mid-turn when `decisions=ask`) ->
over. Not here: the rules (turn.py and friends), rendering (view.py).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping
from typing import Any

from pbem.core.dice import Dice
from pbem.core.events import Event
from pbem.core.orders import OrderLine, Parsed, Prompt
from pbem.core.ruleset import GameConfig, Option, Result, Ruleset, Variant

from . import bot, setup, view
from .ctx import Ctx, GameOver, NeedDecision, RecDice
from .orders import (
    Answer,
    Battle,
    Council,
    Keep,
    Lore,
    Move,
    Order,
    Passage,
    Place,
    Play,
    React,
    Replenish,
    Rush,
    Standing,
    Unitcmd,
    parse_text,
)
from .state import SEATS, data, jcopy
from .turn import run_turn

STANDING = (Standing, React)
STEP_ORDERS: dict[str, tuple[type, ...]] = {
    "turn": (Play, Order, Move, Rush, Battle, Unitcmd, Passage, Lore, Replenish, Keep),
    "decision": (Answer,), "council": (Council,), "keep": (Keep,), "place": (Place,)}
STEP_WHAT = {
    "turn": "your turn (PLAY, ORDER, MOVE, RUSH, BATTLE, DRILL, FREE, PASSAGE, LORE, "
            "REPLENISH, KEEP, DISCARD)",
    "decision": "an ANSWER to the question", "council": "your War COUNCIL",
    "keep": "the starting Lore cards you KEEP", "place": "where to PLACE your landmarks"}


def _variants() -> tuple[Variant, ...]:
    sc = data("scenarios")
    return tuple(Variant(k, v["name"], v.get("description", v.get("source", ""))) for k, v in sc.items())


class BattleLore(Ruleset):
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

    def seat_ids(self, players: int, variant: str) -> tuple[str, ...]:
        return SEATS

    def setup(self, config: GameConfig, dice: Dice) -> dict[str, Any]:
        opts = {o.key: config.options.get(o.key, o.default) for o in self.options}
        return setup.new_game(config.variant or self.default_variant(), opts, dice)

    # --- steps -------------------------------------------------------------------------
    def awaiting(self, state: dict[str, Any]) -> dict[str, Prompt]:
        return view.prompts(state)

    def accepts_unasked(self, state: dict[str, Any], seat: str) -> bool:
        """The seat that is not awaited may send standing orders (REACT, RETREAT, IGNORE,
        BATTLEBACK, CREATURE) at any time while the game runs: they decide its questions
        in the step being played (e.g. `REACT NONE` before the opponent's turn)."""
        return seat in SEATS and state.get("phase") not in ("over",) and \
            not state.get("result")

    def parse(self, state: dict[str, Any], seat: str, text: str) -> Parsed:
        """Parse the seat's lines, then check each against the step: what the step asks
        for, a council within its budget, kept cards among those dealt, an answer among the
        question's answers. Standing orders are welcome in every step."""
        from .council import council_problem, keep_problem
        phase = state["phase"]
        lines = []
        for ln in parse_text(state, seat, text).lines:
            why = None
            o = ln.order
            if ln.ok and not isinstance(o, STANDING):
                if seat not in view.prompts(state):
                    why = (f"{str(o).split()[0]} is not yours to send now: {self._who(state)} "
                           f"is awaited; now you may send standing orders only (IGNORE, "
                           f"RETREAT, BATTLEBACK, REACT, CREATURE)")
                elif not isinstance(o, STEP_ORDERS.get(phase, ())) or (
                        phase == "keep" and o.verb != "keep"):
                    why = (f"{str(o).split()[0]} is not part of this step; it asks for "
                           f"{STEP_WHAT.get(phase, 'nothing')} (standing orders are welcome "
                           f"in any step)")
                elif phase == "council":
                    why = council_problem(state, seat, o)
                elif phase == "keep":
                    why = keep_problem(state, seat, o)
                elif phase == "decision":
                    opts = state["resume"]["pending"]["options"]
                    if o.value not in opts:
                        why = (f"{o.value} is not an answer to the question; answer "
                               + " or ".join(opts))
            lines.append(ln if why is None else OrderLine(ln.lineno, ln.text, None, why))
        return Parsed.of(lines)

    @staticmethod
    def _who(state: dict[str, Any]) -> str:
        return " and ".join(sorted(view.prompts(state))) or "nobody"

    def default_orders(self, state: dict[str, Any], seat: str) -> Parsed:
        return parse_text(state, seat, "".join(f"{x}\n" for x in bot.nmr_orders(state, seat)))

    def resolve(self, state: dict[str, Any], orders: Mapping[str, Parsed],
                dice: Dice) -> tuple[dict[str, Any], list[Event]]:
        s = state
        phase = s["phase"]
        pend_standing: dict[str, dict[str, str]] = {}
        for seat, p in orders.items():
            for o in p.orders:
                if isinstance(o, Standing):
                    pend_standing.setdefault(seat, {})[o.key()] = o.value
                elif isinstance(o, React):
                    d = pend_standing.setdefault(seat, {})
                    if o.card == "none":  # cancel every standing reaction (kept as NONE)
                        for k in s["standing"].get(seat, {}):
                            if k.startswith("react "):
                                d[k] = "NONE"
                        d["react_ask"] = "no"
                    elif o.card == "ask":
                        d["react_ask"] = "yes"
                    else:
                        d[f"react {o.card}"] = o.unit
        if phase in ("council", "keep", "place"):
            self._merge_standing(s, pend_standing)
            return setup.resolve_setup(s, orders, dice)
        if phase == "turn":
            self._merge_standing(s, pend_standing)
            a = s["active"]
            lines = [str(o) for o in orders.get(a, Parsed()).orders if not isinstance(o, STANDING)]
            return self._run(s, s, lines, [], [], 0, dice, [])
        if phase == "decision":
            r = s["resume"]
            seat = r["pending"]["seat"]
            ans = [o.value for o in orders.get(seat, Parsed()).orders if isinstance(o, Answer)]
            value = ans[0] if ans else r["pending"]["default"]
            answers = [*r["answers"], value]
            layers = jcopy(r.get("standing_new", []))
            if pend_standing:
                layers.append([len(answers), pend_standing])
            return self._run(s, r["snapshot"], r["lines"], answers, r["dice"], r["emitted"],
                             dice, layers)
        raise ValueError(f"no step to resolve in phase {phase}")

    @staticmethod
    def _merge_standing(s: dict[str, Any], new: dict[str, dict[str, str]]) -> None:
        for seat, d in new.items():
            s["standing"].setdefault(seat, {}).update(d)

    def _run(self, live: dict[str, Any], snap: dict[str, Any], lines: list[str],
             answers: list[str], replay: list[int], emitted: int, dice: Dice,
             standing_new: list[Any]) -> tuple[dict[str, Any], list[Event]]:
        snap = jcopy(snap)
        snap["resume"] = None
        s2 = jcopy(snap)
        a = s2["active"]
        orders = parse_text(s2, a, "".join(f"{x}\n" for x in lines)).orders
        ctx = Ctx(s2, RecDice(dice, replay), ask=s2["options"]["decisions"] == "ask",
                  answers=answers, late_standing=standing_new)
        try:
            try:
                run_turn(ctx, orders)
            finally:
                _check_replay(live, ctx.events, emitted)
            s2["phase"] = "turn"
        except NeedDecision as nd:
            s2["phase"] = "decision"
            s2["resume"] = {"snapshot": snap, "lines": lines, "answers": answers,
                            "dice": ctx.dice.record, "emitted": len(ctx.events),
                            "emitted_digest": _digest(ctx.events[:len(ctx.events)]),
                            "standing_new": standing_new,
                            "pending": {"seat": nd.seat, "kind": nd.kind, "question": nd.question,
                                        "options": nd.options, "default": nd.default}}
            # the question may name cards of a hidden hand: only the asked seat reads it
            what = {"react": "whether to play a Lore card"}.get(nd.kind, nd.question)
            ctx.ev("ask", f"Waiting for {nd.seat}: {what}", [other_seat(nd.seat)], seat=nd.seat)
            ctx.ev("ask", f"Your decision is needed: {nd.question}", [nd.seat], seat=nd.seat)
            return s2, ctx.events[emitted:]
        except GameOver:
            s2["phase"] = "over"
        for _k, layer in standing_new:
            self._merge_standing(s2, layer)
        return s2, ctx.events[emitted:]

    # --- views and results --------------------------------------------------------------
    def view(self, state: dict[str, Any], seat: str | None) -> dict[str, Any]:
        return view.make_view(state, seat)

    def result(self, state: dict[str, Any]) -> Result | None:
        r = state.get("result")
        if not r:
            return None
        w = r["winner"]
        return Result((w,), {s: float(state["banners"][s]) for s in SEATS}, r["reason"],
                      (w, "south" if w == "north" else "north"))

    def legal_orders(self, state: dict[str, Any], seat: str, rng: random.Random) -> list[str]:
        return bot.random_orders(state, seat, rng)

    def redeal_hidden(self, state: dict[str, Any], seat: str | None,
                      rng: random.Random) -> dict[str, Any]:
        return setup.redeal(state, seat, rng)

    def dump(self, state: dict[str, Any]) -> Any:
        return state

    def load(self, data_: Any) -> dict[str, Any]:
        return jcopy(data_)

    def round_number(self, state: dict[str, Any]) -> int:
        return (int(state["turn"]) + 1) // 2

    def phase_label(self, state: dict[str, Any]) -> str:
        return view.phase_label(state)

    def board_text(self, v: Mapping[str, Any]) -> str:
        return view.board_text(v)

    def board_svg(self, v: Mapping[str, Any]) -> str | None:
        return view.board_svg(v)


def other_seat(seat: str) -> str:
    return "south" if seat == "north" else "north"


def _digest(events: list[Event]) -> str:
    return hashlib.sha256("\n".join(e.text for e in events).encode("utf-8")).hexdigest()


def _check_replay(live: dict[str, Any], events: list[Event], emitted: int) -> None:
    """A resumed turn must retell exactly what was already reported (broken: raise)."""
    r = live.get("resume") if live.get("phase") == "decision" else None
    if r is None or not emitted:
        return
    if len(events) < emitted or _digest(events[:emitted]) != r.get("emitted_digest"):
        raise AssertionError("battlelore: a resumed turn did not replay the same way")
