"""Instant cards in other players' turns: response windows, standing triggers, `ask`.

Rulebook "A kártyalapok felépítése" (instants any time, e.g. a counterspell against an
opponent's spell), "Időbeliség a játékon belül" (empty in the text); spec §5.21 [A].

Windows (spec §5.21.1) implemented here, each with the seats that may answer (spec
§5.21.2: anyone with an instant, the energy and a caster in range):
- CAST (W1): a card is announced openly; every other seat may cancel it (Ellenvarázs).
- DAMAGE (W3): a damage roll; every seat hostile to the attacker may play Éppenhogy.
- ZERO (W4): at the end step, a piece at exactly 0 ÉP; every seat may heal it.
- AFTER: a card played openly has resolved and left a permanent card or a binding status
  (asleep, immobile, bound) on a piece; every other seat may answer with Kötés Oldása or
  Maradandóság Feloldása (Rulebook "A kártyalapok felépítése": instants at any time).
- TELEPORT: a hostile piece enters a gate or goes home through No-Man's Land; every
  seat hostile to it may play Hamis Utazás II (it lands in that seat's Base).
- BUILD (W7): an enemy has announced a build or upgrade and paid its MÉ; every seat
  hostile to him may stop it (card n30, Rulebook: an instant can stop a building).
- START: another player's turn begins; every seat but his may remove a status or a
  permanent card a hostile player put on (its own pieces, its allies', or a hostile
  permanent anywhere) or heal a friendly piece: instants "at any time" for what is
  already on the board, not just what a card has just done (the AFTER window). A seat
  that answers is offered the window again (one more instant), until it passes.
The seats are offered a window in turn order after the active seat, the active seat
last: its standing triggers first (`WHEN ...`, each fires at most once per turn; `ON ANY`
only in a window that concerns one of its pieces or itself, `ON ALL` in any), then with
option decisions=ask a seat holding a playable answer (every seat the rules allow, with
ask_blind) is asked in a short step; with auto it passes. An answer is paid at once and
goes on a stack (`task["frames"]`) where it opens a CAST window of its own; when every
seat has passed on the top item, it resolves, then the window below goes on with the
seats not yet offered it. A seat is offered each window (each stack item) once.
"""

from __future__ import annotations

from typing import Any

from pbem.rulesets.cherubion import data
from pbem.rulesets.cherubion.cards import card_range, pay, price, surcharge
from pbem.rulesets.cherubion.model import (
    Ctx,
    State,
    alive_seats,
    board,
    can_act,
    hostile,
    name_of,
    on_board,
)
from pbem.rulesets.cherubion.orders import Play, When, parse_line

# the instant effects that answer each window; a heal in a DAMAGE window heals the victim
# before the damage is applied (spec §10 #29: any instant in any window; its use: keeping
# a hurt piece alive through a blow)
EFFECT_OF = {"CAST": ("counter",), "DAMAGE": ("just_barely", "heal"),
             "ZERO": ("heal",), "TELEPORT": ("false_journey_teleport",),
             "AFTER": ("unbind", "dispel"), "BUILD": ("stop_build",),
             "START": ("unbind", "dispel", "heal")}


def _aim(event: str, effect: str, info: dict[str, Any]) -> str | None:
    """The piece an answer targets: the cancelled card's caster (CAST), the attacker
    (Éppenhogy) or the victim (a heal) in a DAMAGE window, the piece at 0 (ZERO), the
    teleporting piece (TELEPORT)."""
    if event == "CAST":
        return info.get("caster")
    if event == "BUILD":
        return None  # the building itself, which is not a piece
    if event == "DAMAGE":
        return info.get("victim") if effect == "heal" else info.get("attacker")
    return info.get("piece")  # ZERO, TELEPORT, AFTER (the bound or enchanted piece)


def responders(st: State, seats: list[str]) -> list[str]:
    """Seats in turn order starting after the active seat, the active seat last."""
    order = alive_seats(st)
    if st["active"] in order:
        i = order.index(st["active"])
        order = order[i + 1:] + order[:i + 1]
    return [s for s in order if s in seats]


def target_field_of(st: State, event: str, info: dict[str, Any],
                    effect: str = "") -> str | None:
    """Where the answering card must reach: its target piece's field (see `_aim`), or
    the gate (TELEPORT)."""
    if event in ("TELEPORT", "BUILD"):
        return info.get("field")
    p = st["pieces"].get(_aim(event, effect, info) or "")
    if p is None or not on_board(p["loc"]):
        return None
    return p["loc"]


def _best(st: State, seat: str, event: str, cid: str, caster_id: str,
          info: dict[str, Any]) -> Play | None:
    """The cheapest legal answer with `cid` by `caster_id` (or "ANY"), or None."""
    effect = data.card(cid)["effect"]
    goal = target_field_of(st, event, info, effect)
    if goal is None:
        return None
    if effect == "heal" and event == "DAMAGE":
        victim = st["pieces"][info["victim"]]
        if victim["ep"] >= victim["max"]:
            return None  # nothing to heal before the blow
    if event == "AFTER":
        victim = st["pieces"][info["piece"]]
        if not victim["attached"] and not (effect == "unbind" and victim["status"]):
            return None  # nothing left for it to remove
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
    target = _aim(event, effect, info)
    return Play(cid, best[2], (target,) if target else (), best[1])


def _play_on(st: State, seat: str, cid: str, caster_id: str, target: str) -> Play | None:
    """The cheapest legal play of `cid` on `target` by `caster_id` (or "ANY") now, by the
    card rules themselves (`check_play`: caster, range at x k, Base targets, energy)."""
    from pbem.rulesets.cherubion.cards import check_play
    energy = st["players"][seat]["energy"]
    best: tuple[int, int, str] | None = None
    for p in sorted(st["pieces"].values(), key=lambda q: q["id"]):
        if p["owner"] != seat or p["summoned"] or p["loc"] == "gone" or \
                caster_id not in ("ANY", p["id"]):
            continue
        extra = surcharge(st, p, cid)
        if isinstance(extra, str):
            continue
        k = 1
        while price(st, seat, cid, extra, k) <= energy and k <= 10:
            play = Play(cid, p["id"], (target,), k)
            if check_play(st, seat, play, reaction=True) is None:
                cost = price(st, seat, cid, extra, k)
                if best is None or (cost, k, p["id"]) < best:
                    best = (cost, k, p["id"])
                break
            k += 1
    return None if best is None else Play(cid, best[2], (target,), best[1])


def _foe_card(st: State, seat: str, p: dict[str, Any]) -> bool:
    """Is the permanent card a removal would take off `p` (the last attached) a hostile
    player's?"""
    return bool(p["attached"]) and hostile(st, seat, p["attached"][-1]["owner"])


def start_targets(st: State, seat: str, effect: str) -> list[str]:
    """What `seat` may play an instant of `effect` on when another player's turn begins,
    where it helps `seat`: heal a hurt friendly piece; end a hostile player's status on a
    friendly piece (Kötés Oldása ends the status first); take a hostile player's permanent
    card off any piece; close a hostile gate or dispel a hostile Ménes."""
    out = []
    for p in sorted(st["pieces"].values(), key=lambda q: q["id"]):
        if p["loc"] == "gone" or (p.get("hidden") and p["owner"] != seat):
            continue
        friend = not hostile(st, seat, p["owner"])
        if effect == "heal":
            if friend and p["ep"] < p["max"] and not (p.get("body") or {}).get("dead"):
                out.append(p["id"])
        elif effect == "unbind" and p["status"]:
            first = p["status"][sorted(p["status"])[0]]
            if friend and hostile(st, seat, first.get("owner", p["owner"])):
                out.append(p["id"])
        elif effect in ("unbind", "dispel") and _foe_card(st, seat, p):
            out.append(p["id"])
    if effect == "dispel":
        out += [mid for mid, m in sorted(st["markers"].items())
                if m["kind"] == "T" and hostile(st, seat, m["owner"])]
        out += [s for s in alive_seats(st) if st["players"][s]["herd"] and hostile(st, seat, s)]
    return out


def start_concerns(st: State, seat: str) -> list[str]:
    """What a hostile player has put on `seat`'s own pieces (statuses, permanent cards):
    public facts, so asking about them (also with ask_blind) tells nothing of a hand."""
    out = []
    for p in sorted(st["pieces"].values(), key=lambda q: q["id"]):
        if p["owner"] != seat or p["loc"] == "gone":
            continue
        out += [f"{p['id']}:{n}:{s.get('owner')}:{s.get('until')}"
                for n, s in sorted(p["status"].items()) if hostile(st, seat, s.get("owner", seat))]
        out += [f"{p['id']}:{'face-down' if a.get('secret') else a['card']}:{a['owner']}"
                for a in p["attached"] if hostile(st, seat, a["owner"])]
    return out


def start_options(st: State, seat: str) -> list[Play]:
    out = []
    for cid in sorted(set(st["players"][seat]["hand"])):
        eff = data.card(cid)["effect"]
        if eff in EFFECT_OF["START"]:
            for t in start_targets(st, seat, eff):
                play = _play_on(st, seat, cid, "ANY", t)
                if play is not None:
                    out.append(play)
    return out


def options(st: State, seat: str, event: str, info: dict[str, Any]) -> list[Play]:
    if event == "START":
        return start_options(st, seat)
    out = []
    for cid in sorted(set(st["players"][seat]["hand"])):
        if data.card(cid)["effect"] in EFFECT_OF[event]:
            p = _best(st, seat, event, cid, "ANY", info)
            if p is not None:
                out.append(p)
    return out


def concerned(event: str, seat: str, info: dict[str, Any]) -> bool:
    """Does the window concern `seat` (its piece is the target, victim or zeroed piece, or
    it is the targeted player)? `WHEN ... ON ANY` fires only then; `ON ALL` always."""
    return event in ("TELEPORT", "BUILD") or info.get("mine") is not None or \
        seat in info.get("concerns", ())


def _trigger(st: State, seat: str, event: str, info: dict[str, Any]) -> Play | None:
    fired = st["turn"].setdefault("fired", [])
    for i, raw in enumerate(st["players"][seat]["triggers"]):
        w = When(**raw)
        if w.event != event or f"{seat}:{i}" in fired:
            continue
        if event != "START":  # START picks its own target below
            if w.on == "ANY" and not concerned(event, seat, info):
                continue
            if w.on not in ("ANY", "ALL") and w.on != info.get("mine"):
                continue
        if event in ("CAST", "AFTER") and w.subject != "ANY" and \
                w.subject != info.get("card"):
            continue
        if event == "DAMAGE" and info.get("damage", 0) < w.over:
            continue
        if data.card(w.card)["effect"] not in EFFECT_OF[event]:
            continue
        if w.card not in st["players"][seat]["hand"]:
            continue
        if event == "START":
            # ON ANY: a target on one of my pieces; ON ALL: any target that helps me
            for t in start_targets(st, seat, data.card(w.card)["effect"]):
                owner = st["pieces"][t]["owner"] if t in st["pieces"] else None
                if (w.on == "ANY" and owner != seat) or w.on not in ("ANY", "ALL", t):
                    continue
                play = _play_on(st, seat, w.card, w.caster, t)
                if play is not None:
                    fired.append(f"{seat}:{i}")
                    return play
            continue
        play = _best(st, seat, event, w.card, w.caster, info)
        if play is not None:
            fired.append(f"{seat}:{i}")
            return play
    return None


def others(st: State, seat: str) -> list[str]:
    """Every living seat but `seat`: who may answer a card `seat` plays (spec §5.21.2)."""
    return [s for s in st["players"] if s != seat and st["players"][s]["alive"]]


def enemies(st: State, seat: str) -> list[str]:
    """Living seats hostile to `seat` (Éppenhogy answers an *enemy* attacker, spec n05)."""
    return [s for s in others(st, seat) if hostile(st, s, seat)]


def _frame_info(st: State, frame: dict[str, Any], below: str | None) -> dict[str, Any]:
    """The CAST window a response card opens on the stack (spec §5.21.2 2)."""
    play = parse_line(frame["play"], st["n"])
    assert isinstance(play, Play)
    mine = {st["pieces"][t]["owner"]: t for t in play.targets if t in st["pieces"]}
    # it also concerns the seat whose item it answers (`ON ANY`: a counter to my build's
    # stopping card, to my card's counter)
    concerns = [below] if below else []
    concerns += [t for t in play.targets if t in st["players"]]  # a seat (its Ménes)
    concerns += [st["markers"][t]["owner"] for t in play.targets if t in st["markers"]]
    return {"card": play.card, "caster": play.caster, "seat": frame["seat"],
            "mine_of": mine, "concerns": concerns}


def window(ctx: Ctx, task: dict[str, Any], event: str, seats: list[str],
           info: dict[str, Any]) -> bool:
    """Run one window for `task`, with its stack of responses (spec §5.21.2): the seats
    are offered the window in turn order after the active seat (the active seat last);
    an answer goes on top of the stack and opens a CAST window of its own, offered to
    every other seat; when all have passed on the top item, it resolves, and the window
    below goes on with the seats not yet offered. True when resolution must stop to ask
    a seat (decisions=ask)."""
    st = ctx.state
    while True:
        frames = task.setdefault("frames", [])
        holder = frames[-1] if frames else task
        if holder.get("countered"):
            r = "pass"
        elif frames:
            below = frames[-2]["seat"] if len(frames) > 1 else task.get("seat")
            r = _offer(ctx, task, holder, "CAST", others(st, holder["seat"]),
                       _frame_info(st, holder, below))
        else:
            r = _offer(ctx, task, task, event, seats, info)
        if r == "ask":
            return True
        if r == "frame":
            continue
        if not frames:
            return False
        frames.pop()
        resolve_frame(ctx, holder, frames[-1] if frames else task)


def _offer(ctx: Ctx, task: dict[str, Any], holder: dict[str, Any], event: str,
           seats: list[str], info: dict[str, Any]) -> str:
    """Offer `holder`'s window to the seats not yet offered it: "frame" when one answered
    (a response is now on top), "ask" when a seat is being asked, "pass" when all passed."""
    st = ctx.state
    done = holder.setdefault("answered", [])
    for seat in responders(st, seats):
        if seat in done or not st["players"][seat]["alive"]:
            continue
        if st["players"][seat].get("trapped"):
            done.append(seat)  # spec §10 #21: a time-trapped player plays no instants
            continue
        mine = info.get("mine_of", {}).get(seat)
        local = dict(info, mine=mine)
        local.pop("mine_of", None)
        play = _trigger(st, seat, event, local)
        done.append(seat)
        if play is not None:
            push(ctx, task, seat, play, event, local)
            return "frame"
        if st["config"]["options"].get("decisions", "auto") == "ask":
            opts = options(st, seat, event, local)
            blind = st["config"]["options"].get("ask_blind")
            if event == "START":
                # asked only about what hostile players put on its own pieces, once each
                # (a PASS declines it for good; triggers still fire)
                standing = st["players"][seat]["standing"]
                now = start_concerns(st, seat)
                # forget what is gone, so the same card put on again is a new question
                declined = [c for c in standing.get("start_declined", []) if c in now]
                if "start_declined" in standing:
                    standing["start_declined"] = declined
                new = [c for c in now if c not in declined]
                ask = bool(new) and bool(opts or blind)
            else:
                # ask_blind: ask every seat the rules let answer, even without a playable
                # answer, so that being asked tells the others nothing about its hand or
                # energy
                ask = bool(opts or blind)
            if ask:
                st["ask"] = {"seat": seat, "event": event, "info": local,
                             "options": [str(o) for o in opts],
                             "text": ask_text(st, event, local, seat),
                             "zero": task.get("zero"), "after": task.get("after"),
                             "start": task.get("start")}
                return "ask"
    return "pass"


def ask_text(st: State, event: str, info: dict[str, Any], seat: str = "") -> str:
    if event == "DAMAGE":
        return (f"{name_of(st, info['attacker'])} rolled {info['damage']} damage against your "
                f"{name_of(st, info['victim'])}. Play an instant, or PASS.")
    if event == "CAST":
        return (f"{info['seat']} plays {data.card(info['card'])['name_hu']} on your piece(s). "
                "Counter it, or PASS.")
    if event == "AFTER":
        return (f"{info['seat']}'s {data.card(info['card'])['name_hu']} now holds "
                f"{name_of(st, info['piece'])}. Remove it with an instant, or PASS.")
    if event == "ZERO":
        return f"Your {name_of(st, info['piece'])} is at exactly 0 ÉP. Heal it, or PASS."
    if event == "BUILD":
        what = "upgrade a resource" if info.get("upgrade") else "build a resource"
        return (f"{info['seat']} pays to {what} on {info['field']}. Stop it with an instant, "
                "or PASS.")
    if event == "START":
        held = ", ".join(name_of(st, pid) for pid in
                         sorted({c.split(":")[0] for c in start_concerns(st, seat)}))
        return (f"{st['active']}'s turn begins. A hostile card holds your {held}. Play an "
                "instant (it may also heal or dispel elsewhere), or PASS (you are not asked "
                "about these again; WHEN START triggers still fire).")
    return (f"{name_of(st, info['piece'])} steps into a teleport gate. Divert it into your "
            "Base, or PASS.")


def push(ctx: Ctx, task: dict[str, Any], seat: str, play: Play, event: str,
         info: dict[str, Any]) -> None:
    """Pay for an answer card and put it on top of `task`'s stack (its effect waits until
    every other seat has passed on it)."""
    st = ctx.state
    c = data.card(play.card)
    pay(ctx, seat, play)
    ctx.pub("react", f"{seat} answers with {c['name_hu']} ({c['name_en']}), cast by "
            f"{name_of(st, play.caster)}" + (f" at x{play.k}" if play.k != 1 else ""),
            seat=seat, card=play.card)
    task.setdefault("frames", []).append({"seat": seat, "play": str(play), "event": event,
                                          "info": info, "answered": []})
    if event == "START" and seat in task.get("answered", []):
        task["answered"].remove(seat)  # offered the START window again: one more, or pass


def resolve_frame(ctx: Ctx, frame: dict[str, Any], below: dict[str, Any]) -> None:
    """The top response resolves: cancelled (its card to the graveyard, cost paid) or its
    effect on the item below it."""
    from pbem.rulesets.cherubion.cards import apply_effect
    from pbem.rulesets.cherubion.life import to_grave
    st = ctx.state
    seat = frame["seat"]
    play = parse_line(frame["play"], st["n"])
    assert isinstance(play, Play)
    c = data.card(play.card)
    if frame.get("countered"):
        to_grave(st, seat, play.card)
        ctx.pub("countered", f"{seat}'s {c['name_hu']} is cancelled")
        return
    eff = c["effect"]
    info = frame["info"]
    if eff in ("counter", "stop_build"):
        below["countered"] = True
        to_grave(st, seat, play.card)
    elif eff == "just_barely":
        st["turn"].setdefault("just_barely", []).append(info["attacker"])
        to_grave(st, seat, play.card)
    elif eff == "false_journey_teleport":
        below["diverted"] = seat
        to_grave(st, seat, play.card)
    else:  # heal: the card's ordinary effect
        apply_effect(ctx, seat, play)
