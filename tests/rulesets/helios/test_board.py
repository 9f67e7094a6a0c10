"""Player-board geometry (board.py) and the Sun algorithm (spec §5.6.2): checked against a brute-force search over all cell
paths on random boards, plus walk and circuit properties."""

from __future__ import annotations

import itertools
import random

import pytest

from pbem.rulesets.helios import board


def random_board(rng: random.Random, n_tiles: int) -> tuple[frozenset, tuple[int, int], int]:
    """Grow a legal board from the centre, moving the Sun legally in between."""
    tiles = frozenset({board.CENTRE})
    sun, k = board.SUN_START, board.SUN_ANCHOR
    for _ in range(n_tiles):
        legal = board.legal_placements(tiles, sun)
        if not legal:
            break
        tiles = tiles | {rng.choice(legal)}
        if rng.random() < 0.5:
            w = board.Walk(tiles, sun, k)
            dests = board.reachable(w, rng.choice([1, 2, 3, None]))
            if dests:
                dest = rng.choice(sorted(dests))
                pos, problem = board.follow_path(w, dests[dest], None)
                assert problem is None
                sun, k = board.new_anchor(w, pos[-1])
    return tiles, sun, k


def brute_force(w: board.Walk, max_steps: int) -> dict[tuple[int, int], int]:
    """Every cell sequence of adjacent on-board cells up to max_steps long, each checked
    whole by follow_path: destination -> fewest steps."""
    best: dict[tuple[int, int], int] = {}

    def extend(path: list) -> None:
        if path:
            _, problem = board.follow_path(w, path, max_steps)
            if problem is None:
                d = path[-1]
                best[d] = min(best.get(d, 99), len(path))
            elif "different space" not in problem:
                return  # an illegal prefix cannot become legal
        if len(path) == max_steps:
            return
        last = path[-1] if path else w.sun
        for c in board.neighbours(last):
            if board.on_board(c) and c not in w.tiles:
                extend(path + [c])

    extend([])
    return best


@pytest.mark.parametrize("seed", range(40))
def test_reachable_matches_brute_force(seed):
    rng = random.Random(seed)
    tiles, sun, k = random_board(rng, rng.randrange(1, 22))
    w = board.Walk(tiles, sun, k)
    for steps in (1, 2, 3):
        bfs = board.reachable(w, steps)
        brute = brute_force(w, steps)
        assert set(bfs) == set(brute), (seed, steps, sorted(tiles), sun)
        for dest, path in bfs.items():
            assert len(path) == brute[dest]
            assert dest != sun
            positions, problem = board.follow_path(w, path, steps)
            assert problem is None
            if sun not in w.dead:
                assert not any(c in w.dead for c in path)


@pytest.mark.parametrize("seed", range(20))
def test_walk_is_a_closed_clockwise_contour(seed):
    rng = random.Random(1000 + seed)
    tiles, sun, k = random_board(rng, rng.randrange(0, 25))
    w = board.Walk(tiles, sun, k)
    assert w.cells[0] == sun
    # one lap of the contour turns exactly once clockwise around the centre
    assert w.net(0, w.n) == board.FULL
    for a, b in zip(w.cells, w.cells[1:] + w.cells[:1], strict=True):
        assert b in board.neighbours(a)
    for c in w.cells:
        assert c in w.open and board.adjacent_to_tiles(c, tiles)
    # every free cell of the open area next to a tile is on the contour
    border = {c for c in w.open if board.adjacent_to_tiles(c, tiles)}
    assert border == set(w.cells)


@pytest.mark.parametrize("seed", range(10))
def test_laps_follow_the_cumulative_angle(seed):
    """Moving forward lap after lap: Φ grows, laps = floor(Φ/360) and a lap that ends on the
    yellow line is counted exactly once."""
    rng = random.Random(2000 + seed)
    tiles, sun, k = random_board(rng, rng.randrange(0, 12))
    phi = board.theta(sun)
    laps = 0
    for _ in range(30):
        w = board.Walk(tiles, sun, k)
        dests = board.reachable(w, 2)
        if not dests:
            break
        dest = sorted(dests)[rng.randrange(len(dests))]
        path = dests[dest]
        step_phi = board.path_angle(sun, path)
        if sun not in w.dead:
            assert step_phi > -board.HALF  # a legal move never turns back
        phi += step_phi
        laps = max(laps, phi // board.FULL)
        pos, _ = board.follow_path(w, path, 2)
        sun, k = board.new_anchor(w, pos[-1])
    assert laps >= phi // board.FULL


def test_theta_and_delta_exact():
    assert board.theta((1, -1)) == 60_000_000
    assert [board.theta(c) for c in board.YELLOW] == [0, 0, 0, 0]
    for a, b in itertools.product(board.all_cells(), repeat=2):
        if b in board.neighbours(a) and a != board.CENTRE and b != board.CENTRE:
            assert abs(board.delta(a, b)) < board.HALF


def test_initial_walk_is_ring_one():
    w = board.Walk(frozenset({board.CENTRE}), board.SUN_START, board.SUN_ANCHOR)
    assert w.cells == [(1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)]
    assert sorted(board.reachable(w, 2)) == [(0, 1), (1, 0)]
    assert board.follow_path(w, [(0, -1)], 2)[1] == "1,-1 to 0,-1 is not clockwise"
    assert "different space" in board.follow_path(
        w, [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)], None)[1]


def naive_dead_ends(tiles):
    """Spec §5.1 literally: repeat until nothing changes."""
    free = {c for c in board.all_cells() if c not in tiles}
    dead = set()
    changed = True
    while changed:
        changed = False
        for c in free - dead:
            if sum(1 for n in board.neighbours(c) if n in free and n not in dead) <= 1:
                dead.add(c)
                changed = True
    return dead


@pytest.mark.parametrize("seed", range(30))
def test_dead_ends_match_the_literal_definition(seed):
    rng = random.Random(3000 + seed)
    tiles, _, _ = random_board(rng, rng.randrange(5, 30))
    assert board.dead_ends(tiles) == naive_dead_ends(tiles)
    assert all(board.dist(c) < board.DARK_R for c in board.dead_ends(tiles))
