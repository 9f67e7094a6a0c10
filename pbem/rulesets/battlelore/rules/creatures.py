"""Creatures (rulebook chapter 7, p.22-26; spec §5.13): ordering a creature outside the
card's section, the Giant Spider's powers (Web, Poison) paid with rolled and stored Lore,
storing Lore on the creature, freeing a webbed unit.

Not here: critical hits (losses.py), a creature's retreat and trample (morale.py).
"""

from __future__ import annotations

from typing import Any

from pbem.core.kit import Context

from ..state import Unit, lore_of, uclass, utype
from .cards import slots_of
from .common import decide, state_of
from .tokens import pay_tokens


def creature_powers(ctx: Context, att: Unit, tgt: Unit, hits: list[int], lores: int) -> int:
    """p.24-26 Giant Spider: Web (1 Lore), Poison (2 Lore, needs a hit), storing (max 2).
    Rolled Lore is spent before stored tokens. Returns the rolled Lore used or stored.
    D13 standing: CREATURE AUTO|WEB|POISON|STORE."""
    s = state_of(ctx)
    lo = lore_of(s)
    stored = att["stored_lore"]
    avail = lores + stored
    opts = ["store"]
    if avail >= 1 and not tgt["webbed"] and uclass(tgt) != "creature":
        opts.append("web")
    if avail >= 2 and hits and not tgt["poisoned"]:
        opts.append("poison")
    default = "poison" if "poison" in opts else "web" if "web" in opts else "store"

    def pol(p: str) -> str:
        return default if p == "auto" else p
    choice = decide(ctx, att["owner"], "creature", [f"creature {att['id']}", "creature"], opts,
                    default, f"Your {att['id']} rolled {lores} Lore ({stored} stored): use a "
                    f"power ({', '.join(opts)})?", resolve_standing=pol)
    cost = {"web": 1, "poison": 2, "store": 0}[choice]
    from_roll = min(cost, lores)
    from_store = cost - from_roll
    if from_store:
        att["stored_lore"] -= from_store
        lo["pool"] += from_store
    if choice == "web":
        tgt["webbed"] = True
        ctx.log.public("web", f"{att['id']} webs {tgt['id']}: it cannot move, battle or battle "
                       f"back, and flags against it are hits.")
    elif choice == "poison":
        tgt["poisoned"] = True
        ctx.log.public("poison", f"{att['id']} poisons {tgt['id']}: every Lore rolled against it "
                       f"will remove a figure.")
    used = from_roll
    cap = int(utype(att).get("store_max", 0))
    room = cap - att["stored_lore"]
    left = lores - from_roll
    put = min(room, left, lo["pool"])
    if put > 0:
        att["stored_lore"] += put
        lo["pool"] -= put
        used += put
        ctx.log.public("store", f"{att['id']} stores {put} Lore ({att['stored_lore']} stored).")
    return used


def free_web(ctx: Context, u: Unit) -> str | None:
    """p.25: order the webbed unit and pay 1 token; it may move and battle this turn."""
    if not u["webbed"]:
        return "it is not webbed"
    if not pay_tokens(ctx, u["owner"], 1, f"to free {u['id']} from the web"):
        return "it needs 1 Lore token"
    u["webbed"] = False
    ctx.log.public("free", f"{u['id']} is freed from the web.")
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
    if not pay_tokens(ctx, u["owner"], 3, f"to order {uid} outside the section"):
        return False
    paid.append(uid)
    return True
