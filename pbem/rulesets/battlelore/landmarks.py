"""Landmarks with special abilities (rulebook p.38-42; spec §5.11).

What happens when a unit enters a landmark hex (Stronghold capture and recapture, the
Healing Spring), the Pentagram's income at the end of its owner's turn, the Training
Camp drill and the Rogue's Hideout secret passage. The general landmark rules (stop, no
battle after entering, caps, bold, line of sight) are data in terrain.toml.
"""

from __future__ import annotations

from typing import Any

from .board import Hex, hex_name
from .ctx import Ctx
from .state import hkey, landmark_at, uhex


def entered(ctx: Ctx, u: dict[str, Any], h: Hex, *, follow: bool = False) -> None:
    """A unit moved (or gained ground / pursued) onto `h`; retreats: `retreated_onto`."""
    s = ctx.s
    take_shield(ctx, u, h)
    lm = landmark_at(s, h)
    if lm is None:
        return
    if lm["kind"] == "stronghold":
        stronghold(ctx, u, lm)
    elif lm["kind"] == "healing_spring" and u["owner"] == lm["owner"] == s["active"]:
        # Rulebook p.40-41: a weakened unit stepping onto its own spring in its own turn is
        # healed at once and may then neither move nor battle; it "may battle, but then it
        # cannot use the spring". So a unit with a BATTLE line does not drink, and a unit
        # arriving by gain ground or pursuit has battled: no healing (the rulebook decides
        # spec §10.30 against the spec's assumption).
        if follow or u["id"] in s["tf"].get("wants_battle", []):
            if u["fig"] < u["max"]:
                ctx.ev("spring", f"{u['id']} battles this turn and does not use the Healing "
                                 f"Spring.")
        elif u["fig"] < u["max"]:
            u["fig"] = u["max"]
            s["tf"]["no_battle"].append(u["id"])
            del s["landmarks"][hkey(h)]
            ctx.ev("heal", f"{u['id']} drinks from the Healing Spring at {hex_name(h)}: back to "
                           f"{u['max']} figures; it may not battle this turn; the spring is gone.")


def retreated_onto(ctx: Ctx, u: dict[str, Any]) -> None:
    """A unit ended its retreat on a hex. Rulebook p.41: the Stronghold changes hands when
    the enemy "takes possession" of it (birtokba veszi) and is recaptured when the owner
    "takes it back" (visszafoglalod); the rulebook names no way of arriving, and p.23 uses
    the same words for a creature simply standing on a landmark. So a unit that ends a
    retreat on it captures (or recaptures) it too; the spec's "a retreat does not capture"
    (§5.11) is overruled. A hex only passed through during a retreat is not held. Other
    landmarks: a retreat heals nobody (spring) and takes no Victory Shield (adventure)."""
    lm = landmark_at(ctx.s, uhex(u))
    if lm is not None and lm["kind"] == "stronghold":
        stronghold(ctx, u, lm)


def stronghold(ctx: Ctx, u: dict[str, Any], lm: dict[str, Any]) -> None:
    """p.41: an enemy occupying it takes a random Command card of the owner's hand; the
    owner plays one card short until one of his units re-occupies it, then draws at once."""
    s = ctx.s
    owner = lm["owner"]
    if u["owner"] != owner and not lm.get("captured"):
        lm["captured"] = True
        hand = s["hands"][owner]
        if hand:
            i = ctx.dice.pick(len(hand), f"card taken from {owner}'s hand (Stronghold)")
            card = hand.pop(i)
            s["discard"].append(card)
            ctx.ev("stronghold", f"{u['id']} occupies {owner}'s Stronghold: {u['owner']} "
                                 f"takes a random Command card from {owner}'s hand and "
                                 f"discards it ({card}).", card=card)
        s["hand_size"][owner] -= 1
    elif u["owner"] == owner and lm.get("captured"):
        lm["captured"] = False
        s["hand_size"][owner] += 1
        from .cards import draw_command
        draw_command(ctx, owner)
        ctx.ev("stronghold", f"{owner} re-occupies the Stronghold and draws a Command card.")


def end_of_turn(ctx: Ctx) -> None:
    """p.38-39: the Pentagram gives its owner 1 Lore token if his unit stands on it."""
    s = ctx.s
    a = s["active"]
    for key, lm in sorted(s.get("landmarks", {}).items()):
        if lm["kind"] == "pentagram" and lm.get("owner") == a:
            for u in s["units"].values():
                if u["owner"] == a and hkey(u["hex"]) == key:
                    from .lore import gain_tokens
                    gain_tokens(ctx, a, 1, "from the Pentagram")


def drill(ctx: Ctx, u: dict[str, Any]) -> str | None:
    """p.40 Training Camp: an ordered own unit already in the camp upgrades its banner;
    it may not move or battle; the camp is removed. SPEC-AMBIGUITY §10.14: red cannot."""
    s = ctx.s
    lm = landmark_at(s, uhex(u))
    if lm is None or lm["kind"] != "training_camp" or lm.get("owner") != u["owner"]:
        return "it is not on its own Training Camp"
    if u["colour"] == "red":
        return "a red unit cannot drill (no higher colour)"
    if s["tf"]["moved"].get(u["id"]) or u["id"] in s["tf"]["battled"]:
        return "it has already moved or battled"
    u["colour"] = {"green": "blue", "blue": "red"}[u["colour"]]
    s["tf"]["no_battle"].append(u["id"])
    s["tf"]["moved"][u["id"]] = 0
    s["tf"]["drilled"].append(u["id"])
    del s["landmarks"][hkey(u["hex"])]
    ctx.ev("drill", f"{u['id']} drills in the Training Camp and now carries a {u['colour']} "
                    f"banner; the camp is removed.")
    return None


def passage(ctx: Ctx, u: dict[str, Any], exit_hex: Hex) -> str | None:
    """p.39-40 Rogue's Hideout: open the secret passage once (an empty forest or hill
    becomes the Secret Exit) and/or move through it for 1 Lore token, using the whole
    move. Only a unit that started the turn on the Hideout may use it."""
    s = ctx.s
    start = s["tf"]["start_hex"].get(u["id"])
    lm = landmark_at(s, uhex(u))
    if lm is None or lm["kind"] != "hideout" or lm.get("owner") != u["owner"] or \
            start != hkey(u["hex"]):
        return "it did not start the turn on its own Rogue's Hideout"
    from .state import occupant, terrain_at
    if occupant(s, exit_hex) is not None:
        return f"{hex_name(exit_hex)} is not empty"
    ex = s.get("secret_exit", {}).get(u["owner"])
    if ex is None:
        if terrain_at(s, exit_hex) not in ("forest", "hill") or landmark_at(s, exit_hex):
            return f"{hex_name(exit_hex)} is not an empty forest or hill"
        s.setdefault("secret_exit", {})[u["owner"]] = hkey(exit_hex)
        s["landmarks"][hkey(exit_hex)] = {"kind": "secret_exit", "owner": u["owner"]}
        ctx.ev("passage", f"{u['owner']} opens a secret passage to {hex_name(exit_hex)}.")
    elif ex != hkey(exit_hex):
        return f"the secret exit is at {ex}"
    goblet = s["lore"]["goblet"][u["owner"]]
    if goblet < 1:
        return "it needs 1 Lore token"
    s["lore"]["goblet"][u["owner"]] -= 1
    s["lore"]["pool"] += 1
    u["hex"] = [exit_hex[0], exit_hex[1]]
    s["tf"]["moved"][u["id"]] = 99
    ctx.ev("passage", f"{u['id']} pays 1 Lore token and takes the secret passage to "
                      f"{hex_name(exit_hex)}.")
    return None


def take_shield(ctx: Ctx, u: dict[str, Any], h: Hex) -> None:
    """Rulebook p.5, p.44: a Victory Shield on the battlefield counts as a Victory Banner
    for the side that captures it; the adventure says who may take it (here: a unit of that
    side moving onto its hex, which removes the shield)."""
    s = ctx.s
    for sh in list(s.get("shields", [])):
        if sh["hex"] == hkey(h) and sh["side"] == u["owner"]:
            s["shields"].remove(sh)
            seat = u["owner"]
            s["banners"][seat] += 1
            s.setdefault("shields_taken", {}).setdefault(seat, 0)
            s["shields_taken"][seat] += 1
            ctx.ev("shield_taken", f"{u['id']} takes the Victory Shield at {hkey(h)}: {seat} has "
                                   f"{s['banners'][seat]} Victory Banners.")
            from .combat import check_victory
            check_victory(ctx)
