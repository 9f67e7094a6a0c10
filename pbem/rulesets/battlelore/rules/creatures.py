"""Creatures (rulebook chapter 7, p.22-26; spec §5.13): ordering a creature outside the
card's section, the Giant Spider's powers (Web, Poison) paid with rolled and stored Lore,
storing Lore on the creature, freeing a webbed unit.

Not here: critical hits (losses.py), a creature's retreat and trample (morale.py).
"""

from __future__ import annotations

from typing import Any

from pbem.core.i18n import Msg, _
from pbem.core.kit import Context

from ..state import Unit, lore_of, uclass, utype
from .cards import slots_of
from .common import decide, state_of
from .tokens import pay_tokens

COST = {"web": 1, "poison": 2}


def creature_choices(att: Unit, tgt: Unit, hits: list[int], lores: int, pool: int) -> list[str]:
    """The answers a creature's owner may give after its roll (p.24-26): `store` (no
    power; the rolled Lore stored while there is room), `token` (no power; the rolled Lore
    taken as tokens), a power (`web`, `poison`: rolled Lore spent before stored), and
    `<power>_token` (the power, the rest as tokens). A `_token` choice is offered only when
    storing would store something."""
    stored = att["stored_lore"]
    cap = int(utype(att).get("store_max", 0))
    powers = [""]
    if lores + stored >= 1 and not tgt["webbed"] and uclass(tgt) != "creature":
        powers.append("web")
    if lores + stored >= 2 and hits and not tgt["poisoned"]:
        powers.append("poison")
    out = []
    for p in powers:
        from_roll = min(COST.get(p, 0), lores)
        room = cap - (stored - (COST.get(p, 0) - from_roll))
        out.append(p or "store")
        if lores - from_roll > 0 and room > 0 and pool > 0:
            out.append(f"{p}_token" if p else "token")
    return out


def creature_powers(ctx: Context, att: Unit, tgt: Unit, hits: list[int], lores: int) -> int:
    """p.24-26 Giant Spider: Web (1 Lore), Poison (2 Lore, needs a hit), storing (max 2).
    Rolled Lore is spent before stored tokens; what is left is stored (while there is room)
    or, if the owner says so, taken as tokens (lore.lore_faces gives them). Returns the
    rolled Lore used or stored. D13 standing: CREATURE <choice> [OR <choice> ...]."""
    s = state_of(ctx)
    lo = lore_of(s)
    stored = att["stored_lore"]
    opts = creature_choices(att, tgt, hits, lores, lo["pool"])
    default = "poison" if "poison" in opts else "web" if "web" in opts else "store"

    def pol(p: str) -> str:
        return _first_fit(p, opts, default)
    choice = decide(ctx, att["owner"], "creature", [f"creature {att['id']}", "creature"], opts,
                    default, _("Your {unit} rolled {n} Lore ({stored} stored): use a power "
                               "({choices})?", unit=att["id"], n=lores, stored=stored,
                               choices=", ".join(opts)), resolve_standing=pol)
    power, _sep, keep = choice.partition("_")
    power = "" if power in ("store", "token") else power
    as_tokens = keep == "token" or choice == "token"
    cost = COST.get(power, 0)
    from_roll = min(cost, lores)
    from_store = cost - from_roll
    if from_store:
        att["stored_lore"] -= from_store
        lo["pool"] += from_store
    if power == "web":
        tgt["webbed"] = True
        ctx.log.public("web", _("{unit} webs {target}: it cannot move, battle or battle back, "
                                "and flags against it are hits.", unit=att["id"],
                                target=tgt["id"]))
    elif power == "poison":
        tgt["poisoned"] = True
        ctx.log.public("poison", _("{unit} poisons {target}: every Lore rolled against it will "
                                   "remove a figure.", unit=att["id"], target=tgt["id"]))
    used = from_roll
    room = int(utype(att).get("store_max", 0)) - att["stored_lore"]
    put = 0 if as_tokens else min(room, lores - from_roll, lo["pool"])
    if put > 0:
        att["stored_lore"] += put
        lo["pool"] -= put
        used += put
        ctx.log.public("store", _("{unit} stores {n} Lore ({stored} stored).", unit=att["id"],
                                  n=put, stored=att["stored_lore"]))
    return used


def _first_fit(p: str, opts: list[str], default: str) -> str:
    """The first choice of a CREATURE standing order that fits this roll (AUTO: the
    default power); none fits: the first, which the decision then reports as not fitting."""
    wanted = []
    for item in p.split(" or "):
        power, _sep, keep = item.partition(" ")
        if power == "auto":
            power = default
        word = f"{power}_token" if keep == "token" and power != "store" else power
        if power == "store" and keep == "token":
            word = "token"
        wanted.append(word)
        for w in (word, word.removesuffix("_token"), "store" if word == "token" else ""):
            if w in opts:
                return w
    return wanted[0]


def free_web(ctx: Context, u: Unit) -> Msg | None:
    """p.25: order the webbed unit and pay 1 token; it may move and battle this turn."""
    if not u["webbed"]:
        return _("it is not webbed")
    if not pay_tokens(ctx, u["owner"], 1, _("to free {unit} from the web", unit=u["id"])):
        return _("it needs 1 Lore token")
    u["webbed"] = False
    ctx.log.public("free", _("{unit} is freed from the web.", unit=u["id"]))
    return None


def pay_creature_order(ctx: Context, uid: str, c: dict[str, Any], command: int,
                       chosen: list[str], paid: list[str]) -> bool:
    """p.22: a creature outside the card's section for 3 Lore tokens (counts against the
    card's limit)."""
    s = state_of(ctx)
    u = s["units"].get(uid)
    if u is None or u["owner"] != s["active"] or uclass(u) != "creature":
        return False
    if len(chosen) >= sum(slots_of(c, command).values()):
        return False
    if not pay_tokens(ctx, u["owner"], 3, _("to order {unit} outside the section", unit=uid)):
        return False
    paid.append(uid)
    return True
