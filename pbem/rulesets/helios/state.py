"""The Helios game state: its shape, declared once (the ruleset's `state_schema`, which
checks positions field by field), and the glossary of the game's terms.

The state is plain JSON. Glossary (the rulebook's Hungarian in brackets):

- action tile [akciólapka]: red, yellow, blue or grey, with one of three symbols: `land`
  [Terület-előkészítés, prepare land], `build` [Építs templomokat/épületeket, build a
  temple or a building] or `sun` [Lépj a Nappal, move the Sun]. Per symbol: a draw pile
  (`piles`), a column of face-up tiles (`columns`; the last is the lowest, the only one
  that may be taken) and a discard pile (`discards`).
- colour area [terület]: the red, yellow and blue areas of a player board; taken action
  tiles lie `under` them as [symbol, colour]. The 4th tile under one area gives a bonus
  action [bónuszakció].
- land tile [földlapka]: redwood [vörösfenyő, brown], granite [gránit, grey], bamboo
  [bambusz, green], spring [forrás, blue], obsidian [obszidián, black]. The land display
  offers one tile of each type (`display[type]`, from `type_piles`) and one from the extra
  pile [plusz pakli] (`display["extra"]`, from `extra_pile`), each with one resource
  (`display_cubes[slot]`). `removed_lands` counts tiles out of the game.
- bonus tile [bónuszlapka]: empty_spaces, prepared_land, resources, temples
  (`bonus_supply`: how many of each are left).
- resource [nyersanyag] ("cube"): brown, grey, green, blue, black; a tile holds at most 2
  and none when it carries a temple [templom]. Temples and city buildings [épület,
  `buildings`] each use a house [ház] from the supply.
- mana [manakő]; VP [GYP, győzelmi pont]: `vp` is the seat's VP bag [zsák], private until
  the end.
- the Sun [Nap]: `sun` is its cell (axial q, r), `sun_anchor` the direction of its walk
  state, `sun_angle` its cumulative clockwise angle around the centre (micro-degrees),
  `laps` the whole circuits [napforduló] made, `circuit_round` the round of the last scored
  circuit; `sun_value` is the Sun track [napmozgás-jelző] (how far it may move),
  `sun_infinite` after the Power Plant [Erőmű].
- character [karakter]: `characters[name]` = owner (hired [felfogad], night side) and
  active (activated [aktivál], day side).
- the dragon [kezdőjátékos-sárkány]: `start`, the start player.
- `turn_index`: the Phase 1 action turns played this round; `phase2`: the turn-by-turn
  Phase 2 (option `phase2 = turns`).
- PBEM additions: `pending`, a seat's stored turns (canonical order lines, one list per
  turn); `catchup`, its standing CATCHUP line for the next Phase 3.
- `pause`: the kit's record of an open decision (Estate Manager placement, Phase 3
  catch-up resource with `decisions = ask`).

Not here: rules (rules/), the order language (orders.py).
"""

from __future__ import annotations

from typing import Literal, TypedDict

from pbem.core.kit import Pause

Phase = Literal["setup", "actions", "characters", "over"]


class Options(TypedDict):
    decisions: Literal["auto", "ask"]
    public_scores: Literal["no", "yes"]
    setup_bonus_must_differ: Literal["no", "yes"]
    conditional_orders: Literal["yes", "no"]
    phase2: Literal["script", "turns"]
    enforce_component_limits: Literal["no", "yes"]


class Tile(TypedDict):
    """A land or bonus tile on a player board."""

    kind: Literal["land", "bonus"]
    type: str  # a land type or a bonus tile type
    cubes: list[str]  # resource colours, at most 2
    temple: bool


class Player(TypedDict):
    tiles: dict[str, Tile]  # "q,r" -> tile
    sun: list[int]  # [q, r]
    sun_anchor: int  # 0-5: the walk state's direction from the Sun's cell to a tile
    sun_angle: int  # cumulative clockwise angle of the Sun, micro-degrees
    laps: int
    circuit_round: int
    sun_value: int
    sun_infinite: bool
    mana: int
    vp: int
    temples: int
    buildings: list[str]
    under: dict[str, list[list[str]]]  # colour area -> [[symbol, tile colour], ...]
    pending: list[list[str]]  # stored turns, each a list of canonical order lines
    catchup: str | None  # standing CATCHUP line


class Display(TypedDict):
    redwood: bool
    granite: bool
    bamboo: bool
    spring: bool
    obsidian: bool
    extra: str | None  # the land type of the extra slot


class Character(TypedDict):
    owner: str | None
    active: bool


class Phase2(TypedDict):
    order: list[str]
    turn: int  # turns played so far
    passes: int  # passes in a row


class Scores(TypedDict):
    bag: int
    corners: int
    bonus_tiles: int
    buildings: int
    characters: int
    mana: int
    resources: int
    total: int
    resources_left: int  # no VP; breaks a tie


class Final(TypedDict):
    scores: dict[str, Scores]
    winners: list[str]
    ranking: list[str]


class State(TypedDict):
    seats: list[str]
    options: Options
    variant: str
    round: int
    rounds: int
    turns: int  # action turns per seat per round
    phase: Phase
    start: str
    turn_index: int
    piles: dict[str, list[str]]
    columns: dict[str, list[str]]
    discards: dict[str, list[str]]
    type_piles: dict[str, int]
    extra_pile: list[str]
    display: Display
    display_cubes: dict[str, bool]
    bonus_supply: dict[str, int]
    characters: dict[str, Character]
    players: dict[str, Player]
    final: Final | None
    removed_lands: int
    phase2: Phase2 | None
    pause: Pause | None
