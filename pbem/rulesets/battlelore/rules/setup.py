"""Setting up an adventure (rulebook p.5-6, p.26-27, p.33-36; spec §3): board, terrain,
landmarks, units, Command hands; for Lore adventures the War Councils (council.py).

Not here: the turn (turn.py).
"""

from __future__ import annotations

from typing import Any

from pbem.core.dice import Dice
from pbem.core.i18n import _
from pbem.core.kit import Context

from ..data import SEATS, full_deck, scenario
from ..state import Options, State, Unit, hkey, new_turn, new_unit, other
from .council import after_council, new_lore


def new_game(variant: str, options: Options, dice: Dice) -> State:
    sc = scenario(variant)
    units = army(sc)
    s: State = {
        "scenario": variant, "mode": sc["mode"], "options": options, "phase": "turn",
        "active": sc["first"], "first": sc["first"], "turn": 1, "seats": list(SEATS),
        "sides": {k: str(v) for k, v in sc["sides"].items()}, "terrain": {}, "landmarks": {}, "units": units,
        "hands": {seat: [] for seat in SEATS}, "deck": full_deck(), "discard": [],
        "last_card": {}, "banners": {seat: 0 for seat in SEATS},
        "victory": dict(sc["victory"]), "standing": {seat: {} for seat in SEATS},
        "hand_size": {seat: int(sc.get("hand", {}).get(seat, 0)) for seat in SEATS},
        "result": None, "secret_exit": {}, "pause": None,
        "shields": [{"hex": hkey(sh["hex"]), "side": sh["side"]} for sh in sc.get("shields", [])],
        "shields_taken": {seat: 0 for seat in SEATS}, "lore": None, "place_queue": [],
        "this_turn": new_turn(units),
    }
    for kind, hexes in sc.get("terrain", {}).items():
        for h in hexes:
            s["terrain"][hkey(h)] = kind
    for lm in sc.get("landmarks", []):
        for h in lm["hexes"]:
            s["landmarks"][hkey(h)] = {"kind": lm["kind"], "owner": lm.get("owner")}
    if sc["mode"] == "lore":
        setup_lore(s, sc, dice)
    else:
        deal_command(s, dice)
    return s


def army(sc: dict[str, Any]) -> dict[str, Unit]:
    """The adventure's units, numbered N1... and S1... in the order of its list."""
    units: dict[str, Unit] = {}
    counts = {"north": 0, "south": 0}
    for group in sc["units"]:
        for h in group["hexes"]:
            counts[group["owner"]] += 1
            uid = f"{group['owner'][0].upper()}{counts[group['owner']]}"
            u = new_unit(uid, group["owner"], group["type"], (h[0], h[1]))
            if "figures" in group:
                u["figures"] = int(group["figures"])
            units[uid] = u
    return units


def setup_lore(s: State, sc: dict[str, Any], dice: Dice) -> None:
    """A Lore adventure: the councils, fixed by the adventure (then the Command hands, the
    Lore deck and the 4 cards each, p.26-27) or custom (a sealed step first, p.35)."""
    lo = s["lore"] = new_lore(sc)
    if sc["council"] == "custom":
        s["phase"] = "council"
        return
    for seat in SEATS:
        lo["council"][seat] = dict(sc["council"][seat])
    after_council(Context(s, dice))


def deal_command(s: State, dice: Dice) -> None:
    """Rulebook p.6: shuffle the Command deck and deal each player his hand (hidden)."""
    for seat in (s["first"], other(s["first"])):
        for i in range(s["hand_size"][seat]):
            k = dice.pick(len(s["deck"]), _("Command card {n} dealt to {seat}", n=i + 1,
                                            seat=seat),
                          visible_to=[seat])
            s["hands"][seat].append(s["deck"].pop(k))
        s["hands"][seat].sort()
