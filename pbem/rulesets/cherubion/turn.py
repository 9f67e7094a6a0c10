"""The turn: start step (skips, energy, ticks, SCRY, MÉ roll), the action step (the active
seat's order script run line by line), mandatory melee, the end step, the next turn.

Rulebook "Mozgások a játéktéren" (MÉ = 2d6; double six rolls again), "Erőforrások"
(energy each turn, no carry-over, resources produce from the next turn, at most five,
upgrades), "Fogalmak" (kör = one player's turn, forduló = a round); spec §4.1, §5.2,
§5.6. The run loop drives tasks in `state["queue"]` (exchanges, card plays, moves) which
may stop at a reaction window; the loop resumes them after the answer.
"""

from __future__ import annotations

from typing import Any

from pbem.rulesets.cherubion import data
from pbem.rulesets.cherubion.cards import announce, apply_effect, check_play, hidden_play, pay
from pbem.rulesets.cherubion.combat import melee_tasks, task_exchange
from pbem.rulesets.cherubion.life import damage, eliminate, end_status, kill, remove_piece, to_grave
from pbem.rulesets.cherubion.model import (
    Ctx,
    State,
    alive_seats,
    board,
    name_of,
    on_board,
    pieces_at,
)
from pbem.rulesets.cherubion.movement import (
    auto_spend,
    deploy,
    deploy_problem,
    task_move,
    transit,
)
from pbem.rulesets.cherubion.orders import (
    Attack,
    Build,
    CaptureWith,
    Clear,
    Cond,
    Deploy,
    Draw,
    Else,
    Execute,
    FreeAttack,
    If,
    Intruder,
    Loss,
    Move,
    Play,
    Scry,
    StrikeBack,
    Surrender,
    Upgrade,
    When,
    parse_line,
)
from pbem.rulesets.cherubion.reactions import enemies, others, window
from pbem.rulesets.cherubion.resources import build, build_problem, upgrade, upgrade_problem
from pbem.rulesets.cherubion.setup import RESOURCE_TABLE

DRAW_COST = 4  # Rulebook: a card costs 4 MÉ


def roll_me(ctx: Ctx, seat: str) -> tuple[int, list[int]]:
    """2d6; on a double six roll 2d6 again and add, while double sixes come (Rulebook
    "Mozgások a játéktéren"; spec TC-1)."""
    faces: list[int] = []
    total = 0
    n = 0
    while True:
        n += 1
        pair = ctx.dice.rolls(2, 6, f"MÉ roll, {seat}" + (f", re-roll {n - 1}" if n > 1 else ""))
        faces += pair
        total += sum(pair)
        if pair != [6, 6]:
            return total, faces


def production(st: State, seat: str) -> int:
    """Energy of a turn: active resources' output, +1 each while holding PRODUCTION
    (Rulebook "Speciális jelzések": two large make 12 instead of 10)."""
    from pbem.rulesets.cherubion.model import holder
    res = [r for r in st["resources"].values() if r["owner"] == seat and r["active"]]
    total = sum(RESOURCE_TABLE[r["size"]]["energy"] for r in res)
    if holder(st, "production") == seat:
        total += len(res)
    return total


def start_turn(ctx: Ctx) -> None:
    """Start steps of the active seat's turn until a turn needs orders or the game ends."""
    st = ctx.state
    while st["phase"] == "turn":
        seat = st["active"]
        pl = st["players"][seat]
        if _start_window(ctx):
            return  # decisions=ask: a seat is asked whether to play an instant first
        st["turn"].pop("opening", None)
        if not pl["alive"]:
            _end_turn(ctx)  # it surrendered while the window was open: the next seat
            continue
        st["turn_no"] += 1
        pl["turns"] += 1
        for r in st["resources"].values():
            if r["owner"] == seat:
                r["active"] = True  # Rulebook: built last turn, produces from now
        _ticks(ctx, seat)
        if st["phase"] != "turn":
            return
        if not pl["alive"]:
            _end_turn(ctx)  # its last character died of a start-of-turn tick
            continue
        if pl["skip"] > 0:
            # card ch04 Időcsapda: the player is out of the game for the turn
            pl["skip"] -= 1
            pl["trapped"] = True  # until his next turn that is not skipped (spec §10 #21)
            pl["energy"] = 0
            pl["me"] = 0
            ctx.pub("skip", f"{seat} misses this turn (Időcsapda); {pl['skip']} more to miss",
                    seat=seat)
            _end_turn(ctx)
            continue
        pl["trapped"] = False
        for owner, card in pl.get("trap_cards", []):
            to_grave(st, owner, card)  # Időcsapda's effect is over
        pl["trap_cards"] = []
        pl["energy"] = production(st, seat)
        if pl.get("busy"):
            # Diplomacy: the hostage exchange takes this turn; energy stays for instants
            pl["busy"] -= 1
            pl["me"] = 0
            ctx.pub("skip", f"{seat}'s turn goes on the hostage exchange", seat=seat)
            _end_turn(ctx)
            continue
        if _scry(ctx, seat):
            return  # decisions=ask: the seat is asked whose deck to look at first
        _roll_for_turn(ctx, seat)
        return


def _start_window(ctx: Ctx) -> bool:
    """The START window (Rulebook "A kártyalapok felépítése": instants at any time): as the
    turn begins, every other seat may remove what a hostile player has put on the board
    (a status, a permanent card, a gate, a Ménes) or heal a friendly piece (reactions.py).
    True when a seat is being asked."""
    st = ctx.state
    task = st["turn"].setdefault("start_window", {"answered": [], "start": True})
    if task.get("closed"):
        return False
    if window(ctx, task, "START", others(st, st["active"]), {}):
        return True
    task["closed"] = True
    return False


def _roll_for_turn(ctx: Ctx, seat: str) -> None:
    """Start step e (spec §4.1): the MÉ roll; then the seat's orders are awaited."""
    st = ctx.state
    pl = st["players"][seat]
    me, faces = roll_me(ctx, seat)
    me += 2 * pl["herd"]  # card ot01 Ménes [A]: +2 MÉ per turn
    pl["me"] = me
    pl["me_dice"] = faces
    ctx.pub("turn", f"Round {st['round']}: {seat}'s turn. MÉ roll "
            f"{'+'.join(map(str, faces))}" + (" +2 Ménes" * pl["herd"]) + f" = {me}",
            seat=seat, me=me, dice=faces)
    ctx.priv([seat], "energy", f"Your energy this turn: {pl['energy']}",
             energy=pl["energy"])
    st["awaiting_orders"] = True


def _ticks(ctx: Ctx, seat: str) -> None:
    """Start-of-turn ticks (spec §4.1 step 1c [A]): special damage, the HEAL field, the
    Timed Death Spell, revival clocks of bodies, Távcső."""
    from pbem.rulesets.cherubion.model import holder
    st = ctx.state
    b = board(st)
    for p in sorted(st["pieces"].values(), key=lambda q: q["id"]):
        if p["owner"] != seat or p["loc"] == "gone":
            continue
        if p.get("burn") and on_board(p["loc"]):
            damage(ctx, p, p["burn"], "special damage")
            if p["ep"] < 0:
                # the last seat known to have hurt it (the blow that set it burning)
                # destroyed it (Rulebook "A játék alapjai": the Base passes to its destroyer)
                kill(ctx, p, "special damage", p.get("last_hit"))
    if holder(st, "heal") == seat:
        f = next(f for f, e in b.special_fields().items() if e == "heal")
        hurt = [p for p in pieces_at(st, f) if p["ep"] < p["max"] and not p.get("body")]
        if hurt:
            p = min(hurt, key=lambda q: (q["ep"], q["id"]))
            p["ep"] += 1
            ctx.pub("heal", f"The HEAL field heals {name_of(st, p['id'])} 1 ÉP -> {p['ep']}")
    pl = st["players"][seat]
    for p in sorted(st["pieces"].values(), key=lambda q: q["id"]):
        for a in list(p.get("attached", [])):
            if a.get("due") is not None and a["owner"] == seat and pl["turns"] >= a["due"] \
                    and p["loc"] != "gone":
                ctx.pub("timed_death", f"Időzített Halálvarázs strikes {name_of(st, p['id'])}")
                kill(ctx, p, "Időzített Halálvarázs", seat)
    for p in sorted(st["pieces"].values(), key=lambda q: q["id"]):
        body = p.get("body")
        if body and p["loc"] == f"prison:{seat}" and body.get("clock"):
            body["clock"] += 1
    for p in sorted(st["pieces"].values(), key=lambda q: q["id"]):
        if p["owner"] == seat and "sense" in p["flags"] and on_board(p["loc"]) \
                and not p.get("hidden"):
            from pbem.rulesets.cherubion.movement import sense
            sense(ctx, p)  # Volodyan senses at the start of his controller's turn too
    for p in st["pieces"].values():
        if p["owner"] == seat and p["loc"] != "gone" and on_board(p["loc"]) and \
                any(a.get("grant") == "telescope" for a in p["attached"]):
            for mid, m in sorted(st["markers"].items()):
                if m["owner"] != seat and m.get("hidden") and \
                        b.distance(m["field"], p["loc"]) <= 3 and mid not in pl["known"]:
                    pl["known"][mid] = m["card"]
                    ctx.priv([seat], "telescope", f"Távcső: marker {mid} on {m['field']} is "
                             f"{data.card(m['card'])['name_hu']}")


def _scry(ctx: Ctx, seat: str) -> bool:
    """SCRY holder looks at the top card of one opponent's deck (Rulebook). Decks are not
    pre-shuffled: the top card is drawn at random now (visible to the scryer only) and
    stays on top until drawn. Whose deck (spec DP4): the SCRY standing order; else with
    decisions=ask and a choice to make the seat is asked in a short step (True returned;
    its answer becomes the standing order); else, and on PASS, the next opponent."""
    from pbem.rulesets.cherubion.model import holder
    st = ctx.state
    if holder(st, "scry") != seat:
        return False
    others = [s for s in alive_seats(st) if s != seat and st["players"][s]["pile"]]
    others = [s for s in _after(st, seat) if s in others]
    if not others:
        return False
    want = st["players"][seat]["standing"].get("scry")
    if want not in others and len(others) > 1 and not st["turn"].get("scry_asked") and \
            st["config"]["options"].get("decisions", "auto") == "ask":
        st["turn"]["scry_asked"] = True
        st["ask"] = {"seat": seat, "event": "SCRY", "info": {},
                     "options": [f"SCRY {s}" for s in others],
                     "text": ("You hold the SCRY field: whose deck's top card do you look at? "
                              "Your answer stays as your standing SCRY order; PASS looks at "
                              f"the next opponent's ({others[0]}).")}
        return True
    q = want if want in others else others[0]
    qp = st["players"][q]
    if qp["top"] is None:
        card = ctx.dice.draw(qp["pile"], f"top card of {q}'s deck (scry)", visible_to=[seat])
        qp["top"] = {"card": card, "seen_by": [seat]}
    elif seat not in qp["top"]["seen_by"]:
        qp["top"]["seen_by"].append(seat)
    ctx.priv([seat], "scry", f"SCRY: the top card of {q}'s deck is "
             f"{data.card(qp['top']['card'])['name_hu']}", card=qp["top"]["card"])
    return False


def _after(st: State, seat: str) -> list[str]:
    """The seats in turn order after `seat` (the next opponent first)."""
    order = st["order"]
    i = order.index(seat)
    return order[i + 1:] + order[:i]


def draw_card(ctx: Ctx, seat: str) -> str | None:
    st = ctx.state
    pl = st["players"][seat]
    if pl["top"] is not None:
        card = pl["top"]["card"]
        pl["top"] = None
    elif pl["pile"]:
        card = ctx.dice.draw(pl["pile"], f"card draw, {seat}", visible_to=[seat])
    else:
        return None
    pl["hand"].append(card)
    pl["hand"].sort()
    ctx.priv([seat], "draw", f"You draw {data.card(card)['name_hu']} ({card})", card=card)
    ctx.pub("draw_count", f"{seat} draws a card (4 MÉ)", seat=seat)
    return card


def store_standing(st: State, seat: str, orders: list[Any]) -> None:
    """Standing orders sent in any file replace those of the same kind (triggers: the
    whole list)."""
    pl = st["players"][seat]
    whens = [o for o in orders if isinstance(o, When)]
    if whens or any(isinstance(o, Clear) for o in orders):
        pl["triggers"] = [o.__dict__.copy() for o in whens]
    for o in orders:
        if isinstance(o, Intruder):
            pl["standing"]["intruder"] = o.choice
        elif isinstance(o, FreeAttack):
            pl["standing"]["freeattack"] = o.take
        elif isinstance(o, Loss):
            pl["standing"]["loss"] = list(o.pieces)
        elif isinstance(o, Scry):
            pl["standing"]["scry"] = o.seat
        elif isinstance(o, CaptureWith):
            pl["standing"]["capture"] = o.carrier
        elif isinstance(o, StrikeBack):
            plans = pl["standing"].setdefault("strikeback", {})
            if o.targets:
                plans[o.piece] = list(o.targets)
            else:
                plans.pop(o.piece, None)


def run(ctx: Ctx) -> None:
    """Drive the active turn: queued tasks, then the script, then mandatory melee and the
    end step, then the next turns' start steps, until orders or an answer are needed."""
    st = ctx.state
    guard = 0
    while st["phase"] == "turn":
        guard += 1
        if guard > 100000:
            raise AssertionError("cherubion: run loop does not terminate")
        if st["ask"] or st["awaiting_orders"]:
            return
        if st["turn"].get("opening"):
            start_turn(ctx)  # back from a question in the START window
            continue
        if st["turn"].get("scry_asked") is True:
            # back from the SCRY question: look, roll the MÉ, await the turn's orders
            st["turn"]["scry_asked"] = "done"
            _scry(ctx, st["active"])
            _roll_for_turn(ctx, st["active"])
            continue
        if not st["players"][st["active"]]["alive"] and (st["script"] or st["queue"]):
            # the active player was eliminated mid-turn: the rest of his script lapses, and
            # answers still on a stack go to their graveyards unresolved
            for t in st["queue"]:
                for f in t.get("frames", []) + [
                        f for sub in t.get("after_of", {}).values()
                        for f in sub.get("frames", [])]:
                    to_grave(st, f["seat"], parse_line(f["play"], st["n"]).card)
            st["script"] = []
            st["queue"] = []
            st["turn"]["melee_done"] = True
            # an exchange cut short still ends: who is below 0 dies now
            for p in sorted(st["pieces"].values(), key=lambda q: q["id"]):
                if p["loc"] != "gone" and not p.get("body") and p["ep"] < 0:
                    kill(ctx, p, "wounds of an exchange cut short", p.get("last_hit"))
            continue
        if st.get("decisions"):
            if _decision(ctx):
                return
            continue
        if st["queue"]:
            task = st["queue"].pop(0)
            res = TASKS[task["t"]](ctx, task)
            if res == "wait":
                st["queue"].insert(0, task)
                return
            continue
        if st["script"]:
            line = st["script"].pop(0)
            execute(ctx, st["active"], line)
            continue
        if not st["turn"].get("melee_done"):
            st["turn"]["melee_done"] = True
            seat = st["active"]
            if st["players"][seat]["transit"]:
                transit(ctx, seat)
            auto_spend(ctx, seat)
            st["queue"] += melee_tasks(st, seat)
            continue
        if not st["turn"].get("zero_done"):
            if _zero_window(ctx):
                return
            st["turn"]["zero_done"] = True
            continue
        _end_turn(ctx)
        start_turn(ctx)


def _decision(ctx: Ctx) -> bool:
    """The next pending INTRUDER/LOSS decision (decisions=ask and no standing order): ask
    its seat, or apply the answer (it became the seat's standing order) or the default.
    True when a question was opened."""
    from pbem.rulesets.cherubion.movement import decide
    st = ctx.state
    d = st["decisions"][0]
    seat = d["seat"]
    if not st["players"][seat]["alive"]:
        st["decisions"].pop(0)
        return False
    key = "loss" if d["kind"] == "LOSS" else "intruder"
    if d.get("default") or st["players"][seat]["standing"].get(key) is not None:
        st["decisions"].pop(0)
        decide(ctx, d, default=bool(d.get("default")))
        return False
    if d.get("asked"):
        d["default"] = True
        return False
    d["asked"] = True
    if d["kind"] == "LOSS":
        from pbem.rulesets.cherubion.life import loss_pool
        pool = sorted(loss_pool(st, seat), key=lambda p: (-p["ep"], p["id"]))
        opts = ["LOSS " + " ".join(p["id"] for p in pool)]
        text = (f"Your resource {d['rid']} was destroyed: your Base pieces lose {d['loss']} ÉP "
                "in total. Order them (each takes what it can before the next); your answer "
                "stays as your standing LOSS order.")
    else:
        opts = ["INTRUDER PRISONER", "INTRUDER KILL"]
        text = (f"{name_of(st, d['piece'])} entered your Base: take it prisoner or kill it? "
                "Your answer stays as your standing INTRUDER order.")
    st["ask"] = {"seat": seat, "event": d["kind"], "info": {}, "options": opts, "text": text}
    return True


def _zero_window(ctx: Ctx) -> bool:
    """End step (Rulebook "Fegyveres harc"): a piece at exactly 0 ÉP may be healed this
    turn by any player; every seat's ZERO trigger (or `ask`) is offered here in turn order
    after the active seat, then it dies."""
    st = ctx.state
    task = st["turn"].setdefault("zero_task", {"answered": {}})
    for p in sorted(st["pieces"].values(), key=lambda q: q["id"]):
        if p["loc"] == "gone" or p["ep"] != 0:
            continue
        body = p.get("body")
        if body and not (body.get("dead") and on_board(p["loc"])
                         and body.get("turn_no", st["turn_no"]) == st["turn_no"]):
            continue  # the 0-ÉP heal is for the turn it fell (Rulebook "Fegyveres harc")
        sub = task["answered"].setdefault(p["id"], {"answered": [], "zero": p["id"]})
        # Rulebook "Fegyveres harc": at exactly 0 "a healing card may still be played on
        # it in that turn", by anyone (spec §5.12: any player)
        # a hidden piece (invisible, face-down summon) is known to its owner only: no one
        # else can target it (spec §2.8 n14), and asking others would reveal it
        # spec §5.12 [A]: a captive body at exactly 0 not yet home may be healed by its
        # owner, which cancels the capture
        seats = [p["owner"]] if p.get("hidden") or body else alive_seats(st)
        if window(ctx, sub, "ZERO", seats, {"piece": p["id"],
                                            "mine_of": {p["owner"]: p["id"]}}):
            return True
    for p in sorted(st["pieces"].values(), key=lambda q: q["id"]):
        if p["loc"] != "gone" and p["ep"] == 0 and not p.get("body"):
            # whoever brought it to 0 destroyed it (Rulebook "A játék alapjai")
            kill(ctx, p, "left at 0 ÉP", p.get("last_hit"))
    from pbem.rulesets.cherubion.life import check_elimination
    for p in sorted(st["pieces"].values(), key=lambda q: q["id"]):
        body = p.get("body")
        if body and body.get("dead") and p["ep"] == 0 and p["loc"] != "gone":
            # a body captured at exactly 0 and not healed back by its owner is his no more:
            # if it was his last character, the captor takes his Base
            body["turn_no"] = None  # the turn's 0-ÉP heal is over
            check_elimination(ctx, body["holder"])
    return False


def _end_turn(ctx: Ctx) -> None:
    """End step: statuses expire, revival clocks, next seat; round wrap and round limit."""
    st = ctx.state
    seat = st["active"]
    pl = st["players"][seat]
    for p in st["pieces"].values():
        for name, s in list(p.get("status", {}).items()):
            if s["seat"] == seat and pl["turns"] >= s["until"]:
                end_status(st, p, name)
        body = p.get("body")
        if body and p["loc"] == f"prison:{seat}" and body.get("clock", 0) >= 3:
            if body.get("dead"):
                p["body"] = None
                remove_piece(st, p)
                ctx.pub("body_lost", f"The body of {p['name']} ({p['id']}) was not revived in "
                        "3 turns and is removed")
            elif not body.get("unconvertible") and body.get("healed"):
                # a revived body must be converted within the 3 turns too (Rulebook
                # "Fegyveres harc"); captives taken alive by a card have no such limit
                body["unconvertible"] = True
                ctx.pub("unconvertible", f"{p['name']} ({p['id']}) can no longer be converted")
    for owner, card in st["turn"].get("lasting", []):
        to_grave(st, owner, card)  # cards lasting "this turn" end (Erősítés, ...)
    st["turn"]["lasting"] = []
    pl["me"] = 0
    st["script"] = []
    st["queue"] = []
    if st["phase"] != "turn":
        return
    st["turn"] = {"opening": True}  # the next turn's record; start_turn runs its start
    alive = alive_seats(st)
    order = st["order"]
    i = order.index(seat)
    for k in range(1, len(order) + 1):
        nxt = order[(i + k) % len(order)]
        if nxt in alive:
            break
    if order.index(nxt) <= i:
        st["round"] += 1
        limit = st["config"]["options"].get("round_limit", 0)
        if limit and st["round"] > limit:
            _round_limit(ctx)
            return
    st["active"] = nxt


def _round_limit(ctx: Ctx) -> None:
    """Optional PBEM round limit (spec §8 [A]): score = KK of living characters + 3 x
    production + 10 if the demigod lives."""
    st = ctx.state
    scores = {}
    for s in alive_seats(st):
        chars = [p for p in st["pieces"].values() if p["owner"] == s and not p["summoned"]
                 and p["loc"] != "gone" and not p["loc"].startswith("prison:")]
        prod = sum(RESOURCE_TABLE[r["size"]]["energy"] for r in st["resources"].values()
                   if r["owner"] == s)
        demi = any(p["kind"] == "demigod" for p in chars)
        scores[s] = sum(p["kk"] for p in chars) + 3 * prod + (10 if demi else 0)
    best = max(scores.values())
    st["phase"] = "over"
    st["result"] = {"winners": sorted(s for s, v in scores.items() if v == best),
                    "reason": "round limit reached; score", "scores": scores}
    ctx.pub("game_over", "Round limit reached. Scores: " +
            ", ".join(f"{s} {v}" for s, v in sorted(scores.items())))


def transit_blocks(st: State, seat: str) -> bool:
    return bool(st["players"][seat]["transit"])


def execute(ctx: Ctx, seat: str, line: str) -> None:
    """Run one script line; an illegal command is skipped with an event saying why."""
    st = ctx.state
    o = parse_line(line, st["n"], tuple(st["players"]))
    pl = st["players"][seat]

    def skip(why: str) -> None:
        ctx.pub("skipped", f"{seat}: {o} skipped: {why}", seat=seat)

    if isinstance(o, If):
        ok = holds(st, seat, o.cond)
        st["turn"]["last_if"] = ok
        if ok:
            execute(ctx, seat, str(o.order))
        else:
            ctx.pub("condition", f"{seat}: IF {o.cond} does not hold; skipped", seat=seat)
        return
    if isinstance(o, Else):
        if st["turn"].get("last_if") is False:
            st["turn"]["last_if"] = None
            execute(ctx, seat, str(o.order))
        return
    st["turn"]["last_if"] = None

    if isinstance(o, (Draw, Deploy, Build, Upgrade)) and transit_blocks(st, seat):
        skip("all MÉ goes to carrying the captive home (Rulebook \"Fogolyejtés\")")
        return
    if isinstance(o, Move):
        if transit_blocks(st, seat) and not _is_transporter(st, seat, o.piece):
            skip("all MÉ goes to carrying the captive home")
            return
        st["queue"].append({"t": "move", "seat": seat, "order": str(o), "stage": 0})
    elif isinstance(o, Draw):
        if pl["me"] < DRAW_COST:
            skip(f"a card costs {DRAW_COST} MÉ; {pl['me']} left")
        elif not pl["pile"] and pl["top"] is None:
            skip("your deck is empty")
        else:
            pl["me"] -= DRAW_COST
            draw_card(ctx, seat)
    elif isinstance(o, Deploy):
        why = deploy_problem(st, seat, o.piece, o.field)
        if why:
            skip(why)
        else:
            deploy(ctx, seat, o.piece, o.field)
    elif isinstance(o, (Build, Upgrade)):
        st["queue"].append({"t": "build", "seat": seat, "order": str(o), "stage": 0})
    elif isinstance(o, Play):
        why = check_play(st, seat, o)
        if why:
            skip(why)
        else:
            st["queue"].append({"t": "card", "seat": seat, "order": str(o), "stage": 0})
    elif isinstance(o, Attack):
        att = st["pieces"].get(o.piece)
        if att is None or att["owner"] != seat:
            skip(f"{o.piece} is not one of your pieces")
        else:
            st["queue"].append({"t": "exchange", "att": o.piece, "dfd": o.target,
                                "capture": o.capture, "stage": 0})
    elif isinstance(o, Execute):
        p = st["pieces"].get(o.piece)
        if p is None or p["loc"] != f"prison:{seat}":
            skip(f"{o.piece} is not a prisoner in your Base")
        else:
            kill(ctx, p, f"executed by {seat}", seat)
    elif isinstance(o, Surrender):
        ctx.pub("surrender", f"{seat} surrenders", seat=seat)
        eliminate(ctx, seat, None, "surrendered")
        st["script"] = []
        st["queue"] = []
        if st["phase"] == "turn":
            st["turn"]["melee_done"] = True
            st["turn"]["zero_done"] = True
    # standing orders were stored when the file was read


def holds(st: State, seat: str, c: Cond) -> bool:
    """Evaluate an IF condition now (when the line is reached)."""
    from pbem.rulesets.cherubion.model import engaged
    pl = st["players"][seat]
    if c.subject == "ME":
        v = pl["me"]
        return v >= int(c.value) if c.test == ">=" else v < int(c.value)
    if c.subject == "ENERGY":
        v = pl["energy"]
        return v >= int(c.value) if c.test == ">=" else v < int(c.value)
    p = st["pieces"].get(c.subject)
    if p is not None and p.get("hidden") and p["owner"] != seat:
        p = None  # a piece the seat cannot see counts as absent (no leak through IF)
    alive = p is not None and p["loc"] != "gone" and not (p.get("body") or {}).get("dead")
    if c.test == "ALIVE":
        return alive
    if c.test == "DEAD":
        return not alive
    if not alive or p is None:
        return False
    if c.test == "ENGAGED":
        return engaged(st, p)
    if c.test == "AT":
        return p["loc"] == c.value
    return p["ep"] >= int(c.value) if c.test == ">=" else p["ep"] < int(c.value)


def _is_transporter(st: State, seat: str, pid: str) -> bool:
    return any((st["pieces"][q].get("body") or {}).get("by") == pid
               for q in st["players"][seat]["transit"])


def task_card(ctx: Ctx, task: dict[str, Any]) -> str:
    """A card play: check, pay, announce, the CAST window, then the effect (or the
    graveyard if countered: the cost stays paid, spec §2.8 n04)."""
    st = ctx.state
    seat = task["seat"]
    o = parse_line(task["order"], st["n"], tuple(st["players"]))
    assert isinstance(o, Play)
    if task["stage"] == 0:
        why = check_play(st, seat, o)
        if why:
            ctx.pub("skipped", f"{seat}: {o} skipped: {why}", seat=seat)
            return "done"
        cost = pay(ctx, seat, o)
        announce(ctx, seat, o, cost)
        task["stage"] = 1
    c = data.card(o.card)
    if task["stage"] == 1:
        hidden = hidden_play(o.card)
        owners = sorted({st["pieces"][t]["owner"] for t in o.targets
                         if t in st["pieces"] and st["pieces"][t]["owner"] != seat}
                        | {t for t in o.targets if t in st["players"] and t != seat}
                        | {st["resources"][t]["owner"] for t in o.targets
                           if t in st["resources"] and st["resources"][t]["owner"] != seat})
        mine = {}
        for t in o.targets:
            if t in st["pieces"]:
                mine[st["pieces"][t]["owner"]] = t
        # W1 (spec §5.21.1): every card announced openly may be answered by any other
        # seat (spec §5.21.2); a face-down play is not announced, so nobody can answer it
        if not hidden and window(ctx, task, "CAST", others(st, seat), {
                "card": o.card, "caster": o.caster, "seat": seat, "mine_of": mine,
                "concerns": owners}):
            return "wait"
        if task.get("countered"):
            to_grave(st, seat, o.card)
            ctx.pub("countered", f"{c['name_hu']} is cancelled")
            return "done"
        gone = [t for t in o.targets if (t in st["pieces"] and st["pieces"][t]["loc"] == "gone")
                or (t in st["players"] and not st["players"][t]["alive"])]
        if gone:
            # its target left play while the window was open (e.g. its player surrendered)
            to_grave(st, seat, o.card)
            ctx.pub("fizzle", f"{c['name_hu']} has no effect: {', '.join(gone)} left the game")
            return "done"
        apply_effect(ctx, seat, o)
        task["stage"] = 2
        if hidden:
            return "done"
    if task["stage"] == 2:
        # the AFTER window (Rulebook "A kártyalapok felépítése": instants at any time; spec
        # §5.21.2): the card left a permanent card or a binding status on a piece; every
        # other seat may remove it at once with Kötés Oldása / Maradandóság Feloldása
        for t in o.targets:
            p = st["pieces"].get(t)
            if p is None or p["loc"] == "gone" or p.get("hidden") or \
                    not (p["attached"] or p["status"]):
                continue
            sub = task.setdefault("after_of", {}).setdefault(t, {"answered": [], "after": t})
            if window(ctx, sub, "AFTER", others(st, seat), {
                    "card": o.card, "caster": o.caster, "seat": seat, "piece": t,
                    "mine_of": {p["owner"]: t}}):
                return "wait"
    return "done"


def task_build(ctx: Ctx, task: dict[str, Any]) -> str:
    """A build or upgrade (Rulebook "Erőforrások"): check, pay the MÉ and announce it, the
    BUILD window (W7, spec §5.21.1: an enemy may stop it with an instant, Rulebook "A
    kártyalapok felépítése"; the MÉ stays paid), then the resource is put up."""
    st = ctx.state
    seat = task["seat"]
    o = parse_line(task["order"], st["n"], tuple(st["players"]))
    assert isinstance(o, (Build, Upgrade))
    field = o.field
    if task["stage"] == 0:
        why = (build_problem(st, seat, o.size, field) if isinstance(o, Build)
               else upgrade_problem(st, seat, field, o.size))
        if why:
            ctx.pub("skipped", f"{seat}: {o} skipped: {why}", seat=seat)
            return "done"
        st["players"][seat]["me"] -= RESOURCE_TABLE[o.size]["me"]
        what = "upgrade the resource on" if isinstance(o, Upgrade) else "build a resource on"
        ctx.pub("build_announced", f"{seat} pays {RESOURCE_TABLE[o.size]['me']} MÉ to {what} "
                f"{field} ({o.size})", seat=seat, field=field)
        task["stage"] = 1
    if window(ctx, task, "BUILD", enemies(st, seat), {
            "field": field, "seat": seat, "size": o.size, "upgrade": isinstance(o, Upgrade)}):
        return "wait"
    if task.get("countered"):
        ctx.pub("build_stopped", f"{seat}'s {o.size} resource on {field} is stopped; the "
                f"{RESOURCE_TABLE[o.size]['me']} MÉ stay paid", seat=seat, field=field)
    elif isinstance(o, Build):
        build(ctx, seat, o.size, field)
    else:
        upgrade(ctx, seat, field, o.size)
    return "done"


TASKS = {"exchange": task_exchange, "move": task_move, "card": task_card,
         "build": task_build}
