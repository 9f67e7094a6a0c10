"""Movement: steps, transport, fleeing, deployment, Bases and No-Man's Land, teleport
gates, traps and hidden creatures met on the way, intruders in a foreign Base.

Rulebook "Mozgások a játéktéren" (steps across triangle edges, 1 MÉ each, shared among
pieces), "Teleportálás" (2d6 steps in any direction, or to another gate; intermediate
fields untouched; remaining steps still taken), "Hazatérés", "A Senki Földje", "Csapdák",
"A megidézett lények", "Fogolyejtés" (intruders), "Szállítás"; spec §5.3-§5.5, §5.14,
§5.15, §5.17.

A move is a task so that it can wait for free attacks (fleeing) and for the TELEPORT
window; its progress (`i`, steps left) is kept in the task.
"""

from __future__ import annotations

from typing import Any

from pbem.rulesets.cherubion import data
from pbem.rulesets.cherubion.life import damage, end_status, kill, to_grave
from pbem.rulesets.cherubion.model import (
    Ctx,
    State,
    board,
    can_step,
    engaged,
    has_flag,
    hostile,
    name_of,
    on_board,
    side_owner,
    visible_hostiles_at,
)
from pbem.rulesets.cherubion.orders import Move, parse_line
from pbem.rulesets.cherubion.reactions import window


def _home_from_nml(ctx: Ctx, p: dict[str, Any]) -> str:
    """`MOVE <piece> HOME` for a piece that stayed in No-Man's Land: it teleports home
    (Rulebook "A Senki Földje": "onnan lehet teleportálni a Bázisra"), free of MÉ like the
    teleport on entering; it may be deployed again from its player's next turn. No card can
    reach a piece in No-Man's Land, so no TELEPORT window opens."""
    st = ctx.state
    bases = st["players"][p["owner"]]["bases"]
    if not can_step(p):
        ctx.pub("skipped", f"{name_of(st, p['id'])} cannot teleport (immobilised)")
    elif not bases:
        ctx.pub("skipped", f"{name_of(st, p['id'])} has no Base to go home to")
    else:
        p["loc"] = f"base:{bases[0]}"
        p["home_turn"] = st["players"][p["owner"]]["turns"]
        ctx.pub("home", f"{name_of(st, p['id'])} goes home from No-Man's Land "
                f"(Base on side {bases[0]})")
        # bodies it carried into No-Man's Land arrive with it
        carried = [q for q in st["pieces"].values() if q["loc"] == "nml"
                   and (q.get("body") or {}).get("by") == p["id"]]
        _arrive_bodies(ctx, carried, p["owner"], bases[0], nml=False)
    return "done"


def move_problem(st: State, seat: str, mv: Move) -> str | None:
    p = st["pieces"].get(mv.piece)
    if p is None or p["owner"] != seat or p["loc"] == "gone":
        return f"{mv.piece} is not one of your pieces"
    if not on_board(p["loc"]):
        return f"{mv.piece} is not on the board (use DEPLOY)"
    if p.get("body"):
        return f"{mv.piece} is a captive"
    if not can_step(p):
        return f"{mv.piece} cannot move (asleep, bound or immobilised)"
    if mv.piece in st["turn"].get("attacked", []):
        return f"{mv.piece} has attacked this turn and may not move on (spec §5.8 [A])"
    if p["summoned"] and not p["own_me"] and not st["config"]["options"].get("summon_move"):
        return f"{mv.piece} is a summoned piece without its own MÉ: it moves only when carried"
    if mv.piece in st["turn"].get("own_moved", []):
        return f"{mv.piece} has already used its own MÉ this turn"
    for c in mv.carry:
        q = st["pieces"].get(c)
        if q is None or q["loc"] != p["loc"] or q["loc"] == "gone":
            return f"passenger {c} is not on {p['loc']} with {mv.piece}"
        if q["owner"] != seat:
            return f"passenger {c} is not yours"
        if q.get("body"):
            return f"{c} is a captive: it travels with its transporter anyway"
        if "immobile" in q.get("status", {}):
            return f"{c} is immobilised: it cannot even be carried (Mozdulatlanság)"
    if len(mv.carry) > p["transport"]:
        return f"{mv.piece} carries at most {p['transport']} pieces"
    if mv.flee and not engaged(st, p):
        return f"{mv.piece} is not engaged: nothing to flee from (use MOVE)"
    if engaged(st, p) and mv.piece in st["turn"].get("attacked", []):
        return f"{mv.piece} attacked this turn; fleeing replaces the attack"
    return None


def task_move(ctx: Ctx, task: dict[str, Any]) -> str:
    st = ctx.state
    mv = parse_line(task["order"], st["n"])
    assert isinstance(mv, Move)
    seat = task["seat"]
    p = st["pieces"].get(mv.piece)
    if task["stage"] == 0 and p is not None and p["owner"] == seat and p["loc"] == "nml" \
            and mv.path == ("HOME",) and not mv.to:
        return _home_from_nml(ctx, p)
    if task["stage"] == 0:
        why = move_problem(st, seat, mv)
        if why:
            ctx.pub("skipped", f"{seat}: {mv} skipped: {why}", seat=seat)
            return "done"
        assert p is not None
        if p["summoned"] and p["own_me"]:
            roll, _ = data.roll_expr(ctx.dice, p["own_me"], f"own MÉ, {name_of(st, p['id'])}")
            task["own"] = roll
            st["turn"].setdefault("own_moved", []).append(p["id"])
            ctx.pub("own_me", f"{name_of(st, p['id'])} rolls its own MÉ: {roll}")
        task["stage"] = 1
        if engaged(st, p):
            # fleeing (Rulebook "Menekülés"): free attacks first, then the move
            from pbem.rulesets.cherubion.combat import free_attack_tasks
            st["turn"].setdefault("fled", []).append(p["id"])
            ctx.pub("flee", f"{name_of(st, p['id'])} flees from {p['loc']}")
            for c in mv.carry:
                st["turn"]["fled"].append(c)
            extra = free_attack_tasks(st, p)
            for c in mv.carry:
                extra += free_attack_tasks(st, st["pieces"][c])
            if extra:
                st["queue"][0:0] = extra + [task]
                return "moved"
    if p is None or p["loc"] == "gone" or not on_board(p["loc"]) or p.get("body"):
        return "done"
    if task["stage"] == 2:  # back from the TELEPORT window
        return _finish_teleport(ctx, task, mv, p)
    path = list(mv.path)
    if mv.to:
        avoid = frozenset(f for f in board(st).fields if visible_hostiles_at(st, seat, f))
        route = board(st).path_to(p["loc"], mv.to, avoid)
        if route is None:
            ctx.pub("skipped", f"{seat}: {mv} skipped: no route to {mv.to}")
            return "done"
        path = route
    return _walk(ctx, task, mv, p, path)


def _pay_step(ctx: Ctx, task: dict[str, Any], p: dict[str, Any]) -> bool:
    """One step's cost: the piece's own MÉ roll, then its bonus steps (Hétmérföldes
    Csizma), then the player's MÉ pool (Rulebook: 1 MÉ per field)."""
    st = ctx.state
    if "own" in task:
        if task["own"] > 0:
            task["own"] -= 1
            return True
        return False
    bonus = st["turn"].get("bonus", {})
    if bonus.get(p["id"], 0) > 0:
        bonus[p["id"]] -= 1
        return True
    pl = st["players"][p["owner"]]
    if pl["me"] > 0:
        pl["me"] -= 1
        return True
    return False


def _passengers(st: State, p: dict[str, Any], mv: Move) -> list[dict[str, Any]]:
    out = [st["pieces"][c] for c in mv.carry if st["pieces"][c]["loc"] == p["loc"]]
    out += [q for q in st["pieces"].values()
            if (q.get("body") or {}).get("by") == p["id"] and q["body"].get("carried")
            and q["loc"] == p["loc"]]
    return out


def _walk(ctx: Ctx, task: dict[str, Any], mv: Move, p: dict[str, Any], path: list[str]) -> str:
    st = ctx.state
    b = board(st)
    i = task.get("i", 0)
    while i < len(path):
        tok = path[i]
        if tok.startswith("GATE"):
            ctx.pub("skipped", f"{name_of(st, p['id'])}: GATE given but {p['loc']} is not a "
                    "gate just entered; the rest of the move is dropped")
            return "done"
        if tok in ("OUT", "HOME"):
            if p["loc"] not in b.side_of:
                ctx.pub("skipped", f"{name_of(st, p['id'])}: {p['loc']} is not a border field; "
                        "cannot step out")
                return "done"
            why = cross_problem(st, p, b.side_of[p["loc"]])
            if why:
                ctx.pub("skipped", f"{name_of(st, p['id'])} cannot step out: {why}")
                return "done"
            if tok == "HOME" and b.side_of[p["loc"]] in st["nml"] and p["kind"] != "demigod" \
                    and not p.get("hidden"):
                # No-Man's Land is a one-way gate home: Hamis Utazás II may divert it
                if not task.get("home_window"):
                    task["home_window"] = True
                    task["answered"] = []
                others = [s for s in st["players"] if hostile(st, s, p["owner"])]
                if window(ctx, task, "TELEPORT", others, {"piece": p["id"], "field": p["loc"]}):
                    return "wait"
                if task.get("diverted"):
                    if _pay_step(ctx, task, p):
                        enter_foreign_base(ctx, p, st["players"][task["diverted"]]["bases"][0])
                    return "done"
            if not _pay_step(ctx, task, p):
                ctx.pub("skipped", f"{name_of(st, p['id'])} stops: no MÉ left")
                return "done"
            cross(ctx, p, b.side_of[p["loc"]], home=tok == "HOME", passengers=_passengers(
                st, p, mv))
            return "done"
        if tok not in b.adj[p["loc"]]:
            ctx.pub("skipped", f"{name_of(st, p['id'])} stops on {p['loc']}: {tok} is not "
                    "adjacent")
            return "done"
        if not _pay_step(ctx, task, p):
            ctx.pub("skipped", f"{name_of(st, p['id'])} stops on {p['loc']}: no MÉ left")
            return "done"
        passengers = _passengers(st, p, mv)
        relocate(st, p, tok, passengers)
        i += 1
        task["i"] = i
        last = i == len(path)
        stop = enter_field(ctx, p, tok, final=last, passengers=passengers)
        if p["loc"] == "gone" or not on_board(p["loc"]):
            return "done"
        if stop:
            if not last:
                ctx.pub("stop", f"{name_of(st, p['id'])} stops on {tok}")
            return "done"
        if any(m["kind"] == "T" and m["field"] == tok for m in st["markers"].values()):
            # Rulebook "Teleportálás": entering a gate teleports the piece
            nxt = path[i] if i < len(path) else ""
            task["gate_field"] = tok
            task["gate_tok"] = nxt if nxt.startswith("GATE") else ""
            if task["gate_tok"]:
                i += 1
            task["rest"] = path[i:]
            task["stage"] = 2
            task["answered"] = []
            return _finish_teleport(ctx, task, mv, p)
    return "done"


def _finish_teleport(ctx: Ctx, task: dict[str, Any], mv: Move, p: dict[str, Any]) -> str:
    st = ctx.state
    others = [s for s in st["players"] if s != p["owner"] and hostile(st, s, p["owner"])]
    # card n17 Hamis Utazás II (NO_DEMIGOD) may divert the piece
    # a hidden piece cannot be targeted, and offering the window would reveal it
    if p["kind"] != "demigod" and not p.get("hidden") and window(ctx, task, "TELEPORT", others, {
            "piece": p["id"], "field": task["gate_field"]}):
        return "wait"
    if task.get("diverted"):
        seat = task["diverted"]
        enter_foreign_base(ctx, p, st["players"][seat]["bases"][0])
        return "done"
    b = board(st)
    gate = task["gate_field"]
    tok = task["gate_tok"]
    rest = list(task["rest"])
    if tok.startswith("GATE T"):
        mid = tok.split()[1]
        m = st["markers"].get(mid)
        if m is None or m["kind"] != "T" or m["field"] == gate:
            ctx.pub("skipped", f"{name_of(st, p['id'])}: gate {mid} does not exist; rolling")
            tok = ""
        else:
            land = m["field"]
            ctx.pub("teleport", f"{name_of(st, p['id'])} goes through the gate on {gate} to "
                    f"gate {mid} on {land}")
    if not tok.startswith("GATE T"):
        aim = tok.split()[2] if tok.startswith("GATE ROLL") else \
            next((t for t in reversed(rest) if t in b.fields), gate)
        k = sum(ctx.dice.rolls(2, 6, f"teleport roll, {p['id']} at {gate}"))
        cands = [f for f in b.fields if b.distance(gate, f) <= k
                 and (k - b.distance(gate, f)) % 2 == 0]
        land = min(cands, key=lambda f: (b.distance(f, aim), b.index[f]))
        ctx.pub("teleport", f"{name_of(st, p['id'])} teleports {k} steps from {gate} to {land}",
                roll=k)
        if not tok.startswith("GATE ROLL") and rest:
            # the planned path no longer fits: the remaining steps are walked toward its end
            n_rest = len([t for t in rest if t in b.fields])
            route = b.path_to(land, aim) or []
            rest = route[:n_rest]
    passengers = _passengers(st, p, mv)
    relocate(st, p, land, passengers)
    stop = enter_field(ctx, p, land, final=not rest, teleported=True, passengers=passengers)
    if tok.startswith("GATE ROLL") and not stop and on_board(p["loc"]):
        # Rulebook "Teleportálás": "a teleportálás után még négyet kell lépnie": the steps
        # left after a teleport are the teleported piece's. GATE ROLL ends its line (the
        # landing is not known in advance), so MÉ left at the end is walked by it first.
        st["turn"].setdefault("gate_roll", []).append(p["id"])
    if stop or p["loc"] == "gone" or not rest:
        return "done"
    task["stage"] = 1
    task["i"] = 0
    task.pop("gate_tok", None)
    return _walk(ctx, task, mv, p, rest)


def relocate(st: State, p: dict[str, Any], field: str, passengers: list[dict[str, Any]]) -> None:
    p["loc"] = field
    if p.get("hidden") and p["hidden"] in st["markers"]:
        st["markers"][p["hidden"]]["field"] = field
    for q in passengers:
        q["loc"] = field


def enter_field(ctx: Ctx, p: dict[str, Any], field: str, *, final: bool,
                teleported: bool = False,
                passengers: list[dict[str, Any]] | None = None) -> bool:
    """Effects of entering a field; True when the piece must stop there (spec §5.3):
    hidden markers of others (traps fire, hidden creatures reveal), guarding mole-turkeys,
    visible hostile pieces (flying pieces pass unless the move ends there)."""
    st = ctx.state
    seat = p["owner"]
    stop = False
    flying = has_flag(p, "flying")
    for mid, m in sorted(st["markers"].items()):
        if m["field"] != field or m["kind"] == "T" or not hostile(st, seat, m["owner"]):
            continue
        if m.get("piece"):
            q = st["pieces"][m["piece"]]
            reveal_piece(ctx, q, f"{name_of(st, p['id'])} runs into it")
            stop = True
            continue
        if flying:
            continue  # spec §2.5 [A]: flyers do not trigger ground traps
        c = data.card(m["card"])
        ctx.pub("trap", f"{name_of(st, p['id'])} steps on marker {mid}: it is "
                f"{c['name_hu']} ({c['name_en']})", marker=mid, card=m["card"])
        # Spec §2.8: Verem and Taposóakna hit "the first hostile piece to enter" (the
        # carrier, which enters first); Aknazár hits "every hostile piece that enters",
        # the carried ones too, while its three triggers last (spec §5.14, §5.17 [A]).
        # Bodies carried home are not pieces that fight; they are not hit.
        victims = [p] + [q for q in passengers or [] if q["loc"] == field
                         and not q.get("body") and hostile(st, q["owner"], m["owner"])]
        for v in victims:
            if m.get("uses", 1) <= 0:
                break
            dmg, faces = data.roll_expr(ctx.dice, c["damage"], f"{c['name_hu']} on {v['id']}")
            damage(ctx, v, dmg, c["name_hu"], m["owner"])
            m["uses"] = m.get("uses", 1) - 1
            if v is not p and v["ep"] < 0:
                kill(ctx, v, c["name_hu"], m["owner"])
        m["hidden"] = False
        if m["uses"] <= 0:
            del st["markers"][mid]
            to_grave(st, m["owner"], m["card"])
        if c.get("stops"):
            stop = True
        if p["ep"] < 0:
            kill(ctx, p, c["name_hu"], m["owner"])
            return True
    # guarding hidden creatures next door (card n02, spec §2.8 [A])
    b = board(st)
    for q in sorted(st["pieces"].values(), key=lambda x: x["id"]):
        if q.get("hidden") and "guard" in q["flags"] and hostile(st, seat, q["owner"]) \
                and q["loc"] in b.adj[field]:
            reveal_piece(ctx, q, f"{name_of(st, p['id'])} enters the area it guards")
            relocate(st, q, field, [])
            stop = True
    foes = visible_hostiles_at(st, seat, field)
    if foes and (final or not flying or stop):
        stop = True
        # Rulebook "Csapdák": a hidden monster's identity "csak akkor derül ki, ha ellenséges
        # karakterrel találkozik" (card n14: also when it attacks or is entered): a hidden
        # or invisible piece that walks onto a hostile piece is revealed and engaged too
        met = f"it meets {name_of(st, foes[0]['id'])}"
        for q in [p] + [q for q in passengers or [] if q["loc"] == field]:
            if q.get("hidden"):
                reveal_piece(ctx, q, met)
    if stop:
        ctx.pub("engage", f"{name_of(st, p['id'])} is engaged on {field}")
        if seat == st["active"]:
            # Rulebook: a character that gets into combat may give up its remaining steps
            st["turn"]["combat"] = True
    if "sense" in p["flags"]:
        sense(ctx, p)
    return stop


def reveal_piece(ctx: Ctx, q: dict[str, Any], why: str) -> None:
    st = ctx.state
    mid = q.get("hidden")
    if not mid:
        return
    st["markers"].pop(mid, None)
    q["hidden"] = None
    if any(a["card"] == "n14" for a in q["attached"]):
        a = next(a for a in q["attached"] if a["card"] == "n14")
        q["attached"].remove(a)
        to_grave(st, a["owner"], "n14")
    ctx.pub("reveal", f"Marker {mid} is revealed: {q['name']} ({q['id']}) of {q['owner']} "
            f"({why})", piece=q["id"], marker=mid)


def sense(ctx: Ctx, p: dict[str, Any]) -> None:
    """Volodyan (n27): hidden markers within 3 fields are turned face up; revealed traps
    stay active (spec §2.8 [A])."""
    st = ctx.state
    b = board(st)
    for mid, m in sorted(st["markers"].items()):
        if m["owner"] == p["owner"] or not m.get("hidden") or m["kind"] == "T":
            continue
        if b.distance(m["field"], p["loc"]) <= 3:
            if m.get("piece"):
                reveal_piece(ctx, st["pieces"][m["piece"]], f"sensed by {p['name']}")
            else:
                m["hidden"] = False
                ctx.pub("reveal", f"Marker {mid} is sensed: {data.card(m['card'])['name_hu']}")


def cross_problem(st: State, p: dict[str, Any], side: int) -> str | None:
    """Stepping over a border edge (Rulebook "A Senki Földje", "Hazatérés"; spec §5.4)."""
    if p["summoned"]:
        return "summoned pieces never enter a Base or No-Man's Land (Rulebook)"
    if side in st["nml"]:
        return None
    if side_owner(st, side) is None:
        return f"side {side} is closed"
    return None


def cross(ctx: Ctx, p: dict[str, Any], side: int, *, home: bool,
          passengers: list[dict[str, Any]]) -> None:
    st = ctx.state
    seat = p["owner"]
    group = [p] + [q for q in passengers if not q["summoned"] or q.get("body")]
    for q in group:
        if q.get("hidden"):
            reveal_piece(ctx, q, "it leaves the board")
    if side in st["nml"]:
        for q in group:
            q["loc"] = "nml"
        ctx.pub("nml", f"{name_of(st, p['id'])} steps into No-Man's Land")
        if home:
            side = st["players"][seat]["bases"][0]
            ctx.pub("home", f"{name_of(st, p['id'])} goes home through No-Man's Land")
        else:
            _arrive_bodies(ctx, group, seat, side, nml=True)
            return
    owner = side_owner(st, side)
    if owner == seat:
        for q in group:
            if q.get("body"):
                continue
            q["loc"] = f"base:{side}"
            q["home_turn"] = st["players"][seat]["turns"]
        ctx.pub("home", f"{name_of(st, p['id'])} returns to its Base (side {side})")
        _arrive_bodies(ctx, group, seat, side, nml=False)
        return
    for q in group:
        enter_foreign_base(ctx, q, side)


def _arrive_bodies(ctx: Ctx, group: list[dict[str, Any]], seat: str, side: int, *,
                   nml: bool) -> None:
    st = ctx.state
    for q in group:
        b = q.get("body")
        if not b:
            continue
        if nml:
            q["loc"] = "nml"
            continue
        q["loc"] = f"prison:{b['holder']}"
        b["clock"] = 1  # spec §5.13 step 4 [A]: the arrival turn is turn 1
        b["by"] = ""
        if q["id"] in st["players"][b["holder"]]["transit"]:
            st["players"][b["holder"]]["transit"].remove(q["id"])
        ctx.pub("prisoner", f"{q['name']} ({q['id']}) arrives in {b['holder']}'s Base as a "
                + ("body" if b.get("dead") else "prisoner"))


def enter_foreign_base(ctx: Ctx, p: dict[str, Any], side: int) -> None:
    """An intruder dies or becomes a prisoner, as the Base owner chooses (Rulebook
    "Fogolyejtés"); summoned pieces are destroyed (spec §5.15 [A]). The owner's INTRUDER
    standing order decides; the default is prisoner, but kill for demigods (spec DP9)."""
    st = ctx.state
    owner = side_owner(st, side)
    if p.get("hidden"):
        reveal_piece(ctx, p, "it leaves the board")
    if owner is None or owner == p["owner"]:
        p["loc"] = f"base:{side}"
        return
    from pbem.rulesets.cherubion.diplomacy import merged
    if merged(st, owner, p["owner"]) and st["players"][p["owner"]]["bases"]:
        # Rulebook "Diplomácia": joined teams count as one; a piece reaching the partner's
        # Base is home (in its own player's Base, where he can deploy it again)
        p["loc"] = f"base:{st['players'][p['owner']]['bases'][0]}"
        p["home_turn"] = st["players"][p["owner"]]["turns"]
        ctx.pub("home", f"{name_of(st, p['id'])} reaches its partner's Base: it is home")
        return
    if p["summoned"]:
        kill(ctx, p, f"a summoned piece entered {owner}'s Base", owner)
        return
    choice = st["players"][owner]["standing"].get("intruder")
    if choice is None and st["config"]["options"].get("decisions", "auto") == "ask":
        # decisions=ask: held in the Base until its owner decides in a short step
        p["loc"] = f"prison:{owner}"
        end_status(st, p)
        st.setdefault("decisions", []).append({"kind": "INTRUDER", "seat": owner,
                                               "piece": p["id"]})
        ctx.pub("intruder", f"{name_of(st, p['id'])} enters {owner}'s Base; {owner} decides "
                "its fate")
        from pbem.rulesets.cherubion.life import check_elimination
        check_elimination(ctx, owner)
        return
    if choice is None:
        choice = default_intruder(p)
    if choice == "kill":
        kill(ctx, p, f"killed as an intruder in {owner}'s Base", owner)
        return
    p["loc"] = f"prison:{owner}"
    end_status(st, p)
    ctx.pub("prisoner", f"{name_of(st, p['id'])} is taken prisoner in {owner}'s Base")
    from pbem.rulesets.cherubion.life import check_elimination
    check_elimination(ctx, owner)


def default_intruder(p: dict[str, Any]) -> str:
    """spec DP9 default: prisoner, but a demigod is killed."""
    return "kill" if p["kind"] == "demigod" else "prisoner"


def decide(ctx: Ctx, d: dict[str, Any], *, default: bool) -> None:
    """Apply a pending INTRUDER or LOSS decision: the seat's (new) standing order, or the
    default."""
    from pbem.rulesets.cherubion.life import apply_loss
    st = ctx.state
    seat = d["seat"]
    if d["kind"] == "LOSS":
        if default:
            st["players"][seat]["standing"].pop("loss", None)
        apply_loss(ctx, seat, d["loss"], d["rid"])
        return
    p = st["pieces"][d["piece"]]
    if p["loc"] != f"prison:{seat}":
        return
    choice = None if default else st["players"][seat]["standing"].get("intruder")
    choice = choice or default_intruder(p)
    if choice == "kill":
        kill(ctx, p, f"killed as an intruder in {seat}'s Base", seat)
    else:
        ctx.pub("prisoner", f"{name_of(st, p['id'])} is taken prisoner in {seat}'s Base")


def deploy_problem(st: State, seat: str, pid: str, field: str) -> str | None:
    """Deploy from a Base the player owns or from No-Man's Land, paying KK, onto a border
    field of that side (Rulebook "Mozgások a játéktéren", "Hazatérés"; spec §5.4 [A])."""
    p = st["pieces"].get(pid)
    if p is None or p["owner"] != seat or p["loc"] == "gone":
        return f"{pid} is not one of your pieces"
    b = board(st)
    pl = st["players"][seat]
    if p["loc"] == "nml":
        sides = list(st["nml"])
    elif p["loc"].startswith("base:") and int(p["loc"][5:]) in pl["bases"]:
        sides = [int(p["loc"][5:])]
        if st["config"]["variant"] == "multibase" and sides[0] in pl["own_sides"]:
            # Rulebook "Több Bázis használata": a player's teams move freely between his
            # own teams' Bases (spec §3.3 [A]: a free transfer when deploying)
            sides = [s for s in pl["own_sides"] if s in pl["bases"]]
    else:
        return f"{pid} is not in your Base or in No-Man's Land"
    if p["home_turn"] >= pl["turns"]:
        return f"{pid} came home this turn; it may be deployed from your next turn"
    if b.side_of.get(field) not in sides:
        return f"{field} is not a border field of side {'/'.join(map(str, sides))}"
    if pl["me"] < p["kk"]:
        return f"deploying {pid} costs {p['kk']} MÉ; you have {pl['me']}"
    return None


def deploy(ctx: Ctx, seat: str, pid: str, field: str) -> None:
    st = ctx.state
    p = st["pieces"][pid]
    st["players"][seat]["me"] -= p["kk"]
    p["loc"] = field
    ctx.pub("deploy", f"{seat} brings {name_of(st, pid)} into play on {field} ({p['kk']} MÉ)")
    enter_field(ctx, p, field, final=True)


def auto_spend(ctx: Ctx, seat: str) -> None:
    """Rulebook "Mozgások a játéktéren": every step must be taken unless a piece got into
    combat. Left-over MÉ is walked out by the engine (documented default): a piece that
    teleported by GATE ROLL this turn, else the piece with the lowest id that can step,
    moves to a neighbour without hostile pieces, gates or markers it knows of, and back,
    until the MÉ is used; with no such piece it lapses."""
    st = ctx.state
    pl = st["players"][seat]
    if pl["me"] <= 0:
        return
    if st["turn"].get("combat"):
        ctx.pub("forfeit", f"{seat} forfeits {pl['me']} MÉ after combat")
        pl["me"] = 0
        return
    b = board(st)
    rolled = st["turn"].get("gate_roll", [])  # see _finish_teleport: these walk first
    for p in sorted(st["pieces"].values(), key=lambda q: (q["id"] not in rolled, q["summoned"],
                                                          q["id"])):
        if p["owner"] != seat or not on_board(p["loc"]) or p.get("body") or p["summoned"]:
            continue
        if not can_step(p) or engaged(st, p) or p["id"] in st["turn"].get("attacked", []):
            continue
        safe = [f for f in b.adj[p["loc"]] if not visible_hostiles_at(st, seat, f)
                and not any(m["field"] == f and (m["kind"] == "T" or not m.get("hidden")
                                                 or m["owner"] == seat)
                            for m in st["markers"].values())]
        if not safe:
            continue
        start = p["loc"]
        ctx.pub("auto_steps", f"{seat} must use all {pl['me']} MÉ: {name_of(st, p['id'])} "
                f"walks {start}<->{safe[0]}")
        target = safe[0]
        while pl["me"] > 0 and p["loc"] != "gone" and on_board(p["loc"]):
            nxt = target if p["loc"] == start else start
            pl["me"] -= 1
            relocate(st, p, nxt, [])
            if enter_field(ctx, p, nxt, final=pl["me"] == 0):
                break
        if pl["me"] > 0:
            ctx.pub("forfeit", f"{seat} forfeits {pl['me']} MÉ")
        pl["me"] = 0
        return
    ctx.pub("forfeit", f"{seat} cannot spend {pl['me']} MÉ; it lapses")
    pl["me"] = 0


def transit(ctx: Ctx, seat: str) -> None:
    """A captive must be carried home with all MÉ (Rulebook "Fogolyejtés": everything goes
    into getting it back): the transporter walks to the body, picks it up free, then takes
    a shortest route to its own Base line and crosses (spec §5.13 step 3 [A])."""
    st = ctx.state
    pl = st["players"][seat]
    b = board(st)
    for qid in list(pl["transit"]):
        if qid not in pl["transit"]:
            continue  # delivered or lost with an earlier captive's carrier this turn
        q = st["pieces"][qid]
        body = q.get("body")
        if not body or q["loc"] == "gone":
            pl["transit"].remove(qid)
            continue
        t = st["pieces"].get(body["by"])
        if t is None or t["loc"] == "gone":
            continue
        if t["loc"] == "nml":
            _home_from_nml(ctx, t)  # the one way home from there, bodies and all
            continue
        while pl["me"] > 0 and on_board(t["loc"]) and can_step(t):
            if not body.get("carried"):
                if t["loc"] == q["loc"]:
                    body["carried"] = True
                    ctx.pub("pickup", f"{name_of(st, t['id'])} picks up {q['name']} ({qid})")
                    continue
                route = b.path_to(t["loc"], q["loc"]) or []
                goal_step = route[0] if route else None
            else:
                homes = [f for s in pl["bases"] for f in b.border[s]]
                if t["loc"] in homes:
                    pl["me"] -= 1
                    cross(ctx, t, b.side_of[t["loc"]], home=False,
                          passengers=[q])
                    break
                goal = min(homes, key=lambda f: (b.distance(t["loc"], f), b.index[f]))
                route = b.path_to(t["loc"], goal) or []
                goal_step = route[0] if route else None
            if goal_step is None:
                break
            pl["me"] -= 1
            carried = [q] if body.get("carried") else []
            relocate(st, t, goal_step, carried)
            ctx.pub("transit", f"{name_of(st, t['id'])} carries the captive on to {goal_step}"
                    if carried else f"{name_of(st, t['id'])} heads for the captive: {goal_step}")
            if enter_field(ctx, t, goal_step, final=False):
                break
