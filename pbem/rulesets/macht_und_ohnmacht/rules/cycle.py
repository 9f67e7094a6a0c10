"""Set-up, cycle start and cycle end (rulebook "Előkészületek", "A játék menete",
"A ciklus és a játék vége"; spec §3, §4.2, §4.4, §8).

Every random element (markers, tile reveals, time tiles, the start-player lot) is drawn
through the dice handed in, from what is still in the pile at that moment; all of it is
public. Not here: the actions of a turn (actions.py, take.py, play.py), the turn script
(phases.py).
"""

from __future__ import annotations

from typing import Any

from pbem.core.dice import Dice
from pbem.core.i18n import Msg, _, n_
from pbem.core.kit import Log

from .. import board, data
from ..data import KNIGHT, MAGE, MAGIC, STEEL, both, listed, term
from ..state import MapRegion, Options, State, Turn

MAX_TIED_ENDS = 5  # engine safeguard against an endless run of full ties (see end_cycle)
DEFAULT_OPTIONS: Options = {
    "decisions": "auto",
    "start_tiebreak": "previous_cycle",
    "win_regions": "active",
    "simultaneous_win": "another_cycle",
    "sea_destination_coastal": "no",
}


def map_from_data() -> dict[str, MapRegion]:
    return {r["id"]: {"name": r["name"], "aliases": list(r.get("aliases", [])),
                      "coastal": bool(r["coastal"]), "borders": sorted(r["borders"]),
                      "x": r.get("x"), "y": r.get("y")}
            for r in data.map_data()["region"]}


def new_state(seats: tuple[str, ...], options: dict[str, Any],
              game_map: dict[str, MapRegion] | None = None) -> State:
    """An empty board before any random set-up: no markers placed, no tiles revealed
    (the shape: state.py)."""
    rules = data.unit_rules()
    game_map = game_map or map_from_data()
    return {
        "seats": list(seats),
        "options": {**DEFAULT_OPTIONS, **options},  # type: ignore[typeddict-item]
        "map": game_map,
        "regions": {rid: {"marker": None, "owner": None, MAGE: 0, KNIGHT: 0}
                    for rid in sorted(game_map)},
        "set_aside": [],
        "reserve": {s: {MAGE: rules["start_reserve"], KNIGHT: rules["start_reserve"]}
                    for s in seats},
        "stock": {s: {MAGE: rules["per_type"] - rules["start_reserve"],
                      KNIGHT: rules["per_type"] - rules["start_reserve"]} for s in seats},
        "held": {s: [] for s in seats},
        "display": [],
        "pile": sorted(data.tile_catalogue()),
        "discard": [],
        "time_pile": sorted(data.components()["time"]["values"]),
        "time_used": [],
        "time_tile": None,
        "cycle": 1,
        "cycle_type": MAGIC,
        "hourglass": 0,
        "first_recruit_done": False,
        "strength": {s: {} for s in seats},
        "vp": {s: 0 for s in seats},
        "start_player": None,
        "tied_start": False,
        "turn": None,
        "standing": {s: {"bid": [], "serpent": [], "retreat": []} for s in seats},
        "result": None,
        "tied_ends": 0,
        "pause": None,
    }


def setup(state: State, dice: Dice, log: Log) -> None:
    """Rulebook "Előkészületek"; spec §3: markers at random, 3+3 units in reserve (done in
    new_state), 7 tiles face up, magic cycle with 4 cubes, scores 0; then cycle 1 starts
    with reinforcement and the start-player lot."""
    pool = sorted(s for sym in data.components()["symbol"] for s in [sym["id"]] * sym["markers"])
    for rid in board.region_ids(state):
        state["regions"][rid]["marker"] = dice.draw(
            pool, _("region marker for {region}", region=board.region_name(state, rid)))
    state["set_aside"] = sorted(pool)
    markers = listed([_("{region} {marker}", region=board.region_name(state, r),
                      marker=term(state["regions"][r]["marker"]))
                    for r in board.region_ids(state)])
    log.public("setup", _("Region markers: {markers}; set aside: {aside}", markers=markers,
                          aside=listed([term(m) for m in state["set_aside"]])),
        markers={r: state["regions"][r]["marker"] for r in board.region_ids(state)},
        aside=list(state["set_aside"]))
    cyc = data.cycle_rules()
    state["hourglass"] = cyc["first_hourglass"]
    reveal(state, dice, log, cyc["first_display"])
    start_cycle(state, dice, log, first=True)


def reveal(state: State, dice: Dice, log: Log, n: int) -> None:
    """Reveal `n` action tiles into the display, drawing from the pile as it is now; when
    it runs out, the discard pile becomes the new pile (rulebook: "a dobottakat újra meg
    kell keverni"); if both are empty, reveal what exists (spec A15)."""
    shown: list[str] = []
    for i in range(n):
        if not state["pile"]:
            if not state["discard"]:
                log.public("reveal_short", _("Only {n} action tiles could be revealed: the "
                                             "draw and discard piles are empty.", n=i))
                break
            state["pile"] = sorted(state["discard"])
            state["discard"] = []
            log.public("reshuffle", _("The discard pile is shuffled into a new draw pile "
                                      "({n} tiles).", n=len(state["pile"])))
        tid = dice.draw(state["pile"], _("action tile {i} of {n}, cycle {cycle}", i=i + 1, n=n,
                                         cycle=state["cycle"]))
        shown.append(tid)
    state["display"] = sorted(state["display"] + shown)
    log.public("reveal", _("Revealed: {tiles}", tiles=tile_names(shown)), tiles=shown)


def tile_names(tiles: list[str]) -> Msg | str:
    return listed([data.tile_name(data.ttype(t)) for t in tiles])


def start_cycle(state: State, dice: Dice, log: Log, *, first: bool = False) -> None:
    """Spec §4.2: reinforcement, cycle length (not in cycle 1), starting player, actions."""
    act = board.active_type(state)
    gains = {}
    for seat in state["seats"]:
        # Rulebook "Erősítés": 2 active units from stock, fewer if the stock is short.
        n = min(data.unit_rules()["reinforcement"], state["stock"][seat][act])
        state["stock"][seat][act] -= n
        state["reserve"][seat][act] += n
        gains[seat] = n
    log.public("cycle_start", _("Cycle {cycle} ({type}) begins. Reinforcement: {gains}.",
                                cycle=state["cycle"], type=term(state["cycle_type"]),
                                gains=listed([_("{seat} +{units}", seat=s,
                                              units=data.unit_word(act, n))
                                            for s, n in gains.items()])),
               cycle=state["cycle"], cycle_type=state["cycle_type"], gains=gains)
    if not first:
        # Rulebook "Időlapka felcsapása"; spec §4.2 step 2 (reshuffle used tiles: A14).
        if not state["time_pile"]:
            state["time_pile"] = sorted(state["time_used"])
            state["time_used"] = []
            log.public("time_reshuffle", _("The used time tiles are shuffled into a new pile."))
        value = dice.draw(state["time_pile"], _("time tile, cycle {cycle}",
                                                cycle=state["cycle"]))
        state["time_used"] = sorted(state["time_used"] + [value])
        state["time_tile"] = value
        state["hourglass"] = value
        if state["display"]:
            log.public("display_discard", _("Untaken tiles go to the discard pile: {tiles}.",
                                            tiles=tile_names(state["display"])))
        state["discard"] = sorted(state["discard"] + state["display"])
        state["display"] = []
        log.public("time_tile", _("Time tile {value}: {value} cubes on the hourglass, {n} action "
                                  "tiles.", value=value,
                                  n=value + data.cycle_rules()["extra_display"]),
                   value=value)
        reveal(state, dice, log, value + data.cycle_rules()["extra_display"])
    choose_start_player(state, dice, log)
    state["first_recruit_done"] = False
    state["strength"] = {s: {} for s in state["seats"]}


def choose_start_player(state: State, dice: Dice, log: Log) -> None:
    """Rulebook "A játékos köre"; spec §4.2 steps 3-4: fewer VP starts; on equal VP, fewer
    active regions; then a lot. On equal VP the starter's first turn has 1 action."""
    a, b = state["seats"]
    vp = state["vp"]
    # SPEC-AMBIGUITY A3: which cycle's units count as active for the tie-break; option
    # start_tiebreak = previous_cycle (default) | new_cycle (the spec's proposal). The
    # rulebook's play example decides the default: "a fehér játékos kezdi majd -
    # ugyanannyi győzelmi pontjuk van, de neki kevesebb az aktív régiója" refers to the
    # count just made at the end of the steel cycle (the rulebook wins over the spec).
    basis = state["cycle_type"]
    if state["options"]["start_tiebreak"] == "previous_cycle" and state["cycle"] > 1:
        basis = MAGIC if basis == STEEL else STEEL
    act = {s: len(board.active_regions(state, s, basis)) for s in state["seats"]}
    if vp[a] != vp[b]:
        start = a if vp[a] < vp[b] else b
        why = _("fewer victory points")
    elif act[a] != act[b]:
        start = a if act[a] < act[b] else b
        why = _("equal victory points and fewer active regions ({basis} basis)",
                basis=term(basis))
    else:
        start = dice.choice(list(state["seats"]), _("start player lot, cycle {cycle}",
                                                    cycle=state["cycle"]))
        why = _("drawn by lot (victory points and active regions equal)")
    # SPEC-AMBIGUITY A2: "equal points at the start of the game" read as "at the start of
    # the cycle" (the rulebook's own turn-order example applies it mid-game).
    tied = vp[a] == vp[b]
    state["start_player"] = start
    state["tied_start"] = tied
    actions = 1 if tied else 2
    state["turn"] = new_turn(start, actions, number=1)
    log.public("start_player", n_("{seat} starts cycle {cycle} ({why}), with {n} action in the "
                                  "first turn.", "{seat} starts cycle {cycle} ({why}), with {n} "
                                  "actions in the first turn.", actions, seat=start,
                                  cycle=state["cycle"], why=why), seat=start, actions=actions)


def new_turn(seat: str, actions: int, *, number: int) -> Turn:
    return {"seat": seat, "actions": actions, "used": 0, "number": number}


def end_cycle(state: State, dice: Dice, log: Log) -> None:
    """Rulebook "A ciklus és a játék vége"; spec §4.4, §8: more active regions scores 1
    VP, a tie scores 1 VP each; VP + controlled active regions >= 12 wins."""
    a, b = state["seats"]
    ctype = state["cycle_type"]
    counts = {s: len(board.active_regions(state, s)) for s in state["seats"]}
    if counts[a] == counts[b]:
        scorers = [a, b]
    else:
        scorers = [a if counts[a] > counts[b] else b]
    for s in scorers:
        state["vp"][s] += 1
    log.public("cycle_end", _("Cycle {cycle} ({type}) ends. Active regions: {counts}; +1 VP to "
                              "{scorers}. VP now {vp}.", cycle=state["cycle"], type=term(ctype),
                              counts=listed([f"{s} {counts[s]}" for s in state["seats"]]),
                              scorers=both(scorers),
                              vp=listed([f"{s} {state['vp'][s]}" for s in state["seats"]])),
               counts=counts, scorers=scorers, vp=dict(state["vp"]))
    totals = {s: state["vp"][s] + win_regions(state, s) for s in state["seats"]}
    target = data.cycle_rules()["win"]
    reached = [s for s in state["seats"] if totals[s] >= target]
    if len(reached) < 2 or totals[a] != totals[b] or state["vp"][a] != state["vp"][b]:
        state["tied_ends"] = 0
    winner: list[str] = []
    reason = Msg("")
    if len(reached) == 1:
        winner = reached
        reason = win_reasons(reached[0], totals[reached[0]])["reached"]
    elif len(reached) == 2:
        # SPEC-AMBIGUITY A12 (spec §8 proposal): higher total, then higher VP, then
        # another cycle (option simultaneous_win = another_cycle | draw).
        if totals[a] != totals[b]:
            winner = [a if totals[a] > totals[b] else b]
            reason = win_reasons()["total"]
        elif state["vp"][a] != state["vp"][b]:
            winner = [a if state["vp"][a] > state["vp"][b] else b]
            reason = win_reasons()["vp"]
        elif state["options"]["simultaneous_win"] == "draw":
            winner = [a, b]
            reason = win_reasons()["draw"]
        elif state["tied_ends"] + 1 >= MAX_TIED_ENDS:
            # Engine safeguard, not a rule: a full tie that repeats (e.g. both players
            # only recruiting, or both NMR) would otherwise never end the game.
            winner = [a, b]
            reason = win_reasons()["safeguard"]
        else:
            state["tied_ends"] = state["tied_ends"] + 1
            log.public("tie_on", _("Both reach 12 with equal totals and VP: another cycle is "
                                   "played."))
    shown = listed([f"{s} {totals[s]}" for s in state["seats"]])
    log.public("totals", _("Totals (VP + active regions): {totals}.", totals=shown)
               if state["options"]["win_regions"] == "active"
               else _("Totals (VP + regions): {totals}.", totals=shown), totals=totals)
    if winner:
        state["turn"] = None
        state["result"] = {"winners": winner, "scores": totals, "reason": str(reason)}
        log.public("game_over", _("Game over: {seat} wins; {reason}.", seat=winner[0],
                                  reason=reason) if len(winner) == 1 else
                   _("Game over: {seats} win; {reason}.", seats=both(winner), reason=reason),
                   winners=winner, totals=totals)
        return
    state["cycle"] += 1
    state["cycle_type"] = STEEL if ctype == MAGIC else MAGIC
    start_cycle(state, dice, log)


def win_reasons(seat: str = "", total: int = 0) -> dict[str, Msg]:
    """Why a game ended, each a message (the state keeps the English text; `reason_of`
    finds its message again)."""
    return {
        "reached": _("{seat} reaches {n} points (VP + active regions)", seat=seat, n=total),
        "total": _("both reach 12; the higher total wins"),
        "vp": _("both reach 12 with equal totals; more VP wins"),
        "draw": _("both reach 12 with equal totals and VP: a draw"),
        "safeguard": _("both reach 12 with equal totals and VP at {n} cycle ends in a row: a "
                       "draw (engine safeguard)", n=MAX_TIED_ENDS),
    }


def reason_of(result: Any) -> Msg | str:
    """The stored reason of a result as its message (the English text if none fits)."""
    winners = result["winners"]
    reasons = win_reasons(winners[0], result["scores"][winners[0]]).values() if winners else []
    return next((m for m in reasons if m == result["reason"]), result["reason"])


def win_regions(state: State, seat: str) -> int:
    # SPEC-AMBIGUITY A1: the rulebook's summary counts all controlled regions, its detailed
    # end-of-game text only active ones; default "active" (spec), option win_regions=all.
    if state["options"]["win_regions"] == "all":
        return len(board.controlled(state, seat))
    return len(board.active_regions(state, seat))
