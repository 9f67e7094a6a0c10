"""The Helios ruleset: the protocol methods (steps, parsing, resolution, results).

Steps: setup (all seats at once: start tile, seats 3/4 resource), one step per Phase 1
turn (sequential; scripts with OR alternatives and NEXT turns cut the mail round trips),
Phase 2 (all seats at once: hire priority lists and activations), and, only with
`decisions = ask`, a catch-up step for seats 3/4 that left no standing CATCHUP order.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

from pbem.core.dice import Dice
from pbem.core.engine import SetupResult
from pbem.core.events import Event
from pbem.core.orders import OrderLine, Parsed, Prompt, order_lines
from pbem.core.ruleset import GameConfig, Option, Result, Ruleset, Variant
from pbem.rulesets.helios import bot, data, flow, phases, scoring, view
from pbem.rulesets.helios.actions import say
from pbem.rulesets.helios.orders import (
    Activate,
    Bonus,
    Build,
    Catchup,
    Decline,
    Estate,
    Hire,
    Next,
    Or,
    OrderError,
    Pass,
    Place,
    Start,
    Sun,
    Take,
    Temple,
    parse_line,
)

SEATS = ("north", "east", "south", "west")
ACTION_TYPES = (Place, Temple, Build, Sun, Decline)
PHASE_CMDS: dict[str, tuple[type, ...]] = {
    "setup": (Start, Catchup),
    "actions": (Take, *ACTION_TYPES, Bonus, Or, Next, Catchup),
    "characters": (Hire, Activate, Pass, Catchup),
    "catchup": (Catchup,),
}
PHASE_NAMES = {"estate": "placing your Estate Manager tiles", "setup": "set-up",
               "actions": "Phase 1 (your action turn)",
               "characters": "Phase 2 (characters)", "catchup": "Phase 3 (catch-up resource)",
               "over": "the end of the game"}


class Helios(Ruleset):
    id = "helios"
    state_is_plain_json = True  # the engine parses stored states without a copy
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

    def seat_ids(self, players: int, variant: str) -> tuple[str, ...]:
        return SEATS[:players]

    def setup(self, config: GameConfig, dice: Dice) -> SetupResult:
        opts = {o.key: config.options.get(o.key, o.default) for o in self.options}
        state = phases.setup(list(config.seats), opts, config.variant or "standard", dice)
        events: list[Event] = []
        say(events, "start_player", f"{state['start']} is the start player (drawn at random; "
            "the rulebook's 'most continents visited' has no PBEM equivalent).")
        for sym in data.SYMBOLS:
            say(events, "column", f"The {sym} column is dealt (top to lowest): "
                + " ".join(state["columns"][sym]) + ".")
        return SetupResult(state, tuple(events))

    # --- steps ------------------------------------------------------------------------
    def awaiting(self, state: dict[str, Any]) -> dict[str, Prompt]:
        ph = state["phase"]
        if ph == "setup":
            out = {}
            extra = phases.catchup_seats(state)
            for s in state["seats"]:
                sk = ["START granite"] + (["CATCHUP blue AT 0,0"] if s in extra else [])
                out[s] = Prompt("Choose your start tile (redwood, granite or bamboo)"
                                + (" and your extra resource" if s in extra else "") + ".",
                                tuple(sk))
            return out
        if ph == "actions" and state.get("estate"):
            est = state["estate"]
            return {est["seat"]: Prompt(
                f"Your Estate Manager drew {' and '.join(est['tiles'])}: where do they go?",
                (f"ESTATE TO {bot.estate_default(state)}",))}
        if ph == "actions":
            seat = phases.current_seat(state)
            assert seat is not None
            return {seat: Prompt(f"Round {state['round']}, your action turn "
                                 f"{state['turn_index'] // len(state['seats']) + 1} of "
                                 f"{state['turns']}: take a tile and act.",
                                 tuple(bot.skeleton_turn(state, seat)))}
        if ph == "characters":
            if state.get("phase2"):
                s = phases.phase2_current(state)
                return {s: self._phase2_prompt(state, s, turn=True)}
            return {s: self._phase2_prompt(state, s) for s in state["seats"]}
        if ph == "catchup":
            return {s: Prompt("Phase 3: place your catch-up resource.",
                              (str(phases.catchup_default(state, s)),)) for s in state["asking"]}
        return {}

    def accepts_unasked(self, state: dict[str, Any], seat: str) -> bool:
        """Phase 1: a seat not on turn may send its coming turns (they replace its stored
        ones) and a standing CATCHUP, so that it need not wait for its turn's mail."""
        return (state["phase"] == "actions" and not state.get("estate")
                and phases.current_seat(state) not in (None, seat))

    def _phase2_prompt(self, state: dict[str, Any], seat: str, turn: bool = False) -> Prompt:
        chars = data.characters()
        free = [c for c in data.CHARACTERS if state["characters"][c]["owner"] is None]
        mine = [c for c in data.CHARACTERS if state["characters"][c]["owner"] == seat
                and not state["characters"][c]["active"]]
        order = ", ".join(state["phase2"]["order"] if state.get("phase2")
                          else phases.phase2_order(state))
        sk = ["# free: " + (", ".join(f"{c} ({chars[c]['hire']} mana)" for c in free) or "none"),
              f"# phase order: {order}; your mana: {state['players'][seat]['mana']}"]
        sk += [f"ACTIVATE {c}" for c in mine]
        sk += ["# HIRE princess OR inventor", "# ACTIVATE princess PAY blue brown grey"]
        if not mine:
            sk.append("PASS")
        if turn:
            return Prompt("Phase 2, your turn: hire at most one character and/or activate "
                          "yours, or PASS.", tuple(sk))
        return Prompt("Phase 2: hire and activate characters (a script for the whole phase).",
                      tuple(sk))

    def parse(self, state: dict[str, Any], seat: str, text: str) -> Parsed:
        ph = state["phase"]
        allowed = PHASE_CMDS.get(ph, ())
        if ph == "actions" and state.get("estate"):
            ph, allowed = "estate", (Estate,)
        lines: list[OrderLine] = []
        took = False
        acted = False
        column = ""
        for no, raw in order_lines(text):
            try:
                o = parse_line(raw)
            except OrderError as e:
                lines.append(OrderLine(no, raw, None, str(e)))
                continue
            err = None
            if not isinstance(o, allowed):
                err = (f"{str(o).split()[0]} is not an order for {PHASE_NAMES.get(ph, ph)}; "
                       f"expected {', '.join(sorted({t.__name__.upper() for t in allowed}))}")
            elif isinstance(o, Catchup) and ph == "setup" and seat not in phases.catchup_seats(state):
                err = "only seats 3 and 4 after the start player get a set-up resource"
            elif ph == "actions" and state["options"].get("conditional_orders") == "no" and (
                    isinstance(o, Or | Next) or (isinstance(o, Take) and o.only_if)):
                err = ("conditional orders (OR, NEXT, IF) are switched off in this game; "
                       "send one plain turn")
            elif ph == "actions":
                if isinstance(o, Take):
                    if took:
                        err = "a second TAKE in one alternative; write OR (or NEXT) before it"
                    took, acted, column = True, False, o.column
                elif isinstance(o, Or | Next):
                    if not took:
                        err = f"{o} must follow a TAKE"
                    took = acted = False
                elif isinstance(o, Bonus):
                    if not took:
                        err = "BONUS must follow a TAKE"
                elif isinstance(o, ACTION_TYPES):
                    if not took:
                        err = f"start a turn with TAKE before {str(o).split()[0]}"
                    elif acted:
                        err = "one action per turn; write OR to start an alternative"
                    else:
                        err = flow.mismatch(column, o)
                    acted = True
            lines.append(OrderLine(no, raw, None if err else o, err))
        return Parsed.of(lines)

    def default_orders(self, state: dict[str, Any], seat: str) -> Parsed:
        ph = state["phase"]
        if ph == "setup":
            text = f"START {data.STARTING_LANDS[state['seats'].index(seat) % 3]}\n"
        elif ph == "actions" and state.get("estate"):
            text = "ESTATE\n"
        elif ph == "actions":
            text = "TAKE sun\nDECLINE\n"
        elif ph == "characters":
            text = "PASS\n"
        elif ph == "catchup":
            text = f"{phases.catchup_default(state, seat)}\n"
        else:
            text = ""
        return self.parse(state, seat, text)

    def resolve(self, state: dict[str, Any], orders: Mapping[str, Parsed],
                dice: Dice) -> tuple[dict[str, Any], list[Event]]:
        events: list[Event] = []
        ph = state["phase"]
        got = {s: p.orders for s, p in orders.items()}
        for s, os_ in got.items():  # CATCHUP lines are standing orders for Phase 3
            for o in os_:
                if isinstance(o, Catchup) and ph not in ("setup", "catchup"):
                    state["players"][s]["catchup"] = str(o)
        if ph == "setup":
            starts, extras = {}, {}
            for s in state["seats"]:
                os_ = got.get(s, [])
                st = next((o for o in os_ if isinstance(o, Start)), None)
                starts[s] = st.land if st else data.STARTING_LANDS[state["seats"].index(s) % 3]
                extras[s] = next((o for o in os_ if isinstance(o, Catchup)), None)
            phases.finish_setup(state, starts, extras, dice, events)
        elif ph == "actions" and state.get("estate"):
            seat = state["estate"]["seat"]
            e = next((o for o in got.get(seat, []) if isinstance(o, Estate)), Estate())
            flow.resume(state, e.cells, e.bonus, dice, events)
        elif ph == "actions":
            seat = phases.current_seat(state)
            assert seat is not None
            for other, os_ in got.items():  # unasked seats: their coming turns are stored
                blocks = flow.split_turns([o for o in os_ if not isinstance(o, Catchup)])
                if other != seat and blocks:
                    state["players"][other]["pending"] = [_block_lines(b) for b in blocks]
                    say(events, "stored", f"{other}'s next "
                        + (f"{len(blocks)} turns are" if len(blocks) > 1 else "turn is")
                        + " stored.", (other,))
            blocks = flow.split_turns([o for o in got.get(seat, []) if not isinstance(o, Catchup)])
            if blocks:
                flow.run_turn(state, seat, blocks[0], dice, events, stored=False)
            else:
                flow.fallback_turn(state, seat, dice, events)
            state["players"][seat]["pending"] = [
                _block_lines(b) for b in blocks[1:]]
            state["turn_index"] += 1
        elif ph == "characters" and state.get("phase2"):
            seat = phases.phase2_current(state)
            if phases.phase2_step(state, seat, got.get(seat, []), events):
                self._end_round(state, dice, events)
        elif ph == "characters":
            phases.run_characters(state, {s: got.get(s, []) for s in state["seats"]}, events)
            self._end_round(state, dice, events)
        elif ph == "catchup":
            for s in state["asking"]:
                c = next((o for o in got.get(s, []) if isinstance(o, Catchup)), None)
                phases.apply_catchup(state, s, c or phases.catchup_default(state, s), events)
            phases.next_round(state, events)
        self._auto(state, dice, events)
        return state, events

    def _auto(self, state: dict[str, Any], dice: Dice, events: list[Event]) -> None:
        """Run stored turns (NEXT blocks) and empty-column skips until orders are needed."""
        while state["phase"] == "actions" and not state.get("estate"):
            seat = phases.current_seat(state)
            if seat is None:
                phases.end_actions(state, events)
                return
            if not any(state["columns"].values()):
                flow.fallback_turn(state, seat, dice, events)
                state["turn_index"] += 1
                continue
            p = state["players"][seat]
            if not p["pending"]:
                return
            lines = p["pending"].pop(0)
            block = flow.split_turns([parse_line(line) for line in lines])
            if block and flow.run_turn(state, seat, block[0], dice, events, stored=True):
                state["turn_index"] += 1
                continue
            say(events, "ask", f"{seat}'s stored turn cannot be used; {seat} is asked.", (seat,))
            p["pending"] = []
            return

    def _end_round(self, state: dict[str, Any], dice: Dice, events: list[Event]) -> None:
        if state["round"] >= state["rounds"]:
            final = {s: scoring.final_scores(state, s) for s in state["seats"]}
            totals = {s: f["total"] for s, f in final.items()}
            win, ranking = scoring.winners(state, totals)
            state["final"] = {"scores": final, "winners": win, "ranking": ranking}
            state["phase"] = "over"
            for s in state["seats"]:
                f = final[s]
                say(events, "final", f"{s}: {f['total']} VP (bag {f['bag']}, corners "
                    f"{f['corners']}, bonus tiles {f['bonus_tiles']}, buildings "
                    f"{f['buildings']}, characters {f['characters']}, mana {f['mana']}, "
                    f"resources {f['resources']}; leftover resources for a tie: {f['resources_left']}).",
                    seat=s, **f)
            say(events, "winner", scoring.winner_text(state, totals, win))
            return
        phases.phase3(state, dice, events)
        asking = []
        for s in phases.catchup_seats(state):
            p = state["players"][s]
            if p["catchup"]:
                c = parse_line(p["catchup"])
                p["catchup"] = None
                phases.apply_catchup(state, s, c, events)
            elif state["options"].get("decisions") == "ask":
                asking.append(s)
            else:
                phases.apply_catchup(state, s, phases.catchup_default(state, s), events)
        if asking:
            state["phase"] = "catchup"
            state["asking"] = asking
        else:
            phases.next_round(state, events)

    # --- results, views ----------------------------------------------------------------
    def result(self, state: dict[str, Any]) -> Result | None:
        f = state.get("final")
        if not f:
            return None
        return Result(tuple(f["winners"]), {s: v["total"] for s, v in f["scores"].items()},
                      "final scoring after the last round", tuple(f["ranking"]))

    def view(self, state: dict[str, Any], seat: str | None) -> dict[str, Any]:
        return view.view(state, seat)

    def legal_orders(self, state: dict[str, Any], seat: str, rng: random.Random) -> list[str]:
        return bot.random_orders(state, seat, rng)

    def redeal_hidden(self, state: dict[str, Any], seat: str | None,
                      rng: random.Random) -> dict[str, Any]:
        s = self.load(self.dump(state))
        if s["phase"] == "over":
            return s
        for other, p in s["players"].items():
            if other == seat:
                continue
            if s["options"].get("public_scores") != "yes":
                p["vp"] = rng.randrange(0, 300)
            p["pending"] = [["TAKE sun", "DECLINE"]] * rng.randrange(0, 3)
            p["catchup"] = rng.choice([None, "CATCHUP black", "CATCHUP blue AT 0,0"])
        est = s.get("estate")
        if est and est["seat"] != seat:
            est["queue"] = rng.choice([[], ["BONUS DECLINE"], ["BONUS SUN TO 1,0"]])
        return s

    def dump(self, state: dict[str, Any]) -> Any:
        return state

    def load(self, data: Any) -> dict[str, Any]:
        return json.loads(json.dumps(data))  # a private copy; faster than deepcopy

    def round_number(self, state: dict[str, Any]) -> int:
        return state["round"]

    def phase_label(self, state: dict[str, Any]) -> str:
        ph = state["phase"]
        if ph == "actions" and state.get("estate"):
            return (f"Round {state['round']}, Phase 1, Estate Manager tiles "
                    f"({state['estate']['seat']})")
        if ph == "actions":
            return (f"Round {state['round']}, Phase 1, turn {state['turn_index'] + 1} "
                    f"({phases.current_seat(state)})")
        if ph == "over":
            return "Game over"
        if ph == "characters" and state.get("phase2"):
            return (f"Round {state['round']}, Phase 2 (characters), "
                    f"turn {state['phase2']['i'] + 1} ({phases.phase2_current(state)})")
        return f"Round {state['round']}, {PHASE_NAMES[ph]}"

    def board_text(self, v: Mapping[str, Any]) -> str:
        return view.board_text(v)

    def board_svg(self, v: Mapping[str, Any]) -> str | None:
        return view.board_svg(v)


def _block_lines(block: list[dict[str, Any]]) -> list[str]:
    out: list[str] = []
    for i, alt in enumerate(block):
        if i:
            out.append("OR")
        out.append(str(alt["take"]))
        if alt["action"] is not None:
            out.append(str(alt["action"]))
        out.extend(str(Bonus(b)) for b in alt["bonus"])
    return out
