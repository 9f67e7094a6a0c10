"""What each Lore card does: one small function per effect id of data/lore_cards.toml,
looked up in the `EFFECTS` registry (pbem.core.kit.effects).

The general rules are the rulebook's (p.27-32); the individual card texts are not in the
rulebook extract, so most effects are assumptions labelled in the data. Effects that last
put an entry in the turn's `effects` list with a scope: `roll` (the next roll only),
`battle` (this battle) or `turn`. Values like "1/level+1" follow the rulebook notation
(p.28). `target_problem` checks a card's target before it is paid for.

Not here: playing a card (paying, Foiled!, Déjà Vu!, the windows: rules/lore.py); the
first strike's attack itself, which the battle rules make (rules/battle.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pbem.core.i18n import Msg, _
from pbem.core.kit import Context, Effects

from .board import Hex, distance, hex_name, neighbours, parse_hex
from .data import COLOUR_FACE
from .rules.common import faces, state_of
from .rules.landmarks import entered
from .rules.losses import critical, eliminate, lose_figures
from .rules.morale import resolve_flags
from .rules.tokens import gain_tokens
from .state import Effect, State, Unit, lore_of, occupant, other, passable, uclass, uhex

EFFECTS = Effects("Lore effect")


@dataclass(frozen=True)
class Cast:
    """A Lore card being carried out: who played it, at which level, on what."""

    seat: str
    card: dict[str, Any]
    level: int
    unit: str = ""
    hex: Any = None  # a hex (or hex text) named by TO
    info: dict[str, Any] = field(default_factory=dict)  # the situation of a reaction

    def value(self, param: str) -> int:
        return value(self.card["params"][param], self.level)


def value(expr: Any, level: int) -> int:
    """`a/level+b` -> a*level+b (TC-43: 2/level+3 is 5, 7, 9 at levels 1-3)."""
    if isinstance(expr, int):
        return expr
    a, _sep, rest = str(expr).partition("/level")
    b = int(rest) if rest else 0
    return max(0, int(a) * level + b)


def halve(n: int) -> int:
    """p.31: halving rounds up (TC-60: 7 -> 4)."""
    return (n + 1) // 2


def apply_effect(ctx: Context, cast: Cast) -> None:
    EFFECTS(cast.card["effect"], ctx, cast)


def _lasting(ctx: Context, effect: Effect) -> None:
    state_of(ctx)["this_turn"]["effects"].append(effect)


# --- effects that last a roll, a battle or the turn ---------------------------------------

@EFFECTS.register("eagle_eye")
def eagle_eye(ctx: Context, cast: Cast) -> None:
    """Eagle Eye (assumption): this turn the unit ignores line of sight and gains range."""
    _lasting(ctx, {"kind": "eagle_eye", "unit": cast.unit, "n": cast.value("range"),
                   "scope": "turn"})


@EFFECTS.register("extra_move")
def extra_move(ctx: Context, cast: Cast) -> None:
    """Mass Speed, Move as the Wind (assumption): a unit, or every ordered unit, moves more."""
    n = cast.value("hexes")
    _lasting(ctx, {"kind": "extra_move", "unit": cast.unit or "*", "seat": cast.seat, "n": n,
                   "scope": "turn"})
    ctx.log.public("effect", _("{unit} moves {n} hex(es) more this turn.", unit=cast.unit, n=n)
                   if cast.unit else _("Every ordered unit moves {n} hex(es) more this turn.",
                                       n=n))


@EFFECTS.register("crowd")
def crowd(ctx: Context, cast: Cast) -> None:
    """Strength of the Crowd (assumption): the seat's attacks roll more dice this turn."""
    _lasting(ctx, {"kind": "crowd", "seat": cast.seat, "n": cast.value("dice"), "scope": "turn"})


@EFFECTS.register("extra_dice")
def extra_dice(ctx: Context, cast: Cast) -> None:
    """Bless, Strength (p.31-32: the cleric's Bless; dice from cards may pass the cap, p.36)."""
    _lasting(ctx, {"kind": "extra_dice", "unit": cast.unit, "n": cast.value("dice"),
                   "scope": "battle"})


@EFFECTS.register("broad_shield")
def broad_shield(ctx: Context, cast: Cast) -> None:
    """Broad Shield (spec TC-65): the next roll against the unit does no physical harm."""
    _lasting(ctx, {"kind": "broad_shield", "unit": cast.unit, "scope": "roll"})


@EFFECTS.register("minus_dice")
def minus_dice(ctx: Context, cast: Cast) -> None:
    """Blinding Light (p.31): the attacker rolls fewer dice, and no dice from Lore cards."""
    _lasting(ctx, {"kind": "minus_dice", "unit": cast.info.get("attacker", ""),
                   "n": cast.value("dice"), "scope": "roll",
                   "cancel_lore": bool(cast.card["params"].get("cancel_lore"))})


@EFFECTS.register("ignore_hit")
def ignore_hit(ctx: Context, cast: Cast) -> None:
    """Agility (assumption): the unit ignores one helmet hit of the next roll."""
    _lasting(ctx, {"kind": "ignore_hit", "unit": cast.unit, "scope": "roll"})


@EFFECTS.register("ignore_flags")
def ignore_flags(ctx: Context, cast: Cast) -> None:
    """Fearless (spec TC-62): the unit ignores every flag this turn."""
    _lasting(ctx, {"kind": "ignore_flags", "unit": cast.unit, "scope": "turn"})


@EFFECTS.register("backstab")
def backstab(ctx: Context, cast: Cast) -> None:
    """Backstab (assumption): the attacker's bonus strikes hit itself (rules/lore.py)."""
    _lasting(ctx, {"kind": "backstab", "unit": cast.unit, "scope": "roll"})


@EFFECTS.register("terrified")
def terrified(ctx: Context, cast: Cast) -> None:
    """Terrified! (assumption): the enemy unit battled is frightened (p.21) this battle."""
    _lasting(ctx, {"kind": "frightened", "unit": cast.info.get("target", ""),
                   "scope": "battle"})


@EFFECTS.register("bold_all")
def bold_all(ctx: Context, cast: Cast) -> None:
    """Battle Cry (assumption): every unit of the seat is bold once more this turn."""
    _lasting(ctx, {"kind": "bold_all", "seat": cast.seat, "scope": "turn"})


@EFFECTS.register("havoc")
def havoc(ctx: Context, cast: Cast) -> None:
    """Havoc! (spec TC-63): every Lore the unit rolls this battle is a hit, and no token."""
    _lasting(ctx, {"kind": "havoc", "unit": cast.unit, "scope": "battle"})


@EFFECTS.register("false_orders")
def false_orders(ctx: Context, cast: Cast) -> None:
    """False Orders (assumption): one unit the opponent ordered loses its order."""
    state_of(ctx)["this_turn"]["false_orders"] = True


# --- effects carried out at once ------------------------------------------------------------

@EFFECTS.register("portal")
def portal(ctx: Context, cast: Cast) -> None:
    """Portal (assumption): the unit steps to an empty hex in reach; it counts as entering it."""
    s = state_of(ctx)
    u = s["units"][cast.unit]
    dest = (cast.hex[0], cast.hex[1])
    u["hex"] = [dest[0], dest[1]]
    s["this_turn"]["moved"][cast.unit] = 0
    ctx.log.public("portal", _("{unit} steps through the Portal to {hex}.", unit=cast.unit,
                               hex=hex_name(dest)))
    entered(ctx, u, dest)


@EFFECTS.register("damage")
def damage(ctx: Context, cast: Cast) -> None:
    """Fireball, Lightning Bolt (assumption): the card's own dice against an enemy unit."""
    p = cast.card["params"]
    magic_roll(ctx, cast.seat, state_of(ctx)["units"][cast.unit], cast.value("dice"),
               cast.card["name"], flags=bool(p.get("flags")), bs=bool(p.get("bs")))


@EFFECTS.register("doom")
def doom(ctx: Context, cast: Cast) -> None:
    """Creeping Doom (assumption): its dice against every enemy unit on and around a hex."""
    s = state_of(ctx)
    centre = (tuple(cast.hex) if not isinstance(cast.hex, str) else parse_hex(cast.hex))
    area = {centre, *neighbours(centre)}  # type: ignore[arg-type]
    for u in sorted((x for x in s["units"].values() if x["owner"] != cast.seat
                     and tuple(x["hex"]) in area), key=lambda x: x["id"]):
        if u["id"] in s["units"]:
            magic_roll(ctx, cast.seat, u, cast.value("dice"), cast.card["name"], flags=False,
                       bs=False)


@EFFECTS.register("heal")
def heal(ctx: Context, cast: Cast) -> None:
    """Heal, Divine Favour (assumption): the unit regains figures, up to its full strength."""
    u = state_of(ctx)["units"][cast.unit]
    n = min(cast.value("figures"), u["full"] - u["figures"])
    u["figures"] += n
    ctx.log.public("heal", _("{unit} regains {n} figure(s) ({now}).", unit=cast.unit, n=n,
                             now=u["figures"]))


@EFFECTS.register("gain_tokens")
def gain(ctx: Context, cast: Cast) -> None:
    """Rally and the like (p.32: some Lore cards give tokens): tokens from the pool."""
    gain_tokens(ctx, cast.seat, cast.value("tokens"), _("({card})", card=cast.card["name"]))


@EFFECTS.register("take_tokens")
def take_tokens(ctx: Context, cast: Cast) -> None:
    """Pick Pocket (assumption): tokens from the opponent's goblet."""
    lo = lore_of(state_of(ctx))
    n = min(cast.value("tokens"), lo["goblet"][other(cast.seat)])
    lo["goblet"][other(cast.seat)] -= n
    lo["goblet"][cast.seat] += n
    ctx.log.public("pick_pocket", _("{seat} takes {n} Lore token(s) from {other}.",
                                    seat=cast.seat.capitalize(), n=n, other=other(cast.seat)))


@EFFECTS.register("first_strike", "cancel", "deja_vu")
def made_elsewhere(ctx: Context, cast: Cast) -> None:
    """First Strike (p.18: the defender strikes before the attacker rolls) is an attack the
    battle rules make when the card is played; Foiled! (p.31) and Déjà Vu! act on the card
    they answer where cards are played (rules/lore.py). Nothing more to do here."""


def magic_roll(ctx: Context, seat: str, u: Unit, n: int, what: Msg, *, flags: bool,
               bs: bool) -> None:
    """A Lore card's own dice against a unit: banner-colour helmets hit (and bonus strikes
    when the card says so); flags make it retreat when the card says so."""
    rolled = faces(ctx.dice, n, _("{card} dice against {unit}", card=what, unit=u["id"]))
    ctx.log.public("roll", _("{card} against {unit}: {faces}.", card=what, unit=u["id"],
                             faces=" ".join(rolled) or _("no dice")), faces=rolled)
    hits = rolled.count(COLOUR_FACE[u["colour"]]) + (rolled.count("BS") if bs else 0)
    if uclass(u) == "creature":
        if hits and critical(ctx, u, hits):
            eliminate(ctx, u, _("by {card}", card=what))
        return
    if hits and lose_figures(ctx, u, hits, _("to {card}", card=what)):
        return
    if flags and rolled.count("F"):
        resolve_flags(ctx, u, u, rolled.count("F"), seat)


# --- targets -----------------------------------------------------------------------------------

def level_for(s: State, seat: str, card: dict[str, Any]) -> int:
    return int(lore_of(s)["council"][seat].get(card["class"], 0)) or 1


Check = Callable[[State, str, dict[str, Any], str, Any, dict[str, Any]], "Msg | None"]


def _own_unit(s: State, seat: str, card: dict[str, Any], unit: str, h: Any,
              info: dict[str, Any]) -> Msg | None:
    u = s["units"].get(unit)
    if u is None or u["owner"] != seat:
        return _("it needs one of your units on the board (ON <unit>)")
    check = OWN_UNIT_CHECKS.get(card["effect"])
    return check(s, seat, card, unit, h, info) if check is not None else None


def _enemy_unit(s: State, seat: str, card: dict[str, Any], unit: str, h: Any,
                info: dict[str, Any]) -> Msg | None:
    u = s["units"].get(unit)
    if u is None or u["owner"] == seat:
        return _("it needs an enemy unit (ON <unit>)")
    rng = int(card["params"].get("range", 99))
    if not any(distance(uhex(m), uhex(u)) <= rng for m in s["units"].values()
               if m["owner"] == seat):
        return _("{unit} is more than {n} hexes from all your units", unit=unit, n=rng)
    return None


def _a_hex(s: State, seat: str, card: dict[str, Any], unit: str, h: Any,
           info: dict[str, Any]) -> Msg | None:
    return None if h else _("it needs a hex (TO <hex>)")


def _defending_unit(s: State, seat: str, card: dict[str, Any], unit: str, h: Any,
                    info: dict[str, Any]) -> Msg | None:
    u = s["units"].get(unit)
    if u is None or u["owner"] != seat:
        return _("it needs one of your units that is being attacked")
    return None


TARGETS: dict[str, Check] = {"own_unit": _own_unit, "enemy_unit": _enemy_unit, "hex": _a_hex,
                             "defending_unit": _defending_unit}


def _heal_target(s: State, seat: str, card: dict[str, Any], unit: str, h: Any,
                 info: dict[str, Any]) -> Msg | None:
    u = s["units"][unit]
    return _("{unit} is at full strength", unit=unit) if u["figures"] >= u["full"] else None


def _portal_target(s: State, seat: str, card: dict[str, Any], unit: str, h: Any,
                   info: dict[str, Any]) -> Msg | None:
    dest: Hex | None = (h[0], h[1]) if h else None
    if dest is None or not passable(s, dest) or occupant(s, dest) is not None:
        return _("Portal needs an empty hex (TO <hex>)")
    if unit in s["this_turn"]["moved"]:
        return _("{unit} has already moved", unit=unit)
    if distance(uhex(s["units"][unit]), dest) > value(card["params"]["hexes"],
                                                       level_for(s, seat, card)):
        return _("{hex} is too far for Portal", hex=hex_name(dest))
    return None


def _extra_move_target(s: State, seat: str, card: dict[str, Any], unit: str, h: Any,
                       info: dict[str, Any]) -> Msg | None:
    if unit not in s["this_turn"]["ordered"]:
        return _("{unit} is not ordered", unit=unit)
    return None


def _melee_roll(s: State, info: dict[str, Any]) -> tuple[Unit, Unit] | None:
    a = s["units"].get(info.get("attacker", ""))
    d = s["units"].get(info.get("defender", ""))
    return (a, d) if a is not None and d is not None else None


def _backstab_target(s: State, seat: str, card: dict[str, Any], unit: str, h: Any,
                     info: dict[str, Any]) -> Msg | None:
    pair = _melee_roll(s, info)
    if pair is None or not info.get("melee", distance(uhex(pair[0]), uhex(pair[1])) == 1):
        return _("Backstab needs a melee roll against your unit")
    return None


def _first_strike_target(s: State, seat: str, card: dict[str, Any], unit: str, h: Any,
                         info: dict[str, Any]) -> Msg | None:
    pair = _melee_roll(s, info)
    if pair is None or distance(uhex(pair[0]), uhex(pair[1])) != 1 or pair[1]["webbed"]:
        return _("a first strike needs a melee attack on a unit that can battle")
    return None


OWN_UNIT_CHECKS: dict[str, Check] = {"heal": _heal_target, "portal": _portal_target,
                                     "extra_move": _extra_move_target}
EFFECT_TARGETS: dict[str, Check] = {"backstab": _backstab_target,
                                    "first_strike": _first_strike_target}


def target_kind_problem(s: State, seat: str, card: dict[str, Any], unit: str,
                        h: Any) -> Msg | None:
    """Only whether the card names the kind of target it needs (one of your units, an
    enemy unit, a hex): what no move of the turn can change."""
    u = s["units"].get(unit)
    t = card["target"]
    if t in ("own_unit", "defending_unit") and (u is None or u["owner"] != seat):
        return _("it needs one of your units on the board (ON <unit>)")
    if t == "enemy_unit" and (u is None or u["owner"] == seat):
        return _("it needs an enemy unit (ON <unit>)")
    if t == "hex" and not h:
        return _("it needs a hex (TO <hex>)")
    return None


def target_problem(s: State, seat: str, card: dict[str, Any], unit: str, h: Any,
                   info: dict[str, Any]) -> Msg | None:
    """Why the card cannot be played on this target now (None: it can)."""
    kind = TARGETS.get(card["target"])
    why = kind(s, seat, card, unit, h, info) if kind is not None else None
    if why is None and card["effect"] in EFFECT_TARGETS:
        why = EFFECT_TARGETS[card["effect"]](s, seat, card, unit, h, info)
    return why
