"""A lord's fall (rulebook p. 5 and p. 11; spec 5.15): capture by neutral troops, the
optional escape roll, elimination with the transfer of lands and money, the oath of fealty
and freed vassals, a captive's death, and a player who leaves.

The oath-or-elimination choice (DP16) waits in `state["oaths"]` until `settle_oath` runs
between battles (after the victory check), where the defeated player decides: his standing
FEALTY line, else with decisions=ask a question (`OATH YES|NO`), else the default: swear.
"""

from __future__ import annotations

from pbem.core.dice import Dice
from pbem.core.i18n import _
from pbem.core.kit import Context, Log
from pbem.rulesets.kard_es_korona.data import ARMS, OFFICE_WORDS, OFFICES
from pbem.rulesets.kard_es_korona.rules.control import castles_of, gmap, is_neutral
from pbem.rulesets.kard_es_korona.rules.movement import castle_fits
from pbem.rulesets.kard_es_korona.state import Army, State, add_units, appoint, holder, total

PLACE_DEFAULT = ("cav", "arch", "inf")


def _owner(state: State, county: str) -> str | None:
    s = state["board"].get(county)
    return s["owner"] if s else None


def vacate_offices(state: State, log: Log, seat: str) -> None:
    for o in OFFICES:
        if holder(state, o) == seat:
            appoint(state, o, None)
            log.public("office", _("{seat} loses the office {office}; it is vacant until the "
                                   "next election.", seat=seat, office=OFFICE_WORDS[o]), office=o)


def capture(state: State, log: Log, seat: str, county: str) -> None:
    """Rulebook p. 5: the lord is captured and placed on the timeline three years ahead."""
    p = state["players"][seat]
    p["lord"] = None
    p["lord_attacking"] = False
    p["status"] = "captive"
    p["captive_since"] = state["year"]
    p["captive_until"] = state["year"] + 3
    log.public("capture", _("{seat}'s lord is captured by neutral troops at {county}; ransom 20 "
                            "garas, he dies at the start of {year} if not ransomed.", seat=seat,
                            county=gmap(state).counties[county].name, year=state["year"] + 3),
               seat=seat)
    vacate_offices(state, log, seat)


def _escapes(state: State, log: Log, dice: Dice, loser: str, county: str) -> bool:
    """Optional escape roll (rulebook p. 11): a 6 takes the lord to an adjacent county
    holding his units; the Judge Royal rerolls a failed roll once (p. 12)."""
    gm = gmap(state)
    p = state["players"][loser]
    roll = dice.roll(6, _("escape roll of {seat}'s lord", seat=loser))
    if roll < 6 and state["offices"]["judge"] == loser:
        roll = dice.roll(6, _("escape roll of {seat}'s lord, Judge Royal reroll", seat=loser))
    refuge = sorted(c for c in gm.adjacent(county) if _owner(state, c) == loser)
    if roll == 6 and refuge:
        p["lord"] = refuge[0]
        p["lord_attacking"] = False
        log.public("escape", _("{seat}'s lord escapes (rolled 6) to {county}.", seat=loser,
                               county=gm.counties[refuge[0]].name), seat=loser)
        return True
    log.public("escape", _("{seat}'s escape roll: {roll}; no escape.", seat=loser, roll=roll),
               seat=loser)
    return False


def defeat_lord(state: State, log: Log, dice: Dice, loser: str, victor: str, county: str, *,
                killed: bool) -> None:
    """A lord whose side lost its last unit (rulebook p. 11). `killed`: the loser of a duel,
    who cannot swear fealty or escape (PR-19)."""
    p = state["players"][loser]
    if p["lord"] is None or p["status"] != "active":
        return
    if not killed and state["options"]["escape_roll"] and _escapes(state, log, dice, loser,
                                                                    county):
        return
    if is_neutral(state, victor) or victor not in state["players"]:
        capture(state, log, loser, county)
        return
    p["lord"] = None
    p["lord_attacking"] = False
    vacate_offices(state, log, loser)
    money = p["treasury"]
    p["treasury"] = 0
    state["players"][victor]["treasury"] += money
    log.public("defeat", (_("{loser}'s lord is killed by {victor}; {victor} takes his treasury "
                            "of {money} garas.", loser=loser, victor=victor, money=money)
                          if killed else
                          _("{loser}'s lord is defeated by {victor}; {victor} takes his "
                            "treasury of {money} garas.", loser=loser, victor=victor,
                            money=money)), loser=loser, victor=victor,
               money=money)
    if killed or not state["options"]["fealty"]:
        eliminate(state, log, loser, victor)
        return
    p["status"] = "defeated"
    state["oaths"].append({"loser": loser, "victor": victor})


def settle_oath(ctx: Context) -> None:
    """The first open oath-or-elimination choice (DP16)."""
    state = ctx.state
    item = state["oaths"][0]
    loser, victor = item["loser"], item["victor"]
    swear = state["players"][victor]["status"] != "out" and _swears(ctx, loser, victor)
    state["oaths"].pop(0)
    if swear:
        make_vassal(state, ctx.log, loser, victor)
    else:
        eliminate(state, ctx.log, loser, victor)


def _swears(ctx: Context, loser: str, victor: str) -> bool:
    state = ctx.state
    mode = state["players"][loser]["standing"].get("fealty")
    standing = None
    if mode is not None:
        yes = mode == "yes" or (mode == "castle" and bool(castles_of(state, {loser})))
        standing = "OATH YES" if yes else "OATH NO"
    elif state["options"]["decisions"] != "ask":
        # SPEC-AMBIGUITY (DP16 auto default): swear fealty, which keeps the player in the game.
        standing = "OATH YES"
    answer = ctx.decide(
        loser, "oath",
        question=_("Your lord was defeated by {victor}: OATH YES to swear fealty and become his "
                   "vassal, OATH NO to be eliminated (a FEALTY line is a standing order for "
                   "later defeats).", victor=victor),
        public=_("whether to swear fealty to {victor}", victor=victor),
        default="OATH YES", options=("OATH YES", "OATH NO"), standing=standing)
    return answer == "OATH YES"


def make_vassal(state: State, log: Log, loser: str, victor: str) -> None:
    """Rulebook p. 11: he keeps his units and lands, commands them, never attacks his
    overlord and takes no part in elections; his holdings count for the overlord."""
    vp = state["players"][victor]
    # SPEC-AMBIGUITY: a vassal's victory counts for his overlord, so a lord defeated by a
    # vassal swears to that vassal's overlord.
    lord = vp["overlord"] if vp["status"] == "vassal" and vp["overlord"] else victor
    p = state["players"][loser]
    p["status"] = "vassal"
    p["overlord"] = lord
    log.public("fealty", _("{loser} swears fealty to {lord} and becomes his vassal.",
                           loser=loser, lord=lord),
               vassal=loser, overlord=lord)
    free_vassals(state, log, loser)


def free_vassals(state: State, log: Log, overlord: str) -> None:
    """Rulebook p. 11 (PR-29, PR-40): the vassals of a fallen overlord are freed; the lord
    returns to the own county with most units."""
    gm = gmap(state)
    for seat, p in state["players"].items():
        if p["status"] != "vassal" or p["overlord"] != overlord:
            continue
        p["overlord"] = None
        mine = [(total(s["units"]), c) for c, s in state["board"].items() if s["owner"] == seat]
        if not mine:
            p["status"] = "out"
            log.public("freed", _("{seat} is freed from vassalage but has no units left for his "
                                  "lord: he is out.", seat=seat), seat=seat)
            continue
        c = max(mine, key=lambda x: (x[0], x[1]))[1]
        p["status"] = "active"
        p["lord"] = c
        p["lord_moved"] = True
        log.public("freed", _("{seat} is freed; his lord returns in {county}.", seat=seat,
                              county=gm.counties[c].name),
                   seat=seat)


def _pick(pref: tuple[str, ...], army: Army) -> str:
    for a in pref:
        if army.get(a, 0) > 0:
            return a
    return next(a for a in ARMS if army.get(a, 0) > 0)


def eliminate(state: State, log: Log, loser: str, victor: str) -> None:
    """Rulebook p. 11: in every county where he had units the victor places exactly one unit
    of an arm that stood there (DP18); his pending battles are taken over (PR-28)."""
    p = state["players"][loser]
    p["status"] = "out"
    p["lord"] = None
    p["overlord"] = None
    pref = tuple(state["players"][victor]["standing"].get("place", PLACE_DEFAULT))
    for c in sorted(state["board"]):
        s = state["board"][c]
        if s["owner"] != loser or total(s["units"]) == 0:
            continue
        a = _pick(pref, s["units"])
        del state["board"][c]
        attack = next((b for b in state["battles"] if b["county"] == c), None)
        add_units(state, c, victor, {a: 1}, used=True)
        if attack is not None and attack["attacker"] == victor:
            state["battles"].remove(attack)  # battle cancelled, the armies merge
            _merge(state, c, victor, attack["army"])
            if attack["lord"]:
                state["players"][victor]["lord_attacking"] = False
    for b in list(state["battles"]):
        if b["attacker"] != loser:
            continue
        a = _pick(pref, b["army"])
        owner = _owner(state, b["county"])
        if owner == victor:
            state["battles"].remove(b)
            _merge(state, b["county"], victor, {a: 1})
        else:
            b["attacker"] = victor
            b["army"] = {x: (1 if x == a else 0) for x in ARMS}
            b["lord"] = False
    log.public("eliminated", _("{loser} is eliminated; {victor} places one unit in each of his "
                               "counties.", loser=loser, victor=victor), loser=loser, victor=victor)
    free_vassals(state, log, loser)


def _merge(state: State, county: str, seat: str, army: Army) -> None:
    """Merge an army into the seat's county within the castle limits; the excess is lost
    (SPEC-AMBIGUITY: PR-28 would retreat it; it can only arise with more than 7 units)."""
    for a in ARMS:
        for _i in range(army.get(a, 0)):
            now = dict(state["board"][county]["units"]) if county in state["board"] else \
                {x: 0 for x in ARMS}
            now[a] += 1
            if not castle_fits(state, county, now):
                add_units(state, county, seat, {a: 1}, used=True)


def leave_game(state: State, log: Log, seat: str) -> None:
    """Rulebook p. 3 (spec 5.21, PR-48): a player who quits is out; his units stay as
    neutral troops; his offices fall vacant; his vassals are freed."""
    p = state["players"][seat]
    p["status"] = "out"
    p["lord"] = p["overlord"] = None
    p["captive_until"] = None
    for s in state["board"].values():
        if s["owner"] == seat:
            s["owner"] = f"n_{seat}"
    vacate_offices(state, log, seat)
    log.public("resign", _("{seat} leaves the game; his units become neutral.", seat=seat),
               seat=seat)
    free_vassals(state, log, seat)


def captive_deaths(state: State, log: Log) -> None:
    """Phase I: a captive whose year has come dies; his units become neutral (PR-30, 32)."""
    for seat, p in state["players"].items():
        if p["status"] == "captive" and p["captive_until"] is not None \
                and state["year"] >= p["captive_until"]:
            p["status"] = "out"
            p["captive_until"] = None
            for s in state["board"].values():
                if s["owner"] == seat:
                    s["owner"] = f"n_{seat}"
            log.public("captive_dies", _("{seat}'s captive lord was not ransomed and dies; {seat} "
                                         "is out and his units become neutral.", seat=seat),
                       seat=seat)
            free_vassals(state, log, seat)
