"""Movement: steps, transport, fleeing, deployment, Bases and No-Man's Land, teleport
gates, traps and hidden creatures met on the way, intruders in a foreign Base, carrying
captives home, and left-over MÉ.

Rulebook "Mozgások a játéktéren" (steps across triangle edges, 1 MÉ each, shared among
pieces, all must be used unless a piece fought), "Teleportálás" (2d6 steps in any
direction, or to another gate; intermediate fields untouched; remaining steps still
taken), "Hazatérés", "A Senki Földje", "Csapdák", "A megidézett lények", "Fogolyejtés"
(intruders, carrying home), "Szállítás", "Menekülés"; spec §5.3-§5.5, §5.14, §5.15, §5.17.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pbem.core.i18n import Msg, _
from pbem.core.kit import DONE, Context
from pbem.rulesets.cherubion import data
from pbem.rulesets.cherubion.orders import GRAMMAR, Intruder, Move
from pbem.rulesets.cherubion.rules.combat import exchange, free_attackers
from pbem.rulesets.cherubion.rules.life import (
    check_elimination,
    damage,
    end_status,
    kill,
    to_grave,
)
from pbem.rulesets.cherubion.rules.markers import reveal_piece, sense
from pbem.rulesets.cherubion.rules.queries import (
    ask_mode,
    board,
    can_step,
    card_label,
    cut_short,
    engaged,
    has_flag,
    hostile,
    hostile_fields,
    merged,
    name_of,
    on_board,
    piece_name,
    side_owner,
    visible_hostiles_at,
)
from pbem.rulesets.cherubion.rules.reactions import Item, window
from pbem.rulesets.cherubion.rules.results import (
    LEFT_THE_GAME,
    Result,
    changed,
    done,
    not_needed,
    refused,
)
from pbem.rulesets.cherubion.state import Piece, State


@dataclass
class Walk:
    """A move under way: the mover's own MÉ (a summon with its own dice), if any, and the
    steps taken so far."""

    own: int | None = None
    steps: int = 0

    def cut(self, why: str) -> Result:
        """The walk ends before its path does: refused if no step was taken, else changed."""
        return changed(_("{why}; the rest of the path was not taken", why=why)) if self.steps \
            else refused(why)


def _home_from_nml(ctx: Context, p: Piece) -> Result:
    """`MOVE <piece> HOME` for a piece that stayed in No-Man's Land: it teleports home
    (Rulebook "A Senki Földje": "onnan lehet teleportálni a Bázisra"), free of MÉ like the
    teleport on entering; it may be deployed again from its player's next turn. No card can
    reach a piece in No-Man's Land, so no TELEPORT window opens."""
    state: State = ctx.state
    bases = state["players"][p["owner"]]["bases"]
    if not can_step(p):
        why = _("{piece} cannot teleport (immobilised)", piece=name_of(state, p["id"]))
        ctx.log.public("skipped", why)
        return refused(why)
    if not bases:
        why = _("{piece} has no Base to go home to", piece=name_of(state, p["id"]))
        ctx.log.public("skipped", why)
        return refused(why)
    p["loc"] = f"base:{bases[0]}"
    p["home_turn"] = state["players"][p["owner"]]["turns"]
    ctx.log.public("home", _("{piece} goes home from No-Man's Land (Base on side {bases})",
                             piece=name_of(state, p["id"]), bases=bases[0]))
    # bodies it carried into No-Man's Land arrive with it
    carried = [q for q in state["pieces"].values() if q["loc"] == "nml"
               and q["captive"] and q["captive"]["carrier"] == p["id"]]
    _arrive_bodies(ctx, carried, nml=False)
    return done(_("home from No-Man's Land, in the Base on side {bases}", bases=bases[0]))


def move_problem(state: State, seat: str, mv: Move) -> str | None:
    p = state["pieces"].get(mv.piece)
    if p is None or p["owner"] != seat or p["loc"] == "gone":
        return _("{piece} is not one of your pieces", piece=mv.piece)
    if not on_board(p["loc"]):
        return _("{piece} is not on the board (use DEPLOY)", piece=mv.piece)
    if p["captive"]:
        return _("{piece} is a captive", piece=mv.piece)
    if not can_step(p):
        return _("{piece} cannot move (asleep, bound or immobilised)", piece=mv.piece)
    if mv.piece in state["turn"].get("attacked", []):
        return _("{piece} has attacked this turn and may not move on (spec §5.8 [A])",
                 piece=mv.piece)
    if p["summoned"] and not p["own_me"] and not state["config"]["options"]["summon_move"]:
        return _("{piece} is a summoned piece without its own MÉ: it moves only when carried",
                 piece=mv.piece)
    if mv.piece in state["turn"].get("own_moved", []):
        return _("{piece} has already used its own MÉ this turn", piece=mv.piece)
    why = _carry_problem(state, seat, mv, p)
    if why:
        return why
    if mv.flee and not engaged(state, p):
        return _("{piece} is not engaged: nothing to flee from (use MOVE)", piece=mv.piece)
    return None


def _carry_problem(state: State, seat: str, mv: Move, p: Piece) -> str | None:
    for c in mv.carry:
        q = state["pieces"].get(c)
        if q is None or q["loc"] != p["loc"] or q["loc"] == "gone":
            return _("passenger {c} is not on {loc} with {piece}",
                     c=c, loc=p["loc"], piece=mv.piece)
        if q["owner"] != seat:
            return _("passenger {c} is not yours", c=c)
        if q["captive"]:
            return _("{c} is a captive: it travels with its transporter anyway", c=c)
        if "immobile" in q["status"]:
            return _("{c} is immobilised: it cannot even be carried (Mozdulatlanság)", c=c)
    if len(mv.carry) > p["transport"]:
        return _("{piece} carries at most {transport} pieces",
                 piece=mv.piece, transport=p["transport"])
    return None


def move(ctx: Context, seat: str, mv: Move) -> Result:
    """Carry out a MOVE or FLEE line."""
    state: State = ctx.state
    p = state["pieces"].get(mv.piece)
    if p is not None and p["owner"] == seat and p["loc"] == "nml" and mv.path == ("HOME",) \
            and not mv.to:
        return _home_from_nml(ctx, p)
    why = move_problem(state, seat, mv)
    if why:
        return refused(why)
    assert p is not None
    walk = Walk()
    if p["summoned"] and p["own_me"]:
        walk.own, _dice = data.roll_expr(ctx.dice, p["own_me"], _("own MÉ, {piece}",
                                                                  piece=name_of(state, p["id"])))
        state["turn"].setdefault("own_moved", []).append(p["id"])
        ctx.log.public("own_me", _("{piece} rolls its own MÉ: {own}",
                                   piece=name_of(state, p["id"]), own=walk.own))
    if engaged(state, p):
        _flee(ctx, p, mv)
        if cut_short(state):
            return changed(LEFT_THE_GAME)
    if p["loc"] == "gone" or not on_board(p["loc"]) or p["captive"]:
        return changed(_("{piece} fell to the free attacks before it could step away",
                         piece=mv.piece))
    path = list(mv.path)
    if mv.to:
        avoid = hostile_fields(state, seat)
        route = board(state).path_to(p["loc"], mv.to, avoid)
        if route is None:
            return refused(_("no route to {to} around the enemies it knows of", to=mv.to))
        path = route
    return _walk(ctx, walk, mv, p, path)


def _flee(ctx: Context, p: Piece, mv: Move) -> None:
    """Fleeing (Rulebook "Menekülés"): every engaged enemy may make a free attack first."""
    state: State = ctx.state
    state["turn"].setdefault("fled", []).append(p["id"])
    ctx.log.public("flee", _("{piece} flees from {loc}",
                             piece=name_of(state, p["id"]), loc=p["loc"]))
    for c in mv.carry:
        state["turn"]["fled"].append(c)
    attacks = [(q, p["id"]) for q in free_attackers(state, p)]
    for c in mv.carry:
        attacks += [(q, c) for q in free_attackers(state, state["pieces"][c])]
    for att, target in attacks:
        exchange(ctx, att, target, free=True)
        if cut_short(state):
            return


def _pay_step(ctx: Context, walk: Walk, p: Piece) -> bool:
    """One step's cost: the piece's own MÉ roll, then its bonus steps (Hétmérföldes
    Csizma), then the player's MÉ pool (Rulebook: 1 MÉ per field)."""
    state: State = ctx.state
    if walk.own is not None:
        if walk.own > 0:
            walk.own -= 1
            return True
        return False
    bonus = state["turn"].get("bonus", {})
    if bonus.get(p["id"], 0) > 0:
        bonus[p["id"]] -= 1
        return True
    pl = state["players"][p["owner"]]
    if pl["me"] > 0:
        pl["me"] -= 1
        return True
    return False


def _passengers(state: State, p: Piece, mv: Move) -> list[Piece]:
    out = [state["pieces"][c] for c in mv.carry if state["pieces"][c]["loc"] == p["loc"]]
    out += [q for q in state["pieces"].values()
            if q["captive"] and q["captive"]["carrier"] == p["id"] and q["captive"]["carried"]
            and q["loc"] == p["loc"]]
    return out


def _walk(ctx: Context, walk: Walk, mv: Move, p: Piece, path: list[str]) -> Result:
    state: State = ctx.state
    b = board(state)
    i = 0
    while i < len(path):
        tok = path[i]
        if tok.startswith("GATE"):
            ctx.log.public("skipped", _("{piece}: GATE given but {loc} is not a gate just entered; "
                                        "the rest of the move is dropped",
                                        piece=name_of(state, p["id"]), loc=p["loc"]))
            return walk.cut(_("{field}: {loc} is not a gate it just entered",
                              field=tok, loc=p["loc"]))
        if tok in ("OUT", "HOME"):
            return _step_out(ctx, walk, mv, p, tok)
        if tok not in b.adj[p["loc"]]:
            ctx.log.public("skipped", _("{piece} stops on {loc}: {field} is not adjacent",
                                        piece=name_of(state, p["id"]), loc=p["loc"], field=tok))
            return walk.cut(_("stopped on {loc}: {field} is not next to it",
                              loc=p["loc"], field=tok))
        if not _pay_step(ctx, walk, p):
            ctx.log.public("skipped", _("{piece} stops on {loc}: no MÉ left",
                                        piece=name_of(state, p["id"]), loc=p["loc"]))
            return walk.cut(_("stopped on {loc}: no MÉ left", loc=p["loc"]))
        walk.steps += 1
        passengers = _passengers(state, p, mv)
        relocate(state, p, tok, passengers)
        i += 1
        last = i == len(path)
        stop = enter_field(ctx, p, tok, final=last, passengers=passengers)
        if p["loc"] == "gone":
            return changed(_("{piece} died on {field}", piece=mv.piece, field=tok))
        if not on_board(p["loc"]):
            return changed(_("{piece} left the board from {field}", piece=mv.piece, field=tok))
        if stop:
            if not last:
                ctx.log.public("stop", _("{piece} stops on {field}",
                                         piece=name_of(state, p["id"]), field=tok))
                return walk.cut(_("stopped on {field}: it is engaged there", field=tok))
            return done(_("{piece} on {field}, engaged", piece=mv.piece, field=tok))
        if any(m["kind"] == "T" and m["field"] == tok for m in state["markers"].values()):
            # Rulebook "Teleportálás": entering a gate teleports the piece
            nxt = path[i] if i < len(path) else ""
            gate_tok = nxt if nxt.startswith("GATE") else ""
            if gate_tok:
                i += 1
            return _teleport(ctx, walk, mv, p, tok, gate_tok, path[i:])
    return done(_("{piece} on {loc}", piece=mv.piece, loc=p["loc"]))


def _step_out(ctx: Context, walk: Walk, mv: Move, p: Piece, tok: str) -> Result:
    """OUT or HOME: over the border edge of the piece's field (Rulebook "Hazatérés", "A
    Senki Földje")."""
    state: State = ctx.state
    b = board(state)
    if p["loc"] not in b.side_of:
        ctx.log.public("skipped", _("{piece}: {loc} is not a border field; cannot step out",
                                    piece=name_of(state, p["id"]), loc=p["loc"]))
        return walk.cut(_("{field}: {loc} is not a border field", field=tok, loc=p["loc"]))
    side = b.side_of[p["loc"]]
    why = cross_problem(state, p, side)
    if why:
        ctx.log.public("skipped", _("{piece} cannot step out: {why}",
                                    piece=name_of(state, p["id"]), why=why))
        return walk.cut(Msg("{field}: {why}", field=tok, why=why))
    if tok == "HOME" and side in state["nml_sides"] and p["kind"] != "demigod" \
            and not p["hidden"]:
        # No-Man's Land is a one-way gate home: Hamis Utazás II may divert it
        item = Item(None)
        foes = [s for s in state["players"] if hostile(state, s, p["owner"])]
        window(ctx, item, "TELEPORT", foes, {"piece": p["id"], "field": p["loc"]})
        if cut_short(state):
            return changed(LEFT_THE_GAME)
        if item.diverted:
            if _pay_step(ctx, walk, p):
                enter_foreign_base(ctx, p, state["players"][item.diverted]["bases"][0])
            return changed(_("diverted into {diverted}'s Base by Hamis Utazás II",
                             diverted=item.diverted))
    if not _pay_step(ctx, walk, p):
        ctx.log.public("skipped", _("{piece} stops: no MÉ left", piece=name_of(state, p["id"])))
        return walk.cut(_("stopped on {loc}: no MÉ left", loc=p["loc"]))
    cross(ctx, p, side, home=tok == "HOME", passengers=_passengers(state, p, mv))
    loc = p["loc"]
    if loc == "nml":
        return done(_("{piece} in No-Man's Land", piece=mv.piece))
    if loc.startswith("base:"):
        return done(_("{piece} in the Base on side {side}", piece=mv.piece, side=loc[5:]))
    if loc.startswith("prison:"):
        return done(_("{piece} a prisoner of {seat}", piece=mv.piece, seat=loc[7:]))
    return done(Msg("{piece} {loc}", piece=mv.piece, loc=loc))


def _teleport(ctx: Context, walk: Walk, mv: Move, p: Piece, gate: str, gate_tok: str,
              rest: list[str]) -> Result:
    """Rulebook "Teleportálás": through a gate to another gate (GATE Tn) or 2d6 steps in any
    direction (GATE ROLL f: landing nearest to f); the remaining steps are still taken."""
    state: State = ctx.state
    foes = [s for s in state["players"] if s != p["owner"] and hostile(state, s, p["owner"])]
    # card n17 Hamis Utazás II (NO_DEMIGOD) may divert the piece; a hidden piece cannot be
    # targeted, and offering the window would reveal it
    item = Item(None)
    if p["kind"] != "demigod" and not p["hidden"]:
        window(ctx, item, "TELEPORT", foes, {"piece": p["id"], "field": gate})
        if cut_short(state):
            return changed(LEFT_THE_GAME)
    if item.diverted:
        enter_foreign_base(ctx, p, state["players"][item.diverted]["bases"][0])
        return changed(_("diverted into {diverted}'s Base by Hamis Utazás II",
                         diverted=item.diverted))
    land = ""
    rerouted = ""
    if gate_tok.startswith("GATE T"):
        mid = gate_tok.split()[1]
        m = state["markers"].get(mid)
        if m is None or m["kind"] != "T" or m["field"] == gate:
            ctx.log.public("skipped", _("{piece}: gate {marker} does not exist; rolling",
                                        piece=name_of(state, p["id"]), marker=mid))
            rerouted = _("gate {marker} is gone: it rolled instead", marker=mid)
            gate_tok = ""
        else:
            land = m["field"]
            ctx.log.public("teleport", _("{piece} goes through the gate on {gate} to gate {marker} "
                                         "on {land}",
                                         piece=name_of(state, p["id"]), gate=gate, marker=mid,
                                         land=land))
    if not gate_tok.startswith("GATE T"):
        planned = rest
        land, rest = _roll_landing(ctx, p, gate, gate_tok, rest)
        if not gate_tok and planned:
            rerouted = rerouted or (_("the gate on {gate} teleported it to {land}; the steps left "
                                      "were walked toward {value}",
                                      gate=gate, land=land, value=planned[-1]))
    passengers = _passengers(state, p, mv)
    relocate(state, p, land, passengers)
    stop = enter_field(ctx, p, land, final=not rest, passengers=passengers)
    if gate_tok.startswith("GATE ROLL") and not stop and on_board(p["loc"]):
        # Rulebook "Teleportálás": "a teleportálás után még négyet kell lépnie": the steps
        # left after a teleport are the teleported piece's. GATE ROLL ends its line (the
        # landing is not known in advance), so MÉ left at the end is walked by it first.
        state["turn"].setdefault("gate_roll", []).append(p["id"])
    if p["loc"] == "gone":
        return changed(_("{piece} died on {land}", piece=mv.piece, land=land))
    result = done(_("{piece} teleported to {land}", piece=mv.piece, land=land)) if not rest or stop else \
        _walk(ctx, walk, mv, p, rest)
    if rerouted and result[0] == DONE:
        return changed(rerouted)
    return result


def _roll_landing(ctx: Context, p: Piece, gate: str, gate_tok: str,
                  rest: list[str]) -> tuple[str, list[str]]:
    """2d6 steps from the gate: the reachable field nearest to the aim (GATE ROLL's field,
    else the planned path's last field); without GATE ROLL the remaining steps are walked
    toward the path's end."""
    state: State = ctx.state
    b = board(state)
    aim = gate_tok.split()[2] if gate_tok.startswith("GATE ROLL") else \
        next((t for t in reversed(rest) if t in b.fields), gate)
    k = sum(data.rolls(ctx.dice, 2, 6, _("teleport roll, {piece} at {gate}", piece=p["id"], gate=gate)))
    cands = [f for f in b.fields if b.distance(gate, f) <= k
             and (k - b.distance(gate, f)) % 2 == 0]
    land = min(cands, key=lambda f: (b.distance(f, aim), b.index[f]))
    ctx.log.public("teleport", _("{piece} teleports {k} steps from {gate} to {land}",
                                 piece=name_of(state, p["id"]), k=k, gate=gate, land=land), roll=k)
    if not gate_tok.startswith("GATE ROLL") and rest:
        # the planned path no longer fits: the remaining steps are walked toward its end
        n_rest = len([t for t in rest if t in b.fields])
        rest = (b.path_to(land, aim) or [])[:n_rest]
    return land, rest


def relocate(state: State, p: Piece, field: str, passengers: list[Piece]) -> None:
    p["loc"] = field
    if p["hidden"] and p["hidden"] in state["markers"]:
        state["markers"][p["hidden"]]["field"] = field
    for q in passengers:
        q["loc"] = field


def enter_field(ctx: Context, p: Piece, field: str, *, final: bool,
                passengers: list[Piece] | None = None) -> bool:
    """Effects of entering a field; True when the piece must stop there (spec §5.3):
    hidden markers of others (traps fire, hidden creatures reveal), guarding mole-turkeys,
    visible hostile pieces (flying pieces pass unless the move ends there)."""
    state: State = ctx.state
    seat = p["owner"]
    stop = False
    for mid, m in sorted(state["markers"].items()):
        if m["field"] != field or m["kind"] == "T" or not hostile(state, seat, m["owner"]):
            continue
        if "piece" in m:
            reveal_piece(ctx, state["pieces"][m["piece"]], _("{piece} runs into it",
                                                             piece=name_of(state, p["id"])))
            stop = True
            continue
        if has_flag(p, "flying"):
            continue  # spec §2.5 [A]: flyers do not trigger ground traps
        stop = _trap(ctx, p, mid, passengers or []) or stop
        if p["ep"] < 0:
            kill(ctx, p, data.card(m["card"])["name_hu"], m["owner"])
            return True
    stop = _guards(ctx, p, field) or stop
    foes = visible_hostiles_at(state, seat, field)
    if foes and (final or not has_flag(p, "flying") or stop):
        stop = True
        # Rulebook "Csapdák": a hidden monster's identity "csak akkor derül ki, ha ellenséges
        # karakterrel találkozik" (card n14: also when it attacks or is entered): a hidden
        # or invisible piece that walks onto a hostile piece is revealed and engaged too
        met = _("it meets {piece}", piece=name_of(state, foes[0]["id"]))
        for q in [p] + [q for q in passengers or [] if q["loc"] == field]:
            if q["hidden"]:
                reveal_piece(ctx, q, met)
    if stop:
        ctx.log.public("engage", _("{piece} is engaged on {field}",
                                   piece=name_of(state, p["id"]), field=field))
        if seat == state["active"]:
            # Rulebook: a character that gets into combat may give up its remaining steps
            state["turn"]["combat"] = True
    if "sense" in p["flags"]:
        sense(ctx, p)
    return stop


def _trap(ctx: Context, p: Piece, mid: str, passengers: list[Piece]) -> bool:
    """A face-down trap fires. Spec §2.8: Verem and Taposóakna hit "the first hostile piece
    to enter" (the carrier, which enters first); Aknazár hits "every hostile piece that
    enters", the carried ones too, while its three triggers last (spec §5.14, §5.17 [A]).
    Bodies carried home are not pieces that fight; they are not hit. True: it stops."""
    state: State = ctx.state
    m = state["markers"][mid]
    c = data.card(m["card"])
    ctx.log.public("trap", _("{piece} steps on marker {marker}: it is {card}",
                             piece=name_of(state, p["id"]), marker=mid,
                             card=card_label(m["card"])), marker=mid, card=m["card"])
    victims = [p] + [q for q in passengers if q["loc"] == p["loc"]
                     and not q["captive"] and hostile(state, q["owner"], m["owner"])]
    for v in victims:
        if m.get("uses", 1) <= 0:
            break
        dmg, _dice = data.roll_expr(ctx.dice, c["damage"], _("{card} on {piece}",
                                                             card=c["name_hu"], piece=v["id"]))
        damage(ctx, v, dmg, c["name_hu"], m["owner"])
        m["uses"] = m.get("uses", 1) - 1
        if v is not p and v["ep"] < 0:
            kill(ctx, v, c["name_hu"], m["owner"])
    m["hidden"] = False
    if m.get("uses", 1) <= 0:
        del state["markers"][mid]
        to_grave(state, m["owner"], m["card"])
    return bool(c.get("stops"))


def _guards(ctx: Context, p: Piece, field: str) -> bool:
    """Guarding hidden creatures next door (card n02, spec §2.8 [A]) come out and stop it."""
    state: State = ctx.state
    b = board(state)
    stop = False
    for q in sorted(state["pieces"].values(), key=lambda x: x["id"]):
        if q["hidden"] and "guard" in q["flags"] and hostile(state, p["owner"], q["owner"]) \
                and q["loc"] in b.adj[field]:
            reveal_piece(ctx, q, _("{piece} enters the area it guards",
                                   piece=name_of(state, p["id"])))
            relocate(state, q, field, [])
            stop = True
    return stop


def cross_problem(state: State, p: Piece, side: int) -> str | None:
    """Stepping over a border edge (Rulebook "A Senki Földje", "Hazatérés"; spec §5.4)."""
    if p["summoned"]:
        return _("summoned pieces never enter a Base or No-Man's Land (Rulebook)")
    if side in state["nml_sides"]:
        return None
    if side_owner(state, side) is None:
        return _("side {side} is closed", side=side)
    return None


def cross(ctx: Context, p: Piece, side: int, *, home: bool, passengers: list[Piece]) -> None:
    state: State = ctx.state
    seat = p["owner"]
    group = [p] + [q for q in passengers if not q["summoned"] or q["captive"]]
    for q in group:
        if q["hidden"]:
            reveal_piece(ctx, q, _("it leaves the board"))
    if side in state["nml_sides"]:
        for q in group:
            q["loc"] = "nml"
        ctx.log.public("nml", _("{piece} steps into No-Man's Land", piece=name_of(state, p["id"])))
        if not home:
            _arrive_bodies(ctx, group, nml=True)
            return
        side = state["players"][seat]["bases"][0]
        ctx.log.public("home", _("{piece} goes home through No-Man's Land",
                                 piece=name_of(state, p["id"])))
    owner = side_owner(state, side)
    if owner == seat:
        for q in group:
            if q["captive"]:
                continue
            q["loc"] = f"base:{side}"
            q["home_turn"] = state["players"][seat]["turns"]
        ctx.log.public("home", _("{piece} returns to its Base (side {side})",
                                 piece=name_of(state, p["id"]), side=side))
        _arrive_bodies(ctx, group, nml=False)
        return
    for q in group:
        enter_foreign_base(ctx, q, side)


def _arrive_bodies(ctx: Context, group: list[Piece], *, nml: bool) -> None:
    state: State = ctx.state
    for q in group:
        c = q["captive"]
        if not c:
            continue
        if nml:
            q["loc"] = "nml"
            continue
        q["loc"] = f"prison:{c['captor']}"
        c["clock"] = 1  # spec §5.13 step 4 [A]: the arrival turn is turn 1
        c["carrier"] = ""
        transit = state["players"][c["captor"]]["transit"]
        if q["id"] in transit:
            transit.remove(q["id"])
        ctx.log.public("prisoner", _("{name} ({id}) arrives in {seat}'s Base as a body", name=piece_name(q["name"]), id=q["id"], seat=c["captor"]) if c["dead"] else _("{name} ({id}) arrives in {seat}'s Base as a prisoner", name=piece_name(q["name"]), id=q["id"], seat=c["captor"]))


def enter_foreign_base(ctx: Context, p: Piece, side: int) -> None:
    """An intruder dies or becomes a prisoner, as the Base owner chooses (Rulebook
    "Fogolyejtés"); summoned pieces are destroyed (spec §5.15 [A])."""
    state: State = ctx.state
    owner = side_owner(state, side)
    if p["hidden"]:
        reveal_piece(ctx, p, _("it leaves the board"))
    if owner is None or owner == p["owner"]:
        p["loc"] = f"base:{side}"
        return
    if merged(state, owner, p["owner"]) and state["players"][p["owner"]]["bases"]:
        # Rulebook "Diplomácia": joined teams count as one; a piece reaching the partner's
        # Base is home (in its own player's Base, where he can deploy it again)
        p["loc"] = f"base:{state['players'][p['owner']]['bases'][0]}"
        p["home_turn"] = state["players"][p["owner"]]["turns"]
        ctx.log.public("home", _("{piece} reaches its partner's Base: it is home",
                                 piece=name_of(state, p["id"])))
        return
    if p["summoned"]:
        kill(ctx, p, _("a summoned piece entered {owner}'s Base", owner=owner), owner)
        return
    if intruder_choice(ctx, owner, p) == "kill":
        kill(ctx, p, _("killed as an intruder in {owner}'s Base", owner=owner), owner)
        return
    p["loc"] = f"prison:{owner}"
    end_status(state, p)
    ctx.log.public("prisoner", _("{piece} is taken prisoner in {owner}'s Base",
                                 piece=name_of(state, p["id"]), owner=owner))
    check_elimination(ctx, owner)


def default_intruder(p: Piece) -> str:
    """spec DP9 default: prisoner, but a demigod is killed."""
    return "kill" if p["kind"] == "demigod" else "prisoner"


def intruder_choice(ctx: Context, owner: str, p: Piece) -> str:
    """The Base owner's INTRUDER standing order; without one, with decisions=ask he is asked
    (the answer becomes his standing order); else the default (spec DP9)."""
    state: State = ctx.state
    standing = state["players"][owner]["standing"]
    choice = standing.get("intruder")
    if choice is None and ask_mode(state):
        answer = ctx.decide(owner, "INTRUDER", question=(
            _("{piece} entered your Base: take it prisoner or kill it? Your answer stays as your "
              "standing INTRUDER order.",
              piece=name_of(state, p["id"]))), default="PASS",
            options=("INTRUDER PRISONER", "INTRUDER KILL", "PASS"),
            public=_("what becomes of {piece} in their Base", piece=name_of(state, p["id"])))
        if answer == "PASS":
            ctx.log.public("pass", _("{owner} leaves it to the default", owner=owner))
        else:
            order = GRAMMAR.parse_line(state, owner, answer)
            assert isinstance(order, Intruder)
            choice = standing["intruder"] = "kill" if order.choice == "kill" else "prisoner"
    return choice or default_intruder(p)


def deploy_problem(state: State, seat: str, pid: str, field: str) -> str | None:
    """Deploy from a Base the player owns or from No-Man's Land, paying KK, onto a border
    field of that side (Rulebook "Mozgások a játéktéren", "Hazatérés"; spec §5.4 [A])."""
    p = state["pieces"].get(pid)
    if p is None or p["owner"] != seat or p["loc"] == "gone":
        return _("{piece} is not one of your pieces", piece=pid)
    pl = state["players"][seat]
    if p["loc"] == "nml":
        sides = list(state["nml_sides"])
    elif p["loc"].startswith("base:") and int(p["loc"][5:]) in pl["bases"]:
        sides = [int(p["loc"][5:])]
        if state["config"]["variant"] == "multibase" and sides[0] in pl["own_sides"]:
            # Rulebook "Több Bázis használata": a player's teams move freely between his
            # own teams' Bases (spec §3.3 [A]: a free transfer when deploying)
            sides = [s for s in pl["own_sides"] if s in pl["bases"]]
    else:
        return _("{piece} is not in your Base or in No-Man's Land", piece=pid)
    if p["home_turn"] >= pl["turns"]:
        return _("{piece} came home this turn; it may be deployed from your next turn", piece=pid)
    if board(state).side_of.get(field) not in sides:
        return _("{field} is not a border field of side {sides}",
                 field=field, sides="/".join(map(str, sides)))
    if pl["me"] < p["kk"]:
        return _("deploying {piece} costs {kk} MÉ; you have {me}",
                 piece=pid, kk=p["kk"], me=pl["me"])
    return None


def deploy(ctx: Context, seat: str, pid: str, field: str) -> None:
    state: State = ctx.state
    p = state["pieces"][pid]
    state["players"][seat]["me"] -= p["kk"]
    p["loc"] = field
    ctx.log.public("deploy", _("{seat} brings {piece} into play on {field} ({kk} MÉ)",
                               seat=seat, piece=name_of(state, pid), field=field, kk=p["kk"]))
    enter_field(ctx, p, field, final=True)


def walk_out(ctx: Context, seat: str, only: Sequence[str] | None = None) -> Result:
    """Left-over MÉ walked out by the engine (the NMR default, PASS; `only`: the pieces that
    teleported by GATE ROLL, whose steps after the teleport these are): a piece that
    teleported by GATE ROLL this turn, else the piece with the lowest id that can step,
    moves to a neighbour without hostile pieces, gates or markers it knows of, and back,
    until the MÉ is used; with no such piece it lapses; after combat it lapses (Rulebook
    "Mozgások a játéktéren": "kivételt képez, ha a karakter harcba bonyolódik"). Returns
    what happened to it."""
    state: State = ctx.state
    pl = state["players"][seat]
    left = pl["me"]
    if state["turn"].get("combat"):
        ctx.log.public("forfeit", _("{seat} forfeits {me} MÉ after combat", seat=seat, me=pl["me"]))
        pl["me"] = 0
        return not_needed(_("the {left} MÉ left lapse after combat (Rulebook \"Mozgások a "
                            "játéktéren\": \"kivételt képez, ha a karakter harcba bonyolódik\")",
                            left=left))
    b = board(state)
    rolled = state["turn"].get("gate_roll", [])  # see _teleport: these walk first
    for p in sorted(state["pieces"].values(), key=lambda q: (q["id"] not in rolled,
                                                              q["summoned"], q["id"])):
        if p["owner"] != seat or not on_board(p["loc"]) or p["captive"] or p["summoned"]:
            continue
        if only is not None and p["id"] not in only:
            continue
        if not can_step(p) or engaged(state, p) or p["id"] in state["turn"].get("attacked", []):
            continue
        safe = [f for f in b.adj[p["loc"]] if not visible_hostiles_at(state, seat, f)
                and not any(m["field"] == f and (m["kind"] == "T" or not m["hidden"]
                                                 or m["owner"] == seat)
                            for m in state["markers"].values())]
        if not safe:
            continue
        start, target = p["loc"], safe[0]
        ctx.log.public("auto_steps", _("{seat} must use all {me} MÉ: {piece} walks "
                                       "{start}<->{target}",
                                       seat=seat, me=pl["me"], piece=name_of(state, p["id"]),
                                       start=start, target=target))
        while pl["me"] > 0 and p["loc"] != "gone" and on_board(p["loc"]):
            nxt = target if p["loc"] == start else start
            pl["me"] -= 1
            relocate(state, p, nxt, [])
            if enter_field(ctx, p, nxt, final=pl["me"] == 0):
                break
        if pl["me"] > 0:
            ctx.log.public("forfeit", _("{seat} forfeits {me} MÉ", seat=seat, me=pl["me"]))
        walked = left - pl["me"]
        pl["me"] = 0
        if walked < left:
            return done(_("the engine walked out your {left} MÉ left: {piece} walked "
                          "{start}<->{target} ({walked} steps; the rest lapsed)", left=left,
                          piece=p["id"], start=start, target=target, walked=walked))
        return done(_("the engine walked out your {left} MÉ left: {piece} walked "
                      "{start}<->{target}", left=left, piece=p["id"], start=start,
                      target=target))
    ctx.log.public("forfeit", _("{seat} cannot spend {me} MÉ; it lapses", seat=seat, me=pl["me"]))
    pl["me"] = 0
    return not_needed(_("the {left} MÉ left lapse: no piece of yours can step", left=left))


def transit(ctx: Context, seat: str) -> None:
    """A captive must be carried home with all MÉ (Rulebook "Fogolyejtés": everything goes
    into getting it back): the transporter walks to the body, picks it up free, then takes
    a shortest route to its own Base line and crosses (spec §5.13 step 3 [A])."""
    state: State = ctx.state
    pl = state["players"][seat]
    for qid in list(pl["transit"]):
        if qid not in pl["transit"]:
            continue  # delivered or lost with an earlier captive's carrier this turn
        q = state["pieces"][qid]
        c = q["captive"]
        if not c or q["loc"] == "gone":
            pl["transit"].remove(qid)
            continue
        t = state["pieces"].get(c["carrier"])
        if t is None or t["loc"] == "gone":
            continue
        if t["loc"] == "nml":
            _home_from_nml(ctx, t)  # the one way home from there, bodies and all
            continue
        _carry_home(ctx, seat, q, t)


def _carry_home(ctx: Context, seat: str, q: Piece, t: Piece) -> None:
    state: State = ctx.state
    pl = state["players"][seat]
    b = board(state)
    c = q["captive"]
    assert c is not None
    while pl["me"] > 0 and on_board(t["loc"]) and can_step(t):
        if not c["carried"]:
            if t["loc"] == q["loc"]:
                c["carried"] = True
                ctx.log.public("pickup", _("{piece} picks up {name} ({piece2})",
                                           piece=name_of(state, t["id"]), name=piece_name(q["name"]),
                                           piece2=q["id"]))
                continue
            route = b.path_to(t["loc"], q["loc"]) or []
        else:
            homes = [f for s in pl["bases"] for f in b.border[s]]
            if t["loc"] in homes:
                pl["me"] -= 1
                cross(ctx, t, b.side_of[t["loc"]], home=False, passengers=[q])
                return
            goal = min(homes, key=lambda f: (b.distance(t["loc"], f), b.index[f]))
            route = b.path_to(t["loc"], goal) or []
        if not route:
            return
        pl["me"] -= 1
        carried = [q] if c["carried"] else []
        relocate(state, t, route[0], carried)
        ctx.log.public("transit", _("{piece} carries the captive on to {route}",
                                    piece=name_of(state, t["id"]), route=route[0]) if carried else _("{piece} heads for the captive: {route}",
                                                       piece=name_of(state, t["id"]),
                                                       route=route[0]))
        if enter_field(ctx, t, route[0], final=False):
            return
