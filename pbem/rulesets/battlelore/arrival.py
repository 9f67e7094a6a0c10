"""Lines judged on arrival, against the position as it stands (DESIGN section 3).

A line that is definitely illegal is refused with the reason and the legal choices (a
Goblin Rush by a unit that cannot rush, a DRILL off the Training Camp, a landmark on a hex
where it may not go, a second PLAY or REPLENISH line). A line that may still become legal
or illegal before it is reached (the player's own earlier moves, tokens gained in the turn,
the opponent's reactions) is accepted with a note saying what would happen if the board
stays as it is. `check` judges one line, `judge_file` what only the whole file shows.

Not here: the same rules when the line is reached (rules/); the syntax (orders.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pbem.core.i18n import Msg, _, join
from pbem.core.kit import Note, Order, Verdict
from pbem.core.orders import OrderLine, Parsed

from .board import distance, hex_name
from .data import lore_card, term
from .effects import target_kind_problem, target_problem
from .orders import (
    Battle,
    Council,
    Creature,
    Discard,
    Drill,
    Free,
    Keep,
    Lore,
    Move,
    Passage,
    Place,
    Play,
    React,
    Replenish,
    Rush,
)
from .rules.battle import targets
from .rules.council import council_problem, keep_problem, legal_places, level_of, place_problem
from .rules.movement import allowance, path_via, reachable
from .state import State, landmark_at, lore_of, occupant, race, terrain_at, uclass, uhex


def _if_stays(why: Msg) -> Note:
    """A note on a line that may still become legal before it is reached."""
    return Note(_("if the board stays as it is, {why}", why=why))


def _council(s: State, seat: str, o: Council) -> Verdict:
    return council_problem(s, seat, o.levels)


def _keep(s: State, seat: str, o: Keep) -> Verdict:
    if s["phase"] == "keep":
        return keep_problem(s, seat, o.cards)
    return _lore_only(s, seat, o)


def _lore_only(s: State, seat: str, o: Order) -> Verdict:
    if s["lore"] is None:
        return _("this is a medieval adventure: there are no Lore cards to replenish or keep")
    return None


def _place(s: State, seat: str, o: Place) -> Verdict:
    """p.33-34, p.41: only a landmark the seat places, on a hex where it may go; the legal
    hexes are listed."""
    mine = [p["kind"] for p in s["place_queue"] if p["seat"] == seat]
    if o.landmark not in mine:
        return _("you place no {landmark}; you place: {landmarks}",
                 landmark=term(o.landmark.replace("_", " ")),
                 landmarks=join([term(k.replace("_", " ")) for k in mine]) if mine
                 else _("nothing"))
    problems = [place_problem(s, seat, o.landmark, h) for h in o.hexes]
    legal = legal_places(s, seat, o.landmark)
    shown = " ".join(hex_name(h) for h in sorted(legal, key=lambda h: (abs(h[0] - 13), h))[:12])
    bad = [p for p in problems if p]
    if all(problems):
        return _("{problems}; legal hexes: {hexes}", problems=join(bad, "; "),
                 hexes=shown + (" ..." if len(legal) > 12 else ""))
    return Note(_("{problems}: the next hex of the line is used",
                  problems=join(bad, "; "))) if bad else None


def _rush(s: State, seat: str, o: Rush) -> Verdict:
    """p.21: a goblinoid foot unit rushes up to 2 hexes to a hex next to its target."""
    u = s["units"][o.unit]
    if race(u) != "goblinoid" or uclass(u) != "foot":
        return _("only goblinoid foot units can Goblin Rush (p.21); {unit} is not one",
                 unit=o.unit)
    tgt = s["units"][o.target]
    if distance(uhex(tgt), o.dest) != 1:
        return _("{hex} is not next to {unit} (at {at})", hex=hex_name(o.dest), unit=o.target,
                 at=hex_name(uhex(tgt)))
    if distance(uhex(u), o.dest) > 2:
        return _("{hex} is {n} hexes from {unit}; a Goblin Rush moves at most 2",
                 hex=hex_name(o.dest), n=distance(uhex(u), o.dest), unit=o.unit)
    if o.dest not in reachable(s, u, 2):
        return _if_stays(_("{hex} cannot be reached on a free path", hex=hex_name(o.dest)))
    return None


def _move(s: State, seat: str, o: Move) -> Verdict:
    u = s["units"][o.unit]
    if u["webbed"]:
        return _if_stays(_("{unit} is webbed and cannot move unless FREE frees it",
                           unit=o.unit))
    mx = allowance(s, u)[0]
    if race(u) == "goblinoid" and uclass(u) == "foot" and u["colour"] == "red":
        mx = 1
    reach = reachable(s, u, mx)
    for d in o.dests:
        if d == uhex(u) or (path_via(s, u, d, o.via, mx) if o.via else reach.get(d)):
            return None
    return _if_stays(_("{hexes} cannot be reached (moves {n}; other moves of yours before it, "
                       "or a Lore card, may change that)",
                       hexes=" / ".join(hex_name(d) for d in o.dests), n=mx))


def _drill(s: State, seat: str, o: Drill) -> Verdict:
    """p.40: a unit already in its own Training Camp at the start of the turn."""
    u = s["units"][o.unit]
    lm = landmark_at(s, uhex(u))
    if lm is None or lm["kind"] != "training_camp" or lm["owner"] != seat:
        return _("{unit} is not on a Training Camp of yours (p.40)", unit=o.unit)
    if u["colour"] == "red":
        return _("{unit} has a red banner already: there is no higher colour", unit=o.unit)
    return None


def _free(s: State, seat: str, o: Free) -> Verdict:
    """p.25: only a webbed unit, for 1 Lore token."""
    if not s["units"][o.unit]["webbed"]:
        return _("{unit} is not webbed", unit=o.unit)
    if s["lore"] is not None and s["lore"]["goblet"][seat] < 1:
        return _if_stays(_("you have no Lore token to pay for it"))
    return None


def _passage(s: State, seat: str, o: Passage) -> Verdict:
    """p.39-40: from your own Rogue's Hideout, to your secret exit (an empty forest or
    hill, chosen the first time)."""
    u = s["units"][o.unit]
    lm = landmark_at(s, uhex(u))
    if lm is None or lm["kind"] != "hideout" or lm["owner"] != seat:
        return _("{unit} is not on a Rogue's Hideout of yours (p.39)", unit=o.unit)
    ex = s["secret_exit"].get(seat)
    if ex is not None and ex != hex_name(o.dest):
        return _("your secret exit is at {hex}", hex=ex)
    if ex is None and (terrain_at(s, o.dest) not in ("forest", "hill")
                       or landmark_at(s, o.dest) is not None):
        return _("{hex} is not a forest or hill without a landmark", hex=hex_name(o.dest))
    if occupant(s, o.dest) is not None:
        return _if_stays(_("{hex} is not empty", hex=hex_name(o.dest)))
    return None


def _lore(s: State, seat: str, o: Lore) -> Verdict:
    """p.29-30: a LORE line plays a card of your own turn's windows; reactions are REACT
    standing orders. Cost and target may still change in the turn: notes."""
    card = lore_card(o.card)
    if card["phase"] not in ("in_lieu", "command", "movement", "battle") and o.card != "deja_vu":
        return _("{card} is played in the opponent's windows ({phase}), not by a LORE line; "
                 "write REACT {id} ON <unit> or ANY", card=card["name"], phase=card["phase"],
                 id=o.card)
    if card["phase"] != "battle" or o.unit:
        why = target_kind_problem(s, seat, card, o.unit, o.hex)
        if why:
            return _("{card}: {why}", card=card["name"], why=why)
    cost = level_of(s, seat, o.card)[1]
    have = lore_of(s)["goblet"][seat]
    if cost > have:
        return _if_stays(_("{card} costs {n} Lore tokens and you have {have}",
                           card=card["name"], n=cost, have=have))
    # units are ordered in the turn, so a card for an ordered unit is judged when played
    if card["phase"] != "battle" and card["effect"] != "extra_move" and o.card != "deja_vu":
        why = target_problem(s, seat, card, o.unit, o.hex, {})
        if why:
            return _if_stays(_("{card} cannot be played: {why}", card=card["name"], why=why))
    return None


def _creature(s: State, seat: str, o: Creature) -> Verdict:
    if o.unit and uclass(s["units"][o.unit]) != "creature":
        return _("{unit} is not a creature; CREATURE orders are for creatures (p.24-26)",
                 unit=o.unit)
    return None


def _react(s: State, seat: str, o: React) -> Verdict:
    if o.card in ("ask", "none"):
        return None
    if o.card not in lore_of(s)["hands"].get(seat, []):
        return Note(_("you do not hold {card} now; the order waits until you do",
                      card=lore_card(o.card)["name"]))
    return None


CHECKS: dict[type[Order], Callable[[State, str, Any], Verdict]] = {
    Council: _council, Keep: _keep, Discard: _lore_only, Replenish: _lore_only, Place: _place,
    Rush: _rush, Move: _move, Drill: _drill, Free: _free, Passage: _passage, Lore: _lore,
    Creature: _creature, React: _react}


def check(s: State, seat: str, order: Order) -> Verdict:
    """One line of the step, judged against the position as it stands."""
    judge = CHECKS.get(type(order))
    return judge(s, seat, order) if judge is not None else None


# --- what only the whole file shows ---------------------------------------------------------

ONCE = {Play: _("one Command card per turn (p.7)"),
        Replenish: _("one replenish per turn (p.32)"),
        Council: _("one War Council per seat (p.35)")}


def judge_file(s: State, seat: str, parsed: Parsed) -> Parsed:
    """A second PLAY, REPLENISH, COUNCIL (or KEEP in the starting-card step, or PLACE of the
    same landmark) is refused; a MOVE after a BATTLE gets a note that it comes first; a
    BATTLE whose unit does not move and has no legal target now gets a note."""
    seen: dict[Any, int] = {}
    first_battle = None
    moving = {ln.order.unit for ln in parsed.lines
              if ln.ok and isinstance(ln.order, Move | Rush | Passage)}
    out = []
    for ln in parsed.lines:
        o = ln.order
        if not ln.ok:
            out.append(ln)
            continue
        key, why = _once(s, o)
        if key is not None and key in seen:
            out.append(OrderLine(ln.lineno, ln.text, None,
                                 _("{verb} is already given on line {line}: {why}",
                                   verb=str(o).split()[0], line=seen[key], why=why)))
            continue
        if key is not None:
            seen[key] = ln.lineno
        note = None
        if isinstance(o, Battle):
            first_battle = first_battle or ln.lineno
            if o.unit not in moving:
                note = _battle_note(s, o)
        elif isinstance(o, Move | Rush | Passage) and first_battle is not None:
            note = _("moves are made before battles (p.9-10): this move comes before the "
                     "BATTLE on line {line}", line=first_battle)
        if note:
            note = join([ln.note, note], "; ") if ln.note else note
            ln = OrderLine(ln.lineno, ln.text, o, None, note)
        out.append(ln)
    return Parsed.of(out)


def _once(s: State, o: Order) -> tuple[Any, Msg | str]:
    if isinstance(o, Place):
        return ("place", o.landmark), _("one place for each landmark (p.33-34)")
    if isinstance(o, Keep) and s["phase"] == "keep":
        return Keep, _("one choice of starting Lore cards (p.35)")
    for cls, why in ONCE.items():
        if isinstance(o, cls):
            return cls, why
    return None, ""


def _battle_note(s: State, o: Battle) -> Msg | None:
    u = s["units"][o.unit]
    legal = [t["id"] for t in targets(s, u)]
    if "ANY" in o.targets and legal:
        return None
    if any(t in legal for t in o.targets):
        return None
    now = ", ".join(legal) if legal else _("none")
    return _("if the board stays as it is, {why}", why=_(
        "no target named is a legal target of {unit} (legal now: {units})", unit=o.unit,
        units=now))
