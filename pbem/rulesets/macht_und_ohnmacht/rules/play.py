"""Action D: playing a tile, the opponent's serpent window and the seize with its retreat
(rulebook "D) Akciólapkák kijátszása", "Kígyó", "Megszerzés"; spec §5.5-5.7, DP-05, DP-06).

After a tile's cube is removed, the opponent may cancel it with a serpent (`ctx.decide`,
his standing SERPENT rules first); after a won seize the loser saves one unit to an
adjacent empty or own region (`ctx.decide`, his standing RETREAT preference first).
Not here: the tile modes' checks and simple effects (actions.py), the defaults
(standing.py).
"""

from __future__ import annotations

from pbem.core.kit import Context
from pbem.core.orders import OrderLine

from .. import board, data
from ..orders import Play, PlayInfluence, RetreatPref, parse_line
from . import actions, standing


def play(ctx: Context, seat: str, ln: OrderLine, o: Play) -> str:
    """Play a legal tile; returns what became of it (for the line's outcome)."""
    tid = actions.spend_tile(ctx.state, seat, o, ctx.log)
    return serpent_window(ctx, seat, ln, o, tid)


def serpent_window(ctx: Context, seat: str, ln: OrderLine, o: Play, tid: str) -> str:
    """Spec §5.5 / DP-05: the opponent may cancel the tile with a serpent if he holds one
    and a cube is left for it. Default: no serpent."""
    state = ctx.state
    holder = board.opponent(state, seat)
    if standing.serpent_possible(state, holder):
        policy = standing.serpent_policy(state, holder, o)
        count = ""
        if isinstance(o, PlayInfluence) and o.mode == "SEIZE":
            a, d = board.seize_count(state, seat, o.region)
            count = f" The seize would count {a}:{d}, {'a win' if a - d >= 1 else 'a failure'}."
        answer = ctx.decide(
            holder, "serpent",
            question=(f"{seat} plays: {o}.{count} Play a serpent to cancel it (hourglass "
                      f"{state['hourglass']}, the serpent takes one more cube)?"),
            default="PASS", options=("CANCEL", "PASS"),
            standing=None if policy is None else ("CANCEL" if policy else "PASS"),
            public="whether to play a serpent",
            data={"line": ln.lineno, "pending": {"kind": "serpent", "seat": holder, "by": seat,
                                                 "order": str(o), "tile": tid}})
        if answer == "CANCEL":
            play_serpent(ctx, holder, o)
            return f"{holder} cancelled it with a serpent"
    return apply_tile(ctx, seat, ln, o)


def play_serpent(ctx: Context, holder: str, o: Play) -> None:
    """Rulebook "Kígyó": the played tile is discarded without effect; its cube stays
    removed; the serpent removes one more cube."""
    state = ctx.state
    sid = data.first_of_type(state["held"][holder], "serpent")
    assert sid is not None and state["hourglass"] >= 1
    state["held"][holder].remove(sid)
    state["discard"] = sorted([*state["discard"], sid])
    ctx.log.public("serpent", f"{holder} plays a serpent: {o} is cancelled.", seat=holder,
                   order=str(o))
    actions.cube(state, ctx.log, "serpent")


def apply_tile(ctx: Context, seat: str, ln: OrderLine, o: Play) -> str:
    if not (isinstance(o, PlayInfluence) and o.mode == "SEIZE"):
        actions.apply_simple(ctx.state, seat, o, ctx.log)
        return ""
    return seize(ctx, seat, ln, o)


def seize(ctx: Context, seat: str, ln: OrderLine, o: PlayInfluence) -> str:
    """Rulebook "Megszerzés" (spec §5.7): count; on a win the loser may save one unit to an
    adjacent empty or own region, the rest go to his stock, and the attacker may place an
    active unit there."""
    state = ctx.state
    if not actions.seize_result(state, seat, o, ctx.log):
        return "the seize failed"
    defender = board.opponent(state, seat)
    options = board.retreat_options(state, defender, o.region)
    choice = None
    if options:
        pref = standing.standing_retreat(state, defender)
        default = standing.retreat_choice(state, defender, o.region, None)
        assert default is not None
        answer = ctx.decide(
            defender, "retreat",
            question=(f"{seat} seized {board.region_name(state, o.region)}. You may save one "
                      "unit there to an adjacent empty or own region: "
                      + ", ".join(options) + "."),
            default=str(RetreatPref(*_pref_args(default))),
            options=[*(f"RETREAT {u} TO {r}" for u in ("mage", "knight") for r in options),
                     "RETREAT none"],
            standing=None if pref is None else str(pref), exhaustive=False,
            public=f"a retreat from {board.region_name(state, o.region)}",
            data={"line": ln.lineno,
                  "pending": {"kind": "retreat", "seat": defender, "attacker": seat,
                              "region": o.region, "place": o.place, "options": options}})
        choice = standing.retreat_choice(state, defender, o.region, parse_line(state, answer))
        if pref is not None:
            standing_followed(ctx, defender, pref, o.region, choice)
    if actions.finish_seize(state, seat, o.region, o.place, choice, ctx.log) or not o.place:
        return "the seize succeeded"
    return (f"the seize succeeded; {board.region_name(state, o.region)} stays empty: no "
            f"{board.active_type(state)} was in your reserve to place")


def standing_followed(ctx: Context, seat: str, pref: RetreatPref, target: str,
                      choice: tuple[str, str] | None) -> None:
    """Tell the defender where his standing retreat preference could not be followed (its
    line had its outcome when it was sent; the fallback is documented)."""
    if choice is None:
        return
    unit, dest = choice
    name = board.region_name(ctx.state, target)
    notes = []
    if pref.unit in ("mage", "knight") and unit != pref.unit:
        notes.append(f"there was no {pref.unit} in {name}, so a {unit} retreated")
    if pref.to and dest not in pref.to:
        notes.append(f"{', '.join(pref.to)} could not take it, so it went to "
                     f"{board.region_name(ctx.state, dest)}")
    if notes:
        ctx.log.private([seat], "retreat_changed", f"Your standing order {pref}: "
                        + "; ".join(notes) + ".")


def _pref_args(choice: tuple[str, str]) -> tuple[str, tuple[str, ...]]:
    unit, dest = choice
    return unit, (dest,)
