"""The turn: the START window and start step (skips, energy, ticks, SCRY, MÉ roll), the
action step (the active seat's script, line by line), mandatory melee and the end step
(the ZERO window, statuses, revival clocks), the next turn, the round limit.

Rulebook "Mozgások a játéktéren" (MÉ = 2d6; double six rolls again), "Erőforrások"
(energy each turn, no carry-over, resources produce from the next turn), "Fogalmak" (kör =
one player's turn, forduló = a round), "Fegyveres harc" (exactly 0 ÉP may be healed in
that turn); spec §4.1, §5.2, §5.6.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from pbem.core.i18n import Msg, _
from pbem.core.kit import Context, Order
from pbem.rulesets.cherubion import data
from pbem.rulesets.cherubion.data import RESOURCE_TABLE
from pbem.rulesets.cherubion.orders import (
    Attack,
    Build,
    Cond,
    Deploy,
    Draw,
    Execute,
    Move,
    Play,
    Upgrade,
)
from pbem.rulesets.cherubion.rules.casting import play_card
from pbem.rulesets.cherubion.rules.combat import exchange, melee_pairs
from pbem.rulesets.cherubion.rules.life import (
    check_elimination,
    damage,
    end_status,
    kill,
    kill_wounded,
    remove_piece,
    to_grave,
)
from pbem.rulesets.cherubion.rules.markers import sense
from pbem.rulesets.cherubion.rules.movement import deploy, deploy_problem, move, transit
from pbem.rulesets.cherubion.rules.movement import walk_out as walk_out_me
from pbem.rulesets.cherubion.rules.queries import (
    after,
    alive_seats,
    ask_mode,
    board,
    carrier_of,
    engaged,
    holder,
    is_body,
    name_of,
    on_board,
    piece_name,
    pieces_at,
)
from pbem.rulesets.cherubion.rules.reactions import Item, others, window
from pbem.rulesets.cherubion.rules.resources import build_or_upgrade, production
from pbem.rulesets.cherubion.rules.results import (
    ROUND_LIMIT,
    Result,
    done,
    not_needed,
    refused,
)
from pbem.rulesets.cherubion.state import Piece, State

DRAW_COST = 4  # Rulebook: a card costs 4 MÉ


# --- the start of a turn ---------------------------------------------------------------------

def roll_me(ctx: Context, seat: str) -> tuple[int, list[int]]:
    """2d6; on a double six roll 2d6 again and add, while double sixes come (Rulebook
    "Mozgások a játéktéren"; spec TC-1)."""
    faces: list[int] = []
    total = 0
    n = 0
    while True:
        n += 1
        pair = data.rolls(ctx.dice, 2, 6, _("MÉ roll, {seat}, re-roll {n}", seat=seat, n=n - 1)
                              if n > 1 else _("MÉ roll, {seat}", seat=seat))
        faces += pair
        total += sum(pair)
        if pair != [6, 6]:
            return total, faces


def start_turn(ctx: Context) -> None:
    """Start steps of the active seat's turn (and of the next ones, for turns that are
    skipped) until a seat's orders are needed or the game ends."""
    state: State = ctx.state
    while state["phase"] == "turn":
        seat = state["active"]
        assert seat is not None
        pl = state["players"][seat]
        start_window(ctx)
        if not pl["alive"]:
            end_turn(ctx)  # it surrendered while the window was open: the next seat
            continue
        state["turn_no"] += 1
        pl["turns"] += 1
        for r in state["resources"].values():
            if r["owner"] == seat:
                r["active"] = True  # Rulebook: built last turn, produces from now
        ticks(ctx, seat)
        if state["phase"] != "turn":
            return
        if not pl["alive"]:
            end_turn(ctx)  # its last character died of a start-of-turn tick
            continue
        if _turn_skipped(ctx, seat):
            end_turn(ctx)
            continue
        scry(ctx, seat)
        _roll_for_turn(ctx, seat)
        return


def _turn_skipped(ctx: Context, seat: str) -> bool:
    """Időcsapda (ch04) and a hostage exchange (Diplomacy) take a whole turn."""
    state: State = ctx.state
    pl = state["players"][seat]
    if pl["skip_turns"] > 0:
        # card ch04 Időcsapda: the player is out of the game for the turn
        pl["skip_turns"] -= 1
        pl["trapped"] = True  # until his next turn that is not skipped (spec §10 #21)
        pl["energy"] = 0
        pl["me"] = 0
        ctx.log.public("skip", _("{seat} misses this turn (Időcsapda); {n} more to miss",
                                 seat=seat, n=pl["skip_turns"]), seat=seat)
        return True
    pl["trapped"] = False
    for owner, card in pl["time_trap_cards"]:
        to_grave(state, owner, card)  # Időcsapda's effect is over
    pl["time_trap_cards"] = []
    pl["energy"] = production(state, seat)
    if pl["hostage_turns"]:
        # Diplomacy: the hostage exchange takes this turn; energy stays for instants
        pl["hostage_turns"] -= 1
        pl["me"] = 0
        ctx.log.public("skip", _("{seat}'s turn goes on the hostage exchange", seat=seat),
                       seat=seat)
        return True
    return False


def start_window(ctx: Context) -> None:
    """The START window (Rulebook "A kártyalapok felépítése": instants at any time): as the
    turn begins, every other seat may remove what a hostile player has put on the board
    (a status, a permanent card, a gate, a Ménes) or heal a friendly piece (reactions.py)."""
    state: State = ctx.state
    active = state["active"]
    assert active is not None
    window(ctx, Item(None), "START", others(state, active), {})


def _roll_for_turn(ctx: Context, seat: str) -> None:
    """Start step e (spec §4.1): the MÉ roll; then the seat's orders are awaited."""
    state: State = ctx.state
    pl = state["players"][seat]
    me, faces = roll_me(ctx, seat)
    me += 2 * pl["herd"]  # card ot01 Ménes [A]: +2 MÉ per turn
    pl["me"] = me
    pl["me_dice"] = faces
    ctx.log.public("turn", _("Round {round}: {seat}'s turn. MÉ roll {dice} = {me}",
                             round=state["round"], seat=seat, me=me,
                             dice="+".join(map(str, faces)) + " +2 Ménes" * pl["herd"]),
                   seat=seat, me=me, dice=faces)
    ctx.log.private([seat], "energy", _("Your energy this turn: {energy}",
                                        energy=pl["energy"]), energy=pl["energy"])


def ticks(ctx: Context, seat: str) -> None:
    """Start-of-turn ticks (spec §4.1 step 1c [A]): special damage, the HEAL field, the
    Timed Death Spell, revival clocks of bodies, Volodyan, Távcső."""
    state: State = ctx.state
    for p in sorted(state["pieces"].values(), key=lambda q: q["id"]):
        if p["owner"] != seat or p["loc"] == "gone":
            continue
        if p.get("burn") and on_board(p["loc"]):
            damage(ctx, p, p.get("burn", 0), _("special damage"))
            if p["ep"] < 0:
                # the last seat known to have hurt it (the blow that set it burning)
                # destroyed it (Rulebook "A játék alapjai": the Base passes to its destroyer)
                kill(ctx, p, _("special damage"), p.get("last_hit"))
    _heal_field(ctx, seat)
    pl = state["players"][seat]
    for p in sorted(state["pieces"].values(), key=lambda q: q["id"]):
        for a in list(p["attached"]):
            if a.get("due") is not None and a["owner"] == seat and \
                    pl["turns"] >= a.get("due", 0) and p["loc"] != "gone":
                ctx.log.public("timed_death", _("Időzített Halálvarázs strikes {piece}",
                                                piece=name_of(state, p["id"])))
                kill(ctx, p, Msg("Időzített Halálvarázs"), seat)
    for p in sorted(state["pieces"].values(), key=lambda q: q["id"]):
        cap = p["captive"]
        if cap and p["loc"] == f"prison:{seat}" and cap["clock"]:
            cap["clock"] += 1
    for p in sorted(state["pieces"].values(), key=lambda q: q["id"]):
        if p["owner"] == seat and "sense" in p["flags"] and on_board(p["loc"]) \
                and not p["hidden"]:
            sense(ctx, p)  # Volodyan senses at the start of his controller's turn too
    _telescope(ctx, seat)


def _heal_field(ctx: Context, seat: str) -> None:
    """Rulebook "Speciális jelzések": the HEAL field heals its holder's most hurt piece."""
    state: State = ctx.state
    if holder(state, "heal") != seat:
        return
    f = next(f for f, e in board(state).special_fields().items() if e == "heal")
    hurt = [p for p in pieces_at(state, f) if p["ep"] < p["max_ep"] and not p["captive"]]
    if hurt:
        p = min(hurt, key=lambda q: (q["ep"], q["id"]))
        p["ep"] += 1
        ctx.log.public("heal", _("The HEAL field heals {piece} 1 ÉP -> {ep}",
                                 piece=name_of(state, p["id"]), ep=p["ep"]))


def _telescope(ctx: Context, seat: str) -> None:
    """Távcső: face-down markers within 3 fields of the piece carrying it become known."""
    state: State = ctx.state
    pl = state["players"][seat]
    b = board(state)
    for p in state["pieces"].values():
        if p["owner"] == seat and on_board(p["loc"]) and \
                any(a["grant"] == "telescope" for a in p["attached"]):
            for mid, m in sorted(state["markers"].items()):
                if m["owner"] != seat and m["hidden"] and \
                        b.distance(m["field"], p["loc"]) <= 3 and mid not in pl["known_markers"]:
                    pl["known_markers"][mid] = m["card"]
                    ctx.log.private([seat], "telescope", _(
                        "Távcső: marker {marker} on {field} is {card}", marker=mid,
                        field=m["field"], card=data.card(m["card"])["name_hu"]))


def scry(ctx: Context, seat: str) -> None:
    """SCRY holder looks at the top card of one opponent's deck (Rulebook). Decks are not
    pre-shuffled: the top card is drawn at random now (visible to the scryer only) and
    stays on top until drawn. Whose deck (spec DP4): the SCRY standing order; else with
    decisions=ask and a choice to make the seat is asked (its answer becomes the standing
    order); else, and on PASS, the next opponent."""
    state: State = ctx.state
    if holder(state, "scry") != seat:
        return
    alive = alive_seats(state)
    opponents = [s for s in after(state, seat) if s in alive and state["players"][s]["deck"]]
    if not opponents:
        return
    standing = state["players"][seat]["standing"]
    want = standing.get("scry")
    if want not in opponents and len(opponents) > 1 and ask_mode(state):
        answer = ctx.decide(seat, "SCRY", question=_(
            "You hold the SCRY field: whose deck's top card do you look at? Your answer stays "
            "as your standing SCRY order; PASS looks at the next opponent's ({seat}).",
            seat=opponents[0]),
            default="PASS", options=(*(f"SCRY {s}" for s in opponents), "PASS"),
            public=_("whose deck to look at (SCRY)"))
        if answer == "PASS":
            if standing.get("scry") is None:
                ctx.log.public("pass", _("{seat} leaves it to the default", seat=seat))
        else:
            want = standing["scry"] = answer.split()[1]
    q = want if want in opponents else opponents[0]
    qp = state["players"][q]
    top = qp["deck_top"]
    if top is None:
        card = ctx.dice.draw(qp["deck"], _("top card of {seat}'s deck (scry)", seat=q),
                             visible_to=[seat])
        top = qp["deck_top"] = {"card": card, "seen_by": [seat]}
    elif seat not in top["seen_by"]:
        top["seen_by"].append(seat)
    ctx.log.private([seat], "scry", _("SCRY: the top card of {seat}'s deck is {card}", seat=q,
                                      card=data.card(top["card"])["name_hu"]), card=top["card"])


# --- the action step: the script -------------------------------------------------------------

def draw_card(ctx: Context, seat: str) -> str | None:
    pl = ctx.state["players"][seat]
    top = pl["deck_top"]
    if top is not None:
        card = top["card"]
        pl["deck_top"] = None
    elif pl["deck"]:
        card = ctx.dice.draw(pl["deck"], _("card draw, {seat}", seat=seat), visible_to=[seat])
    else:
        return None
    pl["hand"].append(card)
    pl["hand"].sort()
    ctx.log.private([seat], "draw", _("You draw {card} ({id})", card=data.card(card)["name_hu"],
                                      id=card), card=card)
    ctx.log.public("draw_count", _("{seat} draws a card (4 MÉ)", seat=seat), seat=seat)
    return card


def holds(state: State, seat: str, c: Cond) -> bool:
    """Evaluate an IF condition now (when the line is reached)."""
    pl = state["players"][seat]
    if c.subject in ("ME", "ENERGY"):
        v = pl["me"] if c.subject == "ME" else pl["energy"]
        return v >= int(c.value) if c.test == ">=" else v < int(c.value)
    p = state["pieces"].get(c.subject)
    if p is not None and p["hidden"] and p["owner"] != seat:
        p = None  # a piece the seat cannot see counts as absent (no leak through IF)
    alive = p is not None and p["loc"] != "gone" and not is_body(p)
    if c.test == "ALIVE":
        return alive
    if c.test == "DEAD":
        return not alive
    if not alive or p is None:
        return False
    if c.test == "ENGAGED":
        return engaged(state, p)
    if c.test == "AT":
        return p["loc"] == c.value
    return p["ep"] >= int(c.value) if c.test == ">=" else p["ep"] < int(c.value)


def _carrying_home(state: State, seat: str) -> bool:
    return bool(state["players"][seat]["transit"])


def _is_transporter(state: State, seat: str, pid: str) -> bool:
    return any(carrier_of(state["pieces"][q]) == pid
               for q in state["players"][seat]["transit"])


CARRY_HOME = _("all MÉ goes to carrying the captive home (Rulebook \"Fogolyejtés\")")


def execute(ctx: Context, seat: str, o: Order) -> Result:
    """Carry out one turn order; an order that has become illegal is skipped with an event
    saying why (DESIGN §3) and a refused outcome."""
    state: State = ctx.state
    if isinstance(o, (Draw, Deploy, Build, Upgrade)) and _carrying_home(state, seat):
        return refused(CARRY_HOME)
    if isinstance(o, Move):
        if _carrying_home(state, seat) and not _is_transporter(state, seat, o.piece):
            return refused(CARRY_HOME)
        return move(ctx, seat, o)
    handler = _EXECUTE.get(type(o))
    assert handler is not None, o
    return handler(ctx, seat, o)


def _draw(ctx: Context, seat: str, o: Order) -> Result:
    pl = ctx.state["players"][seat]
    if pl["me"] < DRAW_COST:
        return refused(_("a card costs {cost} MÉ; {me} left", cost=DRAW_COST, me=pl["me"]))
    if not pl["deck"] and pl["deck_top"] is None:
        return refused(_("your deck is empty"))
    pl["me"] -= DRAW_COST
    card = draw_card(ctx, seat)
    return done(_("you drew {card} ({id})", card=data.card(card)["name_hu"], id=card)
                if card else "")


def _deploy(ctx: Context, seat: str, o: Order) -> Result:
    assert isinstance(o, Deploy)
    why = deploy_problem(ctx.state, seat, o.piece, o.field)
    if why:
        return refused(why)
    deploy(ctx, seat, o.piece, o.field)
    return done()


def _build(ctx: Context, seat: str, o: Order) -> Result:
    assert isinstance(o, (Build, Upgrade))
    return build_or_upgrade(ctx, seat, o)


def _play(ctx: Context, seat: str, o: Order) -> Result:
    assert isinstance(o, Play)
    return play_card(ctx, seat, o)


def _attack(ctx: Context, seat: str, o: Order) -> Result:
    assert isinstance(o, Attack)
    att = ctx.state["pieces"].get(o.piece)
    if att is None or att["owner"] != seat:
        return refused(_("{piece} is not one of your pieces", piece=o.piece))
    return exchange(ctx, o.piece, o.target, capture=o.capture)


def _execute_prisoner(ctx: Context, seat: str, o: Order) -> Result:
    assert isinstance(o, Execute)
    p = ctx.state["pieces"].get(o.piece)
    if p is None or p["loc"] != f"prison:{seat}":
        return refused(_("{piece} is not a prisoner in your Base", piece=o.piece))
    kill(ctx, p, _("executed by {seat}", seat=seat), seat)
    return done()


_EXECUTE: dict[type, Callable[[Context, str, Order], Result]] = {
    Draw: _draw, Deploy: _deploy, Build: _build, Upgrade: _build, Play: _play,
    Attack: _attack, Execute: _execute_prisoner}


# --- the end of a turn -------------------------------------------------------------------------

def finish_turn(ctx: Context, seat: str, *, walk_out: bool) -> Result:
    """After the script: captives carried home, left-over MÉ, mandatory melee (if the seat
    is still in the game), then the end step. Left-over MÉ (Rulebook "Mozgások a
    játéktéren": every MÉ must be used unless a piece got into combat) is walked out by the
    engine after a PASS line (the NMR default), walked by a piece that teleported by GATE
    ROLL (its steps after the teleport), and otherwise lapses. Returns what became of the
    PASS line."""
    state: State = ctx.state
    pl = state["players"][seat]
    result = not_needed(_("you are out of the game"))
    if pl["alive"]:
        if pl["transit"]:
            transit(ctx, seat)
        result = _left_over(ctx, seat, walk_out)
        for att, dfd in melee_pairs(state, seat):
            exchange(ctx, att, dfd, melee=True)
            if not pl["alive"]:
                break
    if not pl["alive"]:
        # the rest of his turn lapses; an exchange cut short still ends
        kill_wounded(ctx, _("wounds of an exchange cut short"))
    if state["phase"] == "turn":
        zero_window(ctx)
    return result


def _left_over(ctx: Context, seat: str, walk_out: bool) -> Result:
    state: State = ctx.state
    pl = state["players"][seat]
    if pl["me"] <= 0:
        return not_needed(_("no MÉ was left to walk out"))
    if walk_out:
        return walk_out_me(ctx, seat)
    rolled = state["turn"].get("gate_roll", [])
    if rolled and not state["turn"].get("combat"):
        walk_out_me(ctx, seat, only=rolled)
    elif state["turn"].get("combat"):
        ctx.log.public("forfeit", _("{seat} forfeits {me} MÉ after combat", seat=seat,
                                    me=pl["me"]))
    else:
        ctx.log.public("forfeit", _("{seat} leaves {me} MÉ unused: it lapses", seat=seat,
                                    me=pl["me"]))
    pl["me"] = 0
    return not_needed(_("no PASS"))


def zero_window(ctx: Context) -> None:
    """End step (Rulebook "Fegyveres harc"): a piece at exactly 0 ÉP may be healed this
    turn by any player; every seat's ZERO trigger (or `ask`) is offered here in turn order
    after the active seat, then it dies."""
    state: State = ctx.state
    for p in sorted(state["pieces"].values(), key=lambda q: q["id"]):
        if p["loc"] == "gone" or p["ep"] != 0:
            continue
        cap = p["captive"]
        if cap and not (cap["dead"] and on_board(p["loc"])
                        and cap["turn_no"] == state["turn_no"]):
            continue  # the 0-ÉP heal is for the turn it fell (Rulebook "Fegyveres harc")
        # Rulebook "Fegyveres harc": at exactly 0 "a healing card may still be played on
        # it in that turn", by anyone (spec §5.12: any player); a hidden piece (invisible,
        # face-down summon) is known to its owner only: no one else can target it (spec
        # §2.8 n14), and asking others would reveal it; spec §5.12 [A]: a captive body at
        # exactly 0 not yet home may be healed by its owner, which cancels the capture
        seats = [p["owner"]] if p["hidden"] or cap else alive_seats(state)
        window(ctx, Item(None), "ZERO", seats, {"piece": p["id"],
                                                "mine_of": {p["owner"]: p["id"]}},
               still=partial(_at_zero, p))
    for p in sorted(state["pieces"].values(), key=lambda q: q["id"]):
        if p["loc"] != "gone" and p["ep"] == 0 and not p["captive"]:
            # whoever brought it to 0 destroyed it (Rulebook "A játék alapjai")
            kill(ctx, p, _("left at 0 ÉP"), p.get("last_hit"))
    for p in sorted(state["pieces"].values(), key=lambda q: q["id"]):
        cap = p["captive"]
        if cap and cap["dead"] and p["ep"] == 0 and p["loc"] != "gone":
            # a body captured at exactly 0 and not healed back by its owner is his no more:
            # if it was his last character, the captor takes his Base
            cap["turn_no"] = None  # the turn's 0-ÉP heal is over
            check_elimination(ctx, cap["captor"])


def _at_zero(p: Piece) -> bool:
    return p["ep"] == 0 and p["loc"] != "gone"


def end_turn(ctx: Context) -> None:
    """End step: statuses expire, revival clocks, next seat; round wrap and round limit."""
    state: State = ctx.state
    seat = state["active"]
    assert seat is not None
    pl = state["players"][seat]
    for p in state["pieces"].values():
        for name, s in list(p["status"].items()):
            if s["seat"] == seat and pl["turns"] >= s["until"]:
                end_status(state, p, name)
        _revival_clock(ctx, seat, p)
    for owner, card in state["turn"].get("lasting", []):
        to_grave(state, owner, card)  # cards lasting "this turn" end (Erősítés, ...)
    state["turn"]["lasting"] = []
    pl["me"] = 0
    if state["phase"] != "turn":
        return
    state["turn"] = {}  # the next turn's record
    alive = alive_seats(state)
    order = state["order"]
    i = order.index(seat)
    nxt = seat
    for k in range(1, len(order) + 1):
        nxt = order[(i + k) % len(order)]
        if nxt in alive:
            break
    if order.index(nxt) <= i:
        state["round"] += 1
        limit = state["config"]["options"]["round_limit"]
        if limit and state["round"] > limit:
            _round_limit(ctx)
            return
    state["active"] = nxt


def _revival_clock(ctx: Context, seat: str, p: Piece) -> None:
    """Rulebook "Fogolyejtés": a body must be revived within 3 of its captor's turns, and a
    revived one converted within them too; captives taken alive by a card have no limit."""
    cap = p["captive"]
    if not cap or p["loc"] != f"prison:{seat}" or cap["clock"] < 3:
        return
    if cap["dead"]:
        p["captive"] = None
        remove_piece(ctx.state, p)
        ctx.log.public("body_lost", _("The body of {name} ({id}) was not revived in 3 turns "
                                      "and is removed", name=piece_name(p["name"]), id=p["id"]))
    elif not cap["unconvertible"] and cap["healed"]:
        cap["unconvertible"] = True
        ctx.log.public("unconvertible", _("{name} ({id}) can no longer be converted",
                                          name=piece_name(p["name"]), id=p["id"]))


def _round_limit(ctx: Context) -> None:
    """Optional PBEM round limit (spec §8 [A]): score = KK of living characters + 3 x
    production + 10 if the demigod lives."""
    state: State = ctx.state
    scores = {}
    for s in alive_seats(state):
        chars = [p for p in state["pieces"].values() if p["owner"] == s and not p["summoned"]
                 and p["loc"] != "gone" and not p["loc"].startswith("prison:")]
        prod = sum(RESOURCE_TABLE[r["size"]]["energy"] for r in state["resources"].values()
                   if r["owner"] == s)
        demi = any(p["kind"] == "demigod" for p in chars)
        scores[s] = sum(p["kk"] for p in chars) + 3 * prod + (10 if demi else 0)
    best = max(scores.values())
    state["phase"] = "over"
    state["result"] = {"winners": sorted(s for s, v in scores.items() if v == best),
                       "reason": ROUND_LIMIT, "scores": scores}
    ctx.log.public("game_over", _("Round limit reached. Scores: {scores}", scores=", ".join(
        f"{s} {v}" for s, v in sorted(scores.items()))))

