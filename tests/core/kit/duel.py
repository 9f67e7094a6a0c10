"""Duel: a tiny game built on the kit, for the kit's own tests (not shipped).

Two seats, red and blue, 10 hit points each. A sealed BID step (0-3) decides who starts
(higher bid; equal bids: a d6 each, rerolled while equal). Then turns alternate: the
active seat's script has up to two actions, `ATTACK <n>` (n dice, 1-3; each 5 or 6 hits)
or `HEAL` (+1). Before hits land the defender decides: `BLOCK` (half the hits, rounded
down, cost 1 hit point) or `TAKE`; standing order `GUARD ALWAYS|NEVER`. The game ends
when a seat has no hit points left or after round 6 (more hit points wins).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from pbem.core.dice import Dice
from pbem.core.engine import SetupResult
from pbem.core.i18n import _
from pbem.core.kit import (
    OVER,
    Context,
    Game,
    Grammar,
    Lines,
    Note,
    Order,
    Pause,
    Phase,
    Tokens,
    Verdict,
)
from pbem.core.orders import OrderLine, Prompt
from pbem.core.ruleset import GameConfig, Result

Seat = Literal["red", "blue"]
SEATS: tuple[str, str] = ("red", "blue")


class State(TypedDict):
    seats: list[str]
    phase: Literal["bid", "turn", "over"]
    round: int
    active: str | None
    hp: dict[str, int]
    guard: dict[str, str]  # seat -> "ALWAYS" | "NEVER" | "" (no standing order)
    ask: bool
    winner: str | None
    pause: Pause | None


@dataclass(frozen=True)
class Bid(Order):
    verbs = ("BID", "licit")
    usage = "BID <0-3>"
    example = "BID 2"
    n: int

    @classmethod
    def parse(cls, t: Tokens) -> Bid:
        return cls(t.int("the bid", 0, 3))

    def __str__(self) -> str:
        return f"BID {self.n}"


@dataclass(frozen=True)
class Attack(Order):
    verbs = ("ATTACK", "tamad")
    usage = "ATTACK <1-3 dice>"
    example = "ATTACK 3"
    dice: int

    @classmethod
    def parse(cls, t: Tokens) -> Attack:
        return cls(t.int("the number of dice", 1, 3))

    def __str__(self) -> str:
        return f"ATTACK {self.dice}"


@dataclass(frozen=True)
class Heal(Order):
    verbs = ("HEAL", "gyogyit")
    usage = "HEAL"

    @classmethod
    def parse(cls, t: Tokens) -> Heal:
        return cls()

    def check(self, state: State, seat: str) -> Verdict:
        if state["hp"][seat] >= 10:
            return Note("you are at full health now; HEAL would do nothing")
        return None

    def __str__(self) -> str:
        return "HEAL"


@dataclass(frozen=True)
class Answer(Order):
    verbs = ("BLOCK", "TAKE")
    usage = "BLOCK or TAKE"
    block: bool

    @classmethod
    def parse(cls, t: Tokens) -> Answer:
        return cls(t.toks[0].upper() == "BLOCK")

    def __str__(self) -> str:
        return "BLOCK" if self.block else "TAKE"


@dataclass(frozen=True)
class Guard(Order):
    verbs = ("GUARD", "ved")
    usage = "GUARD ALWAYS|NEVER"
    example = "GUARD ALWAYS"
    standing = True
    when: str

    @classmethod
    def parse(cls, t: Tokens) -> Guard:
        return cls(t.expect_word("ALWAYS", "NEVER"))

    def __str__(self) -> str:
        return f"GUARD {self.when}"


GRAMMAR = Grammar([Bid, Attack, Heal, Answer, Guard],
                  keywords={"ALWAYS": ["mindig"], "NEVER": ["soha"]})


def _other(seat: str) -> str:
    return "blue" if seat == "red" else "red"


# --- phases ----------------------------------------------------------------------------

def resolve_bids(ctx: Context, lines: Lines) -> None:
    state = ctx.state
    bids = {}
    for seat in SEATS:
        mine = [ln for ln in lines.get(seat, ()) if isinstance(ln.order, Bid)]
        bids[seat] = mine[0].order.n if mine else 0
        for i, ln in enumerate(mine):
            if i == 0:
                ctx.log.done(seat, ln)
            else:
                ctx.log.refused(seat, ln, "only the first bid counts")
    ctx.log.public("bids", f"Bids: red {bids['red']}, blue {bids['blue']}.")
    while bids["red"] == bids["blue"]:
        bids = {s: ctx.dice.roll(6, f"start roll {s}") for s in SEATS}
        ctx.log.public("roll", f"Start rolls: red {bids['red']}, blue {bids['blue']}.")
    state["active"] = max(SEATS, key=lambda s: bids[s])
    state["phase"] = "turn"
    ctx.log.public("start", f"{state['active']} starts.")


def resolve_turn(ctx: Context, lines: Lines) -> None:
    state = ctx.state
    seat = state["active"]
    assert seat is not None
    used = 0
    for ln in lines.get(seat, ()):
        if used == 2 or state["phase"] == "over":
            ctx.log.not_needed(seat, ln, "your two actions were used" if used == 2
                               else "the game is over")
            continue
        used += 1
        if isinstance(ln.order, Heal):
            if state["hp"][seat] >= 10:
                ctx.log.changed(seat, ln, "already at full health: nothing happened")
                continue
            state["hp"][seat] += 1
            ctx.log.done(seat, ln, f"{seat} has {state['hp'][seat]} hit points")
            continue
        attack(ctx, seat, ln)
    if used < 2 and state["phase"] != "over":
        ctx.log.public("idle", f"{seat} used {used} of 2 actions.")
    end_turn(state)


def attack(ctx: Context, seat: str, ln: OrderLine) -> None:
    state = ctx.state
    rolls = ctx.dice.rolls(ln.order.dice, 6, f"attack of {seat}")
    hits = sum(1 for r in rolls if r >= 5)
    ctx.log.public("attack", f"{seat} attacks: {rolls}, {hits} hit(s).", rolls=rolls)
    defender = _other(seat)
    guard = state["guard"][defender]
    standing = {"ALWAYS": "BLOCK", "NEVER": "TAKE"}.get(guard)
    answer = ctx.decide(defender, "block", question=_("{seat} hits you {hits} time(s): BLOCK "
                                                     "(half the hits, costs 1 hit point) or "
                                                     "TAKE?", seat=seat, hits=hits),
                        default="TAKE", options=("BLOCK", "TAKE"), standing=standing,
                        public=_("whether to block {hits} hit(s)", hits=hits)) if hits else "TAKE"
    if answer == "BLOCK":
        hits = hits // 2 + 1
        ctx.log.public("block", f"{defender} blocks.")
    state["hp"][defender] = max(0, state["hp"][defender] - hits)
    ctx.log.done(seat, ln, f"{defender} loses {hits}, has {state['hp'][defender]}")
    if state["hp"][defender] == 0:
        state["phase"] = "over"
        state["winner"] = seat


def end_turn(state: State) -> None:
    if state["phase"] == "over":
        return
    state["active"] = _other(state["active"] or "red")
    state["round"] += 1
    if state["round"] > 6:
        state["phase"] = "over"
        a, b = state["hp"]["red"], state["hp"]["blue"]
        state["winner"] = "red" if a > b else "blue" if b > a else None


def _awaits_turn(state: State) -> Sequence[str]:
    return [state["active"]] if state["active"] else []


PHASES = {
    "bid": Phase("bid", (Bid,), "a sealed BID", lambda s: list(SEATS),
                 lambda s, seat: Prompt("Bid 0-3 to start.", ("BID 0",)),
                 lambda s, seat: ["BID 0"], resolve_bids),
    "turn": Phase("turn", (Attack, Heal), "your two actions (ATTACK, HEAL)", _awaits_turn,
                  lambda s, seat: Prompt("Two actions.", ("ATTACK 3", "ATTACK 3")),
                  lambda s, seat: ["ATTACK 3", "ATTACK 3"], resolve_turn, unasked=True),
}


class Duel(Game):
    id = "duel"
    title = "Duel (kit test game)"
    grammar = GRAMMAR
    phases = PHASES
    answers = {"block": (Answer,)}
    state_schema = State
    report_outcomes = True

    def seat_ids(self, players: int, variant: str) -> tuple[str, ...]:
        return SEATS

    def setup(self, config: GameConfig, dice: Dice) -> SetupResult:
        state: State = {"seats": list(SEATS), "phase": "bid", "round": 1, "active": None,
                        "hp": {s: 10 for s in SEATS}, "guard": {s: "" for s in SEATS},
                        "ask": self.option(config, "decisions") == "ask", "winner": None,
                        "pause": None}
        return SetupResult(state, ())

    def phase_of(self, state: Any) -> str:
        return OVER if state["phase"] == "over" else str(state["phase"])

    def ask_mode(self, state: Any) -> bool:
        return bool(state["ask"])

    def absorb_standing(self, ctx: Context, seat: str, lines: Sequence[OrderLine]) -> None:
        for ln in lines:
            ctx.state["guard"][seat] = ln.order.when
            ctx.log.done(seat, ln, "kept as your standing order")

    def position_problems(self, state: Any) -> list[str]:
        if state["active"] not in (None, *SEATS):
            return [f"active: {state['active']!r} is not a seat"]
        return []

    def position_warnings(self, state: Any) -> list[str]:
        return [f"hp.{s}: {n} hit points is more than the 10 a seat starts with"
                for s, n in sorted(state["hp"].items()) if n > 10]

    def view(self, state: Any, seat: str | None) -> dict[str, Any]:
        v = {"hp": dict(state["hp"]), "round": state["round"], "active": state["active"]}
        if seat is not None:
            v["my_guard"] = state["guard"][seat]  # a standing order: its seat's secret
        return v

    def result(self, state: Any) -> Result | None:
        if state["phase"] != "over":
            return None
        w = state["winner"]
        return Result((w,) if w else SEATS, dict(state["hp"]), "duel over")

    def legal_orders(self, state: Any, seat: str, rng: random.Random) -> list[str]:
        qs = {q.seat: q for q in self.questions(state)}
        if seat in qs:
            return [rng.choice(qs[seat].options)]
        if state["phase"] == "bid":
            return [f"BID {rng.randint(0, 3)}"]
        return [rng.choice(["ATTACK 1", "ATTACK 2", "ATTACK 3", "HEAL"]) for _ in range(2)]
