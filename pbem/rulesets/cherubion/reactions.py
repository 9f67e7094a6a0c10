"""Instant cards in other players' turns: response windows, standing triggers, `ask`.

Rulebook "A kártyalapok felépítése" (instants any time, e.g. a counterspell against an
opponent's spell), "Időbeliség a játékon belül" (empty in the text); spec §5.21 [A].

Windows (spec §5.21.1) implemented here, each with the seats that may answer:
- CAST (W1): a card is announced; the owner of each targeted piece (or the targeted
  player) may answer with a counter card (Ellenvarázs).
- DAMAGE (W3): a damage roll against a piece; its owner may answer with Éppenhogy.
- ZERO (W4): at the end step, a piece at exactly 0 ÉP; its owner may heal it.
- TELEPORT: a hostile piece enters a gate; every other seat may answer with Hamis
  Utazás II (the piece lands in that seat's Base as an intruder).
For each seat in turn order after the active one: its standing triggers first (`WHEN ...`,
each fires at most once per turn); with option decisions=ask, a seat holding a playable
answer and no matching trigger is asked in a short step; with auto it passes.
SPEC-AMBIGUITY: no response to a response (no stack); one answer per seat per window.
"""

from __future__ import annotations

from typing import Any

from pbem.rulesets.cherubion import data
from pbem.rulesets.cherubion.cards import card_range, price, surcharge
from pbem.rulesets.cherubion.model import (
    Ctx,
    State,
    alive_seats,
    board,
    can_act,
    name_of,
    on_board,
)
from pbem.rulesets.cherubion.orders import Play, When

EFFECT_OF = {"CAST": "counter", "DAMAGE": "just_barely", "ZERO": "heal",
             "TELEPORT": "false_journey_teleport"}


def responders(st: State, seats: list[str]) -> list[str]:
    """Seats in turn order starting after the active seat, the active seat last."""
    order = alive_seats(st)
    if st["active"] in order:
        i = order.index(st["active"])
        order = order[i + 1:] + order[:i + 1]
    return [s for s in order if s in seats]


def target_field_of(st: State, event: str, info: dict[str, Any]) -> str | None:
    """Where the answering card must reach: the cancelled card's caster (CAST), the
    attacker (DAMAGE), the piece at 0 (ZERO), the gate (TELEPORT)."""
    pid = {"CAST": info.get("caster"), "DAMAGE": info.get("attacker"),
           "ZERO": info.get("piece"), "TELEPORT": info.get("piece")}[event]
    if event == "TELEPORT":
        return info.get("field")
    p = st["pieces"].get(pid or "")
    if p is None or not on_board(p["loc"]):
        return None
    return p["loc"]


def _best(st: State, seat: str, event: str, cid: str, caster_id: str,
          info: dict[str, Any]) -> Play | None:
    """The cheapest legal answer with `cid` by `caster_id` (or "ANY"), or None."""
    goal = target_field_of(st, event, info)
    if goal is None:
        return None
    casters = [p for p in st["pieces"].values()
               if p["owner"] == seat and not p["summoned"] and on_board(p["loc"])
               and can_act(p) and (caster_id == "ANY" or p["id"] == caster_id)]
    energy = st["players"][seat]["energy"]
    best: tuple[int, int, str] | None = None
    for p in sorted(casters, key=lambda q: q["id"]):
        extra = surcharge(st, p, cid)
        if isinstance(extra, str):
            continue
        d = board(st).distance(p["loc"], goal)
        k = 1
        while card_range(st, seat, cid, k) < d:
            k += 1
        cost = price(st, seat, cid, extra, k)
        if cost <= energy and (best is None or (cost, k, p["id"]) < best):
            best = (cost, k, p["id"])
    if best is None:
        return None
    target = {"CAST": info.get("caster"), "DAMAGE": info.get("attacker"),
              "ZERO": info.get("piece"), "TELEPORT": info.get("piece")}[event]
    return Play(cid, best[2], (target,) if target else (), best[1])


def options(st: State, seat: str, event: str, info: dict[str, Any]) -> list[Play]:
    out = []
    for cid in sorted(set(st["players"][seat]["hand"])):
        if data.card(cid)["effect"] == EFFECT_OF[event]:
            p = _best(st, seat, event, cid, "ANY", info)
            if p is not None:
                out.append(p)
    return out


def _trigger(st: State, seat: str, event: str, info: dict[str, Any]) -> Play | None:
    fired = st["turn"].setdefault("fired", [])
    for i, raw in enumerate(st["players"][seat]["triggers"]):
        w = When(**raw)
        if w.event != event or f"{seat}:{i}" in fired:
            continue
        if w.on != "ANY" and w.on != info.get("mine"):
            continue
        if event == "CAST" and w.subject != "ANY" and w.subject != info.get("card"):
            continue
        if event == "DAMAGE" and info.get("damage", 0) < w.over:
            continue
        if data.card(w.card)["effect"] != EFFECT_OF[event]:
            continue
        if w.card not in st["players"][seat]["hand"]:
            continue
        play = _best(st, seat, event, w.card, w.caster, info)
        if play is not None:
            fired.append(f"{seat}:{i}")
            return play
    return None


def window(ctx: Ctx, task: dict[str, Any], event: str, seats: list[str],
           info: dict[str, Any]) -> bool:
    """Run one window for `task`. True when resolution must stop to ask a seat."""
    st = ctx.state
    done = task.setdefault("answered", [])
    for seat in responders(st, seats):
        if seat in done or not st["players"][seat]["alive"]:
            continue
        if st["players"][seat].get("trapped"):
            done.append(seat)  # spec §10 #21: a time-trapped player plays no instants
            continue
        mine = info.get("mine_of", {}).get(seat)
        local = dict(info, mine=mine)
        play = _trigger(st, seat, event, local)
        if play is not None:
            done.append(seat)
            react(ctx, seat, play, event, task, local)
            continue
        if st["config"]["options"].get("decisions", "auto") == "ask":
            opts = options(st, seat, event, local)
            # ask_blind: ask even without a playable answer, so that being asked tells the
            # other players nothing about the seat's hand or energy
            if opts or st["config"]["options"].get("ask_blind"):
                done.append(seat)
                st["ask"] = {"seat": seat, "event": event, "info": local,
                             "options": [str(o) for o in opts],
                             "text": ask_text(st, event, local)}
                return True
        done.append(seat)
    return False


def ask_text(st: State, event: str, info: dict[str, Any]) -> str:
    if event == "DAMAGE":
        return (f"{name_of(st, info['attacker'])} rolled {info['damage']} damage against your "
                f"{name_of(st, info['victim'])}. Play an instant, or PASS.")
    if event == "CAST":
        return (f"{info['seat']} plays {data.card(info['card'])['name_hu']} on your piece(s). "
                "Counter it, or PASS.")
    if event == "ZERO":
        return f"Your {name_of(st, info['piece'])} is at exactly 0 ÉP. Heal it, or PASS."
    return (f"{name_of(st, info['piece'])} steps into a teleport gate. Divert it into your "
            "Base, or PASS.")


def react(ctx: Ctx, seat: str, play: Play, event: str, task: dict[str, Any],
          info: dict[str, Any]) -> None:
    """Pay for and apply an answer card in a window."""
    from pbem.rulesets.cherubion.cards import apply_effect
    from pbem.rulesets.cherubion.life import to_grave
    st = ctx.state
    c = data.card(play.card)
    caster = st["pieces"][play.caster]
    extra = surcharge(st, caster, play.card)
    assert isinstance(extra, int)
    cost = price(st, seat, play.card, extra, play.k)
    st["players"][seat]["energy"] -= cost
    st["players"][seat]["hand"].remove(play.card)
    ctx.pub("react", f"{seat} answers with {c['name_hu']} ({c['name_en']}), cast by "
            f"{name_of(st, play.caster)}" + (f" at x{play.k}" if play.k != 1 else ""),
            seat=seat, card=play.card)
    eff = c["effect"]
    if eff == "counter":
        task["countered"] = True
        to_grave(st, seat, play.card)
    elif eff == "just_barely":
        st["turn"].setdefault("just_barely", []).append(info["attacker"])
        to_grave(st, seat, play.card)
    elif eff == "false_journey_teleport":
        task["diverted"] = seat
        to_grave(st, seat, play.card)
    else:  # heal: the card's ordinary effect
        apply_effect(ctx, seat, play)
