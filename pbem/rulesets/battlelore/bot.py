"""Order scripts made by the program: the random bot (selfplay, fuzzing) and the NMR
default. Both only write order lines; the rules check them like any player's.

The bot plays a random card, orders what it may, moves each unit toward the enemy and
battles whatever it can reach, so random games end. Not here: rules.
"""

from __future__ import annotations

import random
from typing import Any

from .board import distance, hex_name, neighbours
from .cards import can_order, effective
from .combat import targets
from .movement import allowance, reachable
from .state import jcopy, race, uclass, uhex, units_of
from .turn import candidate_units, default_card


def nmr_orders(s: dict[str, Any], seat: str) -> list[str]:
    """NMR: play the card that orders the most units, order them, no moves, every ordered
    unit battles ANY legal target; a pending question gets its documented default."""
    ph = s["phase"]
    if ph == "decision":
        return [f"ANSWER {s['resume']['pending']['default']}"]
    if ph in ("council", "keep", "place"):
        from .council import nmr_setup
        return nmr_setup(s, seat)
    if ph != "turn" or s["active"] != seat:
        return []
    cid = default_card(s, seat)
    c = effective(s, seat, cid)
    out = [f"PLAY {cid}"]
    if c is not None:
        units = candidate_units(s, seat, c, len(s["hands"][seat]))
        if units:
            out.append("ORDER " + " ".join(units))
            out += [f"BATTLE {u} ANY" for u in units]
    return out


def random_orders(s: dict[str, Any], seat: str, rng: random.Random) -> list[str]:
    ph = s["phase"]
    if ph == "decision":
        out = [f"ANSWER {rng.choice(s['resume']['pending']['options'])}"]
        if rng.random() < 0.3:  # sometimes standing orders for the rest of the turn
            out.append(rng.choice(["IGNORE ALL", "IGNORE NONE", "RETREAT SAFE",
                                   "RETREAT LEFT", "BATTLEBACK ALWAYS", "BATTLEBACK NEVER"]))
        return out
    if ph in ("council", "keep", "place"):
        from .council import random_setup
        return random_setup(s, seat, rng)
    if ph != "turn" or s["active"] != seat:
        return []
    out: list[str] = []
    if rng.random() < 0.3:
        out.append(rng.choice(["IGNORE ALL", "IGNORE NONE", "RETREAT SAFE", "RETREAT LEFT",
                               "RETREAT RIGHT", "BATTLEBACK ALWAYS", "BATTLEBACK NEVER",
                               "BATTLEBACK 2"]))
    hand = sorted(set(s["hands"][seat]))
    rng.shuffle(hand)
    pick = None
    for cid in hand:
        c = effective(s, seat, cid)
        if c is not None and candidate_units(s, seat, c, len(s["hands"][seat])):
            pick = cid
            break
    pick = pick or hand[0]
    out.append(f"PLAY {pick}")
    c = effective(s, seat, pick)
    if s["mode"] == "lore":
        from .lore import bot_lore
        out += bot_lore(s, seat, rng)
    if c is None:
        return out
    command = len(s["hands"][seat])
    mine = [u["id"] for u in units_of(s, seat)]
    rng.shuffle(mine)
    chosen: list[str] = []
    if c.get("count") == "all":
        chosen = candidate_units(s, seat, c, command)
    else:
        for uid in mine:
            if can_order(s, seat, c, command, chosen, uid, []) is None:
                chosen.append(uid)
    if not chosen:
        return out
    out.append("ORDER " + " ".join(chosen))
    sim = jcopy(s)
    sim["tf"]["card_def"] = c
    battles: list[str] = []
    for uid in chosen:
        u = sim["units"][uid]
        if u.get("web"):
            out.append(f"FREE {uid}")
            continue
        lm = sim.get("landmarks", {}).get(f"{u['hex'][0]}-{u['hex'][1]}")
        if lm is not None and lm.get("owner") == seat and rng.random() < 0.6:
            if lm["kind"] == "training_camp" and u["colour"] != "red":
                out.append(f"DRILL {uid}")
                continue
            if lm["kind"] == "hideout":
                exits = [k for k, v in sorted(sim["terrain"].items()) if v in ("forest", "hill")]
                if exits:
                    out.append(f"PASSAGE {uid} {rng.choice(exits)}")
                    continue
        if c.get("no_move"):
            battles.append(f"BATTLE {uid} ANY")
            if int(c.get("battles", 1)) > 1:
                battles.append(f"BATTLE {uid} ANY")
            continue
        mx, bat = allowance(sim, u)
        if race(u) == "goblinoid" and uclass(u) == "foot" and u["colour"] == "red":
            mx = 1
        foes = [e for e in sim["units"].values() if e["owner"] != seat]
        if not foes:
            continue
        reach = reachable(sim, u, mx)
        here = uhex(u)

        best, best_sc = here, _score(here, 0, False, foes, bat, rng)
        for h, r in reach.items():
            sc = _score(h, r["d"], r["no_battle"], foes, bat, rng)
            if sc < best_sc:
                best, best_sc = h, sc
        rush_target = None
        if race(u) == "goblinoid" and uclass(u) == "foot" and u["colour"] != "green":
            for h, r in reachable(sim, u, 2).items():
                adj = [e for e in foes if uhex(e) in neighbours(h)]
                if r["d"] == 2 and adj and not r["no_battle"] and rng.random() < 0.5:
                    rush_target = (h, adj[0]["id"])
                    break
        if rush_target:
            out.append(f"RUSH {uid} {hex_name(rush_target[0])} AT {rush_target[1]}")
            u["hex"] = [rush_target[0][0], rush_target[0][1]]
            continue
        if best != here and rng.random() < 0.9:
            out.append(f"MOVE {uid} {hex_name(best)}")
            u["hex"] = [best[0], best[1]]
        tl = targets(sim, u)
        named = " OR ".join(t["id"] for t in tl[:2])
        battles.append(f"BATTLE {uid} {named + ' OR ' if named else ''}ANY"
                       + (" HOLD" if rng.random() < 0.1 else ""))
    return out + battles


def _score(h: Any, d: int, nb: bool, foes: list[dict[str, Any]], bat: int,
           rng: random.Random) -> float:
    """Lower is better: close to the enemy, still able to battle, a little noise."""
    near = min(distance(h, uhex(e)) for e in foes)
    pen = 3 if (d > bat or nb) else 0
    return near + pen + rng.random() * 1.5
