"""Resources: building and upgrading (the MÉ side). Energy production is in turn.py,
destruction and its loss in life.py.

A build or upgrade is a task of the turn (turn.py `task_build`): the MÉ is paid when it is
announced, then the BUILD window (W7) lets an enemy stop it with an instant (Rulebook "A
kártyalapok felépítése"), then `build`/`upgrade` below put it on the board.

Rulebook "Erőforrások" (5/7/9 MÉ; 1/2/3 characters on the board, summons count; any board
field, not in a Base; at most five; a small one may be upgraded to medium, which is not a
destruction); spec §5.6.
"""

from __future__ import annotations

from pbem.rulesets.cherubion.model import (
    Ctx,
    State,
    new_id,
    pieces_on_board,
    resource_count,
)
from pbem.rulesets.cherubion.setup import RESOURCE_TABLE

MAX_RESOURCES = 5  # Rulebook "Erőforrások"


def build_problem(st: State, seat: str, size: str, field: str) -> str | None:
    """Rulebook "Erőforrások": cost 5/7/9 MÉ, 1/2/3 own pieces on the board (summoned count),
    "a játéktér tetszőleges pontján" (any board field, also where an enemy stands: the
    spec's §5.6 [A] ban is not the rulebook's), at most five; spec §5.6 [A]: one resource
    per field."""
    t = RESOURCE_TABLE[size]
    pl = st["players"][seat]
    if pl["me"] < t["me"]:
        return f"a {size} resource costs {t['me']} MÉ; you have {pl['me']}"
    if len(pieces_on_board(st, seat)) < t["need"]:
        return f"a {size} resource needs {t['need']} of your pieces on the board"
    if resource_count(st, seat) >= MAX_RESOURCES:
        return "you already have 5 resources (Rulebook)"
    if any(r["field"] == field for r in st["resources"].values()):
        return f"{field} already holds a resource"
    return None


def build(ctx: Ctx, seat: str, size: str, field: str) -> None:
    """Put the resource on the board (its MÉ was paid when the build was announced)."""
    st = ctx.state
    t = RESOURCE_TABLE[size]
    rid = new_id(st, "N")
    st["resources"][rid] = {"id": rid, "owner": seat, "field": field, "size": size,
                            "ep": t["ep"], "active": False}
    ctx.pub("build", f"{seat} builds a {size} resource {rid} on {field}; it produces from "
            "the next turn", seat=seat, field=field, size=size)


def upgrade_problem(st: State, seat: str, field: str, size: str) -> str | None:
    """Rulebook: a small resource may be upgraded to medium by paying the medium's MÉ; not a
    destruction, not a new resource. Spec §5.6 [A]: also to large, with the new size's
    piece requirement."""
    r = next((r for r in st["resources"].values() if r["field"] == field and r["owner"] == seat),
             None)
    if r is None:
        return f"you have no resource on {field}"
    if SIZES_ORDER.index(size) <= SIZES_ORDER.index(r["size"]):
        return f"the resource on {field} is already {r['size']}"
    t = RESOURCE_TABLE[size]
    if st["players"][seat]["me"] < t["me"]:
        return f"upgrading to {size} costs {t['me']} MÉ"
    if len(pieces_on_board(st, seat)) < t["need"]:
        return f"a {size} resource needs {t['need']} of your pieces on the board"
    return None


SIZES_ORDER = ["small", "medium", "large"]


def upgrade(ctx: Ctx, seat: str, field: str, size: str) -> None:
    """Raise the resource to `size` (its MÉ was paid when the upgrade was announced)."""
    st = ctx.state
    r = next(r for r in st["resources"].values() if r["field"] == field and r["owner"] == seat)
    t = RESOURCE_TABLE[size]
    r["size"] = size
    r["ep"] = t["ep"]
    r["active"] = False
    ctx.pub("upgrade", f"{seat} upgrades resource {r['id']} on {field} to {size}")
