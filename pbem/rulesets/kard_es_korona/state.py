"""The game state of Kard és Korona: its shape, declared once (the ruleset's
`state_schema`), the glossary of the game's terms, and the small helpers that change the
units on the board.

The state is plain JSON data exactly as `dump` stores it; these TypedDicts describe it
field by field and check positions (`pbem gm position`, `--position`, rulebook cases).

Glossary (spec section 0; Hungarian in brackets):
- year (év, forduló): one game turn, 1301 to 1308 (basic) or 1312 (advanced); the phases
  of a year (fázis): I event card, II income and recruitment, III movement, IV battles,
  V election (in election years).
- county (vármegye), castle county (vár), province (országrész): the map; the white
  royal centre (`kiralyi`) is a province too. Mountain and swamp (hegy, mocsár) are
  obstacles; a wide river (folyó: Duna, Tisza, Dráva, Maros) is a flag on a border.
- seat: a played province's id, `felvidek` ... `pannonia`; each seat is that province's
  lord (tartományúr, hadúr). Owners of units are seats, `royal` (the white royal troops,
  királyi) or `n_<province>` (neutral troops of an unplayed lord or of a player who left).
- unit (sereg, csapat), arm (fegyvernem): `cav` cavalry (lovas, lovag), `inf` infantry
  (gyalogos), `arch` archer (íjász). An army is counts per arm. The lord is no unit.
- stack: one owner's units in one county; `used` counts those that moved or fought this
  year (face down while the movement lasts, rulebook p. 8).
- step (lépés): one move into one target; a battle (csata) waits in `battles` with the
  attacker's army off the board until phase IV. Battle types: open (nyílt ütközet, a
  plain), terrain (mountain or swamp), siege (ostrom, a castle county).
- MP (mozgáspont); step allowance: castles held + 2, at most 6.
- garas: the money unit (dénár = 5, forint = 10 garas); treasury (kincstár).
- offices (tisztségek): `judge` Judge Royal (Országbíró), `treasurer` Master of the
  Treasury (Tárnokmester), `palatine` Palatine (Nádor), sold in elections (választás).
- captive (fogoly): a lord captured by neutral troops, ransom (váltságdíj) 20 garas;
  vassal (hűbéres) and overlord (hűbérúr): a defeated lord who swore fealty (hűbéreskü);
  `defeated`: a lord whose oath-or-elimination choice is still open (`oaths`).
- pinning (lekötés), flight (menekülés), arm limits, cavalry quota: the advanced rules.
- start player (kezdőjátékos): moves first; the first to pass starts next year.

Not here: the questions rules ask of a state (who controls a county...:
`rules/control.py`) and any rule.
"""

from __future__ import annotations

from typing import Literal, TypedDict, cast

from pbem.core.i18n import Msg, _, join
from pbem.core.kit import Pause
from pbem.rulesets.kard_es_korona.data import ARMS

Army = dict[str, int]  # arm (cav, inf, arch) -> count; all three arms present
Status = Literal["active", "captive", "vassal", "defeated", "out"]


class Options(TypedDict):
    """The game's options (`--option`), with the per-variant defaults already applied."""

    decisions: Literal["auto", "ask"]
    years: int  # 0 = the version's length
    fealty: bool
    escape_roll: bool
    lord_freeze: bool
    cavalry_cap: bool
    movement: Literal["interleaved", "strict", "traditional"]
    neutral_placement: Literal["random", "players"]
    control_model: Literal["presence", "persistent"]
    pinning: bool
    flight: bool
    arm_limits: bool


class Prebid(TypedDict):
    """A BID line sent before its auction (with the year orders or an earlier auction)."""

    office: str
    amount: int
    cond: Literal["", "won", "lost"]
    cond_office: str  # "" without a condition


class Standing(TypedDict, total=False):
    """A seat's standing orders (each kept until replaced), as the view shows them."""

    lead: dict[str, list[str]]  # battle type or "all" -> arms
    target: dict[str, list[str]]
    reroll: int  # REROLL n (0 = NEVER): an arm of at least n dice...
    reroll_hits: int  # ...with at most this many hits (HITS; absent: 0)...
    reroll_arm: str  # ...of this arm only (ARM; absent: any)
    flee: int  # FLEE n, a percentage of the enemy's units (0 = NEVER, -1 = ALWAYS)
    battle_set: bool  # some battle instruction was sent (ask mode then asks no more)
    fealty: Literal["yes", "no", "castle"]
    retreat: list[str]
    rejoin: list[str]
    place: list[str]
    losses: list[str]
    prefer: list[str]
    veto: dict[str, list[str]]  # attack | leave -> counties ("all" = every county)
    sequence: Literal["first", "last"]
    prebids: dict[str, list[Prebid]]  # year -> BID lines of that year's election


class Player(TypedDict):
    treasury: int
    status: Status
    overlord: str | None  # a vassal's overlord
    lord: str | None  # the county of the lord; None when captive, dead or a vassal...
    lord_attacking: bool  # the lord is with an attacking army waiting for its battle
    lord_moved: bool  # this year
    captive_until: int | None  # the year the captive lord dies unless ransomed
    captive_since: int | None
    cavalry_allowance: int  # advanced: cavalry he may still recruit this year
    cavalry_bought: int  # this year
    steps_left: int
    passed: bool
    frozen: bool  # lord freeze: his lord was attacked, he may only pass
    standing: Standing


class Stack(TypedDict):
    owner: str
    units: Army
    used: Army  # moved or fought this year


class Battle(TypedDict):
    """A battle waiting for phase IV (or a forced battle being fought)."""

    county: str
    attacker: str
    army: Army  # the attacking army (off the board)
    origins: dict[str, Army]  # where its units came from (last county before the target)
    lord: bool  # the attacker's lord is with it
    seq: int  # the order of the steps that made the battles
    pinned: bool  # advanced pinning: the attacker's other units may cross the county
    free_owner: str | None  # advanced reverse pinning: the defender who may still move...
    free: int  # ...this many of his units away


class Offices(TypedDict):
    judge: str | None
    treasurer: str | None
    palatine: str | None


class AuctionResult(TypedDict):
    office: str
    winner: str | None


class Election(TypedDict):
    office: int  # index into OFFICES of the auction now
    declared: dict[str, int]  # treasuries declared before the first auction (public)
    results: list[AuctionResult]


class Oath(TypedDict):
    """A defeated lord's open choice: swear fealty to the victor or be eliminated."""

    loser: str
    victor: str


class Rotation(TypedDict):
    stage: Literal["open", "siege"]
    next: int  # index into the turn order of the next attacker


class Outcome(TypedDict):
    winners: list[str]
    reason: str
    ranking: list[str]
    scores: dict[str, float]


class State(TypedDict):
    version: Literal["basic", "advanced"]
    options: Options
    seats: list[str]  # clockwise
    player_count: int
    year: int
    last_year: int
    phase: Literal["deploy", "orders", "bid", "over"]
    start: str  # the start player
    first_passer: str | None  # this year's first to pass: next year's start player
    deck: list[str]  # event cards not yet drawn
    drawn: list[str]
    card: str | None  # this year's event card
    guilds_from: int | None  # card Céhek: castles pay 1 more from this year on
    elections_held: int
    extra_election: bool  # card Királyválasztás: an election at the end of this year
    offices: Offices  # office -> its holder (None: vacant)
    players: dict[str, Player]
    board: dict[str, Stack]  # county -> the units standing there (no entry: empty)
    out_of_play: list[str]  # counties not in play (5 players: the Drava-Sava land)
    battles: list[Battle]
    battle_seq: int
    cavalry_quota: int  # advanced: new cavalry all players may still recruit this year
    cavalry_recruited: dict[str, int]  # castle county -> cavalry recruited there this year
    election: Election | None
    oaths: list[Oath]
    claims: dict[str, str]  # control_model=persistent: county -> its last holder
    rotation: Rotation | None  # the attackers' rotation within a battle stage
    result: Outcome | None
    pause: Pause | None  # the kit's: an open decision


def empty_army() -> Army:
    return {a: 0 for a in ARMS}


def total(army: Army) -> int:
    return army.get("cav", 0) + army.get("inf", 0) + army.get("arch", 0)


def add_units(state: State, county: str, owner: str, army: Army, *,
              used: bool = False) -> None:
    s = state["board"].get(county)
    if s is None or total(s["units"]) == 0:
        s = {"owner": owner, "units": empty_army(), "used": empty_army()}
        state["board"][county] = s
    if s["owner"] != owner:
        raise AssertionError(f"{owner} units added to {county} held by {s['owner']}")
    for a in ARMS:
        s["units"][a] += army.get(a, 0)
        if used:
            s["used"][a] += army.get(a, 0)


def remove_units(state: State, county: str, army: Army) -> None:
    s = state["board"][county]
    for a in ARMS:
        n = army.get(a, 0)
        if n > s["units"][a]:
            raise AssertionError(f"removing {n} {a} from {county} which has {s['units'][a]}")
        s["units"][a] -= n
        s["used"][a] = min(s["used"][a], s["units"][a])
    if total(s["units"]) == 0:
        del state["board"][county]


def units_in(state: State, county: str) -> Army:
    s = state["board"].get(county)
    return dict(s["units"]) if s else empty_army()


def holder(state: State, office: str) -> str | None:
    """Who holds `office` (judge, treasurer or palatine); None when it is vacant."""
    return cast(dict[str, str | None], state["offices"])[office]


def appoint(state: State, office: str, seat: str | None) -> None:
    cast(dict[str, str | None], state["offices"])[office] = seat


def fmt_army(army: Army, lord: bool = False) -> Msg:
    """'2 cav, 1 inf, lord' (a message: the arm words and "lord" are translated)."""
    parts: list[Msg] = [_count(a, army[a]) for a in ARMS if army.get(a)]
    if lord:
        parts.append(_("lord"))
    return join(parts) if parts else _("nothing")


def _count(arm: str, n: int) -> Msg:
    if arm == "cav":
        return _("{n} cav", n=n)
    if arm == "inf":
        return _("{n} inf", n=n)
    return _("{n} arch", n=n)
