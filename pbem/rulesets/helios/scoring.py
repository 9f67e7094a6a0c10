"""Final scoring and the winner (rulebook p. 14-16; spec §2.5, §2.6, §8).

`final_scores` adds, per seat, corners, bonus tiles, buildings, active characters and
leftover mana (and resources with the Treasurer) to the VP in the bag.
"""

from __future__ import annotations

from typing import Any

from pbem.rulesets.helios import board, data, economy
from pbem.rulesets.helios.board import key

State = dict[str, Any]


def active_chars(state: State, seat: str) -> list[str]:
    return [c for c in data.CHARACTERS
            if state["characters"][c]["owner"] == seat and state["characters"][c]["active"]]


def corners_reached(player: dict[str, Any]) -> int:
    """Rulebook p. 13: a corner next to at least one land or bonus tile."""
    return sum(1 for c in board.CORNERS
               if any(key(n) in player["tiles"] for n in board.neighbours(c)))


def bonus_tile_vp(player: dict[str, Any], cell: tuple[int, int], typ: str) -> int:
    """Rulebook p. 15; spec §2.5. Scoring area: the tile and its 6 neighbours."""
    tiles = player["tiles"]
    nbs = board.neighbours(cell)
    if typ == "empty_spaces":
        # SPEC-AMBIGUITY A16: any on-board cell without a tile is empty (dark cells and the
        # Sun's cell included); off-board cells are not.
        return sum(1 for n in nbs if board.on_board(n) and key(n) not in tiles)
    if typ == "prepared_land":
        return 2 * (1 + sum(1 for n in nbs if key(n) in tiles))
    area = [cell, *nbs]
    if typ == "resources":
        return 2 * sum(len(tiles[key(c)]["cubes"]) for c in area if key(c) in tiles)
    if typ == "temples":
        return 4 * sum(1 for c in area if key(c) in tiles and tiles[key(c)]["temple"])
    raise AssertionError(typ)


def character_vp(state: State, seat: str, name: str) -> int:
    """Rulebook p. 15; spec §2.6 (Explorer and Treasurer change other lines)."""
    p = state["players"][seat]
    tiles = p["tiles"].values()
    rule = data.characters()[name]["scoring"]
    if rule == "houses":
        return 3 * (p["temples"] + len(p["buildings"]))
    if rule == "bonus_tiles":
        return 5 * sum(1 for t in tiles if t["kind"] == "bonus")
    if rule == "flat12":
        return 12
    if rule == "tiles":
        return 2 * len(p["tiles"])
    if rule == "land_types":
        return 3 * len({t["type"] for t in tiles if t["kind"] == "land"})
    if rule == "sun_track":
        return 2 * p["sun_value"]  # SPEC-AMBIGUITY A6: the numeric value, also with ∞
    return 0  # explorer, treasurer: see corners / leftovers


def final_scores(state: State, seat: str) -> dict[str, int]:
    p = state["players"][seat]
    chars = active_chars(state, seat)
    out = {"bag": p["vp"]}
    out["corners"] = corners_reached(p) * (8 if "explorer" in chars else 4)
    out["bonus_tiles"] = sum(bonus_tile_vp(p, board.unkey(k), t["type"])
                             for k, t in p["tiles"].items() if t["kind"] == "bonus")
    out["buildings"] = sum(data.buildings()[b]["vp"] for b in p["buildings"])
    out["characters"] = sum(character_vp(state, seat, c) for c in chars)
    treasurer = "treasurer" in chars
    out["mana"] = p["mana"] * (3 if treasurer else 1)
    out["resources"] = economy.cube_count(p) * 2 if treasurer else 0
    out["total"] = sum(out.values())
    out["resources_left"] = economy.cube_count(p)  # no VP; breaks a tie (rulebook p. 14)
    return out


def winners(state: State, totals: dict[str, int]) -> tuple[list[str], list[str]]:
    """Highest total; ties: more leftover resources; still tied: shared (rulebook p. 14)."""
    def rank(s: str) -> tuple[int, int]:
        return (totals[s], economy.cube_count(state["players"][s]))
    ranking = sorted(state["seats"], key=lambda s: (-rank(s)[0], -rank(s)[1], state["seats"].index(s)))
    best = rank(ranking[0])
    return [s for s in ranking if rank(s) == best], ranking


def winner_text(state: State, totals: dict[str, int], win: list[str]) -> str:
    """The closing line of the game; a tie on VP says how leftover resources decided it
    (rulebook p. 14)."""
    best = totals[win[0]]
    tied = [s for s in state["seats"] if totals[s] == best]
    if len(tied) == 1:
        return f"Winner: {win[0]}."
    cubes = {s: economy.cube_count(state["players"][s]) for s in tied}
    if len(win) > 1 and len(win) == len(tied):
        return (f"Winners: {', '.join(win)} (tied on {best} VP and on leftover resources, "
                f"{cubes[win[0]]} each).")
    others = [s for s in tied if s not in win]
    order = win + sorted(others, key=lambda s: (-cubes[s], state["seats"].index(s)))
    return (f"Winner{'s' if len(win) > 1 else ''}: {', '.join(win)} (tied on {best} VP with "
            f"{', '.join(others)}; more leftover resources wins: "
            + ", ".join(f"{s} {cubes[s]}" for s in order) + ").")
