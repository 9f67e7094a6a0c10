"""What every rules module uses: battle dice faces, standing orders, the decision call,
unit names in events, and the end of the game.

Not here: any rule of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pbem.core.dice import Dice
from pbem.core.i18n import Msg, _
from pbem.core.kit import Context

from ..board import hex_name
from ..data import FACES, term
from ..state import State, Unit, uhex, utype


class GameOver(Exception):
    """A player reached the Victory Banners needed (rulebook p.20: the game ends at once)."""


def state_of(ctx: Context) -> State:
    s: State = ctx.state
    return s


def faces(dice: Dice, n: int, purpose: Msg) -> list[str]:
    """`n` battle dice (spec §2.3: die value 1-6 is G B R BS F L), each rolled on its own
    (as `Dice.rolls` does, numbering them, but with the purpose kept a message)."""
    return [FACES[dice.roll(6, _("{purpose} #{i}", purpose=purpose, i=i + 1) if n > 1
                            else purpose)] for i in range(n)]


def standing(s: State, seat: str, *keys: str) -> str | None:
    """The seat's standing order under the first of `keys` it has (unit key first)."""
    found = _standing(s, seat, keys)
    return found[1] if found else None


def _standing(s: State, seat: str, keys: Sequence[str]) -> tuple[str, str] | None:
    mine = s["standing"].get(seat, {})
    for k in keys:
        if k in mine:
            return k, str(mine[k])
    return None


ANSWER = "ANSWER "


def decide(ctx: Context, seat: str, kind: str, keys: Sequence[str], options: Sequence[str],
           default: str, question: Msg, *, resolve_standing: Callable[[str], str] | None = None,
           force: bool = False, public: Msg | str = "") -> str:
    """One decision of `seat` among `options` (answer words such as `12-4`, `yes`, `none`).

    The seat's standing order under `keys` (mapped to an answer by `resolve_standing`),
    then the game's `decisions` setting: `ask` puts the question (`ANSWER <word>`), `auto`
    takes `default` (pbem.core.kit.decide). A standing order that does not fit is never
    passed over in silence: the seat is told, and asked or given the default. `force`: ask
    even with one option (a blind question that must not show whether the seat had a
    choice). `public`: what the other seat is told while it waits (default: the
    question itself)."""
    found = _standing(state_of(ctx), seat, keys) if keys else None
    st = None
    if found is not None:
        st = resolve_standing(found[1]) if resolve_standing is not None else found[1]
        if st not in options and len(options) > 1:
            order = f"{found[0].upper()} {found[1].upper()}"
            text = (_("Your standing order {order} does not fit here (the choices are "
                      "{choices}): you are asked.", order=order, choices=", ".join(options))
                    if ctx.ask else
                    _("Your standing order {order} does not fit here (the choices are "
                      "{choices}): the default ({default}) is taken.", order=order,
                      choices=", ".join(options), default=default))
            ctx.log.private([seat], "standing_unfit", text, seat=seat)
    ans = ctx.decide(seat, kind, question=question, default=ANSWER + default,
                     options=[ANSWER + o for o in options],
                     standing=ANSWER + st if st is not None else None,
                     public=public or question, force=force)
    return ans[len(ANSWER):]


def uname(u: Unit) -> Msg:
    return _("{unit} ({type}, {colour}, {n} fig.) at {hex}", unit=u["id"],
             type=term(utype(u)["name"].lower()), colour=term(u["colour"]), n=u["figures"],
             hex=hex_name(uhex(u)))


def short(u: Unit) -> Msg:
    return _("{unit} at {hex}", unit=u["id"], hex=hex_name(uhex(u)))
