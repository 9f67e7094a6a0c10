"""The event cards (rulebook p. 7, 11, 12, 15; spec 2.5, 5.17): one small function per card
effect, looked up by the effect id of `data/events.toml`.

Only seven cards are named in the rulebook and none is printed in full: their effects are
the spec's assumptions (each entry of the data file says so). A handler applies the card's
immediate part at the start of the year (phase I) and returns its sentences for the report;
the cards that act later (rain before sieges, vintage in battles, the harvests on income)
are read where they act (`rules/battles.py`, `rules/combat.py`, `rules/economy.py`).
"""

from __future__ import annotations

from pbem.core.i18n import Msg, _, join
from pbem.core.kit import Effects, Log
from pbem.rulesets.kard_es_korona.data import ARM_NAMES, CARD_GLOSS, card
from pbem.rulesets.kard_es_korona.rules.control import gmap, in_play, is_neutral
from pbem.rulesets.kard_es_korona.rules.economy import regular_election
from pbem.rulesets.kard_es_korona.state import Stack, State, total

EFFECTS = Effects("event card effect")


def apply_card(state: State, log: Log) -> None:
    """Phase I: the card turned up this year takes effect (spec 2.5)."""
    if state["card"] is None:
        return
    c = card(state["card"])
    head = _("Event card {year}: {name} ({gloss}).", year=state["year"], name=c["name"],
             gloss=CARD_GLOSS[c["id"]])
    if c["income"] and state["year"] == 1301:
        log.public("card", join([head, _("It concerns income and is void in 1301.")], " "),
                   card=c["id"])
        return
    said: list[Msg] = EFFECTS(c["effect"], state)
    log.public("card", join([head, *said], " "), card=c["id"])


@EFFECTS.register("election")
def king_election(state: State) -> list[Msg]:
    """Királyválasztás (rulebook p. 12): an election at the end of this year."""
    if regular_election(state, state["year"]):
        return [_("Void: this year ends with an election anyway.")]
    state["extra_election"] = True
    return [_("An election is held at the end of this year.")]


@EFFECTS.register("guilds")
def guilds(state: State) -> list[Msg]:
    """Céhek megerősödése (permanent, spec 2.5 card 2): castles yield 1 garas more."""
    state["guilds_from"] = state["year"] + 1 if state["year"] == 1301 else state["year"]
    return [_("From now on every income-producing castle yields 1 garas more.")]


def _stacks(state: State) -> list[tuple[str, Stack]]:
    return [(c, state["board"][c]) for c in sorted(state["board"])
            if in_play(state, c) and total(state["board"][c]["units"]) > 0]


def _lose(stack: Stack, arm: str) -> None:
    stack["units"][arm] -= 1
    stack["used"][arm] = min(stack["used"][arm], stack["units"][arm])


def _drop_empty(state: State, county: str) -> None:
    if total(state["board"][county]["units"]) == 0:
        del state["board"][county]


@EFFECTS.register("revolt")
def peasant_revolt(state: State) -> list[Msg]:
    """Parasztlázadás (spec 2.5 card 3): every castle county with infantry loses one."""
    gm = gmap(state)
    text: list[Msg] = []
    for county, s in _stacks(state):
        if gm.counties[county].has_castle and s["units"]["inf"] > 0:
            _lose(s, "inf")
            text.append(_("{county} loses 1 infantry.", county=gm.counties[county].name))
        _drop_empty(state, county)
    return text


@EFFECTS.register("plague")
def plague(state: State) -> list[Msg]:
    """Pestisjárvány (spec 2.5 card 4): every stack of 4 or more loses one unit (the
    owner's LOSSES order; neutral troops lose infantry)."""
    gm = gmap(state)
    text: list[Msg] = []
    for county, s in _stacks(state):
        if total(s["units"]) >= 4:
            order = (["inf"] if is_neutral(state, s["owner"]) else
                     state["players"][s["owner"]]["standing"].get("losses",
                                                                  ["inf", "arch", "cav"]))
            for a in order:
                if s["units"][a] > 0:
                    _lose(s, a)
                    text.append(_("{county} loses 1 {arm}.", county=gm.counties[county].name,
                                  arm=ARM_NAMES[a]))
                    break
        _drop_empty(state, county)
    return text


@EFFECTS.register("levy")
def bloody_sword(state: State) -> list[Msg]:
    """Véres Kard (spec 2.5 card 5): every castle county gains 1 infantry where the castle
    limits allow."""
    gm = gmap(state)
    text: list[Msg] = []
    for county, s in _stacks(state):
        if gm.counties[county].has_castle:
            after = dict(s["units"])
            after["inf"] += 1
            if total(after) <= 7 and not (state["options"]["arm_limits"] and after["inf"] > 4):
                s["units"]["inf"] += 1
                text.append(_("{county} gains 1 infantry.", county=gm.counties[county].name))
    return text


@EFFECTS.register("rain")
def rainy_autumn(state: State) -> list[Msg]:
    return [_("Before each siege this year the besieger rolls a die: on 1-2 it is called off.")]


@EFFECTS.register("vintage")
def vintage(state: State) -> list[Msg]:
    return [_("This year every die of a defending side gets +1.")]


@EFFECTS.register("rich_harvest")
def rich_harvest(state: State) -> list[Msg]:
    return [_("This year every income-producing county yields 1 garas more.")]


@EFFECTS.register("poor_harvest")
def poor_harvest(state: State) -> list[Msg]:
    return [_("This year only castle counties yield income.")]


@EFFECTS.register("none")
def quiet(state: State) -> list[Msg]:
    return [_("No effect.")]
