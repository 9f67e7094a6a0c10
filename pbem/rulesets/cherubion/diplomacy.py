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

from pbem.rulesets.cherubion.life import end_status, remove_piece
from pbem.rulesets.cherubion.model import Ctx, State, name_of
from pbem.rulesets.cherubion.orders import Ally, Break, Exchange, Hostage, Join


def _pair(a: str, b: str) -> list[str]:
    return sorted([a, b])


def alliance(st: State, a: str, b: str) -> dict[str, Any] | None:
    return next((x for x in st.setdefault("alliances", []) if x["pair"] == _pair(a, b)), None)


def merged(st: State, a: str, b: str) -> bool:
    """Has one of the two joined the other's team (JOIN/ADOPT)? Then they count as one."""
    return st["players"][a].get("joined") == b or st["players"][b].get("joined") == a


def _sync_allies(st: State) -> None:
    """`allies` (read by model.hostile): alliance partners and merged teams."""
    pairs = [x["pair"] for x in st.get("alliances", [])]
    pairs += [_pair(s, pl["joined"]) for s, pl in st["players"].items() if pl.get("joined")]
    for s, pl in st["players"].items():
        pl["allies"] = sorted({x[1] if x[0] == s else x[0] for x in pairs if s in x})


def apply(ctx: Ctx, seat: str, orders: list[Any]) -> None:
    """Record the seat's diplomatic orders and apply every agreement now matched."""
    st = ctx.state
    if not st["config"]["options"].get("diplomacy"):
        # without the optional rule only prisoner exchanges (Rulebook "Fogolyejtés")
        orders = [o for o in orders if isinstance(o, Exchange)]
    props = st.setdefault("proposals", {})
    for o in orders:
        if isinstance(o, Break):
            x = alliance(st, seat, o.seat)
            if x:
                st["alliances"].remove(x)
                _sync_allies(st)
                _tell(ctx, x, f"The alliance of {seat} and {o.seat} is over")
            if merged(st, seat, o.seat):
                ctx.priv([seat], "diplomacy", f"{o}: {seat} and {o.seat} are one team since "
                         "the join (Rulebook: \"a két csapat egynek számít\"); BREAK cannot "
                         "split it")
        elif isinstance(o, (Ally, Hostage, Join, Exchange)):
            why = _refuse(st, seat, o)
            if why:
                ctx.priv([seat], "diplomacy", f"{o}: not recorded: {why}")
                continue
            mine = props.setdefault(seat, [])
            if isinstance(o, (Join, Exchange)):
                # a new offer to the same seat replaces the old one (new terms)
                mine[:] = [t for t in mine if not _same_kind(t, o, st["n"])]
            if str(o) not in mine:
                mine.append(str(o))
    _match(ctx)


def _same_kind(line: str, o: Any, n: int) -> bool:
    from pbem.rulesets.cherubion.orders import parse_line
    t = parse_line(line, n)
    return type(t) is type(o) and t.seat == o.seat


def _refuse(st: State, seat: str, o: Any) -> str | None:
    """Why an offer cannot be recorded at all (the sender can see it at once)."""
    if o.seat == seat:
        return "that is your own seat; name the other player"
    if not st["players"][o.seat]["alive"]:
        return f"{o.seat} is out of the game"
    if isinstance(o, Exchange):
        return _exchange_problem(st, seat, o.seat, o.give, o.take)
    if isinstance(o, Join) and not o.adopt:
        if st["players"][seat].get("joined"):
            return f"your team has already joined {st['players'][seat]['joined']}"
        if not _demigod_dead(st, seat):
            return "your demigod is alive; only the team of a dead demigod may join another"
    if isinstance(o, Join) and o.adopt and _demigod_dead(st, seat):
        return "your demigod is dead; a team joins a living demigod"
    return None


def _tell(ctx: Ctx, x: dict[str, Any], text: str) -> None:
    if x["secret"]:
        ctx.priv(x["pair"], "diplomacy", text)
    else:
        ctx.pub("diplomacy", text)


def _match(ctx: Ctx) -> None:
    from pbem.rulesets.cherubion.orders import parse_line
    st = ctx.state
    props = st.get("proposals", {})
    for a in sorted(props):
        for line in list(props.get(a, [])):
            if line not in props.get(a, []):
                continue  # taken away by an agreement applied in this pass
            o = parse_line(line, st["n"])
            b = o.seat
            theirs = [parse_line(t, st["n"]) for t in props.get(b, [])]
            if isinstance(o, Ally):
                m = next((t for t in theirs if isinstance(t, Ally) and t.seat == a), None)
                if m and not alliance(st, a, b):
                    x = {"pair": _pair(a, b), "secret": o.secret or m.secret}
                    st["alliances"].append(x)
                    _sync_allies(st)
                    _tell(ctx, x, f"{a} and {b} are allies" + (" (secret)" if x["secret"]
                                                              else ""))
                if m:
                    props[a].remove(line)
                    props[b].remove(str(m))
            elif isinstance(o, Hostage):
                m = next((t for t in theirs if isinstance(t, Hostage) and t.seat == a
                          and t.give == o.take and t.take == o.give), None)
                if m and alliance(st, a, b):
                    _swap(ctx, a, b, o.give, o.take)
                    props[a].remove(line)
                    props[b].remove(str(m))
            elif isinstance(o, Exchange):
                m = next((t for t in theirs if isinstance(t, Exchange) and t.seat == a), None)
                if m and (m.give, m.take) == (o.take, o.give):
                    _exchange(ctx, a, b, o.give, o.take)
                    props[a].remove(line)
                    props[b].remove(str(m))
            elif isinstance(o, Join) and not o.adopt:
                m = next((t for t in theirs if isinstance(t, Join) and t.adopt and t.seat == a
                          and t.control == o.control), None)
                if m and _demigod_dead(st, a) and not _demigod_dead(st, b) \
                        and not st["players"][a].get("joined") and st["players"][b]["alive"]:
                    props[a].remove(line)
                    props[b].remove(str(m))
                    _join(ctx, a, b, o.control)


def _demigod_dead(st: State, seat: str) -> bool:
    team = st["players"][seat]["team"]
    return not any(p["kind"] == "demigod" and team in p["teams"] and p["loc"] != "gone"
                   for p in st["pieces"].values())


def _swap(ctx: Ctx, a: str, b: str, pa: str, pb: str) -> None:
    st = ctx.state
    qa, qb = st["pieces"].get(pa), st["pieces"].get(pb)
    if not qa or not qb or qa["owner"] != a or qb["owner"] != b or qa["summoned"] \
            or qb["summoned"] or qa["loc"] == "gone" or qb["loc"] == "gone":
        ctx.pub("diplomacy", f"The hostage exchange of {a} and {b} fails: bad pieces")
        return
    for q, holder in ((qa, b), (qb, a)):
        if q.get("hidden"):
            from pbem.rulesets.cherubion.movement import reveal_piece
            reveal_piece(ctx, q, "sent as a hostage")
        q["loc"] = f"prison:{holder}"
        end_status(st, q)
    for s in (a, b):
        st["players"][s]["busy"] = st["players"][s].get("busy", 0) + 1  # a full turn
    ctx.pub("hostage", f"{a} and {b} exchange hostages: {name_of(st, pa)} goes to {b}'s Base, "
            f"{name_of(st, pb)} to {a}'s Base; both miss their next turn")
    from pbem.rulesets.cherubion.life import check_elimination
    check_elimination(ctx, None)


# --- prisoner exchange ----------------------------------------------------------------------

def _prisoner_problem(st: State, holder: str, owner: str, pid: str) -> str | None:
    """Why `pid` is not a prisoner of `owner` held in `holder`'s Base that can be handed
    back. A captive body (ÉP <= 0) is not a prisoner yet: it becomes one only when its
    captor heals it ("ha ott 3 körön belül meggyógyítja ..., akkor foglyává teheti"), and
    its owner could not heal it ("saját halott karaktereket nem lehet így felgyógyítani"),
    so bodies are not exchanged (Rulebook "Fogolyejtés")."""
    p = st["pieces"].get(pid)
    if p is None or p["loc"] != f"prison:{holder}":
        return f"{pid} is not held in {holder}'s Base"
    if p["owner"] != owner:
        return f"{pid} is not {owner}'s piece"
    if (p.get("body") or {}).get("dead"):
        return (f"{pid} is a body, not a prisoner: a body becomes a prisoner only when its "
                "captor heals it (Rulebook \"Fogolyejtés\")")
    return None


def _exchange_problem(st: State, a: str, b: str, give: tuple[str, ...],
                      take: tuple[str, ...]) -> str | None:
    if not st["players"][b]["bases"]:
        return f"{b} has no Base to take its prisoners back to"
    for pid in give:
        why = _prisoner_problem(st, a, b, pid)
        if why:
            return why + " (GIVE: their prisoners in your Base)"
    for pid in take:
        why = _prisoner_problem(st, b, a, pid)
        if why:
            return why + " (TAKE: your pieces in their Base)"
    if not st["players"][a]["bases"] and take:
        return "you have no Base to take your pieces back to"
    return None


def _exchange(ctx: Ctx, a: str, b: str, give: tuple[str, ...], take: tuple[str, ...]) -> None:
    """Both sides agreed: `give` (b's pieces held by a) go home to b's Base, `take` (a's
    pieces held by b) to a's. They come back alive, with their ÉP as they are and whatever
    is attached to them (the Diplomacy section warns a returned piece may be a "time bomb");
    a revived captive is an ordinary piece again. No turn is spent: the rulebook gives the
    exchange no rules of its own (Rulebook "Fogolyejtés")."""
    st = ctx.state
    why = _exchange_problem(st, a, b, give, take)
    if why:
        ctx.priv([a, b], "diplomacy", f"The prisoner exchange of {a} and {b} fails: {why}")
        return
    moved = []
    for pid, home in [(x, b) for x in give] + [(x, a) for x in take]:
        p = st["pieces"][pid]
        p["loc"] = f"base:{st['players'][home]['bases'][0]}"
        p["body"] = None
        p["home_turn"] = st["players"][home]["turns"]  # came home: deployable next turn
        moved.append(f"{name_of(st, pid)} to {home}")
    ctx.pub("prisoner_exchange", f"{a} and {b} exchange prisoners: " + ", ".join(moved)
            + " (back in their Bases)", seats=[a, b], pieces=list(give + take))


# --- joining a dead demigod's team ------------------------------------------------------------

def _join(ctx: Ctx, a: str, b: str, control: str) -> None:
    """a's demigod is dead; its surviving team joins b's demigod. The two teams count as
    one: never hostile to each other again (no attacks, engagement, traps or hostile
    reactions), whatever alliances are made or broken. Its characters use b's demigod's
    cards and "any" cards, and keep any third demigod's cards a converted prisoner had,
    never the dead demigod's. Control: the rulebook lets the old player keep it "by
    agreement", so KEEP and HANDOVER are both terms of that agreement; KEEP is the default,
    since it takes nothing from either player (the old player goes on playing, the adopting
    one gains a partner that is never hostile); HANDOVER gives b the pieces, and a leaves
    the game with b as his heir (his Base, prisoners, resources and traps go to b)."""
    st = ctx.state
    old, new = st["players"][a]["team"], st["players"][b]["team"]
    for p in st["pieces"].values():
        if p["owner"] == a and not p["summoned"] and p["loc"] != "gone":
            p["teams"] = sorted((set(p["teams"]) - {old}) | {new})
    st["players"][a]["joined"] = b
    _sync_allies(st)
    if control != "handover":
        ctx.pub("join", f"{a}'s team joins {new.capitalize()}: the two teams count as one; it "
                f"now uses {new.capitalize()}'s cards; {a} keeps control", seats=[a, b])
        from pbem.rulesets.cherubion.life import check_game_end
        check_game_end(ctx)  # the last two (or more) teams became one
        return
    pa, pb = st["players"][a], st["players"][b]
    for p in st["pieces"].values():
        if p["owner"] == a and p["loc"] != "gone":
            p["owner"] = b
            if p["summoned"]:
                p["origin"] = b  # its card is b's now: b's graveyard when it vanishes
            if p["loc"] == f"prison:{b}":
                # b's prisoner is now b's own piece: free in b's Base (a body in b's
                # prison is b's own dead now, which nobody may heal back: it is buried)
                if (p.get("body") or {}).get("dead"):
                    remove_piece(st, p, to_graveyard=False)
                else:
                    p["loc"] = f"base:{pb['bases'][0]}"
                p["body"] = None
                p["home_turn"] = pb["turns"]
            elif not p["loc"].startswith("prison:"):
                p["home_turn"] = -1
            for s in p.get("status", {}).values():
                if s.get("seat") == a:
                    # statuses run out by their piece's owner's turns: now b's
                    s["until"] = pb["turns"] + max(0, s["until"] - pa["turns"])
                    s["seat"] = b
        body = p.get("body")
        if body and body.get("holder") == a and not p["loc"].startswith("prison:"):
            body["holder"] = b  # a captive on its way to a's Base (now b's)
    from pbem.rulesets.cherubion.resources import MAX_RESOURCES
    for rid, r in sorted(st["resources"].items()):
        if r["owner"] == a:
            if sum(1 for x in st["resources"].values() if x["owner"] == b) < MAX_RESOURCES:
                r["owner"] = b
            else:
                # Rulebook "Erőforrások": at most five; the rest fall idle and are removed
                del st["resources"][rid]
                ctx.pub("resource_lost", f"{a}'s resource {rid} on {r['field']} is "
                        f"abandoned: {b} already has {MAX_RESOURCES}")
    for m in st["markers"].values():
        if m["owner"] == a and m["kind"] != "T":
            m["owner"] = b
    st["players"][b]["transit"] += st["players"][a]["transit"]
    st["players"][a]["transit"] = []
    ctx.pub("join", f"{a}'s team joins {new.capitalize()}: the two teams count as one; it now "
            f"uses {new.capitalize()}'s cards; {b} takes control", seats=[a, b])
    from pbem.rulesets.cherubion.life import eliminate
    eliminate(ctx, a, b, f"its team joined {b}'s, under {b}'s control")


def visible_alliances(st: State, seat: str | None) -> list[dict[str, Any]]:
    return [dict(x) for x in st.get("alliances", [])
            if not x["secret"] or (seat is not None and seat in x["pair"])]

