"""What each Lore card does (data: lore_cards.toml; rulebook p.27-32 for the general
rules, the individual texts mostly assumptions labelled in the data).

`target_problem` checks a card's target before it is paid for; `apply_effect` carries it
out. Effects that last put an entry in the turn's `effects` list with a scope: `roll`
(the next roll only), `battle` (this battle) or `turn`. Values like "1/level+1" follow the
rulebook notation (p.28).
"""

from __future__ import annotations

from typing import Any

from .board import distance, hex_name, neighbours, parse_hex
from .ctx import Ctx
from .state import COLOUR_FACE, occupant, other, passable, uclass, uhex


def value(expr: Any, level: int) -> int:
    """`a/level+b` -> a*level+b (TC-43: 2/level+3 is 5, 7, 9 at levels 1-3)."""
    if isinstance(expr, int):
        return expr
    a, _, rest = str(expr).partition("/level")
    b = int(rest) if rest else 0
    return max(0, int(a) * level + b)


def halve(n: int) -> int:
    """p.31: halving rounds up (TC-60: 7 -> 4)."""
    return (n + 1) // 2


def target_problem(s: dict[str, Any], seat: str, card: dict[str, Any], unit: str, h: Any,
                   info: dict[str, Any]) -> str | None:
    t = card["target"]
    eff = card["effect"]
    if t == "own_unit":
        u = s["units"].get(unit)
        if u is None or u["owner"] != seat:
            return "it needs one of your units on the board (ON <unit>)"
        if eff == "heal" and u["fig"] >= u["max"]:
            return f"{unit} is at full strength"
        if eff == "portal":
            dest = tuple(h) if h else None
            if dest is None or not passable(s, dest) or occupant(s, dest) is not None:
                return "Portal needs an empty hex (TO <hex>)"
            if unit in s["tf"]["moved"]:
                return f"{unit} has already moved"
            if distance(uhex(u), dest) > value(card["params"]["hexes"], _lvl(s, seat, card)):
                return f"{hex_name(dest)} is too far for Portal"
        if eff == "extra_move" and unit not in s["tf"]["ordered"]:
            return f"{unit} is not ordered"
    if t == "enemy_unit":
        u = s["units"].get(unit)
        if u is None or u["owner"] == seat:
            return "it needs an enemy unit (ON <unit>)"
        rng = int(card["params"].get("range", 99))
        if not any(distance(uhex(m), uhex(u)) <= rng for m in s["units"].values()
                   if m["owner"] == seat):
            return f"{unit} is more than {rng} hexes from all your units"
    if t == "hex" and not h:
        return "it needs a hex (TO <hex>)"
    if t == "defending_unit":
        u = s["units"].get(unit)
        if u is None or u["owner"] != seat:
            return "it needs one of your units that is being attacked"
    if eff == "backstab":
        a = s["units"].get(info.get("attacker", ""))
        d = s["units"].get(info.get("defender", ""))
        if a is None or d is None or not info.get("melee", distance(uhex(a), uhex(d)) == 1):
            return "Backstab needs a melee roll against your unit"
    if eff == "first_strike":
        a = s["units"].get(info.get("attacker", ""))
        d = s["units"].get(info.get("defender", ""))
        if a is None or d is None or distance(uhex(a), uhex(d)) != 1 or d.get("web"):
            return "a first strike needs a melee attack on a unit that can battle"
    return None


def _lvl(s: dict[str, Any], seat: str, card: dict[str, Any]) -> int:
    lvl = int(s["lore"]["council"][seat].get(card["class"], 0))
    return lvl or 1


def apply_effect(ctx: Ctx, seat: str, card: dict[str, Any], level: int, unit: str, h: Any,
                 info: dict[str, Any]) -> None:
    s = ctx.s
    eff = card["effect"]
    p = card.get("params", {})
    effects = s["tf"]["effects"]
    if eff == "eagle_eye":
        effects.append({"kind": "eagle_eye", "unit": unit, "n": value(p["range"], level),
                        "scope": "turn"})
    elif eff == "extra_move":
        n = value(p["hexes"], level)
        effects.append({"kind": "extra_move", "unit": unit or "*", "seat": seat, "n": n,
                        "scope": "turn"})
        ctx.ev("effect", f"{'Every ordered unit' if not unit else unit} moves {n} hex(es) more "
                         f"this turn.")
    elif eff == "portal":
        u = s["units"][unit]
        dest = tuple(h)
        u["hex"] = [dest[0], dest[1]]
        s["tf"]["moved"][unit] = 0
        ctx.ev("portal", f"{unit} steps through the Portal to {hex_name(dest)}.")
        from .landmarks import entered
        entered(ctx, u, dest)
    elif eff == "damage":
        magic_roll(ctx, seat, s["units"][unit], value(p["dice"], level), card["name"],
                   flags=bool(p.get("flags")), bs=bool(p.get("bs")))
    elif eff == "doom":
        centre = tuple(h) if not isinstance(h, str) else parse_hex(h)
        area = {centre, *neighbours(centre)}  # type: ignore[arg-type]
        for u in sorted((x for x in s["units"].values() if x["owner"] != seat
                         and tuple(x["hex"]) in area), key=lambda x: x["id"]):
            if u["id"] in s["units"]:
                magic_roll(ctx, seat, u, value(p["dice"], level), card["name"], flags=False, bs=False)
    elif eff == "crowd":
        effects.append({"kind": "crowd", "seat": seat, "n": value(p["dice"], level), "scope": "turn"})
    elif eff == "extra_dice":
        effects.append({"kind": "extra_dice", "unit": unit, "n": value(p["dice"], level),
                        "scope": "battle"})
    elif eff == "heal":
        u = s["units"][unit]
        n = min(value(p["figures"], level), u["max"] - u["fig"])
        u["fig"] += n
        ctx.ev("heal", f"{unit} regains {n} figure(s) ({u['fig']}).")
    elif eff == "broad_shield":
        effects.append({"kind": "broad_shield", "unit": unit, "scope": "roll"})
    elif eff == "minus_dice":
        effects.append({"kind": "minus_dice", "unit": info.get("attacker", ""),
                        "n": value(p["dice"], level), "scope": "roll",
                        "cancel_lore": bool(p.get("cancel_lore"))})
    elif eff == "gain_tokens":
        from .lore import gain_tokens
        gain_tokens(ctx, seat, value(p["tokens"], level), f"({card['name']})")
    elif eff == "take_tokens":
        lo = s["lore"]
        n = min(value(p["tokens"], level), lo["goblet"][other(seat)])
        lo["goblet"][other(seat)] -= n
        lo["goblet"][seat] += n
        ctx.ev("pick_pocket", f"{seat.capitalize()} takes {n} Lore token(s) from {other(seat)}.")
    elif eff == "ignore_hit":
        effects.append({"kind": "ignore_hit", "unit": unit, "scope": "roll"})
    elif eff == "ignore_flags":
        effects.append({"kind": "ignore_flags", "unit": unit, "scope": "turn"})
    elif eff == "backstab":
        effects.append({"kind": "backstab", "unit": unit, "scope": "roll"})
    elif eff == "false_orders":
        s["tf"]["false_orders"] = True
    elif eff == "terrified":
        effects.append({"kind": "frightened", "unit": info.get("target", ""), "scope": "battle"})
    elif eff == "bold_all":
        effects.append({"kind": "bold_all", "seat": seat, "scope": "turn"})
    elif eff == "havoc":
        effects.append({"kind": "havoc", "unit": unit, "scope": "battle"})
    elif eff == "first_strike":
        from .combat import attack
        a = s["units"][info["attacker"]]
        d = s["units"][info["defender"]]
        here = uhex(a)
        attack(ctx, d, a, melee=True, what="strikes first at")
        s["tf"]["attack_goes_on"] = a["id"] in s["units"] and uhex(a) == here
        if not s["tf"]["attack_goes_on"]:
            ctx.ev("first_strike", f"{a['id']} is repelled before it can roll.")
    elif eff in ("cancel", "deja_vu"):
        pass  # handled where the card is played (lore.play_card)
    else:  # pragma: no cover - data error
        raise ValueError(f"unknown Lore effect {eff}")


def magic_roll(ctx: Ctx, seat: str, u: dict[str, Any], n: int, what: str, *, flags: bool,
               bs: bool) -> None:
    """A Lore card's own dice against a unit: banner-colour helmets hit (and bonus strikes
    when the card says so); flags make it retreat when the card says so."""
    from .combat import critical, eliminate, lose_figures, resolve_flags
    faces = ctx.dice.faces(n, f"{what} dice against {u['id']}")
    ctx.ev("roll", f"{what} against {u['id']}: {' '.join(faces) or 'no dice'}.", faces=faces)
    hits = faces.count(COLOUR_FACE[u["colour"]]) + (faces.count("BS") if bs else 0)
    if uclass(u) == "creature":
        if hits and critical(ctx, u, hits, f"critical re-roll against {u['id']}"):
            eliminate(ctx, u, f"by {what}")
        return
    if hits and lose_figures(ctx, u, hits, f"to {what}"):
        return
    if flags and faces.count("F"):
        resolve_flags(ctx, u, u, faces.count("F"), seat)
