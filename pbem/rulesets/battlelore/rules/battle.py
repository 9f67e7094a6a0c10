"""Battle (rulebook chapter 4, p.10-20; creatures p.22-26; spec §5.4-§5.9, §5.13).

Targets, range and line of sight, the number of dice, hits by banner colour and weapon,
one roll and all it causes, battle back, gain ground, pursuit and the bonus attack, and
the reaction windows around every roll (a first strike among them).

Not here: ordering units (cards.py), moving (movement.py), flags and retreats
(morale.py), losses (losses.py), Lore cards (lore.py).
"""

from __future__ import annotations

from typing import Any

from pbem.core.i18n import Msg, _, n_
from pbem.core.kit import Context

from ..board import Hex, distance, hex_name, line_of_sight, neighbours
from ..data import BASE_DICE, COLOUR_FACE, lore_card, term
from ..orders import Battle
from ..state import (
    State,
    Unit,
    enemies_adjacent,
    feat,
    landmark_at,
    occupancy,
    occupant,
    passable,
    terrain_at,
    terrain_data,
    uclass,
    uhex,
    unit_sort,
    utype,
    weapon,
)
from .cards import card_in_play
from .common import decide, faces, short, state_of, uname
from .landmarks import entered
from .lore import before_roll_window, lore_faces
from .losses import critical, eliminate, lose_figures
from .morale import bold_level, resolve_flags

# --- targets, range, line of sight (p.11-12; spec §5.5) ------------------------------

def can_see(s: State, a: Hex, b: Hex) -> bool:
    """p.12, p.37: units, forests, hills and most landmarks block; a hill does not block a
    unit looking from a hill across it: SPEC-AMBIGUITY §10.11, option `hill_los`:
    `adjacent` = a hill hex next to the attacker's hill, `contiguous` = any hill hex joined
    to the attacker's hill by hill hexes."""
    occ = occupancy(s)
    open_hills: set[Hex] = set()
    if terrain_at(s, a) == "hill":
        if s["options"]["hill_los"] == "contiguous":
            todo, open_hills = [a], {a}
            while todo:
                for n in neighbours(todo.pop()):
                    if n not in open_hills and terrain_at(s, n) == "hill":
                        open_hills.add(n)
                        todo.append(n)
        else:
            open_hills = {n for n in neighbours(a) if terrain_at(s, n) == "hill"}

    def blocks(h: Hex) -> bool:
        if h in occ:
            return True
        lm = landmark_at(s, h)
        if h in open_hills and (lm is None or not terrain_data(lm["kind"]).get("blocks_los")):
            return False
        return bool(feat(s, h, "blocks_los"))
    return line_of_sight(a, b, blocks)


def targets(s: State, u: Unit, *, ranged_only: bool = False) -> list[Unit]:
    """Legal battle targets. Rulebook p.11: with an enemy adjacent, only adjacent enemies
    (melee); otherwise ranged weapons reach enemies within range and sight."""
    if u["webbed"]:
        return []
    adj = enemies_adjacent(s, u)
    if adj:
        return [] if ranged_only else adj
    rng = int(weapon(u)["range"])
    eagle = [e for e in s["this_turn"]["effects"]
             if e["kind"] == "eagle_eye" and e.get("unit") == u["id"]]
    if eagle:
        rng = max(rng, 1) + sum(int(e["n"]) for e in eagle)  # Eagle Eye (assumed effect)
    if rng <= 1:
        return []
    h = uhex(u)
    out = [e for e in s["units"].values() if e["owner"] != u["owner"]
           and 2 <= distance(h, uhex(e)) <= rng and (eagle or can_see(s, h, uhex(e)))]
    return sorted(out, key=unit_sort)


# --- number of dice (p.12, p.36-42; spec §5.6) ----------------------------------------

def own_dice(s: State, att: Unit, tgt: Unit) -> int:
    t = utype(att)
    n = int(t["dice"]) if uclass(att) == "creature" else BASE_DICE[att["colour"]]
    if weapon(att).get("moved_penalty") and s["this_turn"]["moved"].get(att["id"]):
        n -= int(weapon(att)["moved_penalty"])  # p.15: longbow (and crossbow) after moving
    a, b = uhex(att), uhex(tgt)
    caps = [c for c in (feat(s, a, "cap_on"), feat(s, b, "cap_against")) if c]
    if feat(s, b, "cap_against_from_off") and not feat(s, a, "cap_against_from_off"):
        caps.append(feat(s, b, "cap_against_from_off"))  # p.37: up a hill max 2
    if caps:
        n = min(n, *caps)
    return max(0, n)


def dice_count(s: State, att: Unit, tgt: Unit, melee: bool,
               *, attacker_turn: bool = True) -> int:
    """Own dice after caps, then dice from cards (p.36: they may exceed the cap)."""
    n = own_dice(s, att, tgt)
    effects = s["this_turn"]["effects"]
    # a later card cancelling the Lore dice of this roll wins over earlier ones (p.31)
    no_lore = any(e.get("kind") == "minus_dice" and e.get("unit") == att["id"]
                  and e.get("cancel_lore") for e in effects)
    card = card_in_play(s)
    if (melee and attacker_turn and card.get("melee_bonus") and uclass(att) == "mounted"
            and att["id"] in s["this_turn"]["ordered"]):
        n += int(card["melee_bonus"])
    for eff in effects:
        if eff.get("kind") == "extra_dice" and eff.get("unit") == att["id"] and not no_lore:
            n += int(eff["n"])
        elif (eff.get("kind") == "crowd" and eff.get("seat") == att["owner"] and attacker_turn
              and not no_lore):
            n += int(eff["n"])
        elif eff.get("kind") == "minus_dice" and eff.get("unit") == att["id"]:
            n -= int(eff["n"])
    return max(0, n)


# --- hits (p.13-15, p.23; spec §5.7) --------------------------------------------------

def score(s: State, att: Unit, tgt: Unit, rolled: list[str],
          melee: bool) -> tuple[list[int], int, int]:
    """(indexes of dice that hit, flags, lore faces) of a roll by `att` against `tgt`."""
    want = COLOUR_FACE[tgt["colour"]]
    w = weapon(att)
    rule = w["bs_melee"] if melee else w["bs_ranged"]
    hits = [i for i, f in enumerate(rolled) if f == want]
    bs = [i for i, f in enumerate(rolled) if f == "BS"]
    if rule == "all":
        hits += bs
    elif rule == "all_but_one_vs_mounted":
        # p.14; SPEC-AMBIGUITY §10.29: against a creature every bonus strike counts.
        hits += bs[1:] if uclass(tgt) == "mounted" else bs
    if any(e["kind"] == "havoc" for e in s["this_turn"]["effects"]):
        hits += [i for i, f in enumerate(rolled) if f == "L"]
    return sorted(hits), rolled.count("F"), rolled.count("L")


# --- one roll (p.13) and a whole battle (p.10-20) -------------------------------------

def _roll_text(what: str, att: Unit, tgt: Unit, kind: Msg, n: int, rolled: list[str]) -> Msg:
    """The roll's event, a whole sentence for each kind of roll."""
    args = {"unit": short(att), "target": uname(tgt), "kind": kind, "n": n,
            "faces": " ".join(rolled) if rolled else _("no dice")}
    if what == "battles back against":
        return _("{unit} battles back against {target} ({kind}, {n} dice): {faces}.", **args)
    if what == "strikes first at":
        return _("{unit} strikes first at {target} ({kind}, {n} dice): {faces}.", **args)
    if what == "makes a bonus attack on":
        return _("{unit} makes a bonus attack on {target} ({kind}, {n} dice): {faces}.",
                 **args)
    return _("{unit} attacks {target} ({kind}, {n} dice): {faces}.", **args)


def attack(ctx: Context, att: Unit, tgt: Unit, *, melee: bool,
           what: str = "attacks") -> dict[str, Any]:
    """One roll of `att` against `tgt` and all it causes. Hits first, then flags."""
    s = state_of(ctx)
    roller = att["owner"]
    n = dice_count(s, att, tgt, melee, attacker_turn=(roller == s["active"]))
    start = uhex(tgt)
    kind = _("melee") if melee else _("ranged")
    rolled = faces(ctx.dice, n, _("battle dice, {unit} vs {target}, turn {turn}",
                                  unit=att["id"], target=tgt["id"], turn=s["turn"]))
    ctx.log.public("roll", _roll_text(what, att, tgt, kind, n, rolled),
                   attacker=att["id"], target=tgt["id"], faces=rolled, melee=melee)
    hits, flags, lores = score(s, att, tgt, rolled, melee)
    was_poisoned = tgt["poisoned"]
    if s["mode"] == "lore":
        hits, flags = lore_faces(ctx, att, tgt, rolled, hits, flags, lores, melee, was_poisoned)
        if tgt["id"] not in s["units"]:
            return {"eliminated": True, "retreated": 0, "vacated": True, "start": start}
    if tgt["webbed"] and flags:
        ctx.log.public("web_flags", _("{unit} is webbed: {n} flag(s) count as hits.",
                                      unit=tgt["id"], n=flags))
        hits = hits + [-1] * flags  # p.25: every flag against a webbed unit is a hit
        flags = 0
    out: dict[str, Any] = {"eliminated": False, "retreated": 0, "vacated": False,
                           "start": start}
    if was_poisoned and lores and tgt["id"] in s["units"]:
        if lose_figures(ctx, tgt, lores, _("to poison")):
            out.update(eliminated=True, vacated=True)
            return out
    if uclass(tgt) == "creature":
        if hits and critical(ctx, tgt, len(hits)):
            eliminate(ctx, tgt, _("by {unit}", unit=att["id"]))
            out.update(eliminated=True, vacated=True)
            return out
    elif hits:
        n_hits = len(hits)
        ctx.log.public("hits", n_("{n} hit on {unit}.", "{n} hits on {unit}.", n_hits,
                                  unit=tgt["id"]),
                       target=tgt["id"], hits=n_hits)
        if lose_figures(ctx, tgt, n_hits, _("to {unit}", unit=att["id"])):
            out.update(eliminated=True, vacated=True)
            return out
    r = resolve_flags(ctx, att, tgt, flags, roller)
    out["retreated"] = r["retreated"]
    if r["eliminated"]:
        out.update(eliminated=True, vacated=True)
    elif uhex(tgt) != start:
        out["vacated"] = True
    return out


def may_battle_back(s: State, tgt: Unit, res: dict[str, Any]) -> bool:
    """p.19: a bold defender attacked in melee that survived and did not leave its hex."""
    if res["eliminated"] or res["vacated"] or tgt["id"] not in s["units"]:
        return False
    if tgt["webbed"]:
        return False
    return bold_level(s, tgt) >= 1


def battle_back(ctx: Context, att: Unit, tgt: Unit) -> None:
    """D17: the defender's owner decides. Standing: BATTLEBACK ALWAYS|NEVER|<min dice>."""
    s = state_of(ctx)
    n = dice_count(s, tgt, att, True, attacker_turn=False)
    if n <= 0:
        return

    def pol(p: str) -> str:
        if p == "always":
            return "yes"
        if p == "never":
            return "no"
        return "yes" if p.isdigit() and n >= int(p) else "no"

    ans = decide(ctx, tgt["owner"], "battleback", [f"battleback {tgt['id']}", "battleback"],
                 ["yes", "no"], "yes", _("Your unit {unit} may battle back against {enemy} with "
                                         "{n} dice: yes or no?", unit=short(tgt),
                                         enemy=short(att), n=n), resolve_standing=pol)
    if ans != "yes":
        ctx.log.public("no_battle_back", _("{unit} does not battle back.", unit=tgt["id"]))
        return
    if not before_roll(ctx, tgt, att, _("{unit} battles back against your {enemy}",
                                        unit=tgt["id"], enemy=att["id"])):
        return
    attack(ctx, tgt, att, melee=True, what="battles back against")


def before_roll(ctx: Context, roller: Unit, tgt: Unit, what: Msg) -> bool:
    """The 'before opponent rolls' window of the target's owner (Lore adventures, p.29-30);
    False when the roll no longer takes place (a first strike repelled or killed the roller,
    or one of the two is gone)."""
    s = state_of(ctx)
    if s["mode"] != "lore":
        return True
    here = uhex(roller)
    card = before_roll_window(ctx, roller, tgt, what)
    if card is not None and lore_card(card)["effect"] == "first_strike":
        first_strike(ctx, roller, tgt)
    return roller["id"] in s["units"] and tgt["id"] in s["units"] and uhex(roller) == here


def first_strike(ctx: Context, att: Unit, dfd: Unit) -> None:
    """First Strike (p.18, a pre-emptive strike): the defender attacks in melee before the
    attacker rolls; an attacker eliminated or pushed back does not roll."""
    s = state_of(ctx)
    here = uhex(att)
    attack(ctx, dfd, att, melee=True, what="strikes first at")
    if att["id"] not in s["units"] or uhex(att) != here:
        ctx.log.public("first_strike", _("{unit} is repelled before it can roll.", unit=att["id"]))


def battle(ctx: Context, att: Unit, tgt: Unit, opts: Battle | None = None) -> list[Msg]:
    """A whole battle: roll, battle back or gain ground, pursuit and one bonus attack; the
    follow-on choices (HOLD, PURSUE, BONUS, STAY...) are those of the BATTLE line. Returns
    what of those choices could not be followed, and why (for the line's outcome)."""
    follow = opts if opts is not None else Battle(att["id"], (tgt["id"],))
    notes: list[Msg] = []
    _battle(ctx, att, tgt, follow, notes)
    return notes


def _battle(ctx: Context, att: Unit, tgt: Unit, follow: Battle, notes: list[Msg]) -> None:
    s = state_of(ctx)
    melee = distance(uhex(att), uhex(tgt)) == 1
    start_att = uhex(att)
    res = attack(ctx, att, tgt, melee=melee)
    if att["id"] not in s["units"] or uhex(att) != start_att:
        return
    if not melee:
        return  # p.18: no gain ground after a ranged attack; p.19 no battle back
    if not res["vacated"]:
        if may_battle_back(s, tgt, res):
            battle_back(ctx, att, tgt)
        return
    # p.18 gain ground
    if follow.hold or occupant(s, res["start"]) is not None:
        return
    vac = res["start"]
    att["hex"] = [vac[0], vac[1]]
    s["this_turn"]["moved"][att["id"]] = s["this_turn"]["moved"].get(att["id"], 0) + 1
    ctx.log.public("gain_ground", _("{unit} gains ground into {hex}.", unit=att["id"],
                                    hex=hex_name(vac)), unit=att["id"])
    entered(ctx, att, vac, follow=True)
    if uclass(att) != "mounted" or att["id"] not in s["units"]:
        return
    # p.18-19 pursuit: one more hex unless forest/landmark stopped it (p.37-38)
    wanted = " OR ".join(hex_name(h) for h in follow.pursue)
    if follow.pursue and feat(s, vac, "stop_follow"):
        notes.append(_("PURSUE {hexes}: the {terrain} or landmark at {hex} ends the move there "
                       "(p.37-38)", hexes=wanted, terrain=term(terrain_at(s, vac)),
                       hex=hex_name(vac)))
    if not feat(s, vac, "stop_follow") and not follow.nopursue:
        dest = pursuit_hex(s, att, tgt, follow.pursue)
        if dest is None and follow.pursue:
            notes.append(_("PURSUE {hexes}: no hex of it was free, so no pursuit", hexes=wanted))
        if dest is not None:
            att["hex"] = [dest[0], dest[1]]
            s["this_turn"]["moved"][att["id"]] += 1
            ctx.log.public("pursuit", _("{unit} pursues to {hex}.", unit=att["id"],
                                        hex=hex_name(dest)), unit=att["id"])
            entered(ctx, att, dest, follow=True)
            if att["id"] not in s["units"]:
                return
    if not follow.nobonus and not feat(s, uhex(att), "no_battle_after_entering"):
        bonus_attack(ctx, att, tgt, follow, notes)


def bonus_attack(ctx: Context, att: Unit, tgt: Unit, follow: Battle,
                 notes: list[Msg] | None = None) -> None:
    """p.18-19: mounted units that gained ground may attack once more: a unit of the BONUS
    list, else the same target, else the weakest adjacent enemy; after it the unit may
    gain ground once more (STAY, HOLD: it does not)."""
    s = state_of(ctx)
    foes = enemies_adjacent(s, att)
    if not foes:
        return
    pref = [t for t in follow.bonus if t in {f["id"] for f in foes}]
    if pref:
        bt = s["units"][pref[0]]
    elif tgt["id"] in {f["id"] for f in foes}:
        bt = tgt
    else:
        bt = min(foes, key=lambda f: (f["figures"], unit_sort(f)))
    if follow.bonus and not pref and notes is not None:
        notes.append(_("BONUS {units}: none next to {unit}; the bonus attack is on {target}",
                       units=" OR ".join(follow.bonus), unit=att["id"], target=bt["id"]))
    if dice_count(s, att, bt, True) <= 0:
        return
    here = uhex(att)
    bt_hex = uhex(bt)
    if not before_roll(ctx, att, bt, _("{unit} makes a bonus attack on your {enemy}",
                                       unit=att["id"], enemy=bt["id"])):
        return
    if uhex(bt) != bt_hex or dice_count(s, att, bt, True) <= 0:
        return
    r2 = attack(ctx, att, bt, melee=True, what="makes a bonus attack on")
    if att["id"] not in s["units"] or uhex(att) != here:
        return
    if not r2["vacated"]:
        if may_battle_back(s, bt, r2):
            battle_back(ctx, att, bt)
        return
    # p.18: after the bonus attack it "may" gain ground once more (STAY: it does not)
    if not follow.hold and not follow.stay and occupant(s, r2["start"]) is None:
        att["hex"] = [r2["start"][0], r2["start"][1]]
        s["this_turn"]["moved"][att["id"]] += 1
        ctx.log.public("gain_ground", _("{unit} gains ground into {hex}.", unit=att["id"],
                                        hex=hex_name(r2["start"])), unit=att["id"])
        entered(ctx, att, r2["start"], follow=True)


def pursuit_hex(s: State, att: Unit, tgt: Unit, wants: tuple[Hex, ...]) -> Hex | None:
    """Pick the pursuit hex: the first free one of the BATTLE line's PURSUE list (a hex
    next to the vacated one, the attacker's starting hex included: p.18 option c; none
    free: no pursuit move), else one next to the retreated target, else stay (spec
    §5.9.3 options a-c)."""
    here = uhex(att)
    cand = [h for h in neighbours(here) if passable(s, h) and occupant(s, h) is None]
    if wants:
        return next((w for w in wants if w in cand), None)
    if tgt["id"] in s["units"]:
        th = uhex(tgt)
        if distance(here, th) == 1:
            return None
        near = [h for h in cand if distance(h, th) == 1]
        if near:
            return min(near, key=lambda h: (-(feat(s, h, "cap_on") or 9), h))
    return None
