"""Armed combat: attacks, strike-backs, free attacks on fleeing pieces, mandatory melee,
attacks on resources, and capture of bodies.

Rulebook "Fegyveres harc" (2d6 + TK against VSZ, greater hits, at least double doubles
the damage, the defender strikes back at once, below 0 dies, exactly 0 may be healed this
turn), "Menekülés" (+10 TK, +4 FÉ free attacks), "Harc több ellenféllel" (one enemy per
exchange; ranged strike-back at -distance, reduced by own reach), "Speciális sebzések",
"Életerő elszívás", "Fogolyejtés" (capture at -9..0 with a transport piece); spec §5.8-
§5.13.

An exchange: the attacker's blow, a DAMAGE window, the strike-back blow, a DAMAGE window,
then deaths (simultaneity: a piece killed in the exchange still strikes). Not implemented:
the spec's [A] extension letting every other hostile piece on the attacker's field strike
back too (only the attacked piece strikes back, as the rulebook says).
"""

from __future__ import annotations

from dataclasses import dataclass

from pbem.core.i18n import _
from pbem.core.kit import Context
from pbem.rulesets.cherubion import data
from pbem.rulesets.cherubion.rules.cards import has_room
from pbem.rulesets.cherubion.rules.life import (
    check_elimination,
    damage,
    destroy_resource,
    end_status,
    kill,
)
from pbem.rulesets.cherubion.rules.markers import reveal_piece
from pbem.rulesets.cherubion.rules.queries import (
    ask_mode,
    board,
    can_act,
    cut_short,
    effective_tk,
    effective_vsz,
    fe_bonus,
    has_flag,
    hostile,
    name_of,
    on_board,
    piece_name,
    visible_hostiles_at,
)
from pbem.rulesets.cherubion.rules.reactions import Item, enemies, window
from pbem.rulesets.cherubion.rules.results import (
    LEFT_THE_GAME,
    Result,
    changed,
    done,
    not_needed,
    refused,
)
from pbem.rulesets.cherubion.state import Piece, State

RESOURCE_VSZ = 20  # Rulebook "Erőforrások": every resource has VSZ 20


STRIKE_BACK = _("Strike-back")


@dataclass(frozen=True)
class Blow:
    hit: bool
    dmg: int = 0


def attack_problem(state: State, att: Piece, target: str, *, free: bool = False) -> str | None:
    """Why `att` may not attack `target` now (spec §5.8 step 1), or None."""
    if att["loc"] == "gone" or not on_board(att["loc"]):
        return _("{piece} is not on the board", piece=att["id"])
    if not can_act(att):
        return _("{piece} cannot attack (asleep, bound or captive)", piece=att["id"])
    if not free and att["id"] in state["turn"].get("attacked", []):
        return _("{piece} has already attacked this turn (one attack per turn)", piece=att["id"])
    if not free and att["id"] in state["turn"].get("fled", []) and att["reach"] == 0:
        return _("{piece} fled instead of attacking", piece=att["id"])
    b = board(state)
    if target in state["resources"]:
        r = state["resources"][target]
        if not hostile(state, att["owner"], r["owner"]):
            return _("{target} is not an enemy resource", target=target)
        d = b.distance(att["loc"], r["field"])
        if d > att["reach"]:
            return _("resource {target} is {d} fields away; {piece} reaches {reach}",
                     target=target, d=d, piece=att["id"], reach=att["reach"])
        return None
    dfd = state["pieces"].get(target)
    if dfd is None or dfd["loc"] == "gone" or not on_board(dfd["loc"]):
        return _("{target} is not a piece on the board", target=target)
    if dfd["hidden"] or dfd["captive"]:
        return _("{target} cannot be attacked", target=target)
    if not hostile(state, att["owner"], dfd["owner"]):
        return _("{target} is not hostile", target=target)
    d = b.distance(att["loc"], dfd["loc"])
    if d == 0 and has_flag(att, "no_same_field_attack"):
        return _("{name} cannot attack a piece on its own field (Rulebook: the tank)",
                 name=piece_name(att["name"]))
    if d > att["reach"]:
        return _("{target} is {d} fields away; {piece} reaches {reach}",
                 target=target, d=d, piece=att["id"], reach=att["reach"])
    return None


def blow(ctx: Context, att: Piece, dfd: Piece, label: str, *, tk_mod: int = 0,
         fe_mod: int = 0) -> Blow:
    """One strike: 2d6 + TK against VSZ; on a hit the damage roll, doubled when the total is
    at least twice the VSZ (Rulebook "Fegyveres harc")."""
    state: State = ctx.state
    rolls = data.rolls(ctx.dice, 2, 6, _("{label} attack, {piece} on {piece2}",
                                   label=label, piece=att["id"], piece2=dfd["id"]))
    tk = effective_tk(state, att) + tk_mod
    vsz = effective_vsz(state, dfd)
    total = tk + sum(rolls)
    if total <= vsz:
        ctx.log.public("miss", _("{label}: {piece} rolls {rolls}+{rolls2}, {tk}+{sum}={total} <= "
                                 "VSZ {vsz}: miss",
                                 label=label, piece=name_of(state, att["id"]), rolls=rolls[0],
                                 rolls2=rolls[1], tk=tk, sum=sum(rolls), total=total, vsz=vsz), dice=rolls)
        return Blow(False)
    dmg, faces = data.roll_expr(ctx.dice, att["fe"], _("{label} damage, {piece}",
                                                       label=label, piece=att["id"]))
    dmg += fe_bonus(state, att) + fe_mod
    double = total >= 2 * vsz
    if double:
        dmg *= 2
    args = {"label": label, "piece": name_of(state, att["id"]), "rolls": rolls[0],
            "rolls2": rolls[1], "tk": tk, "sum": sum(rolls), "total": total, "vsz": vsz,
            "faces": "+".join(map(str, faces)), "dmg": dmg}
    ctx.log.public("hit", _("{label}: {piece} rolls {rolls}+{rolls2}, {tk}+{sum}={total} > VSZ "
                            "{vsz}: hit (double); damage {faces} -> {dmg}", **args) if double
                   else _("{label}: {piece} rolls {rolls}+{rolls2}, {tk}+{sum}={total} > VSZ "
                          "{vsz}: hit; damage {faces} -> {dmg}", **args), dice=rolls, damage=faces)
    return Blow(True, dmg)


def _apply(ctx: Context, att: Piece, dfd: Piece, b: Blow, label: str) -> None:
    state: State = ctx.state
    if not b.hit:
        return
    dmg = b.dmg
    if att["id"] in state["turn"].get("just_barely", []):
        dmg = 1  # card n05 Éppenhogy: the attacker's damage is 1 for the rest of the turn
    damage(ctx, dfd, dmg, label, att["owner"])
    if has_flag(att, "life_drain") and att["loc"] == dfd["loc"] and att["ep"] < att["max_ep"]:
        gain = min(2, att["max_ep"] - att["ep"])  # Rulebook "Életerő elszívás": +2, max cap
        att["ep"] += gain
        ctx.log.public("drain", _("{piece} drains {gain} ÉP -> {ep}",
                                  piece=name_of(state, att["id"]), gain=gain, ep=att["ep"]))
    special = att.get("special", 0)
    if special:
        # Rulebook "Speciális sebzések": X ÉP every turn from the first hit; no stacking
        dfd["burn"] = max(dfd.get("burn", 0), special)


def _damage_window(ctx: Context, att: Piece, dfd: Piece, b: Blow) -> None:
    """W3: every seat hostile to the striker may answer the damage roll."""
    if b.hit:
        window(ctx, Item(None), "DAMAGE", enemies(ctx.state, att["owner"]), {
            "victim": dfd["id"], "attacker": att["id"], "damage": b.dmg,
            "mine_of": {dfd["owner"]: dfd["id"]}})


def strikeback_plan(state: State, dfd: Piece) -> list[str]:
    """The attackers `dfd`'s STRIKEBACK standing order saves its strike-back for (those
    still in play); empty: the first it can reach. A piece without reach has no choice
    (Rulebook "Harc több ellenféllel": it fights the enemy on its own field; only "ha a
    karakter képes távolabbi mezőket támadni" does the player decide): its plan is void."""
    if dfd["reach"] == 0:
        return []
    plans = state["players"][dfd["owner"]]["standing"].get("strikeback", {})
    return [x for x in plans.get(dfd["id"], [])
            if x in state["pieces"] and state["pieces"][x]["loc"] != "gone"]


def can_strike_back(state: State, dfd: Piece, att: Piece) -> bool:
    if dfd["loc"] == "gone" or not on_board(dfd["loc"]) or not can_act(dfd):
        return False
    if dfd["hidden"] or dfd["id"] in state["turn"].get("struck", []):
        return False
    if not att["loc"] or not on_board(att["loc"]):
        return False
    d = board(state).distance(dfd["loc"], att["loc"])
    if d == 0 and has_flag(dfd, "no_same_field_attack"):
        return False  # Rulebook: the tank cannot strike back on its own field
    plan = strikeback_plan(state, dfd)
    if plan and att["id"] not in plan:  # (a plan whose attackers all died lapses)
        # Rulebook "Harc több ellenféllel": the player decides whom his attacked piece
        # fights, one enemy per round: it saves its strike-back for the listed attackers
        return False
    if d > 0 and dfd["reach"] == 0 and visible_hostiles_at(state, dfd["owner"], dfd["loc"]):
        # Rulebook "Harc több ellenféllel": a piece without range fights the enemy on its
        # own field ("azzal az ellenséggel ... akivel azonos játékmezőn áll"), not the one
        # shooting from afar
        return False
    return True


def exchange(ctx: Context, att_id: str, target: str, *, free: bool = False,
             melee: bool = False, capture: str = "") -> Result:
    """One exchange (see the module docstring), and what became of it for the order line
    that asked for it."""
    state: State = ctx.state
    att = state["pieces"].get(att_id)
    label = _("Free attack") if free else (_("Mandatory melee") if melee else _("Attack"))
    why = attack_problem(state, att, target, free=free) if att else _("no such piece")
    if why:
        ctx.log.public("skipped", _("{label} {att_id} -> {target} skipped: {why}",
                                    label=label, att_id=att_id, target=target, why=why))
        return refused(why)
    assert att is not None
    if free and (not _takes_free_attack(ctx, att, state["pieces"][target]) or cut_short(state)):
        return not_needed(_("no free attack"))
    turn = state["turn"]
    if att["hidden"]:
        # a hidden or invisible piece is revealed when it attacks (spec §2.8 n14)
        reveal_piece(ctx, att, _("it attacks"))
    if not free:
        turn.setdefault("attacked", []).append(att["id"])
    if att["owner"] == state["active"]:
        turn["combat"] = True
    if target in state["resources"]:
        _attack_resource(ctx, att, target)
        return done()
    dfd = state["pieces"][target]
    cf = turn.setdefault("combat_fields", [])
    cf += [f for f in (att["loc"], dfd["loc"]) if f not in cf]
    if dfd["owner"] == state["active"] or att["owner"] == state["active"]:
        turn["combat"] = True
    first = blow(ctx, att, dfd, label, tk_mod=10 if free else 0, fe_mod=4 if free else 0)
    _damage_window(ctx, att, dfd, first)
    if cut_short(state):
        return changed(LEFT_THE_GAME)
    _apply(ctx, att, dfd, first, label)
    if not free and can_strike_back(state, dfd, att):
        turn.setdefault("struck", []).append(dfd["id"])
        d = board(state).distance(dfd["loc"], att["loc"])
        penalty = max(0, d - dfd["reach"])  # Rulebook "Harc több ellenféllel"
        back = blow(ctx, dfd, att, STRIKE_BACK, tk_mod=-penalty)
        _damage_window(ctx, dfd, att, back)
        if cut_short(state):
            return changed(LEFT_THE_GAME)
        _apply(ctx, dfd, att, back, STRIKE_BACK)
    # deaths at the end of the exchange (Rulebook example: the dying enemy still strikes);
    # a victim at -9..0 may be captured instead: the ATTACK line's CAPTURE carrier, else
    # the blow's owner's CAPTURE standing order (also for the strike-back's victim)
    failed = capture_or_kill(ctx, att["owner"], dfd, _("killed by {piece}",
                                                       piece=name_of(state, att["id"])),
                             capture)
    capture_or_kill(ctx, dfd["owner"], att, _("killed by {piece}",
                                              piece=name_of(state, dfd["id"])))
    return changed(_("no capture: {failed}", failed=failed)) if failed else done()


def standing_carrier(state: State, seat: str, victim: Piece) -> str:
    """The carrier `seat`'s CAPTURE standing order gives for `victim`, or "": the named
    transport piece if it has room, or with ANY the one of his with room nearest to it."""
    want = state["players"][seat]["standing"].get("capture")
    if not want or want == "NO" or not on_board(victim["loc"]):
        return ""
    b = board(state)
    free = [q for q in state["pieces"].values() if q["owner"] == seat and on_board(q["loc"])
            and has_room(state, q) and want in ("ANY", q["id"])]
    if not free:
        return ""
    return min(free, key=lambda q: (b.distance(q["loc"], victim["loc"]), q["id"]))["id"]


def capture_or_kill(ctx: Context, seat: str, victim: Piece, why: str,
                    carrier: str = "") -> str | None:
    """A blow of `seat` has left `victim` where it is: below 0 it dies, unless (at -9..0)
    `seat` captures it (Rulebook "Fogolyejtés": whenever an enemy character is wounded to
    9..0 and the attacker has a transport piece); at exactly 0 it is captured if a carrier
    is given, else it waits for the end step (it may still be healed). Returns why the
    capture asked for (`carrier`) could not be made, or None."""
    state: State = ctx.state
    if victim["loc"] == "gone" or victim["captive"] or victim["ep"] > 0:
        return None
    failed = None
    named = carrier
    carrier = carrier or standing_carrier(state, seat, victim)
    if carrier and hostile(state, seat, victim["owner"]):
        failed = _capture(ctx, seat, victim, carrier, named=bool(named))
        if failed is None:
            return None
    if victim["ep"] < 0:
        kill(ctx, victim, why, seat)
    return failed if named else None


def _attack_resource(ctx: Context, att: Piece, rid: str) -> None:
    """[A] spec §5.6: a piece may spend its attack on an enemy resource; it never strikes
    back."""
    state: State = ctx.state
    r = state["resources"][rid]
    rolls = data.rolls(ctx.dice, 2, 6, _("attack, {piece} on resource {resource}",
                                   piece=att["id"], resource=rid))
    total = effective_tk(state, att) + sum(rolls)
    if total <= RESOURCE_VSZ:
        ctx.log.public("miss", _("{piece} attacks resource {resource}: rolls {rolls}+{rolls2}, "
                                 "{total} <= VSZ 20: miss",
                                 piece=name_of(state, att["id"]), resource=rid, rolls=rolls[0],
                                 rolls2=rolls[1], total=total))
        return
    dmg, faces = data.roll_expr(ctx.dice, att["fe"], _("damage, {piece} on {resource}",
                                                       piece=att["id"], resource=rid))
    dmg += fe_bonus(state, att)
    if total >= 2 * RESOURCE_VSZ:
        dmg *= 2
    r["ep"] -= dmg
    ctx.log.public("hit", _("{piece} attacks resource {resource}: rolls {rolls}+{rolls2}, {total} >"
                            " VSZ 20: hit; damage {faces} -> {dmg}; resource at {ep} ÉP",
                            piece=name_of(state, att["id"]), resource=rid, rolls=rolls[0],
                            rolls2=rolls[1], total=total, faces="+".join(map(str, faces)), dmg=dmg,
                            ep=r["ep"]))
    if r["ep"] <= 0:
        destroy_resource(ctx, rid, _("attacked by {piece}", piece=name_of(state, att["id"])), by=att["owner"])


def _capture(ctx: Context, seat: str, dfd: Piece, carrier_id: str, *,
             named: bool) -> str | None:
    """Rulebook "Fogolyejtés": an enemy character brought to -9..0 may be captured if the
    attacker has a transport piece (spec §5.13: anywhere on the board, with room). The body
    stays on its field until the transporter fetches it. Returns why not, or None; a
    capture an order named that fails is announced."""
    state: State = ctx.state
    if not -9 <= dfd["ep"] <= 0:
        return _("{piece} is at {ep} ÉP, below -9", piece=dfd["id"], ep=dfd["ep"])
    carrier = state["pieces"].get(carrier_id)
    if dfd["summoned"]:
        why: str = _("{piece} is a summoned piece: it cannot be captured (Rulebook \"A "
                     "megidézett lények\": \"A megidézett lényeket nem lehet foglyul ejteni!\")",
                     piece=name_of(state, dfd["id"]))
        if not named:  # the CAPTURE standing order: its owner is told why it did nothing
            ctx.log.private([seat], "capture_fail", _("No capture: {why}", why=why))
    elif carrier is None or carrier["owner"] != seat or not on_board(carrier["loc"]) \
            or not has_room(state, carrier):
        why = _("{carrier_id} is not a transport piece with room on the board",
                carrier_id=carrier_id)
    else:
        why = ""
    if why:
        if named:
            ctx.log.public("capture_fail", _("No capture: {why}", why=why))
        return why
    assert carrier is not None
    dfd["captive"] = {"carrier": carrier_id, "captor": seat, "dead": True, "clock": 0,
                      "carried": carrier["loc"] == dfd["loc"], "turn_no": state["turn_no"],
                      "healed": False, "unconvertible": False}
    end_status(state, dfd)
    state["players"][seat]["transit"].append(dfd["id"])
    ctx.log.public("capture", _("{seat} captures the body of {name} ({piece}) at {ep} ÉP; {piece2} "
                                "must carry it home",
                                seat=seat, name=piece_name(dfd["name"]), piece=dfd["id"], ep=dfd["ep"],
                                piece2=name_of(state, carrier_id)))
    # a captured body is no longer its owner's character: if it was his last, the capturer
    # destroyed it and takes his Base now (Rulebook "A játék alapjai": "a Bázisa átmegy
    # annak a játékosnak a tulajdonába, aki az utolsó karakterét ... elpusztította").
    # A body at exactly 0 may still be healed by its owner this turn (the end step's ZERO
    # window), which cancels the capture: that check waits for the end step.
    if dfd["ep"] < 0:
        check_elimination(ctx, seat)
    return None


def _takes_free_attack(ctx: Context, att: Piece, dfd: Piece) -> bool:
    """Does `att`'s owner take this free attack (spec DP8)? His FREEATTACK standing order;
    without one, with decisions=ask he is asked once a turn (the answer, FREEATTACK YES or
    NO, becomes his standing order; PASS takes them this time); the default is YES."""
    state: State = ctx.state
    seat = att["owner"]
    standing = state["players"][seat]["standing"]
    asked = state["turn"].setdefault("free_asked", [])
    if standing.get("freeattack") is None and ask_mode(state) and seat not in asked:
        asked.append(seat)
        answer = ctx.decide(seat, "FREEATTACK", question=(
            _("{piece} flees from {loc}: your {piece2} (and any other piece of yours engaged with "
              "it) may make a free attack at +10 TK, +4 damage. Your answer stays as your standing "
              "FREEATTACK order; PASS takes them this time.",
              piece=name_of(state, dfd["id"]), loc=dfd["loc"], piece2=name_of(state, att["id"]))), default="PASS",
            options=("FREEATTACK YES", "FREEATTACK NO", "PASS"),
            public=_("whether to attack the fleeing {piece}", piece=name_of(state, dfd["id"])))
        if answer == "PASS":
            ctx.log.public("pass", _("{seat} leaves it to the default", seat=seat))
        else:
            standing["freeattack"] = answer == "FREEATTACK YES"
    if standing.get("freeattack") is False:
        ctx.log.public("pass", _("{seat} lets {piece} flee from {piece2} without a free attack",
                                 seat=seat, piece=name_of(state, dfd["id"]),
                                 piece2=name_of(state, att["id"])))
        return False
    return True


def free_attackers(state: State, p: Piece) -> list[str]:
    """Every hostile piece engaged with a fleeing piece may make one free attack at +10 TK,
    +4 damage (Rulebook "Menekülés"); each seat's FREEATTACK standing order (default YES,
    spec DP8) decides; Ködfátyol (n07) cancels them all."""
    if p["id"] in state["turn"].get("mist", []):
        return []
    out = []
    for q in sorted(visible_hostiles_at(state, p["owner"], p["loc"]), key=lambda q: q["id"]):
        if not can_act(q) or has_flag(q, "no_same_field_attack"):
            continue
        if not state["players"][q["owner"]]["standing"].get("freeattack", True):
            continue
        out.append(q["id"])
    return out


def melee_pairs(state: State, seat: str) -> list[tuple[str, str]]:
    """Mandatory melee (spec §4.1 step 3 [A], from "the fight goes on until one dies or
    flees"): every engaged piece of the active seat that neither attacked nor fled makes
    one attack on a hostile piece on its field (the one with the lowest ÉP)."""
    out = []
    for p in sorted(state["pieces"].values(), key=lambda q: q["id"]):
        if p["owner"] != seat or not on_board(p["loc"]) or p["hidden"] or p["captive"]:
            continue
        if p["id"] in state["turn"].get("attacked", []) or p["id"] in state["turn"].get("fled", []):
            continue
        if not can_act(p) or has_flag(p, "no_same_field_attack"):
            continue
        foes = visible_hostiles_at(state, seat, p["loc"])
        if not foes:
            continue
        foe = min(foes, key=lambda q: (q["ep"], q["id"]))
        out.append((p["id"], foe["id"]))
    return out
