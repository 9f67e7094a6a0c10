"""Judging an order line on arrival, against the position as it stands (DESIGN §3).

A line that can never be carried out is refused with the reason and the legal choices: a
tile that is neither held nor on display (the display only shrinks during a turn), a sea
voyage from an inland region, a steel-cycle movement between regions without a border, a
bid above the reserve, an answer that does not fit the open question. A line that only
fails on the board as it is now (earlier lines of the same turn, a serpent, a retreat or
an auction may change it) is accepted with a note saying what would happen.
Not here: which lines a step accepts at all (the kit, from the phase table).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.core.i18n import Msg, _
from pbem.core.kit import Note, Question, Verdict

from . import board, data, phases
from .data import KNIGHT, STEEL, either, listed, term
from .orders import (
    BidAnswer,
    Decline,
    If,
    Place,
    Play,
    PlayMovement,
    PlaySea,
    Rebel,
    RetreatAnswer,
    Swap,
    Take,
)
from .rules import actions, standing
from .state import State


def judge(state: State, seat: str, order: Any, questions: Sequence[Question]) -> Verdict:
    """A refusal reason, a `Note`, or None (fine)."""
    asked = next((q for q in questions if q.seat == seat), None)
    if isinstance(order, If):
        return judge(state, seat, order.order, questions)
    if isinstance(order, Take):
        return _take(state, seat, order)
    if isinstance(order, Place):
        why = actions.check_place(state, seat, order)
        return _if_the_board_stays(why)
    if isinstance(order, Play):
        return _play(state, seat, order)
    if asked is None:
        return None
    if isinstance(order, BidAnswer):
        have = state["reserve"][seat][board.active_type(state)]
        if order.n > have:
            return _("you have only {have} active units in reserve; bid 0-{have}", have=have)
        return _effect_kind(asked, order.ifwin)
    if isinstance(order, RetreatAnswer):
        return _retreat(state, asked, order)
    if isinstance(order, Rebel | Swap | Decline):
        return _effect_kind(asked, order) or _effect_legal(state, asked, seat, order)
    return None


def _if_the_board_stays(why: Msg | None) -> Verdict:
    return None if why is None else Note(_("if the board stays as it is, this line will be "
                                           "refused: {why}", why=why))


def _take(state: State, seat: str, o: Take) -> Verdict:
    if data.first_of_type(state["display"], o.tile) is None:
        return _("no {tile} tile is on display; on display: {tiles}",
                 tile=data.tile_name(o.tile), tiles=phases.on_display(state))
    notes: list[Msg] = []
    act = board.active_type(state)
    have = state["reserve"][seat][act]
    if o.bid is not None and o.bid > have:
        notes.append(_("you have {have} knights in reserve now; a higher bid is cut to your "
                       "reserve when the auction is held", have=have) if act == KNIGHT else
                     _("you have {have} mages in reserve now; a higher bid is cut to your "
                       "reserve when the auction is held", have=have))
    if o.ifwin is not None:
        why = standing.check_effect(state, seat, o.tile, o.ifwin)
        if why:
            notes.append(_("if the board stays as it is, IFWIN {effect} cannot be used ({why}) "
                           "and the default effect applies", effect=str(o.ifwin), why=why))
    return Note(listed(notes, "; ")) if notes else None


def _play(state: State, seat: str, o: Play) -> Verdict:
    tile = o.tile_type
    held = data.first_of_type(state["held"][seat], tile) is not None
    if not held and data.first_of_type(state["display"], tile) is None:
        mine = sorted({data.ttype(t) for t in state["held"][seat]})
        return _("you hold no {tile} tile and none is on display to take; you hold: {tiles}",
                 tile=data.tile_name(tile),
                 tiles=listed([term(t) for t in mine]) if mine else _("no tiles"))
    if isinstance(o, PlaySea) and not state["map"][o.src]["coastal"]:
        coasts = [r for r in board.region_ids(state) if state["map"][r]["coastal"]
                  and state["regions"][r]["owner"] == seat]
        return _("{region} is not coastal; a sea voyage starts from a coastal region of yours: "
                 "{coasts}", region=board.region_name(state, o.src),
                 coasts=listed(coasts) if coasts else _("you have none now"))
    if (isinstance(o, PlayMovement) and state["cycle_type"] == STEEL
            and o.b not in state["map"][o.a]["borders"]):
        return _("{a} and {b} share no border, so they are not adjacent in this steel cycle; "
                 "{rid} borders {borders}", a=board.region_name(state, o.a),
                 b=board.region_name(state, o.b), rid=o.a,
                 borders=listed(list(state["map"][o.a]["borders"])))
    if not held:
        return Note(_("you hold no {tile} tile now: take it earlier in this turn, or this line "
                      "will be refused", tile=data.tile_name(tile)))
    return _if_the_board_stays(actions.check_play(state, seat, o))


def _retreat(state: State, q: Question, o: RetreatAnswer) -> Verdict:
    """Rulebook "Megszerzés": one unit to an adjacent empty or own region."""
    pending = q.data["pending"]
    target, options = pending["region"], pending["options"]
    reg = state["regions"][target]
    name = board.region_name(state, target)
    if o.unit in ("mage", "knight") and reg[o.unit] == 0:  # type: ignore[literal-required]
        there = [u for u in ("mage", "knight") if reg[u] > 0]
        if there:
            return _("there is no {unit} in {region}; answer RETREAT {other} TO {to} or RETREAT "
                     "none", unit=term(o.unit), region=name, other=there[0], to=options[0])
        return _("there is no {unit} in {region}; answer RETREAT none", unit=term(o.unit),
                 region=name)
    if o.to and not any(r in options for r in o.to):
        return _("{given}: not a possible destination; the unit may go to {options} (adjacent, "
                 "empty or yours), e.g. RETREAT {unit} TO {first}", given=listed(list(o.to)),
                 options=listed(list(options)), unit=o.unit, first=options[0])
    if o.unit in ("active", "passive"):
        unit = board.active_type(state) if o.unit == "active" else board.passive_type(state)
        if reg[unit] == 0:
            args = {"region": name, "unit": term(unit)}
            return Note(_("there is no active unit ({unit}) in {region}: the other kind "
                          "retreats", **args) if o.unit == "active" else
                        _("there is no passive unit ({unit}) in {region}: the other kind "
                          "retreats", **args))
    return None


def _effect_kind(q: Question, effect: Any) -> Msg | None:
    """An effect (or IFWIN) must fit the auctioned tile of the seat's open question."""
    if effect is None:
        return None
    kind = q.data["pending"]["type"]
    if kind == "vp":
        return _("the victory point tile has no choice to make")
    if isinstance(effect, Rebel) and kind != "rebellion":
        return _("REBEL is the rebellion's effect; this auction is a marker swap")
    if isinstance(effect, Swap) and kind != "swap":
        return _("SWAP is the marker swap's effect; this auction is a rebellion")
    return None


def _effect_legal(state: State, q: Question, seat: str, effect: Any) -> Msg | None:
    """An effect answer must be legal in the position where the question stands."""
    why = standing.check_effect(state, seat, q.data["pending"]["type"], effect)
    if why is None:
        return None
    shown = [o for o in q.options if o != "DECLINE"][:6]
    if shown:
        return _("{why}; answer DECLINE or e.g. {options}", why=why,
                 options=either(shown))
    return _("{why}; answer DECLINE", why=why)
