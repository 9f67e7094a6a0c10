"""A player's turn (rulebook p.6-7, chapters 1-5; spec §4): the five phases run from the
active player's script. Command (play a card), Order, Move, Battle, End of turn (discard,
draw; Lore replenish). A command that has become illegal when reached is skipped with an
event saying why.

Not here: battle details (combat.py), the step envelope and pausing (ruleset.py, ctx.py).
"""

from __future__ import annotations

from typing import Any

from .board import hex_name, neighbours
from .cards import auto_order, can_order, card_name, draw_command, effective
from .combat import battle, dice_count, short, targets
from .ctx import Ctx
from .landmarks import drill, end_of_turn, entered, passage
from .movement import allowance, path_via, reachable
from .orders import Battle, Lore, Move, Order, Passage, Play, Rush, Unitcmd
from .state import other, race, uclass, uhex, unit_sort, units_of


def fresh_tf(s: dict[str, Any]) -> dict[str, Any]:
    return {"card": None, "card_def": None, "command": 0, "ordered": [], "moved": {},
            "no_battle": [], "battled": {}, "effects": [], "rush": {}, "drilled": [],
            "start_hex": {u["id"]: f"{u['hex'][0]}-{u['hex'][1]}" for u in s["units"].values()},
            "lore_played": {}}


def default_card(s: dict[str, Any], seat: str) -> str:
    """NMR / no PLAY line: the card that can order the most units (first by name)."""
    best, best_n = None, -1
    for cid in sorted(set(s["hands"][seat])):
        c = effective(s, seat, cid)
        if c is None:
            continue
        n = len(candidate_units(s, seat, c, len(s["hands"][seat])))
        if n > best_n:
            best, best_n = cid, n
    return best or sorted(s["hands"][seat])[0]


def candidate_units(s: dict[str, Any], seat: str, c: dict[str, Any], command: int) -> list[str]:
    chosen: list[str] = []
    if c.get("count") == "all":
        return auto_order(s, seat, c, command)
    for u in units_of(s, seat):
        if can_order(s, seat, c, command, chosen, u["id"], []) is None:
            chosen.append(u["id"])
    return chosen


def run_turn(ctx: Ctx, orders: list[Any]) -> None:
    s = ctx.s
    a = s["active"]
    s["tf"] = fresh_tf(s)
    tf = s["tf"]
    tf["wants_battle"] = sorted({o.unit for o in orders if isinstance(o, (Battle, Rush))})
    ctx.ev("turn", f"Turn {s['turn']}: {a} ({s['sides'][a]}) to play.", seat=a)
    from . import lore as lore_mod
    lore_lines = [o for o in orders if isinstance(o, Lore)]
    in_lieu = lore_mod.play_in_lieu(ctx, lore_lines) if s["mode"] == "lore" else False
    cid = None
    if not in_lieu:
        plays = [o for o in orders if isinstance(o, Play)]
        for p in plays:
            if p.card in s["hands"][a]:
                cid = p.card
                break
            ctx.ev("skip", f"PLAY {p.card} skipped: the card is not in your hand.", to=[a])
        if cid is None:
            cid = default_card(s, a)
            ctx.ev("default", f"{a.capitalize()} sent no playable PLAY line: "
                              f"{card_name(cid)} is played by default.")
        command = len(s["hands"][a])  # p.7: Command counts the card being played
        s["hands"][a].remove(cid)
        c = effective(s, a, cid)
        tf["card"] = cid
        tf["command"] = command
        if c is None:
            ctx.ev("play", f"{a.capitalize()} plays {card_name(cid)}, but there is no card of "
                           f"the opponent's to copy: nothing is ordered.", card=cid)
        else:
            tf["card_def"] = c
            extra = f" as a copy of {c['name']}" if c.get("copied_by") else ""
            ctx.ev("play", f"{a.capitalize()} plays {card_name(cid)}{extra} (Command {command}).",
                   card=cid)
            if s["mode"] == "lore":
                lore_mod.command_phase(ctx, lore_lines)
            order_phase(ctx, orders, c, command)
    if in_lieu:  # p.29: no Command card, so no reaction to one
        order_phase(ctx, orders, None, 0)
    if tf["ordered"]:
        move_phase(ctx, orders)
        battle_phase(ctx, orders)
    end_turn(ctx, orders, cid)


def order_phase(ctx: Ctx, orders: list[Any], c: dict[str, Any] | None, command: int) -> None:
    """p.8: announce the ordered units (explicit ORDER lines, then units named by MOVE,
    RUSH, BATTLE, DRILL, FREE, PASSAGE lines, in script order); extra orders are lost."""
    s = ctx.s
    a = s["active"]
    tf = s["tf"]
    wanted: list[str] = [x for x in tf.get("lore_ordered", [])]
    for o in orders:
        ids: tuple[str, ...] = ()
        if isinstance(o, Order):
            ids = o.units
        elif isinstance(o, (Move, Rush, Battle, Unitcmd, Passage)):
            ids = (o.unit,)
        for i in ids:
            if i not in wanted:
                wanted.append(i)
    chosen: list[str] = list(tf.get("lore_ordered", []))
    if c is not None:
        if c.get("count") == "all":
            chosen = auto_order(s, a, c, command)
            lost = [w for w in wanted if w not in chosen and w in s["units"]]
            for w in lost:
                ctx.ev("skip", f"{w} cannot be ordered: {c['name']} orders only ranged units "
                               f"not next to an enemy.", to=[a])
        else:
            paid: list[str] = []
            for w in wanted:
                if w in chosen:
                    continue
                why = can_order(s, a, c, command, chosen, w, paid)
                if why is not None and s["mode"] == "lore" and c["kind"] == "section":
                    from .lore import pay_creature_order
                    if pay_creature_order(ctx, w, c, command, chosen, paid):
                        why = None
                if why is None:
                    chosen.append(w)
                else:
                    ctx.ev("skip", f"{w} is not ordered: {why}.", to=[a])
    if tf.get("false_orders") and chosen:
        lost = chosen.pop()
        ctx.ev("false_orders", f"False Orders: {lost} loses its order.")
    tf["ordered"] = chosen
    if not chosen:
        ctx.ev("orders", f"{a.capitalize()} orders no unit.")
    else:
        ctx.ev("orders", f"{a.capitalize()} orders " + ", ".join(short(s["units"][x]) for x in chosen)
               + ".", units=chosen)
    if s["mode"] == "lore" and chosen:
        # p.29 'reaction to orders': the opponent's window in the order phase. The rulebook
        # says the base box has no order-phase card, and the shipped deck has none, so this
        # window asks nobody (ask_blind finds no card for it) until a card is added to the
        # data. 'During orders' (the active player's own order-phase card, whose units are
        # resolved before the Command card's) is not modelled: no card defines its units.
        from .lore import choose_reaction
        choose_reaction(ctx, other(a), "reaction_orders", "", f"{a} ordered "
                        + " ".join(chosen))


def move_phase(ctx: Ctx, orders: list[Any]) -> None:
    """p.9-10: ordered units move one at a time, each at most once, all before battles."""
    s = ctx.s
    a = s["active"]
    tf = s["tf"]
    if s["mode"] == "lore":
        from .lore import movement_phase
        movement_phase(ctx, orders)
    for o in orders:
        if isinstance(o, Unitcmd):
            u = s["units"].get(o.unit)
            why = None
            if u is None or o.unit not in tf["ordered"]:
                why = "it is not an ordered unit on the board"
            elif o.verb == "drill":
                why = drill(ctx, u)
            elif o.verb == "free":
                from .lore import free_web
                why = free_web(ctx, u)
            if why:
                ctx.ev("skip", f"{o} skipped: {why}.", to=[a])
    for o in orders:
        if isinstance(o, (Move, Rush, Passage)):
            u = s["units"].get(o.unit)
            if (s["mode"] == "lore" and u is not None and o.unit in tf["ordered"]
                    and o.unit not in tf["moved"]):
                # p.29 'reaction to movement': before this unit moves, never after (TC-50)
                from .lore import choose_reaction
                choose_reaction(ctx, other(a), "reaction_movement", o.unit,
                                f"{o.unit} is about to move")
            why = move_one(ctx, o)
            if why:
                ctx.ev("skip", f"{o} skipped: {why}.", to=[a])


def move_one(ctx: Ctx, o: Move | Rush | Passage) -> str | None:
    s = ctx.s
    tf = s["tf"]
    u = s["units"].get(o.unit)
    if u is None:
        return "the unit is no longer on the board"
    if o.unit not in tf["ordered"]:
        return "the unit is not ordered"
    if o.unit in tf["moved"]:
        return "the unit has already moved this turn"
    if u.get("web"):
        return "the unit is webbed (FREE it first)"
    if (tf.get("card_def") or {}).get("no_move"):
        return "units ordered by this card may not move"
    if o.unit in tf["drilled"]:
        return "the unit drilled this turn"
    if isinstance(o, Passage):
        return passage(ctx, u, o.dest)
    mx, bat = allowance(s, u)
    if isinstance(o, Rush):
        # p.21 Goblin Rush: goblinoid foot move 2 to attack the declared target
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
        tf["rush"][u["id"]] = o.target
        if r["no_battle"]:
            tf["no_battle"].append(u["id"])
        return None
    if race(u) == "goblinoid" and uclass(u) == "foot" and u["colour"] == "red":
        mx = 1  # red goblinoids move 2 only as a Goblin Rush
    reach = reachable(s, u, mx)
    for d in o.dests:
        if d == uhex(u):
            tf["moved"].setdefault(u["id"], 0)
            ctx.ev("stay", f"{u['id']} stays at {hex_name(d)}.")
            return None
        r = path_via(s, u, d, o.via, mx) if o.via else reach.get(d)
        if r is not None:
            do_move(ctx, u, d, r)
            if r["d"] > bat or r["no_battle"]:
                tf["no_battle"].append(u["id"])
            return None
    via = f" via {' '.join(hex_name(h) for h in o.via)}" if o.via else ""
    return (f"{' / '.join(hex_name(d) for d in o.dests)} cannot be reached{via} (moves {mx}, "
            f"never through occupied hexes; forests, fords and landmarks stop a unit)")


def do_move(ctx: Ctx, u: dict[str, Any], dest: Any, r: dict[str, Any]) -> None:
    s = ctx.s
    path = " ".join(hex_name(h) for h in r["path"])
    u["hex"] = [dest[0], dest[1]]
    s["tf"]["moved"][u["id"]] = r["d"]
    ctx.ev("move", f"{u['id']} moves to {hex_name(dest)} (via {path}).", unit=u["id"],
           dest=hex_name(dest))
    entered(ctx, u, dest)


def pick_target(s: dict[str, Any], u: dict[str, Any], want: tuple[str, ...],
                legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    ids = {t["id"]: t for t in legal if dice_count(s, u, t, True) > 0}
    for w in want:
        if w == "ANY" and ids:
            # weakest first, then the one most exposed to our dice
            return min(ids.values(), key=lambda t: (t["fig"], -dice_count(s, u, t, True),
                                                    unit_sort(t)))
        if w in ids:
            return ids[w]
    return None


def battle_phase(ctx: Ctx, orders: list[Any]) -> None:
    """p.10-11: ordered units battle one at a time; each battle (with its follow-on
    actions) is resolved before the next. A rushing goblin must attack its target."""
    s = ctx.s
    a = s["active"]
    tf = s["tf"]
    card = tf.get("card_def") or {}
    per_unit = int(card.get("battles", 1))
    lines: list[Battle] = [o for o in orders if isinstance(o, Battle)]
    for uid, tgt in list(tf["rush"].items()):
        if not any(b.unit == uid for b in lines):
            lines.append(Battle(uid, (tgt,)))
    for b in lines:
        u = s["units"].get(b.unit)
        if u is None:
            ctx.ev("skip", f"{b} skipped: the unit is no longer on the board.", to=[a])
            continue
        if b.unit not in tf["ordered"]:
            ctx.ev("skip", f"{b} skipped: {b.unit} is not ordered.", to=[a])
            continue
        if tf["battled"].get(b.unit, 0) >= per_unit:
            ctx.ev("skip", f"{b} skipped: {b.unit} has already battled this turn.", to=[a])
            continue
        if b.unit in tf["no_battle"]:
            ctx.ev("skip", f"{b} skipped: {b.unit} may not battle after its move this turn.",
                   to=[a])
            continue
        legal = targets(s, u, ranged_only=per_unit > 1)
        want = b.targets
        if b.unit in tf["rush"]:
            want = (tf["rush"][b.unit],)
        t = pick_target(s, u, want, legal)
        if t is None:
            why = "it is webbed" if u.get("web") else "no named target is a legal target now"
            ctx.ev("skip", f"{b} skipped: {why}.", to=[a])
            continue
        tf["battled"][b.unit] = tf["battled"].get(b.unit, 0) + 1
        if s["mode"] == "lore":
            from .lore import before_battle
            if not before_battle(ctx, u, t, orders) or u["id"] not in s["units"] \
                    or t["id"] not in s["units"]:
                continue
        battle(ctx, u, t, b.opts())
        if s["mode"] == "lore":
            from .lore import after_battle
            after_battle(ctx)


def end_turn(ctx: Ctx, orders: list[Any], cid: str | None) -> None:
    """p.20: discard the played card, draw one (Lore: replenish, p.32)."""
    s = ctx.s
    a = s["active"]
    if cid is not None:
        s["discard"].append(cid)
        c = s["tf"].get("card_def")
        s["last_card"][a] = c["id"] if c else cid
        while len(s["hands"][a]) < s["hand_size"][a]:
            before = len(s["hands"][a])
            draw_command(ctx, a)
            if len(s["hands"][a]) == before:
                break
    if s["mode"] == "lore":
        from .lore import end_of_turn_lore
        end_of_turn_lore(ctx, orders)
    end_of_turn(ctx)
    s["active"] = other(a)
    s["turn"] += 1
    s["tf"] = fresh_tf(s)
