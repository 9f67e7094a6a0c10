"""Life and death: damage, healing, death and the graveyard, prisoners, elimination and
Base inheritance, resource destruction and its loss.

Rulebook "Fegyveres harc" (below 0 dies, exactly 0 may be healed this turn), "Temető",
"Fogolyejtés" (prisoners, bodies, 3-turn revival), "Erőforrások" (destruction loss),
"A játék alapjai" (elimination, the Base passes to the killer); spec §5.6, §5.12, §5.13,
§5.18, §8.
"""

from __future__ import annotations

from typing import Any

from pbem.rulesets.cherubion.model import (
    Ctx,
    State,
    alive_seats,
    characters_of,
    name_of,
    on_board,
)
from pbem.rulesets.cherubion.setup import RESOURCE_TABLE


def end_status(st: dict[str, Any], p: dict[str, Any], name: str | None = None) -> None:
    """End one status (or all): the General card that caused it goes to its owner's
    graveyard now that its effect ends (Rulebook "A kártyalapok felépítése")."""
    for n in ([name] if name else sorted(p.get("status", {}))):
        s = p["status"].pop(n, None)
        if s and s.get("card"):
            to_grave(st, s["owner"], s["card"])


def damage(ctx: Ctx, p: dict[str, Any], amount: int, why: str, by: str | None = None) -> None:
    """Subtract ÉP. Sleep ends when the piece takes damage (card n03 [A]). `by` is the seat
    dealing it, when known: it is kept as `last_hit`, so that a piece dying later of it (at
    0 ÉP at the end step, or of special damage) counts as destroyed by that seat (Rulebook
    "A játék alapjai": the Base passes to whoever destroyed the last character)."""
    st = ctx.state
    p["ep"] -= amount
    if by is not None and amount > 0:
        p["last_hit"] = by
    if amount > 0:
        end_status(ctx.state, p, "asleep")
    ctx.pub("damage", f"{name_of(st, p['id'])} loses {amount} ÉP ({why}) -> {p['ep']}",
            piece=p["id"] if not p.get("hidden") else None, amount=amount)


def heal(ctx: Ctx, p: dict[str, Any], amount: int, why: str) -> None:
    """Heal, never above maximum (Rulebook). A captive body in its captor's Base revives
    at ÉP = negative ÉP + amount healed (spec §5.13 step 5)."""
    st = ctx.state
    before = p["ep"]
    p["ep"] = min(p["max"], p["ep"] + amount)
    if p.get("body") and p["body"].get("dead") and p["ep"] > 0 and \
            p["loc"].startswith("prison:"):
        p["body"]["dead"] = False
        p["body"]["healed"] = True
        ctx.pub("revive", f"{name_of(st, p['id'])} is revived as a prisoner with {p['ep']} ÉP")
    st["turn"].setdefault("healed", []).append(p["id"])
    ctx.pub("heal", f"{name_of(st, p['id'])} heals {p['ep'] - before} ÉP ({why}) -> {p['ep']}",
            piece=p["id"], amount=p["ep"] - before)


def to_grave(st: dict[str, Any], seat: str, item: str) -> None:
    if seat in st["players"]:
        st["players"][seat]["grave"].append(item)


def remove_piece(st: dict[str, Any], p: dict[str, Any], *, to_graveyard: bool = True) -> None:
    """Take a piece out of play: its hidden marker goes, its attached cards go to their
    owners' graveyards, its statuses end; the piece itself (a summon's card, a character)
    goes to the graveyard unless `to_graveyard` is False (Rulebook "Temető")."""
    p["loc"] = "gone"
    if p.get("hidden"):
        st["markers"].pop(p["hidden"], None)
        p["hidden"] = None
    if to_graveyard:
        if p["summoned"]:
            to_grave(st, p["owner"], p["card"])
        else:
            to_grave(st, p["origin"], p["id"])
    for a in p.get("attached", []):
        to_grave(st, a["owner"], a["card"])
    p["attached"] = []
    end_status(st, p)


def kill(ctx: Ctx, p: dict[str, Any], why: str, killer: str | None) -> None:
    """Remove a dead piece: a summoned piece vanishes and its card goes to the graveyard;
    a character goes to its owner's graveyard; attached cards go to their owners'
    graveyards; anything it carried is dropped (Rulebook "Temető", "A megidézett lények")."""
    st = ctx.state
    if p["loc"] == "gone":
        return
    where = p["loc"]
    label = f"{p['name']} ({p['id']})" if p.get("hidden") else name_of(st, p["id"])
    remove_piece(st, p)
    ctx.pub("death", f"{label} dies ({why})", piece=p["id"], where=where)
    # bodies and captives it carried: capture fails (spec §5.13 step 3 [A])
    for q in st["pieces"].values():
        b = q.get("body")
        if b and b.get("by") == p["id"] and not q["loc"].startswith("prison:") \
                and q["loc"] != "gone":
            q["body"] = None
            holder = b["holder"]
            if b.get("dead"):
                remove_piece(st, q)
                ctx.pub("capture_fail", f"The transporter of {label} is lost: the body of "
                        f"{q['name']} ({q['id']}) goes to the graveyard")
            else:
                ctx.pub("capture_fail", f"{q['name']} ({q['id']}) is freed: its captor's "
                        "transporter died")
            tr = st["players"].get(holder, {}).get("transit", [])
            if q["id"] in tr:
                tr.remove(q["id"])
    check_elimination(ctx, killer)


def check_elimination(ctx: Ctx, killer: str | None) -> None:
    """A player with no characters left is eliminated; his Base passes to the player who
    killed his last character (Rulebook "A játék alapjai"; spec §5.18)."""
    st = ctx.state
    for seat in alive_seats(st):
        if not characters_of(st, seat):
            eliminate(ctx, seat, killer if killer != seat else None, "has no characters left")


def eliminate(ctx: Ctx, seat: str, heir: str | None, why: str) -> None:
    st = ctx.state
    pl = st["players"][seat]
    if not pl["alive"]:
        return
    pl["alive"] = False
    ctx.pub("eliminated", f"{seat} is out of the game ({why})", seat=seat)
    if heir is not None and st["players"][heir]["alive"]:
        st["players"][heir]["bases"] += pl["bases"]
        for side in pl["bases"]:
            st.setdefault("inherited", {})[str(side)] = heir
        ctx.pub("base_transfer", f"{heir} takes over the Base on side(s) "
                f"{', '.join(map(str, pl['bases']))}", seat=heir)
    else:
        ctx.pub("base_closed", f"The Base on side(s) {', '.join(map(str, pl['bases']))} "
                "is closed")
    pl["bases"] = []
    # [A] spec §5.18: his summoned pieces, traps and resources are removed; gates stay;
    # prisoners he held pass to the heir (or are freed into nothing: they die).
    for p in list(st["pieces"].values()):
        if p["loc"] == "gone" or (p.get("body") and p["body"].get("holder") != seat):
            # a captured body or captive is no longer his: it stays with its captor
            # (Rulebook "Fogolyejtés")
            continue
        if p["owner"] == seat and (p["summoned"] or on_board(p["loc"]) or p["loc"] in ("nml",)
                                   or p["loc"].startswith("base:")):
            remove_piece(st, p, to_graveyard=p["summoned"])
        elif p.get("body") and not p["loc"].startswith("prison:"):
            # a captive he was still carrying home: with its captor gone, a body dies and
            # a living captive is free again where it stands
            if p["body"].get("dead"):
                remove_piece(st, p, to_graveyard=False)
                ctx.pub("body_lost", f"The body of {p['name']} ({p['id']}) is lost with its "
                        "captor")
            else:
                p["body"] = None
                ctx.pub("freed", f"{name_of(st, p['id'])} is free again")
        elif p["loc"] == f"prison:{seat}":
            if heir is not None and st["players"][heir]["alive"]:
                p["loc"] = f"prison:{heir}"
                if p.get("body"):
                    p["body"]["holder"] = heir
            else:
                remove_piece(st, p, to_graveyard=False)
    for mid, m in list(st["markers"].items()):
        if m["owner"] == seat and m["kind"] != "T":
            del st["markers"][mid]
    for rid, r in list(st["resources"].items()):
        if r["owner"] == seat:
            del st["resources"][rid]
    pl["hand"] = []
    pl["transit"] = []
    for owner, card in pl.get("trap_cards", []):
        to_grave(st, owner, card)
    pl["trap_cards"] = []
    check_game_end(ctx)


def _team_root(st: State, seat: str) -> str:
    """The seat whose team `seat`'s team has joined (JOIN/ADOPT), following the chain."""
    seen = {seat}
    while st["players"][seat].get("joined") and st["players"][seat]["joined"] not in seen:
        seat = st["players"][seat]["joined"]
        seen.add(seat)
    return seat


def check_game_end(ctx: Ctx) -> None:
    """The game ends when one player is left, or one team: joined teams count as one
    (Rulebook "Diplomácia": "a két csapat egynek számít"), so they win together."""
    st = ctx.state
    alive = alive_seats(st)
    if st["phase"] == "over":
        return
    if len(alive) <= 1 or len({_team_root(st, s) for s in alive}) == 1:
        # an exchange cut short by the end still ends: its wounded die first
        for p in sorted(st["pieces"].values(), key=lambda q: q["id"]):
            if p["loc"] != "gone" and not p.get("body") and p["ep"] < 0:
                kill(ctx, p, "wounds of an exchange cut short", p.get("last_hit"))
        if st["phase"] == "over":
            return
        alive = alive_seats(st)
    if len(alive) <= 1:
        st["phase"] = "over"
        st["result"] = {"winners": alive, "reason": "last player standing" if alive
                        else "all remaining players fell at once: a draw"}
    elif len({_team_root(st, s) for s in alive}) == 1:
        st["phase"] = "over"
        st["result"] = {"winners": alive, "reason": "last team standing (joined teams "
                        "count as one)"}
        ctx.pub("game_over", f"{' and '.join(alive)} are the last team standing")


def destroy_resource(ctx: Ctx, rid: str, why: str, by: str | None = None) -> None:
    """Destroy a resource: the owner's pieces in his Base(s) lose a quarter of its table
    ÉP in total, split by the owner (Rulebook "Erőforrások": 5/10/15; a piece loses at
    most what it has; spec §5.6: whole points, prisoners excluded, empty Base voids it).
    Split: the owner's LOSS standing order fills the listed pieces in order; the default
    puts one point at a time on the piece with the highest current ÉP (spec DP10). `by`,
    the destroyer, is recorded as dealing the loss (see `damage`)."""
    st = ctx.state
    r = st["resources"].pop(rid)
    owner = r["owner"]
    loss = RESOURCE_TABLE[r["size"]]["ep"] // 4
    ctx.pub("resource_destroyed", f"{owner}'s {r['size']} resource {rid} on {r['field']} is "
            f"destroyed ({why}); Base pieces lose {loss} ÉP in total", seat=owner, loss=loss)
    if st["players"][owner]["standing"].get("loss") is None and \
            st["config"]["options"].get("decisions", "auto") == "ask" and loss_pool(st, owner):
        # decisions=ask: the owner splits the loss in a short step (run loop)
        st.setdefault("decisions", []).append({"kind": "LOSS", "seat": owner, "loss": loss,
                                               "rid": rid})
        if by is not None:
            st.setdefault("loss_by", {})[rid] = by  # read back by apply_loss
        return
    apply_loss(ctx, owner, loss, rid, by)


def loss_pool(st: dict[str, Any], owner: str) -> list[dict[str, Any]]:
    bases = {f"base:{s}" for s in st["players"][owner]["bases"]}
    return [p for p in st["pieces"].values()
            if p["owner"] == owner and p["loc"] in bases and p["ep"] > 0]


def apply_loss(ctx: Ctx, owner: str, loss: int, rid: str, by: str | None = None) -> None:
    st = ctx.state
    if by is None and rid in st.get("loss_by", {}):
        by = st["loss_by"].pop(rid)
        if not st["loss_by"]:
            del st["loss_by"]
    pool = loss_pool(st, owner)
    share: dict[str, int] = {p["id"]: 0 for p in pool}
    left = loss
    prio = st["players"][owner]["standing"].get("loss") or []
    for pid in prio:
        p = st["pieces"].get(pid)
        if p is None or p not in pool or left <= 0:
            continue
        take = min(left, p["ep"])
        share[pid] += take
        left -= take
    while left > 0:
        cand = [p for p in pool if p["ep"] - share[p["id"]] > 0]
        if not cand:
            break
        best = max(cand, key=lambda p: (p["ep"] - share[p["id"]], p["id"]))
        share[best["id"]] += 1
        left -= 1
    for pid, amount in sorted(share.items()):
        if amount:
            damage(ctx, st["pieces"][pid], amount, f"loss of resource {rid}", by)
    if left > 0:
        ctx.pub("loss_void", f"{left} ÉP of the loss is lost (no piece can take it)")
