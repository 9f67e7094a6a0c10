"""Armed combat: attacks, strike-backs, free attacks on fleeing pieces, mandatory melee,
attacks on resources, and capture of bodies.

Rulebook "Fegyveres harc" (2d6 + TK against VSZ, greater hits, at least double doubles
the damage, the defender strikes back at once, below 0 dies, exactly 0 may be healed this
turn), "Menekülés" (+10 TK, +4 FÉ free attacks), "Harc több ellenféllel" (one enemy per
exchange; ranged strike-back at -distance, reduced by own reach), "Speciális sebzések",
"Életerő elszívás", "Fogolyejtés" (capture at -9..0 with a transport piece); spec §5.8-
§5.13.

An exchange is a task: the attacker's blow, a DAMAGE window, the strike-back blow, a
DAMAGE window, then deaths (simultaneity: a piece killed in the exchange still strikes).
Not implemented: the spec's [A] extension letting every other hostile piece on the
attacker's field strike back too (only the attacked piece strikes back, as the rulebook).
"""

from __future__ import annotations

from typing import Any

from pbem.rulesets.cherubion import data
from pbem.rulesets.cherubion.life import damage, destroy_resource, end_status, kill
from pbem.rulesets.cherubion.model import (
    Ctx,
    State,
    board,
    can_act,
    effective_tk,
    effective_vsz,
    fe_bonus,
    has_flag,
    hostile,
    name_of,
    on_board,
    visible_hostiles_at,
)
from pbem.rulesets.cherubion.reactions import enemies, window

RESOURCE_VSZ = 20  # Rulebook "Erőforrások": every resource has VSZ 20


def attack_problem(st: State, att: dict[str, Any], target: str, *, free: bool = False) -> str | None:
    """Why `att` may not attack `target` now (spec §5.8 step 1), or None."""
    if att["loc"] == "gone" or not on_board(att["loc"]):
        return f"{att['id']} is not on the board"
    if not can_act(att):
        return f"{att['id']} cannot attack (asleep, bound or captive)"
    if not free and att["id"] in st["turn"].get("attacked", []):
        return f"{att['id']} has already attacked this turn (one attack per turn)"
    if not free and att["id"] in st["turn"].get("fled", []) and att["reach"] == 0:
        return f"{att['id']} fled instead of attacking"
    b = board(st)
    if target in st["resources"]:
        r = st["resources"][target]
        if not hostile(st, att["owner"], r["owner"]):
            return f"{target} is not an enemy resource"
        d = b.distance(att["loc"], r["field"])
        if d > att["reach"]:
            return f"resource {target} is {d} fields away; {att['id']} reaches {att['reach']}"
        return None
    dfd = st["pieces"].get(target)
    if dfd is None or dfd["loc"] == "gone" or not on_board(dfd["loc"]):
        return f"{target} is not a piece on the board"
    if dfd.get("hidden") or dfd.get("body"):
        return f"{target} cannot be attacked"
    if not hostile(st, att["owner"], dfd["owner"]):
        return f"{target} is not hostile"
    d = b.distance(att["loc"], dfd["loc"])
    if d == 0 and has_flag(att, "no_same_field_attack"):
        return f"{att['name']} cannot attack a piece on its own field (Rulebook: the tank)"
    if d > att["reach"]:
        return f"{target} is {d} fields away; {att['id']} reaches {att['reach']}"
    return None


def blow(ctx: Ctx, att: dict[str, Any], dfd: dict[str, Any], label: str, *,
         tk_mod: int = 0, fe_mod: int = 0) -> dict[str, Any]:
    """One strike: 2d6 + TK against VSZ; on a hit the damage roll, doubled when the total is
    at least twice the VSZ (Rulebook "Fegyveres harc")."""
    st = ctx.state
    rolls = ctx.dice.rolls(2, 6, f"{label} attack, {att['id']} on {dfd['id']}")
    tk = effective_tk(st, att) + tk_mod
    vsz = effective_vsz(st, dfd)
    total = tk + sum(rolls)
    out: dict[str, Any] = {"hit": total > vsz, "dmg": 0, "total": total, "vsz": vsz}
    if not out["hit"]:
        ctx.pub("miss", f"{label}: {name_of(st, att['id'])} rolls {rolls[0]}+{rolls[1]}, "
                f"{tk}+{sum(rolls)}={total} <= VSZ {vsz}: miss", dice=rolls)
        return out
    dmg, faces = data.roll_expr(ctx.dice, att["fe"], f"{label} damage, {att['id']}")
    dmg += fe_bonus(st, att) + fe_mod
    double = total >= 2 * vsz
    if double:
        dmg *= 2
    out["dmg"] = dmg
    ctx.pub("hit", f"{label}: {name_of(st, att['id'])} rolls {rolls[0]}+{rolls[1]}, "
            f"{tk}+{sum(rolls)}={total} > VSZ {vsz}: hit" + (" (double)" if double else "") +
            f"; damage {'+'.join(map(str, faces))} -> {dmg}", dice=rolls, damage=faces)
    return out


def _apply(ctx: Ctx, att: dict[str, Any], dfd: dict[str, Any], b: dict[str, Any],
           label: str) -> None:
    st = ctx.state
    if not b["hit"]:
        return
    dmg = b["dmg"]
    if att["id"] in st["turn"].get("just_barely", []):
        dmg = 1  # card n05 Éppenhogy: the attacker's damage is 1 for the rest of the turn
    damage(ctx, dfd, dmg, label, att["owner"])
    if has_flag(att, "life_drain") and att["loc"] == dfd["loc"] and att["ep"] < att["max"]:
        gain = min(2, att["max"] - att["ep"])  # Rulebook "Életerő elszívás": +2, max cap
        att["ep"] += gain
        ctx.pub("drain", f"{name_of(st, att['id'])} drains {gain} ÉP -> {att['ep']}")
    sd = att.get("special", 0)
    if sd:
        dfd.setdefault("burn", 0)
        dfd["burn"] = max(dfd["burn"], sd)  # Rulebook "Speciális sebzések": no stacking


def can_strike_back(st: State, dfd: dict[str, Any], att: dict[str, Any]) -> bool:
    if dfd["loc"] == "gone" or not on_board(dfd["loc"]) or not can_act(dfd):
        return False
    if dfd.get("hidden") or dfd["id"] in st["turn"].get("struck", []):
        return False
    if not att["loc"] or not on_board(att["loc"]):
        return False
    d = board(st).distance(dfd["loc"], att["loc"])
    if d == 0 and has_flag(dfd, "no_same_field_attack"):
        return False  # Rulebook: the tank cannot strike back on its own field
    plan = [x for x in st["players"][dfd["owner"]]["standing"].get("strikeback", {})
            .get(dfd["id"], []) if st["pieces"].get(x, {}).get("loc", "gone") != "gone"]
    if plan and att["id"] not in plan:  # (a plan whose attackers all died lapses)
        # Rulebook "Harc több ellenféllel": the player decides whom his attacked piece
        # fights, one enemy per round: it saves its strike-back for the listed attackers
        return False
    if d > 0 and dfd["reach"] == 0 and visible_hostiles_at(st, dfd["owner"], dfd["loc"]):
        # Rulebook "Harc több ellenféllel": a piece without range fights the enemy on its
        # own field ("azzal az ellenséggel ... akivel azonos játékmezőn áll"), not the one
        # shooting from afar
        return False
    return True


def task_exchange(ctx: Ctx, task: dict[str, Any]) -> str:
    """One exchange (see module docstring). Returns "done" or "wait"."""
    st = ctx.state
    att = st["pieces"].get(task["att"])
    free = task.get("free", False)
    label = "Free attack" if free else ("Mandatory melee" if task.get("melee") else "Attack")
    if task["stage"] == 0:
        why = attack_problem(st, att, task["dfd"], free=free) if att else "no such piece"
        if why:
            ctx.pub("skipped", f"{label} {task['att']} -> {task['dfd']} skipped: {why}")
            return "done"
        if free and _ask_free_attack(ctx, att, st["pieces"][task["dfd"]]):
            return "wait"
        if free and st["players"][att["owner"]]["standing"].get("freeattack") is False:
            ctx.pub("pass", f"{att['owner']} lets {name_of(st, task['dfd'])} flee from "
                    f"{name_of(st, att['id'])} without a free attack")
            return "done"
        turn = st["turn"]
        if att.get("hidden"):
            # a hidden or invisible piece is revealed when it attacks (spec §2.8 n14)
            from pbem.rulesets.cherubion.movement import reveal_piece
            reveal_piece(ctx, att, "it attacks")
        if not free:
            turn.setdefault("attacked", []).append(att["id"])
        if att["owner"] == st["active"]:
            turn["combat"] = True
        if task["dfd"] in st["resources"]:
            _attack_resource(ctx, att, task["dfd"])
            return "done"
        dfd = st["pieces"][task["dfd"]]
        cf = turn.setdefault("combat_fields", [])
        cf += [f for f in (att["loc"], dfd["loc"]) if f not in cf]
        if dfd["owner"] == st["active"] or att["owner"] == st["active"]:
            turn["combat"] = True
        task["a"] = blow(ctx, att, dfd, label, tk_mod=10 if free else 0, fe_mod=4 if free else 0)
        task["stage"] = 1
    dfd = st["pieces"][task["dfd"]]
    if task["stage"] == 1:
        if task["a"]["hit"] and window(ctx, task, "DAMAGE", enemies(st, att["owner"]), {
                "victim": dfd["id"], "attacker": att["id"], "damage": task["a"]["dmg"],
                "mine_of": {dfd["owner"]: dfd["id"]}}):
            return "wait"
        _apply(ctx, att, dfd, task["a"], label)
        task["answered"] = []
        task["stage"] = 3
        if not free and can_strike_back(st, dfd, att):
            st["turn"].setdefault("struck", []).append(dfd["id"])
            d = board(st).distance(dfd["loc"], att["loc"])
            penalty = max(0, d - dfd["reach"])  # Rulebook "Harc több ellenféllel"
            task["b"] = blow(ctx, dfd, att, "Strike-back", tk_mod=-penalty)
            task["stage"] = 2
    if task["stage"] == 2:
        if task["b"]["hit"] and window(ctx, task, "DAMAGE", enemies(st, dfd["owner"]), {
                "victim": att["id"], "attacker": dfd["id"], "damage": task["b"]["dmg"],
                "mine_of": {att["owner"]: att["id"]}}):
            return "wait"
        _apply(ctx, dfd, att, task["b"], "Strike-back")
        task["stage"] = 3
    # deaths at the end of the exchange (Rulebook example: the dying enemy still strikes);
    # a victim at -9..0 may be captured instead: the ATTACK line's CAPTURE carrier, else
    # the blow's owner's CAPTURE standing order (also for the strike-back's victim)
    capture_or_kill(ctx, att["owner"], dfd, f"killed by {name_of(st, att['id'])}",
                    task.get("capture", ""))
    capture_or_kill(ctx, dfd["owner"], att, f"killed by {name_of(st, dfd['id'])}")
    return "done"


def standing_carrier(st: State, seat: str, victim: dict[str, Any]) -> str:
    """The carrier `seat`'s CAPTURE standing order gives for `victim`, or "": the named
    transport piece if it has room, or with ANY the one of his with room nearest to it."""
    want = st["players"][seat]["standing"].get("capture")
    if not want or want == "NO" or not on_board(victim["loc"]):
        return ""
    from pbem.rulesets.cherubion.cards import has_room
    b = board(st)
    free = [q for q in st["pieces"].values() if q["owner"] == seat and on_board(q["loc"])
            and has_room(st, q) and want in ("ANY", q["id"])]
    if not free:
        return ""
    return min(free, key=lambda q: (b.distance(q["loc"], victim["loc"]), q["id"]))["id"]


def capture_or_kill(ctx: Ctx, seat: str, victim: dict[str, Any], why: str,
                    carrier: str = "") -> None:
    """A blow of `seat` has left `victim` where it is: below 0 it dies, unless (at -9..0)
    `seat` captures it (Rulebook "Fogolyejtés": whenever an enemy character is wounded to
    9..0 and the attacker has a transport piece); at exactly 0 it is captured if a carrier
    is given, else it waits for the end step (it may still be healed)."""
    st = ctx.state
    if victim["loc"] == "gone" or victim.get("body") or victim["ep"] > 0:
        return
    carrier = carrier or standing_carrier(st, seat, victim)
    if carrier and hostile(st, seat, victim["owner"]) and \
            _capture(ctx, seat, victim, carrier):
        return
    if victim["ep"] < 0:
        kill(ctx, victim, why, seat)


def _attack_resource(ctx: Ctx, att: dict[str, Any], rid: str) -> None:
    """[A] spec §5.6: a piece may spend its attack on an enemy resource; it never strikes
    back."""
    st = ctx.state
    r = st["resources"][rid]
    rolls = ctx.dice.rolls(2, 6, f"attack, {att['id']} on resource {rid}")
    total = effective_tk(st, att) + sum(rolls)
    if total <= RESOURCE_VSZ:
        ctx.pub("miss", f"{name_of(st, att['id'])} attacks resource {rid}: rolls "
                f"{rolls[0]}+{rolls[1]}, {total} <= VSZ 20: miss")
        return
    dmg, faces = data.roll_expr(ctx.dice, att["fe"], f"damage, {att['id']} on {rid}")
    dmg += fe_bonus(st, att)
    if total >= 2 * RESOURCE_VSZ:
        dmg *= 2
    r["ep"] -= dmg
    ctx.pub("hit", f"{name_of(st, att['id'])} attacks resource {rid}: rolls "
            f"{rolls[0]}+{rolls[1]}, {total} > VSZ 20: hit; damage "
            f"{'+'.join(map(str, faces))} -> {dmg}; resource at {r['ep']} ÉP")
    if r["ep"] <= 0:
        destroy_resource(ctx, rid, f"attacked by {name_of(st, att['id'])}", by=att["owner"])


def _capture(ctx: Ctx, seat: str, dfd: dict[str, Any], carrier_id: str) -> bool:
    """Rulebook "Fogolyejtés": an enemy character brought to -9..0 may be captured if the
    attacker has a transport piece (spec §5.13: anywhere on the board, with room). The body
    stays on its field until the transporter fetches it."""
    from pbem.rulesets.cherubion.cards import has_room
    st = ctx.state
    if not carrier_id or dfd["summoned"] or not -9 <= dfd["ep"] <= 0:
        return False
    carrier = st["pieces"].get(carrier_id)
    if carrier is None or carrier["owner"] != seat or not on_board(carrier["loc"]) \
            or not has_room(st, carrier):
        ctx.pub("capture_fail", f"No capture: {carrier_id} is not a transport piece with room "
                "on the board")
        return False
    dfd["body"] = {"by": carrier_id, "holder": seat, "dead": True, "clock": 0,
                   "carried": carrier["loc"] == dfd["loc"], "turn_no": st["turn_no"]}
    end_status(st, dfd)
    st["players"][seat]["transit"].append(dfd["id"])
    ctx.pub("capture", f"{seat} captures the body of {dfd['name']} ({dfd['id']}) at "
            f"{dfd['ep']} ÉP; {name_of(st, carrier_id)} must carry it home")
    # a captured body is no longer its owner's character: if it was his last, the capturer
    # destroyed it and takes his Base now (Rulebook "A játék alapjai": "a Bázisa átmegy
    # annak a játékosnak a tulajdonába, aki az utolsó karakterét ... elpusztította").
    # A body at exactly 0 may still be healed by its owner this turn (the end step's ZERO
    # window), which cancels the capture: that check waits for the end step.
    if dfd["ep"] < 0:
        from pbem.rulesets.cherubion.life import check_elimination
        check_elimination(ctx, seat)
    return True


def _ask_free_attack(ctx: Ctx, att: dict[str, Any], dfd: dict[str, Any]) -> bool:
    """decisions=ask (spec DP8): a seat without a FREEATTACK standing order is asked once
    per turn whether to take its free attacks; the answer (FREEATTACK YES/NO) becomes its
    standing order; PASS or no answer takes them this time (the `auto` default)."""
    st = ctx.state
    seat = att["owner"]
    if st["config"]["options"].get("decisions", "auto") != "ask" or \
            st["players"][seat]["standing"].get("freeattack") is not None:
        return False
    asked = st["turn"].setdefault("free_asked", [])
    if seat in asked:
        return False
    asked.append(seat)
    st["ask"] = {"seat": seat, "event": "FREEATTACK", "info": {"piece": dfd["id"]},
                 "options": ["FREEATTACK YES", "FREEATTACK NO"],
                 "text": (f"{name_of(st, dfd['id'])} flees from {dfd['loc']}: your "
                          f"{name_of(st, att['id'])} (and any other piece of yours engaged "
                          "with it) may make a free attack at +10 TK, +4 damage. Your answer "
                          "stays as your standing FREEATTACK order; PASS takes them this "
                          "time.")}
    return True


def free_attack_tasks(st: State, p: dict[str, Any]) -> list[dict[str, Any]]:
    """Every hostile piece engaged with a fleeing piece may make one free attack at +10 TK,
    +4 damage (Rulebook "Menekülés"); each seat's FREEATTACK standing order (default YES,
    spec DP8) decides; Ködfátyol (n07) cancels them all."""
    if p["id"] in st["turn"].get("mist", []):
        return []
    out = []
    for q in sorted(visible_hostiles_at(st, p["owner"], p["loc"]), key=lambda q: q["id"]):
        if not can_act(q) or has_flag(q, "no_same_field_attack"):
            continue
        if not st["players"][q["owner"]]["standing"].get("freeattack", True):
            continue
        out.append({"t": "exchange", "att": q["id"], "dfd": p["id"], "free": True, "stage": 0})
    return out


def melee_tasks(st: State, seat: str) -> list[dict[str, Any]]:
    """Mandatory melee (spec §4.1 step 3 [A], from "the fight goes on until one dies or
    flees"): every engaged piece of the active seat that neither attacked nor fled makes
    one attack on a hostile piece on its field (the one with the lowest ÉP)."""
    out = []
    for p in sorted(st["pieces"].values(), key=lambda q: q["id"]):
        if p["owner"] != seat or not on_board(p["loc"]) or p.get("hidden") or p.get("body"):
            continue
        if p["id"] in st["turn"].get("attacked", []) or p["id"] in st["turn"].get("fled", []):
            continue
        if not can_act(p) or has_flag(p, "no_same_field_attack"):
            continue
        foes = visible_hostiles_at(st, seat, p["loc"])
        if not foes:
            continue
        foe = min(foes, key=lambda q: (q["ep"], q["id"]))
        out.append({"t": "exchange", "att": p["id"], "dfd": foe["id"], "stage": 0,
                    "melee": True})
    return out
