"""The Cherubion ruleset: the protocol methods tying the chapters together.

Steps: one sealed draft step (team, Base, line-up, deck), one placement step per player
in choice order, then one step per player turn (the whole turn as a script), plus short
`ask` steps when decisions=ask and a seat may answer mid-turn. See game rules in the
chapter modules; view/board pictures in view.py; the random bot in bot.py.
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
from pbem.rulesets.cherubion import bot, diplomacy
from pbem.rulesets.cherubion import view as view_mod
from pbem.rulesets.cherubion.board import board_data
from pbem.rulesets.cherubion.model import Ctx, State
from pbem.rulesets.cherubion.orders import (
    DIPLOMACY,
    STANDING,
    BaseChoice,
    Deck,
    Exchange,
    FreeAttack,
    Intruder,
    Lineup,
    Loss,
    OrderError,
    Pass,
    Place,
    Play,
    Scry,
    StartResource,
    Surrender,
    Team,
    parse_line,
)
from pbem.rulesets.cherubion.reactions import push
from pbem.rulesets.cherubion.setup import (
    apply_draft,
    apply_placement,
    choice_order,
    new_state,
)
from pbem.rulesets.cherubion.turn import run, start_turn, store_standing

SEATS = ("alpha", "beta", "gamma", "delta", "epsilon")
DRAFT = (Team, BaseChoice, Lineup, Deck)
PLACEMENT = (Place, StartResource)


class Cherubion(Ruleset):
    id = "cherubion"
    state_is_plain_json = True  # the engine parses stored states without a copy
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
    options = Ruleset.options + (
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
        st = new_state({"seats": list(config.seats), "variant": config.variant,
                        "options": opts}, n, nml, sides)
        ctx = Ctx(st, dice)
        st["order"] = choice_order(ctx, list(config.seats))
        # the choice-order rolls are reported in the first report (step 0)
        return SetupResult(st, tuple(ctx.events))

    # --- the step loop ------------------------------------------------------------------
    def awaiting(self, state: State) -> dict[str, Prompt]:
        st = state
        if st["phase"] == "over":
            return {}
        if st["phase"] == "draft":
            return {s: bot.draft_prompt(st, s) for s in st["order"]}
        if st["phase"] == "place":
            seat = st["order"][st["place_idx"]]
            return {seat: bot.place_prompt(st, seat)}
        if st["ask"]:
            a = st["ask"]
            return {a["seat"]: Prompt(a["text"], tuple(a["options"]) + ("PASS",),
                                      tuple(a["options"]) + ("PASS",))}
        return {st["active"]: bot.turn_prompt(st, st["active"])}

    def accepts_unasked(self, state: State, seat: str) -> bool:
        """Spec DP16 and §5.21.3: a surrender is accepted at any time and standing orders
        (WHEN, FORGET, FREEATTACK, INTRUDER, LOSS, SCRY, CAPTURE, STRIKEBACK) may be sent
        while another seat is awaited; they are applied when the step is processed. From
        the first turn on (the draft awaits everybody; a placement file holds no standing
        orders worth early)."""
        st = state
        return st["phase"] == "turn" and seat in st["players"] and \
            bool(st["players"][seat]["alive"])

    def parse(self, state: State, seat: str, text: str) -> Parsed:
        st = state
        lines = []
        unasked = st["phase"] == "turn" and \
            seat != (st["ask"]["seat"] if st["ask"] else st["active"])
        allowed = () if unasked else self._allowed(st, seat)
        for no, raw in order_lines(text):
            try:
                o = parse_line(raw, st["n"], tuple(st["config"]["seats"]))
            except OrderError as e:
                lines.append(OrderLine(no, raw, None, str(e)))
                continue
            # prisoner exchange is in the rulebook's "Fogolyejtés", not the optional
            # Diplomacy rule: it is always allowed
            if isinstance(o, DIPLOMACY) and not isinstance(o, Exchange) and \
                    not st["config"]["options"].get("diplomacy"):
                lines.append(OrderLine(no, raw, None, "Diplomacy is an optional rule not used "
                                       "in this game (option diplomacy=true)"))
                continue
            if unasked and not isinstance(o, STANDING + (Surrender,)):
                lines.append(OrderLine(no, raw, None, (
                    f"{str(o).split()[0]}: you are not awaited now ({self.phase_label(st)}); "
                    "a file sent now may hold only standing orders (WHEN, FORGET, FREEATTACK, "
                    "INTRUDER, LOSS, SCRY, CAPTURE, STRIKEBACK) and SURRENDER")))
                continue
            if isinstance(o, DIPLOMACY) and st["phase"] == "draft":
                lines.append(OrderLine(no, raw, None, "diplomacy starts after the draft"))
                continue
            if not isinstance(o, allowed + STANDING + DIPLOMACY + (Surrender,)):
                lines.append(OrderLine(no, raw, None, self._wrong_step(st, o)))
                continue
            if isinstance(o, Place) and o.piece not in st["pieces"]:
                lines.append(OrderLine(no, raw, None, f"{o.piece} is not a piece"))
                continue
            lines.append(OrderLine(no, raw, o))
        return Parsed.of(lines)

    def _allowed(self, st: State, seat: str) -> tuple[type, ...]:
        from pbem.rulesets.cherubion import orders as O
        if st["phase"] == "draft":
            return DRAFT
        if st["phase"] == "place":
            return PLACEMENT
        if st["ask"]:
            return (Play, Pass, Intruder, Loss, FreeAttack, Scry)
        return (O.Move, O.Deploy, O.Draw, O.Build, O.Upgrade, O.Play, O.Attack, O.Execute,
                O.If, O.Else)

    def _wrong_step(self, st: State, o: object) -> str:
        if st["phase"] == "draft":
            return f"{str(o).split()[0]} is not a draft order; now: TEAM, BASE, LINEUP, DECK"
        if st["phase"] == "place":
            return f"{str(o).split()[0]} is not a placement order; now: PLACE, RESOURCE"
        if st["ask"]:
            return "now answer with PLAY <card> BY <caster> ON <target>, or PASS"
        return f"{str(o).split()[0]} belongs to set-up; now give turn orders (MOVE, PLAY, ...)"

    def resolve(self, state: State, orders: Mapping[str, Parsed],
                dice: Dice) -> tuple[State, list[Event]]:
        st = state
        ctx = Ctx(st, dice)
        if st.get("setup_events"):
            # games set up before set-up returned SetupResult carry their set-up events
            ctx.events += [Event.from_json(e) for e in st.pop("setup_events")]
        phase = st["phase"]
        if phase == "draft":
            apply_draft(ctx, {s: p.orders for s, p in orders.items()})
        awaited = set(self.awaiting(st))
        for seat, parsed in sorted(orders.items()):
            store_standing(st, seat, parsed.orders)
            if seat not in awaited:
                # accepts_unasked: standing orders (stored above) and a surrender only
                if seat in st["players"] and st["players"][seat]["alive"] and \
                        any(isinstance(o, Surrender) for o in parsed.orders):
                    self._surrender(ctx, seat)
                continue
            if phase != "draft":
                diplomacy.apply(ctx, seat, [o for o in parsed.orders
                                            if isinstance(o, DIPLOMACY)])
        orders = {s: p for s, p in orders.items() if s in awaited}
        if st["phase"] == "over":
            pass  # an unasked surrender ended the game
        elif phase == "draft":
            pass  # placement starts with the next step
        elif phase == "place":
            seat = st["order"][st["place_idx"]]
            apply_placement(ctx, seat, orders.get(seat, Parsed()).orders)
            st["place_idx"] += 1
            if st["place_idx"] >= len(st["order"]):
                st["phase"] = "turn"
                st["round"] = 1
                st["active"] = st["order"][0]
                st["turn"] = {"opening": True}
                start_turn(ctx)
                run(ctx)
        elif st["ask"]:
            a = st["ask"]
            seat = a["seat"]
            st["ask"] = None
            self._answer(ctx, seat, a, orders.get(seat, Parsed()).orders)
            run(ctx)
        else:
            seat = st["active"]
            os_ = [o for o in orders.get(seat, Parsed()).orders
                   if not isinstance(o, STANDING + DIPLOMACY)]
            st["script"] = [str(o) for o in os_]
            st["awaiting_orders"] = False
            run(ctx)
        return st, ctx.events

    def _surrender(self, ctx: Ctx, seat: str) -> None:
        """A surrender sent while another seat was awaited (spec DP16: accepted at any time,
        applied at the next processing point). If it is the active seat's (during an answer
        step), the run loop drops the rest of its turn."""
        from pbem.rulesets.cherubion.life import eliminate
        ctx.pub("surrender", f"{seat} surrenders", seat=seat)
        eliminate(ctx, seat, None, "surrendered")

    def _answer(self, ctx: Ctx, seat: str, ask: dict[str, Any], os_: list[Any]) -> None:
        from pbem.rulesets.cherubion.life import eliminate
        st = ctx.state
        if any(isinstance(o, Surrender) for o in os_):
            ctx.pub("surrender", f"{seat} surrenders", seat=seat)
            eliminate(ctx, seat, None, "surrendered")
            return
        if ask["event"] in ("FREEATTACK", "SCRY"):
            key = ask["event"].lower()
            if st["players"][seat]["standing"].get(key) is None:
                ctx.pub("pass", f"{seat} leaves it to the default")
            return
        if ask["event"] in ("INTRUDER", "LOSS"):
            key = "loss" if ask["event"] == "LOSS" else "intruder"
            if st["players"][seat]["standing"].get(key) is None and st.get("decisions"):
                st["decisions"][0]["default"] = True
                ctx.pub("pass", f"{seat} leaves it to the default")
            return
        play = next((o for o in os_ if isinstance(o, Play)), None)
        if play is None:
            if ask["event"] == "START":
                # not asked about these again (WHEN START triggers still fire)
                from pbem.rulesets.cherubion.reactions import start_concerns
                standing = st["players"][seat]["standing"]
                standing["start_declined"] = sorted(
                    set(standing.get("start_declined", [])) | set(start_concerns(st, seat)))
            ctx.pub("pass", f"{seat} passes")
            return
        # the option written, else one with the same card and target, else the same card
        chosen = next((o for o in ask["options"] if o == str(play)), None)
        # (a written target is never swapped for another one)
        for same in (lambda q: q.card == play.card and q.targets == play.targets,
                     lambda q: q.card == play.card and not play.targets):
            if chosen is None:
                chosen = next((o for o in ask["options"] if same(parse_line(o, st["n"]))),
                              None)
        if chosen is None:
            ctx.pub("pass", f"{seat}: {play} is not a possible answer now; passes")
            return
        p = parse_line(chosen, st["n"])
        why = self._answer_lapsed(st, seat, p)
        if why:
            ctx.pub("pass", f"{seat}: {play} is no longer possible ({why}); passes")
            return
        if ask.get("start"):
            task = st["turn"]["start_window"]
        elif ask.get("zero"):
            task = st["turn"]["zero_task"]["answered"][ask["zero"]]
        elif ask.get("after"):
            task = st["queue"][0]["after_of"][ask["after"]]
        else:
            task = st["queue"][0]
        push(ctx, task, seat, p, ask["event"], ask["info"])

    @staticmethod
    def _answer_lapsed(st: State, seat: str, p: Play) -> str | None:
        """Why an offered answer can no longer be paid (something in this same step, e.g.
        a team handed over, took the seat's card, caster or energy), or None."""
        from pbem.rulesets.cherubion.cards import price, surcharge
        pl = st["players"][seat]
        caster = st["pieces"].get(p.caster)
        if not pl["alive"] or p.card not in pl["hand"]:
            return "the card is no longer in your hand"
        if caster is None or caster["owner"] != seat or caster["loc"] == "gone":
            return f"{p.caster} is no longer yours"
        extra = surcharge(st, caster, p.card)
        if isinstance(extra, str):
            return extra
        if price(st, seat, p.card, extra, p.k) > pl["energy"]:
            return "not enough energy"
        return None

    def default_orders(self, state: State, seat: str) -> Parsed:
        """NMR: draft/placement defaults (first free choices, Base-side placement); a turn
        of nothing (left-over MÉ is walked out by the engine, mandatory melee still
        happens); PASS when asked."""
        st = state
        if st["phase"] == "draft":
            return Parsed()
        if st["phase"] == "place":
            return self.parse(st, seat, "\n".join(bot.default_placement(st, seat)))
        if st["ask"]:
            return self.parse(st, seat, "PASS")
        return Parsed()

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        return view_mod.view(state, seat)

    def result(self, state: State) -> Result | None:
        r = state.get("result")
        if not r:
            return None
        return Result(tuple(r["winners"]), dict(r.get("scores", {})), r["reason"],
                      tuple(r["winners"]))

    def legal_orders(self, state: State, seat: str, rng: random.Random) -> list[str]:
        return bot.random_orders(state, seat, rng)

    def redeal_hidden(self, state: State, seat: str | None, rng: random.Random) -> State:
        return view_mod.redeal(state, seat, rng)

    def dump(self, state: State) -> Any:
        return state

    def load(self, data: Any) -> State:
        # a private copy; the state is plain JSON, so a JSON round trip copies it fast
        return json.loads(json.dumps(data))

    def round_number(self, state: State) -> int:
        return int(state.get("round", 0))

    def phase_label(self, state: State) -> str:
        st = state
        if st["phase"] == "draft":
            return "Set-up: draft of teams, Bases and decks"
        if st["phase"] == "place":
            return f"Set-up: initial placement, {st['order'][st['place_idx']]}"
        if st["phase"] == "over":
            return f"Game over after round {st['round']}"
        if st["ask"]:
            return f"Round {st['round']}, {st['active']}'s turn: {st['ask']['seat']} may answer"
        return f"Round {st['round']}, {st['active']}'s turn"

    def board_text(self, view: Mapping[str, Any]) -> str:
        return view_mod.board_text(view)

    def board_svg(self, view: Mapping[str, Any]) -> str | None:
        return view_mod.board_svg(view)
