"""Morale (rulebook p.16-19, p.21, p.23-24; spec §5.8-§5.9.1): flags, bold units and what
may be ignored, retreats hex by hex with the owner's choice, blocked retreats, panic rolls
of frightened units, a creature's blocked retreat and trample.

Not here: the roll that scored the flags (battle.py).
"""

from __future__ import annotations

from typing import Any

from pbem.core.i18n import _, n_
from pbem.core.kit import Context

from ..board import Hex, hex_name, neighbours, parse_hex, rear_hexes
from ..data import COLOUR_FACE
from ..state import (
    State,
    Unit,
    feat,
    friends_adjacent,
    landmark_at,
    occupant,
    passable,
    race,
    uclass,
    uhex,
    unit_sort,
    utype,
)
from .common import decide, faces, short, standing, state_of
from .landmarks import retreated_onto
from .losses import critical, eliminate, lose_figures

# --- morale (p.16-17, p.19-23; spec §5.8) ---------------------------------------------

def supported(s: State, u: Unit) -> bool:
    """p.19: two or more adjacent friendly units (webbed ones give none, p.25);
    creatures give support but never receive it (p.23)."""
    if uclass(u) == "creature":
        return False
    return sum(1 for f in friends_adjacent(s, u) if not f["webbed"]) >= 2


def bold_level(s: State, u: Unit) -> int:
    """How many flags of one roll the unit may ignore (99 = all). Sources stack."""
    for eff in s["this_turn"]["effects"]:
        if eff.get("kind") == "ignore_flags" and eff.get("unit") == u["id"]:
            return 99
    if uclass(u) == "creature":
        return 1  # p.23: creatures are bold and must ignore one flag
    b = sum(1 for e in s["this_turn"]["effects"] if e.get("kind") == "bold_all"
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


def frightened(s: State, u: Unit) -> bool:
    """p.21 Goblin Run: every goblinoid unit forced to retreat is frightened."""
    return race(u) == "goblinoid" or any(
        e.get("kind") == "frightened" and e.get("unit") == u["id"] for e in s["this_turn"]["effects"])


def per_flag(s: State, u: Unit) -> int:
    if uclass(u) == "creature":
        return int(utype(u).get("retreat_per_flag", 2))
    return 2 if frightened(s, u) else 1


def retreat_choice(ctx: Context, u: Unit, opts: list[Hex], left_to_go: int) -> Hex:
    """D15: the owner picks each retreat hex. Standing: RETREAT SAFE|LEFT|RIGHT|CENTRE."""
    s = state_of(ctx)
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
    mine = standing(s, seat, f"retreat {u['id']}", "retreat") or ""
    listed = [parse_hex(x) for x in mine.split()]
    if listed and all(listed) and not any(h in opts for h in listed):
        ctx.log.private([seat], "standing_unfit", _(
            "Your standing order RETREAT {order} names no hex open to {unit} now ({hexes}): "
            "SAFE is used.", order=mine.upper(), unit=u["id"], hexes=", ".join(names)),
            seat=seat)
    ans = decide(ctx, seat, "retreat", [f"retreat {u['id']}", "retreat"], names, default,
                 _("Your unit {unit} must retreat {n} more hex(es): to which hex?",
                   unit=short(u), n=left_to_go), resolve_standing=by_policy)
    return opts[names.index(ans)]


def resolve_flags(ctx: Context, att: Unit, u: Unit, flags: int,
                  roller: str) -> dict[str, Any]:
    """Ignore what may be ignored, retreat the rest (p.15-17), panic roll (p.21).
    Returns {"retreated": hexes, "eliminated": bool}."""
    s = state_of(ctx)
    out: dict[str, Any] = {"retreated": 0, "eliminated": False}
    if flags <= 0:
        return out
    ignore = flags_ignored(ctx, u, flags)
    if ignore:
        ctx.log.public("ignore", n_("{unit} ignores {n} flag.", "{unit} ignores {n} flags.",
                                    ignore, unit=u["id"]),
                       unit=u["id"], ignored=ignore)
    rest = flags - ignore
    if rest <= 0:
        return out
    fright = uclass(u) != "creature" and frightened(s, u)
    moved, out["eliminated"] = retreat(ctx, att, u, rest * per_flag(s, u), roller)
    if out["eliminated"]:
        return out
    if moved:
        ctx.log.public("retreat", n_("{unit} retreats {n} hex to {hex}.",
                                     "{unit} retreats {n} hexes to {hex}.", moved,
                                     unit=u["id"], hex=hex_name(uhex(u))),
                       unit=u["id"], hexes=moved,
                       dest=hex_name(uhex(u)))
    out["retreated"] = moved
    if moved:
        retreated_onto(ctx, u)  # p.41: a retreat onto a Stronghold occupies it too
    if fright and moved:
        rolled = faces(ctx.dice, moved, _("panic roll against {unit}", unit=u["id"]))
        lost = rolled.count(COLOUR_FACE[u["colour"]])
        ctx.log.public("panic", _("Panic roll by {seat} against {unit}: {faces}.", seat=roller,
                                  unit=u["id"], faces=" ".join(rolled)),
                       faces=rolled)
        if lose_figures(ctx, u, lost, _("to panic")):
            out["eliminated"] = True
    return out


def flags_ignored(ctx: Context, u: Unit, flags: int) -> int:
    """D14: how many of the flags a bold unit ignores (a creature must ignore one, p.23)."""
    mx = min(bold_level(state_of(ctx), u), flags)
    mn = 1 if uclass(u) == "creature" and mx >= 1 else 0
    if mx <= mn:
        return mx
    counts = [str(i) for i in range(mx, mn - 1, -1)]

    def pol(p: str) -> str:
        if p.isdigit():  # IGNORE <n>: as many as asked, within what is allowed
            return str(max(mn, min(mx, int(p))))
        return str(mx) if p == "all" else str(mn) if p == "none" else p

    return int(decide(ctx, u["owner"], "ignore", [f"ignore {u['id']}", "ignore"], counts,
                      str(mx), _("{unit} is hit by {n} flag(s) and may ignore up to {most}: "
                                 "how many?", unit=short(u), n=flags, most=mx),
                      resolve_standing=pol))


def retreat(ctx: Context, att: Unit, u: Unit, hexes: int, roller: str) -> tuple[int, bool]:
    """Retreat `hexes` hexes one by one toward the owner's edge (p.16); a unit that cannot
    loses a figure per hex not retreated, a creature tramples (p.23-24). Returns (hexes
    moved, eliminated)."""
    s = state_of(ctx)
    moved = 0
    for i in range(hexes):
        opts = [h for h in rear_hexes(uhex(u), u["owner"])
                if passable(s, h) and occupant(s, h) is None]
        if not opts:
            left = hexes - i
            if uclass(u) == "creature":
                r = creature_blocked(ctx, att, u, left, roller)
                return moved + r["moved"], bool(r["eliminated"])
            ctx.log.public("retreat_blocked", _("{unit} cannot retreat {n} more hex(es).",
                                                unit=u["id"], n=left), unit=u["id"])
            return moved, lose_figures(ctx, u, left, _("for a blocked retreat"))
        h = retreat_choice(ctx, u, opts, hexes - i)
        u["hex"] = [h[0], h[1]]
        moved += 1
    return moved, False


def creature_blocked(ctx: Context, att: Unit, u: Unit, left: int,
                     roller: str) -> dict[str, Any]:
    """p.23-24: a creature that cannot retreat: critical check (1 die per hex), then
    trample the units blocking it (figures = hexes not retreated, spec §10.9), then go on
    through an emptied hex without further checks."""
    s = state_of(ctx)
    rolled = faces(ctx.dice, left, _("blocked retreat check against {unit}", unit=u["id"]))
    ctx.log.public("blocked_check", _("{unit} cannot retreat {n} hex(es): {seat} rolls "
                                      "{faces}.", unit=u["id"], n=left, seat=roller,
                                      faces=" ".join(rolled)), faces=rolled)
    hits = rolled.count(COLOUR_FACE[u["colour"]])
    if critical(ctx, u, hits):
        eliminate(ctx, u, _("by a critical hit"))
        return {"moved": 0, "eliminated": True}
    moved = 0
    rear = rear_hexes(uhex(u), u["owner"])
    blockers = [o for h in rear if (o := occupant(s, h)) is not None]
    if blockers:
        for b in sorted(blockers, key=unit_sort):
            if b["id"] in s["units"]:
                lose_figures(ctx, b, left, _("trampled by {unit}", unit=u["id"]))
        for step in range(left):
            opts = [h for h in rear_hexes(uhex(u), u["owner"])
                    if passable(s, h) and occupant(s, h) is None]
            if not opts:
                break
            h = retreat_choice(ctx, u, opts, left - step)
            u["hex"] = [h[0], h[1]]
            moved += 1
    return {"moved": moved, "eliminated": False}
