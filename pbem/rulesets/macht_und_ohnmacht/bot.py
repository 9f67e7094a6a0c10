"""Legal orders: an enumeration of single legal actions (perft pins, report options) and
the random bot's order scripts for every kind of step.

The bot writes scripts the way a player would: a few action lines chosen among those
legal now (later ones may turn illegal and be refused), sometimes standing orders, bids
and IFWIN choices. Randomness only from the `rng` handed in.
Not here: rules (actions.py); the bot never changes the state.
"""

from __future__ import annotations

import random
from itertools import product
from typing import Any

from pbem.core.kit import Order

from . import board, data
from .data import KNIGHT, MAGE
from .orders import (
    BidAnswer,
    Cancel,
    Clear,
    If,
    Pass,
    Place,
    Play,
    PlayInfluence,
    PlayMovement,
    PlayRecruit,
    PlaySea,
    PlayStrength,
    Recruit,
    RetreatPref,
    Serpent,
    StandingBid,
    Take,
)
from .rules import actions
from .rules.standing import legal_effects
from .state import State


def _splits(k: int, m: int) -> list[tuple[int, int]]:
    return [(a, b) for a, b in product(range(k + 1), range(m + 1))]


def legal_actions(state: State, seat: str, *, full: bool = True,
                  rng: random.Random | None = None) -> list[Order]:
    """Every single action order legal for `seat` now (TAKE of a lightning tile without a
    bid). With full=False, movement and sea voyages get one random split per region pair."""
    out: list[Order] = []
    for ttype in sorted({data.ttype(t) for t in state["display"]}):
        out.append(Take(ttype))
    out += [Place(rid) for rid in actions.placeable(state, seat)]
    out.append(Recruit())
    out.extend(legal_plays(state, seat, full=full, rng=rng))
    return out


def legal_plays(state: State, seat: str, *, full: bool = True,
                rng: random.Random | None = None) -> list[Play]:
    """Every tile play legal for `seat` now (with full=False and an rng, one random unit
    split per region pair for movement and sea voyages)."""
    pick = None if full else rng
    cands: list[Play] = []
    for tt in sorted({data.ttype(t) for t in state["held"][seat]}):
        info = data.type_info(tt)
        kind = info["kind"]
        if kind in ("influence", "merlin"):
            cands += _influence_plays(state, tt, info)
        if kind == "strength":
            cands.append(PlayStrength(info["symbol"]))
        if info["recruit"] == "choice2":
            cands += [PlayRecruit(tt, KNIGHT), PlayRecruit(tt, MAGE)]
        elif info["recruit"]:
            cands.append(PlayRecruit(tt))
        if kind == "movement":
            cands += _movement_plays(state, pick)
        if kind == "sea":
            cands += _sea_plays(state, seat, pick)
    return [o for o in cands if actions.mode_problem(state, seat, o) is None]


def _influence_plays(state: State, tt: str, info: dict[str, Any]) -> list[Play]:
    syms = [info["symbol"]] if info["kind"] == "influence" else data.symbols()
    return [PlayInfluence(tt, sym, mode, rid)
            for sym, rid, mode in product(syms, board.region_ids(state), ("BOLSTER", "SEIZE"))
            if state["regions"][rid]["marker"] == sym]


def _movement_plays(state: State, pick: random.Random | None) -> list[Play]:
    out: list[Play] = []
    for a in board.region_ids(state):
        for b in board.neighbours(state, a):
            if b <= a:
                continue
            ra, rb = state["regions"][a], state["regions"][b]
            moves = [(k, m, bk, bm) for (k, m), (bk, bm) in
                     product(_splits(ra[KNIGHT], ra[MAGE]), _splits(rb[KNIGHT], rb[MAGE]))
                     if k + m + bk + bm > 0]
            if pick is not None and moves:
                moves = [pick.choice(moves)]
            out += [PlayMovement(a, b, *mv) for mv in moves]
    return out


def _sea_plays(state: State, seat: str, pick: random.Random | None) -> list[Play]:
    out: list[Play] = []
    regions = board.region_ids(state)
    for a in regions:
        if not state["map"][a]["coastal"] or state["regions"][a]["owner"] != seat:
            continue
        ra = state["regions"][a]
        moves = [(k, m) for k, m in _splits(ra[KNIGHT], ra[MAGE]) if k + m > 0]
        for b in regions:
            if b != a:
                out += [PlaySea(a, b, k, m)
                        for k, m in (moves if pick is None else [pick.choice(moves)])]
    return out


def random_standing(state: State, seat: str, rng: random.Random) -> list[str]:
    lines: list[str] = []
    regions = board.region_ids(state)
    if rng.random() < 0.15:
        lines.append(str(StandingBid(rng.choice(["vp", "rebellion", "swap", "any"]),
                                     rng.randint(0, 3))))
    if rng.random() < 0.15:
        r = rng.random()
        if r < 0.2:
            lines.append(str(Serpent("NEVER")))
        else:
            what = rng.choice(["seize", "bolster", "any", "movement", "castle", "merlin"])
            region = rng.choice(regions) if rng.random() < 0.3 else None
            lines.append(str(Serpent(rng.choice(["NEXT", "EVERY"]), what, region)))
    if rng.random() < 0.15:
        unit = rng.choice(["active", "passive", "mage", "knight", "none"])
        to = tuple(rng.sample(regions, 2)) if unit != "none" and rng.random() < 0.5 else ()
        lines.append(str(RetreatPref(unit, to)))
    if rng.random() < 0.03:
        lines.append(str(Clear(rng.choice(["bid", "serpent", "retreat"]))))
    return lines


def _take_line(state: State, seat: str, o: Take, rng: random.Random) -> str:
    if not data.type_info(o.tile)["lightning"] or rng.random() < 0.2:
        return str(o)
    act = board.active_type(state)
    bid = rng.randint(0, state["reserve"][seat][act])
    effect = None
    if o.tile != "vp" and rng.random() < 0.7:
        effect = rng.choice(legal_effects(state, seat, o.tile))
    return str(Take(o.tile, bid, effect))


def random_script(state: State, seat: str, rng: random.Random) -> list[str]:
    """The bot's orders for whatever `seat` is asked now."""
    pause = state["pause"]
    asked = [q for q in (pause["questions"] if pause else []) if q["seat"] == seat]
    phase = asked[0]["kind"] if asked else "turn"
    p = asked[0]["data"]["pending"] if asked else {}
    lines = random_standing(state, seat, rng)
    act = board.active_type(state)
    if phase == "bid":
        n = rng.randint(0, state["reserve"][seat][act])
        effect = None
        if p["type"] != "vp" and rng.random() < 0.6:
            effect = rng.choice(legal_effects(state, seat, p["type"]))
        return lines + [str(BidAnswer(n, effect))]
    if phase == "serpent":
        return lines + [str(rng.choice([Cancel(), Pass()]))]
    if phase == "retreat":
        unit = rng.choice(["active", "passive", "mage", "knight", "none"])
        to = (rng.choice(p["options"]),) if unit != "none" else ()
        return [ln for ln in lines if not ln.startswith("RETREAT")] + [str(RetreatPref(unit, to))]
    if phase == "effect":
        return lines + [str(rng.choice(legal_effects(state, seat, p["type"])))]
    # a turn: a few actions; PLAY lines in runs of 1-3
    for _ in range(rng.randint(1, 4)):
        plays = legal_plays(state, seat, full=False, rng=rng) if state["held"][seat] else []
        r = rng.random()
        if plays and r < 0.4:
            lines += [str(x) for x in rng.sample(plays, min(len(plays), rng.randint(1, 3)))]
            continue
        singles = [o for o in legal_actions(state, seat, full=False, rng=rng)
                   if not isinstance(o, Play)]
        o = rng.choice(singles)
        if isinstance(o, Place | Recruit) and rng.random() < 0.15:
            region = rng.choice(board.region_ids(state))
            test, arg = rng.choice([("HOLD", region), ("NOT HOLD", region),
                                    ("HOURGLASS >=", str(rng.randint(1, 4))),
                                    ("HOURGLASS <=", str(rng.randint(1, 4)))])
            lines.append(str(If(test, arg, o)))
            continue
        lines.append(_take_line(state, seat, o, rng) if isinstance(o, Take) else str(o))
    return lines


__all__ = ["legal_actions", "legal_plays", "random_script", "random_standing"]
