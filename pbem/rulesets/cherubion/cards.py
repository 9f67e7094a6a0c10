"""Cards: who may cast what, cost and range, and every card effect of the pool.

Rulebook "A kártyalapok felépítése" (types and lifetimes), "A lapok kijátszási
költsége" (range = cost multiple x 5 for Melan cards, x 4 for the rest), "A karakter"
(own-demigod and "any" cards; demigods may use other demigods' non-exclusive cards at +2;
Melan's gnome the weaker Choler cards), "Speciális jelzések a kártyalapokon" (icons),
"Csapdák", "A megidézett lények", "Fogolyejtés"; spec §2.7, §2.8, §5.7. The card's text
overrides the rules: each effect below is the card's text as data/cards.toml states it.

Not here: the reaction windows themselves (reactions.py).
"""

from __future__ import annotations

from typing import Any

from pbem.rulesets.cherubion import data
from pbem.rulesets.cherubion.life import (
    damage,
    destroy_resource,
    end_status,
    heal,
    kill,
    to_grave,
)
from pbem.rulesets.cherubion.model import (
    Ctx,
    State,
    board,
    can_act,
    effective_vsz,
    holder,
    hostile,
    in_base,
    name_of,
    new_id,
    on_board,
    pieces_at,
    side_owner,
    status,
)
from pbem.rulesets.cherubion.orders import Play

# which kind of target each effect takes
TARGETS = {
    "summon": "field", "status": "piece", "counter": "reaction", "just_barely": "reaction",
    "bonus_steps": "own_piece", "mist": "own_piece", "attach": "piece", "turn_mod": "piece",
    "destroy_resource": "resource", "invisibility": "own_piece", "gate": "field",
    "false_journey": "piece", "false_journey_teleport": "reaction", "base_change": "pieces",
    "capture": "piece", "trap": "field", "heal": "piece", "dispel": "any",
    "unbind": "piece", "wring": "piece", "timed_death": "piece", "dark_flame": "own_piece",
    "kill": "piece", "time_trap": "seat", "convert": "piece", "card_attack": "piece",
    "field_damage": "field", "direct_damage": "piece", "herd": "none",
    "stop_build": "reaction",
}
HIDDEN_PLAY = ("trap", "timed_death")  # played face-down: others see a marker / a face-down card


def hidden_play(cid: str) -> bool:
    c = data.card(cid)
    return c["effect"] in HIDDEN_PLAY or (c["effect"] == "summon" and c["summon"]["hidden"]
                                           and "unique" not in c["icons"])


def deity_alive(st: State, deity: str) -> bool:
    """[A] spec §5.7.3: a demigod's cards work only while that demigod lives."""
    return any(p["kind"] == "demigod" and deity in p["teams"] and p["loc"] != "gone"
               for p in st["pieces"].values())


def surcharge(st: State, caster: dict[str, Any], cid: str) -> int | str:
    """The cost surcharge for this caster (0 or 2), or why it may not cast the card.
    Rulebook "A karakter": own demigod's and "any" cards at printed cost; a demigod may use
    another demigod's cards unless EXCLUSIVE, at +2; Melan's gnome the weaker Choler cards
    (spec §10 #18: non-exclusive, printed cost <= 5, +2)."""
    c = data.card(cid)
    deity = c["deity"]
    if deity == "any":
        return 0
    if not deity_alive(st, deity):
        return f"{deity.capitalize()} is dead: his cards can no longer be used"
    if deity in caster["teams"]:
        return 0
    if "exclusive" in c["icons"]:
        return f"{c['name_hu']} is exclusive to {deity.capitalize()} and his characters"
    if caster["kind"] == "demigod":
        return 2
    if "weaker_choler" in caster["flags"] and deity == "choler" and c["cost"] <= 5:
        return 2
    return f"{caster['name']} may not use {deity.capitalize()}'s cards (only demigods may, at +2)"


def price(st: State, seat: str, cid: str, extra: int, k: int) -> int:
    """k x (printed + surcharge), 1 less while holding DISCOUNT (Rulebook: 10 -> 9)."""
    paid = k * (data.card(cid)["cost"] + extra)
    if holder(st, "discount") == seat:
        paid -= 1
    return max(0, paid)


def card_range(st: State, seat: str, cid: str, k: int) -> int:
    """k x 5 fields for Melan cards, k x 4 for the rest, +1 while holding REACH
    (Rulebook "A lapok kijátszási költsége"; spec §5.7.4, §10 #6)."""
    base = 5 if data.card(cid)["deity"] == "melan" else 4
    return k * base + (1 if holder(st, "reach") == seat else 0)


def target_field(st: State, kind: str, tid: str) -> str | None:
    if kind == "piece":
        p = st["pieces"][tid]
        return p["loc"] if on_board(p["loc"]) else None
    if kind == "resource":
        return st["resources"][tid]["field"]
    if kind == "marker":
        return st["markers"][tid]["field"]
    if kind == "field":
        return tid
    return None


def classify(st: State, tid: str) -> str:
    if tid in st["pieces"] and st["pieces"][tid]["loc"] != "gone":
        return "piece"
    if tid in st["resources"]:
        return "resource"
    if tid in st["markers"]:
        return "marker"
    if tid in board(st).fields:
        return "field"
    if tid in st["players"]:
        return "seat"
    return "unknown"


def in_own_base(st: State, seat: str, p: dict[str, Any]) -> bool:
    loc = p["loc"]
    if loc == f"prison:{seat}":
        return True
    return in_base(loc) and int(loc.split(":")[1]) in st["players"][seat]["bases"]


def check_play(st: State, seat: str, play: Play, *, reaction: bool = False) -> str | None:
    """Why `play` is illegal now, or None. Checks hand, type timing, caster eligibility,
    targets, range and energy (spec §5.7)."""
    pl = st["players"][seat]
    cid = play.card
    c = data.card(cid)
    if cid not in pl["hand"]:
        return f"{c['name_hu']} is not in your hand"
    eff = c["effect"]
    if TARGETS[eff] == "reaction" and not reaction:
        return f"{c['name_hu']} is played only as a reaction (see WHEN)"
    if st["active"] != seat and c["type"] != "instant":
        return f"{c['name_hu']} is a {c['type']} card: only in your own turn"
    caster = st["pieces"].get(play.caster)
    if caster is None or caster["owner"] != seat or caster["loc"] == "gone":
        return f"{play.caster} is not one of your pieces"
    if caster["summoned"]:
        return "summoned pieces cannot cast cards (spec §5.7.3 [A])"
    if not can_act(caster):
        return f"{play.caster} cannot cast now (asleep, bound or a prisoner)"
    if caster["loc"] == "nml":
        return f"{play.caster} is in No-Man's Land"
    extra = surcharge(st, caster, cid)
    if isinstance(extra, str):
        return extra
    if "unique" in c["icons"] and unique_in_play(st, cid):
        return f"{c['name_hu']} is unique and already in play"
    if pl["energy"] < price(st, seat, cid, extra, play.k):
        return (f"{c['name_hu']} costs {price(st, seat, cid, extra, play.k)} energy at x"
                f"{play.k}; you have {pl['energy']}")
    why = _check_targets(st, seat, caster, play, eff, c)
    return why


def unique_in_play(st: State, cid: str) -> bool:
    return any(p["card"] == cid and p["loc"] != "gone" for p in st["pieces"].values())


def _check_targets(st: State, seat: str, caster: dict[str, Any], play: Play, eff: str,
                   c: dict[str, Any]) -> str | None:
    kind = TARGETS[eff]
    tg = play.targets
    if kind == "none":
        if tg:
            return f"{c['name_hu']} takes no target"
        if not on_board(caster["loc"]):
            return "the caster must be on the board"
        return None
    if not tg:
        return f"{c['name_hu']} needs a target: ON <...>"
    base_only = "base_only" in c["icons"]
    reach = card_range(st, seat, play.card, play.k)
    for tid in tg:
        tk = classify(st, tid)
        if tk == "unknown":
            return f"{tid} is not a piece, resource, marker, field or seat"
        if kind in ("piece", "own_piece", "pieces") and tk != "piece":
            return f"{c['name_hu']} targets a piece; {tid} is not one"
        if kind == "field" and tk != "field":
            return f"{c['name_hu']} targets a field; {tid} is not one"
        if kind == "resource" and tk != "resource":
            return f"{c['name_hu']} targets a resource; {tid} is not one"
        if kind == "seat" and tk != "seat":
            return f"{c['name_hu']} targets a player; {tid} is not a seat"
        if tk == "piece":
            p = st["pieces"][tid]
            if kind == "own_piece" and p["owner"] != seat:
                return f"{c['name_hu']} goes on one of your own pieces"
            if p.get("hidden") and p["owner"] != seat:
                return f"{tid} cannot be targeted"
            if p.get("body") and eff not in ("heal", "convert") and \
                    not p["loc"].startswith("prison:"):
                return f"{tid} is a captive being carried home"
            if p.get("body") and p["body"].get("dead") and eff != "heal":
                return f"{tid} is a body: only healing works on it"
            if "no_demigod" in c["icons"] and p["kind"] == "demigod":
                return f"{c['name_hu']} does not work on demigods"
            if p["loc"] == "nml":
                return f"{tid} is in No-Man's Land: no card can reach it"
            if base_only or eff in ("heal", "base_change"):
                if in_own_base(st, seat, p):
                    continue
            if not on_board(p["loc"]):
                return f"{tid} is in a Base: cards cannot reach into a Base"
            if not on_board(caster["loc"]):
                return "the caster is not on the board"
        if tk == "seat":  # a player (Időcsapda) or his team-wide permanent (Ménes)
            if tid == seat or not st["players"][tid]["alive"]:
                return f"{tid} is not an opponent in the game"
            if not on_board(caster["loc"]):
                return "the caster is not on the board"
            dists = [board(st).distance(caster["loc"], p["loc"]) for p in st["pieces"].values()
                     if p["owner"] == tid and on_board(p["loc"]) and not p.get("hidden")]
            if not dists or min(dists) > reach:
                return f"none of {tid}'s pieces is within range {reach} of {play.caster}"
            continue
        f = target_field(st, tk, tid)
        if f is None:
            return f"{tid} is not on the board"
        if not on_board(caster["loc"]):
            return "the caster is not on the board"
        d = board(st).distance(caster["loc"], f)
        if d > reach:
            return (f"{tid} is {d} fields from {play.caster}; range at x{play.k} is {reach} "
                    f"(pay more: X {-(-d // max(1, reach // max(1, play.k)))})")
        if eff in ("summon", "trap"):
            hostile_here = [q for q in pieces_at(st, f) if hostile(st, seat, q["owner"])]
            hostile_marker = [m for m in st["markers"].values()
                              if m["field"] == f and hostile(st, seat, m["owner"])
                              and m["kind"] != "T"]
            if hostile_here or hostile_marker:
                return f"{f} holds a hostile piece or marker (Rulebook: no trap there)"
        if eff == "gate" and not any(q["owner"] == seat for q in pieces_at(st, f)):
            return f"a gate is created where one of your pieces stands; none is on {f}"
    return _effect_check(st, seat, caster, play, eff, c)


def _effect_check(st: State, seat: str, caster: dict[str, Any], play: Play, eff: str,
                  c: dict[str, Any]) -> str | None:
    tg = play.targets
    if eff in ("status", "card_attack", "direct_damage", "kill", "false_journey", "wring",
               "capture") and st["pieces"][tg[0]]["owner"] == seat:
        return f"{c['name_hu']} goes on an enemy piece"
    if eff == "destroy_resource" and st["resources"][tg[0]]["owner"] == seat:
        return "that is your own resource"
    if eff == "wring" and st["pieces"][tg[0]]["ep"] > c["max_ep"]:
        return f"Kifacsarás destroys a piece with at most {c['max_ep']} ÉP"
    if eff == "dark_flame":
        p = st["pieces"][tg[0]]
        if not on_board(p["loc"]) or p["ep"] < 7:
            return "Sötét Láng takes 6 ÉP from one of your pieces on the board with >= 7 ÉP"
    if eff == "mist" and tg[0] in st["turn"].get("fled", []):
        return "that piece has already fled"
    if eff == "capture":
        p = st["pieces"][tg[0]]
        if p["summoned"]:
            return "summoned pieces cannot be captured (Rulebook)"
        if not (status(p, "asleep") or status(p, "bound") or status(p, "immobile")):
            return "Fogolyejtés takes a sleeping, immobilised or bound piece"
        if not _free_transport(st, seat, p["loc"]):
            return f"none of your transport pieces with room stands on {p['loc']}"
    if eff == "convert":
        p = st["pieces"][tg[0]]
        if p["loc"].startswith("prison:") and (p.get("body") or {}).get("dead"):
            return "a body must be revived (healed) before it can be converted"
        if p["loc"].startswith("prison:") and (p.get("body") or {}).get("unconvertible"):
            return "too late: this prisoner can no longer be converted (3-turn limit)"
        if p["loc"].startswith("prison:") and p["origin"] == seat:
            return "that prisoner is already yours"
    if eff == "base_change":
        if len(tg) > c["count"]:
            return f"Bázisváltás moves at most {c['count']} pieces"
        if len(st["players"][seat]["bases"]) < 2:
            return "you own only one Base"
        for tid in tg:
            p = st["pieces"][tid]
            if p["owner"] != seat:
                return f"{tid} is not one of your pieces"
    if eff == "heal":
        p = st["pieces"][tg[0]]
        if p["loc"].startswith("prison:") and p["loc"] != f"prison:{seat}":
            return "you can heal only prisoners in your own Base"
        body = p.get("body") or {}
        if body.get("dead") and p["owner"] == seat and (
                p["ep"] != 0 or body.get("turn_no", st["turn_no"]) != st["turn_no"]):
            # Rulebook "Fogolyejtés": "saját halott karaktereket nem lehet így
            # felgyógyítani!"; only a body at exactly 0 may still be healed (spec §5.12 [A])
            return (f"{tg[0]} is your own captured body at {p['ep']} ÉP: only a body at "
                    "exactly 0, in the turn it fell, can be healed back (Rulebook)")
    if eff == "dispel":
        tid = tg[0]
        kind = classify(st, tid)
        if kind == "piece" and not st["pieces"][tid]["attached"]:
            return f"no permanent card is attached to {tid}"
        if kind == "marker" and st["markers"][tid]["kind"] != "T":
            return "only a gate (T marker) is a permanent on the board"
        if kind == "seat" and not st["players"][tid]["herd"]:
            return f"{tid} has no team-wide permanent in play"
        if kind in ("field", "resource"):
            return "Maradandóság Feloldása targets a piece, a gate or a player"
    if eff == "unbind":
        p = st["pieces"][tg[0]]
        if not p["status"] and not p["attached"]:
            return f"{tg[0]} is neither bound nor carries a permanent card"
    if eff == "attach" and c.get("grant") == "telescope" and st["pieces"][tg[0]]["owner"] != seat:
        return "Távcső goes on one of your pieces"
    return None


def has_room(st: State, q: dict[str, Any]) -> bool:
    """Can `q` take one more captive: a transport piece able to act, visible, not full."""
    if q["transport"] <= 0 or not can_act(q) or q.get("hidden"):
        return False
    load = sum(1 for b in st["pieces"].values()
               if (b.get("body") or {}).get("by") == q["id"] and b["loc"] != "gone"
               and not b["loc"].startswith("prison:"))
    return load < q["transport"]


def _free_transport(st: State, seat: str, field: str) -> dict[str, Any] | None:
    for q in pieces_at(st, field):
        if q["owner"] == seat and has_room(st, q):
            return q
    return None


def pay(ctx: Ctx, seat: str, play: Play) -> int:
    st = ctx.state
    caster = st["pieces"][play.caster]
    extra = surcharge(st, caster, play.card)
    assert isinstance(extra, int)
    cost = price(st, seat, play.card, extra, play.k)
    st["players"][seat]["energy"] -= cost
    st["players"][seat]["hand"].remove(play.card)
    return cost


def announce(ctx: Ctx, seat: str, play: Play, cost: int) -> None:
    c = data.card(play.card)
    st = ctx.state
    if hidden_play(play.card):
        ctx.priv([seat], "play", f"You play {c['name_hu']} ({play.card}) with "
                 f"{play.caster} on {' '.join(play.targets)} for {cost} energy")
        on = " on " + name_of(st, play.targets[0]) if c["effect"] == "timed_death" else ""
        ctx.pub("play_hidden", f"{seat} plays a face-down card with "
                f"{name_of(st, play.caster)}{on}", seat=seat)
        return
    tgt = " ".join(name_of(st, t) if t in st["pieces"] else t for t in play.targets)
    ctx.pub("play", f"{seat} plays {c['name_hu']} ({c['name_en']}) with "
            f"{name_of(st, play.caster)}" + (f" on {tgt}" if tgt else "") +
            (f" at x{play.k}" if play.k != 1 else ""), seat=seat, card=play.card)
    ctx.priv([seat], "energy", f"It costs {cost} energy; you have "
             f"{st['players'][seat]['energy']} left", cost=cost)


def apply_effect(ctx: Ctx, seat: str, play: Play) -> None:
    """The card's own text (data/cards.toml), applied. General cards go to the graveyard
    when their effect ends; permanents stay attached (Rulebook "A kártyalapok felépítése")."""
    from pbem.rulesets.cherubion.combat import capture_or_kill
    st = ctx.state
    c = data.card(play.card)
    eff = c["effect"]
    tg = play.targets
    dice = ctx.dice
    keep = False  # card stays in play (summons, permanents, gates, traps)
    if eff == "summon":
        _summon(ctx, seat, play, c)
        keep = True
    elif eff == "status":
        p = st["pieces"][tg[0]]
        end_status(st, p, c["status"])
        p["status"][c["status"]] = {"seat": p["owner"],
                                    "until": st["players"][p["owner"]]["turns"] + c["turns"],
                                    "card": play.card, "owner": seat}
        keep = True  # a General card stays in play until its effect ends
        ctx.pub("status", f"{name_of(st, p['id'])} is {c['status']}", piece=p["id"])
    elif eff == "bonus_steps":
        st["turn"].setdefault("bonus", {})[tg[0]] = c["steps"]
        st["turn"].setdefault("lasting", []).append([seat, play.card])
        keep = True
        ctx.pub("bonus", f"{name_of(st, tg[0])} gets {c['steps']} bonus steps this turn")
    elif eff == "mist":
        st["turn"].setdefault("mist", []).append(tg[0])
        st["turn"].setdefault("lasting", []).append([seat, play.card])
        keep = True
    elif eff == "attach":
        p = st["pieces"][tg[0]]
        p["attached"].append({"card": play.card, "owner": seat, "mods": c.get("mods", {}),
                              "grant": c.get("grant", "")})
        keep = True
    elif eff == "turn_mod":
        st["turn"].setdefault("mods", {}).setdefault(tg[0], []).append(dict(c["mods"]))
        st["turn"].setdefault("lasting", []).append([seat, play.card])
        keep = True
    elif eff == "destroy_resource":
        destroy_resource(ctx, tg[0], f"{c['name_hu']}", by=seat)
    elif eff == "invisibility":
        p = st["pieces"][tg[0]]
        mid = new_id(st, "N")
        st["markers"][mid] = {"id": mid, "kind": "N", "field": p["loc"], "owner": seat,
                              "card": play.card, "hidden": True, "piece": p["id"]}
        p["hidden"] = mid
        p["attached"].append({"card": play.card, "owner": seat, "mods": {}, "grant": ""})
        ctx.pub("marker", f"{tg[0]} vanishes; marker {mid} stands on {p['loc']}")
        keep = True
    elif eff == "gate":
        mid = new_id(st, "T")
        st["markers"][mid] = {"id": mid, "kind": "T", "field": tg[0], "owner": seat,
                              "card": play.card, "hidden": False}
        ctx.pub("gate", f"Teleport gate {mid} opens on {tg[0]}", field=tg[0])
        keep = True
    elif eff == "false_journey":
        from pbem.rulesets.cherubion.movement import enter_foreign_base
        p = st["pieces"][tg[0]]
        side = st["players"][seat]["bases"][0]
        enter_foreign_base(ctx, p, side)
    elif eff == "base_change":
        for tid in tg:
            p = st["pieces"][tid]
            if not in_base(p["loc"]):
                ctx.pub("no_effect", f"{c['name_hu']} has no effect on {name_of(st, tid)}: "
                        "it is not in a Base (BASE_ONLY)")
                continue
            here = int(p["loc"].split(":")[1])
            other = next(s for s in st["players"][seat]["bases"] if s != here)
            p["loc"] = f"base:{other}"
            ctx.pub("base_change", f"{name_of(st, tid)} moves to the Base on side {other}")
    elif eff == "capture":
        p = st["pieces"][tg[0]]
        carrier = _free_transport(st, seat, p["loc"])
        assert carrier is not None
        p["body"] = {"by": carrier["id"], "holder": seat, "dead": False, "clock": 0}
        st["players"][seat]["transit"].append(p["id"])
        ctx.pub("capture", f"{name_of(st, p['id'])} is taken captive by {seat}'s "
                f"{name_of(st, carrier['id'])}, who must carry it home")
        # a captive is no longer its owner's character: a last one taken eliminates him
        # and the captor takes his Base (Rulebook "A játék alapjai")
        from pbem.rulesets.cherubion.life import check_elimination
        check_elimination(ctx, seat)
    elif eff == "trap":
        mid = new_id(st, "N")
        st["markers"][mid] = {"id": mid, "kind": "N", "field": tg[0], "owner": seat,
                              "card": play.card, "hidden": True, "uses": c["uses"]}
        ctx.pub("marker", f"{seat} places marker {mid} on {tg[0]}", field=tg[0], marker=mid)
        keep = True
    elif eff == "heal":
        p = st["pieces"][tg[0]]
        amount, faces = data.roll_expr(dice, c["amount"], f"healing, {tg[0]}")
        if p["loc"] in board(st).special_fields() and \
                board(st).special_fields()[p["loc"]] == "heal":
            amount *= 2  # Rulebook: healing cards on the HEAL field have double effect
        was_zero = p["ep"] == 0
        heal(ctx, p, amount, c["name_hu"])
        body = p.get("body")
        if body and body.get("dead") and seat == p["owner"] and on_board(p["loc"]) \
                and was_zero and p["ep"] > 0:
            # spec §5.12 [A]: its owner heals a captive body at 0 before it is carried
            # home: the capture is cancelled
            p["body"] = None
            transit = st["players"][body["holder"]]["transit"]
            if p["id"] in transit:
                transit.remove(p["id"])
            ctx.pub("capture_cancelled", f"{name_of(st, p['id'])} is healed by its owner: "
                    f"{body['holder']}'s capture is cancelled")
    elif eff == "dispel":
        _dispel(ctx, seat, tg[0])
    elif eff == "unbind":
        p = st["pieces"][tg[0]]
        if p["status"]:
            name = sorted(p["status"])[0]
            end_status(st, p, name)
            ctx.pub("unbind", f"{name_of(st, p['id'])} is no longer {name}")
        else:
            _remove_attached(ctx, p)
    elif eff == "wring":
        p = st["pieces"][tg[0]]
        kill(ctx, p, "Kifacsarás", seat)
        st["players"][seat]["energy"] += c["energy"]
        ctx.priv([seat], "energy", f"Kifacsarás yields {c['energy']} energy")
    elif eff == "timed_death":
        p = st["pieces"][tg[0]]
        p["attached"].append({"card": play.card, "owner": seat, "mods": {}, "grant": "",
                              "due": st["players"][seat]["turns"] + c["turns"],
                              "secret": True})
        keep = True
    elif eff == "dark_flame":
        p = st["pieces"][tg[0]]
        damage(ctx, p, c["loss"], "Sötét Láng")
        st["players"][seat]["energy"] += c["energy"]
        ctx.priv([seat], "energy", f"Sötét Láng yields {c['energy']} energy")
    elif eff == "kill":
        kill(ctx, st["pieces"][tg[0]], c["name_hu"], seat)
    elif eff == "time_trap":
        st["players"][tg[0]]["skip"] += c["turns"]
        st["players"][tg[0]].setdefault("trap_cards", []).append([seat, play.card])
        keep = True
        ctx.pub("time_trap", f"{tg[0]} will miss the next {c['turns']} turns", seat=tg[0])
    elif eff == "convert":
        p = st["pieces"][tg[0]]
        if not p["loc"].startswith("prison:") or p["loc"] != f"prison:{seat}":
            ctx.pub("no_effect", f"{c['name_hu']} is played on a piece outside your Base: "
                    "no effect (BASE_ONLY)")
        else:
            team = st["players"][seat]["team"]
            p["owner"] = seat
            p["teams"] = sorted(set(p["teams"]) | {team})
            p["body"] = None
            p["loc"] = f"base:{st['players'][seat]['bases'][0]}"
            p["home_turn"] = st["players"][seat]["turns"]
            ctx.pub("convert", f"{name_of(st, p['id'])} joins {seat}'s team")
            check_after_convert(ctx)
    elif eff == "card_attack":
        p = st["pieces"][tg[0]]
        rolls = dice.rolls(2, 6, f"{c['name_hu']} attack on {tg[0]}")
        total = c["tk"] + sum(rolls)
        vsz = effective_vsz(st, p)
        if total > vsz:
            dmg, _ = data.roll_expr(dice, c["damage"], f"{c['name_hu']} damage")
            if total >= 2 * vsz:
                dmg *= 2
            ctx.pub("hit", f"{c['name_hu']}: {c['tk']}+{sum(rolls)}={total} > VSZ {vsz}: hit")
            damage(ctx, p, dmg, c["name_hu"], seat)
            capture_or_kill(ctx, seat, p, c["name_hu"])
        else:
            ctx.pub("miss", f"{c['name_hu']}: {c['tk']}+{sum(rolls)}={total} <= VSZ {vsz}: miss")
    elif eff == "field_damage":
        for p in sorted(pieces_at(st, tg[0]), key=lambda q: q["id"]):
            if p.get("body"):
                continue
            if p.get("hidden"):
                from pbem.rulesets.cherubion.movement import reveal_piece
                reveal_piece(ctx, p, "it is hit")
            dmg, _ = data.roll_expr(dice, c["damage"], f"{c['name_hu']} on {p['id']}")
            damage(ctx, p, dmg, c["name_hu"], seat)
        for p in pieces_at(st, tg[0]):
            if p["owner"] == seat:
                if p["ep"] < 0:
                    kill(ctx, p, c["name_hu"], seat)
            else:
                capture_or_kill(ctx, seat, p, c["name_hu"])
    elif eff == "direct_damage":
        p = st["pieces"][tg[0]]
        dmg, _ = data.roll_expr(dice, c["damage"], f"{c['name_hu']} on {tg[0]}")
        damage(ctx, p, dmg, c["name_hu"], seat)
        capture_or_kill(ctx, seat, p, c["name_hu"])
    elif eff == "herd":
        st["players"][seat]["herd"] += 1
        st["players"][seat]["permanents"].append(play.card)
        keep = True
    if not keep:
        to_grave(st, seat, play.card)


def check_after_convert(ctx: Ctx) -> None:
    from pbem.rulesets.cherubion.life import check_elimination
    check_elimination(ctx, None)


def _summon(ctx: Ctx, seat: str, play: Play, c: dict[str, Any]) -> None:
    st = ctx.state
    s = c["summon"]
    pid = new_id(st, "S")
    field = play.targets[0]
    p = {"id": pid, "name": c["name_en"], "owner": seat, "origin": seat,
         "teams": [st["players"][seat]["team"]], "kind": "tech" if s["tech"] else "creature",
         "summoned": True, "card": play.card, "loc": field, "ep": s["ep"], "max": s["ep"],
         "tk": s["tk"], "vsz": s["vsz"], "fe": s["fe"], "reach": s["reach"], "transport": 0,
         "kk": 0, "flags": list(s.get("flags", [])), "own_me": s["own_me"], "status": {},
         "attached": [], "hidden": None, "body": None, "home_turn": -1}
    st["pieces"][pid] = p
    if s["hidden"] and "unique" not in c["icons"]:
        mid = new_id(st, "SZ")
        st["markers"][mid] = {"id": mid, "kind": "SZ", "field": field, "owner": seat,
                              "card": play.card, "hidden": True, "piece": pid}
        p["hidden"] = mid
        ctx.pub("marker", f"{seat} places marker {mid} on {field}", field=field, marker=mid)
        ctx.priv([seat], "summon", f"{c['name_hu']} ({pid}) waits hidden under {mid}")
    else:
        ctx.pub("summon", f"{c['name_hu']} ({pid}) appears on {field}", piece=pid)
    if "sense" in p["flags"]:
        from pbem.rulesets.cherubion.movement import sense
        sense(ctx, p)


def _dispel(ctx: Ctx, seat: str, tid: str) -> None:
    st = ctx.state
    kind = classify(st, tid)
    if kind == "piece":
        _remove_attached(ctx, st["pieces"][tid])
    elif kind == "marker":
        m = st["markers"].pop(tid)
        to_grave(st, m["owner"], m["card"])
        ctx.pub("dispel", f"Gate {tid} closes")
    elif kind == "seat":
        pl = st["players"][tid]
        pl["herd"] -= 1
        pl["permanents"].remove("ot01")
        to_grave(st, tid, "ot01")
        ctx.pub("dispel", f"{tid}'s Ménes is dispelled")


def _remove_attached(ctx: Ctx, p: dict[str, Any]) -> None:
    st = ctx.state
    if not p["attached"]:
        return
    a = p["attached"].pop()
    to_grave(st, a["owner"], a["card"])
    if a["card"] == "n14" and p.get("hidden"):
        st["markers"].pop(p["hidden"], None)
        p["hidden"] = None
    ctx.pub("dispel", f"{data.card(a['card'])['name_hu']} is removed from "
            f"{name_of(st, p['id'])}")


def side_name(st: State, side: int) -> str:
    owner = side_owner(st, side)
    return f"side {side}" + (f" ({owner}'s Base)" if owner else "")
