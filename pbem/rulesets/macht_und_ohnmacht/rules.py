"""The Macht & Ohnmacht ruleset: the pbem protocol over the modules of this package.

Seats are `orange` and `white` (the rulebook's colours). One step is one seat's turn,
or a short decision step (bid, serpent, retreat, lightning effect) when option
`decisions=ask` and no standing order covers it. The game has no dice; the random
set-up, tile reveals, time tiles and start-player lots are public draws.
Not here: the rules themselves (cycle.py, actions.py, turn.py, decisions.py).
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Mapping
from typing import Any

from pbem.core.dice import Dice
from pbem.core.engine import SetupResult
from pbem.core.events import Event
from pbem.core.orders import OrderLine, Parsed, Prompt, order_lines
from pbem.core.ruleset import GameConfig, Option, Result, Ruleset, Variant

from . import board, bot, cycle, decisions, view
from .board import State
from .orders import (
    ACTIONS,
    EFFECTS,
    STANDING,
    BidAnswer,
    Cancel,
    Pass,
    PlayInfluence,
    Rebel,
    RetreatPref,
    StandingBid,
    Swap,
)
from .parser import OrderError, parse_line
from .turn import resolve_step

_ASKED = {
    "turn": "your turn's actions (TAKE, PLACE, RECRUIT, PLAY)",
    "bid": "a bid (BID <n>)",
    "serpent": "whether to play a serpent (CANCEL or PASS)",
    "retreat": "a retreat (RETREAT <unit> TO <region>, or RETREAT none)",
    "effect": "the lightning tile's effect (REBEL, SWAP or DECLINE)",
}


class MachtUndOhnmacht(Ruleset):
    id = "macht-und-ohnmacht"
    state_is_plain_json = True  # the engine parses stored states without a copy
    title = "Macht & Ohnmacht (Power & Weakness)"
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

    # --- set-up -------------------------------------------------------------------------
    def seat_ids(self, players: int, variant: str) -> tuple[str, ...]:
        return board.SEATS

    def setup(self, config: GameConfig, dice: Dice) -> State:
        opts = {o.key: self.option(config, o.key) for o in self.options}
        state = cycle.new_state(tuple(config.seats), opts)
        events: list[Event] = []
        cycle.setup(state, dice, events)
        # The first report tells what the set-up drew (markers, display, start player).
        return SetupResult(state, tuple(events))

    # --- the step loop ------------------------------------------------------------------
    def awaiting(self, state: State) -> dict[str, Prompt]:
        phase = state["phase"]
        if phase == "over":
            return {}
        if phase == "turn":
            seat = state["turn"]["seat"]
            return {seat: self._turn_prompt(state, seat)}
        return {s: self._decision_prompt(state, s) for s in _asked_seats(state)}

    def _turn_prompt(self, state: State, seat: str) -> Prompt:
        t = state["turn"]
        n = t["actions"]
        text = (f"Cycle {state['cycle']} ({state['cycle_type']}), hourglass "
                f"{state['hourglass']}: your turn, {n} action{'s' if n > 1 else ''}. Write "
                "your actions in order, with fallbacks; illegal lines are skipped.")
        options = tuple(str(o) for o in bot.legal_actions(state, seat, full=False,
                                                          rng=random.Random(0)))[:60]
        skeleton = ("# One order per line; lines that are illegal when reached are skipped.",
                    "# TAKE <tile> [BID <n>] [IFWIN ...] | PLACE <region> | RECRUIT |",
                    "# PLAY <tile> ... (consecutive PLAY lines are one action D)",
                    "# Standing orders: BID <type> <n>, SERPENT ..., RETREAT ...",
                    *("RECRUIT" for _ in range(n)))
        return Prompt(text, skeleton, options, {"phase": "turn", "actions": n})

    def _decision_prompt(self, state: State, seat: str) -> Prompt:
        p = state["pending"]
        phase = state["phase"]
        act = board.active_type(state)
        if phase == "bid":
            have = state["reserve"][seat][act]
            ifwin = {"vp": "",
                     "rebellion": "; add IFWIN REBEL <region of your opponent> <n>K <n>M (at "
                                  "most 2 units) for a win",
                     "swap": "; add IFWIN SWAP <region> <set-aside marker: "
                             + ", ".join(state["aside"]) + "> (or IFWIN DECLINE) for a win",
                     }[p["type"]]
            text = (f"{p['taker']} took {board.tile_name(p['type'])}: sealed auction. Bid 0-"
                    f"{have} {act}s from your reserve{ifwin}. The higher bid pays its units "
                    "to stock and wins; equal bids: nobody wins or pays.")
            return Prompt(text, ("BID 0",), tuple(f"BID {i}" for i in range(have + 1)),
                          {"phase": "bid"})
        if phase == "serpent":
            played = parse_line(state, p["order"])
            count = ""
            if isinstance(played, PlayInfluence) and played.mode == "SEIZE":
                a, d = board.seize_count(state, p["by"], played.region)
                count = f" The seize would count {a}:{d}, {'a win' if a - d >= 1 else 'a failure'}."
            text = (f"{p['by']} plays: {p['order']}.{count} Play a serpent to cancel it "
                    f"(hourglass {state['hourglass']}, the serpent takes one more cube)?")
            return Prompt(text, ("PASS", "# CANCEL"), ("CANCEL", "PASS"), {"phase": "serpent"})
        if phase == "retreat":
            text = (f"{p['attacker']} seized {board.region_name(state, p['region'])}. You may "
                    "save one unit there to an adjacent empty or own region: "
                    + ", ".join(p["options"]) + ".")
            default = self.default_orders(state, seat).canonical().strip()
            return Prompt(text, (default,), tuple(f"RETREAT {u} TO {r}" for u in ("mage", "knight")
                                                   for r in p["options"]) + ("RETREAT none",),
                          {"phase": "retreat"})
        text = (f"You won {board.tile_name(p['type'])}: choose its effect "
                + ("(REBEL <region> <n>K <n>M, at most 2 units)." if p["type"] == "rebellion"
                   else "(SWAP <region> <set-aside symbol>, or DECLINE)."))
        default = self.default_orders(state, seat).canonical().strip()
        return Prompt(text, (default,), tuple(str(e) for e in bot.legal_effects(
            state, seat, p["type"]))[:60], {"phase": "effect"})

    def parse(self, state: State, seat: str, text: str) -> Parsed:
        lines = []
        for lineno, line in order_lines(text):
            try:
                order = parse_line(state, line)
                problem = self._fits_step(state, seat, order)
            except OrderError as exc:
                lines.append(OrderLine(lineno, line, None, str(exc)))
                continue
            lines.append(OrderLine(lineno, line, order, problem))
        return Parsed.of(lines)

    def _fits_step(self, state: State, seat: str, o: Any) -> str | None:
        """Is this kind of line accepted in the step now asked of `seat`?"""
        if isinstance(o, STANDING):
            return None
        phase = state["phase"]
        if seat not in _asked_seats(state):
            return "you are not asked for orders now; only standing orders are kept"
        now = _ASKED[phase]
        if isinstance(o, ACTIONS):
            if phase == "turn":
                return None
            return ("actions are not asked in this step (a turn script already sent goes on "
                    f"by itself); you are asked for {now}")
        if isinstance(o, BidAnswer):
            if phase != "bid":
                return (f"BID <n> answers an auction; you are asked for {now} (a standing bid "
                        "is BID <vp|rebellion|swap|any> <n>)")
            have = state["reserve"][seat][board.active_type(state)]
            if o.n > have:
                return f"you have only {have} active units in reserve; bid 0-{have}"
            return self._effect_fits(state, state["pending"]["type"], o.ifwin)
        if isinstance(o, Cancel | Pass):
            return None if phase == "serpent" else f"no serpent question is open; you are " \
                f"asked for {now}"
        if isinstance(o, EFFECTS):
            if phase != "effect":
                return f"no lightning effect is to be chosen; you are asked for {now}"
            return self._effect_fits(state, state["pending"]["type"], o)
        return None  # pragma: no cover

    @staticmethod
    def _effect_fits(state: State, kind: str, e: Any) -> str | None:
        if e is None:
            return None
        if kind == "vp":
            return "the victory point tile has no choice to make"
        if isinstance(e, Rebel) and kind != "rebellion":
            return "REBEL is the rebellion's effect; this auction is a marker swap"
        if isinstance(e, Swap) and kind != "swap":
            return "SWAP is the marker swap's effect; this auction is a rebellion"
        return None

    def resolve(self, state: State, orders: Mapping[str, Parsed],
                dice: Dice) -> tuple[State, list[Event]]:
        events = resolve_step(state, orders, dice)
        return state, events

    def default_orders(self, state: State, seat: str) -> Parsed:
        """NMR: a turn recruits with every action; a bid is 0; no serpent; the retreat and
        the lightning effect follow the documented auto defaults."""
        phase = state["phase"]
        text = ""
        if phase == "turn":
            text = "RECRUIT\n" * state["turn"]["actions"]
        elif phase == "bid":
            text = "BID 0\n"
        elif phase == "serpent":
            text = "PASS\n"
        elif phase == "retreat":
            p = state["pending"]
            choice = decisions.retreat_choice(state, seat, p["region"],
                                              decisions.standing_retreat(state, seat))
            text = (f"{RetreatPref(choice[0], (choice[1],))}\n" if choice
                    else f"{RetreatPref('none')}\n")
        elif phase == "effect":
            p = state["pending"]
            text = f"{decisions.default_effect(state, seat, p['type'])}\n"
        return self.parse(state, seat, text)

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        return view.view(state, seat)

    def result(self, state: State) -> Result | None:
        r = state["result"]
        if r is None:
            return None
        ranking = tuple(sorted(state["seats"], key=lambda s: (-r["scores"][s], s)))
        return Result(tuple(r["winners"]), dict(r["scores"]), r["reason"], ranking)

    def legal_orders(self, state: State, seat: str, rng: random.Random) -> list[str]:
        return bot.random_script(state, seat, rng)

    def redeal_hidden(self, state: State, seat: str | None, rng: random.Random) -> State:
        """Re-deal what `seat` cannot see: the other seats' standing orders, the active
        seat's script (when it is not `seat`) and the other seats' sealed bids."""
        new = copy.deepcopy(state)
        others = [s for s in new["seats"] if s != seat]
        for s in others:
            lines = bot.random_standing(new, s, rng)
            lines.append(str(StandingBid("any", rng.randint(0, 9))))
            new["standing"][s] = {"bid": [], "serpent": [], "retreat": []}
            decisions.absorb_standing(new, s, [parse_line(new, ln) for ln in lines], [])
            t = new["turn"]
            if t is not None and t["seat"] == s:
                keep = new["cursor"]
                filler = ["RECRUIT"] * keep + [str(o) for o in bot.legal_actions(
                    new, s, full=False, rng=rng)[: rng.randint(1, 4)]]
                new["script"] = filler
            p = new["pending"]
            if p is not None and p.get("kind") == "bid" and s in p["bids"]:
                p["bids"][s] = rng.randint(0, 9)
                p["ifwin"][s] = rng.choice([None, "DECLINE"])
        return new

    def dump(self, state: State) -> Any:
        # The state is plain JSON data; a JSON round trip is an exact (and fast) copy.
        return json.loads(json.dumps(state))

    def load(self, data: Any) -> State:
        return json.loads(json.dumps(data))

    # --- presentation -------------------------------------------------------------------
    def round_number(self, state: State) -> int:
        return int(state["cycle"])

    def phase_label(self, state: State) -> str:
        if state["phase"] == "over":
            return f"Cycle {state['cycle']} ({state['cycle_type']}), game over"
        t = state["turn"]
        what = {"turn": f"{t['seat']}'s turn {t['no']}", "bid": "sealed auction",
                "serpent": "serpent window", "retreat": "retreat",
                "effect": "lightning effect"}[state["phase"]]
        return f"Cycle {state['cycle']} ({state['cycle_type']}), hourglass {state['hourglass']}, {what}"

    def board_text(self, view_: Mapping[str, Any]) -> str:
        return view.board_text(dict(view_))

    def board_svg(self, view_: Mapping[str, Any]) -> str | None:
        return view.board_svg(dict(view_))



def _asked_seats(state: State) -> list[str]:
    """The seats awaited now (without building their prompts)."""
    phase = state["phase"]
    if phase == "over":
        return []
    if phase == "turn":
        return [state["turn"]["seat"]]
    p = state["pending"]
    return list(p["need"]) if phase == "bid" else [p["seat"]]
