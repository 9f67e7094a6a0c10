"""Victory (rulebook ch. 5, p. 13; spec 8): the instant wins, checked whenever they can
happen, and the ranking at the end of the last year.

What counts for victory is held land (`holdings`). Rulebook p. 3: "Az elfoglalt
vármegyékben helyőrséget hagyni nem kötelező, a hadsereg továbbvonulhat" - with
`control_model=persistent` (the default) a conquered county stays its conqueror's when he
moves on, until someone else takes it (`claims`); a battle that kills everyone leaves it
masterless (p. 9). With `presence` a county is held only while units (or a lone lord)
stand there. Income needs a unit in the county either way ("csak az a vármegye ad
bevételt, amelyikben legalább egy csapat állomásozik", `economy.py`).
"""

from __future__ import annotations

import re
from typing import Any

from pbem.core.i18n import Msg, _
from pbem.core.kit import Log
from pbem.rulesets.kard_es_korona.data import OFFICES
from pbem.rulesets.kard_es_korona.rules.control import (
    camp,
    cavalry_on_map,
    control_map,
    gmap,
    in_play,
    scoring_provinces,
)
from pbem.rulesets.kard_es_korona.state import State, holder

CASTLES_TO_WIN = {"basic": {2: 9, 3: 7, 4: 7, 5: 6, 6: 6},
                  "advanced": {2: 13, 3: 11, 4: 11, 5: 9, 6: 9}}


def update_claims(state: State, cm: dict[str, str] | None = None) -> None:
    """control_model=persistent (rulebook p. 3): the last occupier of a county keeps it for
    victory and ranking while it stays empty. Called after every step and battle."""
    if state["options"]["control_model"] != "persistent":
        return
    state["claims"].update(control_map(state) if cm is None else cm)


def holdings(state: State, cm: dict[str, str] | None = None) -> dict[str, str]:
    """county -> holder for victory and the final ranking (`cm`: the control map now)."""
    held = dict(control_map(state) if cm is None else cm)
    if state["options"]["control_model"] == "persistent":
        busy = {b["county"] for b in state["battles"]} | set(state["board"])
        for c, owner in state["claims"].items():
            if c not in held and c not in busy and in_play(state, c):
                held[c] = owner
    return held


def held_counties(state: State, seats: set[str],
                  held: dict[str, str] | None = None) -> list[str]:
    held = holdings(state) if held is None else held
    return sorted(c for c, s in held.items() if s in seats)


def held_castles(state: State, seats: set[str],
                 held: dict[str, str] | None = None) -> list[str]:
    gm = gmap(state)
    return [c for c in held_counties(state, seats, held) if gm.counties[c].has_castle]


def held_provinces(state: State, seats: set[str],
                   held: dict[str, str] | None = None) -> list[str]:
    gm = gmap(state)
    held = holdings(state) if held is None else held
    out = []
    for prov in scoring_provinces(state):
        cs = [c for c in gm.provinces[prov] if in_play(state, c)]
        if cs and all(held.get(c) in seats for c in cs):
            out.append(prov)
    return out


def provinces_to_win(state: State) -> int:
    return 4 if state["player_count"] <= 3 else 3


def contenders(state: State) -> list[str]:
    """Players who can still win: in the game and not vassals (captives count, PR-33)."""
    return [s for s in state["seats"] if state["players"][s]["status"] in ("active", "captive")]


def instant_winner(state: State, held: dict[str, str] | None = None) -> tuple[str, str] | None:
    """(seat, reason) for an instant win, or None (rulebook p. 13, I-III)."""
    rivals = contenders(state)
    pending = any(p["status"] == "defeated" for p in state["players"].values())
    if len(rivals) == 1 and not pending:
        return rivals[0], _("last lord standing: every other lord is dead or a vassal")
    if len(rivals) == 0 and not pending:
        return "", _("no lord is left")
    for s in rivals:
        if all(holder(state, o) == s for o in OFFICES):
            return s, _("holds all three offices")
    held = holdings(state) if held is None else held
    gm = gmap(state)
    castles: dict[str, int] = {}
    for c, who in held.items():
        if gm.counties[c].has_castle:
            castles[who] = castles.get(who, 0) + 1
    holders = [{held.get(c) for c in gm.provinces[prov] if in_play(state, c)}
               for prov in scoring_provinces(state)]
    for s in rivals:
        group = camp(state, s)
        provs = sum(1 for h in holders if h and h <= group)
        if provs >= provinces_to_win(state):
            return s, _("holds {n} complete provinces", n=provs)
        count = sum(castles.get(x, 0) for x in group)
        if count >= CASTLES_TO_WIN[state["version"]][state["player_count"]]:
            return s, _("holds {n} castles", n=count)
    return None


def check_victory(state: State, log: Log) -> bool:
    """After every step, battle and auction: is the game won? Sets the result."""
    if state["result"] is not None:
        return True
    cm = control_map(state)
    update_claims(state, cm)
    win = instant_winner(state, holdings(state, cm))
    if win is None:
        return False
    seat, reason = win
    _winners, ranking, scores = final_ranking(state)
    winners = [seat] if seat else []
    state["result"] = {"winners": winners, "reason": str(reason),
                       "ranking": ([seat] if seat else []) + [s for s in ranking if s != seat],
                       "scores": scores}
    state["phase"] = "over"
    log.public("victory", _("{seat} wins: {reason}.", seat=seat, reason=reason) if seat else
               _("Nobody wins: {reason}.", reason=reason), winners=winners)
    return True


def standings(state: State) -> list[dict[str, Any]]:
    """Per contender: castles, counties, cavalry on the map, money (spec 8.4)."""
    out = []
    held = holdings(state)
    for s in state["seats"]:
        p = state["players"][s]
        if p["status"] not in ("active", "captive"):
            continue
        group = camp(state, s)
        out.append({"seat": s, "castles": len(held_castles(state, group, held)),
                    "counties": len(held_counties(state, group, held)),
                    "cavalry": cavalry_on_map(state, group), "money": p["treasury"]})
    return out


def final_ranking(state: State) -> tuple[list[str], list[str], dict[str, float]]:
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
    held = holdings(state)
    scores = {s: float(len(held_castles(state, camp(state, s), held))) if
              state["players"][s]["status"] in ("active", "captive") else 0.0
              for s in state["seats"]}
    return winners, ranking, scores


def end_of_game(state: State, log: Log) -> None:
    """After the last year (rulebook p. 13)."""
    winners, ranking, scores = final_ranking(state)
    state["result"] = {"winners": winners, "ranking": ranking, "scores": scores,
                       "reason": str(_end_reason(state["year"]))}
    state["phase"] = "over"
    if winners:
        names: str = winners[0]
        for w in winners[1:]:
            names = _("{a} and {b}", a=names, b=w)
        text = _("The last year is over. {seats} wins.", seats=names)
    else:
        text = _("The last year is over. Nobody wins.")
    log.public("victory", text, winners=winners)


def _end_reason(year: int) -> Msg:
    return _("end of {year}: most castles, then counties, cavalry, money", year=year)


# The result's reason is kept in the state as English text; the report shows it as the
# message it was made from (so in the reader's language).
REASONS: tuple[tuple[re.Pattern[str], Any], ...] = (
    (re.compile(r"holds (\d+) complete provinces"),
     lambda m: _("holds {n} complete provinces", n=int(m[1]))),
    (re.compile(r"holds (\d+) castles"), lambda m: _("holds {n} castles", n=int(m[1]))),
    (re.compile(r"end of (\d+): most castles, then counties, cavalry, money"),
     lambda m: _end_reason(int(m[1]))),
    (re.compile(r"last lord standing: every other lord is dead or a vassal"),
     lambda m: _("last lord standing: every other lord is dead or a vassal")),
    (re.compile(r"no lord is left"), lambda m: _("no lord is left")),
    (re.compile(r"holds all three offices"), lambda m: _("holds all three offices")),
)


def reason_message(text: str) -> str:
    """The stored reason as its message (the text itself if it is none of the game's)."""
    for pattern, make in REASONS:
        m = pattern.fullmatch(text)
        if m:
            return make(m)
    return text
