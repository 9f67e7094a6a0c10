"""The steps of Kard és Korona: for each phase of the ruleset's phase table, who is awaited,
what the report asks, the NMR default, how the step resolves, and how a line is judged on
arrival.

Three phases: the set-up placement (once), the year orders (every year, all players at
once: transfers, ransom, recruitment, the movement script, standing orders) and the
election's first auction that needs bids (later auctions, battle instructions, oaths, the
Palatine's tie and strict movement are decisions inside a resolution: `ctx.decide`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pbem.core.i18n import Msg, _, join
from pbem.core.kit import Context, Lines, Note, Order, Question, Verdict
from pbem.core.orders import OrderLine, Parsed, Prompt
from pbem.rulesets.kard_es_korona.data import ARMS, OFFICE_WORDS, OFFICES
from pbem.rulesets.kard_es_korona.orders import (
    Bid,
    Cede,
    Deploy,
    Fealty,
    Fight,
    Flee,
    Give,
    Lead,
    LordAt,
    Losses,
    Move,
    Neutral,
    Place,
    Prefer,
    Ransom,
    Recruit,
    Rejoin,
    Reroll,
    RerollPolicy,
    Retreat,
    Target,
    Veto,
)
from pbem.rulesets.kard_es_korona.orders import Sequence as Sequence_
from pbem.rulesets.kard_es_korona.rules.control import gmap, turn_order
from pbem.rulesets.kard_es_korona.rules.economy import (
    RANSOM,
    election_due,
    recruitable,
    regular_election,
)
from pbem.rulesets.kard_es_korona.rules.elections import (
    bid_question,
    current_office,
    run_election,
    to_ask,
)
from pbem.rulesets.kard_es_korona.rules.movement import judge_move
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
from pbem.rulesets.kard_es_korona.state import (
    Army,
    Standing,
    State,
    add_units,
    empty_army,
    holder,
    total,
)

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
    return Prompt(_("Place your lord and starting army in your home province."), tuple(sk))


def deploy_default(state: State, seat: str) -> list[str]:
    return deploy_lines(gmap(state), state["version"], seat)


def resolve_deploy(ctx: Context, lines: Lines) -> None:
    """The starting placement (rulebook p. 6, p. 14), then the neutral troops (p. 3, p. 6),
    then the first year begins."""
    state, log = ctx.state, ctx.log
    gm = gmap(state)
    for seat in state["seats"]:
        mine = [ln for ln in lines.get(seat, ()) if isinstance(ln.order, (Deploy, LordAt))]
        deploys, lord = placement([ln.order for ln in mine])
        probs = deployment_problems(gm, state["version"], seat, deploys, lord)
        if probs:
            deploys, lord = default_deployment(gm, state["version"], seat)
            default = "; ".join(deploy_lines(gm, state["version"], seat))
            for ln in mine:
                log.changed(seat, ln, _("your placement is not legal ({problem}); the default "
                                        "placement was used: {default}", problem=probs[0],
                                        default=default))
        else:
            for ln in mine:
                log.done(seat, ln)
        for c, army in sorted(deploys.items()):
            if total(army):
                add_units(state, c, seat, army)
        assert lord is not None
        state["players"][seat]["lord"] = lord
        units = sum(START_ARMY[state["version"]].values())
        log.public("deploy", _("{seat} places the lord in {county} and {n} units.", seat=seat,
                               county=gm.counties[lord].name, n=units), seat=seat)
    place_neutrals(state, ctx.dice, log, _neutral_choices(ctx, lines))
    start_year(ctx)


def placement(orders: Sequence[Order]) -> tuple[dict[str, Army], str | None]:
    """The starting armies per county and the lord's county of DEPLOY and LORD lines."""
    deploys: dict[str, Army] = {}
    lord = None
    for o in orders:
        if isinstance(o, Deploy):
            d = deploys.setdefault(o.county, empty_army())
            for a, n in o.army().items():
                d[a] += n
        elif isinstance(o, LordAt):
            lord = o.county
    return deploys, lord


def judge_placement(state: State, seat: str, parsed: Parsed) -> Parsed:
    """The set-up placement is judged as a whole on arrival: DEPLOY and LORD lines that do
    not make a legal placement together are refused together."""
    if state["phase"] != "deploy" or state["pause"] is not None:
        return parsed
    mine = [ln for ln in parsed.lines if ln.ok and isinstance(ln.order, (Deploy, LordAt))]
    deploys, lord = placement([ln.order for ln in mine])
    probs = deployment_problems(gmap(state), state["version"], seat, deploys, lord) \
        if mine else []
    if not probs:
        return parsed
    why = _("your placement as a whole is not legal: {problem}; send all your DEPLOY and LORD "
            "lines again (else the default placement is used)", problem=probs[0])
    return Parsed.of(OrderLine(ln.lineno, ln.text, None, why) if ln in mine else ln
                     for ln in parsed.lines)


def _neutral_choices(ctx: Context, lines: Lines) -> dict[str, dict[str, str]]:
    """Option neutral_placement=players (DP4): each seat's NEUTRAL lines per province;
    a province whose lines do not place its units right is placed at random."""
    state = ctx.state
    gm = gmap(state)
    choices: dict[str, dict[str, str]] = {}
    for seat, provs in neutral_assignment(state).items():
        mine = [ln for ln in lines.get(seat, ()) if isinstance(ln.order, Neutral)]
        for prov in provs:
            here = [ln for ln in mine if gm.counties[ln.order.county].province == prov]
            chosen = {ln.order.county: ln.order.arm for ln in here}
            why = neutral_problems(gm, state["version"], prov, chosen) if here else ""
            for ln in here:
                if why:
                    ctx.log.changed(seat, ln, _("the neutral units of {province} are not placed "
                                                "right ({why}); they were placed at random",
                                                province=prov, why=why))
                else:
                    ctx.log.done(seat, ln)
            if here and not why:
                choices[prov] = chosen
    return choices


# --- the year orders --------------------------------------------------------------------------


def orders_awaits(state: State) -> list[str]:
    return [s for s in turn_order(state) if state["players"][s]["status"] != "out"]


def orders_prompt(state: State, seat: str) -> Prompt:
    return Prompt(_("Year {year}: send recruitment, ransom, transfers, your steps with a PASS "
                    "point and battle instructions.", year=state["year"]),
                  tuple(orders_skeleton(state, seat)))


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
    run_election(ctx, {seat: [ln for ln in seat_lines if isinstance(ln.order, Bid)]
                       for seat, seat_lines in lines.items()})
    end_year(ctx)


# --- judged on arrival --------------------------------------------------------------------------

Check = Callable[[State, str, Any, Sequence[Question]], Verdict]


def check(state: State, seat: str, order: Order, questions: Sequence[Question]) -> Verdict:
    """A well-formed line against the position as it stands: a refusal reason naming the
    legal choices (the line is illegal whatever the others do), a Note of what would happen
    if the board stays as it is (other seats' moves may still change it), or None."""
    judge = CHECKS.get(type(order))
    return judge(state, seat, order, questions) if judge is not None else None


def _check_deploy(state: State, seat: str, o: Deploy, qs: Sequence[Question]) -> Verdict:
    gm = gmap(state)
    if gm.counties[o.county].province != seat:
        return _("{county} is not in your home province {seat}", county=o.county, seat=seat)
    want = START_ARMY[state["version"]]
    army = o.army()
    for a in ARMS:
        if army[a] > want[a]:
            return _("your starting army has {want} {arm}, not {n} (it is {army})", want=want[a],
                     arm=a, n=army[a], army=", ".join(f"{want[x]} {x}" for x in ARMS))
    if gm.counties[o.county].has_castle and total(army) > 7:
        return _("at most 7 units may stand in the castle county {county}", county=o.county)
    if gm.counties[o.county].has_castle and state["version"] == "advanced" and max(
            army.values()) > 4:
        return _("at most 4 of one arm may stand in the castle county {county} (advanced)",
                 county=o.county)
    return None


def _check_lord(state: State, seat: str, o: LordAt, qs: Sequence[Question]) -> Verdict:
    if gmap(state).counties[o.county].province != seat:
        return _("{county} is not in your home province {seat}", county=o.county, seat=seat)
    return None


def _check_neutral(state: State, seat: str, o: Neutral, qs: Sequence[Question]) -> Verdict:
    if state["options"]["neutral_placement"] != "players":
        return _("NEUTRAL is used only with option neutral_placement=players")
    mine = neutral_assignment(state).get(seat, [])
    plains = [c for prov in mine for c in neutral_plains(gmap(state), prov)]
    if o.county not in plains:
        return _("{county} is not a plain county of the neutral provinces dealt to you "
                 "({provinces})", county=o.county, provinces=", ".join(mine) or _("none"))
    return None


def _castles(state: State, seat: str) -> str:
    gm = gmap(state)
    return ", ".join(sorted(c for c, x in state["board"].items()
                            if x["owner"] == seat and gm.counties[c].has_castle)) or _("none")


def _check_recruit(state: State, seat: str, o: Recruit, qs: Sequence[Question]) -> Verdict:
    if state["year"] == 1301:
        return _("no income and no recruitment in 1301 (rulebook p. 7)")
    n, why, kind = recruitable(state, seat, o.count, o.arm, o.county,
                               allowance=max(state["cavalry_quota"], 1))
    if kind == "held":
        return _("you do not hold {county}; your castle counties: {castles}", county=o.county,
                 castles=_castles(state, seat))
    definite = kind == "room" or (kind == "cavalry" and state["version"] == "basic")
    if n == 0 and definite:
        return _("no recruit fits: {why}", why=why)
    if n < o.count:
        return Note(_("as things stand only {n} would be recruited: {why}", n=n, why=why))
    return None


def _check_ransom(state: State, seat: str, o: Ransom, qs: Sequence[Question]) -> Verdict:
    p = state["players"][seat]
    if p["status"] != "captive":
        return _("your lord is not a captive")
    if (p["captive_since"] or 0) >= state["year"]:
        return _("a ransom can be paid from the year after the capture on")
    s = state["board"].get(o.county)
    if s is None or s["owner"] != seat:
        mine = sorted(c for c, x in state["board"].items() if x["owner"] == seat)
        return _("{county} holds none of your units; your lord may return to {counties}",
                 county=o.county, counties=", ".join(mine) or _("no county"))
    if p["treasury"] < RANSOM:
        return Note(_("you have {have} garas now and the ransom is {ransom}",
                      have=p["treasury"], ransom=RANSOM))
    return None


def _check_give(state: State, seat: str, o: Give, qs: Sequence[Question]) -> Verdict:
    if o.seat == seat:
        return _("you cannot give money to yourself")
    if state["players"][o.seat]["status"] == "out":
        return _("{seat} is out of the game", seat=o.seat)
    have = state["players"][seat]["treasury"]
    if o.amount > have:
        return Note(_("you have {have} garas now; at most what you have is given", have=have))
    return None


def _check_cede(state: State, seat: str, o: Cede, qs: Sequence[Question]) -> Verdict:
    if holder(state, o.office) != seat:
        held = [x for x in OFFICES if holder(state, x) == seat]
        return _("you do not hold the office {office}; you hold {held}",
                 office=OFFICE_WORDS[o.office],
                 held=join([OFFICE_WORDS[x] for x in held]) if held else _("no office"))
    if o.seat == seat or state["players"][o.seat]["status"] != "active":
        return _("{seat} cannot hold an office (only active players who are no vassals)",
                 seat=o.seat)
    return None


def _check_move(state: State, seat: str, o: Move, qs: Sequence[Question]) -> Verdict:
    return judge_move(state, seat, o, now=any(q.seat == seat and q.kind == "move" for q in qs))


def _check_bid(state: State, seat: str, order: Bid, questions: Sequence[Question]) -> Verdict:
    asked = next((q for q in questions if q.seat == seat and q.kind == "bid"), None)
    have = state["players"][seat]["treasury"]
    election = state["election"]
    if election is None:
        if not election_due(state):
            return _("no election at the end of {year}; pre-bids are accepted only in "
                     "election years", year=state["year"])
        if state["players"][seat]["status"] != "active":
            return Note(_("vassals and captives do not bid (a captive ransomed this year may)"))
        if order.amount > have:
            return Note(_("you have {have} garas now; a bid above your treasury at its auction "
                          "is cut to it", have=have))
        return None
    office = str(asked.data.get("office", "")) if asked is not None else current_office(state)
    if asked is not None and order.office != office:
        return _("this auction is for {office}, not {other}", office=OFFICE_WORDS[office],
                 other=OFFICE_WORDS[order.office])
    if OFFICES.index(order.office) < OFFICES.index(office):
        return _("the {other} auction is over; this auction is for {office}",
                 other=OFFICE_WORDS[order.office], office=OFFICE_WORDS[office])
    if order.office == office and order.amount > have:
        return _("you have only {have} garas; bid 0 to {have}", have=have)
    if order.amount > have:
        return Note(_("you have {have} garas now; a bid above your treasury is cut to it",
                      have=have))
    return None


def _check_fealty(state: State, seat: str, o: Fealty, qs: Sequence[Question]) -> Verdict:
    if any(q.seat == seat and q.kind == "oath" for q in qs):
        return Note(_("FEALTY is a standing order for later defeats; this question is "
                      "answered with OATH YES or OATH NO"))
    return None


def _check_flee(state: State, seat: str, o: Flee, qs: Sequence[Question]) -> Verdict:
    if o.percent and not state["options"]["flight"]:
        return Note(_("the flight rule (advanced 6.3) is off in this game: FLEE is kept but "
                      "does nothing"))
    return None


def _check_fight(state: State, seat: str, o: Fight, qs: Sequence[Question]) -> Verdict:
    notes: list[Msg] = []
    if o.reroll is not None and o.reroll.dice and holder(state, "judge") != seat:
        notes.append(_("you are not the Judge Royal: REROLL does nothing"))
    if o.flee and not state["options"]["flight"]:
        notes.append(_("the flight rule (advanced 6.3) is off in this game: FLEE does nothing"))
    q = next((q for q in qs if q.seat == seat and q.kind == "battle"), None)
    county = str(q.data.get("county", "")) if q is not None else ""
    far = [c for c in o.retreat if county and c not in gmap(state).adjacent(county)]
    if far:
        notes.append(_("{counties} do not border {county}: RETREAT there is not possible",
                       counties=", ".join(far), county=county))
    return Note(join(notes, "; ")) if notes else None


# --- standing orders ------------------------------------------------------------------------------


def absorb(ctx: Context, seat: str, lines: Sequence[OrderLine]) -> None:
    """Standing orders are kept until replaced (a later line of the same kind in the same
    file replaces an earlier one)."""
    last: dict[object, OrderLine] = {}
    for ln in lines:
        keep_standing(ctx.state, seat, ln.order)
        last[standing_kind(ln.order)] = ln
    for ln in lines:
        final = last[standing_kind(ln.order)]
        if final is ln:
            ctx.log.done(seat, ln, _("kept as your standing order"))
        else:
            ctx.log.changed(seat, ln, _("replaced by line {n} of this file", n=final.lineno))


def standing_kind(order: Order) -> object:
    """What a standing order replaces: the earlier one of the same kind (LEAD and TARGET per
    battle type, VETO per kind)."""
    if isinstance(order, (Lead, Target)):
        return (type(order), order.kind)
    if isinstance(order, Veto):
        return (Veto, order.what)
    return type(order)


def keep_reroll(st: Standing, policy: RerollPolicy) -> None:
    st["reroll"] = policy.dice
    st.pop("reroll_hits", None)
    st.pop("reroll_arm", None)
    if policy.hits:
        st["reroll_hits"] = policy.hits
    if policy.arm:
        st["reroll_arm"] = policy.arm


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
        keep_reroll(st, order.policy)
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


CHECKS: dict[type, Check] = {
    Deploy: _check_deploy, LordAt: _check_lord, Neutral: _check_neutral,
    Recruit: _check_recruit, Ransom: _check_ransom, Give: _check_give, Cede: _check_cede,
    Move: _check_move, Bid: _check_bid, Fealty: _check_fealty, Flee: _check_flee,
    Fight: _check_fight,
}
