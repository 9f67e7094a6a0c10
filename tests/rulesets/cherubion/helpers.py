"""Builders for the Cherubion tests: a turn-phase state with chosen teams and Bases, pieces
placed, resources, gates, scripted dice, a resolution context, and one turn resolved."""

from __future__ import annotations

from typing import Any

from pbem.core.dice import ScriptedDice
from pbem.core.events import Event
from pbem.core.kit import Context
from pbem.core.orders import OrderLine
from pbem.rulesets.cherubion import RULESET
from pbem.rulesets.cherubion.data import RESOURCE_TABLE
from pbem.rulesets.cherubion.orders import GRAMMAR, BaseChoice, Team
from pbem.rulesets.cherubion.rules.queries import new_id
from pbem.rulesets.cherubion.rules.setup import apply_draft, new_state

OPTIONS = {"decisions": "auto", "round_limit": 0, "summon_move": False, "ask_blind": False,
           "diplomacy": False}


def build(teams: dict[str, str], sides: dict[str, int], *, variant: str = "standard",
          options: dict[str, Any] | None = None, n: int = 6) -> dict[str, Any]:
    """A state in the turn phase: every piece in its Base, empty hands and decks, no
    resources, the first seat active with 0 MÉ. Seats are the keys of `teams`, in turn
    order."""
    seats = list(teams)
    state: dict[str, Any] = new_state(  # type: ignore[assignment]
        {"seats": seats, "variant": variant, "options": {**OPTIONS, **(options or {})}},
        n, [6], [1, 2, 3, 4, 5])
    state["order"] = seats
    apply_draft(Context(state, ScriptedDice([])),
                {s: [OrderLine(1, "", Team((teams[s],))), OrderLine(2, "", BaseChoice((sides[s],)))]
                 for s in seats})
    for pl in state["players"].values():
        pl["deck"] = []
        pl["deck_size"] = 0
        pl["placed"] = True
        pl["turns"] = 1
    state["phase"] = "turn"
    state["round"] = 1
    state["active"] = seats[0]
    return state


def two(a: str = "melan", b: str = "choler", sa: int = 4, sb: int = 1,
        **kw: Any) -> dict[str, Any]:
    """alpha (Melan, side 4) against beta (Choler, side 1), unless told otherwise."""
    return build({"alpha": a, "beta": b}, {"alpha": sa, "beta": sb}, **kw)


def place(state: dict[str, Any], **where: str) -> None:
    for pid, field in where.items():
        state["pieces"][pid]["loc"] = field


def resource(state: dict[str, Any], seat: str, field: str, size: str = "large",
             active: bool = True) -> str:
    rid = new_id(state, "N")  # type: ignore[arg-type]
    state["resources"][rid] = {"id": rid, "owner": seat, "field": field, "size": size,
                               "ep": RESOURCE_TABLE[size]["ep"], "active": active}
    return rid


def gate(state: dict[str, Any], field: str, owner: str = "alpha") -> str:
    mid = new_id(state, "T")  # type: ignore[arg-type]
    state["markers"][mid] = {"id": mid, "kind": "T", "field": field, "owner": owner,
                             "card": "n15", "hidden": False}
    return mid


def captive(captor: str, carrier: str = "", *, dead: bool = True, clock: int = 0,
            carried: bool = False, turn_no: int | None = None) -> dict[str, Any]:
    """A captive record (a body by default) held by `captor`."""
    return {"carrier": carrier, "captor": captor, "dead": dead, "clock": clock,
            "carried": carried, "turn_no": turn_no, "healed": False, "unconvertible": False}


def set_turn(state: dict[str, Any], seat: str, *, me: int = 0,
             energy: int | None = None) -> None:
    state["active"] = seat
    state["turn"] = {}
    state["pause"] = None
    state["players"][seat]["me"] = me
    if energy is not None:
        state["players"][seat]["energy"] = energy


def ctx(state: dict[str, Any], dice: list[int] | None = None) -> Context:
    """A resolution context on `state` with scripted dice (rule functions called alone)."""
    return Context(state, ScriptedDice(dice or []))


def play_turn(state: dict[str, Any], seat: str, text: str, dice: list[int]) -> tuple[
        dict[str, Any], list[Event], ScriptedDice]:
    """Resolve `seat`'s turn script with scripted dice (include the next seat's MÉ dice)."""
    parsed = RULESET.parse(state, seat, text)
    assert parsed.ok, parsed.echo()
    d = ScriptedDice(dice)
    state, events = RULESET.resolve(state, {seat: parsed}, d)
    return state, events, d


def refusal(state: dict[str, Any], seat: str, text: str) -> str:
    """The arrival refusals of `seat`'s file (one per refused line), "" when all is taken."""
    return "\n".join(ln.error for ln in RULESET.parse(state, seat, text).lines if ln.error)


def answer(state: dict[str, Any], texts: dict[str, str],
           dice: list[int]) -> tuple[dict[str, Any], list[Event]]:
    """Resolve an answer step (or any step) with these files and scripted dice."""
    parsed = {seat: RULESET.parse(state, seat, t) for seat, t in texts.items()}
    return RULESET.resolve(state, parsed, ScriptedDice(dice))


def texts(events: list[Event]) -> str:
    return "\n".join(e.text for e in events if e.kind != "outcome")


def parse_line(text: str, n: int = 6, seats: tuple[str, ...] = ()) -> Any:
    """One order line read on a board of side `n` with these seats (no game state)."""
    return GRAMMAR.parse_line({"board_size": n, "config": {"seats": list(seats)}}, None, text)


def asked(state: dict[str, Any]) -> dict[str, Any] | None:
    """The open question, if any: its seat, event (the decision kind), text and the
    offered answers without PASS."""
    pause = state["pause"]
    if not pause:
        return None
    q = pause["questions"][0]
    return {"seat": q["seat"], "event": q["kind"], "text": q["text"],
            "options": [o for o in q["options"] if o != "PASS"]}
