"""Action D: playing a tile, the opponent's serpent window and the seize with its retreat
(rulebook "D) Akciólapkák kijátszása", "Kígyó", "Megszerzés"; spec §5.5-5.7, DP-05, DP-06).

After a tile's cube is removed, the opponent may cancel it with a serpent (`ctx.decide`,
his standing SERPENT rules first); after a won seize the loser saves one unit to an
adjacent empty or own region (`ctx.decide`, his standing RETREAT preference first).
Not here: the tile modes' checks and simple effects (actions.py), the defaults
(standing.py).
"""

from __future__ import annotations

from pbem.core.i18n import Msg, _
from pbem.core.kit import Context
from pbem.core.orders import OrderLine

from .. import board, data
from ..data import KNIGHT, listed
from ..orders import Play, PlayInfluence, RetreatPref, parse_line
from . import actions, standing


def play(ctx: Context, seat: str, ln: OrderLine, o: Play) -> Msg | str:
    """Play a legal tile; returns what became of it (for the line's outcome)."""
    tid = actions.spend_tile(ctx.state, seat, o, ctx.log)
    return serpent_window(ctx, seat, ln, o, tid)


def serpent_window(ctx: Context, seat: str, ln: OrderLine, o: Play, tid: str) -> Msg | str:
    """Spec §5.5 / DP-05: the opponent may cancel the tile with a serpent if he holds one
    and a cube is left for it. Default: no serpent."""
    state = ctx.state
    holder = board.opponent(state, seat)
    if standing.serpent_possible(state, holder):
        policy = standing.serpent_policy(state, holder, o)
        args = {"seat": seat, "order": str(o), "n": state["hourglass"]}
        question = _("{seat} plays: {order}. Play a serpent to cancel it (hourglass {n}, the "
                     "serpent takes one more cube)?", **args)
        if isinstance(o, PlayInfluence) and o.mode == "SEIZE":
            a, d = board.seize_count(state, seat, o.region)
            question = (_("{seat} plays: {order}. The seize would count {a}:{d}, a win. Play a "
                          "serpent to cancel it (hourglass {n}, the serpent takes one more "
                          "cube)?", a=a, d=d, **args) if a - d >= 1 else
                        _("{seat} plays: {order}. The seize would count {a}:{d}, a failure. "
                          "Play a serpent to cancel it (hourglass {n}, the serpent takes one "
                          "more cube)?", a=a, d=d, **args))
        public = _("whether to play a serpent")
        answer = ctx.decide(
            holder, "serpent",
            question=question,
            default="PASS", options=("CANCEL", "PASS"),
            standing=None if policy is None else ("CANCEL" if policy else "PASS"),
            public=public,
            data={"line": ln.lineno,
                  "pending": {"kind": "serpent", "seat": holder, "by": seat,
                              "order": str(o), "tile": tid}})
        if answer == "CANCEL":
            play_serpent(ctx, holder, o)
            return _("{seat} cancelled it with a serpent", seat=holder)
    return apply_tile(ctx, seat, ln, o)


def play_serpent(ctx: Context, holder: str, o: Play) -> None:
    """Rulebook "Kígyó": the played tile is discarded without effect; its cube stays
    removed; the serpent removes one more cube."""
    state = ctx.state
    sid = data.first_of_type(state["held"][holder], "serpent")
    assert sid is not None and state["hourglass"] >= 1
    state["held"][holder].remove(sid)
    state["discard"] = sorted([*state["discard"], sid])
    ctx.log.public("serpent", _("{seat} plays a serpent: {order} is cancelled.", seat=holder,
                                order=str(o)), seat=holder, order=str(o))
    actions.cube(state, ctx.log, _("serpent"))


def apply_tile(ctx: Context, seat: str, ln: OrderLine, o: Play) -> Msg | str:
    if not (isinstance(o, PlayInfluence) and o.mode == "SEIZE"):
        actions.apply_simple(ctx.state, seat, o, ctx.log)
        return ""
    return seize(ctx, seat, ln, o)


def seize(ctx: Context, seat: str, ln: OrderLine, o: PlayInfluence) -> Msg | str:
    """Rulebook "Megszerzés" (spec §5.7): count; on a win the loser may save one unit to an
    adjacent empty or own region, the rest go to his stock, and the attacker may place an
    active unit there."""
    state = ctx.state
    if not actions.seize_result(state, seat, o, ctx.log):
        return _("the seize failed")
    defender = board.opponent(state, seat)
    options = board.retreat_options(state, defender, o.region)
    choice = None
    if options:
        pref = standing.standing_retreat(state, defender)
        default = standing.retreat_choice(state, defender, o.region, None)
        assert default is not None
        name = board.region_name(state, o.region)
        question = _("{seat} seized {region}. You may save one unit there to an adjacent empty "
                     "or own region: {options}.", seat=seat, region=name, options=listed(options))
        public = _("a retreat from {region}", region=name)
        answer = ctx.decide(
            defender, "retreat",
            question=question,
            default=str(RetreatPref(*_pref_args(default))),
            options=[*(f"RETREAT {u} TO {r}" for u in ("mage", "knight") for r in options),
                     "RETREAT none"],
            standing=None if pref is None else str(pref), exhaustive=False,
            public=public,
            data={"line": ln.lineno,
                  "pending": {"kind": "retreat", "seat": defender, "attacker": seat,
                              "region": o.region, "place": o.place, "options": options}})
        choice = standing.retreat_choice(state, defender, o.region, parse_line(state, answer))
        if pref is not None:
            standing_followed(ctx, defender, pref, o.region, choice)
    if actions.finish_seize(state, seat, o.region, o.place, choice, ctx.log) or not o.place:
        return _("the seize succeeded")
    region = board.region_name(state, o.region)
    if board.active_type(state) == KNIGHT:
        return _("the seize succeeded; {region} stays empty: no knight was in your reserve to "
                 "place", region=region)
    return _("the seize succeeded; {region} stays empty: no mage was in your reserve to place",
             region=region)


def standing_followed(ctx: Context, seat: str, pref: RetreatPref, target: str,
                      choice: tuple[str, str] | None) -> None:
    """Tell the defender where his standing retreat preference could not be followed (its
    line had its outcome when it was sent; the fallback is documented)."""
    if choice is None:
        return
    unit, dest = choice
    name = board.region_name(ctx.state, target)
    notes: list[Msg] = []
    if pref.unit in ("mage", "knight") and unit != pref.unit:
        notes.append(_("there was no knight in {region}, so a mage retreated", region=name)
                     if pref.unit == KNIGHT else
                     _("there was no mage in {region}, so a knight retreated", region=name))
    if pref.to and dest not in pref.to:
        notes.append(_("{regions} could not take it, so it went to {region}",
                       regions=listed(list(pref.to)),
                       region=board.region_name(ctx.state, dest)))
    if notes:
        ctx.log.private([seat], "retreat_changed", _("Your standing order {order}: {notes}.",
                                                     order=str(pref), notes=listed(notes, "; ")))


def _pref_args(choice: tuple[str, str]) -> tuple[str, tuple[str, ...]]:
    unit, dest = choice
    return unit, (dest,)
