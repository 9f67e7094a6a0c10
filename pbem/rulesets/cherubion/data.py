"""Read-only game data: teams (character sheets), the card pool, default decks, and the
damage-expression dice. Loaded once from data/*.toml with tomllib via importlib.resources.

Not here: any rule that changes state.
"""

from __future__ import annotations

import re
import tomllib
from functools import cache
from importlib import resources
from typing import Any

from pbem.core.dice import Dice
from pbem.core.i18n import Msg, _
from pbem.core.names import NameIndex

TEAMS = ("melan", "choler", "sang", "otoaak", "rominyarak")
TEAM_ALIASES = {
    "melan": ["Melan", "Technocrat", "Technokrata", "blue", "kek"],
    "choler": ["Choler", "Dark Flame", "black", "fekete"],
    "sang": ["Sang", "chaos", "red", "piros"],
    "otoaak": ["Otoaak", "eemsi", "yellow", "sarga"],
    "rominyarak": ["Romin'yarak", "Rominyarak", "Romin yarak", "hreeir", "green", "zold"],
}


def _load(name: str) -> dict[str, Any]:
    text = resources.files("pbem.rulesets.cherubion").joinpath(f"data/{name}").read_text(
        encoding="utf-8")
    return tomllib.loads(text)


@cache
def teams() -> dict[str, Any]:
    return _load("teams.toml")


@cache
def cards_file() -> dict[str, Any]:
    return _load("cards.toml")


def cards() -> dict[str, dict[str, Any]]:
    return cards_file()["cards"]


def card(cid: str) -> dict[str, Any]:
    return cards_file()["cards"][cid]


@cache
def piece_templates() -> dict[str, dict[str, Any]]:
    """piece id (ME1...) -> its sheet row, with `team` added."""
    out = {}
    for team, t in teams()["teams"].items():
        for p in t["pieces"]:
            out[p["id"]] = {**p, "team": team}
    return out


def default_deck(team: str) -> dict[str, int]:
    """The 60-card default deck of a team: the neutral core plus its package (spec §2.8)."""
    decks = cards_file()["decks"]
    out = dict(decks["core"])
    for cid, n in decks[team].items():
        out[cid] = out.get(cid, 0) + n
    return out


@cache
def card_index() -> NameIndex:
    aliases = {}
    for cid, c in cards().items():
        names = [c["name_hu"], c["name_en"]]
        names += [re.sub(r"[,.'!]", "", n) for n in names]
        aliases[cid] = sorted(set(names))
    return NameIndex(aliases, what=_("card"))


@cache
def team_index() -> NameIndex:
    return NameIndex(TEAM_ALIASES, what=_("demigod"))


RESOURCE_TABLE = {  # Rulebook "Erőforrások" table: MÉ, pieces on board, ÉP, energy/turn
    "small": {"me": 5, "need": 1, "ep": 20, "energy": 1},
    "medium": {"me": 7, "need": 2, "ep": 40, "energy": 3},
    "large": {"me": 9, "need": 3, "ep": 60, "energy": 5},
}
SIZES = ("small", "medium", "large")

_EXPR = re.compile(r"^(\d+)d(\d)([+-]\d+)?$")


def check_expr(expr: str) -> bool:
    return bool(_EXPR.match(expr))


def rolls(dice: Dice, count: int, sides: int, purpose: Msg) -> list[int]:
    """`dice.rolls`, each die's purpose numbered as there, kept a message."""
    if count == 1:
        return [dice.roll(sides, purpose)]
    return [dice.roll(sides, Msg("{purpose} #{i}", purpose=purpose, i=i + 1))
            for i in range(count)]


def roll_expr(dice: Dice, expr: str, purpose: Msg) -> tuple[int, list[int]]:
    """Roll a damage expression. "NdS+K": N dice of S sides plus K, except that S = 3
    means a d6 halved and rounded half up (Rulebook, damage 2-4: roll 5 -> 2.5 -> 3, +1
    = 4; spec §5.1). Returns (total, faces)."""
    m = _EXPR.match(expr)
    if not m:
        raise ValueError(f"bad damage expression {expr!r}")
    n, sides, k = int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)
    faces = []
    total = k
    for i in range(n):
        purpose_i = purpose if n == 1 else Msg("{purpose} #{i}", purpose=purpose, i=i + 1)
        if sides == 3:
            f = dice.roll(6, purpose_i)
            faces.append(f)
            total += (f + 1) // 2  # half, rounded half up
        else:
            f = dice.roll(sides, purpose_i)
            faces.append(f)
            total += f
    return total, faces


def expr_range(expr: str) -> tuple[int, int]:
    m = _EXPR.match(expr)
    assert m
    n, sides, k = int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)
    top = 3 if sides == 3 else sides
    return n + k, n * top + k
