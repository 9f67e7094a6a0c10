"""The four actions (rulebook "A lehetséges akciók", A-D; spec §5.2-5.6) and the tile
effects that need no decision.

`check_*` functions return None when an order is legal now, else the reason it is not
(the turn refuses the line with that reason). `do_*` functions apply a legal order.
Not here: the order of a turn (phases.py), auctions (auction.py), the serpent window and
the retreat of a seize (play.py).
"""

from __future__ import annotations

from pbem.core.i18n import Msg, _
from pbem.core.kit import Log

from .. import board, data
from ..data import KNIGHT, MAGE, Unit, term
from ..orders import (
    Place,
    Play,
    PlayInfluence,
    PlayMovement,
    PlayRecruit,
    PlaySea,
    PlayStrength,
    Take,
)
from ..state import State

# --- A: take a tile -------------------------------------------------------------------------


def check_take(state: State, seat: str, o: Take) -> Msg | None:
    if data.first_of_type(state["display"], o.tile) is None:
        return _("no {tile} tile is on display", tile=data.tile_name(o.tile))
    return None


def cube(state: State, log: Log, why: Msg) -> None:
    """Remove one grey cube from the hourglass (spec §5.8)."""
    if state["hourglass"] <= 0:
        raise AssertionError("no cube left to remove")
    state["hourglass"] -= 1
    log.public("cube", _("A cube leaves the hourglass ({why}); {n} left.", why=why,
                         n=state["hourglass"]), hourglass=state["hourglass"])


# --- B: place -----------------------------------------------------------------------------

def check_place(state: State, seat: str, o: Place) -> Msg | None:
    """Rulebook B): an active unit from reserve onto an empty region or one you control
    with at most 3 of your units (both types counted). Spec §5.3."""
    act = board.active_type(state)
    if state["reserve"][seat][act] < 1:
        return no_active_unit(act)
    reg = state["regions"][o.region]
    if reg["owner"] not in (None, seat):
        return held_by(state, o.region, reg["owner"])
    if reg["owner"] == seat and board.units_in(state, o.region) > data.unit_rules()["place_cap"]:
        return _("you have {n} units in {region}; PLACE needs at most 3 there",
                 n=board.units_in(state, o.region), region=board.region_name(state, o.region))
    return None


def no_active_unit(act: str) -> Msg:
    if act == KNIGHT:
        return _("no knight (active unit) is in your reserve")
    return _("no mage (active unit) is in your reserve")


def held_by(state: State, rid: str, seat: str | None) -> Msg:
    return _("{region} is held by {seat}", region=board.region_name(state, rid), seat=seat)


def placeable(state: State, seat: str) -> list[str]:
    """The regions where PLACE is legal now (check_place for every region at once)."""
    if state["reserve"][seat][board.active_type(state)] < 1:
        return []
    cap = data.unit_rules()["place_cap"]
    regions = state["regions"]
    return [r for r in board.region_ids(state) if regions[r]["owner"] is None
            or (regions[r]["owner"] == seat and board.units_in(state, r) <= cap)]


def do_place(state: State, seat: str, o: Place, log: Log) -> None:
    act = board.active_type(state)
    state["reserve"][seat][act] -= 1
    board.add_units(state, o.region, seat, act, 1)
    log.public("place", _put(seat, act, board.region_name(state, o.region), "places"),
               seat=seat, region=o.region)


def _put(seat: str, unit: str, region: str, verb: str) -> Msg:
    """'{seat} places a knight on {region}.' (B, a won seize) or 'puts' (bolster)."""
    if verb == "puts":
        if unit == KNIGHT:
            return _("{seat} puts a knight on {region}.", seat=seat, region=region)
        return _("{seat} puts a mage on {region}.", seat=seat, region=region)
    if unit == KNIGHT:
        return _("{seat} places a knight on {region}.", seat=seat, region=region)
    return _("{seat} places a mage on {region}.", seat=seat, region=region)


# --- C: recruit ---------------------------------------------------------------------------

def do_recruit(state: State, seat: str, log: Log) -> None:
    """Rulebook C): 2 passive units from stock (3 for the first recruitment of the cycle
    by either player), fewer if the stock is short; always legal; one cube. Spec §5.4;
    SPEC-AMBIGUITY A19: a short first recruit still uses up the 3-unit bonus."""
    pas = board.passive_type(state)
    rules = data.unit_rules()
    want = rules["recruit"] if state["first_recruit_done"] else rules["first_recruit"]
    n = min(want, state["stock"][seat][pas])
    first = not state["first_recruit_done"]
    state["stock"][seat][pas] -= n
    state["reserve"][seat][pas] += n
    state["first_recruit_done"] = True
    units = data.unit_word(pas, n)
    log.public("recruit", _("{seat} recruits {units} (first recruitment of the cycle).",
                            seat=seat, units=units) if first else
               _("{seat} recruits {units}.", seat=seat, units=units), seat=seat, unit=pas, n=n)
    cube(state, log, _("recruitment"))


# --- D: tiles -------------------------------------------------------------------------------

def check_play(state: State, seat: str, o: Play) -> Msg | None:
    """Preconditions of each tile mode at the moment of play (spec §5.6, §5.9; A28)."""
    ttype = o.tile_type
    if data.first_of_type(state["held"][seat], ttype) is None:
        return _("you hold no {tile} tile", tile=data.tile_name(ttype))
    return mode_problem(state, seat, o)


def mode_problem(state: State, seat: str, o: Play) -> Msg | None:
    """The preconditions of the tile's mode (the tile itself is held)."""
    if isinstance(o, PlayInfluence):
        return _check_influence(state, seat, o)
    if isinstance(o, PlayMovement):
        return _check_movement(state, seat, o)
    if isinstance(o, PlaySea):
        return _check_sea(state, seat, o)
    return None  # strength and recruit mode are always playable when held


def _check_influence(state: State, seat: str, o: PlayInfluence) -> Msg | None:
    opp = board.opponent(state, seat)
    reg = state["regions"][o.region]
    name = board.region_name(state, o.region)
    if reg["marker"] != o.symbol:
        return _("{region} carries a {marker} marker, not {symbol}", region=name,
                 marker=term(reg["marker"]), symbol=term(o.symbol))
    if o.mode == "BOLSTER":
        # Rulebook "Erősítés": empty or own region with the tile's symbol; no cap.
        if reg["owner"] == opp:
            return held_by(state, o.region, opp)
        act = board.active_type(state)
        if state["reserve"][seat][act] < 1:
            return no_active_unit(act)
        return None
    # SPEC-AMBIGUITY A7: a seize needs an opponent-held target.
    if reg["owner"] != opp:
        return _("{region} is not held by {seat}", region=name, seat=opp)
    if o.sure:
        att, dfn = board.seize_parts(state, seat, o.region)
        attack, defence = sum(n for _w, n in att), sum(n for _w, n in dfn)
        if attack - defence < 1:
            return _("SURE: the count would be {attack}:{defence}, not a win (attack: {att}; "
                     "defence: {dfn})", attack=attack, defence=defence,
                     att=board.count_terms(att), dfn=board.count_terms(dfn))
    return None


def _check_movement(state: State, seat: str, o: PlayMovement) -> Msg | None:
    """Rulebook "Mozgás": two adjacent regions (cycle adjacency), own units only, both
    ways. SPEC-AMBIGUITY A5: neither region may be the opponent's."""
    opp = board.opponent(state, seat)
    regions = state["regions"]
    for rid in (o.a, o.b):
        if regions[rid]["owner"] == opp:
            return held_by(state, rid, opp)
    if not board.adjacent(state, o.a, o.b):
        return _("{a} and {b} are not adjacent in the {type} cycle",
                 a=board.region_name(state, o.a), b=board.region_name(state, o.b),
                 type=term(state["cycle_type"]))
    a, b = regions[o.a], regions[o.b]
    if o.knights > a[KNIGHT] or o.mages > a[MAGE]:
        return _not_there(o.knights, o.mages, o.a)
    if o.back_knights > b[KNIGHT] or o.back_mages > b[MAGE]:
        return _not_there(o.back_knights, o.back_mages, o.b)
    return None


def _not_there(knights: int, mages: int, rid: str) -> Msg:
    return _("you do not have {units} in {region}", units=data.units_text(knights, mages),
             region=rid)


def _check_sea(state: State, seat: str, o: PlaySea) -> Msg | None:
    """Rulebook "Hajózás": from a coastal region to any empty or own region, one way."""
    opp = board.opponent(state, seat)
    src, dst = state["regions"][o.src], state["regions"][o.dst]
    if not state["map"][o.src]["coastal"]:
        return not_coastal(state, o.src)
    if src["owner"] != seat:
        return _("you have no units in {region}", region=board.region_name(state, o.src))
    if dst["owner"] == opp:
        return held_by(state, o.dst, opp)
    # SPEC-AMBIGUITY A6: destination need not be coastal unless the option says so.
    if state["options"]["sea_destination_coastal"] == "yes" and not state["map"][o.dst]["coastal"]:
        return not_coastal(state, o.dst)
    if o.knights > src[KNIGHT] or o.mages > src[MAGE]:
        return _not_there(o.knights, o.mages, o.src)
    return None


def not_coastal(state: State, rid: str) -> Msg:
    return _("{region} is not coastal", region=board.region_name(state, rid))


def spend_tile(state: State, seat: str, o: Play, log: Log) -> str:
    """Move the played tile to the discard pile and remove its cube (spec §5.5)."""
    tid = data.first_of_type(state["held"][seat], o.tile_type)
    assert tid is not None
    state["held"][seat].remove(tid)
    state["discard"] = sorted(state["discard"] + [tid])
    shown = str(o).removeprefix("PLAY ")
    log.public("play", _("{seat} plays {order}.", seat=seat, order=shown), seat=seat,
               order=str(o), tile=tid)
    cube(state, log, _("{tile} played", tile=data.tile_name(o.tile_type)))
    return tid


def apply_simple(state: State, seat: str, o: Play, log: Log) -> None:
    """Effects of every tile mode except SEIZE (which may need a retreat decision)."""
    act = board.active_type(state)
    if isinstance(o, PlayInfluence):
        assert o.mode == "BOLSTER"
        state["reserve"][seat][act] -= 1
        board.add_units(state, o.region, seat, act, 1)
        log.public("bolster", _put(seat, act, board.region_name(state, o.region), "puts"),
                   region=o.region)
    elif isinstance(o, PlayStrength):
        # Rulebook "Erő": +1 in seizes of this symbol, attacking or defending, for the rest
        # of the cycle. SPEC-AMBIGUITY A8: several strength tiles stack.
        state["strength"][seat][o.symbol] = state["strength"][seat].get(o.symbol, 0) + 1
        log.public("strength", _("{seat} has +{n} in {symbol} seizes for the rest of the "
                                 "cycle.", seat=seat, n=state["strength"][seat][o.symbol],
                                 symbol=term(o.symbol)), symbol=o.symbol)
    elif isinstance(o, PlayMovement):
        a0 = dict(state["regions"][o.a])
        b0 = dict(state["regions"][o.b])
        assert a0["owner"] in (None, seat) and b0["owner"] in (None, seat)
        board.remove_units(state, o.a, KNIGHT, o.knights)
        board.remove_units(state, o.a, MAGE, o.mages)
        board.remove_units(state, o.b, KNIGHT, o.back_knights)
        board.remove_units(state, o.b, MAGE, o.back_mages)
        board.add_units(state, o.b, seat, KNIGHT, o.knights)
        board.add_units(state, o.b, seat, MAGE, o.mages)
        board.add_units(state, o.a, seat, KNIGHT, o.back_knights)
        board.add_units(state, o.a, seat, MAGE, o.back_mages)
        log.public("move", _("{seat} moves {units} {a} -> {b} and {back} {b} -> {a}.",
                             seat=seat, units=data.units_text(o.knights, o.mages), a=o.a,
                             b=o.b, back=data.units_text(o.back_knights, o.back_mages)),
                   a=o.a, b=o.b)
    elif isinstance(o, PlaySea):
        board.remove_units(state, o.src, KNIGHT, o.knights)
        board.remove_units(state, o.src, MAGE, o.mages)
        board.add_units(state, o.dst, seat, KNIGHT, o.knights)
        board.add_units(state, o.dst, seat, MAGE, o.mages)
        log.public("sea", _("{seat} sails {units} from {src} to {dst}.", seat=seat,
                            units=data.units_text(o.knights, o.mages), src=o.src, dst=o.dst),
                   src=o.src, dst=o.dst)
    elif isinstance(o, PlayRecruit):
        recruit_tile(state, seat, o, log)
    else:  # pragma: no cover
        raise AssertionError(f"not a simple tile order: {o}")


def recruit_tile(state: State, seat: str, o: PlayRecruit, log: Log) -> None:
    """Rulebook "Toborzás" (tile): the units on the tile's strip, or 2 knights / 2 mages
    for Merlin and serpent, capped by stock. SPEC-AMBIGUITY R7: this is not action C and
    neither uses up nor triggers the 3-unit first-recruit bonus."""
    strip = data.type_info(o.tile)["recruit"]
    want: dict[Unit, int] = ({KNIGHT if o.choice == KNIGHT else MAGE: 2} if strip == "choice2"
                             else {KNIGHT: strip[KNIGHT], MAGE: strip[MAGE]})
    got: dict[str, int] = {}
    for unit, n in want.items():
        k = min(n, state["stock"][seat][unit])
        state["stock"][seat][unit] -= k
        state["reserve"][seat][unit] += k
        got[unit] = k
    log.public("tile_recruit", _("{seat} recruits {units} with the tile.", seat=seat,
                                 units=data.units_text(got.get(KNIGHT, 0), got.get(MAGE, 0))),
               seat=seat, got=got)


def seize_result(state: State, seat: str, o: PlayInfluence, log: Log) -> bool:
    """Count the seize (spec §5.7) and report it; True if it succeeds."""
    att, dfn = board.seize_parts(state, seat, o.region)
    attack, defence = sum(n for _w, n in att), sum(n for _w, n in dfn)
    ok = attack - defence >= 1
    args = {"seat": seat, "region": board.region_name(state, o.region), "attack": attack,
            "defence": defence, "att": board.count_terms(att), "dfn": board.count_terms(dfn)}
    log.public("seize", _("{seat} seizes {region}: {attack}:{defence}, success (attack: {att}; "
                          "defence: {dfn}).", **args) if ok else
               _("{seat} seizes {region}: {attack}:{defence}, fails (attack: {att}; defence: "
                 "{dfn}).", **args),
               region=o.region, attack=attack, defence=defence, success=ok)
    return ok


def finish_seize(state: State, attacker: str, target: str, place: bool,
                 retreat: tuple[Unit, str] | None, log: Log) -> bool:
    """After a won seize: the retreat (unit type, destination), the rest to stock, then the
    attacker's optional placement of one active unit from reserve (spec §5.7). Returns
    whether a unit was placed."""
    defender = board.opponent(state, attacker)
    if retreat is not None:
        unit, dest = retreat
        board.remove_units(state, target, unit, 1)
        board.add_units(state, dest, defender, unit, 1)
        where = {"seat": defender, "src": board.region_name(state, target),
                 "dst": board.region_name(state, dest)}
        log.public("retreat", _("{seat} retreats a knight from {src} to {dst}.", **where)
                   if unit == KNIGHT else
                   _("{seat} retreats a mage from {src} to {dst}.", **where),
                   unit=unit, dest=dest)
    reg = state["regions"][target]
    lost: dict[Unit, int] = {MAGE: reg[MAGE], KNIGHT: reg[KNIGHT]}
    for unit, n in lost.items():
        board.remove_units(state, target, unit, n)
        state["stock"][defender][unit] += n
    if lost[MAGE] + lost[KNIGHT]:
        log.public("losses", _("{seat} loses {units} to stock.", seat=defender,
                               units=data.units_text(lost[KNIGHT], lost[MAGE])),
                   lost=lost)
    act = board.active_type(state)
    if place and state["reserve"][attacker][act] > 0:
        state["reserve"][attacker][act] -= 1
        board.add_units(state, target, attacker, act, 1)
        log.public("seize_place", _put(attacker, act, board.region_name(state, target),
                                       "places"), region=target)
        return True
    log.public("seize_empty", _("{region} stays empty.", region=board.region_name(state, target)),
               region=target)
    return False
