"""Hidden pieces and face-down markers coming to light.

Rulebook "Csapdák" (a hidden monster's identity "csak akkor derül ki, ha ellenséges
karakterrel találkozik"), "A megidézett lények"; cards n14 Láthatatlanság (an invisible
piece), n27 Volodyan (senses markers); spec §2.8.

Not here: traps firing when a piece steps on them (movement.py).
"""

from __future__ import annotations

from pbem.core.i18n import _
from pbem.core.kit import Context
from pbem.rulesets.cherubion import data
from pbem.rulesets.cherubion.rules.life import to_grave
from pbem.rulesets.cherubion.rules.queries import board, piece_name
from pbem.rulesets.cherubion.state import Piece, State


def reveal_piece(ctx: Context, q: Piece, why: str) -> None:
    """A hidden summon or an invisible piece is turned face up: its marker goes (and
    Láthatatlanság with it)."""
    state: State = ctx.state
    mid = q["hidden"]
    if not mid:
        return
    state["markers"].pop(mid, None)
    q["hidden"] = None
    invisible = next((a for a in q["attached"] if a["card"] == "n14"), None)
    if invisible is not None:
        q["attached"].remove(invisible)
        to_grave(state, invisible["owner"], "n14")
    ctx.log.public("reveal", _("Marker {marker} is revealed: {name} ({piece}) of {owner} ({why})",
                               marker=mid, name=piece_name(q["name"]), piece=q["id"], owner=q["owner"],
                               why=why), piece=q["id"], marker=mid)


def sense(ctx: Context, p: Piece) -> None:
    """Volodyan (n27): hidden markers within 3 fields are turned face up; revealed traps
    stay active (spec §2.8 [A])."""
    state: State = ctx.state
    b = board(state)
    for mid, m in sorted(state["markers"].items()):
        if m["owner"] == p["owner"] or not m["hidden"] or m["kind"] == "T":
            continue
        if b.distance(m["field"], p["loc"]) <= 3:
            if "piece" in m:
                reveal_piece(ctx, state["pieces"][m["piece"]], _("sensed by {name}", name=piece_name(p["name"])))
            else:
                m["hidden"] = False
                ctx.log.public("reveal", _("Marker {marker} is sensed: {card}",
                                           marker=mid, card=data.card(m["card"])["name_hu"]))
