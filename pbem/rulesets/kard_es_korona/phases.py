"""The steps of Kard és Korona: for each phase of the ruleset's phase table, who is awaited,
what the report asks, the NMR default, how the step resolves, and how a line is judged on
arrival.

Three phases: the set-up placement (once), the year orders (every year, all players at
once: transfers, ransom, recruitment, the movement script, standing orders) and the
election's first auction that needs bids (later auctions, battle instructions, oaths, the
Palatine's tie and strict movement are decisions inside a resolution: `ctx.decide`).
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.core.kit import Context, Lines, Order, Question, Verdict
from pbem.core.orders import Prompt
from pbem.rulesets.kard_es_korona.orders import (
    Bid,
    Deploy,
    Fealty,
    Flee,
    Give,
    Lead,
    LordAt,
    Losses,
    Neutral,
    Place,
    Prefer,
    Rejoin,
    Reroll,
    Retreat,
    Target,
    Veto,
)
from pbem.rulesets.kard_es_korona.orders import Sequence as Sequence_
from pbem.rulesets.kard_es_korona.rules.control import gmap, turn_order
from pbem.rulesets.kard_es_korona.rules.economy import election_due, regular_election
from pbem.rulesets.kard_es_korona.rules.elections import (
    bid_question,
    current_office,
    eligible,
    run_election,
    to_ask,
)
from pbem.rulesets.kard_es_korona.rules.setup import (
    START_ARMY,
    default_deployment,
    deploy_lines,
    deployment_problems,
    neutral_assignment,
    neutral_plains,
    neutral_problems,
    place_neutrals,
)
from pbem.rulesets.kard_es_korona.rules.year import end_year, start_year, year_orders
from pbem.rulesets.kard_es_korona.state import Army, State, add_units, empty_army, total

# --- set-up ----------------------------------------------------------------------------------


def deploy_awaits(state: State) -> list[str]:
    return list(state["seats"])


def deploy_prompt(state: State, seat: str) -> Prompt:
    sk = deploy_lines(gmap(state), state["version"], seat)
    if state["options"]["neutral_placement"] == "players":
        provs = neutral_assignment(state).get(seat, [])
        if provs:
            sk.append("# NEUTRAL <plain county> <arm> for the neutral units of "
                      + ", ".join(provs))
    return Prompt("Place your lord and starting army in your home province.", tuple(sk))


def deploy_default(state: State, seat: str) -> list[str]:
    return deploy_lines(gmap(state), state["version"], seat)


def resolve_deploy(ctx: Context, lines: Lines) -> None:
    """The starting placement (rulebook p. 6, p. 14), then the neutral troops (p. 3, p. 6),
    then the first year begins."""
    state, log = ctx.state, ctx.log
    gm = gmap(state)
    for seat in state["seats"]:
        deploys: dict[str, Army] = {}
        lord = None
        for ln in lines.get(seat, ()):
            if isinstance(ln.order, Deploy):
                d = deploys.setdefault(ln.order.county, empty_army())
                for a, n in ln.order.army().items():
                    d[a] += n
            elif isinstance(ln.order, LordAt):
                lord = ln.order.county
        probs = deployment_problems(gm, state["version"], seat, deploys, lord)
        if probs:
            if deploys or lord:
                log.private([seat], "deploy", f"{seat}: placement refused ({probs[0]}); the "
                            "default placement is used.")
            deploys, lord = default_deployment(gm, state["version"], seat)
        for c, army in sorted(deploys.items()):
            if total(army):
                add_units(state, c, seat, army)
        assert lord is not None
        state["players"][seat]["lord"] = lord
        units = sum(START_ARMY[state["version"]].values())
        log.public("deploy", f"{seat} places the lord in {gm.counties[lord].name} and {units} "
                   "units.", seat=seat)
    place_neutrals(state, ctx.dice, log, _neutral_choices(ctx, lines))
    start_year(ctx)


def _neutral_choices(ctx: Context, lines: Lines) -> dict[str, dict[str, str]]:
    """Option neutral_placement=players (DP4): each seat's NEUTRAL lines per province."""
    state = ctx.state
    gm = gmap(state)
    choices: dict[str, dict[str, str]] = {}
    if state["options"]["neutral_placement"] != "players":
        return choices
    for seat, provs in neutral_assignment(state).items():
        mine = [ln.order for ln in lines.get(seat, ()) if isinstance(ln.order, Neutral)]
        for prov in provs:
            chosen = {o.county: o.arm for o in mine if gm.counties[o.county].province == prov}
            if not chosen:
                continue  # nothing sent: random placement
            why = neutral_problems(gm, state["version"], prov, chosen)
            if why:
                ctx.log.private([seat], "deploy", f"{seat}: neutral placement in {prov} refused "
                                f"({why}); placed at random.")
            else:
                choices[prov] = chosen
    return choices


# --- the year orders --------------------------------------------------------------------------


def orders_awaits(state: State) -> list[str]:
    return [s for s in turn_order(state) if state["players"][s]["status"] != "out"]


def orders_prompt(state: State, seat: str) -> Prompt:
    return Prompt(f"Year {state['year']}: send recruitment, ransom, transfers, your steps with "
                  "a PASS point and battle instructions.", tuple(orders_skeleton(state, seat)))


def orders_skeleton(state: State, seat: str) -> list[str]:
    """The year-orders skeleton: what may be sent now, as comments (rulebook p. 7-8)."""
    gm = gmap(state)
    castles = sorted(c for c, x in state["board"].items()
                     if x["owner"] == seat and gm.counties[c].has_castle)
    p = state["players"][seat]
    year = state["year"]
    sk = [f"# treasury {p['treasury']} garas"]
    if year == 1301:  # rulebook p. 7: no income and no recruitment in the first year
        sk.append("# no income and no recruitment in 1301")
    else:
        sk[0] += ("; cavalry 9, infantry/archer 5"
                  + (" (Palatine 7/4)" if state["offices"]["palatine"] == seat else ""))
        sk.append("# RECRUIT <n> <arm> IN <castle>; your castles: " + (", ".join(castles)
                                                                       or "none"))
        if state["options"]["cavalry_cap"]:
            if state["version"] == "basic":  # rulebook p. 8
                sk.append("# cavalry: at most 2 per castle and 4 in all this year")
            else:  # rulebook p. 15 (6.4)
                sk.append(f"# cavalry: at most 3 per castle; {state['cavalry_quota']} new "
                          "cavalry in all players' recruitment this year (at least 1 for you)")
    if p["status"] == "captive" and p["captive_until"]:
        sk.append("# your lord is captive: RANSOM <county with your units> (20 garas) before "
                  f"{p['captive_until']}, or he dies")
    if regular_election(state, year) or state["extra_election"]:
        sk.append(f"# election at the end of {year}: you may pre-bid here, e.g. "
                  "BID judge 5, BID treasurer 3 IF LOST judge")
    sk += [f"# up to {min(6, len(castles) + 2)} steps in order, then PASS: "
           "MOVE TO <county> FROM <county> <n> <arm> [; <county> ...]",
           "PASS"]
    return sk


def orders_default(state: State, seat: str) -> list[str]:
    """NMR: no recruitment, no steps (standing orders stay)."""
    return ["PASS"]


def resolve_orders(ctx: Context, lines: Lines) -> None:
    year_orders(ctx, lines)


# --- the election -----------------------------------------------------------------------------


def bid_awaits(state: State) -> list[str]:
    """The first auction that needs bids: the eligible seats without a pre-bid for it."""
    return to_ask(state)


def bid_prompt(state: State, seat: str) -> Prompt:
    return Prompt(bid_question(state, seat), (f"BID {current_office(state)} 0",))


def bid_default(state: State, seat: str) -> list[str]:
    return [f"BID {current_office(state)} 0"]


def resolve_bids(ctx: Context, lines: Lines) -> None:
    """The bids of this step (pre-bids for later auctions allowed); an awaited seat without a
    bid for this auction bids 0. Then the rest of the election and of the year."""
    state = ctx.state
    office = current_office(state)
    sent: dict[str, list[Bid]] = {}
    for seat in eligible(state):
        sent[seat] = [ln.order for ln in lines.get(seat, ()) if isinstance(ln.order, Bid)]
        if seat in lines:
            sent[seat].append(Bid(office, 0))
    run_election(ctx, sent)
    end_year(ctx)


# --- judged on arrival --------------------------------------------------------------------------


def check(state: State, seat: str, order: Order, questions: Sequence[Question]) -> Verdict:
    """A well-formed line against the position as it stands: a refusal reason naming the
    legal choices, a Note, or None."""
    gm = gmap(state)
    if isinstance(order, (Deploy, LordAt)) and gm.counties[order.county].province != seat:
        return f"{order.county} is not in your home province {seat}"
    if isinstance(order, Neutral):
        return _check_neutral(state, seat, order)
    if isinstance(order, Bid):
        return _check_bid(state, seat, order, questions)
    if isinstance(order, Give) and order.seat == seat:
        return "you cannot give money to yourself"
    return None


def _check_neutral(state: State, seat: str, order: Neutral) -> Verdict:
    if state["options"]["neutral_placement"] != "players":
        return "NEUTRAL is used only with option neutral_placement=players"
    mine = neutral_assignment(state).get(seat, [])
    plains = [c for prov in mine for c in neutral_plains(gmap(state), prov)]
    if order.county not in plains:
        return (f"{order.county} is not a plain county of the neutral provinces dealt to you ("
                + (", ".join(mine) or "none") + ")")
    return None


def _check_bid(state: State, seat: str, order: Bid, questions: Sequence[Question]) -> Verdict:
    asked = next((q for q in questions if q.seat == seat and q.kind == "bid"), None)
    if state["election"] is None:
        if not election_due(state):
            return (f"no election at the end of {state['year']}; pre-bids are accepted only in "
                    "election years")
        return None
    office = asked.data.get("office", "") if asked is not None else current_office(state)
    have = state["players"][seat]["treasury"]
    if asked is not None and order.office != office:
        return f"this auction is for {office}, not {order.office}"
    if order.office == office and order.amount > have:
        return f"you have only {have} garas; bid 0 to {have}"
    return None


# --- standing orders ------------------------------------------------------------------------------


def keep_standing(state: State, seat: str, order: Order) -> None:
    """Store a standing order; it replaces the earlier one of its kind."""
    st = state["players"][seat]["standing"]
    if isinstance(order, (Lead, Target, Reroll, Flee)):
        st["battle_set"] = True
    if isinstance(order, Lead):
        st.setdefault("lead", {})[order.kind] = list(order.arms)
    elif isinstance(order, Target):
        st.setdefault("target", {})[order.kind] = list(order.arms)
    elif isinstance(order, Reroll):
        st["reroll"] = order.misses
    elif isinstance(order, Flee):
        st["flee"] = order.percent
    elif isinstance(order, Fealty):
        st["fealty"] = "yes" if order.mode == "yes" else "no" if order.mode == "no" else "castle"
    elif isinstance(order, (Retreat, Rejoin)):
        st["retreat" if isinstance(order, Retreat) else "rejoin"] = list(order.counties)
    elif isinstance(order, (Place, Losses)):
        st["place" if isinstance(order, Place) else "losses"] = list(order.arms)
    elif isinstance(order, Prefer):
        st["prefer"] = list(order.seats)
    elif isinstance(order, Veto):
        st.setdefault("veto", {})[order.what] = list(order.counties)
    elif isinstance(order, Sequence_):
        st["sequence"] = "first" if order.first else "last"
