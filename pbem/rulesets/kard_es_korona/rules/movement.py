"""One step of movement (rulebook 3.5, p. 8; advanced 6.2 pinning, p. 14; spec 5.4): its
legality, what it moves and the battle it starts. The castle limits (p. 3, advanced p. 14)
are here too, since every move and retreat must respect them.

Not here: the movement rounds that interleave the players' steps (`year.py`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.core.i18n import Msg, _, n_
from pbem.core.kit import Log, Note, Verdict
from pbem.rulesets.kard_es_korona.data import ARM_WORDS, ARMS, MP, TERRAINS
from pbem.rulesets.kard_es_korona.orders import Move, Part
from pbem.rulesets.kard_es_korona.rules.control import (
    allied,
    battle_at,
    controller,
    gmap,
    in_play,
    is_neutral,
    lord_at,
    owner_of_units,
    passable_for,
)
from pbem.rulesets.kard_es_korona.state import (
    Army,
    Battle,
    State,
    add_units,
    empty_army,
    fmt_army,
    remove_units,
    total,
)


def castle_fits(state: State, county: str, army: Army) -> str:
    """Castle limits (rulebook p. 3: at most 7 units; advanced p. 14: at most 4 of an arm;
    spec 5.13). Returns "" when `army` may stand in `county`."""
    if not gmap(state).counties[county].has_castle:
        return ""
    if total(army) > 7:
        return _("at most 7 units may stand in the castle county {county}", county=county)
    if state["options"]["arm_limits"] and max(army.values()) > 4:
        return _("at most 4 units of one arm may stand in the castle county {county}",
                 county=county)
    return ""


def besieger_ratio(state: State, army: Army) -> str:
    """Advanced p. 14 (spec 5.13): a besieging army of 5 or more units may have at most
    half (rounded up) of one arm."""
    n = total(army)
    if state["options"]["arm_limits"] and n >= 5 and max(army.values()) > (n + 1) // 2:
        return _("a besieging army of {n} may have at most {half} of one arm", n=n,
                 half=(n + 1) // 2)
    return ""


def free_units(state: State, seat: str, county: str) -> int:
    """Units of `seat` in `county` that may still move (advanced reverse pinning frees
    some attacked defenders, spec 5.4.7)."""
    b = battle_at(state, county)
    if b is None:
        return 1 << 20
    if b["free_owner"] == seat:
        return b["free"]
    return 0


@dataclass
class Plan:
    """What a legal step does."""

    army: Army = field(default_factory=empty_army)
    lord: bool = False
    origins: dict[str, Army] = field(default_factory=dict)
    takes: list[tuple[str, Army]] = field(default_factory=list)
    attack: bool = False
    hostile: bool = False


def check_step(state: State, seat: str, mv: Move) -> tuple[str, Plan]:
    """Why `mv` is illegal now ("" if legal) and what it would do."""
    p = state["players"][seat]
    if p["frozen"]:
        return _("your lord was attacked; you may only pass"), Plan()
    t = mv.target
    if not in_play(state, t):
        return _("{county} is out of play", county=t), Plan()
    if battle_at(state, t) is not None:
        return _("a battle is already pending in {county}; nobody may enter it", county=t), Plan()
    tgt_owner = controller(state, t)
    if tgt_owner is not None and tgt_owner != seat and allied(state, seat, tgt_owner):
        return _("{county} belongs to your overlord or vassal; you may not enter it",
                 county=t), Plan()
    plan = Plan()
    for part in mv.parts:
        why = _take(state, seat, mv, part, plan)
        if why:
            return why, Plan()
    why = _vetoed(state, seat, plan.takes)
    if why:
        return why, Plan()
    why = _into_target(state, seat, mv, plan, tgt_owner)
    return (why, Plan()) if why else ("", plan)


def _wanted(state: State, seat: str, part: Part) -> tuple[Army, Army, int]:
    """(wanted, unmoved own units, units free to leave) of one origin county."""
    s = state["board"].get(part.county)
    free = free_units(state, seat, part.county)
    avail = {a: (s["units"][a] - s["used"][a]) if s is not None and s["owner"] == seat else 0
             for a in ARMS}
    if not part.all:
        return {a: getattr(part, a) for a in ARMS}, avail, free
    want = dict(avail)
    room = free
    for a in ARMS:
        want[a] = min(want[a], room)
        room -= want[a]
    return want, avail, free


def _leave_problem(state: State, seat: str, part: Part, want: Army, avail: Army,
                   free: int) -> str:
    """Why these movers may not leave their county ("" if they may)."""
    c = part.county
    p = state["players"][seat]
    attacked = battle_at(state, c) is not None
    if attacked and total(want) > free:
        return _("your units in {county} are attacked and may not leave", county=c)
    for a in ARMS:
        if want[a] > avail[a]:
            return _("{county} has only {n} unmoved {arm} of yours, not {want}", county=c,
                     n=avail[a], arm=ARM_WORDS[a], want=want[a])
    if part.lord:
        if p["lord"] != c or p["lord_attacking"]:
            return _("your lord is not in {county}", county=c)
        if p["lord_moved"]:
            return _("your lord has already moved this year")
        if attacked and free == 0:
            return _("your lord in {county} is attacked and may not leave", county=c)
    if total(want) == 0 and not part.lord:
        return _("nothing of yours can move from {county}", county=c)
    # The lord is never left alone by his units (rulebook p. 5).
    s = state["board"].get(c)
    if p["lord"] == c and not part.lord and s is not None and s["owner"] == seat \
            and total(s["units"]) > 0 and total(s["units"]) - total(want) == 0:
        return _("your units may not leave your lord alone in {county}", county=c)
    return ""


def _take(state: State, seat: str, mv: Move, part: Part, plan: Plan) -> str:
    """Add the movers of one origin county to `plan`; the reason when they cannot go."""
    c = part.county
    want, avail, free = _wanted(state, seat, part)
    why = _leave_problem(state, seat, part, want, avail, free)
    if why:
        return why
    gm = gmap(state)
    passable = passable_for(state, seat)
    last = None
    for m in [a for a in ARMS if want[a]] + (["lord"] if part.lord else []):
        path = gm.shortest(c, mv.target, passable, MP[m])
        if path is None:
            return _("no path from {county} to {target} within {mp} MP for {mover}", county=c,
                     target=mv.target, mp=MP[m], mover=ARM_WORDS[m])
        if last is None or path[1] < last:
            last = path[1]
    assert last is not None
    plan.origins.setdefault(last, empty_army())
    for a in ARMS:
        plan.army[a] += want[a]
        plan.origins[last][a] += want[a]
    plan.lord = plan.lord or part.lord
    plan.takes.append((c, want))
    return ""


def _into_target(state: State, seat: str, mv: Move, plan: Plan, tgt_owner: str | None) -> str:
    """Whether the gathered army may enter the target (an attack or a move)."""
    t = mv.target
    gm = gmap(state)
    defender_units = owner_of_units(state, t)
    hostile = defender_units is not None and defender_units != seat
    lone_lord = tgt_owner is not None and tgt_owner != seat and defender_units is None
    attack = hostile or lone_lord
    army, lord = plan.army, plan.lord
    if mv.cond == "empty" and (defender_units is not None or lone_lord):
        return _("condition IF EMPTY fails: {county} is not empty", county=t)
    if mv.cond == "enemy" and attack and total(state["board"][t]["units"] if hostile else
                                              empty_army()) > mv.limit:
        return _("condition IF ENEMY <= {n} fails in {county}", n=mv.limit, county=t)
    if attack:
        veto = _veto(state, seat, "attack")
        if "all" in veto or t in veto:
            return _("your overlord vetoes attacks on {county}", county=t)
        if total(army) == 0:
            return _("the lord may not attack alone")
        if gm.counties[t].has_castle and hostile and army["inf"] == 0 and not lord:
            return _("attacking the castle of {county} needs infantry or your lord", county=t)
        if gm.counties[t].has_castle and hostile:
            why = besieger_ratio(state, army)
            if why:
                return why
    else:
        if lord and total(army) == 0 and defender_units != seat:
            return _("your lord may not end a step in {county} without your units", county=t)
        after = dict(state["board"][t]["units"]) if defender_units == seat else empty_army()
        for a in ARMS:
            after[a] += army[a]
        why = castle_fits(state, t, after)
        if why:
            return why
    plan.attack, plan.hostile = attack, hostile
    return ""


def _veto(state: State, seat: str, what: str) -> list[str]:
    """The overlord's standing veto over this vassal (rulebook p. 11; DP20)."""
    p = state["players"][seat]
    if p["status"] != "vassal" or not p["overlord"]:
        return []
    return state["players"][p["overlord"]]["standing"].get("veto", {}).get(what, [])


def _vetoed(state: State, seat: str, takes: list[tuple[str, Army]]) -> str:
    veto = _veto(state, seat, "leave")
    if not veto:
        return ""
    for c, want in takes:
        s = state["board"].get(c)
        if s and total(s["units"]) - total(want) <= 0 and ("all" in veto or c in veto):
            return _("your overlord vetoes giving up {county}", county=c)
    return ""


def do_step(state: State, log: Log, seat: str, mv: Move) -> str:
    """Carry out `mv` if legal; returns the reason it was skipped, or ""."""
    why, plan = check_step(state, seat, mv)
    if why:
        return why
    gm = gmap(state)
    p = state["players"][seat]
    t = mv.target
    for c, want in plan.takes:
        if total(want):
            remove_units(state, c, want)
            b = battle_at(state, c)
            if b is not None:
                b["free"] = b["free"] - total(want)
    army, lord = plan.army, plan.lord
    if lord:
        p["lord_moved"] = True
        p["lord"] = t
    name = gm.counties[t].name
    n = total(army)
    desc = _movers(n, lord)
    if plan.attack:
        _start_battle(state, log, seat, t, plan)
        log.public("step", _("{seat} attacks {county} ({terrain}) with {units}; the battle waits "
                             "for phase IV.", seat=seat, county=name,
                             terrain=TERRAINS[gm.counties[t].terrain], units=desc),
                   seat=seat, target=t, units=n, lord=lord)
        log.private([seat], "step_detail", _("Your attacking army at {county}: {army}.",
                                             county=name, army=fmt_army(army)), army=army)
    else:
        if n:
            add_units(state, t, seat, army, used=True)
        log.public("step", _("{seat} moves {units} into {county}.", seat=seat, units=desc,
                             county=name), seat=seat, target=t, units=n, lord=lord)
        log.private([seat], "step_detail", _("Moved into {county}: {army}.", county=name,
                                             army=fmt_army(army, lord)), army=army)
    return ""


def _movers(n: int, lord: bool) -> Msg:
    """'3 units and the lord': the movers of a step as others see them."""
    if lord:
        return n_("{n} unit and the lord", "{n} units and the lord", n)
    return n_("{n} unit", "{n} units", n)


def new_battle(state: State, county: str, attacker: str, army: Army,
               origins: dict[str, Army], lord: bool) -> Battle:
    state["battle_seq"] += 1
    return {"county": county, "attacker": attacker, "army": army, "origins": origins,
            "lord": lord, "seq": state["battle_seq"], "pinned": False, "free_owner": None,
            "free": 0}


def _start_battle(state: State, log: Log, seat: str, t: str, plan: Plan) -> None:
    """The attackers wait in `t` for phase IV (rulebook p. 9); pinning and the lord
    freeze take effect at once (advanced p. 14)."""
    defender = controller(state, t) or owner_of_units(state, t)
    m = total(state["board"][t]["units"]) if t in state["board"] else 0
    n = total(plan.army)
    battle = new_battle(state, t, seat, plan.army, plan.origins, plan.lord)
    if plan.lord:
        state["players"][seat]["lord_attacking"] = True
    if state["options"]["pinning"]:
        # Advanced 6.2 (p. 14; spec 5.4.7): n >= 2m pins; m > 2n frees m - 2n defenders.
        battle["pinned"] = n >= 2 * m and m > 0
        if m > 2 * n and not is_neutral(state, defender):
            battle["free_owner"] = defender
            battle["free"] = m - 2 * n
    state["battles"].append(battle)
    victim = lord_at(state, t)
    if victim is not None and victim != seat and state["options"]["lord_freeze"]:
        if not battle["free"]:
            state["players"][victim]["frozen"] = True
            log.public("freeze", _("{seat}'s lord is attacked in {county}: {seat} may make no "
                                   "more steps this year.", seat=victim,
                                   county=gmap(state).counties[t].name), seat=victim)


def judge_move(state: State, seat: str, mv: Move, now: bool) -> Verdict:
    """A MOVE line on arrival: refused when it cannot be made whatever the others do (units
    that are not there, out of reach, the lord elsewhere), with what is possible; else a
    Note when, as the board stands, it would be skipped. `now`: the step is made at once
    (an answer in strict movement), so every problem is final."""
    why, _plan = check_step(state, seat, mv)
    if not why:
        return None
    if not in_play(state, mv.target):
        return _("{county} is out of play", county=mv.target)
    for part in mv.parts:
        never = _never(state, seat, mv.target, part)
        if never:
            return never
    return why if now else Note(_("as the board stands now this step would be skipped: {why}",
                                  why=why))


def _never(state: State, seat: str, target: str, part: Part) -> str:
    """Why the movers of `part` can never make this step this year ("" if they may): each
    unit moves once, so unmoved units of a county only become fewer."""
    c = part.county
    if not in_play(state, c):
        return _("{county} is out of play", county=c)
    want, avail, _free = _wanted(state, seat, part)
    for a in ARMS:
        if want[a] > avail[a]:
            return _("{county} has {units} of yours that may still move, not {want} {arm}",
                     county=c, units=_listed(avail), want=want[a], arm=ARM_WORDS[a])
    p = state["players"][seat]
    if part.lord and (p["lord"] != c or p["lord_attacking"]):
        return _("your lord is in {where}, not in {county}", where=p["lord"] or _("no county"),
                 county=c)
    if part.lord and p["lord_moved"]:
        return _("your lord has already moved this year")
    if total(want) == 0 and not part.lord:
        return _("{county} has no units of yours that may still move", county=c)
    gm = gmap(state)

    def anywhere(county: str) -> bool:
        return in_play(state, county)
    for m in [a for a in ARMS if want[a]] + (["lord"] if part.lord else []):
        if gm.shortest(c, target, anywhere, MP[m]) is None:
            near = sorted(x for x in gm.counties if x != c and in_play(state, x)
                          and gm.shortest(c, x, anywhere, MP[m]) is not None)
            return _("{target} is out of reach of {mover} from {county} ({mp} MP); it can "
                     "reach {counties}", target=target, mover=ARM_WORDS[m], county=c, mp=MP[m],
                     counties=", ".join(near))
    return ""


def _listed(army: Army) -> str:
    return fmt_army(army) if total(army) else _("no units")
