"""Card effects: one small function per effect id of data/cards.toml, registered in
`rules.cards.EFFECTS` (`fn(ctx, seat, play) -> bool`: True when the card stays in play).

The card's text overrides the rules (Rulebook "A kártyalapok felépítése"); each function
is the card text as data/cards.toml states it (spec §2.8 gives the pool). General cards go
to the graveyard when their effect ends, summons and permanents stay in play. The answers
that act on another card (Ellenvarázs, Éppenhogy, Hamis Utazás II, Építkezés
Megakadályozása) are in rules/reactions.py (`ANSWERS`).
"""

from __future__ import annotations

from pbem.core.i18n import Msg, _
from pbem.core.kit import Context
from pbem.rulesets.cherubion import data
from pbem.rulesets.cherubion.orders import Play
from pbem.rulesets.cherubion.rules.cards import EFFECTS, free_transport
from pbem.rulesets.cherubion.rules.combat import capture_or_kill
from pbem.rulesets.cherubion.rules.life import (
    check_elimination,
    damage,
    destroy_resource,
    end_status,
    heal,
    kill,
    to_grave,
)
from pbem.rulesets.cherubion.rules.markers import reveal_piece, sense
from pbem.rulesets.cherubion.rules.movement import enter_foreign_base
from pbem.rulesets.cherubion.rules.queries import (
    board,
    classify_target,
    effective_vsz,
    in_base,
    name_of,
    new_id,
    on_board,
    pieces_at,
)
from pbem.rulesets.cherubion.state import Piece, State


def _target(ctx: Context, play: Play) -> Piece:
    piece: Piece = ctx.state["pieces"][play.targets[0]]
    return piece


def _lasting(ctx: Context, seat: str, play: Play) -> None:
    """A card whose effect lasts this turn: to the graveyard when the turn ends."""
    ctx.state["turn"].setdefault("lasting", []).append([seat, play.card])


@EFFECTS.register("summon")
def summon(ctx: Context, seat: str, play: Play) -> bool:
    """A summoned piece appears on the target field; hidden summons under an SZ marker
    (Rulebook "A megidézett lények", "Csapdák")."""
    state: State = ctx.state
    c = data.card(play.card)
    s = c["summon"]
    pid = new_id(state, "S")
    field = play.targets[0]
    p: Piece = {
        "id": pid, "name": c["name_en"], "owner": seat, "origin": seat,
        "teams": [state["players"][seat]["team"]], "kind": "tech" if s["tech"] else "creature",
        "summoned": True, "card": play.card, "loc": field, "ep": s["ep"], "max_ep": s["ep"],
        "tk": s["tk"], "vsz": s["vsz"], "fe": s["fe"], "reach": s["reach"], "transport": 0,
        "kk": 0, "flags": list(s.get("flags", [])), "own_me": s["own_me"], "status": {},
        "attached": [], "hidden": None, "captive": None, "home_turn": -1}
    state["pieces"][pid] = p
    if s["hidden"] and "unique" not in c["icons"]:
        mid = new_id(state, "SZ")
        state["markers"][mid] = {"id": mid, "kind": "SZ", "field": field, "owner": seat,
                                 "card": play.card, "hidden": True, "piece": pid}
        p["hidden"] = mid
        ctx.log.public("marker", _("{seat} places marker {marker} on {field}",
                                   seat=seat, marker=mid, field=field), field=field,
                       marker=mid)
        ctx.log.private([seat], "summon", _("{card} ({piece}) waits hidden under {marker}",
                                            card=c["name_hu"], piece=pid, marker=mid))
    else:
        ctx.log.public("summon", _("{card} ({piece}) appears on {field}",
                                   card=c["name_hu"], piece=pid, field=field), piece=pid)
    if "sense" in p["flags"]:
        sense(ctx, p)
    return True


@EFFECTS.register("status")
def put_status(ctx: Context, seat: str, play: Play) -> bool:
    """Asleep, immobile, bound for some of the piece owner's turns; the General card stays
    in play until its effect ends."""
    state: State = ctx.state
    c = data.card(play.card)
    p = _target(ctx, play)
    end_status(state, p, c["status"])
    p["status"][c["status"]] = {"seat": p["owner"],
                                "until": state["players"][p["owner"]]["turns"] + c["turns"],
                                "card": play.card, "owner": seat}
    ctx.log.public("status", _("{piece} is {status}",
                               piece=name_of(state, p["id"]), status=Msg(c["status"])), piece=p["id"])
    return True


@EFFECTS.register("bonus_steps")
def bonus_steps(ctx: Context, seat: str, play: Play) -> bool:
    """Hétmérföldes Csizma: free steps for one piece this turn."""
    c = data.card(play.card)
    ctx.state["turn"].setdefault("bonus", {})[play.targets[0]] = c["steps"]
    _lasting(ctx, seat, play)
    ctx.log.public("bonus", _("{piece} gets {steps} bonus steps this turn",
                              piece=name_of(ctx.state, play.targets[0]), steps=c["steps"]))
    return True


@EFFECTS.register("mist")
def mist(ctx: Context, seat: str, play: Play) -> bool:
    """Ködfátyol: the piece flees this turn without free attacks."""
    ctx.state["turn"].setdefault("mist", []).append(play.targets[0])
    _lasting(ctx, seat, play)
    return True


@EFFECTS.register("attach")
def attach(ctx: Context, seat: str, play: Play) -> bool:
    """A permanent card on a piece (modifiers or an ability)."""
    c = data.card(play.card)
    _target(ctx, play)["attached"].append({"card": play.card, "owner": seat,
                                           "mods": c.get("mods", {}), "grant": c.get("grant", "")})
    return True


@EFFECTS.register("turn_mod")
def turn_mod(ctx: Context, seat: str, play: Play) -> bool:
    """Modifiers for this turn (Erősítés)."""
    c = data.card(play.card)
    ctx.state["turn"].setdefault("mods", {}).setdefault(play.targets[0], []).append(
        dict(c["mods"]))
    _lasting(ctx, seat, play)
    return True


@EFFECTS.register("destroy_resource")
def destroy(ctx: Context, seat: str, play: Play) -> bool:
    destroy_resource(ctx, play.targets[0], data.card(play.card)["name_hu"], by=seat)
    return False


@EFFECTS.register("invisibility")
def invisibility(ctx: Context, seat: str, play: Play) -> bool:
    """Láthatatlanság: the piece hides under an N marker until it attacks or meets an
    enemy."""
    state: State = ctx.state
    p = _target(ctx, play)
    mid = new_id(state, "N")
    state["markers"][mid] = {"id": mid, "kind": "N", "field": p["loc"], "owner": seat,
                             "card": play.card, "hidden": True, "piece": p["id"]}
    p["hidden"] = mid
    p["attached"].append({"card": play.card, "owner": seat, "mods": {}, "grant": ""})
    ctx.log.public("marker", _("{targets} vanishes; marker {marker} stands on {loc}",
                               targets=play.targets[0], marker=mid, loc=p["loc"]))
    return True


@EFFECTS.register("gate")
def gate(ctx: Context, seat: str, play: Play) -> bool:
    """A teleport gate (T marker) where one of the caster's pieces stands."""
    state: State = ctx.state
    mid = new_id(state, "T")
    state["markers"][mid] = {"id": mid, "kind": "T", "field": play.targets[0], "owner": seat,
                             "card": play.card, "hidden": False}
    ctx.log.public("gate", _("Teleport gate {marker} opens on {targets}",
                             marker=mid, targets=play.targets[0]),
                   field=play.targets[0])
    return True


@EFFECTS.register("false_journey")
def false_journey(ctx: Context, seat: str, play: Play) -> bool:
    """Hamis Utazás: the enemy piece lands in the caster's Base (an intruder)."""
    enter_foreign_base(ctx, _target(ctx, play), ctx.state["players"][seat]["bases"][0])
    return False


@EFFECTS.register("base_change")
def base_change(ctx: Context, seat: str, play: Play) -> bool:
    """Bázisváltás: pieces move to the player's other Base (BASE_ONLY)."""
    state: State = ctx.state
    c = data.card(play.card)
    for tid in play.targets:
        p = state["pieces"][tid]
        if not in_base(p["loc"]):
            ctx.log.public("no_effect", _("{card} has no effect on {piece}: it is not in a Base "
                                          "(BASE_ONLY)",
                                          card=c["name_hu"], piece=name_of(state, tid)))
            continue
        here = int(p["loc"].split(":")[1])
        other = next(s for s in state["players"][seat]["bases"] if s != here)
        p["loc"] = f"base:{other}"
        ctx.log.public("base_change", _("{piece} moves to the Base on side {other}",
                                        piece=name_of(state, tid), other=other))
    return False


@EFFECTS.register("capture")
def capture(ctx: Context, seat: str, play: Play) -> bool:
    """Fogolyejtés: a sleeping, immobilised or bound piece is taken alive by a transport
    piece of the caster's on its field, which must carry it home."""
    state: State = ctx.state
    p = _target(ctx, play)
    carrier = free_transport(state, seat, p["loc"])
    assert carrier is not None
    p["captive"] = {"carrier": carrier["id"], "captor": seat, "dead": False, "clock": 0,
                    "carried": False, "turn_no": None, "healed": False, "unconvertible": False}
    state["players"][seat]["transit"].append(p["id"])
    ctx.log.public("capture", _("{piece} is taken captive by {seat}'s {piece2}, who must carry it "
                                "home",
                                piece=name_of(state, p["id"]), seat=seat,
                                piece2=name_of(state, carrier["id"])))
    # a captive is no longer its owner's character: a last one taken eliminates him
    # and the captor takes his Base (Rulebook "A játék alapjai")
    check_elimination(ctx, seat)
    return False


@EFFECTS.register("trap")
def trap(ctx: Context, seat: str, play: Play) -> bool:
    """A face-down trap (N marker) on a field (Rulebook "Csapdák")."""
    state: State = ctx.state
    mid = new_id(state, "N")
    state["markers"][mid] = {"id": mid, "kind": "N", "field": play.targets[0], "owner": seat,
                             "card": play.card, "hidden": True,
                             "uses": data.card(play.card)["uses"]}
    ctx.log.public("marker", _("{seat} places marker {marker} on {targets}",
                               seat=seat, marker=mid, targets=play.targets[0]),
                   field=play.targets[0], marker=mid)
    return True


@EFFECTS.register("heal")
def heal_card(ctx: Context, seat: str, play: Play) -> bool:
    """Gyógyítás: healing dice; double on the HEAL field (Rulebook "Speciális jelzések")."""
    state: State = ctx.state
    c = data.card(play.card)
    p = _target(ctx, play)
    amount, _dice = data.roll_expr(ctx.dice, c["amount"], _("healing, {piece}", piece=p["id"]))
    if board(state).special_fields().get(p["loc"]) == "heal":
        amount *= 2  # Rulebook: healing cards on the HEAL field have double effect
    was_zero = p["ep"] == 0
    heal(ctx, p, amount, c["name_hu"])
    cap = p["captive"]
    if cap and cap["dead"] and seat == p["owner"] and on_board(p["loc"]) and was_zero \
            and p["ep"] > 0:
        # spec §5.12 [A]: its owner heals a captive body at 0 before it is carried home:
        # the capture is cancelled
        p["captive"] = None
        transit = state["players"][cap["captor"]]["transit"]
        if p["id"] in transit:
            transit.remove(p["id"])
        ctx.log.public("capture_cancelled", _("{piece} is healed by its owner: {captor}'s capture "
                                              "is cancelled",
                                              piece=name_of(state, p["id"]), captor=cap["captor"]))
    return False


@EFFECTS.register("dispel")
def dispel(ctx: Context, seat: str, play: Play) -> bool:
    """Maradandóság Feloldása: a permanent card off a piece, a gate closed, or a player's
    Ménes dispelled."""
    state: State = ctx.state
    tid = play.targets[0]
    kind = classify_target(state, tid)
    if kind == "piece":
        remove_attached(ctx, state["pieces"][tid])
    elif kind == "marker":
        m = state["markers"].pop(tid)
        to_grave(state, m["owner"], m["card"])
        ctx.log.public("dispel", _("Gate {tid} closes", tid=tid))
    elif kind == "seat":
        pl = state["players"][tid]
        pl["herd"] -= 1
        pl["permanents"].remove("ot01")
        to_grave(state, tid, "ot01")
        ctx.log.public("dispel", _("{tid}'s Ménes is dispelled", tid=tid))
    return False


def remove_attached(ctx: Context, p: Piece) -> None:
    """The last permanent card on a piece goes to its owner's graveyard."""
    state: State = ctx.state
    if not p["attached"]:
        return
    a = p["attached"].pop()
    to_grave(state, a["owner"], a["card"])
    if a["card"] == "n14" and p["hidden"]:
        state["markers"].pop(p["hidden"], None)
        p["hidden"] = None
    ctx.log.public("dispel", _("{card} is removed from {piece}",
                               card=data.card(a["card"])["name_hu"], piece=name_of(state, p["id"])))


@EFFECTS.register("unbind")
def unbind(ctx: Context, seat: str, play: Play) -> bool:
    """Kötés Oldása: ends the piece's binding status, else removes a permanent card."""
    state: State = ctx.state
    p = _target(ctx, play)
    if p["status"]:
        name = sorted(p["status"])[0]
        end_status(state, p, name)
        ctx.log.public("unbind", _("{piece} is no longer {name}",
                                   piece=name_of(state, p["id"]), name=Msg(name)))
    else:
        remove_attached(ctx, p)
    return False


@EFFECTS.register("wring")
def wring(ctx: Context, seat: str, play: Play) -> bool:
    """Kifacsarás: destroys a weak enemy piece and yields energy."""
    c = data.card(play.card)
    kill(ctx, _target(ctx, play), "Kifacsarás", seat)
    ctx.state["players"][seat]["energy"] += c["energy"]
    ctx.log.private([seat], "energy", _("Kifacsarás yields {energy} energy", energy=c["energy"]))
    return False


@EFFECTS.register("timed_death")
def timed_death(ctx: Context, seat: str, play: Play) -> bool:
    """Időzített Halálvarázs: a face-down permanent that kills after some caster's turns."""
    c = data.card(play.card)
    _target(ctx, play)["attached"].append({
        "card": play.card, "owner": seat, "mods": {}, "grant": "",
        "due": ctx.state["players"][seat]["turns"] + c["turns"], "secret": True})
    return True


@EFFECTS.register("dark_flame")
def dark_flame(ctx: Context, seat: str, play: Play) -> bool:
    """Sötét Láng: 6 ÉP of an own piece turned into energy."""
    c = data.card(play.card)
    damage(ctx, _target(ctx, play), c["loss"], "Sötét Láng")
    ctx.state["players"][seat]["energy"] += c["energy"]
    ctx.log.private([seat], "energy", _("Sötét Láng yields {energy} energy", energy=c["energy"]))
    return False


@EFFECTS.register("kill")
def kill_card(ctx: Context, seat: str, play: Play) -> bool:
    kill(ctx, _target(ctx, play), data.card(play.card)["name_hu"], seat)
    return False


@EFFECTS.register("time_trap")
def time_trap(ctx: Context, seat: str, play: Play) -> bool:
    """Időcsapda: the target player misses his next turns; the card lasts until then."""
    state: State = ctx.state
    c = data.card(play.card)
    pl = state["players"][play.targets[0]]
    pl["skip_turns"] += c["turns"]
    pl["time_trap_cards"].append([seat, play.card])
    ctx.log.public("time_trap", _("{targets} will miss the next {turns} turns",
                                  targets=play.targets[0], turns=c["turns"]),
                   seat=play.targets[0])
    return True


@EFFECTS.register("convert")
def convert(ctx: Context, seat: str, play: Play) -> bool:
    """A conversion card: a prisoner in the caster's Base joins his team (BASE_ONLY)."""
    state: State = ctx.state
    c = data.card(play.card)
    p = _target(ctx, play)
    if p["loc"] != f"prison:{seat}":
        ctx.log.public("no_effect", _("{card} is played on a piece outside your Base: no effect "
                                      "(BASE_ONLY)",
                                      card=c["name_hu"]))
        return False
    p["owner"] = seat
    p["teams"] = sorted(set(p["teams"]) | {state["players"][seat]["team"]})
    p["captive"] = None
    p["loc"] = f"base:{state['players'][seat]['bases'][0]}"
    p["home_turn"] = state["players"][seat]["turns"]
    ctx.log.public("convert", _("{piece} joins {seat}'s team",
                                piece=name_of(state, p["id"]), seat=seat))
    check_elimination(ctx, None)
    return False


@EFFECTS.register("card_attack")
def card_attack(ctx: Context, seat: str, play: Play) -> bool:
    """An attack by the card itself: 2d6 + its TK against VSZ, like a blow."""
    state: State = ctx.state
    c = data.card(play.card)
    p = _target(ctx, play)
    rolls = data.rolls(ctx.dice, 2, 6, _("{card} attack on {piece}", card=c["name_hu"], piece=p["id"]))
    total = c["tk"] + sum(rolls)
    vsz = effective_vsz(state, p)
    if total <= vsz:
        ctx.log.public("miss", _("{card}: {tk}+{sum}={total} <= VSZ {vsz}: miss",
                                 card=c["name_hu"], tk=c["tk"], sum=sum(rolls), total=total,
                                 vsz=vsz))
        return False
    dmg, _dice = data.roll_expr(ctx.dice, c["damage"], _("{card} damage", card=c["name_hu"]))
    if total >= 2 * vsz:
        dmg *= 2
    ctx.log.public("hit", _("{card}: {tk}+{sum}={total} > VSZ {vsz}: hit",
                            card=c["name_hu"], tk=c["tk"], sum=sum(rolls), total=total, vsz=vsz))
    damage(ctx, p, dmg, c["name_hu"], seat)
    capture_or_kill(ctx, seat, p, c["name_hu"])
    return False


@EFFECTS.register("field_damage")
def field_damage(ctx: Context, seat: str, play: Play) -> bool:
    """Damage to every piece on a field (hidden ones are revealed); the caster's own pieces
    below 0 die, enemies may be captured."""
    state: State = ctx.state
    c = data.card(play.card)
    field = play.targets[0]
    for p in sorted(pieces_at(state, field), key=lambda q: q["id"]):
        if p["captive"]:
            continue
        if p["hidden"]:
            reveal_piece(ctx, p, _("it is hit"))
        dmg, _dice = data.roll_expr(ctx.dice, c["damage"], _("{card} on {piece}",
                                                             card=c["name_hu"], piece=p["id"]))
        damage(ctx, p, dmg, c["name_hu"], seat)
    for p in pieces_at(state, field):
        if p["owner"] == seat:
            if p["ep"] < 0:
                kill(ctx, p, c["name_hu"], seat)
        else:
            capture_or_kill(ctx, seat, p, c["name_hu"])
    return False


@EFFECTS.register("direct_damage")
def direct_damage(ctx: Context, seat: str, play: Play) -> bool:
    """Damage dice to one piece (Kézigránát)."""
    c = data.card(play.card)
    p = _target(ctx, play)
    dmg, _dice = data.roll_expr(ctx.dice, c["damage"], _("{card} on {piece}",
                                                         card=c["name_hu"], piece=p["id"]))
    damage(ctx, p, dmg, c["name_hu"], seat)
    capture_or_kill(ctx, seat, p, c["name_hu"])
    return False


@EFFECTS.register("herd")
def herd(ctx: Context, seat: str, play: Play) -> bool:
    """Ménes: +2 MÉ every turn (a team-wide permanent)."""
    pl = ctx.state["players"][seat]
    pl["herd"] += 1
    pl["permanents"].append(play.card)
    return True
