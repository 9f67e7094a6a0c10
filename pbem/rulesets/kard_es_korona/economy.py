"""The start of a year (rulebook 3.3-3.4, p. 7; spec 4.1 phases I-II, 5.2, 5.3, 5.17): the
event card, captives' deadlines, income, money transfers, ransom and recruitment.
"""

from __future__ import annotations

from pbem.core.dice import Dice
from pbem.core.events import Event
from pbem.rulesets.kard_es_korona.board import ARM_NAMES, ARMS, card
from pbem.rulesets.kard_es_korona.orders import Cede, Give, Ransom, Recruit
from pbem.rulesets.kard_es_korona.state import (
    St,
    add_units,
    camp,
    complete_provinces,
    controller,
    counties_of,
    gmap,
    in_play,
    is_neutral,
    total,
)

PRICE = {"cav": 9, "inf": 5, "arch": 5}  # rulebook p. 7
PALATINE_PRICE = {"cav": 7, "inf": 4, "arch": 4}  # rulebook p. 12
RANSOM = 20  # rulebook p. 5: 2 forint


def regular_election(state: St, year: int) -> bool:
    """Rulebook p. 12: after the 3rd, 6th and (advanced) 9th year."""
    years = (1303, 1306) + ((1309,) if state["version"] == "advanced" else ())
    return year in years


def card_effect(state: St) -> str:
    return card(state["card"])["effect"] if state["card"] else "none"


def county_income(state: St, county: str, beneficiary: str) -> int:
    """1 per county, 3 per castle county (Treasurer 5); cards (spec 5.2, 2.5)."""
    gm = gmap(state)
    effect = card_effect(state)
    if gm.counties[county].has_castle:
        v = 5 if state["offices"]["treasurer"] == beneficiary else 3
        if state["guilds_from"] is not None and state["year"] >= state["guilds_from"]:
            v += 1
    else:
        v = 0 if effect == "poor_harvest" else 1
    if effect == "rich_harvest":
        v += 1
    return v


def income_of(state: St, seat: str) -> int:
    """Rulebook p. 7; spec 5.2, PR-8: an overlord collects over his and his vassals'
    counties; a vassal gets half (rounded down) of his own normal income."""
    p = state["players"][seat]
    if p["status"] == "out":
        return 0
    group = {seat} if p["status"] == "vassal" else camp(state, seat)
    cs = counties_of(state, group)
    amount = sum(county_income(state, c, seat) for c in cs)
    amount += 4 * len(complete_provinces(state, group))
    if p["status"] == "vassal":
        amount //= 2
    return amount


def collect_income(state: St, events: list[Event]) -> None:
    if state["year"] == 1301:  # rulebook p. 7: no income in the first year
        return
    for seat in state["seats"]:
        if state["players"][seat]["status"] == "out":
            continue
        amount = income_of(state, seat)
        state["players"][seat]["treasury"] += amount
        events.append(Event("income", f"{seat} collects {amount} garas.",
                            {"seat": seat, "amount": amount}))


def apply_card(state: St, events: list[Event]) -> None:
    """Phase I: the card's immediate part (spec 2.5; effects are an ASSUMPTION)."""
    gm = gmap(state)
    if state["card"] is None:
        return
    c = card(state["card"])
    effect = c["effect"]
    year = state["year"]
    text = f"Event card {year}: {c['name']} ({c['english']})."
    if c["income"] and year == 1301:
        events.append(Event("card", text + " It concerns income and is void in 1301.",
                            {"card": c["id"]}))
        return
    if effect == "election":
        if regular_election(state, year):
            text += " Void: this year ends with an election anyway."
        else:
            state["extra_election"] = True
            text += " An election is held at the end of this year."
    elif effect == "guilds":
        state["guilds_from"] = year + 1 if year == 1301 else year
        text += " From now on every income-producing castle yields 1 garas more."
    elif effect in ("revolt", "plague", "levy"):
        for county in sorted(state["board"]):
            s = state["board"][county]
            if not in_play(state, county) or total(s["u"]) == 0:
                continue
            castle = gm.counties[county].has_castle
            if effect == "revolt" and castle and s["u"]["inf"] > 0:
                s["u"]["inf"] -= 1
                s["used"]["inf"] = min(s["used"]["inf"], s["u"]["inf"])
                text += f" {gm.counties[county].name} loses 1 infantry."
            elif effect == "plague" and total(s["u"]) >= 4:
                if is_neutral(state, s["owner"]):
                    order = ("inf",)
                else:
                    order = tuple(state["players"][s["owner"]]["standing"].get(
                        "losses", ["inf", "arch", "cav"]))
                for a in order:
                    if s["u"][a] > 0:
                        s["u"][a] -= 1
                        s["used"][a] = min(s["used"][a], s["u"][a])
                        text += f" {gm.counties[county].name} loses 1 {ARM_NAMES[a]}."
                        break
            elif effect == "levy" and castle:
                after = dict(s["u"])
                after["inf"] += 1
                ok = total(after) <= 7 and not (state["opts"].get("arm_limits")
                                                 and after["inf"] > 4)
                if ok:
                    s["u"]["inf"] += 1
                    text += f" {gm.counties[county].name} gains 1 infantry."
            if total(s["u"]) == 0:
                del state["board"][county]
    elif effect == "rain":
        text += " Before each siege this year the besieger rolls a die: on 1-2 it is called off."
    elif effect == "vintage":
        text += " This year every die of a defending side gets +1."
    elif effect == "rich_harvest":
        text += " This year every income-producing county yields 1 garas more."
    elif effect == "poor_harvest":
        text += " This year only castle counties yield income."
    else:
        text += " No effect."
    events.append(Event("card", text, {"card": c["id"]}))


def draw_card(state: St, dice: Dice, events: list[Event]) -> None:
    """Rulebook p. 7: the start player turns up one event card at the start of each year."""
    if not state["deck"]:  # only with more than 16 years
        state["card"] = None
        events.append(Event("card", "No event cards are left.", {}))
        return
    cid = dice.draw(state["deck"], f"event card for {state['year']}")
    state["card"] = cid
    state["drawn"].append(cid)


def do_give(state: St, seat: str, o: Give, events: list[Event]) -> None:
    """Rulebook p. 2: money may be given at any time except during an election."""
    p = state["players"][seat]
    other = state["players"].get(o.seat)
    if other is None or other["status"] == "out" or o.seat == seat:
        events.append(Event("skip", f"{seat}: {o} skipped: {o.seat} cannot receive money.",
                            {}, (seat,)))
        return
    amount = min(o.amount, p["treasury"])
    if amount <= 0:
        events.append(Event("skip", f"{seat}: {o} skipped: your treasury is empty.", {}, (seat,)))
        return
    p["treasury"] -= amount
    other["treasury"] += amount
    events.append(Event("give", f"{seat} gives {amount} garas to {o.seat}.",
                        {"from": seat, "to": o.seat, "amount": amount}))


def do_ransom(state: St, seat: str, o: Ransom, events: list[Event]) -> None:
    """Rulebook p. 5: 20 garas to the bank, from the next year's recruitment on; the lord
    returns to a county holding his units (PR-31)."""
    p = state["players"][seat]
    why = ""
    if p["status"] != "captive":
        why = "your lord is not a captive"
    elif p["captive_since"] >= state["year"]:
        why = "a ransom can be paid from the next year on"
    elif p["treasury"] < RANSOM:
        why = f"the ransom is {RANSOM} garas and you have {p['treasury']}"
    elif controller(state, o.county) != seat or o.county not in state["board"]:
        why = f"{o.county} holds none of your units"
    if why:
        events.append(Event("skip", f"{seat}: {o} skipped: {why}.", {}, (seat,)))
        return
    p["treasury"] -= RANSOM
    p["status"] = "active"
    p["lord"] = o.county
    p["captive_until"] = None
    events.append(Event("ransom", f"{seat} pays the ransom of {RANSOM} garas; the lord returns "
                        f"to {gmap(state).counties[o.county].name}.", {"seat": seat}))


def cavalry_room(state: St, seat: str, county: str) -> int:
    """Cavalry caps (optional rule, default on; spec 5.3): basic 2 per castle and 4 per
    player a year; advanced 3 per castle and the yearly quota, at least 1 (PR-9)."""
    if not state["opts"].get("cavalry_cap", True):
        return 1 << 20
    p = state["players"][seat]
    here = state["cav_castle"].get(county, 0)
    if state["version"] == "basic":
        return max(0, min(2 - here, 4 - p["cav_bought"]))
    return max(0, min(3 - here, p["cav_allow"] - p["cav_bought"]))


def do_recruit(state: St, seat: str, o: Recruit, events: list[Event]) -> None:
    """Rulebook p. 7: recruits go only into castle counties the player holds, at most 7
    units there (advanced: 4 of an arm); prices 9/5/5, Palatine 7/4/4."""
    gm = gmap(state)
    p = state["players"][seat]
    county = o.county
    why = ""
    if controller(state, county) != seat:
        why = f"you do not hold {county}"
    if why:
        events.append(Event("skip", f"{seat}: {o} skipped: {why}.", {}, (seat,)))
        return
    price = (PALATINE_PRICE if state["offices"]["palatine"] == seat else PRICE)[o.arm]
    s = state["board"].get(county)
    now = dict(s["u"]) if s else {a: 0 for a in ARMS}
    n = min(o.count, 7 - total(now), p["treasury"] // price)
    if state["opts"].get("arm_limits"):
        n = min(n, 4 - now[o.arm])
    if o.arm == "cav":
        n = min(n, cavalry_room(state, seat, county))
    if n <= 0:
        events.append(Event("skip", f"{seat}: {o} skipped: no room, money or cavalry "
                            "allowance left for it.", {}, (seat,)))
        return
    p["treasury"] -= n * price
    add_units(state, county, seat, {o.arm: n})
    if o.arm == "cav":
        p["cav_bought"] += n
        state["cav_castle"][county] = state["cav_castle"].get(county, 0) + n
        state["quota"] = max(0, state["quota"] - n)
    short = f" (asked {o.count})" if n < o.count else ""
    events.append(Event("recruit", f"{seat} recruits {n} {ARM_NAMES[o.arm]} in "
                        f"{gm.counties[county].name} for {n * price} garas{short}.",
                        {"seat": seat, "arm": o.arm, "count": n, "county": county}))


def do_cede(state: St, seat: str, o: Cede, events: list[Event]) -> None:
    """Rulebook p. 12 (tip): an office may be sold outside elections; the price is paid with
    GIVE. Whoever thereby holds all three offices wins at once (PR-34)."""
    other = state["players"].get(o.seat)
    why = ""
    if state["offices"][o.office] != seat:
        why = f"you do not hold the office {o.office}"
    elif other is None or other["status"] != "active" or o.seat == seat:
        why = f"{o.seat} cannot hold an office (only active players who are no vassals)"
    if why:
        events.append(Event("skip", f"{seat}: {o} skipped: {why}.", {}, (seat,)))
        return
    state["offices"][o.office] = o.seat
    events.append(Event("office", f"{seat} hands the office {o.office} to {o.seat}.",
                        {"office": o.office, "seat": o.seat}))
