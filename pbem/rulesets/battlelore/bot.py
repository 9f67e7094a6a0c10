"""Order scripts made by the program for the random bot (selfplay, fuzzing): it only
writes order lines, which the rules check like any player's.

The bot plays a random card, orders what it may, moves each unit toward the enemy and
battles whatever it can reach, so random games end. The NMR defaults are in phases.py.
Not here: rules.
"""

from __future__ import annotations

import random
from typing import Any

from pbem.core.kit import Question

from .board import Hex, distance, hex_name, neighbours
from .data import LORE_CLASSES, lore_card
from .rules.battle import targets
from .rules.cards import can_order, candidate_units, effective
from .rules.council import budget, keep_count, legal_places
from .rules.movement import allowance, reachable
from .state import State, Unit, jcopy, lore_of, race, uclass, uhex, units_of


def random_orders(s: State, seat: str, rng: random.Random) -> list[str]:
    if s["pause"]:
        return _answer(s, rng)
    if s["phase"] in ("council", "keep", "place"):
        return random_setup(s, seat, rng)
    if s["phase"] != "turn" or s["active"] != seat:
        return []
    return _turn(s, seat, rng)


def _answer(s: State, rng: random.Random) -> list[str]:
    """A random answer to the open question, sometimes with a standing order."""
    assert s["pause"] is not None
    q = Question.from_json(s["pause"]["questions"][0])
    out = [rng.choice(q.options)]
    if rng.random() < 0.3:  # sometimes standing orders for the rest of the turn
        out.append(rng.choice(["IGNORE ALL", "IGNORE NONE", "RETREAT SAFE",
                               "RETREAT LEFT", "BATTLEBACK ALWAYS", "BATTLEBACK NEVER"]))
    return out


def _turn(s: State, seat: str, rng: random.Random) -> list[str]:
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
    sim: State = jcopy(s)
    sim["this_turn"]["acts_as"] = c["id"]
    battles: list[str] = []
    for uid in chosen:
        _unit_lines(sim, seat, sim["units"][uid], c, rng, out, battles)
    return out + battles


def _unit_lines(sim: State, seat: str, u: Unit, c: dict[str, Any], rng: random.Random,
                out: list[str], battles: list[str]) -> None:
    """One ordered unit's lines: free it, drill, take the passage, or move toward the
    enemy (a Goblin Rush now and then) and battle what it can reach."""
    uid = u["id"]
    if u["webbed"]:
        out.append(f"FREE {uid}")
        return
    lm = sim["landmarks"].get(f"{u['hex'][0]}-{u['hex'][1]}")
    if lm is not None and lm.get("owner") == seat and rng.random() < 0.6:
        if lm["kind"] == "training_camp" and u["colour"] != "red":
            out.append(f"DRILL {uid}")
            return
        if lm["kind"] == "hideout":
            ex = sim["secret_exit"].get(seat)
            exits = [ex] if ex else [k for k, v in sorted(sim["terrain"].items())
                                     if v in ("forest", "hill") and k not in sim["landmarks"]]
            if exits:
                out.append(f"PASSAGE {uid} {rng.choice(exits)}")
                return
    if c.get("no_move"):
        battles.append(f"BATTLE {uid} ANY")
        if int(c.get("battles", 1)) > 1:
            battles.append(f"BATTLE {uid} ANY")
        return
    mx, bat = allowance(sim, u)
    if race(u) == "goblinoid" and uclass(u) == "foot" and u["colour"] == "red":
        mx = 1
    foes = [e for e in sim["units"].values() if e["owner"] != seat]
    if not foes:
        return
    here = uhex(u)
    best, best_sc = here, _score(here, 0, False, foes, bat, rng)
    for h, r in reachable(sim, u, mx).items():
        sc = _score(h, r["d"], r["no_battle"], foes, bat, rng)
        if sc < best_sc:
            best, best_sc = h, sc
    rush_target = _rush_target(sim, u, foes, rng)
    if rush_target:
        out.append(f"RUSH {uid} {hex_name(rush_target[0])} AT {rush_target[1]}")
        u["hex"] = [rush_target[0][0], rush_target[0][1]]
        return
    if best != here and rng.random() < 0.9:
        out.append(f"MOVE {uid} {hex_name(best)}")
        u["hex"] = [best[0], best[1]]
    tl = targets(sim, u)
    named = " OR ".join(t["id"] for t in tl[:2])
    battles.append(f"BATTLE {uid} {named + ' OR ' if named else ''}ANY"
                   + (" HOLD" if rng.random() < 0.1 else ""))


def _rush_target(sim: State, u: Unit, foes: list[Unit],
                 rng: random.Random) -> tuple[Hex, str] | None:
    if race(u) == "goblinoid" and uclass(u) == "foot" and u["colour"] != "green":
        for h, r in reachable(sim, u, 2).items():
            adj = [e for e in foes if uhex(e) in neighbours(h)]
            if r["d"] == 2 and adj and not r["no_battle"] and rng.random() < 0.5:
                return (h, adj[0]["id"])
    return None


def random_setup(s: State, seat: str, rng: random.Random) -> list[str]:
    ph = s["phase"]
    if ph == "council":
        b = budget(s, seat)
        levels: dict[str, int] = {}
        masters = ["commander", *LORE_CLASSES]
        while b > 0 and rng.random() < 0.9:
            m = rng.choice(masters)
            if levels.get(m, 0) < 3:
                levels[m] = levels.get(m, 0) + 1
                b -= 1
        if not levels:
            return ["COUNCIL commander 1"]
        order = ["commander", *LORE_CLASSES]
        return ["COUNCIL " + " ".join(f"{m} {levels[m]}" for m in order if m in levels)]
    if ph == "keep":
        n = keep_count(s, seat)
        offer = list(lore_of(s)["offer"][seat])
        rng.shuffle(offer)
        return [f"KEEP {' '.join(offer[:n])}"] if n else []
    if ph == "place":
        out = []
        for p in s["place_queue"]:
            if p["seat"] == seat:
                ok = legal_places(s, seat, p["kind"])
                out.append(f"PLACE {p['kind']} {hex_name(rng.choice(ok))}")
        return out
    return []


def bot_lore(s: State, seat: str, rng: random.Random) -> list[str]:
    lo = lore_of(s)
    out: list[str] = []
    mine = sorted(u["id"] for u in s["units"].values() if u["owner"] == seat)
    foes = sorted(u["id"] for u in s["units"].values() if u["owner"] != seat)
    for cid in sorted(set(lo["hands"][seat])):
        c = lore_card(cid)
        if c.get("reaction") and c["phase"] != "with_lore":
            if rng.random() < 0.5:
                out.append(f"REACT {cid} ON ANY")
            continue
        if rng.random() < 0.5 or not mine:
            continue
        line = f"LORE {cid}"
        if c["target"] == "own_unit":
            line += f" ON {rng.choice(mine)}"
        elif c["target"] == "enemy_unit" and foes:
            line += f" ON {rng.choice(foes)}"
        if c["effect"] == "portal" or c["target"] == "hex":
            u = s["units"][rng.choice(foes or mine)]
            line += f" TO {u['hex'][0]}-{u['hex'][1]}"
        out.append(line)
    if rng.random() < 0.2:
        out.append("REACT ASK")
    out.append(f"REPLENISH {rng.choice(['CARDS', 'CARD_TOKEN', 'TOKENS'])}")
    return out


def _score(h: Any, d: int, nb: bool, foes: list[Unit], bat: int,
           rng: random.Random) -> float:
    """Lower is better: close to the enemy, still able to battle, a little noise."""
    near = min(distance(h, uhex(e)) for e in foes)
    pen = 3 if (d > bat or nb) else 0
    return near + pen + rng.random() * 1.5
