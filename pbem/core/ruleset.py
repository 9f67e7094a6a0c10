"""The ruleset protocol: what every hosted game implements (DESIGN section 3).

A ruleset is pure: it never touches the database, the clock, the network or a global
random generator. Given the same state, orders and dice it returns the same result on
every machine. It is a subclass of `Ruleset`, exported from its package as `RULESET`
(`pbem/rulesets/<id>/__init__.py`); the registry finds it there.

State is whatever the ruleset likes (dataclasses, dicts) as long as `dump` and `load`
round-trip it through JSON exactly. The engine never looks inside it.

The step loop (see `pbem.core.engine`):
    awaiting(state) -> {seat: Prompt}            who must send orders now
    parse(state, seat, text) -> Parsed           echo for the player; never mutates
    resolve(state, {seat: Parsed}, dice) -> (state, [Event])
                                                 applies the step and every automatic step
                                                 after it, until orders are needed again or
                                                 the game is over
An empty `awaiting` means the game is over and `result` must then say how it ended.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from pbem.core.dice import Dice
from pbem.core.events import Event
from pbem.core.i18n import Msg, Translator, restored
from pbem.core.orders import Parsed, Prompt

State = Any


@dataclass(frozen=True)
class GameConfig:
    """How a game was set up: its seats (in seating order), variant and options.

    `options` holds ruleset options such as `decisions = "auto" | "ask"` (how a decision
    that falls to another seat mid-turn is taken when no standing order covers it).
    """

    seats: tuple[str, ...]
    variant: str = ""
    options: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"seats": list(self.seats), "variant": self.variant, "options": dict(self.options)}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> GameConfig:
        return cls(tuple(d["seats"]), d.get("variant", ""), dict(d.get("options") or {}))


@dataclass(frozen=True)
class Result:
    """How a game ended: winners (seat ids; several for a shared win), scores, reason."""

    winners: tuple[str, ...]
    scores: Mapping[str, float] = field(default_factory=dict)
    reason: str = ""
    ranking: tuple[str, ...] = ()  # optional full order, best first

    def to_json(self) -> dict[str, Any]:
        d = {"winners": list(self.winners), "scores": dict(self.scores),
             "reason": str(self.reason), "ranking": list(self.ranking)}
        if isinstance(self.reason, Msg):
            d["reason_msg"] = self.reason.to_json()
        return d

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Result:
        return cls(tuple(d["winners"]), dict(d.get("scores") or {}),
                   restored(d.get("reason", ""), d.get("reason_msg")),
                   tuple(d.get("ranking") or ()))


@dataclass(frozen=True)
class Variant:
    id: str
    title: str
    description: str = ""


@dataclass(frozen=True)
class Option:
    """A ruleset option a GM may set with `--option key=value`."""

    key: str
    default: Any
    choices: tuple[Any, ...] = ()
    description: str = ""


class Ruleset:
    """Base class of every ruleset. Override the methods marked `required`."""

    id: ClassVar[str] = ""
    title: ClassVar[str] = ""
    rulebook: ClassVar[str] = ""  # file name under shared/seeds
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    variants: ClassVar[tuple[Variant, ...]] = (Variant("standard", "Standard"),)
    options: ClassVar[tuple[Option, ...]] = (
        Option("decisions", "auto", ("auto", "ask"),
               "a decision that falls to another seat mid-turn: auto = documented default; "
               "ask = open a short step for that seat"),
    )
    # True when the state is plain JSON data: `dump` returns it as it is (or an equal copy)
    # and `load` only copies. The engine then parses a stored state straight into the
    # state and dumps the state as it is: one JSON load and one dump a step.
    state_is_plain_json: ClassVar[bool] = False

    # --- set-up ----------------------------------------------------------------------
    def seat_ids(self, players: int, variant: str) -> tuple[str, ...]:
        """required: the seat ids for this player count, in seating order."""
        raise NotImplementedError

    def default_variant(self) -> str:
        return self.variants[0].id

    def check_config(self, config: GameConfig) -> list[str]:
        """Problems with a config, one line each (empty when it is fine)."""
        problems = []
        if config.variant not in {v.id for v in self.variants}:
            problems.append(f"unknown variant {config.variant!r}; choose one of "
                            + ", ".join(v.id for v in self.variants))
            return problems
        n = len(config.seats)
        if not self.min_players <= n <= self.max_players:
            problems.append(f"{self.id} takes {self.min_players}-{self.max_players} players, not {n}")
            return problems
        allowed = self.seat_ids(n, config.variant)
        bad = [s for s in config.seats if s not in allowed]
        if bad:
            problems.append(f"unknown seat {bad[0]!r}; the seats for {n} players are "
                            + ", ".join(allowed))
        if len(set(config.seats)) != n:
            problems.append("a seat is named twice")
        return problems + self.option_problems(config)

    def option_problems(self, config: GameConfig) -> list[str]:
        """Unknown options and values outside an option's choices, one line each."""
        problems = []
        known = {o.key: o for o in self.options}
        for key, value in config.options.items():
            if key not in known:
                problems.append(f"unknown option {key!r}; options are " + ", ".join(known))
            elif known[key].choices and value not in known[key].choices:
                problems.append(f"option {key} must be one of "
                                + ", ".join(map(str, known[key].choices)))
        return problems

    def option(self, config: GameConfig, key: str) -> Any:
        for o in self.options:
            if o.key == key:
                return config.options.get(key, o.default)
        raise KeyError(key)

    def setup(self, config: GameConfig, dice: Dice) -> State:
        """required: the starting state; random set-up only through `dice`. To report what
        the set-up did, return `pbem.core.engine.SetupResult(state, events)` instead."""
        raise NotImplementedError

    # --- the step loop ---------------------------------------------------------------
    def awaiting(self, state: State) -> dict[str, Prompt]:
        """required: who must send orders now, and what is asked. Empty when over."""
        raise NotImplementedError

    def parse(self, state: State, seat: str, text: str) -> Parsed:
        """required: the seat's order lines, each parsed or with a clear error."""
        raise NotImplementedError

    def resolve(self, state: State, orders: Mapping[str, Parsed],
                dice: Dice) -> tuple[State, list[Event]]:
        """required: apply the step; may mutate and return `state` (the engine hands in
        a private copy)."""
        raise NotImplementedError

    def accepts_unasked(self, state: State, seat: str) -> bool:
        """May `seat` send orders while it is not awaited (standing orders, a surrender)?
        If so, its latest file is locked with the step and handed to `resolve` with the
        awaited seats' orders; it never holds the step up and gets no NMR default.
        Default: no."""
        return False

    def default_orders(self, state: State, seat: str) -> Parsed:
        """What a seat that sent nothing gets at the deadline (NMR). Default: nothing."""
        return Parsed()

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        """required: JSON-able; everything `seat` may see (None: the public view)."""
        raise NotImplementedError

    def result(self, state: State) -> Result | None:
        """required: how the game ended, or None while it goes on."""
        raise NotImplementedError

    def legal_orders(self, state: State, seat: str, rng: random.Random) -> list[str]:
        """required: a random legal order script for `seat` (canonical lines). Drives the
        random bot, fuzz tests and selfplay; `rng` is the bot's, not the game's dice."""
        raise NotImplementedError

    def public_orders(self, state: State, seat: str, parsed: Parsed) -> list[str] | None:
        """What of `seat`'s orders for a closed step (parsed against the state the step
        opened with) the archive may publish while the game runs; None publishes nothing
        until the game ends. Default None: order scripts usually carry standing orders,
        fallbacks and sealed choices that stay secret after the step. A ruleset whose
        orders are public once carried out returns them here (canonical lines)."""
        return None

    def redeal_hidden(self, state: State, seat: str | None, rng: random.Random) -> State:
        """For the leak test: a copy of `state` whose parts hidden from `seat` (other hands,
        sealed bids, pile order...) are re-dealt at random, everything `seat` may see kept.
        `seat(view)` must then be byte-identical. Default: the game hides nothing."""
        return self.load(self.dump(state))

    # --- positions -------------------------------------------------------------------
    def dump_position(self, state: State) -> str:
        """The position notation of `state` (TOML, hidden parts included) that
        `load_position` reads back identically. Default: the game has none."""
        raise NotImplementedError(f"{self.id} has no position notation")

    def load_position(self, text: str) -> State:
        """The state of a position text; raises ValueError with a one-line message naming
        the field when the position does not fit the game."""
        raise NotImplementedError(f"{self.id} has no position notation")

    def position_warnings(self, state: State) -> list[str]:
        """Invariants a position breaks that a GM may still confirm (`--force`): piece
        counts, card conservation. One line each; empty when all hold."""
        return []

    def seats_of(self, state: State) -> Sequence[str]:
        """The seats a state is for (a position must match its game's). Default: the
        state's `seats` list, if it has one."""
        return tuple(state.get("seats", ())) if isinstance(state, dict) else ()

    def edit_problems(self, before: State, after: State) -> list[str]:
        """Why the open step's position `before` may not be replaced by `after` (a GM
        ruling) although `after` is a valid position: a change the game would undo.
        One line each, naming the field. Default: none."""
        return []

    # --- JSON ------------------------------------------------------------------------
    def dump(self, state: State) -> Any:
        """JSON-able form of the state. Default: the state is already plain JSON data."""
        return state

    def load(self, data: Any) -> State:
        return copy.deepcopy(data)

    # --- presentation (pure string building, used by reports) -------------------------
    def round_number(self, state: State) -> int:
        """The game round the state is in (for steps-per-round measurements)."""
        return 0

    def phase_label(self, state: State) -> str:
        """A short human label of where the game stands, e.g. 'Year 1303, movement'."""
        return ""

    def board_text(self, view: Mapping[str, Any]) -> str:
        """A readable text rendering of the board as the view shows it."""
        return ""

    def board_svg(self, view: Mapping[str, Any], t: Translator | None = None) -> str | None:
        """An SVG picture of the board as the view shows it, or None; its words (legends,
        titles, the names that come as messages in the view) in the language of `t`
        (`pbem.core.kit.picture.words`), English without one. A picture is plain text, not
        a message: it is drawn once per report, for its reader."""
        return None
