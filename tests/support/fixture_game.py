"""A small test game, not shipped: hidden hands, sealed and sequential steps, dice.

"High card": each seat holds 3 cards drawn from a pile of 1..12 (hidden draws). In odd
rounds all seats play a card at once (sealed); in even rounds they play one after another
in seat order, seeing earlier plays. The highest card scores its value; a tie is broken by
a d6 per tied seat (rerolled while tied). Each seat then draws a card. After `rounds`
rounds the highest score wins. Standing order `PREFER HIGH|LOW` picks the NMR card.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pbem.core.dice import Dice
from pbem.core.events import Event
from pbem.core.orders import OrderLine, Parsed, Prompt, order_lines
from pbem.core.ruleset import GameConfig, Option, Result, Ruleset, Variant


@dataclass(frozen=True)
class Play:
    card: int

    def __str__(self) -> str:
        return f"PLAY {self.card}"


@dataclass(frozen=True)
class Prefer:
    high: bool

    def __str__(self) -> str:
        return "PREFER HIGH" if self.high else "PREFER LOW"


class HighCard(Ruleset):
    id = "highcard"
    title = "High Card (test fixture)"
    min_players = 2
    max_players = 3
    variants = (Variant("standard", "Four rounds"), Variant("long", "Eight rounds"))
    options = Ruleset.options + (Option("hand", 3, (2, 3, 4), "cards in hand"),)

    def seat_ids(self, players: int, variant: str) -> tuple[str, ...]:
        return ("north", "south", "east")[:players]

    def setup(self, config: GameConfig, dice: Dice) -> dict[str, Any]:
        pile = list(range(1, 13))
        hand_size = self.option(config, "hand")
        hands = {s: sorted(dice.draw(pile, f"deal to {s}", visible_to=[s])
                           for _ in range(hand_size)) for s in config.seats}
        return {"seats": list(config.seats), "round": 1,
                "rounds": 8 if config.variant == "long" else 4,
                "pile": pile, "hands": hands, "scores": {s: 0 for s in config.seats},
                "played": {}, "prefer": {s: True for s in config.seats}, "over": False}

    def _sealed(self, state: dict[str, Any]) -> bool:
        return state["round"] % 2 == 1

    def awaiting(self, state: dict[str, Any]) -> dict[str, Prompt]:
        if state["over"]:
            return {}
        if self._sealed(state):
            seats = [s for s in state["seats"] if s not in state["played"]]
        else:
            seats = [s for s in state["seats"] if s not in state["played"]][:1]
        return {s: Prompt(f"Round {state['round']}: play a card",
                          (f"PLAY {state['hands'][s][-1]}",)) for s in seats}

    def parse(self, state: dict[str, Any], seat: str, text: str) -> Parsed:
        lines = []
        for n, line in order_lines(text):
            words = line.upper().split()
            if words[:1] == ["PLAY"] and len(words) == 2 and words[1].isdigit():
                card = int(words[1])
                if card in state["hands"][seat]:
                    lines.append(OrderLine(n, line, Play(card)))
                else:
                    lines.append(OrderLine(n, line, error=f"you hold no {card}; your hand: "
                                           + " ".join(map(str, state["hands"][seat]))))
            elif words[:1] == ["PREFER"] and words[1:] in (["HIGH"], ["LOW"]):
                lines.append(OrderLine(n, line, Prefer(words[1] == "HIGH")))
            else:
                lines.append(OrderLine(n, line, error="expected PLAY <card> or PREFER HIGH|LOW"))
        return Parsed.of(lines)

    def accepts_unasked(self, state: dict[str, Any], seat: str) -> bool:
        return not state["over"]  # a PREFER standing order may come at any time

    def default_orders(self, state: dict[str, Any], seat: str) -> Parsed:
        hand = state["hands"][seat]
        card = hand[-1] if state["prefer"][seat] else hand[0]
        return self.parse(state, seat, f"PLAY {card}\n")

    def resolve(self, state: dict[str, Any], orders: Mapping[str, Parsed],
                dice: Dice) -> tuple[dict[str, Any], list[Event]]:
        events: list[Event] = []
        awaited = set(self.awaiting(state))
        for seat, parsed in orders.items():
            if seat not in awaited:  # unasked: standing orders only
                for order in parsed.orders:
                    if isinstance(order, Prefer):
                        state["prefer"][seat] = order.high
                continue
            played = False
            for order in parsed.orders:
                if isinstance(order, Prefer):
                    state["prefer"][seat] = order.high
                elif isinstance(order, Play) and not played:
                    if order.card in state["hands"][seat]:
                        state["hands"][seat].remove(order.card)
                        state["played"][seat] = order.card
                        played = True
            if not played:
                hand = state["hands"][seat]
                card = hand[-1] if state["prefer"][seat] else hand[0]
                hand.remove(card)
                state["played"][seat] = card
                events.append(Event("nmr", f"{seat} played {card} by default", {"seat": seat}))
        if len(state["played"]) == len(state["seats"]):
            self._score(state, dice, events)
        return state, events

    def _score(self, state: dict[str, Any], dice: Dice, events: list[Event]) -> None:
        played = state["played"]
        events.append(Event("reveal", "Played: " + ", ".join(f"{s} {c}" for s, c in played.items()),
                            {"played": dict(played)}))
        best = max(played.values())
        tied = [s for s in state["seats"] if played[s] == best]
        attempt = 1
        while len(tied) > 1:
            rolls = {s: dice.roll(6, f"tie-break {s}, round {state['round']}, try {attempt}")
                     for s in tied}
            top = max(rolls.values())
            tied = [s for s in tied if rolls[s] == top]
            attempt += 1
        winner = tied[0]
        state["scores"][winner] += best
        events.append(Event("score", f"{winner} scores {best}", {"seat": winner, "points": best}))
        state["played"] = {}
        for s in state["seats"]:
            if state["pile"]:
                card = dice.draw(state["pile"], f"draw for {s}", visible_to=[s])
                state["hands"][s] = sorted(state["hands"][s] + [card])
                events.append(Event("draw", f"You draw {card}", {"card": card}, (s,)))
        state["round"] += 1
        if state["round"] > state["rounds"] or any(not h for h in state["hands"].values()):
            state["over"] = True

    def view(self, state: dict[str, Any], seat: str | None) -> dict[str, Any]:
        v: dict[str, Any] = {"round": state["round"], "scores": dict(state["scores"]),
                             "pile": len(state["pile"]),
                             "hand_sizes": {s: len(h) for s, h in state["hands"].items()}}
        if self._sealed(state):
            v["played"] = {s: "sealed" for s in state["played"]}
        else:
            v["played"] = dict(state["played"])
        if seat is not None:
            v["hand"] = list(state["hands"][seat])
            if seat in state["played"]:
                v["my_play"] = state["played"][seat]
        return v

    def result(self, state: dict[str, Any]) -> Result | None:
        if not state["over"]:
            return None
        top = max(state["scores"].values())
        winners = tuple(s for s in state["seats"] if state["scores"][s] == top)
        return Result(winners, dict(state["scores"]), "highest score after the last round")

    def legal_orders(self, state: dict[str, Any], seat: str, rng: random.Random) -> list[str]:
        return [f"PLAY {rng.choice(state['hands'][seat])}"]

    def public_orders(self, state: dict[str, Any], seat: str, parsed: Parsed) -> list[str]:
        # A standing order stays in force: publishing it would tell the others the NMR card.
        return [str(o) for o in parsed.orders if not isinstance(o, Prefer)]

    def redeal_hidden(self, state: dict[str, Any], seat: str | None,
                      rng: random.Random) -> dict[str, Any]:
        new = self.load(self.dump(state))
        others = [s for s in new["seats"] if s != seat]
        hidden = list(new["pile"])
        for s in others:
            hidden += new["hands"][s]
            if self._sealed(new) and s in new["played"]:
                hidden.append(new["played"][s])
        rng.shuffle(hidden)
        for s in others:
            n = len(new["hands"][s])
            new["hands"][s], hidden = sorted(hidden[:n]), hidden[n:]
            if self._sealed(new) and s in new["played"]:
                new["played"][s], hidden = hidden[0], hidden[1:]
        new["pile"] = hidden
        return new

    def round_number(self, state: dict[str, Any]) -> int:
        return state["round"]

    def phase_label(self, state: dict[str, Any]) -> str:
        return f"Round {state['round']} ({'sealed' if self._sealed(state) else 'in turn'})"

    def board_text(self, view: Mapping[str, Any]) -> str:
        return "Scores: " + ", ".join(f"{s} {p}" for s, p in view["scores"].items())


RULESET = HighCard()
