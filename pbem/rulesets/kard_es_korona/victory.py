"""Victory (rulebook ch. 5, p. 13; spec 8): the instant wins, checked whenever they can
happen, and the ranking at the end of the last year.
"""

from __future__ import annotations

from typing import Any

from pbem.rulesets.kard_es_korona.board import OFFICES
from pbem.rulesets.kard_es_korona.state import (
    St,
    camp,
    castles_of,
    cavalry_on_map,
    complete_provinces,
    counties_of,
)

CASTLES_TO_WIN = {"basic": {2: 9, 3: 7, 4: 7, 5: 6, 6: 6},
                  "advanced": {2: 13, 3: 11, 4: 11, 5: 9, 6: 9}}


def provinces_to_win(state: St) -> int:
    return 4 if state["nplayers"] <= 3 else 3


def contenders(state: St) -> list[str]:
    """Players who can still win: in the game and not vassals (captives count, PR-33)."""
    return [s for s in state["seats"] if state["players"][s]["status"] in ("active", "captive")]


def instant_winner(state: St) -> tuple[str, str] | None:
    """(seat, reason) for an instant win, or None (rulebook p. 13, I-III)."""
    rivals = contenders(state)
    pending = any(p["status"] == "defeated" for p in state["players"].values())
    if len(rivals) == 1 and not pending:
        return rivals[0], "last lord standing: every other lord is dead or a vassal"
    if len(rivals) == 0 and not pending:
        return "", "no lord is left"
    for s in rivals:
        if all(state["offices"][o] == s for o in OFFICES):
            return s, "holds all three offices"
    for s in rivals:
        group = camp(state, s)
        provs = complete_provinces(state, group)
        if len(provs) >= provinces_to_win(state):
            return s, f"holds {len(provs)} complete provinces"
        castles = len(castles_of(state, group))
        if castles >= CASTLES_TO_WIN[state["version"]][state["nplayers"]]:
            return s, f"holds {castles} castles"
    return None


def standings(state: St) -> list[dict[str, Any]]:
    """Per contender: castles, counties, cavalry on the map, money (spec 8.4)."""
    out = []
    for s in state["seats"]:
        p = state["players"][s]
        if p["status"] not in ("active", "captive"):
            continue
        group = camp(state, s)
        out.append({"seat": s, "castles": len(castles_of(state, group)),
                    "counties": len(counties_of(state, group)),
                    "cavalry": cavalry_on_map(state, group), "money": p["treasury"]})
    return out


def final_ranking(state: St) -> tuple[list[str], list[str], dict[str, float]]:
    """End of the last year: most castles, then counties, then cavalry, then money; still
    tied: shared win (PR-36). Returns (winners, ranking, scores = castles)."""
    rows = standings(state)

    def key(r: dict[str, Any]) -> tuple[int, int, int, int]:
        return (r["castles"], r["counties"], r["cavalry"], r["money"])
    rows.sort(key=lambda r: (tuple(-x for x in key(r)), r["seat"]))
    if not rows:
        return [], [], {}
    top = key(rows[0])
    winners = [r["seat"] for r in rows if key(r) == top]
    ranking = [r["seat"] for r in rows] + [s for s in state["seats"]
                                           if s not in {r["seat"] for r in rows}]
    scores = {s: float(len(castles_of(state, camp(state, s)))) if
              state["players"][s]["status"] in ("active", "captive") else 0.0
              for s in state["seats"]}
    return winners, ranking, scores
