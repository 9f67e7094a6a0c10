"""Final scoring and the winner (rulebook p. 14-16; spec §2.5, §2.6, §8).

`final_scores` adds, per seat, corners, bonus tiles, buildings, active characters and
leftover mana (and resources with the Treasurer) to the VP in the bag. What each bonus
tile and character is worth is in effects.py.
"""

from __future__ import annotations

from pbem.core.i18n import Msg, _, n_
from pbem.rulesets.helios import board, data
from pbem.rulesets.helios.board import key
from pbem.rulesets.helios.effects import BONUS_TILE_VP, CHARACTER_VP
from pbem.rulesets.helios.rules import economy
from pbem.rulesets.helios.state import Player, Scores, State


def active_chars(state: State, seat: str) -> list[str]:
    return [c for c in data.CHARACTERS
            if state["characters"][c]["owner"] == seat and state["characters"][c]["active"]]


def corners_reached(player: Player) -> int:
    """Rulebook p. 13: a corner next to at least one land or bonus tile."""
    return sum(1 for c in board.CORNERS
               if any(key(n) in player["tiles"] for n in board.neighbours(c)))


def bonus_tile_vp(player: Player, cell: tuple[int, int], typ: str) -> int:
    """Rulebook p. 15; spec §2.5. Scoring area: the tile and its 6 neighbours."""
    return int(BONUS_TILE_VP(typ, player, cell))


def character_vp(state: State, seat: str, name: str) -> int:
    """Rulebook p. 15; spec §2.6 (Explorer and Treasurer change other lines)."""
    return int(CHARACTER_VP(data.characters()[name]["scoring"], state, seat))


def final_scores(state: State, seat: str) -> Scores:
    p = state["players"][seat]
    chars = active_chars(state, seat)
    treasurer = "treasurer" in chars
    scores: Scores = {
        "bag": p["vp"],
        "corners": corners_reached(p) * (8 if "explorer" in chars else 4),
        "bonus_tiles": sum(bonus_tile_vp(p, board.unkey(k), t["type"])
                           for k, t in p["tiles"].items() if t["kind"] == "bonus"),
        "buildings": sum(data.buildings()[b]["vp"] for b in p["buildings"]),
        "characters": sum(character_vp(state, seat, c) for c in chars),
        "mana": p["mana"] * (3 if treasurer else 1),
        "resources": economy.cube_count(p) * 2 if treasurer else 0,
        "total": 0,
        "resources_left": economy.cube_count(p),  # no VP; breaks a tie (rulebook p. 14)
    }
    scores["total"] = (scores["bag"] + scores["corners"] + scores["bonus_tiles"]
                       + scores["buildings"] + scores["characters"] + scores["mana"]
                       + scores["resources"])
    return scores


def winners(state: State, totals: dict[str, int]) -> tuple[list[str], list[str]]:
    """Highest total; ties: more leftover resources; still tied: shared (rulebook p. 14)."""
    def rank(s: str) -> tuple[int, int]:
        return (totals[s], economy.cube_count(state["players"][s]))
    ranking = sorted(state["seats"],
                     key=lambda s: (-rank(s)[0], -rank(s)[1], state["seats"].index(s)))
    best = rank(ranking[0])
    return [s for s in ranking if rank(s) == best], ranking


def winner_text(state: State, totals: dict[str, int], win: list[str]) -> Msg:
    """The closing line of the game; a tie on VP says how leftover resources decided it
    (rulebook p. 14)."""
    best = totals[win[0]]
    tied = [s for s in state["seats"] if totals[s] == best]
    if len(tied) == 1:
        return _("Winner: {seat}.", seat=win[0])
    cubes = {s: economy.cube_count(state["players"][s]) for s in tied}
    if len(win) > 1 and len(win) == len(tied):
        return _("Winners: {seats} (tied on {vp} VP and on leftover resources, {n} each).",
                 seats=", ".join(win), vp=best, n=cubes[win[0]])
    others = [s for s in tied if s not in win]
    order = win + sorted(others, key=lambda s: (-cubes[s], state["seats"].index(s)))
    return n_("Winner: {seats} (tied on {vp} VP with {others}; more leftover resources wins: "
              "{counts}).", "Winners: {seats} (tied on {vp} VP with {others}; more leftover "
              "resources wins: {counts}).", len(win), seats=", ".join(win), vp=best,
              others=", ".join(others), counts=", ".join(f"{s} {cubes[s]}" for s in order))
