"""Player-board geometry and the Sun: cells, placement legality, the boundary walk,
dead ends, legal Sun steps and circuits (rulebook p. 5, 8-10; spec §2.8, §5.1, §5.2, §5.6).

Pure functions over a seat's tile set; no state mutation here. Angles are integer
micro-degrees so circuit arithmetic is exact. The layout itself is an assumption (data).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable, Mapping
from functools import cache, lru_cache

from pbem.core.i18n import Msg, _
from pbem.rulesets.helios import data
from pbem.rulesets.helios.state import Player

Cell = tuple[int, int]
DIRS: tuple[Cell, ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
FULL = 360_000_000  # a full turn in micro-degrees
HALF = 180_000_000


@cache
def dist(c: Cell) -> int:
    q, r = c
    return max(abs(q), abs(r), abs(q + r))


def add(c: Cell, d: int) -> Cell:
    return (c[0] + DIRS[d % 6][0], c[1] + DIRS[d % 6][1])


@cache
def neighbours(c: Cell) -> tuple[Cell, ...]:
    return tuple((c[0] + dq, c[1] + dr) for dq, dr in DIRS)


@cache
def key(c: Cell) -> str:
    return f"{c[0]},{c[1]}"


def unkey(s: str) -> Cell:
    q, r = s.split(",")
    return (int(q), int(r))


_B = data.board()
LIGHT_R: int = _B["light_radius"]
DARK_R: int = _B["dark_radius"]
CENTRE: Cell = tuple(_B["centre"])
SUN_START: Cell = tuple(_B["sun_start"])
SUN_ANCHOR: int = _B["sun_anchor"]
YELLOW: frozenset[Cell] = frozenset(tuple(c) for c in _B["yellow"])
CORNERS: tuple[Cell, ...] = tuple(tuple(c) for c in _B["corners"])
BONUS_SPACES: frozenset[Cell] = frozenset(tuple(c) for c in _B["bonus_resource"])
MANA_SPACES: frozenset[Cell] = frozenset(tuple(c) for c in _B["mana"])


@cache
def all_cells() -> tuple[Cell, ...]:
    """Every on-board cell (light and dark), in a fixed reading order (row, then column)."""
    cells = [(q, r) for q in range(-DARK_R, DARK_R + 1) for r in range(-DARK_R, DARK_R + 1)
             if dist((q, r)) <= DARK_R]
    return tuple(sorted(cells, key=lambda c: (screen_y2(c), c[0])))


def screen_y2(c: Cell) -> int:
    """Twice the screen row (y = sqrt3 * (r + q/2)), an integer for sorting."""
    return 2 * c[1] + c[0]


@cache
def on_board(c: Cell) -> bool:
    return dist(c) <= DARK_R


def is_light(c: Cell) -> bool:
    return dist(c) <= LIGHT_R


@cache
def theta(c: Cell) -> int:
    """Angle of the cell centre, clockwise from 'up' around the centre (micro-degrees)."""
    x = 1.5 * c[0]
    y = math.sqrt(3) * (c[1] + c[0] / 2)
    a = math.degrees(math.atan2(x, -y)) % 360.0
    return round(a * 1_000_000) % FULL


def delta(a: Cell, b: Cell) -> int:
    """theta(b) - theta(a) normalised into (-180, 180] degrees (spec §5.6.2 step 2)."""
    d = (theta(b) - theta(a)) % FULL
    return d - FULL if d > HALF else d


# --- free cells, open area, dead ends (spec §5.1) ------------------------------------

def free(c: Cell, tiles: Iterable[Cell] | Mapping[Cell, object]) -> bool:
    return on_board(c) and c not in tiles


@cache
def ring() -> tuple[Cell, ...]:
    return tuple(c for c in all_cells() if dist(c) == DARK_R)


@cache
def board_neighbours(c: Cell) -> tuple[Cell, ...]:
    return tuple(n for n in neighbours(c) if on_board(n))


def open_area(tiles: frozenset[Cell]) -> frozenset[Cell]:
    """The free cells connected to the dark ring (spec §5.1 'open area O'; A12)."""
    seen = set(ring())
    todo = list(seen)
    while todo:
        c = todo.pop()
        for n in board_neighbours(c):
            if n not in seen and n not in tiles:
                seen.add(n)
                todo.append(n)
    return frozenset(seen)


def reaches_ring(start: Cell, tiles: frozenset[Cell]) -> bool:
    """Is `start` connected to the dark ring through free cells? (early-exit search)"""
    if dist(start) == DARK_R:
        return True
    seen = {start}
    todo = deque([start])
    while todo:
        c = todo.popleft()
        for n in board_neighbours(c):
            if n not in seen and n not in tiles:
                if dist(n) == DARK_R:
                    return True
                seen.add(n)
                todo.append(n)
    return False


def dead_ends(tiles: frozenset[Cell]) -> frozenset[Cell]:
    """Dead-end cells D by iterative pruning (rulebook p. 10; spec §5.1)."""
    freeset = {c for c in all_cells() if c not in tiles}
    live = {c: sum(1 for n in board_neighbours(c) if n in freeset) for c in freeset}
    todo = [c for c in freeset if live[c] <= 1]
    dead: set[Cell] = set()
    while todo:  # peel cells with at most one live neighbour (order does not matter)
        c = todo.pop()
        if c in dead:
            continue
        dead.add(c)
        for n in board_neighbours(c):
            if n in freeset and n not in dead:
                live[n] -= 1
                if live[n] <= 1:
                    todo.append(n)
    return frozenset(dead)


def adjacent_to_tiles(c: Cell, tiles: frozenset[Cell]) -> bool:
    return any(n in tiles for n in neighbours(c))


# --- placement (rulebook p. 5; spec §5.2) ---------------------------------------------

def placement_problem(cell: Cell, tiles: frozenset[Cell], sun: Cell) -> Msg | None:
    """Why a tile may not go on `cell` (None when it may)."""
    where = key(cell)
    if not on_board(cell):
        return _("{cell} is not on the board", cell=where)
    if not is_light(cell):
        return _("{cell} is a dark border cell; tiles go only on light cells", cell=where)
    if cell in tiles:
        return _("{cell} already holds a tile", cell=where)
    if cell == sun:
        return _("{cell} is where your Sun stands", cell=where)
    if not adjacent_to_tiles(cell, tiles):
        return _("{cell} is not next to one of your tiles", cell=where)
    # Rulebook p. 5: the Sun may never be completely surrounded (A12: it must stay
    # connected to the dark ring).
    if not reaches_ring(sun, tiles | {cell}):
        return _("a tile on {cell} would enclose your Sun", cell=where)
    return None


def legal_placements(tiles: frozenset[Cell], sun: Cell) -> list[Cell]:
    cands = {n for t in tiles for n in neighbours(t) if is_light(n) and n not in tiles and n != sun}
    return [c for c in all_cells() if c in cands and placement_problem(c, tiles, sun) is None]


# --- the boundary walk (spec §5.6.2 step 1) -------------------------------------------

WalkState = tuple[Cell, int]


def walk_next(ws: WalkState, tiles: frozenset[Cell]) -> WalkState:
    f, k = ws
    n = add(f, k - 1)
    if n in tiles:
        return (f, (k - 1) % 6)
    return (n, (k + 1) % 6)


def boundary_walk(start: WalkState, tiles: frozenset[Cell]) -> tuple[list[Cell], list[list[WalkState]]]:
    """The clockwise contour W through `start`: cells in order (consecutive repeats merged)
    and, per entry, the walk states it covers. Entry 0 holds `start`."""
    cells: list[Cell] = []
    states: list[list[WalkState]] = []
    ws = start
    seen: set[WalkState] = set()
    while ws not in seen:
        seen.add(ws)
        if cells and cells[-1] == ws[0]:
            states[-1].append(ws)
        else:
            cells.append(ws[0])
            states.append([ws])
        ws = walk_next(ws, tiles)
    if len(cells) > 1 and cells[-1] == cells[0]:  # the lap closes inside entry 0
        states[0] = states.pop() + states[0]
        cells.pop()
        # keep `start` findable: entry 0 still contains it
    return cells, states


class Walk:
    """The contour of one board, with everything a Sun move needs."""

    def __init__(self, tiles: frozenset[Cell], sun: Cell, anchor: int) -> None:
        self.tiles = tiles
        self.sun = sun
        self.cells, self.states = boundary_walk((sun, anchor), tiles)
        self.n = len(self.cells)
        self.dead = dead_ends(tiles)
        self.open = open_area(tiles)
        self.start_pos = 0
        # prefix sums of delta along the walk, for net angles
        self.prefix = [0]
        for i in range(2 * self.n):
            a, b = self.cells[i % self.n], self.cells[(i + 1) % self.n]
            self.prefix.append(self.prefix[-1] + delta(a, b))
        self.positions: dict[Cell, list[int]] = {}
        for i, c in enumerate(self.cells):
            self.positions.setdefault(c, []).append(i)
        self.reached: dict[int | None, dict[Cell, list[Cell]]] = {}  # see reachable

    def eligible(self, c: Cell) -> bool:
        return c in self.open and adjacent_to_tiles(c, self.tiles)

    def net(self, p: int, m: int) -> int:
        """Sum of delta along W[p], W[p+1], ..., W[p+m]."""
        p %= self.n
        # m < n always (a cell recurs within one lap)
        return self.prefix[p + m] - self.prefix[p]

    def advance(self, p: int, c: Cell) -> int | None:
        """The smallest m >= 1 with W[p+m] == c and net angle < 180 deg (spec §5.6.2
        step 4), or None when the step would be counter-clockwise."""
        best: int | None = None
        for i in self.positions.get(c, ()):
            m = (i - p) % self.n
            if m == 0:
                m = self.n
            if m >= self.n:
                continue
            if self.net(p, m) < HALF and (best is None or m < best):
                best = m
        return best

    def exit_route(self, c: Cell) -> list[Cell]:
        """From a dead-end cell: the cells to the exit (the first live cell), in order
        (rulebook p. 10; spec §5.6.4)."""
        prev: dict[Cell, Cell | None] = {c: None}
        todo = deque([c])
        target = None
        while todo:
            x = todo.popleft()
            if x not in self.dead:
                target = x
                break
            for nb in neighbours(x):
                if nb not in prev and nb in self.open:
                    prev[nb] = x
                    todo.append(nb)
        route: list[Cell] = []
        while target is not None and target != c:
            route.append(target)
            target = prev[target]
        return route[::-1]

    def step(self, p: int, c: Cell, in_dead: bool) -> tuple[int, Msg | None]:
        """One Sun step from walk position p to cell c: (new position, problem)."""
        here = self.cells[p % self.n]
        where = key(c)
        if c not in neighbours(here):
            return p, _("{cell} is not next to {here}", cell=where, here=key(here))
        if not on_board(c):
            return p, _("{cell} is not on the board", cell=where)
        if c in self.tiles:
            return p, _("{cell} holds a tile", cell=where)
        if not self.eligible(c):
            return p, _("{cell} is not next to one of your tiles", cell=where)
        if in_dead:
            route = self.exit_route(here)
            if not route or route[0] != c:
                nxt = key(route[0]) if route else "?"
                return p, _("your Sun is in a dead end and must step towards its exit ({cell})",
                            cell=nxt)
        elif c in self.dead:
            return p, _("{cell} is in a dead end; the Sun may not enter it", cell=where)
        m = self.advance(p, c)
        if m is None:
            return p, _("{here} to {cell} is not clockwise", cell=where, here=key(here))
        return (p + m) % self.n, None


@lru_cache(maxsize=32)
def walk(tiles: frozenset[Cell], sun: Cell, anchor: int) -> Walk:
    """The Walk of a board (remembered: the same board is walked by the arrival check, the
    resolution, the view and the bot)."""
    return Walk(tiles, sun, anchor)


def sun_position(walk: Walk) -> int:
    return 0


def follow_path(walk: Walk, path: list[Cell],
                max_steps: int | None) -> tuple[list[int], Msg | None]:
    """Walk positions after each step of `path` from the Sun, or the first problem."""
    if not path:
        return [], _("the Sun must move at least one space")
    if max_steps is not None and len(path) > max_steps:
        return [], _("the path has {n} steps but your Sun moves at most {most}", n=len(path),
                     most=max_steps)
    p = 0
    positions = []
    in_dead = walk.sun in walk.dead
    for c in path:
        p, problem = walk.step(p, c, in_dead)
        if problem:
            return [], problem
        positions.append(p)
        in_dead = c in walk.dead
    if path[-1] == walk.sun:
        return [], _("the Sun must end on a different space from where it started")
    return positions, None


def reachable(walk: Walk, max_steps: int | None) -> dict[Cell, list[Cell]]:
    """Every legal destination with its shortest path (BFS over walk positions;
    spec §5.6.2 step 5). Ties: the first found in clockwise order. Remembered per walk;
    the caller gets its own dict (the paths are shared: do not change them)."""
    found = walk.reached.get(max_steps)
    if found is None:
        found = walk.reached[max_steps] = _reachable(walk, max_steps)
    return dict(found)


def _reachable(walk: Walk, max_steps: int | None) -> dict[Cell, list[Cell]]:
    limit = max_steps if max_steps is not None else 2 * walk.n + 2
    start_dead = walk.sun in walk.dead
    frontier: list[tuple[int, bool, list[Cell]]] = [(0, start_dead, [])]
    seen = {(0, start_dead)}
    found: dict[Cell, list[Cell]] = {}
    for _i in range(limit):
        nxt: list[tuple[int, bool, list[Cell]]] = []
        for p, in_dead, path in frontier:
            here = walk.cells[p]
            cands = sorted(neighbours(here), key=lambda c: walk.advance(p, c) or 0)
            for c in cands:
                q, problem = walk.step(p, c, in_dead)
                if problem:
                    continue
                d = c in walk.dead
                if (q, d) in seen:
                    continue
                seen.add((q, d))
                newpath = path + [c]
                if c != walk.sun and c not in found:
                    found[c] = newpath
                nxt.append((q, d, newpath))
        frontier = nxt
        if not frontier:
            break
    return found


def new_anchor(walk: Walk, p: int) -> WalkState:
    """The Sun's stored state after a move: the first state of its walk entry."""
    return walk.states[p][0]


def path_angle(start: Cell, path: list[Cell]) -> int:
    total = 0
    a = start
    for b in path:
        total += delta(a, b)
        a = b
    return total


# --- a player's board ---------------------------------------------------------------------

def tileset(player: Player) -> frozenset[Cell]:
    return frozenset(unkey(k) for k in player["tiles"])


def sun_cell(player: Player) -> Cell:
    return (player["sun"][0], player["sun"][1])
