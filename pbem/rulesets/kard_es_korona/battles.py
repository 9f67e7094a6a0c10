"""Phase IV, battles and sieges (rulebook 3.6, p. 9-11; advanced 6.3, p. 15; spec 5.10,
5.11, 5.12): the order of battles, fighting each with the owners' battle instructions, and
what follows: captures, the 7-unit overflow, organized retreats (with forced battles),
flight destinations, lone lords and the winner's extra step.

Defeated lords are handed to `defeat.py`. With option decisions=ask, a battle between
players whose owners have sent no standing battle instructions waits for their LEAD /
TARGET / REROLL / FLEE lines for that battle (a short step), see `flow.py`.
"""

from __future__ import annotations

from typing import Any

from pbem.core.dice import Dice
from pbem.core.events import Event
from pbem.rulesets.kard_es_korona import defeat
from pbem.rulesets.kard_es_korona.board import ARMS, MP
from pbem.rulesets.kard_es_korona.combat import Battle, Side, duel, fight
from pbem.rulesets.kard_es_korona.economy import card_effect
from pbem.rulesets.kard_es_korona.movement import castle_fits, passable_for
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
    total,
    turn_order,
)

DEFAULT_LEAD = {"open": ("arch", "cav", "inf"), "terrain": ("arch", "inf", "cav"),
                "siege": ("arch", "inf", "cav")}
DEFAULT_TARGET = {"open": ("cav", "arch", "inf"), "terrain": ("arch", "inf", "cav"),
                  "siege": ("arch", "inf", "cav")}
DEFAULT_VOLLEY = ("inf", "cav", "arch")  # kill those who fight in the first melee first
DEFAULT_REROLL = 2


def kind_of(state: St, county: str) -> str:
    t = gmap(state).counties[county].terrain
    return "siege" if t == "castle" else ("open" if t == "plain" else "terrain")


def has_lord(state: St, b: dict[str, Any]) -> bool:
    return bool(b["lord"]) or lord_at(state, b["county"]) is not None


def next_battle(state: St) -> dict[str, Any] | None:
    """Rulebook p. 11; spec 5.10: battles with a lord first, in the order of their steps;
    then open and terrain battles, then sieges, each in the attackers' rotation from the
    start player (a player fights his own battles in the order of his steps, DP8)."""
    bs = state["battles"]
    if not bs:
        return None
    lordly = [b for b in bs if has_lord(state, b)]
    if lordly:
        return min(lordly, key=lambda b: b["seq"])
    stage = "open" if any(kind_of(state, b["county"]) != "siege" for b in bs) else "siege"
    rot = state.get("rotation") or {"stage": stage, "next": 0}
    if rot["stage"] != stage:
        rot = {"stage": stage, "next": 0}
    order = turn_order(state)
    for k in range(len(order)):
        i = (rot["next"] + k) % len(order)
        mine = [b for b in bs if b["attacker"] == order[i]
                and (kind_of(state, b["county"]) == "siege") == (stage == "siege")]
        if mine:
            state["rotation"] = {"stage": stage, "next": (i + 1) % len(order)}
            return min(mine, key=lambda b: b["seq"])
    # attackers no longer in the rotation (cannot happen, but never loop)
    return min(bs, key=lambda b: b["seq"])


def instructions(state: St, seat: str, kind: str, seq: int) -> dict[str, Any]:
    """The seat's battle instructions: lines sent for this battle (ask mode), else its
    standing orders, else the documented defaults."""
    p = state["players"][seat]
    st = dict(p["standing"])
    once = p.get("battle_orders") or {}
    if once.get("seq") == seq:
        st.update({k: v for k, v in once.items() if k != "seq"})
    lead = st.get("lead", {})
    target = st.get("target", {})
    return {
        "lead": tuple(lead.get(kind) or lead.get("all") or DEFAULT_LEAD[kind]),
        "target": tuple(target.get(kind) or target.get("all") or DEFAULT_TARGET[kind]),
        "volley": tuple(target.get("volley") or target.get(kind) or target.get("all")
                        or DEFAULT_VOLLEY),
        "reroll": st.get("reroll", DEFAULT_REROLL),
        "flee": st.get("flee", 0),
    }


def make_side(state: St, owner: str, army: dict[str, int], lord: bool, kind: str,
              seq: int) -> Side:
    if is_neutral(state, owner):
        return Side(owner, "royal troops" if owner == "royal" else f"neutral {owner[2:]}",
                    dict(army), False, True)
    ins = instructions(state, owner, kind, seq)
    return Side(owner, owner, dict(army), lord, False, ins["lead"], ins["target"],
                ins["volley"], ins["reroll"], ins["flee"])


def needs_instructions(state: St, b: dict[str, Any]) -> list[str]:
    """Ask mode: the player sides of this battle without standing battle instructions."""
    if state["opts"].get("decisions") != "ask":
        return []
    out: list[str] = []
    defender = owner_of_units(state, b["county"])
    if defender is None:  # nobody to fight, or a lone lord defeated without dice (PR-22)
        return out
    for s in (b["attacker"], defender):
        if s is None or is_neutral(state, s) or s in out:
            continue
        p = state["players"][s]
        if not p["standing"].get("battle_set") and (p.get("battle_orders") or {}).get(
                "seq") != b["seq"]:
            out.append(s)
    return out


def run_battles(state: St, dice: Dice, events: list[Event], over) -> str:
    """Fight every pending battle. Returns "done", "ask" (a decision is awaited) or "over"."""
    while True:
        if over():
            return "over"
        if state["pending"]:
            r = defeat.run_pending(state, dice, events)
            if r == "ask":
                return "ask"
            continue
        chosen = state.pop("chosen_battle", None)
        b = next((x for x in state["battles"] if x["seq"] == chosen), None)
        if b is None:
            b = next_battle(state)
        if b is None:
            state["rotation"] = None
            return "done"
        need = needs_instructions(state, b)
        if need:
            state["chosen_battle"] = b["seq"]  # fight this one when the answers are in
            state["ask"] = {"kind": "battle", "seq": b["seq"], "seats": need,
                            "county": b["county"]}
            return "ask"
        fight_one(state, b, dice, events)


def fight_one(state: St, b: dict[str, Any], dice: Dice, events: list[Event],
              forced: bool = False) -> str:
    """Fight battle `b` and apply its result. Returns who won: "attacker"/"defender"/""."""
    gm = gmap(state)
    county = b["county"]
    name = gm.counties[county].name
    state["fighting"] = b["seq"]
    if b in state["battles"]:
        state["battles"].remove(b)
    attacker = b["attacker"]
    ap = state["players"][attacker]
    kind = kind_of(state, county)
    d_owner = owner_of_units(state, county)
    d_lord = lord_at(state, county)
    d_army = dict(state["board"][county]["u"]) if d_owner else empty_army()
    defender = d_owner or d_lord
    if b["lord"]:
        ap["lord_attacking"] = False
    if defender is None or defender == attacker:
        # the defenders vanished (e.g. replaced after a lord's defeat): the attackers move in
        _occupy(state, attacker, b, county, b["army"], b["lord"], events, dice, forced)
        events.append(Event("battle", f"No defenders are left in {name}: {attacker} moves in.",
                            {"county": county}))
        return "attacker"
    if allied(state, attacker, defender):
        # The defender swore fealty to the attacker (or the reverse) after the step: the two
        # never fight (rulebook p. 11), so the attack is called off and the army retreats.
        events.append(Event("battle", f"{attacker} and {defender} are now overlord and "
                            f"vassal: the attack on {name} is called off.", {"county": county}))
        retreat(state, attacker, b["army"], b["lord"], b["origins"], county, events, dice,
                forced=forced)
        return ""
    if d_owner is None and d_lord is not None:
        # PR-22: a lone lord who is attacked is defeated without dice.
        events.append(Event("battle", f"{attacker} attacks the lone lord of {d_lord} in {name}.",
                            {"county": county}))
        _occupy(state, attacker, b, county, b["army"], b["lord"], events, dice, forced)
        defeat.defeat_lord(state, d_lord, attacker, county, events, dice, killed=False)
        return "attacker"
    if kind == "siege" and card_effect(state) == "rain" and not forced:
        roll = dice.roll(6, f"{name}, Esős ősz: does the siege go ahead ({attacker})")
        if roll <= 2 and state["offices"]["judge"] == attacker:
            roll = dice.roll(6, f"{name}, Esős ősz: Judge Royal reroll ({attacker})")
        if roll <= 2:
            events.append(Event("battle", f"Rainy autumn: {attacker}'s siege of {name} is "
                                f"called off (rolled {roll}); the besiegers retreat.",
                                {"county": county, "roll": roll}))
            retreat(state, attacker, b["army"], b["lord"], b["origins"], county, events, dice,
                    forced=False)
            return "defender"
        events.append(Event("battle", f"Rainy autumn: {attacker} rolls {roll}; the siege of "
                            f"{name} goes ahead.", {"county": county, "roll": roll}))
    att = make_side(state, attacker, b["army"], b["lord"], kind, b["seq"])
    dfn = make_side(state, defender, d_army, d_lord is not None, kind, b["seq"])
    bt = Battle(county, name, kind, att, dfn, vintage=card_effect(state) == "vintage",
                flight=bool(state["opts"].get("flight")) and not forced)
    if bt.flight:
        bt.can_flee = {"att": bool(flight_destination(state, attacker, b, county, True)),
                       "dfn": bool(flight_destination(state, defender, b, county, False))}
    events.append(Event("battle", f"{'Siege' if kind == 'siege' else 'Battle'} of {name} "
                        f"({kind}): {attacker} {fmt_army(att.army, att.lord)} against "
                        f"{dfn.name} {fmt_army(dfn.army, dfn.lord)}.",
                        {"county": county, "kind": kind}))
    judge = state["offices"]["judge"]
    fight(bt, dice, judge)
    for line in bt.log:
        events.append(Event("combat", line, {"county": county}))
    return _aftermath(state, b, bt, defender, d_lord, dice, events, forced)


def _aftermath(state: St, b: dict[str, Any], bt: Battle, defender: str, d_lord: str | None,
               dice: Dice, events: list[Event], forced: bool) -> str:
    county = b["county"]
    name = bt.place
    attacker = b["attacker"]
    gm = gmap(state)
    # the defenders' survivors stay (they have fought: used)
    state["board"].pop(county, None)
    if bt.outcome == "fled":
        return _after_flight(state, b, bt, defender, d_lord, dice, events)
    if bt.dfn.units > 0:
        add_units(state, county, defender, bt.dfn.army, used=True)
    if bt.outcome == "attacker":
        events.append(Event("battle_end", f"{attacker} wins at {name}: "
                            f"{fmt_army(bt.att.army, bt.att.lord)} remain.", {"county": county}))
        _occupy(state, attacker, b, county, bt.att.army, b["lord"], events, dice, forced)
        if d_lord is not None:
            defeat.defeat_lord(state, d_lord, attacker, county, events, dice, killed=False)
        return "attacker"
    if bt.outcome == "siege_failed":
        events.append(Event("battle_end", f"The siege of {name} fails; {defender} holds.",
                            {"county": county}))
        if forced:
            events.append(Event("battle_end", f"{attacker}'s forced attackers are lost.",
                                {"county": county}))
            if b["lord"]:
                defeat.defeat_lord(state, attacker, defender, county, events, dice, killed=False)
            return "defender"
        retreat(state, attacker, bt.att.army, b["lord"], b["origins"], county, events, dice)
        return "defender"
    if bt.outcome == "defender":
        events.append(Event("battle_end", f"{bt.dfn.name} holds {name} with "
                            f"{fmt_army(bt.dfn.army, bt.dfn.lord)}.", {"county": county}))
        if b["lord"]:
            defeat.defeat_lord(state, attacker, defender, county, events, dice, killed=False)
        return "defender"
    # both armies gone in the same exchange (rulebook p. 11)
    if b["lord"] and d_lord is not None:
        events.append(Event("battle_end", f"Both armies at {name} are wiped out: the lords of "
                            f"{attacker} and {d_lord} fight a duel.", {"county": county}))
        win = duel(bt, dice, state["offices"]["judge"])
        for line in bt.log[len(bt.log) - 0:]:
            events.append(Event("combat", line, {"county": county}))
        winner, loser = (attacker, d_lord) if win == "att" else (d_lord, attacker)
        for line in _duel_lines(bt):
            events.append(Event("combat", line, {"county": county}))
        events.append(Event("duel", f"{winner}'s lord wins the duel at {name}; {loser}'s lord "
                            "is killed.", {"winner": winner, "loser": loser}))
        state["players"][winner]["lord"] = county
        defeat.defeat_lord(state, loser, winner, county, events, dice, killed=True)
        extra_step(state, winner, events)
        return "attacker" if winner == attacker else "defender"
    if b["lord"]:
        events.append(Event("battle_end", f"Both armies at {name} are wiped out; {attacker}'s "
                            "lord survives alone and holds the county.", {"county": county}))
        state["players"][attacker]["lord"] = county
        extra_step(state, attacker, events)
        return "attacker"
    if d_lord is not None:
        events.append(Event("battle_end", f"Both armies at {name} are wiped out; {d_lord}'s "
                            "lord survives alone and holds the county.", {"county": county}))
        extra_step(state, d_lord, events)
        return "defender"
    events.append(Event("battle_end", f"Both armies at {name} are wiped out; the county is "
                        "empty.", {"county": county}))
    _ = gm
    return ""


def _duel_lines(bt: Battle) -> list[str]:
    return [line for line in bt.log if line.startswith("Duel exchange")]


def _occupy(state: St, seat: str, b: dict[str, Any], county: str, army: dict[str, int],
            lord: bool, events: list[Event], dice: Dice, forced: bool) -> None:
    """The winners take the county; at most 7 stay in a castle (advanced: 4 of an arm),
    the rest retreat to where they came from (rulebook p. 11; spec 5.11, 5.13)."""
    keep, out = fit_castle(state, county, army)
    if total(keep):
        add_units(state, county, seat, keep, used=True)
    if lord:
        state["players"][seat]["lord"] = county
    if total(out):
        events.append(Event("overflow", f"Only {total(keep)} may stay in the castle of "
                            f"{gmap(state).counties[county].name}; {fmt_army(out)} retreat.",
                            {"county": county}))
        retreat(state, seat, out, False, b["origins"], county, events, dice, forced=forced)


# SPEC-AMBIGUITY (DP13 default): "the strongest units stay" read as the best castle
# defenders: archers (they shoot first, at +1), then infantry, then cavalry (dismounted).
KEEP_ORDER = ("arch", "inf", "cav")


def fit_castle(state: St, county: str, army: dict[str, int],
               base: dict[str, int] | None = None) -> tuple[dict[str, int], dict[str, int]]:
    """Split `army` into what may stand in `county` (on top of `base`) and the excess."""
    keep = empty_army()
    base = base or empty_army()
    for a in KEEP_ORDER:
        for _ in range(army.get(a, 0)):
            trial = {x: base[x] + keep[x] + (1 if x == a else 0) for x in ARMS}
            if not castle_fits(state, county, trial):
                keep[a] += 1
    out = {a: army.get(a, 0) - keep[a] for a in ARMS}
    return keep, out


def retreat(state: St, seat: str, army: dict[str, int], lord: bool,
            origins: dict[str, dict[str, int]], county: str, events: list[Event], dice: Dice,
            forced: bool = False) -> None:
    """Organized retreat (rulebook p. 11; spec 5.11, PR-23, PR-38): to an origin county if
    it is still own or empty, else any adjacent own or empty county, within castle limits;
    if every neighbour is held by others, a forced attack on the first of them in his RETREAT
    list, else on the weakest (DP14)."""
    gm = gmap(state)
    left = dict(army)
    p = state["players"][seat]
    once = p.get("battle_orders") or {}
    prefs = (once["retreat"] if once.get("seq") == state.get("fighting") and "retreat" in once
             else p["standing"].get("retreat", []))
    adj = [c for c in gm.adjacent(county) if in_play(state, c)]

    def ok(c: str) -> bool:
        return (battle_at(state, c) is None and controller(state, c) in (None, seat))

    def units_there(c: str) -> int:
        s = state["board"].get(c)
        return total(s["u"]) if s and s["owner"] == seat else 0
    origin_list = sorted([c for c in origins if c in adj and ok(c)],
                         key=lambda c: (-units_there(c), c))
    others = sorted([c for c in adj if ok(c) and c not in origin_list],
                    key=lambda c: (-units_there(c), c))
    cands = [c for c in prefs if c in origin_list] + [c for c in origin_list if c not in prefs]
    if not origin_list:
        cands = [c for c in prefs if c in others] + [c for c in others if c not in prefs]
    lord_dest = None
    for c in cands:
        if total(left) == 0:
            break
        base = dict(state["board"][c]["u"]) if units_there(c) else empty_army()
        keep, rest = fit_castle(state, c, left, base)
        if total(keep):
            add_units(state, c, seat, keep, used=True)
            events.append(Event("retreat", f"{seat} retreats {fmt_army(keep)} from "
                                f"{gm.counties[county].name} to {gm.counties[c].name}.",
                                {"seat": seat, "to": c}))
            lord_dest = lord_dest or c
        left = rest
    if lord and lord_dest:
        state["players"][seat]["lord"] = lord_dest
        lord = False
    if total(left) == 0 and not lord:
        return
    hostile = [c for c in adj if battle_at(state, c) is None
               and controller(state, c) not in (None, seat)
               and not allied(state, seat, controller(state, c) or "")]
    # SPEC-AMBIGUITY: units of a forced battle that must retreat again, or that find no
    # legal county at all (e.g. only full own castles around), are lost.
    if forced or not hostile or total(left) == 0:
        events.append(Event("retreat", f"{seat}'s {fmt_army(left, lord)} at "
                            f"{gm.counties[county].name} find no way out and are lost.",
                            {"seat": seat}))
        if lord:
            state["players"][seat]["lord"] = county
            winner = controller(state, county) or owner_of_units(state, county) or "royal"
            defeat.defeat_lord(state, seat, winner, county, events, dice, killed=False)
        return
    # DP14: the first hostile county of the player's RETREAT list, else the weakest.
    listed = [c for c in prefs if c in hostile]
    target = listed[0] if listed else min(hostile, key=lambda c: (
        total(state["board"][c]["u"]) if c in state["board"] else 0, c))
    events.append(Event("retreat", f"{seat}'s {fmt_army(left, lord)} are surrounded and must "
                        f"attack {gm.counties[target].name} at once.", {"seat": seat}))
    state["seq"] += 1
    nb = {"county": target, "attacker": seat, "defender": controller(state, target),
          "army": left, "origins": {county: dict(left)}, "lord": lord, "seq": state["seq"]}
    if lord:
        state["players"][seat]["lord"] = target
        state["players"][seat]["lord_attacking"] = True
    fight_one(state, nb, dice, events, forced=True)


def flight_destination(state: St, seat: str, b: dict[str, Any], county: str,
                       attacking: bool) -> str | None:
    """Advanced 6.3 (p. 15; spec 5.12): an attacker flees to a county one of its units came
    from, a defender to an adjacent own or empty county other than the attackers' origins;
    failing that any adjacent empty county. Never into others' units (PR-26)."""
    if is_neutral(state, seat):
        return None
    gm = gmap(state)
    adj = [c for c in gm.adjacent(county) if in_play(state, c) and battle_at(state, c) is None]
    own_or_empty = [c for c in adj if controller(state, c) in (None, seat)
                    and (owner_of_units(state, c) in (None, seat))]
    if attacking:
        first = [c for c in sorted(b["origins"]) if c in own_or_empty]
    else:
        first = [c for c in own_or_empty if c not in b["origins"]]
    if first:
        return first[0]
    empty = [c for c in adj if owner_of_units(state, c) is None and controller(state, c) is None]
    return empty[0] if empty else None


def _after_flight(state: St, b: dict[str, Any], bt: Battle, defender: str, d_lord: str | None,
                  dice: Dice, events: list[Event]) -> str:
    gm = gmap(state)
    county = b["county"]
    attacker = b["attacker"]
    fled_att = bt.fled == "att"
    seat = attacker if fled_att else defender
    stayer = defender if fled_att else attacker
    army = dict(bt.att.army if fled_att else bt.dfn.army)
    lord = bool(b["lord"]) if fled_att else d_lord is not None
    stay_army = bt.dfn.army if fled_att else bt.att.army
    if fled_att:
        if total(stay_army):
            add_units(state, county, stayer, stay_army, used=True)
    else:  # the attackers take the county, within the castle limits
        _occupy(state, attacker, b, county, stay_army, b["lord"], events, dice, False)
    dest = flight_destination(state, seat, b, county, fled_att)
    if dest is None or total(army) == 0:
        events.append(Event("flight", f"{seat}'s fleeing army is destroyed.", {"seat": seat}))
        if lord:
            state["players"][seat]["lord"] = county
            defeat.defeat_lord(state, seat, stayer, county, events, dice, killed=False)
        return "defender" if fled_att else "attacker"
    if gm.counties[dest].obstacle or gm.river[(county, dest)]:
        n = total(army)
        arrive = n // 2  # rulebook p. 15: halved, rounded down (PR-27)
        losses = n - arrive
        order = state["players"][seat]["standing"].get("losses", ["inf", "arch", "cav"])
        for a in order:
            k = min(losses, army[a])
            army[a] -= k
            losses -= k
        events.append(Event("flight", f"Fleeing across an obstacle into "
                            f"{gm.counties[dest].name}: only {arrive} of {n} units arrive.",
                            {"seat": seat}))
    base = dict(state["board"][dest]["u"]) if owner_of_units(state, dest) == seat else \
        empty_army()
    keep, rest = fit_castle(state, dest, army, base)
    if total(keep):
        add_units(state, dest, seat, keep, used=True)
    events.append(Event("flight", f"{seat} flees from {gm.counties[county].name} to "
                        f"{gm.counties[dest].name} with {fmt_army(keep, lord)}.",
                        {"seat": seat, "to": dest}))
    if total(keep) == 0 and lord:
        state["players"][seat]["lord"] = county
        defeat.defeat_lord(state, seat, stayer, county, events, dice, killed=False)  # PR-49
    elif lord:
        state["players"][seat]["lord"] = dest
    return "defender" if fled_att else "attacker"


def extra_step(state: St, seat: str, events: list[Event]) -> None:
    """Rulebook p. 11 (DP19): the lone winning lord moves up to 4 MP to the first county of
    his standing REJOIN list he can reach, else (default) to the own county with most units; if none is in reach, the unmoved units of the strongest own
    county that can reach him join him."""
    p = state["players"][seat]
    here = p["lord"]
    if here is None or p["status"] != "active":
        return
    gm = gmap(state)
    passable = passable_for(state, seat)
    # Standing order REJOIN: the first listed own county the lord can reach.
    for c in p["standing"].get("rejoin", []):
        s = state["board"].get(c)
        if (s is not None and s["owner"] == seat and c != here
                and battle_at(state, c) is None
                and gm.shortest(here, c, passable, MP["lord"]) is not None):
            p["lord"] = c
            events.append(Event("extra_step", f"{seat}'s lord rejoins his army in "
                                f"{gm.counties[c].name} (REJOIN).", {"seat": seat, "to": c}))
            return
    best = None
    for c, s in sorted(state["board"].items()):
        if s["owner"] != seat or c == here or battle_at(state, c) is not None:
            continue
        if gm.shortest(here, c, passable, MP["lord"]) is not None:
            if best is None or total(s["u"]) > total(state["board"][best]["u"]):
                best = c
    if best is not None:
        p["lord"] = best
        events.append(Event("extra_step", f"{seat}'s lord rejoins his army in "
                            f"{gm.counties[best].name}.", {"seat": seat, "to": best}))
        return
    for c, s in sorted(state["board"].items(), key=lambda kv: -total(kv[1]["u"])):
        if s["owner"] != seat or battle_at(state, c) is not None:
            continue
        free = {a: s["u"][a] - s["used"][a] for a in ARMS}
        move = {a: n for a, n in free.items()
                if n and gm.shortest(c, here, passable, MP[a]) is not None}
        move = {a: move.get(a, 0) for a in ARMS}
        keep, _ = fit_castle(state, here, move)
        if total(keep) and total(s["u"]) - total(keep) >= 0:
            from pbem.rulesets.kard_es_korona.state import remove_units
            remove_units(state, c, keep)
            add_units(state, here, seat, keep, used=True)
            events.append(Event("extra_step", f"{seat} brings {fmt_army(keep)} from "
                                f"{gm.counties[c].name} to the lord.", {"seat": seat}))
            return
    events.append(Event("extra_step", f"{seat}'s lord stays alone in {gm.counties[here].name}.",
                        {"seat": seat}))
