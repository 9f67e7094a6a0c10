"""The shape of a Cherubion state, declared once (it is the ruleset's `state_schema`: a
position is checked against it field by field), and the glossary of the game's terms.

The state is plain JSON data: these TypedDicts describe it, they are not classes with rules.
Rules live in `rules/`, the read-only queries on a state in `rules/queries.py`.

Glossary (Rulebook "Fogalmak", "A karakter"; spec §0, §2):

- **MÉ** (mozgási egység, `me`): the movement points a player rolls each turn (2d6, again
  on a double six); steps, drawing a card, deploying and building are paid in MÉ.
- **energy** (energia): produced by resources at the start of a player's turn, spent on
  cards; it does not carry over to the next turn.
- **ÉP** (életerő pont, `ep`, `max_ep`): life points. Below 0 a piece dies; at exactly 0
  it dies at the end of the turn unless healed.
- **TK** (támadó képesség, `tk`): attack skill; **VSZ** (védettségi szint, `vsz`): defence;
  an attack hits when 2d6 + TK > VSZ. **FÉ** (fegyver erő, `fe`): damage, a dice expression
  ("2d6+2"; "d3" is half a d6 rounded half up). **KK** (kihozási költség, `kk`): the MÉ it
  costs to deploy a piece from the Base. `reach`: ranged-attack distance (0 = melee only).
  `transport`: how many pieces it can carry.
- **Base** (Bázis, `base:<side>`): a player's home beyond a border side (sides 1-5).
  **No-Man's Land** (Senki Földje, `nml`, sides in `nml_sides`): side 6, a one-way gate home.
  A prisoner held in seat S's Base is at `prison:<S>`; a piece out of play is `gone`.
- **character**: a team piece or a converted prisoner; **summoned** (megidézett) pieces come
  from cards and are not characters. **demigod** (félisten): the team's leader, whose
  cards (`deity`) the team uses.
- **captive** (fogoly, test): a piece taken at -9..0 ÉP (`dead`: a body) or by a card (alive),
  carried home by a transport piece (`carrier`) of its `captor`.
- **marker** (jelző): N (a trap or an invisible piece), SZ (a hidden summon), T (a teleport
  gate). **resource** (erőforrás): small / medium / large, produces energy.
- **turn** (kör): one player's turn; **round** (forduló): every player's turn once.
  `turn_no` counts turns of the whole game.
- **Ménes** (`herd`): Otoaak's permanent card, +2 MÉ a turn. **Időcsapda** (time trap):
  the player misses turns (`skip_turns`). **hostage exchange** (túszcsere, Diplomacy): the
  turn goes on it (`hostage_turns`).
- **standing orders**: what a seat decided in advance (`WHEN` triggers, INTRUDER, LOSS,
  FREEATTACK, SCRY, CAPTURE, STRIKEBACK); **pause**: the kit's record of an open question.
"""

# (no `from __future__ import annotations`: TypedDict must see NotRequired[...] itself)
from typing import Literal, NotRequired, TypedDict

from pbem.core.kit import Pause

Phase = Literal["draft", "place", "turn", "over"]


class Options(TypedDict):
    decisions: Literal["auto", "ask"]
    round_limit: int
    summon_move: bool
    ask_blind: bool
    diplomacy: bool


class Config(TypedDict):
    seats: list[str]
    variant: Literal["standard", "multibase", "tournament"]
    options: Options


class Trigger(TypedDict):
    """A `WHEN` standing trigger (orders.When)."""

    event: str
    card: str
    caster: str
    on: str
    subject: str
    over: int


class Standing(TypedDict, total=False):
    """A seat's standing decisions (absent: the documented default or `ask`)."""

    intruder: Literal["prisoner", "kill"]
    freeattack: bool
    loss: list[str]  # LOSS: "CH8=12" (takes 12 ÉP) or "CH8" (all it can), in order
    scry: str
    capture: str  # a transport piece id, ANY or NO
    strikeback: dict[str, list[str]]  # my piece -> the attackers it saves its strike-back for
    start_declined: list[str]  # START questions passed on (what hostile players put on me)


class DeckTop(TypedDict):
    """The top card of a deck, drawn when first looked at (SCRY) and kept on top."""

    card: str
    seen_by: list[str]


class Player(TypedDict):
    team: str  # the demigod drafted; "" until the draft
    bases: list[int]  # Base sides owned (inherited ones too)
    own_sides: list[int]  # Base sides of the player's own teams (Multiple Bases)
    lineup: Literal["standard", "advanced", ""]
    deck: list[str]  # cards still in the deck (not shuffled: drawn at random)
    deck_size: int  # the cards registered in the draft (for card conservation)
    deck_top: DeckTop | None
    hand: list[str]
    grave: list[str]  # graveyard (temető): cards and dead characters
    permanents: list[str]  # team-wide permanent cards in play (Ménes)
    energy: int
    me: int
    me_dice: list[int]  # the faces of this turn's MÉ roll
    skip_turns: int
    trapped: bool  # missed a turn to Időcsapda and has not had a turn since
    time_trap_cards: list[list[str]]  # [owner, card] of Időcsapda cards holding him
    hostage_turns: int
    alive: bool
    turns: int  # turns this player has begun
    standing: Standing
    triggers: list[Trigger]
    known_markers: dict[str, str]  # marker id -> card, learnt with Távcső
    herd: int  # Ménes cards in play
    transit: list[str]  # captives his carriers are bringing home
    allies: list[str]  # alliance partners and joined teams (never hostile)
    joined: str | None  # the seat whose demigod his team joined (Diplomacy)
    placed: bool


class Status(TypedDict):
    """A binding status a General card put on a piece (asleep, immobile, bound)."""

    seat: str  # the seat whose turns count it down (the piece's owner)
    until: int  # it ends when `seat` has had this many turns
    card: str
    owner: str  # who played the card


class Attached(TypedDict):
    """A permanent card on a piece."""

    card: str
    owner: str
    mods: dict[str, int]  # tk / vsz / fe bonuses
    grant: str  # an ability it grants (telescope, ...)
    due: NotRequired[int]  # Időzített Halálvarázs: strikes when the caster has had this many turns
    secret: NotRequired[bool]  # played face down


class Captive(TypedDict):
    """A piece taken captive (Rulebook "Fogolyejtés")."""

    carrier: str  # the transport piece carrying it home ("" once home)
    captor: str  # the seat that took it
    dead: bool  # a body (taken at -9..0 ÉP) rather than a living captive
    clock: int  # the captor's turns it has spent in his Base (3 to revive and convert)
    carried: bool  # the carrier has picked it up
    turn_no: int | None  # the turn it fell at exactly 0 (healable by its owner until its end)
    healed: bool  # a body revived in the captor's Base
    unconvertible: bool  # the 3 turns to convert it have passed


class Piece(TypedDict):
    id: str
    name: str
    owner: str  # who controls it now
    origin: str  # whose team (or card) it came from
    teams: list[str]  # the demigods whose cards it may use at printed cost
    kind: Literal["demigod", "creature", "tech"]
    summoned: bool
    card: str | None  # the summoning card
    loc: str  # a field label, base:<side>, nml, prison:<seat> or gone
    ep: int
    max_ep: int
    tk: int
    vsz: int
    fe: str
    reach: int
    transport: int
    kk: int
    flags: list[str]
    own_me: str  # a summon's own MÉ dice ("1d6"), or ""
    status: dict[str, Status]
    attached: list[Attached]
    hidden: str | None  # the marker it hides under
    captive: Captive | None
    home_turn: int  # the owner's turn count when it last came home (deployable later)
    special: NotRequired[int]  # special damage it deals (poison, fire: X ÉP a turn)
    burn: NotRequired[int]  # special damage it takes at the start of each owner's turn
    last_hit: NotRequired[str]  # the last seat that damaged it


class Marker(TypedDict):
    id: str
    kind: Literal["N", "SZ", "T"]
    field: str
    owner: str
    card: str
    hidden: bool  # face down
    uses: NotRequired[int]  # a trap's triggers left
    piece: NotRequired[str]  # the piece hiding under it


class Resource(TypedDict):
    id: str
    owner: str
    field: str
    size: Literal["small", "medium", "large"]
    ep: int
    active: bool  # produces energy (from the turn after it was built)


class Turn(TypedDict, total=False):
    """What happened in the current turn (cleared when the next turn begins)."""

    fired: list[str]  # triggers fired ("seat:index"): each once per turn
    combat: bool  # the active player fought: left-over MÉ lapses
    combat_fields: list[str]  # fields fought on (special fields give nothing this turn)
    attacked: list[str]  # pieces that used their attack
    fled: list[str]
    struck: list[str]  # pieces that used their strike-back
    healed: list[str]
    own_moved: list[str]  # summons that used their own MÉ
    gate_roll: list[str]  # pieces that teleported by GATE ROLL (they walk out MÉ first)
    just_barely: list[str]  # attackers whose damage is 1 (Éppenhogy)
    mods: dict[str, list[dict[str, int]]]  # piece -> this turn's card modifiers
    bonus: dict[str, int]  # piece -> bonus steps (Hétmérföldes Csizma)
    mist: list[str]  # pieces that flee without free attacks (Ködfátyol)
    lasting: list[list[str]]  # [owner, card] of cards lasting this turn
    free_asked: list[str]  # seats asked about free attacks this turn


class Alliance(TypedDict):
    pair: list[str]
    secret: bool


class Outcome(TypedDict):
    winners: list[str]
    reason: str
    scores: NotRequired[dict[str, int]]


class State(TypedDict):
    config: Config
    board_size: int  # N: the board is a hexagon of side N (6: 216 fields, 4: 96)
    nml_sides: list[int]  # No-Man's Land
    open_sides: list[int]  # sides a Base may be drafted on
    phase: Phase
    round: int
    order: list[str]  # choice order = turn order
    active: str | None
    placing: int  # index in `order` of the seat placing its pieces
    turn_no: int
    players: dict[str, Player]
    pieces: dict[str, Piece]
    resources: dict[str, Resource]
    markers: dict[str, Marker]
    id_counters: dict[str, int]  # the last number given to new ids (N, SZ, T, S)
    turn: Turn
    alliances: list[Alliance]
    proposals: dict[str, list[str]]  # diplomacy offers waiting for a match
    result: Outcome | None
    pause: Pause | None
