"""Resources: building and upgrading, and energy production.

Rulebook "Erőforrások" (5/7/9 MÉ; 1/2/3 characters on the board, summons count; any board
field, not in a Base; at most five; a small one may be upgraded to medium, which is not a
destruction; production from the next turn), "Speciális jelzések a játéktéren"
(PRODUCTION); spec §5.6. A build or upgrade is paid when it is announced, then the BUILD
window (W7) lets an enemy stop it with an instant (Rulebook "A kártyalapok felépítése":
an instant can "prevent an opponent from putting up a building"); the MÉ stays paid.

Not here: destruction and its loss (life.py).
"""

from __future__ import annotations

from pbem.core.i18n import _
from pbem.core.kit import Context
from pbem.rulesets.cherubion.data import RESOURCE_TABLE, SIZES
from pbem.rulesets.cherubion.orders import Build, Upgrade
from pbem.rulesets.cherubion.rules.queries import (
    cut_short,
    holder,
    new_id,
    pieces_on_board,
    resource_count,
    size_name,
)
from pbem.rulesets.cherubion.rules.reactions import Item, enemies, window
from pbem.rulesets.cherubion.rules.results import LEFT_THE_GAME, Result, changed, done, refused
from pbem.rulesets.cherubion.state import State

MAX_RESOURCES = 5  # Rulebook "Erőforrások"


def build_problem(state: State, seat: str, size: str, field: str) -> str | None:
    """Rulebook "Erőforrások": cost 5/7/9 MÉ, 1/2/3 own pieces on the board (summoned count),
    "a játéktér tetszőleges pontján" (any board field, also where an enemy stands: the
    spec's §5.6 [A] ban is not the rulebook's), at most five; spec §5.6 [A]: one resource
    per field."""
    t = RESOURCE_TABLE[size]
    pl = state["players"][seat]
    if pl["me"] < t["me"]:
        return _("a {size} resource costs {me} MÉ; you have {me2}",
                 size=size_name(size), me=t["me"], me2=pl["me"])
    if len(pieces_on_board(state, seat)) < t["need"]:
        return _("a {size} resource needs {need} of your pieces on the board",
                 size=size_name(size), need=t["need"])
    if resource_count(state, seat) >= MAX_RESOURCES:
        return _("you already have 5 resources (Rulebook)")
    if any(r["field"] == field for r in state["resources"].values()):
        return _("{field} already holds a resource", field=field)
    return None


def upgrade_problem(state: State, seat: str, field: str, size: str) -> str | None:
    """Rulebook: a small resource may be upgraded to medium by paying the medium's MÉ; not a
    destruction, not a new resource. Spec §5.6 [A]: also to large, with the new size's
    piece requirement."""
    r = next((r for r in state["resources"].values()
              if r["field"] == field and r["owner"] == seat), None)
    if r is None:
        return _("you have no resource on {field}", field=field)
    if SIZES.index(size) <= SIZES.index(r["size"]):
        return _("the resource on {field} is already {size}", field=field, size=size_name(r["size"]))
    t = RESOURCE_TABLE[size]
    if state["players"][seat]["me"] < t["me"]:
        return _("upgrading to {size} costs {me} MÉ", size=size_name(size), me=t["me"])
    if len(pieces_on_board(state, seat)) < t["need"]:
        return _("a {size} resource needs {need} of your pieces on the board",
                 size=size_name(size), need=t["need"])
    return None


def build_or_upgrade(ctx: Context, seat: str, o: Build | Upgrade) -> Result:
    """A BUILD or UPGRADE line: check, pay the MÉ and announce it, the BUILD window, then
    the resource is put up."""
    state: State = ctx.state
    upgrading = isinstance(o, Upgrade)
    why = upgrade_problem(state, seat, o.field, o.size) if upgrading else \
        build_problem(state, seat, o.size, o.field)
    if why:
        return refused(why)
    cost = RESOURCE_TABLE[o.size]["me"]
    state["players"][seat]["me"] -= cost
    args = {"seat": seat, "cost": cost, "field": o.field, "size": size_name(o.size)}
    ctx.log.public("build_announced", _("{seat} pays {cost} MÉ to upgrade the resource on "
                                        "{field} ({size})", **args) if upgrading
                   else _("{seat} pays {cost} MÉ to build a resource on {field} ({size})",
                          **args),
                   seat=seat, field=o.field)
    item = Item(seat)
    window(ctx, item, "BUILD", enemies(state, seat), {
        "field": o.field, "seat": seat, "size": o.size, "upgrade": upgrading})
    if cut_short(state):
        return changed(LEFT_THE_GAME)
    if item.countered:
        ctx.log.public("build_stopped", _("{seat}'s {size} resource on {field} is stopped; the "
                                          "{cost} MÉ stay paid",
                                          seat=seat, size=size_name(o.size), field=o.field, cost=cost), seat=seat, field=o.field)
        return changed(_("stopped by an enemy instant; the {cost} MÉ stay paid", cost=cost))
    if upgrading:
        upgrade(ctx, seat, o.field, o.size)
    else:
        build(ctx, seat, o.size, o.field)
    return done()


def build(ctx: Context, seat: str, size: str, field: str) -> None:
    """Put the resource on the board (its MÉ was paid when the build was announced)."""
    state: State = ctx.state
    rid = new_id(state, "N")
    assert size in SIZES
    state["resources"][rid] = {"id": rid, "owner": seat, "field": field,
                               "size": size,  # type: ignore[typeddict-item]
                               "ep": RESOURCE_TABLE[size]["ep"], "active": False}
    ctx.log.public("build", _("{seat} builds a {size} resource {resource} on {field}; it produces "
                              "from the next turn",
                              seat=seat, size=size_name(size), resource=rid, field=field), seat=seat, field=field, size=size)


def upgrade(ctx: Context, seat: str, field: str, size: str) -> None:
    """Raise the resource to `size` (its MÉ was paid when the upgrade was announced)."""
    state: State = ctx.state
    r = next(r for r in state["resources"].values() if r["field"] == field and r["owner"] == seat)
    r["size"] = size  # type: ignore[typeddict-item]
    r["ep"] = RESOURCE_TABLE[size]["ep"]
    r["active"] = False
    ctx.log.public("upgrade", _("{seat} upgrades resource {piece} on {field} to {size}",
                                seat=seat, piece=r["id"], field=field, size=size_name(size)))


def production(state: State, seat: str) -> int:
    """Energy of a turn: active resources' output, +1 each while holding PRODUCTION
    (Rulebook "Speciális jelzések": two large make 12 instead of 10)."""
    res = [r for r in state["resources"].values() if r["owner"] == seat and r["active"]]
    total = sum(RESOURCE_TABLE[r["size"]]["energy"] for r in res)
    if holder(state, "production") == seat:
        total += len(res)
    return total
