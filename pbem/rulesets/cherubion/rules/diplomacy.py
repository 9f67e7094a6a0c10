"""Diplomacy, an optional rule all players must agree to (option `diplomacy`).

Rulebook "Diplomácia": open or secret alliances that end whenever the allies say so (no
shared victory); hostage exchange between allies, taking a full turn in which they do
nothing else, the hostages teleported to the partner's Base (and convertible there); the
surviving team of a dead demigod may join another demigod, "a két csapat egynek számít"
(the two teams count as one), uses the new demigod's cards, never the dead one's, and
"megegyezés alapján" (by agreement) stays under its old player. Rulebook "Fogolyejtés":
"A fogolycserének nincsenek külön szabályai, a játékosok szabadon megállapodhatnak róla"
(prisoner exchanges have no rules of their own: free agreement). Spec §5.19 [A] and DP17:
agreements apply when both sides have sent matching orders; allies are not hostile (no
engagement, no traps); a hostage swap is one character each and consumes each player's
next turn.
"""

from __future__ import annotations

from typing import Any

from pbem.core.i18n import _, join
from pbem.core.kit import Context
from pbem.rulesets.cherubion.orders import GRAMMAR, Ally, Break, Exchange, Hostage, Join
from pbem.rulesets.cherubion.rules.life import (
    check_elimination,
    check_game_end,
    eliminate,
    end_status,
    remove_piece,
)
from pbem.rulesets.cherubion.rules.markers import reveal_piece
from pbem.rulesets.cherubion.rules.queries import merged, name_of
from pbem.rulesets.cherubion.rules.resources import MAX_RESOURCES
from pbem.rulesets.cherubion.rules.results import Result, done, not_needed, refused
from pbem.rulesets.cherubion.state import Alliance, State


def _pair(a: str, b: str) -> list[str]:
    return sorted([a, b])


def alliance(state: State, a: str, b: str) -> Alliance | None:
    return next((x for x in state["alliances"] if x["pair"] == _pair(a, b)), None)


def _sync_allies(state: State) -> None:
    """`allies` (read by model.hostile): alliance partners and merged teams."""
    pairs = [x["pair"] for x in state["alliances"]]
    pairs += [_pair(s, pl["joined"]) for s, pl in state["players"].items() if pl["joined"]]
    for s, pl in state["players"].items():
        pl["allies"] = sorted({x[1] if x[0] == s else x[0] for x in pairs if s in x})


Offer = Ally | Break | Hostage | Join | Exchange
OFFERS = (Ally, Break, Hostage, Join, Exchange)


def apply(ctx: Context, seat: str, orders: list[Offer]) -> list[Result]:
    """Record the seat's diplomatic orders and apply every agreement now matched; what
    became of each order."""
    state: State = ctx.state
    props = state["proposals"]
    results: list[Result | None] = []
    for o in orders:
        if not isinstance(o, Exchange) and not state["config"]["options"]["diplomacy"]:
            # without the optional rule only prisoner exchanges (Rulebook "Fogolyejtés")
            results.append(refused(_("Diplomacy is an optional rule not used in this game")))
        elif isinstance(o, Break):
            results.append(_break(ctx, seat, o))
        else:
            why = offer_problem(state, seat, o)
            if why:
                ctx.log.private([seat], "diplomacy", _("{o}: not recorded: {why}", o=str(o), why=why))
                results.append(refused(why))
                continue
            mine = props.setdefault(seat, [])
            if isinstance(o, (Join, Exchange)):
                # a new offer to the same seat replaces the old one (new terms)
                mine[:] = [t for t in mine if not _same_kind(state, t, o)]
            if str(o) not in mine:
                mine.append(str(o))
            results.append(None)
    _match(ctx)
    return [r if r is not None else
            (done(_("recorded: it applies when {seat} sends the matching line", seat=o.seat))
             if str(o) in props.get(seat, []) else done(_("agreed with {seat}", seat=o.seat)))
            for o, r in zip(orders, results, strict=True)]


def _break(ctx: Context, seat: str, o: Break) -> Result:
    state: State = ctx.state
    if merged(state, seat, o.seat):
        ctx.log.private([seat], "diplomacy", _("{o}: {seat} and {seat2} are one team since the join"
                                               " (Rulebook: \"a két csapat egynek számít\"); BREAK "
                                               "cannot split it",
                                               o=str(o), seat=seat, seat2=o.seat))
        return refused(_("{seat} and {seat2} are one team since the join (Rulebook: \"a két csapat "
                         "egynek számít\"); BREAK cannot split it",
                         seat=seat, seat2=o.seat))
    x = alliance(state, seat, o.seat)
    if not x:
        return not_needed(_("there is no alliance with {seat}", seat=o.seat))
    state["alliances"].remove(x)
    _sync_allies(state)
    _tell(ctx, x, _("The alliance of {seat} and {seat2} is over", seat=seat, seat2=o.seat))
    return done()


def _offer(state: State, line: str) -> Offer:
    o = GRAMMAR.parse_line(state, None, line)
    assert isinstance(o, (Ally, Break, Hostage, Join, Exchange))
    return o


def _same_kind(state: State, line: str, o: Offer) -> bool:
    t = _offer(state, line)
    return type(t) is type(o) and t.seat == o.seat


def offer_problem(state: State, seat: str, o: Ally | Hostage | Join | Exchange) -> str | None:
    """Why an offer cannot be recorded at all (the sender can see it at once)."""
    if o.seat == seat:
        return _("that is your own seat; name the other player")
    if not state["players"][o.seat]["alive"]:
        return _("{seat} is out of the game", seat=o.seat)
    if isinstance(o, Exchange):
        return _exchange_problem(state, seat, o.seat, o.give, o.take)
    if isinstance(o, Join) and not o.adopt:
        if state["players"][seat]["joined"]:
            return _("your team has already joined {joined}",
                     joined=state["players"][seat]["joined"])
        if not _demigod_dead(state, seat):
            return _("your demigod is alive; only the team of a dead demigod may join another")
    if isinstance(o, Join) and o.adopt and _demigod_dead(state, seat):
        return _("your demigod is dead; a team joins a living demigod")
    return None


def _tell(ctx: Context, x: Alliance, text: str) -> None:
    if x["secret"]:
        ctx.log.private(x["pair"], "diplomacy", text)
    else:
        ctx.log.public("diplomacy", text)


def _match(ctx: Context) -> None:
    state: State = ctx.state
    props = state["proposals"]
    for a in sorted(props):
        for line in list(props.get(a, [])):
            if line not in props.get(a, []):
                continue  # taken away by an agreement applied in this pass
            o = _offer(state, line)
            b = o.seat
            theirs = [_offer(state, t) for t in props.get(b, [])]
            if isinstance(o, Ally):
                ally = next((t for t in theirs if isinstance(t, Ally) and t.seat == a), None)
                if ally and not alliance(state, a, b):
                    x: Alliance = {"pair": _pair(a, b), "secret": o.secret or ally.secret}
                    state["alliances"].append(x)
                    _sync_allies(state)
                    _tell(ctx, x, _("{a} and {b} are allies (secret)", a=a, b=b)
                          if x["secret"] else _("{a} and {b} are allies", a=a, b=b))
                if ally:
                    props[a].remove(line)
                    props[b].remove(str(ally))
            elif isinstance(o, Hostage):
                swap = next((t for t in theirs if isinstance(t, Hostage) and t.seat == a
                             and t.give == o.take and t.take == o.give), None)
                if swap and alliance(state, a, b):
                    _swap(ctx, a, b, o.give, o.take)
                    props[a].remove(line)
                    props[b].remove(str(swap))
            elif isinstance(o, Exchange):
                ex = next((t for t in theirs if isinstance(t, Exchange) and t.seat == a), None)
                if ex and (ex.give, ex.take) == (o.take, o.give):
                    _exchange(ctx, a, b, o.give, o.take)
                    props[a].remove(line)
                    props[b].remove(str(ex))
            elif isinstance(o, Join) and not o.adopt:
                adopt = next((t for t in theirs if isinstance(t, Join) and t.adopt
                              and t.seat == a and t.control == o.control), None)
                if adopt and _demigod_dead(state, a) and not _demigod_dead(state, b) \
                        and not state["players"][a]["joined"] and state["players"][b]["alive"]:
                    props[a].remove(line)
                    props[b].remove(str(adopt))
                    _join(ctx, a, b, o.control)


def _demigod_dead(state: State, seat: str) -> bool:
    team = state["players"][seat]["team"]
    return not any(p["kind"] == "demigod" and team in p["teams"] and p["loc"] != "gone"
                   for p in state["pieces"].values())


def _swap(ctx: Context, a: str, b: str, pa: str, pb: str) -> None:
    state: State = ctx.state
    qa, qb = state["pieces"].get(pa), state["pieces"].get(pb)
    if not qa or not qb or qa["owner"] != a or qb["owner"] != b or qa["summoned"] \
            or qb["summoned"] or qa["loc"] == "gone" or qb["loc"] == "gone":
        ctx.log.public("diplomacy", _("The hostage exchange of {a} and {b} fails: bad pieces",
                                      a=a, b=b))
        return
    for q, holder in ((qa, b), (qb, a)):
        if q["hidden"]:
            reveal_piece(ctx, q, _("sent as a hostage"))
        q["loc"] = f"prison:{holder}"
        end_status(state, q)
    for s in (a, b):
        state["players"][s]["hostage_turns"] += 1  # a full turn
    ctx.log.public("hostage", _("{a} and {b} exchange hostages: {piece} goes to {b}'s Base, "
                                "{piece2} to {a}'s Base; both miss their next turn",
                                a=a, b=b, piece=name_of(state, pa), piece2=name_of(state, pb)))
    check_elimination(ctx, None)


# --- prisoner exchange ----------------------------------------------------------------------

def _prisoner_problem(state: State, holder: str, owner: str, pid: str) -> str | None:
    """Why `pid` is not a prisoner of `owner` held in `holder`'s Base that can be handed
    back. A captive body (ÉP <= 0) is not a prisoner yet: it becomes one only when its
    captor heals it ("ha ott 3 körön belül meggyógyítja ..., akkor foglyává teheti"), and
    its owner could not heal it ("saját halott karaktereket nem lehet így felgyógyítani"),
    so bodies are not exchanged (Rulebook "Fogolyejtés")."""
    p = state["pieces"].get(pid)
    if p is None or p["loc"] != f"prison:{holder}":
        return _("{piece} is not held in {holder}'s Base", piece=pid, holder=holder)
    if p["owner"] != owner:
        return _("{piece} is not {owner}'s piece", piece=pid, owner=owner)
    if p["captive"] and p["captive"]["dead"]:
        return (_("{piece} is a body, not a prisoner: a body becomes a prisoner only when its "
                  "captor heals it (Rulebook \"Fogolyejtés\")",
                  piece=pid))
    return None


def _exchange_problem(state: State, a: str, b: str, give: tuple[str, ...],
                      take: tuple[str, ...]) -> str | None:
    if not state["players"][b]["bases"]:
        return _("{b} has no Base to take its prisoners back to", b=b)
    for pid in give:
        why = _prisoner_problem(state, a, b, pid)
        if why:
            return why + " (GIVE: their prisoners in your Base)"
    for pid in take:
        why = _prisoner_problem(state, b, a, pid)
        if why:
            return why + " (TAKE: your pieces in their Base)"
    if not state["players"][a]["bases"] and take:
        return _("you have no Base to take your pieces back to")
    return None


def _exchange(ctx: Context, a: str, b: str, give: tuple[str, ...], take: tuple[str, ...]) -> None:
    """Both sides agreed: `give` (b's pieces held by a) go home to b's Base, `take` (a's
    pieces held by b) to a's. They come back alive, with their ÉP as they are and whatever
    is attached to them (the Diplomacy section warns a returned piece may be a "time bomb");
    a revived captive is an ordinary piece again. No turn is spent: the rulebook gives the
    exchange no rules of its own (Rulebook "Fogolyejtés")."""
    state = ctx.state
    why = _exchange_problem(state, a, b, give, take)
    if why:
        ctx.log.private([a, b], "diplomacy", _("The prisoner exchange of {a} and {b} fails: {why}",
                                               a=a, b=b, why=why))
        return
    moved = []
    for pid, home in [(x, b) for x in give] + [(x, a) for x in take]:
        p = state["pieces"][pid]
        p["loc"] = f"base:{state['players'][home]['bases'][0]}"
        p["captive"] = None
        p["home_turn"] = state["players"][home]["turns"]  # came home: deployable next turn
        moved.append(_("{piece} to {home}", piece=name_of(state, pid), home=home))
    ctx.log.public("prisoner_exchange", _("{a} and {b} exchange prisoners: {moved} (back in their "
                                          "Bases)", a=a, b=b, moved=join(moved)),
                   seats=[a, b], pieces=list(give + take))


# --- joining a dead demigod's team ------------------------------------------------------------

def _join(ctx: Context, a: str, b: str, control: str) -> None:
    """a's demigod is dead; its surviving team joins b's demigod. The two teams count as
    one: never hostile to each other again (no attacks, engagement, traps or hostile
    reactions), whatever alliances are made or broken. Its characters use b's demigod's
    cards and "any" cards, and keep any third demigod's cards a converted prisoner had,
    never the dead demigod's. Control: the rulebook lets the old player keep it "by
    agreement", so KEEP and HANDOVER are both terms of that agreement; KEEP is the default,
    since it takes nothing from either player (the old player goes on playing, the adopting
    one gains a partner that is never hostile); HANDOVER gives b the pieces, and a leaves
    the game with b as his heir (his Base, prisoners, resources and traps go to b)."""
    state: State = ctx.state
    old, new = state["players"][a]["team"], state["players"][b]["team"]
    for p in state["pieces"].values():
        if p["owner"] == a and not p["summoned"] and p["loc"] != "gone":
            p["teams"] = sorted((set(p["teams"]) - {old}) | {new})
    state["players"][a]["joined"] = b
    _sync_allies(state)
    if control != "handover":
        ctx.log.public("join", _("{a}'s team joins {demigod}: the two teams count as one; it now"
                                 " uses {demigod}'s cards; {a} keeps control",
                                 a=a, demigod=new.capitalize()), seats=[a, b])
        check_game_end(ctx)  # the last two (or more) teams became one
        return
    _hand_over(ctx, a, b)
    ctx.log.public("join", _("{a}'s team joins {demigod}: the two teams count as one; it now "
                             "uses {demigod}'s cards; {b} takes control",
                             a=a, demigod=new.capitalize(), b=b), seats=[a, b])
    eliminate(ctx, a, b, _("its team joined {b}'s, under {b}'s control", b=b))


def _hand_over(ctx: Context, a: str, b: str) -> None:
    """JOIN ... HANDOVER: a's pieces (their statuses now run by b's turns; those b held
    prisoner are freed into his Base, bodies buried), resources (up to b's five), traps and
    captives go to b."""
    state: State = ctx.state
    pa, pb = state["players"][a], state["players"][b]
    for p in state["pieces"].values():
        if p["owner"] == a and p["loc"] != "gone":
            p["owner"] = b
            if p["summoned"]:
                p["origin"] = b  # its card is b's now: b's graveyard when it vanishes
            if p["loc"] == f"prison:{b}":
                # b's prisoner is now b's own piece: free in b's Base (a body in b's
                # prison is b's own dead now, which nobody may heal back: it is buried)
                if p["captive"] and p["captive"]["dead"]:
                    remove_piece(state, p, to_graveyard=False)
                else:
                    p["loc"] = f"base:{pb['bases'][0]}"
                p["captive"] = None
                p["home_turn"] = pb["turns"]
            elif not p["loc"].startswith("prison:"):
                p["home_turn"] = -1
            for s in p["status"].values():
                if s["seat"] == a:
                    # statuses run out by their piece's owner's turns: now b's
                    s["until"] = pb["turns"] + max(0, s["until"] - pa["turns"])
                    s["seat"] = b
        cap = p["captive"]
        if cap and cap["captor"] == a and not p["loc"].startswith("prison:"):
            cap["captor"] = b  # a captive on its way to a's Base (now b's)
    _hand_over_resources(ctx, a, b)
    for m in state["markers"].values():
        if m["owner"] == a and m["kind"] != "T":
            m["owner"] = b
    pb["transit"] += pa["transit"]
    pa["transit"] = []


def _hand_over_resources(ctx: Context, a: str, b: str) -> None:
    state: State = ctx.state
    for rid, r in sorted(state["resources"].items()):
        if r["owner"] == a:
            if sum(1 for x in state["resources"].values() if x["owner"] == b) < MAX_RESOURCES:
                r["owner"] = b
            else:
                # Rulebook "Erőforrások": at most five; the rest fall idle and are removed
                del state["resources"][rid]
                ctx.log.public("resource_lost", _("{a}'s resource {resource} on {field} is "
                                                  "abandoned: {b} already has {max}",
                                                  a=a, resource=rid, field=r["field"], b=b,
                                                  max=MAX_RESOURCES))


def visible_alliances(state: State, seat: str | None) -> list[dict[str, Any]]:
    return [{"pair": list(x["pair"]), "secret": x["secret"]} for x in state["alliances"]
            if not x["secret"] or (seat is not None and seat in x["pair"])]

