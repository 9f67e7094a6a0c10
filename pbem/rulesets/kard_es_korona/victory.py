"""Victory (rulebook ch. 5, p. 13; spec 8): the instant wins, checked whenever they can
happen, and the ranking at the end of the last year.
"""

from __future__ import annotations

from typing import Any

from pbem.rulesets.kard_es_korona.board import OFFICES
from pbem.rulesets.kard_es_korona.state import (
    St,
    camp,
    cavalry_on_map,
    control_map,
    gmap,
    in_play,
    scoring_provinces,
)

CASTLES_TO_WIN = {"basic": {2: 9, 3: 7, 4: 7, 5: 6, 6: 6},
                  "advanced": {2: 13, 3: 11, 4: 11, 5: 9, 6: 9}}


def update_claims(state: St) -> None:
    """Option control_model=persistent (spec 5.1, PR-3): the last occupier of a county keeps
    it for victory and ranking while it stays empty. Called after every step and battle."""
    if state["opts"].get("control_model") != "persistent":
        return
    claims = state.setdefault("claims", {})
    claims.update(control_map(state))


def holdings(state: St) -> dict[str, str]:
    """county -> holder for victory and the final ranking."""
    held = control_map(state)
    if state["opts"].get("control_model") == "persistent":
        busy = {b["county"] for b in state["battles"]} | set(state["board"])
        for c, owner in state.get("claims", {}).items():
            if c not in held and c not in busy and in_play(state, c):
                held[c] = owner
    return held


def counties_of(state: St, seats: set[str]) -> list[str]:
    held = holdings(state)
    return sorted(c for c, s in held.items() if s in seats)


def castles_of(state: St, seats: set[str]) -> list[str]:
    gm = gmap(state)
    return [c for c in counties_of(state, seats) if gm.counties[c].has_castle]


def complete_provinces(state: St, seats: set[str]) -> list[str]:
    gm = gmap(state)
    held = holdings(state)
    out = []
    for prov in scoring_provinces(state):
        cs = [c for c in gm.provinces[prov] if in_play(state, c)]
        if cs and all(held.get(c) in seats for c in cs):
            out.append(prov)
    return out


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
