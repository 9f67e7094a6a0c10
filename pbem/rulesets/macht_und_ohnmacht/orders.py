"""The orders of Macht & Ohnmacht as frozen values; `str(order)` is the canonical line.

`parser.parse_line(state, str(order)) == order` for every order. Not here: parsing
(parser.py), which lines a step accepts (rules.py `parse`), legality (actions.py).
See docs/rulesets/macht-und-ohnmacht.md for the language with examples.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# --- lightning effects (with a bid, or as the answer in an effect step) --------------------

@dataclass(frozen=True)
class Rebel:
    """REBELLION won: remove 0-2 of the opponent's units from one of his regions."""
    region: str
    knights: int
    mages: int

    def __str__(self) -> str:
        return f"REBEL {self.region} {self.knights}K {self.mages}M"


@dataclass(frozen=True)
class Swap:
    """MARKER SWAP won: put a set-aside marker on a region; its marker is set aside."""
    region: str
    marker: str

    def __str__(self) -> str:
        return f"SWAP {self.region} {self.marker}"


@dataclass(frozen=True)
class Decline:
    """MARKER SWAP (or REBELLION) won, but the winner does nothing."""

    def __str__(self) -> str:
        return "DECLINE"


Effect = Rebel | Swap | Decline


def _ifwin(effect: Effect | None) -> str:
    return f" IFWIN {effect}" if effect is not None else ""


# --- actions (the active seat's turn script) ------------------------------------------------

@dataclass(frozen=True)
class Take:
    """Action A: take a tile type from the display; lightning tiles are auctioned at once."""
    tile: str
    bid: int | None = None
    ifwin: Effect | None = None

    def __str__(self) -> str:
        bid = f" BID {self.bid}" if self.bid is not None else ""
        return f"TAKE {self.tile}{bid}{_ifwin(self.ifwin)}"


@dataclass(frozen=True)
class Place:
    """Action B: one active unit from reserve onto an empty or own region (<= 3 units)."""
    region: str

    def __str__(self) -> str:
        return f"PLACE {self.region}"


@dataclass(frozen=True)
class Recruit:
    """Action C: 2 passive units from stock to reserve (3 for the cycle's first)."""

    def __str__(self) -> str:
        return "RECRUIT"


@dataclass(frozen=True)
class PlayInfluence:
    """Action D tile: an influence tile (or Merlin as any symbol), BOLSTER or SEIZE."""
    tile: str  # a symbol, or "merlin"
    symbol: str
    mode: str  # BOLSTER | SEIZE
    region: str
    place: bool = True  # SEIZE: put an active unit on the won region
    sure: bool = False  # SEIZE: play only if the count wins (before any serpent)

    def __str__(self) -> str:
        head = f"PLAY merlin {self.symbol}" if self.tile == "merlin" else f"PLAY {self.tile}"
        flags = ("" if self.place else " NOPLACE") + (" SURE" if self.sure else "")
        return f"{head} {self.mode} {self.region}{flags if self.mode == 'SEIZE' else ''}"


@dataclass(frozen=True)
class PlayStrength:
    """Action D tile: a strength tile for +1 in seizes of its symbol this cycle."""
    symbol: str

    def __str__(self) -> str:
        return f"PLAY strength-{self.symbol}"


@dataclass(frozen=True)
class PlayMovement:
    """Action D tile: move own units both ways between two adjacent regions."""
    a: str
    b: str
    knights: int = 0
    mages: int = 0
    back_knights: int = 0
    back_mages: int = 0

    def __str__(self) -> str:
        return (f"PLAY movement {self.a} {self.b} {self.knights}K {self.mages}M"
                f" BACK {self.back_knights}K {self.back_mages}M")


@dataclass(frozen=True)
class PlaySea:
    """Action D tile: one-way voyage from a coastal region to any empty or own region."""
    src: str
    dst: str
    knights: int = 0
    mages: int = 0

    def __str__(self) -> str:
        return f"PLAY sea {self.src} {self.dst} {self.knights}K {self.mages}M"


@dataclass(frozen=True)
class PlayRecruit:
    """Action D tile used as a recruit tile (strength, movement, sea, Merlin, serpent)."""
    tile: str
    choice: str | None = None  # "knight" | "mage" for Merlin and serpent

    def __str__(self) -> str:
        choice = f" {self.choice.upper()}S" if self.choice else ""
        return f"PLAY {self.tile} RECRUIT{choice}"


PLAYS = (PlayInfluence, PlayStrength, PlayMovement, PlaySea, PlayRecruit)


@dataclass(frozen=True)
class If:
    """A fallback with a condition: the action is tried only if, when it is reached, you
    HOLD (or NOT HOLD) a region, or the hourglass has >=, <= or = n cubes."""
    test: str  # "HOLD" | "NOT HOLD" | "HOURGLASS >=" | "HOURGLASS <=" | "HOURGLASS ="
    arg: str
    order: Any

    def __str__(self) -> str:
        return f"IF {self.test} {self.arg} THEN {self.order}"


ACTIONS = (Take, Place, Recruit, *PLAYS, If)


# --- decisions and standing orders ------------------------------------------------------------

@dataclass(frozen=True)
class BidAnswer:
    """The answer in a bid step: how many active reserve units to bid."""
    n: int
    ifwin: Effect | None = None

    def __str__(self) -> str:
        return f"BID {self.n}{_ifwin(self.ifwin)}"


@dataclass(frozen=True)
class StandingBid:
    """Standing bid policy for a lightning type (or 'any'): bid min(n, reserve)."""
    tile: str
    n: int
    ifwin: Effect | None = None

    def __str__(self) -> str:
        return f"BID {self.tile} {self.n}{_ifwin(self.ifwin)}"


@dataclass(frozen=True)
class SerpentRule:
    """Standing serpent policy: cancel the NEXT / EVERY opponent tile matching `what`
    (a tile type, 'seize', 'bolster' or 'any'), optionally only when it concerns `region`."""
    when: str  # NEXT | EVERY
    what: str
    region: str | None = None

    def __str__(self) -> str:
        return f"SERPENT {self.when} {self.what}" + (f" {self.region}" if self.region else "")


@dataclass(frozen=True)
class SerpentNever:
    """Standing serpent policy: never cancel, and do not ask."""

    def __str__(self) -> str:
        return "SERPENT NEVER"


@dataclass(frozen=True)
class RetreatPref:
    """Standing retreat preference (also the answer in a retreat step): which unit to
    save (active, passive, mage, knight or none) and destinations in order of preference."""
    unit: str
    to: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"RETREAT {self.unit}" + (" TO " + " ".join(self.to) if self.to else "")


@dataclass(frozen=True)
class Cancel:
    """Serpent step: play a serpent to cancel the tile just played."""

    def __str__(self) -> str:
        return "CANCEL"


@dataclass(frozen=True)
class Pass:
    """Serpent step: let the tile take effect."""

    def __str__(self) -> str:
        return "PASS"


@dataclass(frozen=True)
class Clear:
    """Forget standing orders of one kind: bid, serpent or retreat."""
    what: str

    def __str__(self) -> str:
        return f"CLEAR {self.what}"


STANDING = (StandingBid, SerpentRule, SerpentNever, RetreatPref, Clear)
EFFECTS = (Rebel, Swap, Decline)
Order = Any

