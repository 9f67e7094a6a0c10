"""Battle (rulebook chapter 4, p.10-20; creatures p.22-26; spec §5.4-§5.9, §5.13).

Targets, range and line of sight, the number of dice, hits by banner colour and weapon,
critical hits on creatures, flags and morale (bold, frightened, support), retreats with
their path choice and losses, panic rolls, trample, gain ground, pursuit, bonus melee
attack and battle back, Victory Banners.

Not here: ordering units (cards.py), moving (movement.py), Lore cards (lore.py).
"""

from __future__ import annotations

from typing import Any

from .board import Hex, distance, hex_name, line_of_sight, neighbours, parse_hex, rear_hexes
from .ctx import Ctx, GameOver
from .state import (
    BASE_DICE,
    COLOUR_FACE,
    enemies_adjacent,
    feat,
    friends_adjacent,
    landmark_at,
    occupancy,
    occupant,
    other,
    passable,
    race,
    terrain_at,
    terrain_data,
    uclass,
    uhex,
    unit_sort,
    utype,
    weapon,
)


def uname(u: dict[str, Any]) -> str:
    return f"{u['id']} ({utype(u)['name'].lower()}, {u['colour']}, {u['fig']} fig.) at {hex_name(uhex(u))}"


def short(u: dict[str, Any]) -> str:
    return f"{u['id']} at {hex_name(uhex(u))}"


# --- targets, range, line of sight (p.11-12; spec §5.5) ------------------------------

def can_see(s: dict[str, Any], a: Hex, b: Hex) -> bool:
    """p.12, p.37: units, forests, hills and most landmarks block; a hill does not block a
    unit looking from a hill across it: SPEC-AMBIGUITY §10.11, option `hill_los`:
    `adjacent` = a hill hex next to the attacker's hill, `contiguous` = any hill hex joined
    to the attacker's hill by hill hexes."""
    occ = occupancy(s)
    open_hills: set[Hex] = set()
    if terrain_at(s, a) == "hill":
        if s["options"].get("hill_los", "adjacent") == "contiguous":
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


def targets(s: dict[str, Any], u: dict[str, Any], *, ranged_only: bool = False) -> list[dict[str, Any]]:
    """Legal battle targets. Rulebook p.11: with an enemy adjacent, only adjacent enemies
    (melee); otherwise ranged weapons reach enemies within range and sight."""
    if u.get("web"):
        return []
    adj = enemies_adjacent(s, u)
    if adj:
        return [] if ranged_only else adj
    rng = int(weapon(u)["range"])
    eagle = [e for e in s["tf"].get("effects", []) if e["kind"] == "eagle_eye" and e["unit"] == u["id"]]
    if eagle:
        rng = max(rng, 1) + sum(int(e["n"]) for e in eagle)  # Eagle Eye (assumed effect)
    if rng <= 1:
        return []
    h = uhex(u)
    out = [e for e in s["units"].values() if e["owner"] != u["owner"]
           and 2 <= distance(h, uhex(e)) <= rng and (eagle or can_see(s, h, uhex(e)))]
    return sorted(out, key=unit_sort)


# --- number of dice (p.12, p.36-42; spec §5.6) ----------------------------------------

def own_dice(s: dict[str, Any], att: dict[str, Any], tgt: dict[str, Any]) -> int:
    t = utype(att)
    n = int(t["dice"]) if uclass(att) == "creature" else BASE_DICE[att["colour"]]
    if weapon(att).get("moved_penalty") and s["tf"]["moved"].get(att["id"]):
        n -= int(weapon(att)["moved_penalty"])  # p.15: longbow (and crossbow) after moving
    a, b = uhex(att), uhex(tgt)
    caps = [c for c in (feat(s, a, "cap_on"), feat(s, b, "cap_against")) if c]
    if feat(s, b, "cap_against_from_off") and not feat(s, a, "cap_against_from_off"):
        caps.append(feat(s, b, "cap_against_from_off"))  # p.37: up a hill max 2
    if caps:
        n = min(n, *caps)
    return max(0, n)


def dice_count(s: dict[str, Any], att: dict[str, Any], tgt: dict[str, Any], melee: bool,
               *, attacker_turn: bool = True) -> int:
    """Own dice after caps, then dice from cards (p.36: they may exceed the cap)."""
    n = own_dice(s, att, tgt)
    effects = s["tf"].get("effects", [])
    # a later card cancelling the Lore dice of this roll wins over earlier ones (p.31)
    no_lore = any(e.get("kind") == "minus_dice" and e.get("unit") == att["id"]
                  and e.get("cancel_lore") for e in effects)
    card = s["tf"].get("card_def") or {}
    if (melee and attacker_turn and card.get("melee_bonus") and uclass(att) == "mounted"
            and att["id"] in s["tf"]["ordered"]):
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

def score(s: dict[str, Any], att: dict[str, Any], tgt: dict[str, Any], faces: list[str],
          melee: bool) -> tuple[list[int], int, int]:
    """(indexes of dice that hit, flags, lore faces) of a roll by `att` against `tgt`."""
    want = COLOUR_FACE[tgt["colour"]]
    w = weapon(att)
    rule = w["bs_melee"] if melee else w["bs_ranged"]
    hits = [i for i, f in enumerate(faces) if f == want]
    bs = [i for i, f in enumerate(faces) if f == "BS"]
    if rule == "all":
        hits += bs
    elif rule == "all_but_one_vs_mounted":
        # p.14; SPEC-AMBIGUITY §10.29: against a creature every bonus strike counts.
        hits += bs[1:] if uclass(tgt) == "mounted" else bs
    if any(e.get("kind") == "havoc" for e in s["tf"].get("effects", [])):
        hits += [i for i, f in enumerate(faces) if f == "L"]
    return sorted(hits), faces.count("F"), faces.count("L")


def check_victory(ctx: Ctx) -> None:
    s = ctx.s
    order = [s["active"], other(s["active"])]  # spec §8 assumption: the active player first
    for seat in order:
        if s["banners"][seat] >= s["victory"][seat]:
            s["result"] = {"winner": seat, "reason":
                           f"{seat} reached {s['banners'][seat]} Victory Banners"}
            ctx.ev("victory", f"{seat.capitalize()} has {s['banners'][seat]} Victory Banners "
                              f"and wins the battle.", seat=seat)
            raise GameOver


def eliminate(ctx: Ctx, u: dict[str, Any], why: str) -> None:
    s = ctx.s
    winner = other(u["owner"])
    del s["units"][u["id"]]
    s["banners"][winner] += 1
    ctx.ev("eliminated", f"{u['id']} ({utype(u)['name'].lower()}) is eliminated {why}; "
                         f"{winner} takes a Victory Banner ({s['banners'][winner]}).",
           unit=u["id"], banners=s["banners"][winner])
    if uclass(u) == "creature" and s["mode"] == "lore":
        from .lore import gain_tokens
        gain_tokens(ctx, winner, 1, "for killing a creature (p.23)")
        if u.get("stored"):
            s["lore"]["pool"] += u["stored"]
    check_victory(ctx)


def lose_figures(ctx: Ctx, u: dict[str, Any], n: int, why: str) -> bool:
    """Remove `n` figures (banner bearer last); True if the unit is eliminated."""
    if n <= 0:
        return False
    if n >= u["fig"]:
        u["fig"] = 0
        eliminate(ctx, u, why)
        return True
    u["fig"] -= n
    ctx.ev("losses", f"{u['id']} loses {n} figure{'s' if n > 1 else ''} {why} "
                     f"({u['fig']} left).", unit=u["id"], lost=n)
    return False


def critical(ctx: Ctx, u: dict[str, Any], n: int, purpose: str) -> bool:
    """p.23: re-roll the hit dice; a helmet of the creature's colour is a critical hit."""
    if n <= 0:
        return False
    faces = ctx.dice.faces(n, purpose)
    crit = faces.count(COLOUR_FACE[u["colour"]]) > 0
    ctx.ev("critical", f"Critical re-roll against {u['id']}: {' '.join(faces)}"
                       f" - {'critical hit' if crit else 'no critical hit'}.", faces=faces)
    return crit


# --- morale (p.16-17, p.19-23; spec §5.8) ---------------------------------------------

def supported(s: dict[str, Any], u: dict[str, Any]) -> bool:
    """p.19: two or more adjacent friendly units (webbed ones give none, p.25);
    creatures give support but never receive it (p.23)."""
    if uclass(u) == "creature":
        return False
    return sum(1 for f in friends_adjacent(s, u) if not f.get("web")) >= 2


def bold_level(s: dict[str, Any], u: dict[str, Any]) -> int:
    """How many flags of one roll the unit may ignore (99 = all). Sources stack."""
    for eff in s["tf"].get("effects", []):
        if eff.get("kind") == "ignore_flags" and eff.get("unit") == u["id"]:
            return 99
    if uclass(u) == "creature":
        return 1  # p.23: creatures are bold and must ignore one flag
    b = sum(1 for e in s["tf"].get("effects", []) if e.get("kind") == "bold_all"
            and e.get("seat") == u["owner"])
    if supported(s, u):
        b += 1
    if race(u) == "dwarf":
        b += 1  # p.20 Iron Will
    h = uhex(u)
    lm = landmark_at(s, h)
    if lm is not None and lm["kind"] == "stronghold":
        if lm.get("owner") == u["owner"]:
            b += 1
    elif feat(s, h, "bold"):
        b += 1  # p.38 landmarks and bridges
    for n in neighbours(h):
        lm2 = landmark_at(s, n)
        if lm2 is not None and lm2["kind"] == "stronghold" and lm2.get("owner") == u["owner"]:
            b += 1
            break
    return b


def frightened(s: dict[str, Any], u: dict[str, Any]) -> bool:
    """p.21 Goblin Run: every goblinoid unit forced to retreat is frightened."""
    return race(u) == "goblinoid" or any(
        e.get("kind") == "frightened" and e.get("unit") == u["id"] for e in s["tf"].get("effects", []))


def per_flag(s: dict[str, Any], u: dict[str, Any]) -> int:
    if uclass(u) == "creature":
        return int(utype(u).get("retreat_per_flag", 2))
    return 2 if frightened(s, u) else 1


def retreat_choice(ctx: Ctx, u: dict[str, Any], opts: list[Hex], left_to_go: int) -> Hex:
    """D15: the owner picks each retreat hex. Standing: RETREAT SAFE|LEFT|RIGHT|CENTRE."""
    s = ctx.s
    seat = u["owner"]
    names = [hex_name(h) for h in opts]

    def safe_key(h: Hex) -> tuple[int, int, int, int]:
        onward = 1
        if left_to_go > 1:
            onward = int(any(passable(s, r) and occupant(s, r) is None for r in rear_hexes(h, seat)))
        fr = sum(1 for n in neighbours(h) if (o := occupant(s, n)) is not None
                 and o["owner"] == seat and o["id"] != u["id"])
        return (-onward, -fr, abs(h[0] - 13), h[0])

    def by_policy(p: str) -> str:
        west_first = sorted(opts)
        listed = [parse_hex(x) for x in p.split()]
        if listed and all(listed):  # RETREAT <hex> ...: the first listed hex open now
            for h in listed:
                if h in opts:
                    return hex_name(h)
            p = "safe"
        if p == "safe":
            return hex_name(min(opts, key=safe_key))
        if p == "centre":
            return hex_name(min(opts, key=lambda h: (abs(h[0] - 13), h[0])))
        left_is_west = seat == "south"
        want_west = (p == "left") == left_is_west
        return hex_name(west_first[0] if want_west else west_first[-1])

    default = by_policy("safe")
    ans = ctx.decide(seat, "retreat", [f"retreat {u['id']}", "retreat"], names, default,
                     f"Your unit {short(u)} must retreat {left_to_go} more hex(es): "
                     f"to which hex?", resolve_standing=by_policy)
    return opts[names.index(ans)]


def resolve_flags(ctx: Ctx, att: dict[str, Any], u: dict[str, Any], flags: int,
                  roller: str) -> dict[str, Any]:
    """Ignore what may be ignored, retreat the rest (p.15-17), panic roll (p.21).
    Returns {"retreated": hexes, "eliminated": bool, "stayed": bool}."""
    s = ctx.s
    out = {"retreated": 0, "eliminated": False}
    if flags <= 0:
        return out
    bold = bold_level(s, u)
    mx = min(bold, flags)
    mn = 1 if uclass(u) == "creature" and mx >= 1 else 0
    ignore = mx
    if mx > mn:
        opts = [str(i) for i in range(mx, mn - 1, -1)]

        def pol(p: str) -> str:
            if p.isdigit():  # IGNORE <n>: as many as asked, within what is allowed
                return str(max(mn, min(mx, int(p))))
            return str(mx) if p == "all" else str(mn) if p == "none" else p

        ignore = int(ctx.decide(u["owner"], "ignore", [f"ignore {u['id']}", "ignore"], opts,
                                str(mx), f"{short(u)} is hit by {flags} flag(s) and may ignore "
                                f"up to {mx}: how many?", resolve_standing=pol))
    if ignore:
        ctx.ev("ignore", f"{u['id']} ignores {ignore} flag{'s' if ignore > 1 else ''}.",
               unit=u["id"], ignored=ignore)
    rest = flags - ignore
    if rest <= 0:
        return out
    hexes = rest * per_flag(s, u)
    fright = uclass(u) != "creature" and frightened(s, u)
    moved = 0
    for i in range(hexes):
        opts = [h for h in rear_hexes(uhex(u), u["owner"]) if passable(s, h) and occupant(s, h) is None]
        if not opts:
            left = hexes - i
            if uclass(u) == "creature":
                r = creature_blocked(ctx, att, u, left, roller)
                moved += r["moved"]
                if r["eliminated"]:
                    out["eliminated"] = True
                    return out
            else:
                ctx.ev("retreat_blocked", f"{u['id']} cannot retreat {left} more hex(es).",
                       unit=u["id"])
                if lose_figures(ctx, u, left, "for a blocked retreat"):
                    out["eliminated"] = True
                    return out
            break
        h = retreat_choice(ctx, u, opts, hexes - i)
        u["hex"] = [h[0], h[1]]
        moved += 1
    if moved:
        ctx.ev("retreat", f"{u['id']} retreats {moved} hex{'es' if moved > 1 else ''} to "
                          f"{hex_name(uhex(u))}.", unit=u["id"], hexes=moved, dest=hex_name(uhex(u)))
    out["retreated"] = moved
    if moved:
        from .landmarks import retreated_onto
        retreated_onto(ctx, u)  # p.41: a retreat onto a Stronghold occupies it too
    if fright and moved:
        faces = ctx.dice.faces(moved, f"panic roll against {u['id']}")
        lost = faces.count(COLOUR_FACE[u["colour"]])
        ctx.ev("panic", f"Panic roll by {roller} against {u['id']}: {' '.join(faces)}.",
               faces=faces)
        if lose_figures(ctx, u, lost, "to panic"):
            out["eliminated"] = True
    return out


def creature_blocked(ctx: Ctx, att: dict[str, Any], u: dict[str, Any], left: int,
                     roller: str) -> dict[str, Any]:
    """p.23-24: a creature that cannot retreat: critical check (1 die per hex), then
    trample the units blocking it (figures = hexes not retreated, spec §10.9), then go on
    through an emptied hex without further checks."""
    s = ctx.s
    faces = ctx.dice.faces(left, f"blocked retreat check against {u['id']}")
    ctx.ev("blocked_check", f"{u['id']} cannot retreat {left} hex(es): {roller} rolls "
                            f"{' '.join(faces)}.", faces=faces)
    hits = faces.count(COLOUR_FACE[u["colour"]])
    if critical(ctx, u, hits, f"critical re-roll against {u['id']}"):
        eliminate(ctx, u, "by a critical hit")
        return {"moved": 0, "eliminated": True}
    moved = 0
    rear = rear_hexes(uhex(u), u["owner"])
    blockers = [o for h in rear if (o := occupant(s, h)) is not None]
    if blockers:
        for b in sorted(blockers, key=unit_sort):
            if b["id"] in s["units"]:
                lose_figures(ctx, b, left, f"trampled by {u['id']}")
        for step in range(left):
            opts = [h for h in rear_hexes(uhex(u), u["owner"])
                    if passable(s, h) and occupant(s, h) is None]
            if not opts:
                break
            h = retreat_choice(ctx, u, opts, left - step)
            u["hex"] = [h[0], h[1]]
            moved += 1
    return {"moved": moved, "eliminated": False}


# --- one roll (p.13) and a whole battle (p.10-20) -------------------------------------

def attack(ctx: Ctx, att: dict[str, Any], tgt: dict[str, Any], *, melee: bool,
           what: str = "attacks") -> dict[str, Any]:
    """One roll of `att` against `tgt` and all it causes. Hits first, then flags."""
    s = ctx.s
    roller = att["owner"]
    n = dice_count(s, att, tgt, melee, attacker_turn=(roller == s["active"]))
    start = uhex(tgt)
    kind = "melee" if melee else "ranged"
    faces = ctx.dice.faces(n, f"battle dice, {att['id']} vs {tgt['id']}, turn {s['turn']}")
    ctx.ev("roll", f"{short(att)} {what} {uname(tgt)} ({kind}, {n} dice): "
                   f"{' '.join(faces) if faces else 'no dice'}.",
           attacker=att["id"], target=tgt["id"], faces=faces, melee=melee)
    hits, flags, lores = score(s, att, tgt, faces, melee)
    was_poisoned = bool(tgt.get("poison"))
    if s["mode"] == "lore":
        from .lore import lore_faces
        hits, flags = lore_faces(ctx, att, tgt, faces, hits, flags, lores, melee, was_poisoned)
        if tgt["id"] not in s["units"]:
            return {"eliminated": True, "retreated": 0, "vacated": True, "start": start}
    if tgt.get("web") and flags:
        ctx.ev("web_flags", f"{tgt['id']} is webbed: {flags} flag(s) count as hits.")
        hits = hits + [-1] * flags  # p.25: every flag against a webbed unit is a hit
        flags = 0
    out = {"eliminated": False, "retreated": 0, "vacated": False, "start": start}
    if was_poisoned and lores and tgt["id"] in s["units"]:
        if lose_figures(ctx, tgt, lores, "to poison"):
            out.update(eliminated=True, vacated=True)
            return out
    if uclass(tgt) == "creature":
        if hits and critical(ctx, tgt, len(hits), f"critical re-roll against {tgt['id']}"):
            eliminate(ctx, tgt, f"by {att['id']}")
            out.update(eliminated=True, vacated=True)
            return out
    elif hits:
        n_hits = len(hits)
        ctx.ev("hits", f"{n_hits} hit{'s' if n_hits > 1 else ''} on {tgt['id']}.",
               target=tgt["id"], hits=n_hits)
        if lose_figures(ctx, tgt, n_hits, f"to {att['id']}"):
            out.update(eliminated=True, vacated=True)
            return out
    r = resolve_flags(ctx, att, tgt, flags, roller)
    out["retreated"] = r["retreated"]
    if r["eliminated"]:
        out.update(eliminated=True, vacated=True)
    elif uhex(tgt) != start:
        out["vacated"] = True
    return out



def may_battle_back(s: dict[str, Any], tgt: dict[str, Any], res: dict[str, Any]) -> bool:
    """p.19: a bold defender attacked in melee that survived and did not leave its hex."""
    if res["eliminated"] or res["vacated"] or tgt["id"] not in s["units"]:
        return False
    if tgt.get("web"):
        return False
    return bold_level(s, tgt) >= 1


def battle_back(ctx: Ctx, att: dict[str, Any], tgt: dict[str, Any]) -> None:
    """D17: the defender's owner decides. Standing: BATTLEBACK ALWAYS|NEVER|<min dice>."""
    s = ctx.s
    n = dice_count(s, tgt, att, True, attacker_turn=False)
    if n <= 0:
        return

    def pol(p: str) -> str:
        if p == "always":
            return "yes"
        if p == "never":
            return "no"
        return "yes" if p.isdigit() and n >= int(p) else "no"

    ans = ctx.decide(tgt["owner"], "battleback", [f"battleback {tgt['id']}", "battleback"],
                     ["yes", "no"], "yes",
                     f"Your unit {short(tgt)} may battle back against {short(att)} "
                     f"with {n} dice: yes or no?", resolve_standing=pol)
    if ans != "yes":
        ctx.ev("no_battle_back", f"{tgt['id']} does not battle back.")
        return
    if not _before_roll(ctx, tgt, att, f"{tgt['id']} battles back against your {att['id']}"):
        return
    attack(ctx, tgt, att, melee=True, what="battles back against")


def _before_roll(ctx: Ctx, roller: dict[str, Any], tgt: dict[str, Any], what: str) -> bool:
    """The 'before opponent rolls' window of the target's owner (Lore adventures); False
    when the roll no longer takes place (a first strike repelled or killed the roller)."""
    s = ctx.s
    if s["mode"] != "lore":
        return True
    from .lore import before_roll
    here = uhex(roller)
    go = before_roll(ctx, roller, tgt, what)
    return (go and roller["id"] in s["units"] and tgt["id"] in s["units"]
            and uhex(roller) == here)


def battle(ctx: Ctx, att: dict[str, Any], tgt: dict[str, Any], opts: dict[str, Any]) -> None:
    """A whole battle: roll, battle back or gain ground, pursuit and one bonus attack."""
    s = ctx.s
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
    if opts.get("hold") or occupant(s, res["start"]) is not None:
        return
    vac = res["start"]
    att["hex"] = [vac[0], vac[1]]
    s["tf"]["moved"][att["id"]] = s["tf"]["moved"].get(att["id"], 0) + 1
    ctx.ev("gain_ground", f"{att['id']} gains ground into {hex_name(vac)}.", unit=att["id"])
    from .landmarks import entered
    entered(ctx, att, vac, follow=True)
    if uclass(att) != "mounted" or att["id"] not in s["units"]:
        return
    # p.18-19 pursuit: one more hex unless forest/landmark stopped it (p.37-38)
    if not feat(s, vac, "stop_follow") and not opts.get("nopursue"):
        dest = pursuit_hex(s, att, tgt, opts)
        if dest is not None:
            att["hex"] = [dest[0], dest[1]]
            s["tf"]["moved"][att["id"]] += 1
            ctx.ev("pursuit", f"{att['id']} pursues to {hex_name(dest)}.", unit=att["id"])
            entered(ctx, att, dest, follow=True)
            if att["id"] not in s["units"]:
                return
    if opts.get("nobonus") or feat(s, uhex(att), "no_battle_after_entering"):
        return
    foes = enemies_adjacent(s, att)
    if not foes:
        return
    pref = [t for t in opts.get("bonus", []) if t in {f["id"] for f in foes}]
    if pref:
        bt = s["units"][pref[0]]
    elif tgt["id"] in {f["id"] for f in foes}:
        bt = tgt
    else:
        bt = min(foes, key=lambda f: (f["fig"], unit_sort(f)))
    if dice_count(s, att, bt, True) <= 0:
        return
    here = uhex(att)
    bt_hex = uhex(bt)
    if not _before_roll(ctx, att, bt, f"{att['id']} makes a bonus attack on your {bt['id']}"):
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
    if not opts.get("hold") and not opts.get("stay") and occupant(s, r2["start"]) is None:
        att["hex"] = [r2["start"][0], r2["start"][1]]
        s["tf"]["moved"][att["id"]] += 1
        ctx.ev("gain_ground", f"{att['id']} gains ground into {hex_name(r2['start'])}.",
               unit=att["id"])
        entered(ctx, att, r2["start"], follow=True)


def pursuit_hex(s: dict[str, Any], att: dict[str, Any], tgt: dict[str, Any],
                opts: dict[str, Any]) -> Hex | None:
    """Pick the pursuit hex: the one named on the BATTLE line if possible, else one next to
    the retreated target, else stay (spec §5.9.3 options a-c)."""
    here = uhex(att)
    cand = [h for h in neighbours(here) if passable(s, h) and occupant(s, h) is None]
    want = opts.get("pursue")
    if want:
        # PURSUE <hex> [OR <hex> ...]: the first free one (a hex next to the vacated one,
        # the attacker's starting hex included: p.18 option c); none free: no pursuit move
        wants = [want] if isinstance(want[0], int) else want
        for w in wants:
            if tuple(w) in cand:
                return tuple(w)  # type: ignore[return-value]
        return None
    if tgt["id"] in s["units"]:
        th = uhex(tgt)
        if distance(here, th) == 1:
            return None
        near = [h for h in cand if distance(h, th) == 1]
        if near:
            return min(near, key=lambda h: (-(feat(s, h, "cap_on") or 9), h))
    return None
