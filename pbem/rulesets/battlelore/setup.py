"""Setting up an adventure (rulebook p.5-6, p.26-27, p.33-36; spec §3): board, terrain,
landmarks, units, Command hands; for Lore adventures the War Councils, the Lore deck, the
starting Lore cards and tokens, and the landmarks of level-3 masters. Also the re-deal of
hidden parts for the leak test.

Not here: the turn (turn.py).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from typing import Any

from pbem.core.dice import Dice
from pbem.core.events import Event
from pbem.core.orders import Parsed

from .cards import full_deck
from .ctx import Ctx, RecDice
from .state import SEATS, data, hkey, new_unit, other
from .turn import fresh_tf


def new_game(variant: str, options: dict[str, Any], dice: Dice) -> dict[str, Any]:
    sc = data("scenarios")[variant]
    s: dict[str, Any] = {
        "scenario": variant, "mode": sc["mode"], "options": options, "phase": "turn",
        "active": sc["first"], "first": sc["first"], "turn": 1, "seats": list(SEATS),
        "sides": dict(sc["sides"]), "terrain": {}, "landmarks": {}, "units": {},
        "hands": {seat: [] for seat in SEATS}, "deck": full_deck(), "discard": [],
        "last_card": {}, "banners": {seat: 0 for seat in SEATS},
        "victory": dict(sc["victory"]), "standing": {seat: {} for seat in SEATS},
        "hand_size": {seat: int(sc.get("hand", {}).get(seat, 0)) for seat in SEATS},
        "resume": None, "result": None, "secret_exit": {},
    }
    for kind, hexes in sc.get("terrain", {}).items():
        for h in hexes:
            s["terrain"][hkey(h)] = kind
    for lm in sc.get("landmarks", []):
        for h in lm["hexes"]:
            s["landmarks"][hkey(h)] = {"kind": lm["kind"], "owner": lm.get("owner")}
    s["shields"] = [{"hex": hkey(sh["hex"]), "side": sh["side"]} for sh in sc.get("shields", [])]
    s["shields_taken"] = {seat: 0 for seat in SEATS}
    counts = {"north": 0, "south": 0}
    for group in sc["units"]:
        for h in group["hexes"]:
            counts[group["owner"]] += 1
            uid = f"{group['owner'][0].upper()}{counts[group['owner']]}"
            u = new_unit(uid, group["owner"], group["type"], (h[0], h[1]))
            if "figures" in group:
                u["fig"] = int(group["figures"])
            s["units"][uid] = u
    s["tf"] = fresh_tf(s)
    if sc["mode"] == "lore":
        from .council import setup_lore
        setup_lore(s, sc, dice)
    else:
        deal_command(s, dice)
    return s


def deal_command(s: dict[str, Any], dice: Dice) -> None:
    """Rulebook p.6: shuffle the Command deck and deal each player his hand (hidden)."""
    for seat in (s["first"], other(s["first"])):
        for i in range(s["hand_size"][seat]):
            k = dice.pick(len(s["deck"]), f"Command card {i + 1} dealt to {seat}",
                          visible_to=[seat])
            s["hands"][seat].append(s["deck"].pop(k))
        s["hands"][seat].sort()


def resolve_setup(s: dict[str, Any], orders: Mapping[str, Parsed],
                  dice: Dice) -> tuple[dict[str, Any], list[Event]]:
    from .council import resolve_council_step
    ctx = Ctx(s, RecDice(dice, []), ask=False)
    resolve_council_step(ctx, orders)
    return s, ctx.events


def redeal(state: dict[str, Any], seat: str | None, rng: random.Random) -> dict[str, Any]:
    """Re-deal what `seat` cannot see: the other hands (Command and Lore) from the cards
    not visible to `seat` (deck + those hands), the other seat's standing orders, and the
    paused-turn snapshot (never shown)."""
    s = copy.deepcopy(state)
    hidden_seats = [x for x in SEATS if x != seat]
    pile = list(s["deck"])
    for h in hidden_seats:
        pile += s["hands"][h]
    rng.shuffle(pile)
    for h in hidden_seats:
        n = len(s["hands"][h])
        s["hands"][h] = sorted(pile[:n])
        pile = pile[n:]
    s["deck"] = sorted(pile)
    if s["mode"] == "lore":
        lo = s["lore"]
        lpile = list(lo["deck"])
        for h in hidden_seats:
            lpile += lo["hands"][h]
            lpile += lo.get("offer", {}).get(h, [])
        rng.shuffle(lpile)
        for h in hidden_seats:
            n = len(lo["hands"][h])
            lo["hands"][h] = sorted(lpile[:n])
            lpile = lpile[n:]
            if lo.get("offer", {}).get(h):
                m = len(lo["offer"][h])
                lo["offer"][h] = sorted(lpile[:m])
                lpile = lpile[m:]
        lo["deck"] = sorted(lpile)
    for h in hidden_seats:
        s["standing"][h] = {"retreat": rng.choice(["safe", "left", "right"])}
    if s.get("resume"):
        s["resume"]["snapshot"]["hands"] = {x: [] for x in SEATS}
    return s
