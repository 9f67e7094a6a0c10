"""The board of Macht & Ohnmacht: adjacency, control, active regions and the seize count.

Pure helpers over the state (see state.py). Nothing here changes the state except the
small unit-moving helpers, which keep the one-owner invariant.
Not here: component data (data.py), the actions (rules/).
"""

from __future__ import annotations

from pbem.core.i18n import Msg, _, join, n_

from .data import ACTIVE, KNIGHT, MAGE, PASSIVE, STEEL, Unit, unit_word
from .state import State

# --- the state's board ------------------------------------------------------------------

def opponent(state: State, seat: str) -> str:
    a, b = state["seats"]
    return b if seat == a else a


def active_type(state: State, ctype: str | None = None) -> Unit:
    return ACTIVE[ctype or state["cycle_type"]]


def passive_type(state: State, ctype: str | None = None) -> Unit:
    return PASSIVE[ctype or state["cycle_type"]]


def region_ids(state: State) -> list[str]:
    return sorted(state["regions"])


def units_in(state: State, rid: str) -> int:
    r = state["regions"][rid]
    return r[MAGE] + r[KNIGHT]


def owner(state: State, rid: str) -> str | None:
    return state["regions"][rid]["owner"]


def neighbours(state: State, rid: str, ctype: str | None = None) -> list[str]:
    """Regions adjacent to `rid` in the given (default: current) cycle.

    Rulebook "Szomszédság": in the steel cycle regions sharing a border are adjacent
    (markers ignored); in the magic cycle regions with the same region marker are
    adjacent wherever they lie (borders ignored). Spec §5.1.
    """
    ctype = ctype or state["cycle_type"]
    if ctype == STEEL:
        return sorted(state["map"][rid]["borders"])
    marker = state["regions"][rid]["marker"]
    return sorted(r for r, reg in state["regions"].items() if r != rid and reg["marker"] == marker)


def adjacent(state: State, a: str, b: str) -> bool:
    return b in neighbours(state, a)


def is_active_region(state: State, rid: str, ctype: str | None = None) -> bool:
    """Rulebook: a region is active if it holds more active than passive units; equal
    numbers make it not active. Spec §5.1."""
    r = state["regions"][rid]
    act, pas = ACTIVE[ctype or state["cycle_type"]], PASSIVE[ctype or state["cycle_type"]]
    return r["owner"] is not None and r[act] > r[pas]


def controlled(state: State, seat: str) -> list[str]:
    return [r for r in region_ids(state) if state["regions"][r]["owner"] == seat]


def active_regions(state: State, seat: str, ctype: str | None = None) -> list[str]:
    return [r for r in controlled(state, seat) if is_active_region(state, r, ctype)]


def empty_or_own(state: State, rid: str, seat: str) -> bool:
    return state["regions"][rid]["owner"] in (None, seat)


def seize_count(state: State, attacker: str, target: str) -> tuple[int, int]:
    """(attack, defence) for a seize of `target` by `attacker`. Spec §5.7; rulebook
    "Megszerzés": the attacker counts his active units in adjacent regions, minus the
    defender's active units in adjacent regions and all (active and passive) defender
    units in the region itself; the seize succeeds if the result is 1 or more. Passive
    units next door count for nobody. Strength tiles add +1 per tile to either side for
    the target's symbol ("Erő", spec §5.6.2)."""
    att, dfn = seize_parts(state, attacker, target)
    return sum(n for _w, n in att), sum(n for _w, n in dfn)


def seize_parts(state: State, attacker: str, target: str
                ) -> tuple[list[tuple[Msg, int]], list[tuple[Msg, int]]]:
    """The terms of the seize count (see seize_count), each as (what, number), so a
    report can show how the count was made."""
    defender = opponent(state, attacker)
    act = active_type(state)
    marker = state["regions"][target]["marker"]
    att: list[tuple[Msg, int]] = []
    dfn: list[tuple[Msg, int]] = []
    here = units_in(state, target)
    if here:
        dfn.append((n_("in {region} {n} unit", "in {region} {n} units", here,
                       region=region_name(state, target)), here))
    for rid in neighbours(state, target):
        reg = state["regions"][rid]
        if reg["owner"] == attacker and reg[act]:
            att.append((_units_there(state, rid, act), reg[act]))
        elif reg["owner"] == defender and reg[act]:
            dfn.append((_units_there(state, rid, act), reg[act]))
    for side, seat in ((att, attacker), (dfn, defender)):
        bonus = state["strength"][seat].get(marker or "", 0)
        if bonus:
            side.append((_("strength +{n}", n=bonus), bonus))
    return att, dfn


def _units_there(state: State, rid: str, unit: Unit) -> Msg:
    n = state["regions"][rid][unit]
    return _("{region} {units}", region=region_name(state, rid), units=unit_word(unit, n))


def count_terms(parts: list[tuple[Msg, int]]) -> Msg:
    """The terms of one side of a seize count, shown in a sentence ('nothing' if none)."""
    return join([w for w, _n in parts]) if parts else _("nothing")


def add_units(state: State, rid: str, seat: str, unit: Unit, n: int) -> None:
    reg = state["regions"][rid]
    if n <= 0:
        return
    if reg["owner"] not in (None, seat):
        raise AssertionError(f"{seat} units into {rid}, held by {reg['owner']}")
    reg[unit] += n
    reg["owner"] = seat


def remove_units(state: State, rid: str, unit: Unit, n: int) -> None:
    reg = state["regions"][rid]
    if n > reg[unit] or n < 0:
        raise AssertionError(f"cannot remove {n} {unit} from {rid}")
    reg[unit] -= n
    if reg[MAGE] + reg[KNIGHT] == 0:
        reg["owner"] = None


def region_name(state: State, rid: str) -> str:
    return state["map"][rid]["name"]


def retreat_options(state: State, defender: str, target: str) -> list[str]:
    """Rulebook "Megszerzés": the loser may move one unit to an adjacent (cycle adjacency)
    region that is empty or his. SPEC-AMBIGUITY A16: no unit cap there."""
    return [r for r in neighbours(state, target) if empty_or_own(state, r, defender)]
