"""Board geometry (spec §2.2): fields, neighbours, cube distance against a path search,
border sides, special fields, and pinned walk counts ("perft")."""

from __future__ import annotations

from collections import deque

import pytest

from pbem.rulesets.cherubion.board import Board, get_board


def bfs(b: Board, start: str) -> dict[str, int]:
    dist = {start: 0}
    q = deque([start])
    while q:
        f = q.popleft()
        for g in b.adj[f]:
            if g not in dist:
                dist[g] = dist[f] + 1
                q.append(g)
    return dist


@pytest.mark.parametrize("n", [2, 3, 4, 6, 8])
def test_distance_equals_path_search(n: int) -> None:
    b = Board(n)
    assert len(b.fields) == 6 * n * n
    for f in b.order[:: max(1, len(b.order) // 40)]:
        d = bfs(b, f)
        assert len(d) == len(b.fields)  # connected
        for g, k in d.items():
            assert b.distance(f, g) == k


@pytest.mark.parametrize("n", [2, 4, 6])
def test_adjacency_is_symmetric_and_bipartite(n: int) -> None:
    b = Board(n)
    for f, ns in b.adj.items():
        assert 1 <= len(ns) <= 3
        for g in ns:
            assert f in b.adj[g]
            assert b.fields[f].up != b.fields[g].up


def test_sample_adjacency() -> None:
    b = get_board(6)
    assert set(b.adj["A1"]) == {"A2", "B2"}
    assert set(b.adj["A2"]) == {"A1", "A3"}
    assert set(b.adj["F12"]) == {"F11", "F13", "E11"}
    assert set(b.adj["G12"]) == {"G11", "G13", "H11"}
    assert set(b.adj["D10"]) == {"D9", "D11", "C9"}
    assert set(b.adj["H10"]) == {"H9", "H11", "I9"}
    assert set(b.adj["J17"]) == {"J16", "I18"}


@pytest.mark.parametrize("a,b_,d", [("A6", "L6", 23), ("F12", "G12", 3), ("D10", "D14", 4),
                                    ("E10", "E16", 6), ("E10", "D8", 2), ("H12", "I13", 3),
                                    ("G16", "C8", 9)])
def test_sample_distances(a: str, b_: str, d: int) -> None:
    assert get_board(6).distance(a, b_) == d


def test_diameter_rows_and_sides() -> None:
    b = get_board(6)
    assert [b.row_len(i) for i in range(12)] == [13, 15, 17, 19, 21, 23, 23, 21, 19, 17, 15, 13]
    assert max(b.distance(x, y) for x in b.border[1] for y in b.border[4]) == 23
    assert b.border[1] == ("A2", "A4", "A6", "A8", "A10", "A12")
    assert b.border[2] == ("A13", "B15", "C17", "D19", "E21", "F23")
    assert b.border[3] == ("G23", "H21", "I19", "J17", "K15", "L13")
    assert b.border[4] == ("L2", "L4", "L6", "L8", "L10", "L12")
    assert b.border[5] == ("G1", "H1", "I1", "J1", "K1", "L1")
    assert b.border[6] == ("A1", "B1", "C1", "D1", "E1", "F1")
    # every border field touches exactly one side and has one fewer neighbour
    for f, _s in b.side_of.items():
        assert len(b.adj[f]) == 2


def test_special_fields() -> None:
    assert get_board(6).special_fields() == {"F12": "heal", "F13": "rally", "G13": "discount",
                                             "G12": "scry", "G11": "production", "F11": "reach"}
    assert get_board(4).special_fields() == {"D8": "heal", "D9": "rally", "E9": "discount",
                                             "E8": "scry", "E7": "production", "D7": "reach"}


def landing(b: Board, gate: str, k: int) -> set[str]:
    """Fields a walk of exactly k steps can end on (spec §5.5)."""
    return {f for f in b.fields if b.distance(gate, f) <= k and (k - b.distance(gate, f)) % 2 == 0}


def walk_ends(b: Board, start: str, k: int) -> set[str]:
    cur = {start}
    for _ in range(k):
        cur = {g for f in cur for g in b.adj[f]}
    return cur


@pytest.mark.parametrize("k", [1, 2, 3, 6, 9])
def test_walk_parity_rule_matches_real_walks(k: int) -> None:
    b = get_board(6)
    assert landing(b, "E10", k) == walk_ends(b, "E10", k)


def test_perft_pins() -> None:
    """Pinned counts: fields a teleport roll of k can land on from E10 (regression pins)."""
    b = get_board(6)
    counts = [len(landing(b, "E10", k)) for k in range(2, 13)]
    assert counts == [7, 12, 19, 27, 37, 48, 61, 70, 80, 90, 96]
