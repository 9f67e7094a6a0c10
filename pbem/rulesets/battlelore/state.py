"""The shape of a BattleLore state (plain JSON, declared once here) and small queries on it.

Glossary (rulebook 004, Hungarian in brackets; spec §0, §2):
- seat: `north` or `south`; the side a seat plays (English-Welsh, French...) is in `sides`.
- unit [egység]: one or more figures [figura] under a banner [zászló] of colour green,
  blue or red [zöld, kék, vörös zászló]; `figures` of `full`; class foot, mounted or
  creature [gyalogság, lovasság, szörny]. Ids N1... and S1... by the adventure's list.
- hex [hexa]: `column-row`, e.g. `13-5` (board.py); terrain [terep] and landmarks
  [tereptárgy] are keyed by it.
- Command card [parancskártya], hand, deck, discard; Command [parancsnoklás] = cards in
  hand counting the one played (p.7). `hand_size` is what the hand is refilled to.
- ordered [utasított] units of this turn, moved, battled [harcolt]; gain ground
  [előrenyomulás], pursuit [üldözés], bonus attack, battle back [visszatámadás].
- Victory Banner [győzelmi zászló] (`banners`, needed: `victory`); Victory Shield
  [győzelmi pajzs] (`shields`, taken: `shields_taken`).
- standing orders [állandó parancs]: per seat, key -> value: `retreat`, `retreat N3`,
  `ignore`, `battleback`, `creature`, `react <card>` (a unit id, ANY or NONE), `react_ask`.
- Lore [tudás]: tokens [tudásjelző] in the common `pool` [tudáskészlet] and each seat's
  `goblet` [kupa]; Lore cards [tudáskártya] in `hands`, `deck`, `discard`, the four dealt
  at the start (`offer`); tokens paid this turn lie `on_cards`; War Council [haditanács]
  of masters (commander [parancsnok], wizard [varázsló], cleric [pap], rogue
  [szélhámos], warrior [harcos]) with levels 1-3. A creature stores rolled Lore
  (`stored_lore`, p.24 [tartalékolás]); `webbed` [behálózva], `poisoned` [megmérgezve].
- `this_turn`: what the turn being played has done so far (cleared when it ends).
- `pause`: the game kit's record of a decision asked mid-turn (pbem.core.kit.decide).

Not here: rules that change the state (rules/), game data (data.py).
"""

# No `from __future__ import annotations` here: Python 3.11 reads NotRequired in a
# TypedDict only from evaluated annotations.
import json
from functools import cache
from typing import Any, Literal, NotRequired, TypedDict

from pbem.core.kit import Pause

from .board import Hex, hex_name, neighbours, valid
from .data import FULL, terrain_data, unit_type, weapon_of

Seat = str  # "north" | "south"
HexKey = str  # "13-5"


class Unit(TypedDict):
    id: str
    owner: Seat
    type: str  # data/units.toml [types]
    hex: list[int]  # [column, row]
    figures: int
    full: int  # figures of the unit at full strength
    colour: Literal["green", "blue", "red"]  # may change by drilling (p.40)
    webbed: bool  # p.25
    poisoned: bool  # p.26
    stored_lore: int  # Lore stored on a creature (p.24)


class Landmark(TypedDict):
    kind: str  # data/terrain.toml
    owner: Seat | None
    captured: NotRequired[bool]  # a Stronghold held by the enemy (p.41)


class Shield(TypedDict):
    hex: HexKey
    side: Seat  # the side that may take it


class Effect(TypedDict):
    """A lasting Lore card effect of this turn; `scope`: roll, battle or turn."""

    kind: str
    scope: Literal["roll", "battle", "turn"]
    unit: NotRequired[str]  # the unit it acts on ("*": every ordered unit of `seat`)
    seat: NotRequired[Seat]
    n: NotRequired[int]
    cancel_lore: NotRequired[bool]


class ThisTurn(TypedDict):
    card: str | None  # the Command card played
    acts_as: str | None  # the card it acts as (Counter Attack copies one, p.47)
    command: int  # Command when it was played (p.7)
    ordered: list[str]
    moved: dict[str, int]  # unit -> hexes moved
    no_battle: list[str]  # units that may not battle any more this turn
    battled: dict[str, int]  # unit -> battles fought
    wants_battle: list[str]  # units with a BATTLE or RUSH line (Healing Spring, p.40)
    effects: list[Effect]
    rush: dict[str, str]  # goblin unit -> the target of its Goblin Rush (p.21)
    drilled: list[str]
    start_hex: dict[str, HexKey]  # where each unit began the turn (secret passage, p.39)
    lore_played: dict[Seat, str]  # the Lore card each seat played this turn (p.30)
    lore_cards: list[list[str]]  # [seat, card] played this turn, to the discard at its end
    deja_vu: dict[Seat, bool]  # Déjà Vu! armed by a LORE deja_vu line
    false_orders: bool  # False Orders was played on this turn's orders


class LoreState(TypedDict):
    pool: int
    total: int  # tokens in the game (pool + goblets + on cards + stored)
    goblet: dict[Seat, int]
    hands: dict[Seat, list[str]]
    deck: list[str]
    discard: list[str]
    offer: dict[Seat, list[str]]  # the Lore cards dealt at the start, before KEEP
    on_cards: dict[Seat, int]
    council: dict[Seat, dict[str, int]]  # master -> level
    classes: list[str]  # the Lore classes this adventure uses


class Placement(TypedDict):
    seat: Seat
    kind: str  # a landmark to place at the start (p.33-34, p.41)


class Outcome(TypedDict):
    winner: Seat
    reason: str


class Options(TypedDict):
    decisions: Literal["auto", "ask"]
    council_levels: int
    ask_blind: bool
    hill_los: Literal["adjacent", "contiguous"]


class State(TypedDict):
    scenario: str  # data/scenarios.toml
    mode: Literal["medieval", "lore"]
    options: Options
    phase: Literal["council", "keep", "place", "turn", "over"]
    seats: list[Seat]
    sides: dict[Seat, str]
    first: Seat
    active: Seat
    turn: int  # turns played so far + 1 (a game round is two turns)
    terrain: dict[HexKey, str]
    landmarks: dict[HexKey, Landmark]
    units: dict[str, Unit]
    hands: dict[Seat, list[str]]
    hand_size: dict[Seat, int]
    deck: list[str]
    discard: list[str]
    last_card: dict[Seat, str]  # the card each seat played last (Counter Attack)
    banners: dict[Seat, int]
    victory: dict[Seat, int]
    shields: list[Shield]
    shields_taken: dict[Seat, int]
    secret_exit: dict[Seat, HexKey]
    standing: dict[Seat, dict[str, str]]
    this_turn: ThisTurn
    lore: LoreState | None  # None in medieval adventures
    place_queue: list[Placement]
    result: Outcome | None
    pause: Pause | None


# --- seats, units ------------------------------------------------------------------------

def other(seat: str) -> str:
    return "south" if seat == "north" else "north"


def new_unit(uid: str, owner: str, type_id: str, h: Hex) -> Unit:
    t = unit_type(type_id)
    full = FULL[t["class"]]
    return {"id": uid, "owner": owner, "type": type_id, "hex": [h[0], h[1]], "figures": full,
            "full": full, "colour": t["colour"], "webbed": False, "poisoned": False,
            "stored_lore": 0}


def new_turn(units: dict[str, Unit]) -> ThisTurn:
    """A fresh `this_turn` for a turn beginning with these units on the board."""
    return {"card": None, "acts_as": None, "command": 0, "ordered": [], "moved": {},
            "no_battle": [], "battled": {}, "wants_battle": [], "effects": [], "rush": {},
            "drilled": [], "start_hex": {u["id"]: hkey(u["hex"]) for u in units.values()},
            "lore_played": {}, "lore_cards": [], "deja_vu": {}, "false_orders": False}


def utype(unit: Unit) -> dict[str, Any]:
    return unit_type(unit["type"])


def weapon(unit: Unit) -> dict[str, Any]:
    return weapon_of(unit["type"])


def uclass(unit: Unit) -> str:
    return str(unit_type(unit["type"])["class"])


def race(unit: Unit) -> str:
    return str(unit_type(unit["type"])["race"])


def unit_sort(u: Unit) -> tuple[str, int]:
    return (u["id"][0], int(u["id"][1:]))


def units_of(s: State, seat: str) -> list[Unit]:
    return sorted((u for u in s["units"].values() if u["owner"] == seat), key=unit_sort)


def lore_of(s: State) -> LoreState:
    """The Lore part of a Lore adventure's state (a broken invariant raises)."""
    lo = s["lore"]
    if lo is None:
        raise AssertionError("battlelore: no Lore in a medieval adventure")
    return lo


# --- hexes ---------------------------------------------------------------------------------

def hkey(h: Hex | list[int]) -> HexKey:
    return _hkey(h[0], h[1])


@cache
def _hkey(c: int, r: int) -> HexKey:
    return hex_name((c, r))


def uhex(unit: Unit) -> Hex:
    return (unit["hex"][0], unit["hex"][1])


def terrain_at(s: State, h: Hex) -> str:
    return s["terrain"].get(hkey(h), "countryside")


def landmark_at(s: State, h: Hex) -> Landmark | None:
    return s["landmarks"].get(hkey(h))


def feat(s: State, h: Hex, key: str) -> Any:
    """A terrain rule on a hex: terrain plus landmark, the more severe applies (p.37, p.42)."""
    k = hkey(h)
    lm = s["landmarks"].get(k)
    return _feat(s["terrain"].get(k, "countryside"), lm["kind"] if lm else "", key)


@cache
def _feat(terrain: str, landmark: str, key: str) -> Any:
    fs = [terrain_data(terrain)] + ([terrain_data(landmark)] if landmark else [])
    vals: list[Any] = [f.get(key) for f in fs if f.get(key)]
    if not vals:
        return 0
    if key.startswith("cap"):
        return min(vals)
    if isinstance(vals[0], bool):
        return True
    return max(vals)


def occupant(s: State, h: Hex) -> Unit | None:
    k = [h[0], h[1]]
    for u in s["units"].values():
        if u["hex"] == k:
            return u
    return None


def occupancy(s: State) -> dict[Hex, Unit]:
    return {uhex(u): u for u in s["units"].values()}


def enemies_adjacent(s: State, unit: Unit) -> list[Unit]:
    occ = occupancy(s)
    out = []
    for n in neighbours(uhex(unit)):
        o = occ.get(n)
        if o is not None and o["owner"] != unit["owner"]:
            out.append(o)
    return sorted(out, key=unit_sort)


def friends_adjacent(s: State, unit: Unit) -> list[Unit]:
    occ = occupancy(s)
    return [o for n in neighbours(uhex(unit)) if (o := occ.get(n)) is not None
            and o["owner"] == unit["owner"]]


def passable(s: State, h: Hex) -> bool:
    return valid(h) and not feat(s, h, "impassable")


def jcopy(x: Any) -> Any:
    """A deep copy of plain JSON data (faster than copy.deepcopy)."""
    return json.loads(json.dumps(x))

