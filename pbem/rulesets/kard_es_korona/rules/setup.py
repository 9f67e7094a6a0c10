"""Set-up (rulebook ch. 1 and 3.1-3.2, p. 2-6; advanced 6.1, p. 14; spec 3): which
provinces are played, the starting state, the players' starting placement and the neutral
troops.

Seats are the played provinces' ids (each player is the lord of his home province). The
starting placement is a simultaneous order step (DEPLOY/LORD lines, `phases.py`); a seat
whose placement is missing or illegal gets the placement of `default_deployment`.
"""

from __future__ import annotations

from typing import Any

from pbem.core.dice import Dice
from pbem.core.i18n import _
from pbem.core.kit import Log
from pbem.rulesets.kard_es_korona.board import GameMap, connected, game_map
from pbem.rulesets.kard_es_korona.data import ARMS, CENTRE, events_data, ring
from pbem.rulesets.kard_es_korona.state import (
    Army,
    Options,
    Player,
    State,
    add_units,
    empty_army,
    total,
)

# Rulebook p. 2: the default (first-named) configuration for each player count.
DEFAULT_SEATS = {
    2: ("felvidek", "tiszahat"),
    3: ("felvidek", "erdely", "szlavonia"),
    4: ("felvidek", "erdely", "delvidek", "pannonia"),
    5: ("felvidek", "tiszahat", "erdely", "delvidek", "pannonia"),
    6: tuple(ring()),
}
# Starting armies: rulebook p. 6 (basic 12 = 5/4/3) and p. 14 (advanced 15 = 6/5/4).
START_ARMY = {"basic": {"cav": 3, "inf": 5, "arch": 4}, "advanced": {"cav": 4, "inf": 6, "arch": 5}}
YEARS = {"basic": 8, "advanced": 12}


# Rulebook ch. 6 (p. 14-15): the advanced game's differences. The lord freeze is printed there
# too (a tip inside 6.2 pinning), so it is an advanced rule; the rulebook wins over spec PR-14.
ADVANCED_RULES = ("pinning", "flight", "arm_limits", "lord_freeze")


def options_of(chosen: dict[str, Any], variant: str) -> Options:
    """The game's options: the GM's choices, an unset advanced rule on in the advanced game
    and off in the basic one."""
    o = dict(chosen)
    for k in ADVANCED_RULES:
        if o.get(k) is None:
            o[k] = variant == "advanced"
    return {"decisions": o["decisions"], "years": o["years"], "fealty": o["fealty"],
            "escape_roll": o["escape_roll"], "lord_freeze": o["lord_freeze"],
            "cavalry_cap": o["cavalry_cap"], "movement": o["movement"],
            "neutral_placement": o["neutral_placement"], "control_model": o["control_model"],
            "pinning": o["pinning"], "flight": o["flight"], "arm_limits": o["arm_limits"]}


def played_problems(seats: tuple[str, ...]) -> list[str]:
    """Rulebook p. 2: who may play with how many players (spec 3.2, T21)."""
    r = ring()
    n = len(seats)
    bad = [s for s in seats if s not in r]
    if bad:
        return [f"unknown seat {bad[0]!r}; seats are province ids: " + ", ".join(r)]
    if len(set(seats)) != n:
        return ["a province is named twice"]
    s = set(seats)
    if n == 5 and "szlavonia" in s:
        return ["with 5 players Szlavónia is out of play (rulebook p. 2)"]
    if n == 3 and s not in ({"felvidek", "erdely", "szlavonia"},
                            {"tiszahat", "delvidek", "pannonia"}):
        return ["3 players play Felvidék, Erdély and Szlavónia, or Tiszahát, Délvidék and "
                "Pannónia (rulebook p. 2)"]
    if n == 4:
        # Two pairs of ring neighbours with one neutral province between the pairs.
        neutral = [i for i, p in enumerate(r) if p not in s]
        if len(neutral) != 2 or (neutral[1] - neutral[0]) != 3:
            return ["4 players play two pairs of neighbouring provinces with one neutral "
                    "province between the pairs, e.g. erdely delvidek pannonia felvidek "
                    "(rulebook p. 2)"]
    return []


def seat_order(seats: tuple[str, ...]) -> list[str]:
    """Clockwise seating follows the ring of provinces."""
    r = ring()
    return sorted(seats, key=r.index)


def new_player() -> Player:
    return {"treasury": 0, "status": "active", "overlord": None, "lord": None,
            "lord_attacking": False, "lord_moved": False, "captive_until": None,
            "captive_since": None, "cavalry_allowance": 0, "cavalry_bought": 0,
            "steps_left": 0, "passed": False, "frozen": False, "standing": {}}


def new_state(seats: tuple[str, ...], version: str, options: Options) -> State:
    order = seat_order(seats)
    n = len(order)
    gm = game_map(version)
    out: list[str] = []
    if n == 5:  # rulebook p. 2: the Drava-Sava land is out of play, only Baranya stays
        out = [c for c in gm.provinces["szlavonia"] if c != "baranya"]
    years = int(options["years"] or 0) or YEARS[version]
    return {
        "version": "advanced" if version == "advanced" else "basic", "options": options,
        "seats": order, "player_count": n, "year": 1301, "last_year": 1300 + years,
        "phase": "deploy", "start": order[0], "first_passer": None,
        "deck": sorted(c["id"] for c in events_data()), "drawn": [], "card": None,
        "guilds_from": None, "elections_held": 0, "extra_election": False,
        "offices": {"judge": None, "treasurer": None, "palatine": None},
        "players": {s: new_player() for s in order}, "board": {}, "out_of_play": out,
        "battles": [], "battle_seq": 0, "cavalry_quota": 0, "cavalry_recruited": {},
        "election": None, "oaths": [], "claims": {}, "rotation": None, "result": None,
        "pause": None,
    }


def deployment_problems(gm: GameMap, version: str, seat: str, deploys: dict[str, Army],
                        lord: str | None) -> list[str]:
    """Rulebook p. 6 (basic) and p. 14 (advanced); spec 3.3."""
    home = set(gm.provinces[seat])
    want = START_ARMY[version]
    probs: list[str] = []
    got = empty_army()
    for c, army in deploys.items():
        if c not in home:
            probs.append(_("{county} is not in your home province", county=c))
        for a in ARMS:
            got[a] += army[a]
        if gm.counties[c].has_castle:
            if total(army) > 7:
                probs.append(_("{county}: at most 7 units in a castle county", county=c))
            if version == "advanced" and max(army.values()) > 4:
                probs.append(_("{county}: at most 4 of one arm in a castle (advanced rules)",
                               county=c))
    if got != want:
        probs.append(_("the starting army is exactly {want} (you placed {got})",
                       want=", ".join(f"{want[a]} {a}" for a in ARMS),
                       got=", ".join(f"{got[a]} {a}" for a in ARMS)))
    if lord is None or lord not in deploys or total(deploys[lord]) == 0:
        probs.append(_("the lord must stand in a county with at least one of your units"))
    if version == "advanced":
        cs = [c for c, a in deploys.items() if total(a)]
        if len(cs) != 6 or not connected(gm, cs):
            probs.append(_("advanced: place units in exactly 6 connected counties of your "
                           "province"))
        if sum(1 for c in cs if gm.counties[c].has_castle) > 1:
            probs.append(_("advanced: at most one of the 6 counties may have a castle"))
    return probs


def default_deployment(gm: GameMap, version: str, seat: str) -> tuple[dict[str, Army], str]:
    """The NMR/auto placement. BASIC: both castles get 2 infantry, 2 archers and 1 cavalry
    (the lord in the first castle), the rest spread over the plain counties. ADVANCED: the
    first castle and the five nearest non-castle counties (a connected group), the castle
    with 2 inf, 2 arch, 1 cav and the lord, the rest dealt one by one."""
    home = list(gm.provinces[seat])
    castles = [c for c in home if gm.counties[c].has_castle]
    want = dict(START_ARMY[version])
    out: dict[str, Army] = {}
    if version == "basic":
        for c in castles[:2]:
            out[c] = {"cav": 1, "inf": 2, "arch": 2}
        plains = [c for c in home if gm.counties[c].terrain == "plain"]
        rest = {a: want[a] - sum(o[a] for o in out.values()) for a in ARMS}
        i = 0
        for a in ARMS:
            for _i in range(rest[a]):
                c = plains[i % len(plains)]
                out.setdefault(c, empty_army())
                out[c][a] += 1
                i += 1
        return out, castles[0]
    group: list[str] = []
    first = castles[0]
    for first in castles:  # the first castle from which 5 plain neighbours connect
        group = [first]
        frontier = [first]
        while len(group) < 6 and frontier:
            here = frontier.pop(0)
            for b in sorted(gm.adjacent(here)):
                if (b in home and b not in group and not gm.counties[b].has_castle
                        and len(group) < 6):
                    group.append(b)
                    frontier.append(b)
        if len(group) == 6:
            break
    out = {c: empty_army() for c in group}
    out[first] = {"cav": 1, "inf": 2, "arch": 2}
    rest = {a: want[a] - out[first][a] for a in ARMS}
    others = group[1:]
    i = 0
    for a in ("inf", "arch", "cav"):
        for _i in range(rest[a]):
            out[others[i % len(others)]][a] += 1
            i += 1
    return out, first


def deploy_lines(gm: GameMap, version: str, seat: str) -> list[str]:
    """The default placement as order lines (the skeleton and the NMR orders)."""
    deploys, lord = default_deployment(gm, version, seat)
    return [f"DEPLOY {c} " + " ".join(f"{n} {a}" for a, n in army.items() if n)
            for c, army in deploys.items()] + [f"LORD {lord}"]


def neutral_units(version: str) -> list[str]:
    """Rulebook p. 6: per unplayed province with 2-3 players, basic 1 cav, 1 arch, 1 inf;
    advanced 1 cav, 2 arch, 2 inf, one in each plain county."""
    return ["cav", "arch", "inf"] if version == "basic" else ["cav", "arch", "arch", "inf", "inf"]


def neutral_assignment(state: State) -> dict[str, list[str]]:
    """Option neutral_placement=players (DP4): the unplayed provinces are dealt to the seats
    in seating order; each seat places the neutral units of its provinces."""
    if state["player_count"] > 3:
        return {}
    out: dict[str, list[str]] = {s: [] for s in state["seats"]}
    free = [p for p in ring() if p not in state["seats"]]
    for i, prov in enumerate(free):
        out[state["seats"][i % len(state["seats"])]].append(prov)
    return out


def neutral_plains(gm: GameMap, prov: str) -> list[str]:
    return sorted(c for c in gm.provinces[prov] if gm.counties[c].terrain == "plain")


def neutral_problems(gm: GameMap, version: str, prov: str, chosen: dict[str, str]) -> str:
    plains = neutral_plains(gm, prov)
    if sorted(chosen) != plains:
        return _("name each plain county of {province} once: {counties}", province=prov,
                 counties=", ".join(plains))
    if sorted(chosen.values()) != sorted(neutral_units(version)):
        return _("the neutral units of {province} are {units}", province=prov,
                 units=", ".join(neutral_units(version)))
    return ""


def place_neutrals(state: State, dice: Dice, log: Log,
                   choices: dict[str, dict[str, str]] | None = None) -> None:
    """Rulebook p. 3 (3.1): empty castles get 1 cav + 1 inf + 1 arch; 2-3 players: the plain
    counties of unplayed provinces get neutral units; 2-4 players: Bihar cavalry, Kunság
    archer, Nógrád infantry (PR-7); advanced 6 players: two royal garrisons have infantry
    instead of cavalry (PR-5)."""
    gm = game_map(state["version"])
    n = state["player_count"]
    played = set(state["seats"])
    out = set(state["out_of_play"])
    royal_castles = []
    for cid, c in gm.counties.items():
        if cid in out or not c.has_castle or cid in state["board"]:
            continue
        owner = "royal" if (c.province in played or c.province == CENTRE) else f"n_{c.province}"
        add_units(state, cid, owner, {"cav": 1, "inf": 1, "arch": 1})
        if owner == "royal":
            royal_castles.append(cid)
    if state["version"] == "advanced" and n == 6:
        pool = sorted(royal_castles)
        for _i in range(2):
            cid = dice.draw(pool, _("royal cavalry shortage: garrison with infantry instead"))
            s = state["board"][cid]
            s["units"]["cav"] -= 1
            s["units"]["inf"] += 1
            log.public("setup", _("Royal cavalry shortage: {county} gets infantry instead of "
                                  "cavalry.", county=gm.counties[cid].name), county=cid)
    if n <= 3:
        units = neutral_units(state["version"])
        for prov in ring():
            if prov in played:
                continue
            chosen = (choices or {}).get(prov)
            if chosen is not None:
                for cid in neutral_plains(gm, prov):
                    add_units(state, cid, f"n_{prov}", {chosen[cid]: 1})
                continue
            pool = list(units)
            for cid in neutral_plains(gm, prov):
                arm = dice.draw(pool, _("neutral unit for {county}",
                                        county=gm.counties[cid].name))
                add_units(state, cid, f"n_{prov}", {arm: 1})
    if n <= 4:
        for cid, arm in (("bihar", "cav"), ("kunsag", "arch"), ("nograd", "inf")):
            add_units(state, cid, "royal", {arm: 1})
    log.public("setup", _("Neutral garrisons placed in every empty castle."))
