"""The random bot: a random legal order script for a seat (selfplay, fuzzing, leak tests).

Every line it writes is a canonical order the parser accepts in the current step. Steps are
drawn from the position at the start of the year, so some may be skipped when they are
reached; that is part of what the playouts exercise.
"""

from __future__ import annotations

import copy
import random

from pbem.core.kit import Question
from pbem.rulesets.kard_es_korona.board import connected
from pbem.rulesets.kard_es_korona.data import ARMS, MP
from pbem.rulesets.kard_es_korona.orders import (
    Bid,
    Cede,
    Choose,
    Deploy,
    Fealty,
    Fight,
    Flee,
    Lead,
    LordAt,
    Losses,
    Move,
    Neutral,
    Oath,
    Part,
    Pass,
    Place,
    Prefer,
    Ransom,
    Recruit,
    Rejoin,
    Reroll,
    RerollPolicy,
    Retreat,
    Sequence,
    Target,
    Veto,
)
from pbem.rulesets.kard_es_korona.rules.control import gmap
from pbem.rulesets.kard_es_korona.rules.economy import election_due
from pbem.rulesets.kard_es_korona.rules.elections import current_office
from pbem.rulesets.kard_es_korona.rules.setup import (
    START_ARMY,
    default_deployment,
    deployment_problems,
    neutral_assignment,
    neutral_units,
)
from pbem.rulesets.kard_es_korona.state import Standing, State, total
from pbem.rulesets.kard_es_korona.view import bidding, moving


def _perm(rng: random.Random) -> tuple[str, ...]:
    arms = list(ARMS)
    rng.shuffle(arms)
    return tuple(arms)


def random_standing(state: State, seat: str, rng: random.Random) -> Standing:
    st: Standing = {}
    if rng.random() < 0.7:
        st["lead"] = {"all": list(_perm(rng))}
        st["target"] = {"open": list(_perm(rng)), "siege": list(_perm(rng))}
        st["reroll"] = rng.choice([0, 1, 2, 3])
        st["flee"] = rng.choice([0, 0, 30, 50])
        st["battle_set"] = True
    if rng.random() < 0.3:
        st["veto"] = {"attack": ["all"]}
        st["sequence"] = rng.choice(["first", "last"])
    if rng.random() < 0.5:
        st["fealty"] = rng.choice(["yes", "no", "castle"])
        st["losses"] = list(_perm(rng))
        st["place"] = list(_perm(rng))
    return st


def redeal(state: State, seat: str | None, rng: random.Random) -> State:
    """For the leak test: other seats' standing orders, their face-down units while the
    movement waits (movement=strict) and, during an election, the treasuries re-dealt."""
    new: State = copy.deepcopy(state)
    if moving(new):  # the arms of others' face-down units
        for stack in new["board"].values():
            n = sum(stack["used"].values())
            if stack["owner"] != seat and n:
                fresh = {a: 0 for a in stack["used"]}
                for _i in range(n):
                    fresh[rng.choice(sorted(fresh))] += 1
                for a in stack["units"]:
                    stack["units"][a] += fresh[a] - stack["used"][a]
                stack["used"] = fresh
        for b in new["battles"]:
            if b["attacker"] != seat:
                n = sum(b["army"].values())
                b["army"] = {a: 0 for a in b["army"]}
                for _i in range(n):
                    b["army"][rng.choice(sorted(b["army"]))] += 1
    for s, p in new["players"].items():
        if s == seat:
            continue
        p["standing"] = random_standing(new, s, rng)
        if bidding(new):
            p["treasury"] = rng.randint(0, 60)
    return new


def _standing_lines(state: State, seat: str, rng: random.Random) -> list[str]:
    out: list[str] = []
    if rng.random() < 0.3:
        out.append(str(Lead(rng.choice(["all", "open", "terrain", "siege"]), _perm(rng))))
        out.append(str(Target(rng.choice(["all", "open", "siege"]), _perm(rng))))
        out.append(str(Reroll(RerollPolicy(rng.choice([0, 1, 2])))))
        if state["options"]["flight"]:
            out.append(str(Flee(rng.choice([0, 25, 50]))))
    if rng.random() < 0.2:
        out.append(str(Fealty(rng.choice(["yes", "no", "castle"]))))
        out.append(str(Place(_perm(rng))))
        out.append(str(Losses(_perm(rng))))
    gm = gmap(state)
    if rng.random() < 0.05:
        counties = tuple(rng.sample(sorted(gm.counties), 2))
        out.append(str(Retreat(counties)))
        out.append(str(Rejoin(counties)))
    if rng.random() < 0.1:
        what = rng.choice(["attack", "leave"])
        out.append(str(Veto(what, rng.choice([(), ("all",), tuple(rng.sample(
            sorted(gm.counties), 3))]))))
    if rng.random() < 0.2:
        out.append(str(Sequence(rng.random() < 0.5)))
    return out


def _deploy(state: State, seat: str, rng: random.Random) -> list[str]:
    gm = gmap(state)
    version = state["version"]
    home = list(gm.provinces[seat])
    want = START_ARMY[version]
    for _i in range(20):
        if version == "basic":
            places = rng.sample(home, rng.randint(2, len(home)))
        else:
            start = rng.choice(home)
            group = [start]
            while len(group) < 6:
                cand = sorted({b for c in group for b in gm.adjacent(c)
                               if b in home and b not in group})
                if any(gm.counties[c].has_castle for c in group):
                    cand = [c for c in cand if not gm.counties[c].has_castle]
                if not cand:
                    break
                group.append(rng.choice(cand))
            places = group
        out = {c: {a: 0 for a in ARMS} for c in places}
        units = [a for a in ARMS for _i in range(want[a])]
        rng.shuffle(units)
        for i, c in enumerate(places):  # one unit each first
            out[c][units[i]] += 1
        for a in units[len(places):]:
            out[rng.choice(places)][a] += 1
        lord = rng.choice(places)
        if version == "advanced" and not connected(gm, places):
            continue
        if not deployment_problems(gm, version, seat, out, lord):
            return [str(Deploy(c, **army)) for c, army in out.items() if total(army)] + \
                [str(LordAt(lord))]
    deploys, lord = default_deployment(gm, version, seat)
    return [str(Deploy(c, **a)) for c, a in deploys.items() if total(a)] + [str(LordAt(lord))]


def _neutrals(state: State, seat: str, rng: random.Random) -> list[str]:
    if state["options"]["neutral_placement"] != "players":
        return []
    gm = gmap(state)
    out = []
    for prov in neutral_assignment(state).get(seat, []):
        plains = sorted(c for c in gm.provinces[prov] if gm.counties[c].terrain == "plain")
        units = neutral_units(state["version"])
        rng.shuffle(units)
        out += [str(Neutral(c, a)) for c, a in zip(plains, units, strict=True)]
    return out


def _moves(state: State, seat: str, rng: random.Random) -> list[str]:
    gm = gmap(state)
    p = state["players"][seat]
    mine = sorted(c for c, s in state["board"].items() if s["owner"] == seat)
    out: list[str] = []
    for _i in range(rng.randint(0, 6)):
        if not mine:
            break
        c = rng.choice(mine)
        s = state["board"][c]
        near = gm.adjacent(c)
        if rng.random() < 0.3:
            near = sorted({b for a in near for b in gm.adjacent(a)} - {c})
        target = rng.choice(near)
        army = {a: rng.randint(0, s["units"][a]) for a in ARMS}
        if rng.random() < 0.3:
            army = dict(s["units"])
        lord = p["lord"] == c and rng.random() < 0.3
        if total(army) == 0 and not lord:
            army["inf" if s["units"]["inf"] else ("cav" if s["units"]["cav"] else "arch")] = 1
        army = {a: min(army[a], s["units"][a]) for a in ARMS}
        if total(army) == 0 and not lord:
            continue
        if rng.random() < 0.5 and army["cav"] and not army["inf"] and not army["arch"]:
            pass  # pure cavalry may reach two counties away
        elif target not in gm.adjacent(c) and MP["inf"] < 3:
            army["inf"] = army["arch"] = 0
            if total(army) == 0 and not lord:
                continue
        part = Part(c, army["cav"], army["inf"], army["arch"], lord=lord)
        extra: list[Part] = []
        if rng.random() < 0.2:
            other = [x for x in mine if x != c and x != target and target in gm.adjacent(x)]
            if other:
                o = rng.choice(other)
                so = state["board"][o]
                a = rng.choice([x for x in ARMS if so["units"][x]] or ["inf"])
                if so["units"].get(a):
                    extra.append(Part(o, **{a: 1}))  # type: ignore[arg-type]
        cond = rng.choice(["", "", "", "empty", "enemy"])
        out.append(str(Move(target, (part, *extra), cond, rng.randint(0, 4) if cond == "enemy"
                            else 0)))
    if rng.random() < 0.5 or not out:
        out.insert(rng.randint(0, len(out)), str(Pass()))
    return out


def orders_for(state: State, seat: str, rng: random.Random) -> list[str]:
    ph = state["phase"]
    if ph == "deploy":
        return _deploy(state, seat, rng) + _neutrals(state, seat, rng) + \
            _standing_lines(state, seat, rng)
    if ph == "orders":
        out: list[str] = []
        gm = gmap(state)
        p = state["players"][seat]
        if p["status"] == "captive" and p["treasury"] >= 20 and state["year"] > (
                p["captive_since"] or 0):
            mine = sorted(c for c, s in state["board"].items() if s["owner"] == seat)
            if mine:
                out.append(str(Ransom(rng.choice(mine))))
        castles = sorted(c for c, s in state["board"].items()
                         if s["owner"] == seat and gm.counties[c].has_castle)
        if state["year"] > 1301:
            for _i in range(rng.randint(0, 3)):
                if castles:
                    out.append(str(Recruit(rng.randint(1, 3), rng.choice(ARMS),
                                           rng.choice(castles))))
        for office, holder in sorted(state["offices"].items()):
            if holder == seat and rng.random() < 0.1:
                others = [x for x in state["seats"] if x != seat]
                out.append(str(Cede(office, rng.choice(others))))
        if election_due(state) and rng.random() < 0.5:
            have = p["treasury"]
            for office in ("judge", "treasurer", "palatine"):
                if rng.random() < 0.7:
                    out.append(str(Bid(office, rng.randint(0, max(have // 2, 0)))))
            if rng.random() < 0.3:
                out.append(str(Bid("palatine", rng.randint(0, max(have, 0)), "won", "judge")))
        out += _standing_lines(state, seat, rng)
        out += _moves(state, seat, rng)
        return out
    if ph == "bid":
        return _bid(state, seat, rng)
    return []


def answer(state: State, q: Question, rng: random.Random) -> list[str]:
    """A random answer to an open question (with, for bids, maybe a standing PREFER)."""
    if q.kind == "bid":
        return _bid(state, q.seat, rng)
    if q.kind == "move":
        return _moves(state, q.seat, rng)
    if q.kind == "battle":
        return [str(Fight(lead=_perm(rng), target=_perm(rng),
                          reroll=RerollPolicy(rng.choice([0, 1, 2])),
                          flee=rng.choice([0, 50]) if state["options"]["flight"] else None))]
    if q.kind == "palatine":
        return [str(Choose(rng.choice(list(q.data["tied"]))))]
    return [str(Oath(rng.random() < 0.5))]


def _bid(state: State, seat: str, rng: random.Random) -> list[str]:
    office = current_office(state)
    have = state["players"][seat]["treasury"]
    bid = rng.choice([0, 0, have // 4, have // 2, have]) if have else 0
    lines = [str(Bid(office, bid))]
    if rng.random() < 0.2:
        lines.append(str(Prefer(tuple(rng.sample(state["seats"], len(state["seats"]))))))
    return lines
