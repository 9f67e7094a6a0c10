"""Diplomacy, an optional rule all players must agree to (option `diplomacy`).

Rulebook "Diplomácia": open or secret alliances that end whenever the allies say so (no
shared victory); hostage exchange between allies, taking a full turn in which they do
nothing else, the hostages teleported to the partner's Base (and convertible there); the
surviving team of a dead demigod may join another demigod by agreement, keep its player,
and use the new demigod's cards, never the dead one's. Spec §5.19 [A]: agreements apply
when both sides have sent matching orders; allies are not hostile (no engagement, no
traps); a hostage swap is one character each and consumes each player's next turn.
"""

from __future__ import annotations

from typing import Any

from pbem.rulesets.cherubion.life import end_status
from pbem.rulesets.cherubion.model import Ctx, State, name_of
from pbem.rulesets.cherubion.orders import Ally, Break, Hostage, Join


def _pair(a: str, b: str) -> list[str]:
    return sorted([a, b])


def alliance(st: State, a: str, b: str) -> dict[str, Any] | None:
    return next((x for x in st.setdefault("alliances", []) if x["pair"] == _pair(a, b)), None)


def _sync_allies(st: State) -> None:
    for s, pl in st["players"].items():
        pl["allies"] = sorted(x["pair"][1] if x["pair"][0] == s else x["pair"][0]
                              for x in st.get("alliances", []) if s in x["pair"])


def apply(ctx: Ctx, seat: str, orders: list[Any]) -> None:
    """Record the seat's diplomatic orders and apply every agreement now matched."""
    st = ctx.state
    if not st["config"]["options"].get("diplomacy"):
        return
    props = st.setdefault("proposals", {})
    for o in orders:
        if isinstance(o, Break):
            x = alliance(st, seat, o.seat)
            if x:
                st["alliances"].remove(x)
                _sync_allies(st)
                _tell(ctx, x, f"The alliance of {seat} and {o.seat} is over")
        elif isinstance(o, (Ally, Hostage, Join)):
            props.setdefault(seat, [])
            if str(o) not in props[seat]:
                props[seat].append(str(o))
    _match(ctx)


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
            elif isinstance(o, Join) and not o.adopt:
                m = next((t for t in theirs if isinstance(t, Join) and t.adopt and t.seat == a),
                         None)
                if m and _demigod_dead(st, a):
                    _join(ctx, a, b)
                    props[a].remove(line)
                    props[b].remove(str(m))


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


def _join(ctx: Ctx, a: str, b: str) -> None:
    st = ctx.state
    new = st["players"][b]["team"]
    for p in st["pieces"].values():
        if p["owner"] == a and not p["summoned"] and p["loc"] != "gone":
            p["teams"] = [new]
    ctx.pub("join", f"{a}'s team joins {new.capitalize()}: it now uses {new.capitalize()}'s "
            "cards; its player keeps control")


def visible_alliances(st: State, seat: str | None) -> list[dict[str, Any]]:
    return [dict(x) for x in st.get("alliances", [])
            if not x["secret"] or (seat is not None and seat in x["pair"])]
