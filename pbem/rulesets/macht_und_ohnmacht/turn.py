"""The turn script runner: a seat's order lines carried out in order, with pauses.

Rulebook "A játékos köre"; spec §4.3, §5.5. A turn has 2 actions (1 in the starting
player's first turn after a VP tie). The active seat's file is a script: each action line
is tried in order; one that is illegal when reached is skipped with an event (only the
seat sees its own skipped lines); consecutive PLAY lines form one action D. When the
script runs out with actions left, each missing action is a RECRUIT (always legal; spec
A13: no passing). As soon as the last cube leaves the hourglass, the current tile,
auction or response is finished and the cycle ends; the rest of the script is dropped.

Pauses (option decisions=ask): the auction ("bid", all seats without a bid at once), the
serpent window ("serpent"), the retreat ("retreat") and the lightning winner's effect
("effect"). Each resumes where it stopped.
Not here: legality of single orders (actions.py), standing-order matching (decisions.py).
"""

from __future__ import annotations

from collections.abc import Mapping

from pbem.core.dice import Dice
from pbem.core.events import Event, private, public
from pbem.core.orders import Parsed

from . import actions, board, cycle, decisions
from .board import State
from .orders import (
    ACTIONS,
    PLAYS,
    BidAnswer,
    Cancel,
    Decline,
    Effect,
    If,
    Order,
    Pass,
    Place,
    PlayInfluence,
    Rebel,
    Recruit,
    RetreatPref,
    Swap,
    Take,
)
from .parser import parse_line


def resolve_step(state: State, orders: Mapping[str, Parsed], dice: Dice) -> list[Event]:
    """Apply the awaited seats' orders, then run on until orders are needed again."""
    events: list[Event] = []
    phase = state["phase"]
    got = {seat: list(p.orders) for seat, p in orders.items()}
    if phase == "turn":
        t = state["turn"]
        seat = t["seat"]
        mine = got.get(seat, [])
        decisions.absorb_standing(state, seat, mine, events)
        state["script"] = [str(o) for o in mine if isinstance(o, ACTIONS)]
        state["cursor"] = 0
        t["waiting"] = False
        events.append(public("turn", f"{seat}'s turn {t['no']} of cycle {state['cycle']} "
                             f"({t['actions']} action{'s' if t['actions'] > 1 else ''}).",
                             seat=seat))
    elif phase == "bid":
        p = state["pending"]
        for seat in p["need"]:
            mine = got.get(seat, [])
            decisions.absorb_standing(state, seat, mine, events)
            answer = next((o for o in mine if isinstance(o, BidAnswer)), None)
            if answer is not None:
                p["bids"][seat] = answer.n
                if answer.ifwin is not None or seat not in p["ifwin"]:
                    # an IFWIN sent earlier on the TAKE line stays unless replaced
                    p["ifwin"][seat] = str(answer.ifwin) if answer.ifwin else None
            else:
                sb = decisions.standing_bid(state, seat, p["type"])
                p["bids"][seat] = sb[0] if sb else 0
                p["ifwin"][seat] = str(sb[1]) if sb and sb[1] else None
        p["need"] = []
        state["phase"] = "turn"
        finish_auction(state, events)
    elif phase == "serpent":
        p = state["pending"]
        holder = p["seat"]
        mine = got.get(holder, [])
        decisions.absorb_standing(state, holder, mine, events)
        o = parse_line(state, p["order"])
        answer = next((x for x in mine if isinstance(x, Cancel | Pass)), None)
        if answer is None:
            cancel = bool(decisions.serpent_policy(state, holder, o, actions.play_type(o)))
        else:
            cancel = isinstance(answer, Cancel)
        state["pending"] = None
        state["phase"] = "turn"
        if cancel:
            play_serpent(state, holder, o, events)
        else:
            apply_tile(state, p["by"], o, events)
    elif phase == "retreat":
        p = state["pending"]
        defender = p["seat"]
        mine = got.get(defender, [])
        decisions.absorb_standing(state, defender,
                                  [o for o in mine if not isinstance(o, RetreatPref)], events)
        pref = next((o for o in mine if isinstance(o, RetreatPref)), None)
        if pref is None:
            pref = decisions.standing_retreat(state, defender)
        choice = decisions.retreat_choice(state, defender, p["region"], pref)
        state["pending"] = None
        state["phase"] = "turn"
        actions.finish_seize(state, p["attacker"], p["region"], p["place"], choice, events)
    elif phase == "effect":
        p = state["pending"]
        winner = p["seat"]
        mine = got.get(winner, [])
        decisions.absorb_standing(state, winner, mine, events)
        e: Effect | None = next((o for o in mine if isinstance(o, Rebel | Swap | Decline)), None)
        if e is not None:
            why = decisions.check_effect(state, winner, p["type"], e)
            if why:
                events.append(private("skip", f"{e}: skipped, {why}; the default applies.",
                                      [winner]))
                e = None
        if e is None:
            e = decisions.default_effect(state, winner, p["type"])
        state["pending"] = None
        state["phase"] = "turn"
        apply_effect(state, winner, e, events)
    else:
        raise AssertionError(f"nothing to resolve in phase {phase!r}")
    run(state, dice, events)
    return events


def run(state: State, dice: Dice, events: list[Event]) -> None:
    """Carry on with the active seat's script until a pause, the turn's end (then the next
    seat is awaited) or the game's end."""
    while state["phase"] == "turn":
        if state["hourglass"] == 0:
            # Rulebook "A ciklus vége": the cycle ends at once; the action that took the
            # last cube has been carried out; the rest of the turn does not happen.
            left = len(state["script"]) - state["cursor"]
            seat = state["turn"]["seat"]
            if left > 0:
                events.append(private("dropped", f"The cycle ended: {left} remaining order "
                                      "line(s) were not used.", [seat]))
            cycle.end_cycle(state, dice, events)
            continue
        t = state["turn"]
        if t["waiting"]:
            return
        seat = t["seat"]
        if state["cursor"] < len(state["script"]):
            o = parse_line(state, state["script"][state["cursor"]])
            inner = o.order if isinstance(o, If) else o
            if t["in_d"] and not isinstance(inner, PLAYS):
                t["in_d"] = False
            if not t["in_d"] and t["used"] >= t["actions"]:
                end_turn(state, events)
                return
            state["cursor"] += 1
            execute(state, seat, o, events)
            continue
        t["in_d"] = False
        if t["used"] < t["actions"]:
            events.append(public("default_recruit", f"{seat} has an action left and no more "
                                 "usable orders: RECRUIT.", seat=seat))
            t["used"] += 1
            actions.do_recruit(state, seat, events)
            continue
        end_turn(state, events)
        return


def end_turn(state: State, events: list[Event]) -> None:
    t = state["turn"]
    seat = t["seat"]
    left = len(state["script"]) - state["cursor"]
    if left > 0:
        events.append(private("dropped", f"Your actions are used up: {left} remaining order "
                              "line(s) were not used.", [seat]))
    nxt = board.opponent(state, seat)
    state["turn"] = cycle.new_turn(nxt, 2, first=False, no=t["no"] + 1)
    state["script"], state["cursor"] = [], 0


def skip(state: State, seat: str, o: Order, why: str, events: list[Event]) -> None:
    events.append(private("skip", f"{o}: skipped, {why}.", [seat], order=str(o)))


def condition_holds(state: State, seat: str, o: If) -> bool:
    if o.test == "HOLD":
        return bool(state["regions"][o.arg]["owner"] == seat)
    if o.test == "NOT HOLD":
        return bool(state["regions"][o.arg]["owner"] != seat)
    n, h = int(o.arg), state["hourglass"]
    return {"HOURGLASS >=": h >= n, "HOURGLASS <=": h <= n, "HOURGLASS =": h == n}[o.test]


def execute(state: State, seat: str, o: Order, events: list[Event]) -> None:
    t = state["turn"]
    if isinstance(o, If):
        if not condition_holds(state, seat, o):
            return skip(state, seat, o, f"the condition {o.test} {o.arg} does not hold", events)
        o = o.order
    if isinstance(o, Take):
        why = actions.check_take(state, seat, o)
        if why:
            return skip(state, seat, o, why, events)
        t["used"] += 1
        tid = board.first_of_type(state["display"], o.tile)
        assert tid is not None
        state["display"].remove(tid)
        if board.tile(tid)["lightning"]:
            auction(state, seat, o, tid, events)
        else:
            state["held"][seat] = sorted(state["held"][seat] + [tid])
            events.append(public("take", f"{seat} takes a {board.tile_name(o.tile)} tile.",
                                 seat=seat, tile=tid))
    elif isinstance(o, Place):
        why = actions.check_place(state, seat, o)
        if why:
            return skip(state, seat, o, why, events)
        t["used"] += 1
        actions.do_place(state, seat, o, events)
    elif isinstance(o, Recruit):
        t["used"] += 1
        actions.do_recruit(state, seat, events)
    elif isinstance(o, PLAYS):
        why = actions.check_play(state, seat, o)
        if why:
            return skip(state, seat, o, why, events)
        if not t["in_d"]:
            t["used"] += 1
            t["in_d"] = True
        tid = actions.spend_tile(state, seat, o, events)
        serpent_window(state, seat, o, tid, events)
    else:  # pragma: no cover
        raise AssertionError(f"not an action: {o}")
    return None


# --- action D: serpent window, effects --------------------------------------------------------

def serpent_window(state: State, seat: str, o: Order, tid: str, events: list[Event]) -> None:
    """Spec §5.5 / DP-05: after a tile's cube is removed, the opponent may cancel it with a
    serpent if he holds one and a cube is left for it."""
    holder = board.opponent(state, seat)
    if decisions.serpent_possible(state, holder):
        cancel = decisions.serpent_policy(state, holder, o, actions.play_type(o))
        if cancel is None:
            if decisions.ask_mode(state):
                state["pending"] = {"kind": "serpent", "seat": holder, "by": seat,
                                    "order": str(o), "tile": tid}
                state["phase"] = "serpent"
                return
            cancel = False  # auto default: no serpent
        if cancel:
            play_serpent(state, holder, o, events)
            return
    apply_tile(state, seat, o, events)


def play_serpent(state: State, holder: str, o: Order, events: list[Event]) -> None:
    """Rulebook "Kígyó": the played tile is discarded without effect; its cube stays
    removed; the serpent removes one more cube."""
    if not decisions.serpent_possible(state, holder):
        raise AssertionError("serpent played without a serpent or a cube")
    sid = board.first_of_type(state["held"][holder], "serpent")
    assert sid is not None
    state["held"][holder].remove(sid)
    state["discard"] = sorted(state["discard"] + [sid])
    events.append(public("serpent", f"{holder} plays a serpent: {o} is cancelled.",
                         seat=holder, order=str(o)))
    actions.cube(state, events, "serpent")


def apply_tile(state: State, seat: str, o: Order, events: list[Event]) -> None:
    if isinstance(o, PlayInfluence) and o.mode == "SEIZE":
        if not actions.seize_result(state, seat, o, events):
            return
        defender = board.opponent(state, seat)
        options = actions.retreat_options(state, defender, o.region)
        pref = decisions.standing_retreat(state, defender)
        if options and pref is None and decisions.ask_mode(state):
            state["pending"] = {"kind": "retreat", "seat": defender, "attacker": seat,
                                "region": o.region, "place": o.place, "options": options}
            state["phase"] = "retreat"
            return
        choice = decisions.retreat_choice(state, defender, o.region, pref)
        actions.finish_seize(state, seat, o.region, o.place, choice, events)
        return
    actions.apply_simple(state, seat, o, events)


# --- action A: auctions -------------------------------------------------------------------------

def auction(state: State, seat: str, o: Take, tid: str, events: list[Event]) -> None:
    """Rulebook A): a lightning tile is auctioned at once; both bid active reserve units in
    secret; the tile is discarded and one cube removed whatever happens (spec §5.2)."""
    kind = board.ttype(tid)
    state["discard"] = sorted(state["discard"] + [tid])
    events.append(public("take_lightning", f"{seat} takes {board.tile_name(kind)}: it is "
                         "auctioned.", seat=seat, tile=tid))
    actions.cube(state, events, "lightning tile")
    bids: dict[str, int] = {}
    ifwin: dict[str, str | None] = {}
    if o.bid is not None:
        bids[seat], ifwin[seat] = o.bid, (str(o.ifwin) if o.ifwin else None)
    for s in state["seats"]:
        if s in bids:
            continue
        sb = decisions.standing_bid(state, s, kind)
        if sb is not None:
            bids[s], ifwin[s] = sb[0], (str(sb[1]) if sb[1] else None)
        elif s == seat and o.ifwin is not None:
            ifwin[s] = str(o.ifwin)
    act = board.active_type(state)
    for s in state["seats"]:
        if s not in bids and state["reserve"][s][act] == 0:
            # No active unit in reserve: 0 is the only bid; nobody is asked for it.
            bids[s] = 0
            ifwin.setdefault(s, None)
    need = [s for s in state["seats"] if s not in bids]
    state["pending"] = {"kind": "bid", "type": kind, "tile": tid, "taker": seat,
                        "bids": bids, "ifwin": ifwin, "need": need}
    if need and decisions.ask_mode(state):
        state["phase"] = "bid"
        return
    for s in need:
        bids[s] = 0  # auto default: bid 0
        ifwin.setdefault(s, None)
    finish_auction(state, events)


def finish_auction(state: State, events: list[Event]) -> None:
    p = state["pending"]
    act = board.active_type(state)
    bids = {}
    for s in state["seats"]:
        have = state["reserve"][s][act]
        bids[s] = min(p["bids"][s], have)
        if bids[s] < p["bids"][s]:
            events.append(private("bid_cut", f"Your bid of {p['bids'][s]} is cut to {have}: "
                                  f"you have only {have} {act}(s) in reserve.", [s]))
    a, b = state["seats"]
    kind = p["type"]
    events.append(public("bids", f"Bids for {board.tile_name(kind)}: "
                         + ", ".join(f"{s} {bids[s]}" for s in state["seats"]) + ".", bids=bids))
    state["pending"] = None
    if bids[a] == bids[b]:
        # Rulebook: on equal bids nobody gets the tile and nobody loses units.
        events.append(public("auction_tie", "Equal bids: the tile is discarded without "
                             "effect."))
        return
    winner = a if bids[a] > bids[b] else b
    state["reserve"][winner][act] -= bids[winner]
    state["stock"][winner][act] += bids[winner]
    events.append(public("auction_won", f"{winner} wins the {board.tile_name(kind)} auction "
                         f"and pays {board.unit_word(act, bids[winner])} to stock.",
                         winner=winner))
    if kind == "vp":
        state["vp"][winner] += 1
        events.append(public("vp", f"{winner} gains 1 VP ({state['vp'][winner]}).",
                             seat=winner))
        return
    e: Effect | None = None
    line = p["ifwin"].get(winner)
    if line:
        cand = parse_line(state, line)
        why = decisions.check_effect(state, winner, kind, cand)
        if why:
            events.append(private("skip", f"IFWIN {cand}: skipped, {why}.", [winner]))
        else:
            e = cand
    if e is None:
        if decisions.ask_mode(state) and _effect_has_choice(state, winner, kind):
            state["pending"] = {"kind": "effect", "seat": winner, "type": kind, "tile": p["tile"]}
            state["phase"] = "effect"
            return
        e = decisions.default_effect(state, winner, kind)
    apply_effect(state, winner, e, events)


def _effect_has_choice(state: State, winner: str, kind: str) -> bool:
    if kind == "rebellion":
        return bool(board.controlled(state, board.opponent(state, winner)))
    return True


def apply_effect(state: State, winner: str, e: Effect, events: list[Event]) -> None:
    """Rulebook "Lázadás" / "Régiójelző cseréje"; spec §5.2."""
    opp = board.opponent(state, winner)
    if isinstance(e, Rebel):
        for unit, n in ((board.KNIGHT, e.knights), (board.MAGE, e.mages)):
            board.remove_units(state, e.region, unit, n)
            state["stock"][opp][unit] += n
        events.append(public("rebellion", f"Rebellion: {winner} removes "
                             f"{board.units_text(e.knights, e.mages)} of {opp} from "
                             f"{board.region_name(state, e.region)}.", region=e.region))
    elif isinstance(e, Swap):
        reg = state["regions"][e.region]
        old = reg["marker"]
        state["aside"].remove(e.marker)
        reg["marker"] = e.marker
        # SPEC-AMBIGUITY A18: the removed marker joins the set-aside markers.
        state["aside"] = sorted(state["aside"] + [old])
        events.append(public("swap", f"Marker swap: {board.region_name(state, e.region)} "
                             f"now carries {e.marker} (was {old}).", region=e.region,
                             marker=e.marker, old=old))
    else:
        events.append(public("decline", f"{winner} declines the effect."))
