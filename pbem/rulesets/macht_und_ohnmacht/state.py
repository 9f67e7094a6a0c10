"""The shape of a Macht & Ohnmacht state, declared once (plain JSON; also the position
notation's schema), and the glossary of the game's terms.

Glossary (spec §0; the rulebook's Hungarian in brackets):
- seat: `orange` or `white` (narancssárga, fehér), the rulebook's colours.
- unit: a mage (mágus, a disc) or a knight (lovag, a cube); order counts `2K 1M` (K or L =
  knights, M = mages).
- cycle (ciklus): alternately MAGIC (mágia: mages active, regions with the same marker
  adjacent) and STEEL (acél: knights active, regions sharing a border adjacent).
- active / passive unit (aktív / passzív egység): the unit type of the cycle / the other.
- active region (aktív régió): holds more active than passive units.
- control (irányít): a seat controls a region holding at least one of its units (`owner`).
- reserve (tartalék): a seat's units ready to use (and its held action tiles, `held`).
- stock (készlet): units neither on the board nor in reserve; losses and payments go here.
- region marker (régiójelző): castle, helmet, tent or key on each region; the markers not on
  the board are set aside (félretett jelzők, `set_aside`).
- action tile (akciólapka): taken from the display (A), played in action D; a lightning tile
  (villámikonos lapka: victory point, rebellion, marker swap) is auctioned when taken.
- hourglass (homokóra): the grey cubes left in the cycle; a time tile (időlapka) sets them.
- actions A-D (akciók): A take a tile (TAKE), B place a unit (PLACE), C recruit (RECRUIT),
  D play tiles (PLAY): BOLSTER (erősítés) or SEIZE (megszerzés) with an influence tile.
- serpent (kígyó): cancels a tile the opponent plays; retreat (visszavonulás): the loser of
  a seized region saves one unit; standing orders: a seat's bid, serpent and retreat rules.
- VP (győzelmi pont); a seat wins with VP + controlled active regions >= 12 at a cycle end.

Hidden: `standing` (each seat sees its own), the active seat's order script and the sealed
bids of an open auction (both in the kit's `pause` record). Everything else is public.
"""

from __future__ import annotations

from typing import Literal, TypedDict

from pbem.core.kit import Pause


class MapRegion(TypedDict):
    name: str
    aliases: list[str]
    coastal: bool
    borders: list[str]
    x: int | None  # drawing position only
    y: int | None


class Region(TypedDict):
    marker: str | None  # castle, helmet, tent or key (None only before set-up)
    owner: str | None
    mage: int
    knight: int


class Units(TypedDict):
    mage: int
    knight: int


class Turn(TypedDict):
    seat: str
    actions: int  # 2, or 1 in the start player's first turn after a VP tie
    used: int  # actions used so far (shown while a decision in the turn is open)
    number: int  # the turn's number in the cycle


class Standing(TypedDict):
    bid: list[str]  # standing BID lines (canonical), an exact tile type beats `any`
    serpent: list[str]  # SERPENT rules, tried in order
    retreat: list[str]  # at most one RETREAT preference


class Options(TypedDict):
    decisions: Literal["auto", "ask"]
    start_tiebreak: Literal["previous_cycle", "new_cycle"]
    win_regions: Literal["active", "all"]
    simultaneous_win: Literal["another_cycle", "draw"]
    sea_destination_coastal: Literal["no", "yes"]


class Outcome(TypedDict):
    winners: list[str]
    scores: dict[str, int]
    reason: str


class State(TypedDict):
    seats: list[str]
    options: Options
    map: dict[str, MapRegion]
    regions: dict[str, Region]
    set_aside: list[str]  # region markers not on the board
    reserve: dict[str, Units]
    stock: dict[str, Units]
    held: dict[str, list[str]]  # seat -> action tile ids in its reserve
    display: list[str]  # tile ids face up; piles are sorted: they have no hidden order
    pile: list[str]
    discard: list[str]
    time_pile: list[int]
    time_used: list[int]
    time_tile: int | None
    cycle: int
    cycle_type: Literal["magic", "steel"]
    hourglass: int
    first_recruit_done: bool  # the 3-unit first recruitment of the cycle is used up
    strength: dict[str, dict[str, int]]  # seat -> symbol -> seize bonus this cycle
    vp: dict[str, int]
    start_player: str | None
    tied_start: bool  # equal VP at the cycle start: the starter's first turn has 1 action
    turn: Turn | None  # None once the game is over
    standing: dict[str, Standing]
    result: Outcome | None
    tied_ends: int  # cycle ends in a row with a full tie at 12 (engine safeguard)
    pause: Pause | None  # the kit's: a decision in the middle of a turn is open
