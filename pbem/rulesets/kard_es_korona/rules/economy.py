"""Money and recruitment (rulebook 3.3-3.4, p. 7; offices p. 12; spec 5.2, 5.3, 5.17, 5.18):
the event card draw, income, money transfers, office cession, ransom and recruitment.

The event cards' own effects are in `effects.py`; this module only knows the income cards.
"""

from __future__ import annotations

from pbem.core.dice import Dice
from pbem.core.i18n import _
from pbem.core.kit import Log
from pbem.rulesets.kard_es_korona.data import ARM_NAMES, ARMS, OFFICE_WORDS, card
from pbem.rulesets.kard_es_korona.rules.control import (
    camp,
    complete_provinces,
    controller,
    counties_of,
    gmap,
)
from pbem.rulesets.kard_es_korona.state import State, add_units, appoint, holder, total

PRICE = {"cav": 9, "inf": 5, "arch": 5}  # rulebook p. 7
PALATINE_PRICE = {"cav": 7, "inf": 4, "arch": 4}  # rulebook p. 12
RANSOM = 20  # rulebook p. 5: 2 forint


def regular_election(state: State, year: int) -> bool:
    """Rulebook p. 12: after the 3rd, 6th and (advanced) 9th year."""
    years = (1303, 1306) + ((1309,) if state["version"] == "advanced" else ())
    return year in years


def election_due(state: State) -> bool:
    return regular_election(state, state["year"]) or state["extra_election"]


def card_effect(state: State) -> str:
    return str(card(state["card"])["effect"]) if state["card"] else "none"


def county_income(state: State, county: str, beneficiary: str) -> int:
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


def income_of(state: State, seat: str) -> int:
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


def collect_income(state: State, log: Log) -> None:
    if state["year"] == 1301:  # rulebook p. 7: no income in the first year
        return
    for seat in state["seats"]:
        if state["players"][seat]["status"] == "out":
            continue
        amount = income_of(state, seat)
        state["players"][seat]["treasury"] += amount
        log.public("income", _("{seat} collects {amount} garas.", seat=seat, amount=amount), seat=seat, amount=amount)


def draw_card(state: State, dice: Dice, log: Log) -> None:
    """Rulebook p. 7: the start player turns up one event card at the start of each year."""
    if not state["deck"]:  # only with more than 16 years
        state["card"] = None
        log.public("card", _("No event cards are left."))
        return
    cid = dice.draw(state["deck"], _("event card for {year}", year=state["year"]))
    state["card"] = cid
    state["drawn"].append(cid)


def give(state: State, log: Log, seat: str, amount: int, to: str) -> tuple[int, str]:
    """Rulebook p. 2: money may be given at any time except during an election. Returns
    how much was given (at most the treasury), and why nothing was."""
    p = state["players"][seat]
    other = state["players"].get(to)
    if other is None or other["status"] == "out" or to == seat:
        return 0, _("{seat} cannot receive money", seat=to)
    amount = min(amount, p["treasury"])
    if amount <= 0:
        return 0, _("your treasury is empty")
    p["treasury"] -= amount
    other["treasury"] += amount
    log.public("give", _("{seat} gives {amount} garas to {to}.", seat=seat, amount=amount, to=to),
               **{"from": seat, "to": to, "amount": amount})
    return amount, ""


def ransom(state: State, log: Log, seat: str, county: str) -> str:
    """Rulebook p. 5: 20 garas to the bank, from the next year's recruitment on; the lord
    returns to a county holding his units (PR-31). Returns why not ("" when paid)."""
    p = state["players"][seat]
    if p["status"] != "captive":
        return _("your lord is not a captive")
    if (p["captive_since"] or 0) >= state["year"]:
        return _("a ransom can be paid from the next year on")
    if p["treasury"] < RANSOM:
        return _("the ransom is {ransom} garas and you have {have}", ransom=RANSOM,
                 have=p["treasury"])
    if controller(state, county) != seat or county not in state["board"]:
        return _("{county} holds none of your units", county=county)
    p["treasury"] -= RANSOM
    p["status"] = "active"
    p["lord"] = county
    p["captive_until"] = None
    log.public("ransom", _("{seat} pays the ransom of {ransom} garas; the lord returns to "
                           "{county}.", seat=seat, ransom=RANSOM,
                           county=gmap(state).counties[county].name), seat=seat)
    return ""


def cavalry_room(state: State, seat: str, county: str, allowance: int | None = None) -> int:
    """Cavalry caps (optional rule, default on; spec 5.3): basic 2 per castle and 4 per
    player a year; advanced 3 per castle and the yearly quota, at least 1 (PR-9).
    `allowance`: the advanced allowance to assume (before the player's turn comes)."""
    if not state["options"]["cavalry_cap"]:
        return 1 << 20
    p = state["players"][seat]
    here = state["cavalry_recruited"].get(county, 0)
    if state["version"] == "basic":
        return max(0, min(2 - here, 4 - p["cavalry_bought"]))
    allow = p["cavalry_allowance"] if allowance is None else allowance
    return max(0, min(3 - here, allow - p["cavalry_bought"]))


def price_of(state: State, seat: str, arm: str) -> int:
    return (PALATINE_PRICE if state["offices"]["palatine"] == seat else PRICE)[arm]


def recruitable(state: State, seat: str, count: int, arm: str, county: str,
                allowance: int | None = None) -> tuple[int, str, str]:
    """How many of `count` units of `arm` the seat may recruit in `county` now, which limit
    stops more and its kind: room (7 units, advanced 4 of an arm), money, cavalry (the
    caps), held (he does not hold the county)."""
    if controller(state, county) != seat:
        return 0, _("you do not hold {county}", county=county), "held"
    s = state["board"].get(county)
    now = dict(s["units"]) if s else {a: 0 for a in ARMS}
    price = price_of(state, seat, arm)
    money = state["players"][seat]["treasury"] // price
    limits = [(7 - total(now), _("room for {n} more units in {county} (7 in a castle county)",
                                 n=max(0, 7 - total(now)), county=county), "room"),
              (money, _("money for {n} ({price} garas each)", n=money, price=price), "money")]
    if state["options"]["arm_limits"]:
        limits.append((4 - now[arm], _("room for {n} more {arm} in {county} (4 of an arm in a "
                                       "castle, advanced)", n=max(0, 4 - now[arm]),
                                       arm=ARM_NAMES[arm], county=county), "room"))
    if arm == "cav":
        room = cavalry_room(state, seat, county, allowance)
        limits.append((room, _("the cavalry caps allow {n} more", n=room), "cavalry"))
    n, why, kind = count, "", ""
    for cap, reason, what in limits:
        if cap < n:
            n, why, kind = max(0, cap), reason, what
    return n, why, kind


def recruit(state: State, log: Log, seat: str, count: int, arm: str,
            county: str) -> tuple[int, str]:
    """Rulebook p. 7: recruits go only into castle counties the player holds, at most 7
    units there (advanced: 4 of an arm); prices 9/5/5, Palatine 7/4/4. Returns how many
    were recruited, and the limit that stopped more."""
    n, why, _kind = recruitable(state, seat, count, arm, county)
    if n <= 0:
        return 0, why
    p = state["players"][seat]
    price = price_of(state, seat, arm)
    p["treasury"] -= n * price
    add_units(state, county, seat, {arm: n})
    if arm == "cav":
        p["cavalry_bought"] += n
        state["cavalry_recruited"][county] = state["cavalry_recruited"].get(county, 0) + n
        state["cavalry_quota"] = max(0, state["cavalry_quota"] - n)
    place = gmap(state).counties[county].name
    text = (_("{seat} recruits {n} {arm} in {county} for {cost} garas (asked {asked}).",
              seat=seat, n=n, arm=ARM_NAMES[arm], county=place, cost=n * price, asked=count)
            if n < count else
            _("{seat} recruits {n} {arm} in {county} for {cost} garas.", seat=seat, n=n,
              arm=ARM_NAMES[arm], county=place, cost=n * price))
    log.public("recruit", text,
               seat=seat, arm=arm, count=n, county=county)
    return n, why


def cede(state: State, log: Log, seat: str, office: str, to: str) -> str:
    """Rulebook p. 12 (tip): an office may be sold outside elections; the price is paid with
    GIVE. Whoever thereby holds all three offices wins at once (PR-34). Returns why not."""
    other = state["players"].get(to)
    if holder(state, office) != seat:
        return _("you do not hold the office {office}", office=OFFICE_WORDS[office])
    if other is None or other["status"] != "active" or to == seat:
        return _("{seat} cannot hold an office (only active players who are no vassals)",
                 seat=to)
    appoint(state, office, to)
    log.public("office", _("{seat} hands the office {office} to {to}.", seat=seat,
                           office=OFFICE_WORDS[office], to=to), office=office, seat=to)
    return ""
