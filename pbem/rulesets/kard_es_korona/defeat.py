"""A lord's fall (rulebook p. 5 and p. 11; spec 5.15): capture by neutral troops, the
optional escape roll, elimination with the transfer of lands and money, the oath of fealty
and freed vassals, and a captive's death.

The oath-or-elimination choice (DP16) is deferred to `run_pending`, which runs between
battles so that option decisions=ask can open a short step for the defeated player.
"""

from __future__ import annotations

from pbem.core.dice import Dice
from pbem.core.events import Event
from pbem.rulesets.kard_es_korona.board import ARMS, OFFICES
from pbem.rulesets.kard_es_korona.state import St, add_units, castles_of, gmap, is_neutral, total

PLACE_DEFAULT = ("cav", "arch", "inf")


def vacate_offices(state: St, seat: str, events: list[Event]) -> None:
    for o in OFFICES:
        if state["offices"][o] == seat:
            state["offices"][o] = None
            events.append(Event("office", f"{seat} loses the office {o}; it is vacant until the "
                                "next election.", {"office": o}))


def capture(state: St, seat: str, county: str, events: list[Event]) -> None:
    """Rulebook p. 5: the lord is captured and placed on the timeline three years ahead."""
    p = state["players"][seat]
    p["lord"] = None
    p["lord_attacking"] = False
    p["status"] = "captive"
    p["captive_since"] = state["year"]
    p["captive_until"] = state["year"] + 3
    events.append(Event("capture", f"{seat}'s lord is captured by neutral troops at "
                        f"{gmap(state).counties[county].name}; ransom 20 garas, he dies at the "
                        f"start of {state['year'] + 3} if not ransomed.", {"seat": seat}))
    vacate_offices(state, seat, events)


def defeat_lord(state: St, loser: str, victor: str, county: str, events: list[Event],
                dice: Dice, *, killed: bool) -> None:
    """A lord whose side lost its last unit (rulebook p. 11). `killed`: the loser of a duel,
    who cannot swear fealty or escape (PR-19)."""
    p = state["players"][loser]
    if p["lord"] is None or p["status"] not in ("active",):
        return
    gm = gmap(state)
    if not killed and state["opts"].get("escape_roll"):
        roll = dice.roll(6, f"escape roll of {loser}'s lord")
        if roll < 6 and state["offices"]["judge"] == loser:
            roll = dice.roll(6, f"escape roll of {loser}'s lord, Judge Royal reroll")
        refuge = [c for c in gm.adjacent(county)
                  if state["board"].get(c, {}).get("owner") == loser]
        if roll == 6 and refuge:
            p["lord"] = sorted(refuge)[0]
            p["lord_attacking"] = False
            events.append(Event("escape", f"{loser}'s lord escapes (rolled 6) to "
                                f"{gm.counties[p['lord']].name}.", {"seat": loser}))
            return
        events.append(Event("escape", f"{loser}'s escape roll: {roll}; no escape.",
                            {"seat": loser}))
    if is_neutral(state, victor) or victor not in state["players"]:
        capture(state, loser, county, events)
        return
    p["lord"] = None
    p["lord_attacking"] = False
    vacate_offices(state, loser, events)
    money = p["treasury"]
    p["treasury"] = 0
    state["players"][victor]["treasury"] += money
    events.append(Event("defeat", f"{loser}'s lord is {'killed' if killed else 'defeated'} by "
                        f"{victor}; {victor} takes his treasury of {money} garas.",
                        {"loser": loser, "victor": victor, "money": money}))
    if killed or not state["opts"].get("fealty", True):
        eliminate(state, loser, victor, events)
        return
    p["status"] = "defeated"
    state["pending"].append({"loser": loser, "victor": victor})


def fealty_mode(state: St, seat: str) -> str | None:
    return state["players"][seat]["standing"].get("fealty")


def run_pending(state: St, dice: Dice, events: list[Event]) -> str:
    """Settle the first deferred oath-or-elimination choice; "ask" if it must be asked."""
    item = state["pending"][0]
    loser, victor = item["loser"], item["victor"]
    p = state["players"][loser]
    mode = p.pop("fealty_answer", None) or fealty_mode(state, loser)
    if mode is None:
        if state["opts"].get("decisions") == "ask":
            state["ask"] = {"kind": "fealty", "seats": [loser], "victor": victor}
            return "ask"
        # SPEC-AMBIGUITY (DP16 auto default): swear fealty, which keeps the player in the game.
        mode = "yes"
    state["pending"].pop(0)
    if state["players"][victor]["status"] == "out":
        mode = "no"
    swear = mode == "yes" or (mode == "castle" and castles_of(state, {loser}))
    if swear:
        make_vassal(state, loser, victor, events)
    else:
        eliminate(state, loser, victor, events)
    return "done"


def make_vassal(state: St, loser: str, victor: str, events: list[Event]) -> None:
    """Rulebook p. 11: he keeps his units and lands, commands them, never attacks his
    overlord and takes no part in elections; his holdings count for the overlord."""
    vp = state["players"][victor]
    # SPEC-AMBIGUITY: a vassal's victory counts for his overlord, so a lord defeated by a
    # vassal swears to that vassal's overlord.
    lord = vp["overlord"] if vp["status"] == "vassal" and vp["overlord"] else victor
    p = state["players"][loser]
    p["status"] = "vassal"
    p["overlord"] = lord
    events.append(Event("fealty", f"{loser} swears fealty to {lord} and becomes his vassal.",
                        {"vassal": loser, "overlord": lord}))
    free_vassals(state, loser, events)


def free_vassals(state: St, overlord: str, events: list[Event]) -> None:
    """Rulebook p. 11 (PR-29, PR-40): the vassals of a fallen overlord are freed; the lord
    returns to the own county with most units."""
    gm = gmap(state)
    for seat, p in state["players"].items():
        if p["status"] != "vassal" or p["overlord"] != overlord:
            continue
        p["overlord"] = None
        mine = [(total(s["u"]), c) for c, s in state["board"].items() if s["owner"] == seat]
        if not mine:
            p["status"] = "out"
            events.append(Event("freed", f"{seat} is freed from vassalage but has no units "
                                "left for his lord: he is out.", {"seat": seat}))
            continue
        c = max(mine, key=lambda x: (x[0], x[1]))[1] if mine else None
        p["status"] = "active"
        p["lord"] = c
        p["lord_moved"] = True
        events.append(Event("freed", f"{seat} is freed; his lord returns in "
                            f"{gm.counties[c].name}.", {"seat": seat}))


def _pick(pref: tuple[str, ...], army: dict[str, int]) -> str:
    for a in pref:
        if army.get(a, 0) > 0:
            return a
    return next(a for a in ARMS if army.get(a, 0) > 0)


def eliminate(state: St, loser: str, victor: str, events: list[Event]) -> None:
    """Rulebook p. 11: in every county where he had units the victor places exactly one unit
    of an arm that stood there (DP18); his pending battles are taken over (PR-28)."""
    p = state["players"][loser]
    p["status"] = "out"
    p["lord"] = None
    p["overlord"] = None
    pref = tuple(state["players"][victor]["standing"].get("place", PLACE_DEFAULT))
    gm = gmap(state)
    for c in sorted(state["board"]):
        s = state["board"][c]
        if s["owner"] != loser or total(s["u"]) == 0:
            continue
        a = _pick(pref, s["u"])
        del state["board"][c]
        attack = next((b for b in state["battles"] if b["county"] == c), None)
        if attack is not None and attack["attacker"] == victor:
            state["battles"].remove(attack)  # battle cancelled, the armies merge
            add_units(state, c, victor, {a: 1}, used=True)
            _merge(state, c, victor, attack["army"])
            if attack["lord"]:
                state["players"][victor]["lord_attacking"] = False
        else:
            add_units(state, c, victor, {a: 1}, used=True)
    for b in list(state["battles"]):
        if b["attacker"] != loser:
            continue
        a = _pick(pref, b["army"])
        owner = state["board"].get(b["county"], {}).get("owner")
        if owner == victor:
            state["battles"].remove(b)
            _merge(state, b["county"], victor, {a: 1})
        else:
            b["attacker"] = victor
            b["army"] = {x: (1 if x == a else 0) for x in ARMS}
            b["lord"] = False
    events.append(Event("eliminated", f"{loser} is eliminated; {victor} places one unit in "
                        "each of his counties.", {"loser": loser, "victor": victor}))
    free_vassals(state, loser, events)
    _ = gm


def _merge(state: St, county: str, seat: str, army: dict[str, int]) -> None:
    """Merge an army into the seat's county within the castle limits; the excess is lost
    (SPEC-AMBIGUITY: PR-28 would retreat it; it can only arise with more than 7 units)."""
    from pbem.rulesets.kard_es_korona.movement import castle_fits
    for a in ARMS:
        for _ in range(army.get(a, 0)):
            now = dict(state["board"][county]["u"]) if county in state["board"] else \
                {x: 0 for x in ARMS}
            now[a] += 1
            if not castle_fits(state, county, now):
                add_units(state, county, seat, {a: 1}, used=True)


def leave_game(state: St, seat: str, events: list[Event]) -> None:
    """Rulebook p. 3 (spec 5.21, PR-48): a player who quits is out; his units stay as
    neutral troops; his offices fall vacant; his vassals are freed."""
    p = state["players"][seat]
    p.update(status="out", lord=None, overlord=None, captive_until=None, script=[])
    for s in state["board"].values():
        if s["owner"] == seat:
            s["owner"] = f"n_{seat}"
    vacate_offices(state, seat, events)
    events.append(Event("resign", f"{seat} leaves the game; his units become neutral.",
                        {"seat": seat}))
    free_vassals(state, seat, events)


def captive_deaths(state: St, events: list[Event]) -> None:
    """Phase I: a captive whose year has come dies; his units become neutral (PR-30, 32)."""
    for seat, p in state["players"].items():
        if p["status"] == "captive" and p["captive_until"] is not None \
                and state["year"] >= p["captive_until"]:
            p["status"] = "out"
            p["captive_until"] = None
            for s in state["board"].values():
                if s["owner"] == seat:
                    s["owner"] = f"n_{seat}"
            events.append(Event("captive_dies", f"{seat}'s captive lord was not ransomed and "
                                f"dies; {seat} is out and his units become neutral.",
                                {"seat": seat}))
            free_vassals(state, seat, events)
