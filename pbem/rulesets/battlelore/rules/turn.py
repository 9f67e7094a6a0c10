"""A player's turn (rulebook p.6-7, chapters 1-5; spec §4): the five phases run from the
active player's script. Command (play a card), Order, Move, Battle, End of turn (discard,
draw; Lore replenish). A command that has become illegal when reached is skipped with an
event saying why.

Not here: battle details (battle.py), the step envelope and decisions (phases.py, the kit).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.core.kit import Context, Order

from ..board import Hex, hex_name, neighbours
from ..data import card_name, command_card
from ..orders import Battle, Drill, Free, Lore, Move, OrderUnits, Passage, Play, Rush
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
from .common import short, state_of
from .creatures import free_web, pay_creature_order
from .landmarks import drill, end_of_turn, entered, passage
from .lore import (
    after_battle,
    battle_card,
    choose_reaction,
    command_phase,
    end_of_turn_lore,
    movement_phase,
    play_in_lieu,
)
from .movement import allowance, path_via, reachable


def run_turn(ctx: Context, orders: Sequence[Order]) -> None:
    s = state_of(ctx)
    a = s["active"]
    s["this_turn"] = new_turn(s["units"])
    tf = s["this_turn"]
    tf["wants_battle"] = sorted({o.unit for o in orders if isinstance(o, Battle | Rush)})
    ctx.log.public("turn", f"Turn {s['turn']}: {a} ({s['sides'][a]}) to play.", seat=a)
    lore_lines = [o for o in orders if isinstance(o, Lore)]
    in_lieu = play_in_lieu(ctx, lore_lines) if s["mode"] == "lore" else False
    cid = None
    if not in_lieu:
        cid = command_card_played(ctx, orders)
        command = len(s["hands"][a])  # p.7: Command counts the card being played
        s["hands"][a].remove(cid)
        c = effective(s, a, cid)
        tf["card"] = cid
        tf["command"] = command
        if c is None:
            ctx.log.public("play", f"{a.capitalize()} plays {card_name(cid)}, but there is no "
                           f"card of the opponent's to copy: nothing is ordered.", card=cid)
        else:
            tf["acts_as"] = c["id"]
            extra = (f" as a copy of {c['name']}" if command_card(cid)["kind"] == "copy"
                     else "")
            ctx.log.public("play", f"{a.capitalize()} plays {card_name(cid)}{extra} (Command "
                           f"{command}).", card=cid)
            if s["mode"] == "lore":
                command_phase(ctx, lore_lines)
            order_phase(ctx, orders, c, command)
    if in_lieu:  # p.29: no Command card, so no reaction to one
        order_phase(ctx, orders, None, 0)
    if tf["ordered"]:
        move_phase(ctx, orders)
        battle_phase(ctx, orders)
    end_turn(ctx, orders, cid)


def command_card_played(ctx: Context, orders: Sequence[Order]) -> str:
    """The first PLAY line whose card is in the hand; none: the default card (p.7)."""
    s = state_of(ctx)
    a = s["active"]
    for p in orders:
        if isinstance(p, Play):
            if p.card in s["hands"][a]:
                return p.card
            ctx.log.private([a], "skip", f"PLAY {p.card} skipped: the card is not in your hand.")
    cid = default_card(s, a)
    ctx.log.public("default", f"{a.capitalize()} sent no playable PLAY line: "
                   f"{card_name(cid)} is played by default.")
    return cid


def wanted_units(orders: Sequence[Order]) -> list[str]:
    """p.8: the units the script orders: ORDER lines, then units named by MOVE, RUSH,
    BATTLE, DRILL, FREE, PASSAGE lines, in script order."""
    wanted: list[str] = []
    for o in orders:
        ids: tuple[str, ...] = ()
        if isinstance(o, OrderUnits):
            ids = o.units
        elif isinstance(o, Move | Rush | Battle | Drill | Free | Passage):
            ids = (o.unit,)
        for i in ids:
            if i not in wanted:
                wanted.append(i)
    return wanted


def order_phase(ctx: Context, orders: Sequence[Order], c: dict[str, Any] | None,
                command: int) -> None:
    """p.8: announce the ordered units (explicit ORDER lines, then units named by MOVE,
    RUSH, BATTLE, DRILL, FREE, PASSAGE lines, in script order); extra orders are lost."""
    s = state_of(ctx)
    a = s["active"]
    tf = s["this_turn"]
    wanted = wanted_units(orders)
    chosen: list[str] = []
    if c is not None:
        if c.get("count") == "all":
            chosen = auto_order(s, a, c)
            for w in [w for w in wanted if w not in chosen and w in s["units"]]:
                ctx.log.private([a], "skip", f"{w} cannot be ordered: {c['name']} orders only "
                                f"ranged units not next to an enemy.")
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
                    ctx.log.private([a], "skip", f"{w} is not ordered: {why}.")
    if tf["false_orders"] and chosen:
        lost = chosen.pop()
        ctx.log.public("false_orders", f"False Orders: {lost} loses its order.")
    tf["ordered"] = chosen
    if not chosen:
        ctx.log.public("orders", f"{a.capitalize()} orders no unit.")
    else:
        ctx.log.public("orders", f"{a.capitalize()} orders "
                       + ", ".join(short(s["units"][x]) for x in chosen) + ".", units=chosen)
    if s["mode"] == "lore" and chosen:
        # p.29 'reaction to orders': the opponent's window in the order phase. The rulebook
        # says the base box has no order-phase card, and the shipped deck has none, so this
        # window asks nobody (ask_blind finds no card for it) until a card is added to the
        # data. 'During orders' (the active player's own order-phase card, whose units are
        # resolved before the Command card's) is not modelled: no card defines its units.
        choose_reaction(ctx, other(a), "reaction_orders", "", f"{a} ordered "
                        + " ".join(chosen))


def move_phase(ctx: Context, orders: Sequence[Order]) -> None:
    """p.9-10: ordered units move one at a time, each at most once, all before battles."""
    s = state_of(ctx)
    a = s["active"]
    tf = s["this_turn"]
    if s["mode"] == "lore":
        movement_phase(ctx, orders)
    for o in orders:
        if isinstance(o, Drill | Free):
            u = s["units"].get(o.unit)
            why = None
            if u is None or o.unit not in tf["ordered"]:
                why = "it is not an ordered unit on the board"
            elif isinstance(o, Drill):
                why = drill(ctx, u)
            else:
                why = free_web(ctx, u)
            if why:
                ctx.log.private([a], "skip", f"{o} skipped: {why}.")
    for o in orders:
        if isinstance(o, Move | Rush | Passage):
            u = s["units"].get(o.unit)
            if (s["mode"] == "lore" and u is not None and o.unit in tf["ordered"]
                    and o.unit not in tf["moved"]):
                # p.29 'reaction to movement': before this unit moves, never after (TC-50)
                choose_reaction(ctx, other(a), "reaction_movement", o.unit,
                                f"{o.unit} is about to move")
            why = move_one(ctx, o)
            if why:
                ctx.log.private([a], "skip", f"{o} skipped: {why}.")


def move_problem(s: State, o: Move | Rush | Passage) -> str | None:
    """Why the unit of a MOVE, RUSH or PASSAGE line cannot move now at all."""
    tf = s["this_turn"]
    u = s["units"].get(o.unit)
    if u is None:
        return "the unit is no longer on the board"
    if o.unit not in tf["ordered"]:
        return "the unit is not ordered"
    if o.unit in tf["moved"]:
        return "the unit has already moved this turn"
    if u["webbed"]:
        return "the unit is webbed (FREE it first)"
    if card_in_play(s).get("no_move"):
        return "units ordered by this card may not move"
    if o.unit in tf["drilled"]:
        return "the unit drilled this turn"
    return None


def move_one(ctx: Context, o: Move | Rush | Passage) -> str | None:
    s = state_of(ctx)
    why = move_problem(s, o)
    if why is not None:
        return why
    u = s["units"][o.unit]
    if isinstance(o, Passage):
        return passage(ctx, u, o.dest)
    if isinstance(o, Rush):
        return rush(ctx, u, o)
    mx, bat = allowance(s, u)
    if race(u) == "goblinoid" and uclass(u) == "foot" and u["colour"] == "red":
        mx = 1  # red goblinoids move 2 only as a Goblin Rush
    reach = reachable(s, u, mx)
    for d in o.dests:
        if d == uhex(u):
            s["this_turn"]["moved"].setdefault(u["id"], 0)
            ctx.log.public("stay", f"{u['id']} stays at {hex_name(d)}.")
            return None
        r = path_via(s, u, d, o.via, mx) if o.via else reach.get(d)
        if r is not None:
            do_move(ctx, u, d, r)
            if r["d"] > bat or r["no_battle"]:
                s["this_turn"]["no_battle"].append(u["id"])
            return None
    via = f" via {' '.join(hex_name(h) for h in o.via)}" if o.via else ""
    return (f"{' / '.join(hex_name(d) for d in o.dests)} cannot be reached{via} (moves {mx}, "
            f"never through occupied hexes; forests, fords and landmarks stop a unit)")


def rush(ctx: Context, u: Unit, o: Rush) -> str | None:
    """p.21 Goblin Rush: goblinoid foot move 2 to attack the declared target."""
    s = state_of(ctx)
    if race(u) != "goblinoid" or uclass(u) != "foot":
        return "only goblinoid foot units can Goblin Rush"
    tgt = s["units"].get(o.target)
    if tgt is None:
        return f"{o.target} is no longer on the board"
    reach = reachable(s, u, 2)
    if o.dest not in reach:
        return f"{hex_name(o.dest)} is not within 2 hexes on a free path"
    if uhex(tgt) not in list(neighbours(o.dest)):
        return f"{hex_name(o.dest)} is not next to {o.target}"
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
    ctx.log.public("move", f"{u['id']} moves to {hex_name(dest)} (via {path}).", unit=u["id"],
                   dest=hex_name(dest))
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


def battle_problem(s: State, b: Battle, per_unit: int) -> str | None:
    """Why the unit of a BATTLE line cannot battle now at all."""
    tf = s["this_turn"]
    if b.unit not in s["units"]:
        return "the unit is no longer on the board"
    if b.unit not in tf["ordered"]:
        return f"{b.unit} is not ordered"
    if tf["battled"].get(b.unit, 0) >= per_unit:
        return f"{b.unit} has already battled this turn"
    if b.unit in tf["no_battle"]:
        return f"{b.unit} may not battle after its move this turn"
    return None


def battle_phase(ctx: Context, orders: Sequence[Order]) -> None:
    """p.10-11: ordered units battle one at a time; each battle (with its follow-on
    actions) is resolved before the next. A rushing goblin must attack its target."""
    s = state_of(ctx)
    a = s["active"]
    tf = s["this_turn"]
    per_unit = int(card_in_play(s).get("battles", 1))
    lines: list[Battle] = [o for o in orders if isinstance(o, Battle)]
    for uid, tgt in list(tf["rush"].items()):
        if not any(b.unit == uid for b in lines):
            lines.append(Battle(uid, (tgt,)))
    for b in lines:
        why = battle_problem(s, b, per_unit)
        if why is not None:
            ctx.log.private([a], "skip", f"{b} skipped: {why}.")
            continue
        u = s["units"][b.unit]
        legal = targets(s, u, ranged_only=per_unit > 1)
        want = (tf["rush"][b.unit],) if b.unit in tf["rush"] else b.targets
        t = pick_target(s, u, want, legal)
        if t is None:
            why = "it is webbed" if u["webbed"] else "no named target is a legal target now"
            ctx.log.private([a], "skip", f"{b} skipped: {why}.")
            continue
        tf["battled"][b.unit] = tf["battled"].get(b.unit, 0) + 1
        if s["mode"] == "lore":
            battle_card(ctx, u, t, orders)
            if not before_roll(ctx, u, t, f"{u['id']} attacks your {t['id']}"):
                continue
        battle(ctx, u, t, b)
        if s["mode"] == "lore":
            after_battle(ctx)


def end_turn(ctx: Context, orders: Sequence[Order], cid: str | None) -> None:
    """p.20: discard the played card, draw one (Lore: replenish, p.32)."""
    s = state_of(ctx)
    a = s["active"]
    if cid is not None:
        s["discard"].append(cid)
        s["last_card"][a] = s["this_turn"]["acts_as"] or cid
        while len(s["hands"][a]) < s["hand_size"][a]:
            before = len(s["hands"][a])
            draw_command(ctx, a)
            if len(s["hands"][a]) == before:
                break
    if s["mode"] == "lore":
        end_of_turn_lore(ctx, orders)
    end_of_turn(ctx)
    s["active"] = other(a)
    s["turn"] += 1
    s["this_turn"] = new_turn(s["units"])
