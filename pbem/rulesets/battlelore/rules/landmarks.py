"""Landmarks with special abilities (rulebook p.38-42; spec §5.11).

What happens when a unit enters a landmark hex (Stronghold capture and recapture, the
Healing Spring), the Pentagram's income at the end of its owner's turn, the Training
Camp drill and the Rogue's Hideout secret passage. The general landmark rules (stop, no
battle after entering, caps, bold, line of sight) are data in terrain.toml.
"""

from __future__ import annotations

from pbem.core.i18n import Msg, _
from pbem.core.kit import Context

from ..board import Hex, hex_name
from ..data import term
from ..state import Landmark, Unit, hkey, landmark_at, lore_of, occupant, terrain_at, uhex
from .cards import draw_command
from .common import state_of
from .losses import check_victory
from .tokens import gain_tokens


def entered(ctx: Context, u: Unit, h: Hex, *, follow: bool = False) -> None:
    """A unit moved (or gained ground / pursued) onto `h`; retreats: `retreated_onto`."""
    s = state_of(ctx)
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
        if follow or u["id"] in s["this_turn"]["wants_battle"]:
            if u["figures"] < u["full"]:
                ctx.log.public("spring", _("{unit} battles this turn and does not use the "
                                           "Healing Spring.", unit=u["id"]))
        elif u["figures"] < u["full"]:
            u["figures"] = u["full"]
            s["this_turn"]["no_battle"].append(u["id"])
            del s["landmarks"][hkey(h)]
            ctx.log.public("heal", _("{unit} drinks from the Healing Spring at {hex}: back to "
                                     "{n} figures; it may not battle this turn; the spring is "
                                     "gone.", unit=u["id"], hex=hex_name(h), n=u["full"]))


def retreated_onto(ctx: Context, u: Unit) -> None:
    """A unit ended its retreat on a hex. Rulebook p.41: the Stronghold changes hands when
    the enemy "takes possession" of it (birtokba veszi) and is recaptured when the owner
    "takes it back" (visszafoglalod); the rulebook names no way of arriving, and p.23 uses
    the same words for a creature simply standing on a landmark. So a unit that ends a
    retreat on it captures (or recaptures) it too; the spec's "a retreat does not capture"
    (§5.11) is overruled. A hex only passed through during a retreat is not held. Other
    landmarks: a retreat heals nobody (spring) and takes no Victory Shield (adventure)."""
    lm = landmark_at(state_of(ctx), uhex(u))
    if lm is not None and lm["kind"] == "stronghold":
        stronghold(ctx, u, lm)


def stronghold(ctx: Context, u: Unit, lm: Landmark) -> None:
    """p.41: an enemy occupying it takes a random Command card of the owner's hand; the
    owner plays one card short until one of his units re-occupies it, then draws at once."""
    s = state_of(ctx)
    owner = lm["owner"]
    if owner is None:
        return  # a Stronghold always has an owner (position.problems says so)
    if u["owner"] != owner and not lm.get("captured"):
        lm["captured"] = True
        hand = s["hands"][owner]
        if hand:
            i = ctx.dice.pick(len(hand), _("card taken from {seat}'s hand (Stronghold)",
                                           seat=owner))
            card = hand.pop(i)
            s["discard"].append(card)
            ctx.log.public("stronghold", _("{unit} occupies {owner}'s Stronghold: {seat} takes a "
                                           "random Command card from {owner}'s hand and "
                                           "discards it ({card}).", unit=u["id"], owner=owner,
                                           seat=u["owner"], card=card), card=card)
        s["hand_size"][owner] -= 1
    elif u["owner"] == owner and lm.get("captured"):
        lm["captured"] = False
        s["hand_size"][owner] += 1
        draw_command(ctx, owner)
        ctx.log.public("stronghold", _("{seat} re-occupies the Stronghold and draws a Command "
                                       "card.", seat=owner))


def end_of_turn(ctx: Context) -> None:
    """p.38-39: the Pentagram gives its owner 1 Lore token if his unit stands on it."""
    s = state_of(ctx)
    a = s["active"]
    for key, lm in sorted(s["landmarks"].items()):
        if lm["kind"] == "pentagram" and lm.get("owner") == a:
            for u in s["units"].values():
                if u["owner"] == a and hkey(u["hex"]) == key:
                    gain_tokens(ctx, a, 1, _("from the Pentagram"))


def drill(ctx: Context, u: Unit) -> Msg | None:
    """p.40 Training Camp: an ordered own unit already in the camp upgrades its banner;
    it may not move or battle; the camp is removed. SPEC-AMBIGUITY §10.14: red cannot."""
    s = state_of(ctx)
    lm = landmark_at(s, uhex(u))
    if lm is None or lm["kind"] != "training_camp" or lm.get("owner") != u["owner"]:
        return _("it is not on its own Training Camp")
    if u["colour"] == "red":
        return _("a red unit cannot drill (no higher colour)")
    if s["this_turn"]["moved"].get(u["id"]) or u["id"] in s["this_turn"]["battled"]:
        return _("it has already moved or battled")
    u["colour"] = "blue" if u["colour"] == "green" else "red"
    s["this_turn"]["no_battle"].append(u["id"])
    s["this_turn"]["moved"][u["id"]] = 0
    s["this_turn"]["drilled"].append(u["id"])
    del s["landmarks"][hkey(u["hex"])]
    ctx.log.public("drill", _("{unit} drills in the Training Camp and now carries a {colour} "
                              "banner; the camp is removed.", unit=u["id"],
                              colour=term(u["colour"])))
    return None


def passage(ctx: Context, u: Unit, exit_hex: Hex) -> Msg | None:
    """p.39-40 Rogue's Hideout: open the secret passage once (an empty forest or hill
    becomes the Secret Exit) and/or move through it for 1 Lore token, using the whole
    move. Only a unit that started the turn on the Hideout may use it."""
    s = state_of(ctx)
    start = s["this_turn"]["start_hex"].get(u["id"])
    lm = landmark_at(s, uhex(u))
    if lm is None or lm["kind"] != "hideout" or lm.get("owner") != u["owner"] or \
            start != hkey(u["hex"]):
        return _("it did not start the turn on its own Rogue's Hideout")
    if occupant(s, exit_hex) is not None:
        return _("{hex} is not empty", hex=hex_name(exit_hex))
    ex = s["secret_exit"].get(u["owner"])
    if ex is None:
        if terrain_at(s, exit_hex) not in ("forest", "hill") or landmark_at(s, exit_hex):
            return _("{hex} is not an empty forest or hill", hex=hex_name(exit_hex))
        s["secret_exit"][u["owner"]] = hkey(exit_hex)
        s["landmarks"][hkey(exit_hex)] = {"kind": "secret_exit", "owner": u["owner"]}
        ctx.log.public("passage", _("{seat} opens a secret passage to {hex}.", seat=u["owner"],
                                    hex=hex_name(exit_hex)))
    elif ex != hkey(exit_hex):
        return _("the secret exit is at {hex}", hex=ex)
    lo = lore_of(s)
    if lo["goblet"][u["owner"]] < 1:
        return _("it needs 1 Lore token")
    lo["goblet"][u["owner"]] -= 1
    lo["pool"] += 1
    u["hex"] = [exit_hex[0], exit_hex[1]]
    s["this_turn"]["moved"][u["id"]] = 99
    ctx.log.public("passage", _("{unit} pays 1 Lore token and takes the secret passage to "
                                "{hex}.", unit=u["id"], hex=hex_name(exit_hex)))
    return None


def take_shield(ctx: Context, u: Unit, h: Hex) -> None:
    """Rulebook p.5, p.44: a Victory Shield on the battlefield counts as a Victory Banner
    for the side that captures it; the adventure says who may take it (here: a unit of that
    side moving onto its hex, which removes the shield)."""
    s = state_of(ctx)
    for sh in list(s["shields"]):
        if sh["hex"] == hkey(h) and sh["side"] == u["owner"]:
            s["shields"].remove(sh)
            seat = u["owner"]
            s["banners"][seat] += 1
            s["shields_taken"][seat] += 1
            ctx.log.public("shield_taken", _("{unit} takes the Victory Shield at {hex}: {seat} "
                                             "has {n} Victory Banners.", unit=u["id"],
                                             hex=hkey(h), seat=seat, n=s["banners"][seat]))
            check_victory(ctx)
