"""The year (rulebook 3.3, p. 7; spec 4): phases I-V as a state machine that runs every
automatic part and stops when orders are needed.

Steps of a year: (1) the year orders of every player at once: transfers, ransom,
recruitment, the step list with its PASS point and standing battle instructions; the
engine then carries out recruitment in turn order, interleaves the movement and fights all
battles; (2) in election years one sealed-bid step per office. With decisions=ask a battle
or a defeated lord's oath may add a short step.
"""

from __future__ import annotations

from typing import Any

from pbem.core.dice import Dice
from pbem.core.events import Event
from pbem.core.orders import Parsed
from pbem.rulesets.kard_es_korona import economy, elections
from pbem.rulesets.kard_es_korona.battles import run_battles
from pbem.rulesets.kard_es_korona.defeat import captive_deaths, leave_game
from pbem.rulesets.kard_es_korona.movement import run_movement, start_movement
from pbem.rulesets.kard_es_korona.orders import (
    Bid,
    Cede,
    Deploy,
    Fealty,
    Flee,
    Give,
    Lead,
    LordAt,
    Losses,
    Move,
    Neutral,
    Pass,
    Place,
    Prefer,
    Ransom,
    Recruit,
    Rejoin,
    Reroll,
    Resign,
    Retreat,
    Sequence,
    Target,
    Veto,
)
from pbem.rulesets.kard_es_korona.setup import (
    default_deployment,
    deployment_problems,
    neutral_assignment,
    neutral_problems,
    place_neutrals,
)
from pbem.rulesets.kard_es_korona.state import (
    St,
    add_units,
    gmap,
    step_allowance,
    total,
    turn_order,
)
from pbem.rulesets.kard_es_korona.victory import final_ranking, instant_winner, update_claims


def check_victory(state: St, events: list[Event]) -> bool:
    if state["result"] is not None:
        return True
    update_claims(state)
    win = instant_winner(state)
    if win is None:
        return False
    seat, reason = win
    _, ranking, scores = final_ranking(state)
    winners = [seat] if seat else []
    state["result"] = {"winners": winners, "reason": reason,
                       "ranking": ([seat] if seat else []) + [s for s in ranking if s != seat],
                       "scores": scores}
    state["phase"] = "over"
    events.append(Event("victory", f"{seat or 'Nobody'} wins: {reason}.",
                        {"winners": winners}))
    return True


def store_standing(state: St, seat: str, order: Any) -> None:
    st = state["players"][seat]["standing"]
    if isinstance(order, Lead):
        st.setdefault("lead", {})[order.kind] = list(order.arms)
        st["battle_set"] = True
    elif isinstance(order, Target):
        st.setdefault("target", {})[order.kind] = list(order.arms)
        st["battle_set"] = True
    elif isinstance(order, Reroll):
        st["reroll"] = order.misses
        st["battle_set"] = True
    elif isinstance(order, Flee):
        st["flee"] = order.percent
        st["battle_set"] = True
    elif isinstance(order, Fealty):
        st["fealty"] = order.mode
    elif isinstance(order, Retreat):
        st["retreat"] = list(order.counties)
    elif isinstance(order, Rejoin):
        st["rejoin"] = list(order.counties)
    elif isinstance(order, Place):
        st["place"] = list(order.arms)
    elif isinstance(order, Losses):
        st["losses"] = list(order.arms)
    elif isinstance(order, Prefer):
        st["prefer"] = list(order.seats)
    elif isinstance(order, Veto):
        st.setdefault("veto", {})[order.what] = list(order.counties)
    elif isinstance(order, Sequence):
        st["sequence"] = "first" if order.first else "last"


STANDING_TYPES = (Lead, Target, Reroll, Flee, Fealty, Retreat, Rejoin, Place, Losses, Prefer,
                  Veto,
                  Sequence)


def resolve(state: St, orders: dict[str, Parsed], dice: Dice) -> list[Event]:
    events: list[Event] = []
    phase = state["phase"]
    if phase == "deploy":
        _deploy(state, orders, dice, events)
        state["stage"] = "year_start"
    elif phase == "orders":
        _year_orders(state, orders, dice, events)
    elif phase == "ask":
        ask = state["ask"]
        for seat in ask["seats"]:
            parsed = orders.get(seat, Parsed())
            p = state["players"][seat]
            if ask["kind"] == "move":
                lines = [str(o) for o in parsed.orders if isinstance(o, (Move, Pass))]
                p["script"] = lines or ["PASS"]
            elif ask["kind"] == "battle":
                once: dict[str, Any] = {"seq": ask["seq"]}
                for o in parsed.orders:
                    if isinstance(o, Lead):
                        once.setdefault("lead", {})["all"] = list(o.arms)
                    elif isinstance(o, Target):
                        once.setdefault("target", {})["all"] = list(o.arms)
                    elif isinstance(o, Reroll):
                        once["reroll"] = o.misses
                    elif isinstance(o, Flee):
                        once["flee"] = o.percent
                    elif isinstance(o, Retreat):
                        once["retreat"] = list(o.counties)
                p["battle_orders"] = once
            elif ask["kind"] == "palatine":
                # a one-off answer: the first tied player named in his PREFER line
                named = [x for o in parsed.orders if isinstance(o, Prefer) for x in o.seats]
                ask["choice"] = next((x for x in named if x in ask["tied"]), None)
            else:
                answer = next((o.mode for o in parsed.orders if isinstance(o, Fealty)), "yes")
                p["fealty_answer"] = answer
        state["ask"] = None
        state["phase"] = "running"
        if ask["kind"] == "palatine":
            _auction(state, state["election"]["pending"]["bids"], dice, events,
                     ask.get("choice"), resumed=True)
            state["phase"] = "running"
    elif phase == "bid":
        bids = {}
        office = elections.current_office(state)
        results = {r["office"]: r["winner"] for r in state["election"]["results"]}
        for seat in elections.eligible(state):
            parsed = orders.get(seat, Parsed())
            bid = None
            for o in parsed.orders:
                if isinstance(o, Bid) and o.office == office and bid is None and (
                        not o.cond or (results.get(o.cond_office) == seat) == (o.cond == "won")):
                    bid = o.amount
                elif isinstance(o, Prefer):
                    store_standing(state, seat, o)
            if bid is None:
                bid = elections.prebid(state, seat)
            bids[seat] = bid or 0
        if not _auction(state, bids, dice, events):
            return events
        state["phase"] = "running"
    advance(state, dice, events)
    return events


def _auction(state: St, bids: dict[str, int], dice: Dice, events: list[Event],
             choice: str | None = None, resumed: bool = False) -> bool:
    """Resolve the current auction and move the election on; False while it waits for
    the Palatine's tie choice (phase "ask")."""
    if not elections.resolve_auction(state, bids, dice, events, choice, resumed):
        state["phase"] = "ask"
        return False
    state["election"]["office"] += 1
    if state["election"]["office"] >= 3 or not elections.eligible(state):
        _end_election(state, events)
    return True


def _end_election(state: St, events: list[Event]) -> None:
    state["elections_held"] += 1
    state["election"] = None
    state["extra_election"] = False
    state["stage"] = "year_end"
    check_victory(state, events)


def _deploy(state: St, orders: dict[str, Parsed], dice: Dice, events: list[Event]) -> None:
    gm = gmap(state)
    for seat in state["seats"]:
        parsed = orders.get(seat, Parsed())
        deploys: dict[str, dict[str, int]] = {}
        lord = None
        for o in parsed.orders:
            if isinstance(o, Deploy):
                d = deploys.setdefault(o.county, {"cav": 0, "inf": 0, "arch": 0})
                d["cav"] += o.cav
                d["inf"] += o.inf
                d["arch"] += o.arch
            elif isinstance(o, LordAt):
                lord = o.county
            elif isinstance(o, STANDING_TYPES):
                store_standing(state, seat, o)
        probs = deployment_problems(gm, state["version"], seat, deploys, lord)
        if probs:
            if deploys or lord:
                events.append(Event("deploy", f"{seat}: placement refused ({probs[0]}); the "
                                    "default placement is used.", {}, (seat,)))
            deploys, lord = default_deployment(gm, state["version"], seat)
        for c, army in sorted(deploys.items()):
            if total(army):
                add_units(state, c, seat, army)
        state["players"][seat]["lord"] = lord
        events.append(Event("deploy", f"{seat} places the lord in {gm.counties[lord].name} and "
                            "12 units." if state["version"] == "basic" else
                            f"{seat} places the lord in {gm.counties[lord].name} and 15 units.",
                            {"seat": seat}))
    choices: dict[str, dict[str, str]] = {}
    if state["opts"].get("neutral_placement") == "players":
        for seat, provs in neutral_assignment(state).items():
            lines = [o for o in orders.get(seat, Parsed()).orders if isinstance(o, Neutral)]
            for prov in provs:
                chosen = {o.county: o.arm for o in lines if gm.counties[o.county].province == prov}
                why = neutral_problems(gm, state["version"], prov, chosen)
                if not chosen:
                    continue  # nothing sent: random placement
                if why:
                    events.append(Event("deploy", f"{seat}: neutral placement in {prov} "
                                        f"refused ({why}); placed at random.", {}, (seat,)))
                else:
                    choices[prov] = chosen
    place_neutrals(state, dice, events, choices)


def _year_orders(state: St, orders: dict[str, Parsed], dice: Dice, events: list[Event]) -> None:
    seats = [s for s in turn_order(state) if s in orders]
    for seat in list(seats):
        if any(isinstance(o, Resign) for o in orders[seat].orders):
            leave_game(state, seat, events)
            seats.remove(seat)
    for seat in seats:
        p = state["players"][seat]
        p["script"] = []
        for o in orders[seat].orders:
            if isinstance(o, STANDING_TYPES):
                store_standing(state, seat, o)
            elif isinstance(o, (Move, Pass)):
                p["script"].append(str(o))
        pre = [{"office": o.office, "amount": o.amount, "cond": o.cond,
                "cond_office": o.cond_office} for o in orders[seat].orders if isinstance(o, Bid)]
        p["standing"].pop("prebids", None)
        if pre:
            p["standing"]["prebids"] = {str(state["year"]): pre}
    for seat in seats:  # transfers first (rulebook p. 2)
        for o in orders[seat].orders:
            if isinstance(o, Give):
                economy.do_give(state, seat, o, events)
            elif isinstance(o, Cede):
                economy.do_cede(state, seat, o, events)
    if state["year"] > 1301:
        recruitment(state, {s: orders[s].orders for s in seats}, events)
    else:
        if any(isinstance(o, (Recruit, Ransom)) for s in seats for o in orders[s].orders):
            events.append(Event("skip", "No income and no recruitment in 1301.", {}))
    if check_victory(state, events):
        return
    for seat in state["seats"]:  # phase III: allowance counted at its start (PR-10)
        p = state["players"][seat]
        p["steps_left"] = step_allowance(state, seat) if p["status"] != "out" else 0
    if state["opts"].get("movement") == "traditional":
        # SPEC-AMBIGUITY: in the traditional mode units that already fought this year may be
        # attacked again by a later player (the book says the start player moving last
        # "cannot be attacked by anyone this year", so earlier movers can be).
        order = [s for s in turn_order(state) if state["players"][s]["status"] != "out"]
        if state["players"][state["start"]]["standing"].get("sequence") == "last":
            order = order[1:] + order[:1]
        events.append(Event("phase", f"{state['year']}: traditional movement; order " +
                            ", ".join(order) + ".", {"order": order}))
        state["trad"] = {"order": order, "i": 0}
        state["stage"] = "trad_move"
        state["phase"] = "running"
        return
    start_movement(state)
    state["stage"] = "movement"
    state["phase"] = "running"


def recruitment(state: St, orders: dict[str, list[Any]], events: list[Event]) -> None:
    """Phase II in turn order (rulebook p. 7): ransom and recruitment lines in the order
    written; the advanced cavalry allowance is fixed when the player's turn comes (PR-9)."""
    for seat in turn_order(state):
        if seat not in orders:
            continue
        p = state["players"][seat]
        p["cav_allow"] = max(state["quota"], 1)
        for o in orders[seat]:
            if isinstance(o, Ransom):
                economy.do_ransom(state, seat, o, events)
            elif isinstance(o, Recruit) and p["status"] != "out":
                economy.do_recruit(state, seat, o, events)


def advance(state: St, dice: Dice, events: list[Event]) -> None:
    """Run automatic parts until orders are needed or the game is over."""
    while True:
        if state["result"] is not None:
            state["phase"] = "over"
            return
        stage = state["stage"]
        if stage == "movement":
            r = run_movement(state, events, lambda: check_victory(state, events))
            if r == "ask":
                state["phase"] = "ask"
                return
            for p in state["players"].values():
                p["script"] = []
            if r == "over":
                continue
            events.append(Event("phase", f"{state['year']}, phase IV: all units are turned "
                                "face up; battles and sieges.", {}))
            state["stage"] = "battles"
        elif stage == "battles":
            r = run_battles(state, dice, events, lambda: check_victory(state, events))
            if r == "ask":
                state["phase"] = "ask"
                return
            if r == "over":
                continue
            state["stage"] = "election"
        elif stage == "election":
            if elections.election_due(state) and elections.start_election(state, events):
                state["stage"] = "election_running"
                continue
            if elections.election_due(state):
                _end_election(state, events)
            state["stage"] = "year_end"
        elif stage == "trad_move":
            # Rulebook 6.5: each player makes all his steps, then fights all his battles.
            trad = state["trad"]
            if trad["i"] >= len(trad["order"]):
                state["trad"] = None
                state["stage"] = "election"
                continue
            seat = trad["order"][trad["i"]]
            if state["players"][seat]["status"] != "out":
                start_movement(state, only=[seat])
                run_movement(state, events, lambda: check_victory(state, events))
            state["players"][seat]["script"] = []
            state["stage"] = "trad_battles"
        elif stage == "trad_battles":
            r = run_battles(state, dice, events, lambda: check_victory(state, events))
            if r == "ask":
                state["phase"] = "ask"
                return
            if r == "over":
                continue
            state["trad"]["i"] += 1
            state["stage"] = "trad_move"
        elif stage == "election_running":
            if state["election"] is None:
                state["stage"] = "year_end"
                continue
            if elections.to_ask(state):
                state["phase"] = "bid"
                return
            # every eligible player sent a pre-bid for this office: no mail round needed
            bids = {seat: elections.prebid(state, seat) or 0
                    for seat in elections.eligible(state)}
            if not _auction(state, bids, dice, events):
                return
        elif stage == "year_end":
            if state["year"] >= state["last_year"]:
                winners, ranking, scores = final_ranking(state)
                state["result"] = {"winners": winners, "ranking": ranking, "scores": scores,
                                   "reason": f"end of {state['year']}: most castles, then "
                                             "counties, cavalry, money"}
                events.append(Event("victory", "The last year is over. " + (
                    " and ".join(winners) if winners else "Nobody") + " wins.",
                    {"winners": winners}))
                continue
            state["year"] += 1
            if state["first_passer"]:
                state["start"] = state["first_passer"]
            state["stage"] = "year_start"
        elif stage == "year_start":
            _year_start(state, dice, events)
            if check_victory(state, events):
                continue
            state["stage"] = "orders"
            state["phase"] = "orders"
            return
        else:
            raise AssertionError(f"unknown stage {stage}")


def _year_start(state: St, dice: Dice, events: list[Event]) -> None:
    """Phase I and the income of phase II (rulebook p. 7)."""
    year = state["year"]
    events.append(Event("year", f"Year {year} begins; start player {state['start']}.",
                        {"year": year}))
    state["first_passer"] = None
    state["cav_castle"] = {}
    state["quota"] = (year - 1300) if (state["version"] == "advanced"
                                       and state["opts"].get("cavalry_cap", True)) else 0
    for p in state["players"].values():
        p.update(lord_moved=False, frozen=False, cav_bought=0, passed=False, battle_orders=None,
                 steps_left=0, cav_allow=0)
    for s in state["board"].values():
        s["used"] = {a: 0 for a in s["used"]}
    captive_deaths(state, events)
    economy.draw_card(state, dice, events)
    if state["opts"].get("movement") == "traditional":
        roll_start_player(state, dice, events)
    economy.apply_card(state, events)
    economy.collect_income(state, events)


def roll_start_player(state: St, dice: Dice, events: list[Event]) -> None:
    """Rulebook 6.5 (PR-42): every year each player rolls two dice, the highest total is
    the start player; ties roll again."""
    tied = [s for s in state["seats"] if state["players"][s]["status"] != "out"]
    rnd = 0
    while len(tied) > 1:
        rnd += 1
        totals = {s: sum(dice.rolls(2, 6, f"start player roll {state['year']}, round {rnd}: "
                                          f"{s}")) for s in tied}
        events.append(Event("start_roll", "Start player roll: " + ", ".join(
            f"{s} {t}" for s, t in totals.items()) + ".", {"totals": totals}))
        top = max(totals.values())
        tied = [s for s in tied if totals[s] == top]
    if tied:
        state["start"] = tied[0]
        events.append(Event("start_roll", f"{tied[0]} is start player in {state['year']}.",
                            {"seat": tied[0]}))
