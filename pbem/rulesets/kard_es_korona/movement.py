"""Movement (rulebook 3.5, p. 8; advanced 6.2 pinning, p. 14; spec 5.4): one step, its
legality, and the interleaving of the players' step lists in movement rounds.

A seat's year orders carry an ordered list of MOVE lines and a PASS point. In each movement
round, in turn order, a player's next step is carried out; a step that has become illegal
(or whose IF condition fails) is skipped with an event and the next one is tried; a PASS,
an exhausted list, used-up steps or a lord freeze make him pass. The first to pass is the
next year's start player.
"""

from __future__ import annotations

from typing import Any

from pbem.core.events import Event
from pbem.rulesets.kard_es_korona.board import ARMS, MP
from pbem.rulesets.kard_es_korona.orders import Move, Part, parse_line
from pbem.rulesets.kard_es_korona.state import (
    St,
    add_units,
    allied,
    battle_at,
    controller,
    empty_army,
    fmt_army,
    gmap,
    in_play,
    is_neutral,
    lord_at,
    owner_of_units,
    remove_units,
    total,
    turn_order,
)


def castle_fits(state: St, county: str, army: dict[str, int]) -> str:
    """Castle limits (rulebook p. 3: at most 7 units; advanced p. 14: at most 4 of an arm;
    spec 5.13). Returns "" when `army` may stand in `county`."""
    if not gmap(state).counties[county].has_castle:
        return ""
    if total(army) > 7:
        return f"at most 7 units may stand in the castle county {county}"
    if state["opts"].get("arm_limits") and max(army.values()) > 4:
        return f"at most 4 units of one arm may stand in the castle county {county}"
    return ""


def besieger_ratio(state: St, army: dict[str, int]) -> str:
    """Advanced p. 14 (spec 5.13): a besieging army of 5 or more units may have at most
    half (rounded up) of one arm."""
    n = total(army)
    if state["opts"].get("arm_limits") and n >= 5 and max(army.values()) > (n + 1) // 2:
        return f"a besieging army of {n} may have at most {(n + 1) // 2} of one arm"
    return ""


def passable_for(state: St, seat: str):
    def ok(county: str) -> bool:
        if not in_play(state, county):
            return False
        b = battle_at(state, county)
        if b is not None:
            # Advanced pinning: the pinning attacker's other units may pass (spec 5.4.7).
            return bool(b.get("pinned")) and b["attacker"] == seat
        return controller(state, county) in (None, seat)
    return ok


def free_units(state: St, seat: str, county: str) -> int:
    """Units of `seat` in `county` that may still move (advanced reverse pinning frees
    some attacked defenders, spec 5.4.7)."""
    b = battle_at(state, county)
    if b is None:
        return 1 << 20
    if b.get("free_owner") == seat:
        return b.get("free", 0)
    return 0


def check_step(state: St, seat: str, mv: Move) -> tuple[str, dict[str, Any]]:
    """Why `mv` is illegal now ("" if legal) and what it would do."""
    gm = gmap(state)
    p = state["players"][seat]
    if p["frozen"]:
        return "your lord was attacked; you may only pass", {}
    t = mv.target
    if not in_play(state, t):
        return f"{t} is out of play", {}
    if battle_at(state, t) is not None:
        return f"a battle is already pending in {t}; nobody may enter it", {}
    tgt_owner = controller(state, t)
    defender_units = owner_of_units(state, t)
    if tgt_owner is not None and tgt_owner != seat and allied(state, seat, tgt_owner):
        return f"{t} belongs to your overlord or vassal; you may not enter it", {}
    army = empty_army()
    lord = False
    origins: dict[str, dict[str, int]] = {}
    takes: list[tuple[str, dict[str, int]]] = []
    passable = passable_for(state, seat)
    for part in mv.parts:
        c = part.county
        s = state["board"].get(c)
        own_here = s is not None and s["owner"] == seat
        free = free_units(state, seat, c)
        avail = {a: (s["u"][a] - s["used"][a]) if own_here else 0 for a in ARMS}
        want = dict(avail) if part.all else {a: getattr(part, a) for a in ARMS}
        if part.all:
            room = free
            for a in ARMS:
                want[a] = min(want[a], room)
                room -= want[a]
        if battle_at(state, c) is not None and total(want) > free:
            return f"your units in {c} are attacked and may not leave", {}
        for a in ARMS:
            if want[a] > avail[a]:
                return f"{c} has only {avail[a]} unmoved {a} of yours, not {want[a]}", {}
        if part.lord:
            if p["lord"] != c or p["lord_attacking"]:
                return f"your lord is not in {c}", {}
            if p["lord_moved"]:
                return "your lord has already moved this year", {}
            if battle_at(state, c) is not None and free == 0:
                return f"your lord in {c} is attacked and may not leave", {}
        if total(want) == 0 and not part.lord:
            return f"nothing of yours can move from {c}", {}
        # The lord is never left alone by his units (rulebook p. 5).
        if p["lord"] == c and not part.lord and s is not None and own_here \
                and total(s["u"]) > 0 and total(s["u"]) - total(want) == 0:
            return f"your units may not leave your lord alone in {c}", {}
        movers = [a for a in ARMS if want[a]] + (["lord"] if part.lord else [])
        last = None
        for m in movers:
            path = gm.shortest(c, t, passable, MP[m])
            if path is None:
                return f"no path from {c} to {t} within {MP[m]} MP for {m}", {}
            if last is None or path[1] < last:
                last = path[1]
        assert last is not None
        origins.setdefault(last, empty_army())
        for a in ARMS:
            army[a] += want[a]
            origins[last][a] += want[a]
        lord = lord or part.lord
        takes.append((c, want))
    why = _vetoed(state, seat, mv, takes)
    if why:
        return why, {}
    hostile = defender_units is not None and defender_units != seat
    lone_lord = tgt_owner is not None and tgt_owner != seat and defender_units is None
    attack = hostile or lone_lord
    if mv.cond == "empty" and (defender_units is not None or lone_lord):
        return f"condition IF EMPTY fails: {t} is not empty", {}
    if mv.cond == "enemy" and attack and total(state["board"][t]["u"] if hostile else
                                              empty_army()) > mv.limit:
        return f"condition IF ENEMY <= {mv.limit} fails in {t}", {}
    if attack:
        veto = _veto(state, seat, "attack")
        if "all" in veto or t in veto:
            return f"your overlord vetoes attacks on {t}", {}
        if total(army) == 0:
            return "the lord may not attack alone", {}
        if gm.counties[t].has_castle and hostile and army["inf"] == 0 and not lord:
            return f"attacking the castle of {t} needs infantry or your lord", {}
        if gm.counties[t].has_castle and hostile:
            why = besieger_ratio(state, army)
            if why:
                return why, {}
    else:
        if lord and total(army) == 0 and defender_units != seat:
            return f"your lord may not end a step in {t} without your units", {}
        after = dict(state["board"][t]["u"]) if defender_units == seat else empty_army()
        for a in ARMS:
            after[a] += army[a]
        why = castle_fits(state, t, after)
        if why:
            return why, {}
    return "", {"army": army, "lord": lord, "origins": origins, "takes": takes,
                "attack": attack, "hostile": hostile}


def _veto(state: St, seat: str, what: str) -> list[str]:
    """The overlord's standing veto over this vassal (rulebook p. 11; DP20)."""
    p = state["players"][seat]
    if p["status"] != "vassal" or not p["overlord"]:
        return []
    return state["players"][p["overlord"]]["standing"].get("veto", {}).get(what, [])


def _vetoed(state: St, seat: str, mv: Move, takes: list[tuple[str, dict[str, int]]]) -> str:
    veto = _veto(state, seat, "leave")
    if not veto:
        return ""
    for c, want in takes:
        s = state["board"].get(c)
        if s and total(s["u"]) - total(want) <= 0 and ("all" in veto or c in veto):
            return f"your overlord vetoes giving up {c}"
    return ""


def do_step(state: St, seat: str, mv: Move, events: list[Event]) -> str:
    """Carry out `mv` if legal; returns the reason it was skipped, or ""."""
    why, plan = check_step(state, seat, mv)
    if why:
        return why
    gm = gmap(state)
    p = state["players"][seat]
    t = mv.target
    for c, want in plan["takes"]:
        if total(want):
            remove_units(state, c, want)
            b = battle_at(state, c)
            if b is not None:
                b["free"] = b.get("free", 0) - total(want)
    army, lord = plan["army"], plan["lord"]
    if lord:
        p["lord_moved"] = True
        p["lord"] = t
    name = gm.counties[t].name
    n = total(army)
    desc = f"{n} unit{'s' if n != 1 else ''}" + (" and the lord" if lord else "")
    if plan["attack"]:
        defender = controller(state, t) or owner_of_units(state, t)
        m = total(state["board"][t]["u"]) if t in state["board"] else 0
        state["seq"] += 1
        battle = {"county": t, "attacker": seat, "defender": defender, "army": army,
                  "origins": plan["origins"], "lord": lord, "seq": state["seq"]}
        if lord:
            p["lord_attacking"] = True
        if state["opts"].get("pinning"):
            # Advanced 6.2 (p. 14; spec 5.4.7): n >= 2m pins; m > 2n frees m - 2n defenders.
            battle["pinned"] = n >= 2 * m and m > 0
            if m > 2 * n and not is_neutral(state, defender):
                battle["free_owner"] = defender
                battle["free"] = m - 2 * n
        state["battles"].append(battle)
        victim = lord_at(state, t)
        if victim is not None and victim != seat and state["opts"].get("lord_freeze"):
            if not battle.get("free"):
                state["players"][victim]["frozen"] = True
                events.append(Event("freeze", f"{victim}'s lord is attacked in {name}: "
                                    f"{victim} may make no more steps this year.",
                                    {"seat": victim}))
        events.append(Event("step", f"{seat} attacks {name} ({gm.counties[t].terrain}) with "
                            f"{desc}; the battle waits for phase IV.",
                            {"seat": seat, "target": t, "units": n, "lord": lord}))
        events.append(Event("step_detail", f"Your attacking army at {name}: {fmt_army(army)}.",
                            {"army": army}, (seat,)))
    else:
        if n:
            add_units(state, t, seat, army, used=True)
        events.append(Event("step", f"{seat} moves {desc} into {name}.",
                            {"seat": seat, "target": t, "units": n, "lord": lord}))
        events.append(Event("step_detail", f"Moved into {name}: {fmt_army(army, lord)}.",
                            {"army": army}, (seat,)))
    return ""


def start_movement(state: St, only: list[str] | None = None) -> None:
    """Phase III begins: nobody has passed; `only` = the one player who moves now
    (traditional mode, rulebook 6.5)."""
    movers = only or [s for s in turn_order(state) if state["players"][s]["status"] != "out"]
    for s in movers:
        state["players"][s]["passed"] = False
    if only is None:
        state["first_passer"] = None
    state["move"] = {"order": movers, "ptr": 0, "only": only is not None}


def run_movement(state: St, events: list[Event], after_step,
                 only: list[str] | None = None) -> str:
    """Movement rounds (rulebook p. 8; spec 5.4.1, DP7): in turn order each player makes one
    step or passes, until all have passed. `after_step` runs the instant victory check and
    returns True when the game is over. Returns "done", "over", or "ask" when option
    movement=strict and the player whose turn it is has no step left in his script."""
    if state.get("move") is None:
        start_movement(state, only)
    mv_state = state["move"]
    order = mv_state["order"]
    single = mv_state["only"]
    strict = state["opts"].get("movement") == "strict" and not single
    while True:
        if all(state["players"][s]["passed"] for s in order):
            state["move"] = None
            return "done"
        s = order[mv_state["ptr"]]
        p = state["players"][s]
        if p["passed"]:
            mv_state["ptr"] = (mv_state["ptr"] + 1) % len(order)
            continue
        stepped = False
        reason_pass = ""
        if p["steps_left"] <= 0:
            reason_pass = "has no steps left"
        elif p["frozen"]:
            reason_pass = "is frozen (lord attacked)"
        # SPEC-AMBIGUITY (DP7): a skipped step does not use the turn; the next line of the
        # list is tried at once, so a script can carry its own fallbacks.
        while not stepped and not reason_pass:
            if not p["script"]:
                if strict:
                    state["ask"] = {"kind": "move", "seats": [s]}
                    return "ask"
                reason_pass = "has no more steps in his orders"
                break
            line = p["script"].pop(0)
            if line == "PASS":
                reason_pass = "passes"
                break
            mv = parse_line(gmap(state), state["seats"], line)
            assert isinstance(mv, Move)
            why = do_step(state, s, mv, events)
            if why:
                events.append(Event("skip", f"{s}: step skipped ({mv}): {why}.",
                                    {"seat": s}, (s,)))
                events.append(Event("skip_public", f"{s} skips a step.", {"seat": s}))
                continue
            stepped = True
            p["steps_left"] -= 1
            if after_step():
                state["move"] = None
                return "over"
        if reason_pass:
            p["passed"] = True
            p["script"] = []
            if single:
                events.append(Event("pass", f"{s} {reason_pass}.", {"seat": s}))
            elif state["first_passer"] is None:
                state["first_passer"] = s
                events.append(Event("pass", f"{s} {reason_pass}: first to pass, start "
                                    "player next year.", {"seat": s}))
            else:
                events.append(Event("pass", f"{s} {reason_pass}.", {"seat": s}))
        mv_state["ptr"] = (mv_state["ptr"] + 1) % len(order)


def unused_part(county: str, army: dict[str, int], lord: bool = False) -> Part:
    return Part(county, army.get("cav", 0), army.get("inf", 0), army.get("arch", 0), lord=lord)
