"""Life and death: damage, healing, death and the graveyard, elimination and Base
inheritance, the end of the game, resource destruction and its loss.

Rulebook "Fegyveres harc" (below 0 dies, exactly 0 may be healed this turn), "Temető",
"Fogolyejtés" (prisoners, bodies), "Erőforrások" (destruction loss), "A játék alapjai"
(elimination, the Base passes to the killer); spec §5.6, §5.12, §5.13, §5.18, §8.

Not here: who may capture (combat.py), carrying captives home (movement.py).
"""

from __future__ import annotations

from pbem.core.i18n import Msg, _
from pbem.core.kit import Context
from pbem.rulesets.cherubion.data import RESOURCE_TABLE
from pbem.rulesets.cherubion.orders import GRAMMAR, Loss
from pbem.rulesets.cherubion.rules.queries import (
    alive_seats,
    ask_mode,
    characters_of,
    name_of,
    on_board,
    piece_name,
    size_name,
)
from pbem.rulesets.cherubion.rules.results import ALL_FELL, LAST_PLAYER, LAST_TEAM
from pbem.rulesets.cherubion.state import Piece, State


def end_status(state: State, p: Piece, name: str | None = None) -> None:
    """End one status (or all): the General card that caused it goes to its owner's
    graveyard now that its effect ends (Rulebook "A kártyalapok felépítése")."""
    for n in ([name] if name else sorted(p["status"])):
        s = p["status"].pop(n, None)
        if s and s["card"]:
            to_grave(state, s["owner"], s["card"])


def damage(ctx: Context, p: Piece, amount: int, why: str, by: str | None = None) -> None:
    """Subtract ÉP. Sleep ends when the piece takes damage (card n03 [A]). `by` is the seat
    dealing it, when known: it is kept as `last_hit`, so that a piece dying later of it (at
    0 ÉP at the end step, or of special damage) counts as destroyed by that seat (Rulebook
    "A játék alapjai": the Base passes to whoever destroyed the last character)."""
    state: State = ctx.state
    p["ep"] -= amount
    if by is not None and amount > 0:
        p["last_hit"] = by
    if amount > 0:
        end_status(state, p, "asleep")
    ctx.log.public("damage", _("{piece} loses {n} ÉP ({why}) -> {ep}", piece=name_of(
                       state, p["id"]), n=amount, why=why, ep=p["ep"]),
                   piece=p["id"] if not p["hidden"] else None, amount=amount)


def heal(ctx: Context, p: Piece, amount: int, why: str) -> None:
    """Heal, never above maximum (Rulebook). A captive body in its captor's Base revives
    at ÉP = negative ÉP + amount healed (spec §5.13 step 5)."""
    state: State = ctx.state
    before = p["ep"]
    p["ep"] = min(p["max_ep"], p["ep"] + amount)
    c = p["captive"]
    if c and c["dead"] and p["ep"] > 0 and p["loc"].startswith("prison:"):
        c["dead"] = False
        c["healed"] = True
        ctx.log.public("revive", _("{piece} is revived as a prisoner with {ep} ÉP",
                                   piece=name_of(state, p["id"]), ep=p["ep"]))
    state["turn"].setdefault("healed", []).append(p["id"])
    ctx.log.public("heal", _("{piece} heals {n} ÉP ({why}) -> {ep}", piece=name_of(
                       state, p["id"]), n=p["ep"] - before, why=why, ep=p["ep"]),
                   piece=p["id"], amount=p["ep"] - before)


def to_grave(state: State, seat: str, item: str) -> None:
    if seat in state["players"]:
        state["players"][seat]["grave"].append(item)


def remove_piece(state: State, p: Piece, *, to_graveyard: bool = True) -> None:
    """Take a piece out of play: its hidden marker goes, its attached cards go to their
    owners' graveyards, its statuses end; the piece itself (a summon's card, a character)
    goes to the graveyard unless `to_graveyard` is False (Rulebook "Temető")."""
    p["loc"] = "gone"
    if p["hidden"]:
        state["markers"].pop(p["hidden"], None)
        p["hidden"] = None
    if to_graveyard:
        if p["summoned"]:
            to_grave(state, p["owner"], p["card"] or "")
        else:
            to_grave(state, p["origin"], p["id"])
    for a in p["attached"]:
        to_grave(state, a["owner"], a["card"])
    p["attached"] = []
    end_status(state, p)


def kill(ctx: Context, p: Piece, why: str, killer: str | None) -> None:
    """Remove a dead piece: a summoned piece vanishes and its card goes to the graveyard;
    a character goes to its owner's graveyard; attached cards go to their owners'
    graveyards; anything it carried is dropped (Rulebook "Temető", "A megidézett lények")."""
    state: State = ctx.state
    if p["loc"] == "gone":
        return
    where = p["loc"]
    label = Msg("{name} ({id})", name=piece_name(p["name"]), id=p["id"]) if p["hidden"] \
        else name_of(state, p["id"])
    remove_piece(state, p)
    ctx.log.public("death", _("{piece} dies ({why})", piece=label, why=why), piece=p["id"],
                   where=where)
    # bodies and captives it carried: capture fails (spec §5.13 step 3 [A])
    for q in state["pieces"].values():
        c = q["captive"]
        if c and c["carrier"] == p["id"] and not q["loc"].startswith("prison:") \
                and q["loc"] != "gone":
            q["captive"] = None
            if c["dead"]:
                remove_piece(state, q)
                ctx.log.public("capture_fail", _(
                    "The transporter of {piece} is lost: the body of {name} ({id}) goes to the "
                    "graveyard", piece=label, name=piece_name(q["name"]), id=q["id"]))
            else:
                ctx.log.public("capture_fail", _(
                    "{name} ({id}) is freed: its captor's transporter died",
                    name=piece_name(q["name"]), id=q["id"]))
            captor = state["players"].get(c["captor"])
            if captor is not None and q["id"] in captor["transit"]:
                captor["transit"].remove(q["id"])
    check_elimination(ctx, killer)


def check_elimination(ctx: Context, killer: str | None) -> None:
    """A player with no characters left is eliminated; his Base passes to the player who
    killed his last character (Rulebook "A játék alapjai"; spec §5.18)."""
    state: State = ctx.state
    for seat in alive_seats(state):
        if not characters_of(state, seat):
            eliminate(ctx, seat, killer if killer != seat else None,
                      _("has no characters left"))


def eliminate(ctx: Context, seat: str, heir: str | None, why: Msg) -> None:
    state: State = ctx.state
    pl = state["players"][seat]
    if not pl["alive"]:
        return
    pl["alive"] = False
    ctx.log.public("eliminated", _("{seat} is out of the game ({why})", seat=seat, why=why),
                   seat=seat)
    if heir is not None and state["players"][heir]["alive"]:
        state["players"][heir]["bases"] += pl["bases"]
        ctx.log.public("base_transfer", _("{seat} takes over the Base on side(s) {sides}",
                                          seat=heir, sides=", ".join(map(str, pl["bases"]))),
                       seat=heir)
    else:
        ctx.log.public("base_closed", _("The Base on side(s) {sides} is closed",
                                        sides=", ".join(map(str, pl["bases"]))))
    pl["bases"] = []
    _clear_pieces(ctx, seat, heir)
    for mid, m in list(state["markers"].items()):
        if m["owner"] == seat and m["kind"] != "T":
            del state["markers"][mid]
    for rid, r in list(state["resources"].items()):
        if r["owner"] == seat:
            del state["resources"][rid]
    pl["hand"] = []
    pl["transit"] = []
    for owner, card in pl["time_trap_cards"]:
        to_grave(state, owner, card)
    pl["time_trap_cards"] = []
    check_game_end(ctx)


def _clear_pieces(ctx: Context, seat: str, heir: str | None) -> None:
    """[A] spec §5.18: an eliminated player's summoned pieces, traps and resources are
    removed; gates stay; prisoners he held pass to the heir (or are freed into nothing:
    they die)."""
    state: State = ctx.state
    heir_alive = heir is not None and state["players"][heir]["alive"]
    for p in list(state["pieces"].values()):
        c = p["captive"]
        if p["loc"] == "gone" or (c and c["captor"] != seat):
            # a captured body or captive is no longer his: it stays with its captor
            # (Rulebook "Fogolyejtés")
            continue
        if p["owner"] == seat and (p["summoned"] or on_board(p["loc"]) or p["loc"] == "nml"
                                   or p["loc"].startswith("base:")):
            remove_piece(state, p, to_graveyard=p["summoned"])
        elif c and not p["loc"].startswith("prison:"):
            # a captive he was still carrying home: with its captor gone, a body dies and
            # a living captive is free again where it stands
            if c["dead"]:
                remove_piece(state, p, to_graveyard=False)
                ctx.log.public("body_lost", _("The body of {name} ({id}) is lost with its "
                                              "captor", name=piece_name(p["name"]), id=p["id"]))
            else:
                p["captive"] = None
                ctx.log.public("freed", _("{piece} is free again", piece=name_of(state,
                                                                                 p["id"])))
        elif p["loc"] == f"prison:{seat}":
            if heir is not None and heir_alive:
                p["loc"] = f"prison:{heir}"
                if c:
                    c["captor"] = heir
            else:
                remove_piece(state, p, to_graveyard=False)


def team_root(state: State, seat: str) -> str:
    """The seat whose team `seat`'s team has joined (JOIN/ADOPT), following the chain."""
    seen = {seat}
    while True:
        joined = state["players"][seat]["joined"]
        if not joined or joined in seen:
            return seat
        seat = joined
        seen.add(seat)


def check_game_end(ctx: Context) -> None:
    """The game ends when one player is left, or one team: joined teams count as one
    (Rulebook "Diplomácia": "a két csapat egynek számít"), so they win together."""
    state: State = ctx.state
    alive = alive_seats(state)
    if state["phase"] == "over":
        return
    if len(alive) <= 1 or len({team_root(state, s) for s in alive}) == 1:
        # an exchange cut short by the end still ends: its wounded die first
        kill_wounded(ctx, _("wounds of an exchange cut short"))
        if state["phase"] == "over":
            return
        alive = alive_seats(state)
    if len(alive) <= 1:
        state["phase"] = "over"
        state["result"] = {"winners": alive, "reason": LAST_PLAYER if alive else ALL_FELL}
    elif len({team_root(state, s) for s in alive}) == 1:
        state["phase"] = "over"
        state["result"] = {"winners": alive, "reason": LAST_TEAM}
        ctx.log.public("game_over", _("{seats} are the last team standing",
                                      seats=" and ".join(alive)))


def kill_wounded(ctx: Context, why: Msg) -> None:
    """Pieces left below 0 ÉP by an exchange that was cut short die now."""
    state: State = ctx.state
    for p in sorted(state["pieces"].values(), key=lambda q: q["id"]):
        if p["loc"] != "gone" and not p["captive"] and p["ep"] < 0:
            kill(ctx, p, why, p.get("last_hit"))


# --- resources destroyed -------------------------------------------------------------------

def destroy_resource(ctx: Context, rid: str, why: str, by: str | None = None) -> None:
    """Destroy a resource: the owner's pieces in his Base(s) lose a quarter of its table
    ÉP in total, split by the owner (Rulebook "Erőforrások": 5/10/15; a piece loses at
    most what it has; spec §5.6: whole points, prisoners excluded, empty Base voids it).
    `by`, the destroyer, is recorded as dealing the loss (see `damage`)."""
    state: State = ctx.state
    r = state["resources"].pop(rid)
    owner = r["owner"]
    loss = RESOURCE_TABLE[r["size"]]["ep"] // 4
    ctx.log.public("resource_destroyed", _(
                       "{seat}'s {size} resource {id} on {field} is destroyed ({why}); Base "
                       "pieces lose {loss} ÉP in total", seat=owner, size=size_name(r["size"]),
                       id=rid, field=r["field"], why=why, loss=loss),
                   seat=owner, loss=loss)
    apply_loss(ctx, owner, loss, rid, by, loss_order(ctx, owner, loss, rid))


def loss_pool(state: State, owner: str) -> list[Piece]:
    bases = {f"base:{s}" for s in state["players"][owner]["bases"]}
    return [p for p in state["pieces"].values()
            if p["owner"] == owner and p["loc"] in bases and p["ep"] > 0]


def default_split(pool: list[Piece], loss: int,
                  taken: dict[str, int] | None = None) -> dict[str, int]:
    """Spec DP10's default: one point at a time to the piece with the most ÉP left (which
    avoids deaths); ties to the highest id. `taken`: what the pieces lose already."""
    share = dict(taken) if taken else {p["id"]: 0 for p in pool}
    left = loss
    while left > 0:
        cand = [p for p in pool if p["ep"] - share[p["id"]] > 0]
        if not cand:
            break
        best = max(cand, key=lambda p: (p["ep"] - share[p["id"]], p["id"]))
        share[best["id"]] += 1
        left -= 1
    return share


def split_problem(state: State, owner: str, loss: int, order: Loss) -> str | None:
    """Why a LOSS answer does not split this loss (Rulebook "Erőforrások": a piece loses at
    most what it has; the whole loss is split while the pieces can take it), or None."""
    pool = {p["id"]: p for p in loss_pool(state, owner)}
    can_take = min(loss, sum(p["ep"] for p in pool.values()))
    for pid, n in order.items():
        if pid not in pool:
            have = ", ".join(f"{q}={p['ep']} ÉP" for q, p in sorted(pool.items()))
            return _("{piece} is not one of your pieces in your Base (they are: {have})",
                     piece=pid, have=have)
        if n > pool[pid]["ep"]:
            return _("{piece} has {ep} ÉP: it can lose at most that", piece=pid,
                     ep=pool[pid]["ep"])
    given = sum(n for _k, n in order.items())
    fills = any(n == 0 for _k, n in order.items())
    if given > can_take or (given < can_take and not fills):
        return _("the amounts add up to {given}; split {can_take} ÉP (the loss is {loss}; a "
                 "piece without an amount takes what is left)", given=given,
                 can_take=can_take, loss=loss)
    return None


def loss_order(ctx: Context, owner: str, loss: int, rid: str) -> list[tuple[str, int]]:
    """The owner's split (Rulebook "Erőforrások": "a játékos maga osztja el a
    veszteséget"; spec DP10): his LOSS standing order; else, with decisions=ask and pieces
    to split it among, his answer (it becomes his standing LOSS order); else the default."""
    state: State = ctx.state
    pl = state["players"][owner]
    standing = pl["standing"].get("loss")
    if standing is not None:
        return _entries(standing)
    pool = sorted(loss_pool(state, owner), key=lambda p: (-p["ep"], p["id"]))
    if not pool or not ask_mode(state):
        return []
    share = default_split(pool, loss)
    option = "LOSS " + " ".join(f"{pid}={n}" for pid, n in share.items() if n)
    answer = ctx.decide(owner, "LOSS", question=_(
        "Your resource {id} was destroyed: your Base pieces lose {loss} ÉP in total. Split "
        "it (LOSS CH8=12 CH9=3: each piece at most its ÉP; a piece without an amount takes "
        "what is left, in order); your answer stays as your standing LOSS order; PASS: "
        "{split}.", id=rid, loss=loss, split=option[5:]), default="PASS",
        options=(option, "PASS"), exhaustive=False,
        accept=lambda a: a == "PASS" or _fits(state, owner, loss, a),
        public=_("how to split the loss of resource {id}", id=rid), data={"loss": loss})
    if answer == "PASS":
        ctx.log.public("pass", _("{seat} leaves it to the default", seat=owner))
        return []
    order = GRAMMAR.parse_line(state, owner, answer)
    assert isinstance(order, Loss)
    pl["standing"]["loss"] = [_entry(pid, n) for pid, n in order.items()]
    return order.items()


def _fits(state: State, owner: str, loss: int, answer: str) -> bool:
    order = GRAMMAR.parse_line(state, owner, answer)
    return isinstance(order, Loss) and split_problem(state, owner, loss, order) is None


def _entry(pid: str, n: int) -> str:
    return f"{pid}={n}" if n else pid


def _entries(standing: list[str]) -> list[tuple[str, int]]:
    out = []
    for e in standing:
        pid, _eq, n = e.partition("=")
        out.append((pid, int(n) if n else 0))
    return out


def apply_loss(ctx: Context, owner: str, loss: int, rid: str, by: str | None,
               order: list[tuple[str, int]]) -> None:
    """Split `loss` among the owner's Base pieces as `order` says (a piece with an amount
    takes that, one without all it can, each at most its ÉP), the rest by the default."""
    state: State = ctx.state
    pool = loss_pool(state, owner)
    share: dict[str, int] = {p["id"]: 0 for p in pool}
    left = loss
    for pid, n in order:
        p = state["pieces"].get(pid)
        if p is None or p not in pool or left <= 0:
            continue
        take = min(left, p["ep"] - share[pid], n or left)
        share[pid] += take
        left -= take
    total = sum(share.values())
    share = default_split(pool, left, share)
    left -= sum(share.values()) - total
    for pid, amount in sorted(share.items()):
        if amount:
            damage(ctx, state["pieces"][pid], amount, _("loss of resource {id}", id=rid), by)
    if left > 0:
        ctx.log.public("loss_void", _("{n} ÉP of the loss is lost (no piece can take it)",
                                      n=left))
