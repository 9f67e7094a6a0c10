"""The Cherubion board: a regular hexagon of triangular fields (geometry only).

The rulebook says only that the board is a hexagon of triangles, pieces move across
triangle edges, five sides are Bases and the sixth is No-Man's Land, and six special
fields lie in the centre (Rulebook "A játék tartozékai", "Speciális jelzések a
játéktéren"). Size, addressing and the special-field mapping are the spec's proposal
(spec §2.2, all [A]); N comes from data/board.toml.

This module is pure geometry: fields, neighbours, cube coordinates, distances, border
sides, special fields. It knows nothing of pieces or rules. Boards are cached per N.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

ROW_LETTERS = "ABCDEFGHIJKLMNOP"


@cache
def board_data() -> dict[str, Any]:
    """data/board.toml (geometry parameters and the special-field mapping)."""
    text = resources.files("pbem.rulesets.cherubion").joinpath("data/board.toml").read_text(
        encoding="utf-8")
    return tomllib.loads(text)


@dataclass(frozen=True)
class Field:
    label: str
    row: int
    col: int
    up: bool  # ▲ (True) or ▼
    cube: tuple[int, int, int]


class Board:
    """The field graph of a hexagon of side `n` (spec §2.2)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self._special: dict[str, str] | None = None
        self._distance: dict[tuple[str, str], int] = {}
        self.fields: dict[str, Field] = {}
        self._pos: dict[tuple[int, int], str] = {}
        for i in range(2 * n):
            for j in range(1, self.row_len(i) + 1):
                up = (j % 2 == 1) if i < n else (j % 2 == 0)
                b = n - i
                a = (1 - n) + (j - 1) // 2 if i < n else (1 - n) + (i - n) + j // 2
                c = (2 if up else 1) - a - b
                label = f"{ROW_LETTERS[i]}{j}"
                self.fields[label] = Field(label, i, j, up, (a, b, c))
                self._pos[(i, j)] = label
        self.order = list(self.fields)  # reading order: row by row, left to right
        self.index = {f: k for k, f in enumerate(self.order)}
        self.adj: dict[str, tuple[str, ...]] = {f: tuple(self._neighbours(f)) for f in self.fields}
        self.side_of: dict[str, int] = {}
        for f, fld in self.fields.items():
            side = self._side(fld)
            if side:
                self.side_of[f] = side
        self.border: dict[int, tuple[str, ...]] = {
            s: tuple(f for f in self.order if self.side_of.get(f) == s) for s in range(1, 7)}

    def row_len(self, i: int) -> int:
        n = self.n
        return 2 * n + 1 + 2 * i if i < n else 2 * n + 1 + 2 * (2 * n - 1 - i)

    def _delta(self, i: int) -> int:
        n = self.n
        return 1 if i < n - 1 else (0 if i == n - 1 else -1)

    def _neighbours(self, label: str) -> list[str]:
        fld = self.fields[label]
        i, j = fld.row, fld.col
        out = []
        for jj in (j - 1, j + 1):
            if (i, jj) in self._pos:
                out.append(self._pos[(i, jj)])
        key: tuple[int, int] | None
        if fld.up:
            key = (i + 1, j + self._delta(i))
        else:
            key = (i - 1, j - self._delta(i - 1)) if i > 0 else None
        if key is not None and key in self._pos:
            out.append(self._pos[key])
        return sorted(out, key=lambda f: (self.fields[f].row, self.fields[f].col))

    def _side(self, fld: Field) -> int:
        n = self.n
        a, b, c = fld.cube
        if not fld.up and b == n:
            return 1
        if fld.up and c == 1 - n:
            return 2
        if not fld.up and a == n:
            return 3
        if fld.up and b == 1 - n:
            return 4
        if not fld.up and c == n:
            return 5
        if fld.up and a == 1 - n:
            return 6
        return 0

    def distance(self, f1: str, f2: str) -> int:
        """Minimum number of steps between two fields (spec §2.2, cube metric); cached,
        since the bots and the reach checks ask for the same pairs again and again."""
        d = self._distance.get((f1, f2))
        if d is None:
            a1, b1, c1 = self.fields[f1].cube
            a2, b2, c2 = self.fields[f2].cube
            d = self._distance[(f1, f2)] = abs(a1 - a2) + abs(b1 - b2) + abs(c1 - c2)
        return d

    def special_fields(self) -> dict[str, str]:
        """field -> effect id (heal, rally, discount, scry, production, reach): the six
        triangles around the centre point, mapped clockwise from the top (spec §2.2 [A]).
        A fresh copy each call (cached underneath)."""
        if self._special is None:
            cubes = {tuple(v): k for k, v in board_data()["special_cubes"].items()}
            self._special = {f: cubes[fld.cube] for f, fld in self.fields.items()
                             if fld.cube in cubes}
        return dict(self._special)

    def label_key(self, label: str) -> tuple[int, int]:
        fld = self.fields[label]
        return fld.row, fld.col

    def path_to(self, start: str, goal: str, avoid: frozenset[str] = frozenset()) -> list[str] | None:
        """A shortest walk start -> goal (fields after start), not passing through `avoid`
        (the goal itself may be in `avoid`); ties broken by reading order. None if none."""
        if start == goal:
            return []
        prev: dict[str, str] = {start: start}
        frontier = [start]
        while frontier:
            nxt = []
            for f in frontier:
                for g in self.adj[f]:
                    if g in prev:
                        continue
                    if g in avoid and g != goal:
                        continue
                    prev[g] = f
                    if g == goal:
                        path = [g]
                        while prev[path[-1]] != start:
                            path.append(prev[path[-1]])
                        return path[::-1]
                    nxt.append(g)
            frontier = nxt
        return None


@cache
def get_board(n: int) -> Board:
    return Board(n)


def normalise_field(text: str) -> str:
    """'e10', ' E10 ' -> 'E10' (no check that it exists)."""
    return text.strip().upper()
