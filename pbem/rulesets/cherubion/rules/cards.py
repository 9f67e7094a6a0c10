"""Cards: who may cast what, cost and range, the checks of a play, paying and announcing it,
and the registry of card effects.

Rulebook "A kártyalapok felépítése" (types and lifetimes), "A lapok kijátszási
költsége" (range = cost multiple x 5 for Melan cards, x 4 for the rest), "A karakter"
(own-demigod and "any" cards; demigods may use other demigods' non-exclusive cards at +2;
Melan's gnome the weaker Choler cards), "Speciális jelzések a kártyalapokon" (icons),
"Csapdák", "A megidézett lények", "Fogolyejtés"; spec §2.7, §2.8, §5.7.

Each card effect is one small function in effects.py, registered in `EFFECTS` under the
effect id of data/cards.toml; `resolve_card` looks it up. Not here: the reaction windows
(reactions.py).
"""

from __future__ import annotations

from pbem.core.i18n import Msg, _, join
from pbem.core.kit import Context, Effects
from pbem.rulesets.cherubion import data
from pbem.rulesets.cherubion.orders import Play
from pbem.rulesets.cherubion.rules.life import to_grave
from pbem.rulesets.cherubion.rules.queries import (
    board,
    can_act,
    card_label,
    classify_target,
    holder,
    hostile,
    in_own_base,
    name_of,
    on_board,
    piece_name,
    pieces_at,
    status,
)
from pbem.rulesets.cherubion.state import Piece, State

# Card effects: `fn(ctx, seat, play) -> bool`, True when the card stays in play (a summon, a
# permanent, a status) instead of going to the graveyard.
EFFECTS = Effects("card effect")

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


def demigod_dead(state: State, deity: str) -> bool:
    """Rulebook "Diplomácia": "a halott félisten lapjait nem használhatják" (a dead
    demigod's cards cannot be used; spec §5.7.3 [A]). Only a demigod who was in the game
    and fell is dead: a demigod nobody plays is not, and his cards are usable like any
    other demigod's (the rulebook's own example deals Melan "Ménes (utóbbi Otoaak lap!)" in
    a game without Otoaak)."""
    were = [p for p in state["pieces"].values() if p["kind"] == "demigod" and deity in p["teams"]]
    return bool(were) and all(p["loc"] == "gone" for p in were)


def surcharge(state: State, caster: Piece, cid: str) -> int | str:
    """The cost surcharge for this caster (0 or 2), or why it may not cast the card.
    Rulebook "A karakter": own demigod's and "any" cards at printed cost; a demigod may use
    another demigod's cards unless EXCLUSIVE, at +2; Melan's gnome the weaker Choler cards
    (spec §10 #18: non-exclusive, printed cost <= 5, +2)."""
    c = data.card(cid)
    deity = c["deity"]
    if deity == "any":
        return 0
    if demigod_dead(state, deity):
        return (_("{demigod} is dead: his cards can no longer be used (Rulebook \"Diplomácia\": \"a"
                  " halott félisten lapjait nem használhatják\")",
                  demigod=deity.capitalize()))
    if deity in caster["teams"]:
        return 0
    if "exclusive" in c["icons"]:
        return _("{card} is exclusive to {demigod} and his characters",
                 card=c["name_hu"], demigod=deity.capitalize())
    if caster["kind"] == "demigod":
        return 2
    if "weaker_choler" in caster["flags"] and deity == "choler" and c["cost"] <= 5:
        return 2
    return _("{name} may not use {demigod}'s cards (only demigods may, at +2)",
             name=piece_name(caster["name"]), demigod=deity.capitalize())


def price(state: State, seat: str, cid: str, extra: int, k: int) -> int:
    """k x (printed + surcharge), 1 less while holding DISCOUNT (Rulebook: 10 -> 9)."""
    paid = k * (data.card(cid)["cost"] + extra)
    if holder(state, "discount") == seat:
        paid -= 1
    return max(0, paid)


def card_range(state: State, seat: str, cid: str, k: int) -> int:
    """k x 5 fields for Melan cards, k x 4 for the rest, +1 while holding REACH
    (Rulebook "A lapok kijátszási költsége"; spec §5.7.4, §10 #6)."""
    base = 5 if data.card(cid)["deity"] == "melan" else 4
    return k * base + (1 if holder(state, "reach") == seat else 0)


def target_field(state: State, kind: str, tid: str) -> str | None:
    if kind == "piece":
        loc = state["pieces"][tid]["loc"]
        return loc if on_board(loc) else None
    if kind == "resource":
        return state["resources"][tid]["field"]
    if kind == "marker":
        return state["markers"][tid]["field"]
    if kind == "field":
        return tid
    return None


def check_play(state: State, seat: str, play: Play, *, reaction: bool = False) -> str | None:
    """Why `play` is illegal now, or None. Checks hand, type timing, caster eligibility,
    targets, range and energy (spec §5.7)."""
    pl = state["players"][seat]
    cid = play.card
    c = data.card(cid)
    if cid not in pl["hand"]:
        return _("{card} is not in your hand", card=c["name_hu"])
    eff = c["effect"]
    if TARGETS[eff] == "reaction" and not reaction:
        return _("{card} is played only as a reaction (see WHEN)", card=c["name_hu"])
    if state["active"] != seat and c["type"] != "instant":
        return _("{card} is a {type} card: only in your own turn",
                 card=c["name_hu"], type=Msg(c["type"]))
    caster = state["pieces"].get(play.caster)
    if caster is None or caster["owner"] != seat or caster["loc"] == "gone":
        return _("{caster} is not one of your pieces", caster=play.caster)
    if caster["summoned"]:
        return _("summoned pieces cannot cast cards (spec §5.7.3 [A])")
    if not can_act(caster):
        return _("{caster} cannot cast now (asleep, bound or a prisoner)", caster=play.caster)
    if caster["loc"] == "nml":
        return _("{caster} is in No-Man's Land", caster=play.caster)
    extra = surcharge(state, caster, cid)
    if isinstance(extra, str):
        return extra
    if "unique" in c["icons"] and unique_in_play(state, cid):
        return _("{card} is unique and already in play", card=c["name_hu"])
    if pl["energy"] < price(state, seat, cid, extra, play.k):
        return (_("{card} costs {price} energy at x{k}; you have {energy}",
                  card=c["name_hu"], price=price(state, seat, cid, extra, play.k), k=play.k,
                  energy=pl["energy"]))
    return _check_targets(state, seat, caster, play)


def unique_in_play(state: State, cid: str) -> bool:
    return any(p["card"] == cid and p["loc"] != "gone" for p in state["pieces"].values())


def _check_targets(state: State, seat: str, caster: Piece, play: Play) -> str | None:
    c = data.card(play.card)
    eff = c["effect"]
    kind = TARGETS[eff]
    if kind == "none":
        if play.targets:
            return _("{card} takes no target", card=c["name_hu"])
        if not on_board(caster["loc"]):
            return _("the caster must be on the board")
        return None
    if not play.targets:
        return _("{card} needs a target: ON <...>", card=c["name_hu"])
    for tid in play.targets:
        why = _check_target(state, seat, caster, play, tid)
        if why:
            return why
    return _effect_check(state, seat, play)


def _wrong_kind(kind: str, card: str, tid: str) -> Msg:
    if kind == "field":
        return _("{card} targets a field; {tid} is not one", card=card, tid=tid)
    if kind == "resource":
        return _("{card} targets a resource; {tid} is not one", card=card, tid=tid)
    return _("{card} targets a player; {tid} is not a seat", card=card, tid=tid)


def _check_target(state: State, seat: str, caster: Piece, play: Play, tid: str) -> str | None:
    c = data.card(play.card)
    eff = c["effect"]
    kind = TARGETS[eff]
    tk = classify_target(state, tid)
    if tk == "unknown":
        return _("{tid} is not a piece, resource, marker, field or seat", tid=tid)
    if kind in ("piece", "own_piece", "pieces") and tk != "piece":
        return _("{card} targets a piece; {tid} is not one", card=c["name_hu"], tid=tid)
    if kind in ("field", "resource", "seat") and tk != kind:
        return _wrong_kind(kind, c["name_hu"], tid)
    if tk == "piece":
        why = _piece_target(state, seat, caster, play, tid)
        if why != "":
            return why
    if tk == "seat":
        return _seat_target(state, seat, caster, play, tid)
    f = target_field(state, tk, tid)
    if f is None:
        return _("{tid} is not on the board", tid=tid)
    if not on_board(caster["loc"]):
        return _("the caster is not on the board")
    reach = card_range(state, seat, play.card, play.k)
    d = board(state).distance(caster["loc"], f)
    if d > reach:
        return (_("{tid} is {d} fields from {caster}; range at x{k} is {reach} (pay more: X "
                  "{value})",
                  tid=tid, d=d, caster=play.caster, k=play.k, reach=reach,
                  value=-(-d // max(1, reach // max(1, play.k)))))
    if eff in ("summon", "trap"):
        hostile_here = [q for q in pieces_at(state, f) if hostile(state, seat, q["owner"])]
        hostile_marker = [m for m in state["markers"].values()
                          if m["field"] == f and hostile(state, seat, m["owner"])
                          and m["kind"] != "T"]
        if hostile_here or hostile_marker:
            return _("{f} holds a hostile piece or marker (Rulebook: no trap there)", f=f)
    if eff == "gate" and not any(q["owner"] == seat for q in pieces_at(state, f)):
        return _("a gate is created where one of your pieces stands; none is on {f}", f=f)
    return None


def _piece_target(state: State, seat: str, caster: Piece, play: Play, tid: str) -> str | None:
    """Why a piece target is wrong; None when it is fine whatever the range (a piece in
    the caster's own Base for BASE_ONLY cards and heals); "" to go on with the range."""
    c = data.card(play.card)
    eff = c["effect"]
    p = state["pieces"][tid]
    if TARGETS[eff] == "own_piece" and p["owner"] != seat:
        return _("{card} goes on one of your own pieces", card=c["name_hu"])
    if p["hidden"] and p["owner"] != seat:
        return _("{tid} cannot be targeted", tid=tid)
    cap = p["captive"]
    if cap and eff not in ("heal", "convert") and not p["loc"].startswith("prison:"):
        return _("{tid} is a captive being carried home", tid=tid)
    if cap and cap["dead"] and eff != "heal":
        return _("{tid} is a body: only healing works on it", tid=tid)
    if "no_demigod" in c["icons"] and p["kind"] == "demigod":
        return _("{card} does not work on demigods", card=c["name_hu"])
    if p["loc"] == "nml":
        return _("{tid} is in No-Man's Land: no card can reach it", tid=tid)
    if ("base_only" in c["icons"] or eff in ("heal", "base_change")) and \
            in_own_base(state, seat, p):
        return None
    if not on_board(p["loc"]):
        return _("{tid} is in a Base: cards cannot reach into a Base", tid=tid)
    if not on_board(caster["loc"]):
        return _("the caster is not on the board")
    return ""


def _seat_target(state: State, seat: str, caster: Piece, play: Play, tid: str) -> str | None:
    """A player (Időcsapda) or his team-wide permanent (Ménes): in range of one of his
    visible pieces."""
    if tid == seat or not state["players"][tid]["alive"]:
        return _("{tid} is not an opponent in the game", tid=tid)
    if not on_board(caster["loc"]):
        return _("the caster is not on the board")
    reach = card_range(state, seat, play.card, play.k)
    dists = [board(state).distance(caster["loc"], p["loc"]) for p in state["pieces"].values()
             if p["owner"] == tid and on_board(p["loc"]) and not p["hidden"]]
    if not dists or min(dists) > reach:
        return _("none of {tid}'s pieces is within range {reach} of {caster}",
                 tid=tid, reach=reach, caster=play.caster)
    return None


def _effect_check(state: State, seat: str, play: Play) -> str | None:
    c = data.card(play.card)
    eff = c["effect"]
    check = _EFFECT_CHECKS.get(eff)
    if check is not None:
        return check(state, seat, play, c)
    return None


def _enemy_piece(state: State, seat: str, play: Play, c: dict[str, object]) -> str | None:
    if state["pieces"][play.targets[0]]["owner"] == seat:
        return _("{card} goes on an enemy piece", card=c["name_hu"])
    return None


def _wring(state: State, seat: str, play: Play, c: dict[str, object]) -> str | None:
    max_ep = c["max_ep"]
    assert isinstance(max_ep, int)
    why = _enemy_piece(state, seat, play, c)
    if why is None and state["pieces"][play.targets[0]]["ep"] > max_ep:
        return _("Kifacsarás destroys a piece with at most {max_ep} ÉP", max_ep=max_ep)
    return why


def _resource(state: State, seat: str, play: Play, c: dict[str, object]) -> str | None:
    if state["resources"][play.targets[0]]["owner"] == seat:
        return _("that is your own resource")
    return None


def _dark_flame(state: State, seat: str, play: Play, c: dict[str, object]) -> str | None:
    p = state["pieces"][play.targets[0]]
    if not on_board(p["loc"]) or p["ep"] < 7:
        return _("Sötét Láng takes 6 ÉP from one of your pieces on the board with >= 7 ÉP")
    return None


def _mist(state: State, seat: str, play: Play, c: dict[str, object]) -> str | None:
    if play.targets[0] in state["turn"].get("fled", []):
        return _("that piece has already fled")
    return None


def _capture(state: State, seat: str, play: Play, c: dict[str, object]) -> str | None:
    p = state["pieces"][play.targets[0]]
    if p["owner"] == seat:
        return _("{card} goes on an enemy piece", card=c["name_hu"])
    if p["summoned"]:
        return _("summoned pieces cannot be captured (Rulebook)")
    if not (status(p, "asleep") or status(p, "bound") or status(p, "immobile")):
        return _("Fogolyejtés takes a sleeping, immobilised or bound piece")
    if not free_transport(state, seat, p["loc"]):
        return _("none of your transport pieces with room stands on {loc}", loc=p["loc"])
    return None


def _convert(state: State, seat: str, play: Play, c: dict[str, object]) -> str | None:
    p = state["pieces"][play.targets[0]]
    cap = p["captive"]
    if p["loc"].startswith("prison:") and cap and cap["dead"]:
        return _("a body must be revived (healed) before it can be converted")
    if p["loc"].startswith("prison:") and cap and cap["unconvertible"]:
        return _("too late: this prisoner can no longer be converted (3-turn limit)")
    if p["loc"].startswith("prison:") and p["origin"] == seat:
        return _("that prisoner is already yours")
    return None


def _base_change(state: State, seat: str, play: Play, c: dict[str, object]) -> str | None:
    count = c["count"]
    assert isinstance(count, int)
    if len(play.targets) > count:
        return _("Bázisváltás moves at most {count} pieces", count=count)
    if len(state["players"][seat]["bases"]) < 2:
        return _("you own only one Base")
    for tid in play.targets:
        if state["pieces"][tid]["owner"] != seat:
            return _("{tid} is not one of your pieces", tid=tid)
    return None


def _heal(state: State, seat: str, play: Play, c: dict[str, object]) -> str | None:
    tid = play.targets[0]
    p = state["pieces"][tid]
    if p["loc"].startswith("prison:") and p["loc"] != f"prison:{seat}":
        return _("you can heal only prisoners in your own Base")
    cap = p["captive"]
    if cap and cap["dead"] and p["owner"] == seat and (
            p["ep"] != 0 or cap["turn_no"] != state["turn_no"]):
        # Rulebook "Fogolyejtés": "saját halott karaktereket nem lehet így
        # felgyógyítani!"; only a body at exactly 0 may still be healed (spec §5.12 [A])
        return (_("{tid} is your own captured body at {ep} ÉP: only a body at exactly 0, in the "
                  "turn it fell, can be healed back (Rulebook)",
                  tid=tid, ep=p["ep"]))
    return None


def _dispel(state: State, seat: str, play: Play, c: dict[str, object]) -> str | None:
    tid = play.targets[0]
    kind = classify_target(state, tid)
    if kind == "piece" and not state["pieces"][tid]["attached"]:
        return _("no permanent card is attached to {tid}", tid=tid)
    if kind == "marker" and state["markers"][tid]["kind"] != "T":
        return _("only a gate (T marker) is a permanent on the board")
    if kind == "seat" and not state["players"][tid]["herd"]:
        return _("{tid} has no team-wide permanent in play", tid=tid)
    if kind in ("field", "resource"):
        return _("Maradandóság Feloldása targets a piece, a gate or a player")
    return None


def _unbind(state: State, seat: str, play: Play, c: dict[str, object]) -> str | None:
    p = state["pieces"][play.targets[0]]
    if not p["status"] and not p["attached"]:
        return _("{targets} is neither bound nor carries a permanent card", targets=play.targets[0])
    return None


def _attach(state: State, seat: str, play: Play, c: dict[str, object]) -> str | None:
    if c.get("grant") == "telescope" and state["pieces"][play.targets[0]]["owner"] != seat:
        return _("Távcső goes on one of your pieces")
    return None


_EFFECT_CHECKS = {
    "status": _enemy_piece, "card_attack": _enemy_piece, "direct_damage": _enemy_piece,
    "kill": _enemy_piece, "false_journey": _enemy_piece, "wring": _wring,
    "capture": _capture, "destroy_resource": _resource, "dark_flame": _dark_flame,
    "mist": _mist, "convert": _convert, "base_change": _base_change, "heal": _heal,
    "dispel": _dispel, "unbind": _unbind, "attach": _attach,
}


def has_room(state: State, q: Piece) -> bool:
    """Can `q` take one more captive: a transport piece able to act, visible, not full."""
    if q["transport"] <= 0 or not can_act(q) or q["hidden"]:
        return False
    load = sum(1 for b in state["pieces"].values()
               if b["captive"] and b["captive"]["carrier"] == q["id"] and b["loc"] != "gone"
               and not b["loc"].startswith("prison:"))
    return load < q["transport"]


def free_transport(state: State, seat: str, field: str) -> Piece | None:
    for q in pieces_at(state, field):
        if q["owner"] == seat and has_room(state, q):
            return q
    return None


def pay(ctx: Context, seat: str, play: Play) -> int:
    state: State = ctx.state
    caster = state["pieces"][play.caster]
    extra = surcharge(state, caster, play.card)
    assert isinstance(extra, int)
    cost = price(state, seat, play.card, extra, play.k)
    state["players"][seat]["energy"] -= cost
    state["players"][seat]["hand"].remove(play.card)
    return cost


def announce(ctx: Context, seat: str, play: Play, cost: int) -> None:
    c = data.card(play.card)
    state: State = ctx.state
    if hidden_play(play.card):
        ctx.log.private([seat], "play", _("You play {card} ({card2}) with {caster} on {targets} for"
                                          " {cost} energy",
                                          card=c["name_hu"], card2=play.card, caster=play.caster,
                                          targets=" ".join(play.targets), cost=cost))
        caster = name_of(state, play.caster)
        ctx.log.public("play_hidden", _(
            "{seat} plays a face-down card with {piece} on {target}", seat=seat, piece=caster,
            target=name_of(state, play.targets[0])) if c["effect"] == "timed_death" else _(
            "{seat} plays a face-down card with {piece}", seat=seat, piece=caster), seat=seat)
        return
    tgt = join([name_of(state, t) if t in state["pieces"] else t for t in play.targets], " ")
    args = {"seat": seat, "card": card_label(play.card), "caster": name_of(state, play.caster),
            "targets": tgt, "k": play.k}
    if tgt and play.k != 1:
        text = _("{seat} plays {card} with {caster} on {targets} at x{k}", **args)
    elif tgt:
        text = _("{seat} plays {card} with {caster} on {targets}", **args)
    elif play.k != 1:
        text = _("{seat} plays {card} with {caster} at x{k}", **args)
    else:
        text = _("{seat} plays {card} with {caster}", **args)
    ctx.log.public("play", text, seat=seat, card=play.card)
    ctx.log.private([seat], "energy", _("It costs {cost} energy; you have {energy} left",
                                        cost=cost, energy=state["players"][seat]["energy"]), cost=cost)


def resolve_card(ctx: Context, seat: str, play: Play) -> None:
    """The card's own text (data/cards.toml), applied by its registered effect. General
    cards go to the graveyard when their effect ends; summons and permanents stay in play
    (Rulebook "A kártyalapok felépítése")."""
    if not EFFECTS(data.card(play.card)["effect"], ctx, seat, play):
        to_grave(ctx.state, seat, play.card)
