"""A player's turn (rulebook p.6-7, chapters 1-5; spec §4): the five phases run from the
active player's script. Command (play a card), Order, Move, Battle, End of turn (discard,
draw; Lore replenish). Every line of the script ends with one outcome: carried out, not
needed, changed or refused (why, and what was done instead).

Not here: battle details (battle.py), the step envelope and decisions (phases.py, the kit).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.core.i18n import Msg, _, join
from pbem.core.kit import Context
from pbem.core.orders import OrderLine

from ..board import Hex, hex_name, neighbours
from ..data import card_name, command_card, term
from ..orders import Battle, Drill, Free, Move, OrderUnits, Passage, Play, Rush
from ..state import State, Unit, new_turn, other, race, uclass, uhex, unit_sort
from .battle import battle, before_roll, dice_count, targets
from .cards import (
    auto_order,
    can_order,
    card_in_play,
    default_card,
    draw_command,
    effective,
)
from .common import GameOver, short, state_of
from .creatures import free_web, pay_creature_order
from .landmarks import drill, end_of_turn, entered, passage
from .lore import OwnLore, after_battle, choose_reaction, end_of_turn_lore
from .movement import allowance, path_via, reachable


@dataclass
class Turn:
    """The active player's script while the turn runs."""

    ctx: Context
    lines: Sequence[OrderLine]
    lore: OwnLore | None = None
    why_not: dict[str, Msg | str] = field(default_factory=dict)  # unit -> why it is not ordered
    current: OrderLine | None = None  # the line being carried out (a battle may end the game)

    @property
    def seat(self) -> str:
        return state_of(self.ctx)["active"]

    def of(self, *types: type[Any]) -> list[OrderLine]:
        return [ln for ln in self.lines if isinstance(ln.order, types)]

    def done(self, ln: OrderLine, why: Msg | str = "") -> None:
        self.ctx.log.done(self.seat, ln, why)

    def refused(self, ln: OrderLine, why: Msg) -> None:
        self.ctx.log.refused(self.seat, ln, why)

    def game_over(self) -> None:
        """The game ended in this turn (p.20): the line being carried out did it; the
        lines after it were not needed."""
        log = self.ctx.log
        current = self.current or (self.lore.current if self.lore else None)
        if current is not None and not log.has_outcome(self.seat, current.lineno):
            self.done(current, _("the game ended with it (p.20)"))
        for ln in self.lines:
            if not log.has_outcome(self.seat, ln.lineno):
                log.not_needed(self.seat, ln, _("the game ended before this line was reached"))

    def not_ordered(self, unit: str) -> Msg:
        return _("{unit} is not ordered: {why}", unit=unit, why=self.why_not[unit]) \
            if unit in self.why_not else _("{unit} is not ordered", unit=unit)


def run_turn(ctx: Context, lines: Sequence[OrderLine]) -> Turn:
    s = state_of(ctx)
    a = s["active"]
    s["this_turn"] = new_turn(s["units"])
    t = Turn(ctx, lines)
    s["this_turn"]["wants_battle"] = sorted({ln.order.unit for ln in t.of(Battle, Rush)})
    ctx.log.public("turn", _("Turn {turn}: {seat} ({side}) to play.", turn=s["turn"], seat=a,
                             side=term(s["sides"][a])), seat=a)
    if s["mode"] == "lore":
        t.lore = OwnLore(ctx, lines)
    try:
        cid = command_and_orders(t)
        move_phase(t)
        battle_phase(t)
    except GameOver:
        t.game_over()
        raise
    end_turn(t, cid)
    return t


def command_and_orders(t: Turn) -> str | None:
    """p.7-8: the Command card (or a Lore card in lieu of it, p.29), its reactions, and the
    units it orders. Returns the Command card played."""
    ctx = t.ctx
    s = state_of(ctx)
    a = t.seat
    tf = s["this_turn"]
    if t.lore and t.lore.window(("in_lieu",)):
        # p.29: no Command card, so no reaction to one and no unit ordered
        for ln in t.of(Play):
            ctx.log.not_needed(a, ln, _("a Lore card was played in lieu of a Command card "
                                        "(p.29)"))
        order_phase(t, None, 0, _("no Command card was played: a Lore card was played in "
                                  "lieu of it (p.29)"))
        return None
    cid = command_card_played(t)
    command = len(s["hands"][a])  # p.7: Command counts the card being played
    s["hands"][a].remove(cid)
    c = effective(s, a, cid)
    tf["card"] = cid
    tf["command"] = command
    if c is None:
        ctx.log.public("play", _("{seat} plays {card}, but there is no card of the "
                                 "opponent's to copy: nothing is ordered.",
                                 seat=a.capitalize(), card=card_name(cid)), card=cid)
        order_phase(t, None, command, _("{card} had no card of the opponent's to copy: "
                                        "nothing is ordered (p.47)", card=card_name(cid)))
        return cid
    tf["acts_as"] = c["id"]
    if command_card(cid)["kind"] == "copy":
        text = _("{seat} plays {card} as a copy of {copy} (Command {n}).", seat=a.capitalize(),
                 card=card_name(cid), copy=c["name"], n=command)
    else:
        text = _("{seat} plays {card} (Command {n}).", seat=a.capitalize(),
                 card=card_name(cid), n=command)
    ctx.log.public("play", text, card=cid)
    if t.lore:
        t.lore.window(("command",))
        choose_reaction(ctx, other(a), "reaction_command", "",
                        _("{seat} played a Command card", seat=a))
    order_phase(t, c, command)
    return cid


def command_card_played(t: Turn) -> str:
    """The first PLAY line's card (arrival checks that it is in the hand and that there is
    one PLAY line); no PLAY line: the card that orders the most units (p.7)."""
    s = state_of(t.ctx)
    a = t.seat
    cid = None
    for ln in t.of(Play):
        if cid is None and ln.order.card in s["hands"][a]:
            cid = ln.order.card
            t.done(ln, _("{card} was played", card=card_name(cid)))
        elif cid is None:
            t.refused(ln, _("{card} is not in your hand", card=ln.order.card))
        else:
            t.refused(ln, _("one Command card per turn (p.7): {card} was played",
                            card=card_name(cid)))
    if cid is None:
        cid = default_card(s, a)
        t.ctx.log.public("default", _("{seat} sent no playable PLAY line: {card} is played by "
                                      "default.", seat=a.capitalize(), card=card_name(cid)))
    return cid


def wanted_units(t: Turn) -> list[str]:
    """p.8: the units the script orders: ORDER lines, then units named by MOVE, RUSH,
    BATTLE, DRILL, FREE, PASSAGE lines, in script order."""
    wanted: list[str] = []
    for ln in t.lines:
        o = ln.order
        ids: tuple[str, ...] = ()
        if isinstance(o, OrderUnits):
            ids = o.units
        elif isinstance(o, Move | Rush | Battle | Drill | Free | Passage):
            ids = (o.unit,)
        for i in ids:
            if i not in wanted:
                wanted.append(i)
    return wanted


def order_phase(t: Turn, c: dict[str, Any] | None, command: int, nothing: Msg | str = "") -> None:
    """p.8: announce the ordered units (explicit ORDER lines, then units named by MOVE,
    RUSH, BATTLE, DRILL, FREE, PASSAGE lines, in script order); extra orders are lost."""
    ctx = t.ctx
    s = state_of(ctx)
    a = t.seat
    tf = s["this_turn"]
    wanted = wanted_units(t)
    chosen: list[str] = []
    if c is None:
        t.why_not = {w: nothing for w in wanted}
    elif c.get("count") == "all":
        chosen = auto_order(s, a, c)
        for w in wanted:
            if w not in chosen:
                t.why_not[w] = _("{card} orders only ranged units not next to an enemy",
                                 card=c["name"])
    else:
        paid: list[str] = []
        for w in wanted:
            if w in chosen:
                continue
            why = can_order(s, a, c, command, chosen, w, paid)
            if (why is not None and s["mode"] == "lore" and c["kind"] == "section"
                    and pay_creature_order(ctx, w, c, command, chosen, paid)):
                why = None
            if why is None:
                chosen.append(w)
            else:
                t.why_not[w] = why
    if tf["false_orders"] and chosen:
        lost = chosen.pop()
        t.why_not[lost] = _("it lost its order to the opponent's False Orders")
        ctx.log.public("false_orders", _("False Orders: {unit} loses its order.", unit=lost))
    tf["ordered"] = chosen
    if not chosen:
        ctx.log.public("orders", _("{seat} orders no unit.", seat=a.capitalize()))
    else:
        ctx.log.public("orders", _("{seat} orders {units}.", seat=a.capitalize(),
                                   units=join([short(s["units"][x]) for x in chosen])),
                       units=chosen)
    order_outcomes(t)
    if s["mode"] == "lore" and chosen:
        # p.29 'reaction to orders': the opponent's window in the order phase. The rulebook
        # says the base box has no order-phase card, and the shipped deck has none, so this
        # window asks nobody (ask_blind finds no card for it) until a card is added to the
        # data. 'During orders' (the active player's own order-phase card, whose units are
        # resolved before the Command card's) is not modelled: no card defines its units.
        choose_reaction(ctx, other(a), "reaction_orders", "",
                        _("{seat} ordered {units}", seat=a, units=" ".join(chosen)))


def order_outcomes(t: Turn) -> None:
    ordered = state_of(t.ctx)["this_turn"]["ordered"]
    for ln in t.of(OrderUnits):
        lost = [u for u in ln.order.units if u not in ordered]
        if not lost:
            t.done(ln)
        elif len(lost) < len(ln.order.units):
            t.ctx.log.changed(t.seat, ln, join([*(t.not_ordered(u) for u in lost),
                                                _("the others are ordered")], "; "))
        else:
            t.refused(ln, join([t.not_ordered(u) for u in lost], "; "))


def move_phase(t: Turn) -> None:
    """p.9-10: ordered units move one at a time, each at most once, all before battles."""
    ctx = t.ctx
    s = state_of(ctx)
    tf = s["this_turn"]
    if tf["ordered"] and t.lore:
        t.lore.window(("movement",))
    for ln in t.of(Drill, Free):
        o = ln.order
        u = s["units"].get(o.unit)
        if o.unit not in tf["ordered"] or u is None:
            t.refused(ln, t.not_ordered(o.unit) if u is not None else
                      _("the unit is no longer on the board"))
            continue
        why = drill(ctx, u) if isinstance(o, Drill) else free_web(ctx, u)
        if why:
            t.refused(ln, why)
        else:
            t.done(ln)
    first_battle = next((ln.lineno for ln in t.of(Battle)), None)
    for ln in t.of(Move, Rush, Passage):
        o = ln.order
        u = s["units"].get(o.unit)
        if (s["mode"] == "lore" and u is not None and o.unit in tf["ordered"]
                and o.unit not in tf["moved"]):
            # p.29 'reaction to movement': before this unit moves, never after (TC-50)
            choose_reaction(ctx, other(t.seat), "reaction_movement", o.unit,
                            _("{unit} is about to move", unit=o.unit))
        t.current = ln
        done, text = move_one(t, o)
        if not done:
            t.refused(ln, text)
            continue
        if first_battle is not None and first_battle < ln.lineno:
            text = _("{done}; moves are made before battles (p.9-10), so it moved before the "
                     "BATTLE on line {line}", done=text, line=first_battle)
        t.done(ln, text)


def move_problem(t: Turn, o: Move | Rush | Passage) -> Msg | None:
    """Why the unit of a MOVE, RUSH or PASSAGE line cannot move now at all."""
    s = state_of(t.ctx)
    tf = s["this_turn"]
    u = s["units"].get(o.unit)
    if u is None:
        return _("the unit is no longer on the board")
    if o.unit not in tf["ordered"]:
        return t.not_ordered(o.unit)
    if o.unit in tf["drilled"]:
        return _("the unit drilled this turn (p.40)")
    if o.unit in tf["moved"]:
        return _("the unit has already moved this turn")
    if u["webbed"]:
        return _("the unit is webbed (FREE it first)")
    if card_in_play(s).get("no_move"):
        return _("units ordered by this card may not move")
    return None


def move_one(t: Turn, o: Move | Rush | Passage) -> tuple[bool, Msg]:
    """Move the unit of a MOVE, RUSH or PASSAGE line: (carried out, what happened or why
    not)."""
    ctx = t.ctx
    s = state_of(ctx)
    why = move_problem(t, o)
    if why is not None:
        return False, why
    u = s["units"][o.unit]
    if isinstance(o, Passage):
        why = passage(ctx, u, o.dest)
        return (False, why) if why else (True, _("{unit} took the secret passage", unit=o.unit))
    if isinstance(o, Rush):
        why = rush(ctx, u, o)
        return (False, why) if why else (True, _("{unit} rushed to {hex}", unit=o.unit,
                                                   hex=hex_name(o.dest)))
    mx, bat = allowance(s, u)
    if race(u) == "goblinoid" and uclass(u) == "foot" and u["colour"] == "red":
        mx = 1  # red goblinoids move 2 only as a Goblin Rush
    reach = reachable(s, u, mx)
    missed: list[str] = []
    for d in o.dests:
        if d == uhex(u):
            s["this_turn"]["moved"].setdefault(u["id"], 0)
            ctx.log.public("stay", _("{unit} stays at {hex}.", unit=u["id"], hex=hex_name(d)))
            return True, _fallback(missed, _("{unit} stays at {hex}", unit=u["id"],
                                             hex=hex_name(d)))
        r = path_via(s, u, d, o.via, mx) if o.via else reach.get(d)
        if r is not None:
            do_move(ctx, u, d, r)
            if r["d"] > bat or r["no_battle"]:
                s["this_turn"]["no_battle"].append(u["id"])
            return True, _fallback(missed, _("{unit} moved to {hex}", unit=u["id"],
                                             hex=hex_name(d)))
        missed.append(hex_name(d))
    dests = " / ".join(hex_name(d) for d in o.dests)
    if o.via:
        return False, _("{hexes} cannot be reached via {via} (moves {n}, never through "
                        "occupied hexes; forests, fords and landmarks stop a unit)",
                        hexes=dests, via=" ".join(hex_name(h) for h in o.via), n=mx)
    return False, _("{hexes} cannot be reached (moves {n}, never through occupied hexes; "
                    "forests, fords and landmarks stop a unit)", hexes=dests, n=mx)


def _fallback(missed: list[str], text: Msg) -> Msg:
    return _("{hexes} could not be reached; {done}", hexes=" / ".join(missed), done=text) \
        if missed else text


def rush(ctx: Context, u: Unit, o: Rush) -> Msg | None:
    """p.21 Goblin Rush: goblinoid foot move 2 to attack the declared target."""
    s = state_of(ctx)
    if race(u) != "goblinoid" or uclass(u) != "foot":
        return _("only goblinoid foot units can Goblin Rush")
    tgt = s["units"].get(o.target)
    if tgt is None:
        return _("{unit} is no longer on the board", unit=o.target)
    reach = reachable(s, u, 2)
    if o.dest not in reach:
        return _("{hex} is not within 2 hexes on a free path", hex=hex_name(o.dest))
    if uhex(tgt) not in list(neighbours(o.dest)):
        return _("{hex} is not next to {unit}", hex=hex_name(o.dest), unit=o.target)
    r = reach[o.dest]
    do_move(ctx, u, o.dest, r)
    s["this_turn"]["rush"][u["id"]] = o.target
    if r["no_battle"]:
        s["this_turn"]["no_battle"].append(u["id"])
    return None


def do_move(ctx: Context, u: Unit, dest: Hex, r: dict[str, Any]) -> None:
    s = state_of(ctx)
    path = " ".join(hex_name(h) for h in r["path"])
    u["hex"] = [dest[0], dest[1]]
    s["this_turn"]["moved"][u["id"]] = r["d"]
    ctx.log.public("move", _("{unit} moves to {hex} (via {path}).", unit=u["id"],
                             hex=hex_name(dest), path=path), unit=u["id"], dest=hex_name(dest))
    entered(ctx, u, dest)


def pick_target(s: State, u: Unit, want: tuple[str, ...], legal: list[Unit]) -> Unit | None:
    ids = {t["id"]: t for t in legal if dice_count(s, u, t, True) > 0}
    for w in want:
        if w == "ANY" and ids:
            # weakest first, then the one most exposed to our dice
            return min(ids.values(), key=lambda t: (t["figures"], -dice_count(s, u, t, True),
                                                    unit_sort(t)))
        if w in ids:
            return ids[w]
    return None


def battle_problem(s: State, b: Battle, per_unit: int) -> Msg | None:
    """Why the unit of a BATTLE line cannot battle now at all."""
    tf = s["this_turn"]
    if b.unit not in s["units"]:
        return _("the unit is no longer on the board")
    if b.unit not in tf["ordered"]:
        return _("{unit} is not ordered", unit=b.unit)
    if tf["battled"].get(b.unit, 0) >= per_unit:
        return _("{unit} has already battled this turn", unit=b.unit)
    if b.unit in tf["no_battle"]:
        return _("{unit} may not battle after its move this turn", unit=b.unit)
    return None


def battle_phase(t: Turn) -> None:
    """p.10-11: ordered units battle one at a time; each battle (with its follow-on
    actions) is resolved before the next. A rushing goblin must attack its target."""
    ctx = t.ctx
    s = state_of(ctx)
    tf = s["this_turn"]
    per_unit = int(card_in_play(s).get("battles", 1))
    lines: list[tuple[OrderLine | None, Battle]] = [(ln, ln.order) for ln in t.of(Battle)]
    for uid, rushed in list(tf["rush"].items()):
        if not any(b.unit == uid for _ln, b in lines):
            lines.append((None, Battle(uid, (rushed,))))
    for ln, b in lines:
        t.current = ln
        why = battle_problem(s, b, per_unit)
        if why is not None and b.unit not in tf["ordered"] and b.unit in s["units"]:
            why = t.not_ordered(b.unit)
        if why is not None:
            if ln is not None:
                t.refused(ln, why)
            continue
        u = s["units"][b.unit]
        legal = targets(s, u, ranged_only=per_unit > 1)
        want = (tf["rush"][b.unit],) if b.unit in tf["rush"] else b.targets
        tgt = pick_target(s, u, want, legal)
        if tgt is None:
            if ln is not None:
                t.refused(ln, _("it is webbed") if u["webbed"] else _no_target(b, legal))
            continue
        tf["battled"][b.unit] = tf["battled"].get(b.unit, 0) + 1
        if t.lore:
            t.lore.window(("battle",), unit=u["id"], info={"target": tgt["id"]})
        if s["mode"] == "lore" and not before_roll(
                ctx, u, tgt, _("{unit} attacks your {target}", unit=u["id"], target=tgt["id"])):
            if ln is not None:
                t.ctx.log.changed(t.seat, ln, _("the attack on {target} did not take place (a "
                                                "first strike repelled it, or a unit is gone)",
                                                target=tgt["id"]))
            continue
        notes = battle(ctx, u, tgt, b)
        if ln is not None:
            _battle_outcome(t, ln, b, tgt["id"], notes)
        if s["mode"] == "lore":
            after_battle(ctx)


def _no_target(b: Battle, legal: list[Unit]) -> Msg:
    now = ", ".join(x["id"] for x in legal)
    if now:
        return _("no named target is a legal target now (legal targets: {units})", units=now)
    return _("no named target is a legal target now (no enemy in range and sight)")


def _battle_outcome(t: Turn, ln: OrderLine, b: Battle, target: str, notes: list[Msg]) -> None:
    tf = state_of(t.ctx)["this_turn"]
    text = _("{unit} battles {target}", unit=b.unit, target=target)
    if b.unit in tf["rush"] and target not in b.targets:
        notes = [_("a Goblin Rush must battle its target (p.21)"), *notes]
    elif target != b.targets[0]:
        text = (_("{unit} battles {target} (ANY: the weakest legal target)", unit=b.unit,
                  target=target) if target not in b.targets
                else _("{unit} battles {target} (the first legal target named)", unit=b.unit,
                       target=target))
    if notes:
        t.ctx.log.changed(t.seat, ln, join([text, *notes], "; "))
    else:
        t.done(ln, text)


def end_turn(t: Turn, cid: str | None) -> None:
    """p.20: discard the played card, draw one (Lore: replenish, p.32)."""
    ctx = t.ctx
    s = state_of(ctx)
    a = t.seat
    t.current = None
    if cid is not None:
        s["discard"].append(cid)
        s["last_card"][a] = s["this_turn"]["acts_as"] or cid
        while len(s["hands"][a]) < s["hand_size"][a]:
            before = len(s["hands"][a])
            draw_command(ctx, a)
            if len(s["hands"][a]) == before:
                break
    if t.lore:
        end_of_turn_lore(ctx, t.lines)
        t.lore.finish()
    end_of_turn(ctx)
    s["active"] = other(a)
    s["turn"] += 1
    s["this_turn"] = new_turn(s["units"])
