"""Board geometry, sections and line of sight (rulebook p.4, p.8-12; spec §2.2, §5.5)."""

from __future__ import annotations

from collections import deque

from pbem.rulesets.battlelore.board import (
    ALL_HEXES,
    distance,
    hex_problem,
    in_section,
    line_of_sight,
    neighbours,
    rear_hexes,
)


def test_board_has_113_hexes_and_section_counts() -> None:
    assert len(ALL_HEXES) == 113
    for seat in ("north", "south"):
        counts = {sec: sum(in_section(h, sec, seat) for h in ALL_HEXES)
                  for sec in ("left", "centre", "right")}
        assert counts == {"left": 36, "centre": 49, "right": 36}


def test_distance_equals_bfs() -> None:
    for a in ALL_HEXES[::7]:
        dist = {a: 0}
        q = deque([a])
        while q:
            h = q.popleft()
            for n in neighbours(h):
                if n not in dist:
                    dist[n] = dist[h] + 1
                    q.append(n)
        for b in ALL_HEXES:
            assert distance(a, b) == dist[b]


def test_tc02_dashed_line_hex_in_both_sections() -> None:
    # TC-02 (p.8): S unit at (8,4) is in South's left flank and centre, not the right.
    assert in_section((8, 4), "left", "south")
    assert in_section((8, 4), "centre", "south")
    assert not in_section((8, 4), "right", "south")
    # North's left is the east side
    assert in_section((20, 6), "left", "north") and not in_section((20, 6), "left", "south")


def test_tc10_half_hexes_rejected() -> None:
    assert "off the board" in (hex_problem("0-2") or "")
    assert "off the board" in (hex_problem("26-4") or "")
    assert hex_problem("13-5") is None
    assert "even columns" in (hex_problem("13-4") or "")


def test_tc19_retreat_directions() -> None:
    assert rear_hexes((13, 5), "south") == [(12, 4), (14, 4)]
    assert rear_hexes((13, 5), "north") == [(12, 6), (14, 6)]
    assert rear_hexes((1, 1), "south") == []


def test_tc13_line_of_sight_cases() -> None:
    def blk(*hexes: tuple[int, int]):
        return lambda h: h in hexes
    assert not line_of_sight((13, 1), (13, 5), blk((13, 3)))
    assert line_of_sight((13, 1), (13, 5), blk((12, 2)))          # edge: one side only
    assert not line_of_sight((13, 1), (13, 5), blk((12, 2), (14, 2)))  # both sides
    assert line_of_sight((13, 1), (13, 5), blk((13, 5)))          # target hex never blocks
    assert line_of_sight((1, 1), (1, 3), blk())                   # half hex + empty (2,2)
    assert not line_of_sight((1, 1), (1, 3), blk((2, 2)))         # half hex + unit
