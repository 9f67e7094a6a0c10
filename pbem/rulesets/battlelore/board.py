"""The 13x9 BattleLore battlefield: hexes, sections, distance, line of sight.

Pure geometry, no game state. Coordinates are the spec's "doubled-width offset" pairs
`(c, r)` (spec §2.2): row 1 is South's edge, row 9 North's; odd rows hold 13 hexes with
odd `c`, even rows 12 hexes with even `c`; `c = 0` and `c = 26` are the off-board half
hexes. Players write a hex as `c-r`, e.g. `13-5`.

Not here: terrain and units (data.py, state.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from pbem.core.i18n import Msg, _

Hex = tuple[int, int]

ROWS = 9
COLS = 25

_HEX_RE = re.compile(r"^\(?\s*(\d{1,2})\s*[-,/ ]\s*(\d{1,2})\s*\)?$")


def valid(h: Hex) -> bool:
    """Rulebook p.9: half hexes at the edges are never entered; spec §2.2."""
    c, r = h
    return 1 <= r <= ROWS and 1 <= c <= COLS and (c - r) % 2 == 0


def all_hexes() -> list[Hex]:
    return [(c, r) for r in range(1, ROWS + 1) for c in range(1, COLS + 1) if valid((c, r))]


ALL_HEXES: tuple[Hex, ...] = tuple(all_hexes())


def neighbours(h: Hex) -> Iterator[Hex]:
    c, r = h
    for d in ((2, 0), (-2, 0), (1, 1), (-1, 1), (1, -1), (-1, -1)):
        n = (c + d[0], r + d[1])
        if valid(n):
            yield n


def distance(a: Hex, b: Hex) -> int:
    """Spec §2.2 formula; counts the target hex, not the attacker's (rulebook p.11)."""
    dr = abs(a[1] - b[1])
    dc = abs(a[0] - b[0])
    return dr + max(0, (dc - dr) // 2)


def adjacent(a: Hex, b: Hex) -> bool:
    return distance(a, b) == 1


def hex_name(h: Hex) -> str:
    return f"{h[0]}-{h[1]}"


def parse_hex(text: str) -> Hex | None:
    """`13-5`, `13,5`, `(13,5)` -> (13, 5); None if not of that form."""
    m = _HEX_RE.match(text.strip())
    if not m:
        return None
    return (int(m.group(1)), int(m.group(2)))


def hex_problem(text: str) -> Msg | None:
    """Why `text` is not a playable hex, or None when it is one."""
    h = parse_hex(text)
    if h is None:
        return _('"{text}" is not a hex; write column-row, e.g. 13-5', text=text)
    if not valid(h):
        c, r = h
        if not 1 <= r <= ROWS:
            return _("{text}: rows run 1-{rows}", text=text, rows=ROWS)
        if c in (0, 26) or not 1 <= c <= COLS:
            return _("{text} is off the board (half hexes and beyond may not be entered)",
                     text=text)
        args = {"text": text, "row": r, "a": f"{c - 1}-{r}", "b": f"{c + 1}-{r}"}
        return (_("{text}: row {row} has odd columns only, e.g. {a} or {b}", **args) if r % 2
                else _("{text}: row {row} has even columns only, e.g. {a} or {b}", **args))
    return None


# --- sections (rulebook p.4, p.8; spec §2.2) ------------------------------------------
# Named from South's seat: physical "west" = c <= 8, "east" = c >= 18. The hexes on a
# dashed line (c = 8 or c = 18, even rows) belong to both neighbouring sections.

SECTIONS = ("left", "centre", "right")


def physical_sections(h: Hex) -> set[str]:
    c = h[0]
    out: set[str] = set()
    if c <= 8:
        out.add("west")
    if 8 <= c <= 18:
        out.add("centre")
    if c >= 18:
        out.add("east")
    return out


def section_to_physical(section: str, seat: str) -> str:
    """A player's own left/right: South's left is the west, North's left the east."""
    if section == "centre":
        return "centre"
    if seat == "south":
        return "west" if section == "left" else "east"
    return "east" if section == "left" else "west"


def in_section(h: Hex, section: str, seat: str) -> bool:
    return section_to_physical(section, seat) in physical_sections(h)


def rear_hexes(h: Hex, seat: str) -> list[Hex]:
    """Retreat steps go one row toward the owner's edge (rulebook p.16; spec §2.2)."""
    c, r = h
    dr = -1 if seat == "south" else 1
    return [n for n in ((c - 1, r + dr), (c + 1, r + dr)) if valid(n)]


def row_from_own_edge(h: Hex, seat: str) -> int:
    return h[1] if seat == "south" else ROWS + 1 - h[1]


# --- line of sight (rulebook p.12; spec §5.5) -----------------------------------------

def _cube(h: Hex) -> tuple[float, float, float]:
    x = (h[0] - h[1]) / 2
    z = float(h[1])
    return (x, -x - z, z)


def _round_cube(x: float, y: float, z: float) -> Hex:
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    else:
        rz = -rx - ry
    return (2 * rx + rz, rz)


_NUDGE = (1e-6, 2e-6, -3e-6)


def line_hexes(a: Hex, b: Hex) -> list[tuple[Hex, Hex]]:
    """The intermediate hexes of the line a->b, each as a pair of roundings with opposite
    nudges: equal when the line passes through the hex, different on a hex edge."""
    n = distance(a, b)
    ax, ay, az = _cube(a)
    bx, by, bz = _cube(b)
    out = []
    for i in range(1, n):
        t = i / n
        x, y, z = ax + (bx - ax) * t, ay + (by - ay) * t, az + (bz - az) * t
        p = _round_cube(x + _NUDGE[0], y + _NUDGE[1], z + _NUDGE[2])
        q = _round_cube(x - _NUDGE[0], y - _NUDGE[1], z - _NUDGE[2])
        out.append((p, q))
    return out


def line_of_sight(a: Hex, b: Hex, blocks: Callable[[Hex], bool]) -> bool:
    """Rulebook p.12: the line from centre to centre is blocked by a hex holding a unit,
    blocking terrain or a half hex; the target hex never blocks; a line along an edge is
    blocked only when both hexes block. `blocks(h)` is asked of on-board hexes only."""
    for p, q in line_hexes(a, b):
        bp = (not valid(p)) or blocks(p)
        if p == q:
            if bp:
                return False
        else:
            bq = (not valid(q)) or blocks(q)
            if bp and bq:
                return False
    return True
