"""Order lines judged on arrival, against the position as it stands (DESIGN section 3):
a line that is illegal now and cannot become legal is refused with the reason and the
legal choices; a line that may still become legal (or illegal) through the play before it
is reached is accepted with a note of what would happen if the board stays as it is.

- `check`: one line on its own (set-up, Phase 2, CATCHUP, answers to questions);
- `script`: a Phase 1 file as a whole: its turns and alternatives (rules/script.py). The
  turn the seat on turn plays now is judged for good; stored turns get notes. An
  alternative with a refused line is refused as a whole, so that a typo never costs the
  tile choice.

Not here: the step a line belongs to (the kit's phase table), carrying lines out (rules/).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.core.i18n import Msg, _, join
from pbem.core.kit import Note, Order, Verdict
from pbem.core.orders import OrderLine, Parsed
from pbem.rulesets.helios import board, data
from pbem.rulesets.helios.board import key
from pbem.rulesets.helios.orders import (
    ACTIONS,
    Action,
    Activate,
    Bonus,
    Build,
    Catchup,
    Estate,
    Hire,
    Next,
    Or,
    Place,
    Start,
    Sun,
    Take,
    Temple,
    plan_target,
)
from pbem.rulesets.helios.rules import actions, characters, economy, land, script, turns
from pbem.rulesets.helios.rules.script import Alternative, Block
from pbem.rulesets.helios.rules.seats import catchup_seats, current_seat, turn_order
from pbem.rulesets.helios.state import State
from pbem.rulesets.helios.words import idterms, term, terms


def asked(state: State, seat: str, kind: str) -> bool:
    pause = state["pause"]
    return pause is not None and any(q["seat"] == seat and q["kind"] == kind
                                     for q in pause["questions"])


# --- one line ----------------------------------------------------------------------------

def check(state: State, seat: str, order: Order) -> Verdict:
    phase = state["phase"]
    if isinstance(order, Catchup):
        return catchup(state, seat, order)
    if phase == "actions" and state["options"]["conditional_orders"] == "no" and (
            isinstance(order, Or | Next) or (isinstance(order, Take) and order.only_if)):
        return _("conditional orders (OR, NEXT, IF) are switched off in this game; send one "
                 "plain turn")
    if isinstance(order, Take) and contradiction(order):
        return contradiction(order)
    if isinstance(order, Hire):
        return hire(state, seat, order)
    if isinstance(order, Activate):
        return activate(state, seat, order)
    if isinstance(order, Estate):
        return estate(state, seat, order)
    return None


def catchup(state: State, seat: str, o: Catchup) -> Verdict:
    """Rulebook p. 2, 13: seats 3 and 4 place a resource of their choice on a tile that can
    take it ("soha nem lehet kettőnél több nyersanyaga egy ... lapkán"; none on a temple)."""
    p = state["players"][seat]
    if state["phase"] == "setup":
        if seat not in catchup_seats(state):
            return _("only seats 3 and 4 after the start player get a set-up resource")
        if o.cell is not None and o.cell != board.CENTRE:
            return _("at set-up the extra resource goes on your start tile; write CATCHUP "
                     "{colour} (or AT 0,0)", colour=o.colour)
        return None
    if o.cell is None:
        return None
    problem = economy.cube_problem(p, o.cell)
    if problem is None:
        return None
    where = ", ".join(economy.cube_tiles(p)) or _("none")
    t = p["tiles"].get(key(o.cell))
    definite = (t is not None and t["temple"]) or asked(state, seat, "catchup") or (
        t is None and state["phase"] != "actions")
    if definite:
        return _("{problem}; tiles that can take a resource: {cells}", problem=problem,
                 cells=where)
    return Note(_("{problem} now; if it still is, the resource goes on the first tile that "
                  "can take it (now: {cells})", problem=problem, cells=where))


def contradiction(t: Take) -> Msg | None:
    """TAKE ... IF <colours> UNDER <area> where no listed colour may go under that area."""
    if t.under and t.only_if and all(c in data.AREAS and c != t.under for c in t.only_if):
        return _("a {colours} tile cannot go under {area} (rulebook p. 4: a coloured tile "
                 "goes under its own colour; UNDER is for a grey tile)",
                 colours=terms(t.only_if, "/"), area=term(t.under))
    return None


def hire(state: State, seat: str, o: Hire) -> Verdict:
    free = [n for n in o.names if state["characters"][n]["owner"] is None]
    if not free:
        still = [c for c in data.CHARACTERS if state["characters"][c]["owner"] is None]
        return _("{problem}; free now: {characters}", problem=characters.hire_problem(
            state, seat, o), characters=idterms(still) or _("none"))
    if characters.hire_choice(state, seat, o) is None:
        return Note(_("{problem} (mana from activations earlier in your turn counts)",
                      problem=characters.hire_problem(state, seat, o)))
    return None


def activate(state: State, seat: str, o: Activate) -> Verdict:
    ch = state["characters"][o.name]
    name = term(o.name)
    if ch["owner"] not in (None, seat):
        return _("the {character} is {seat}'s", character=name, seat=ch["owner"])
    if ch["owner"] == seat and ch["active"]:
        return _("your {character} is already active", character=name)
    p = state["players"][seat]
    if o.cell is not None:
        problem = economy.cube_problem(p, o.cell)
        t = p["tiles"].get(key(o.cell))
        if problem and (t is None or t["temple"]):  # no tile is built in Phase 2
            return _("{problem}; tiles that can take a resource: {cells}", problem=problem,
                     cells=", ".join(economy.cube_tiles(p)) or _("none"))
        if problem:
            return Note(_("{problem} now; if it still is, the resource goes on the first tile "
                          "that can take it", problem=problem))
    if ch["owner"] is None:
        return Note(_("you do not own the {character} yet: this line waits until you hire it",
                      character=name))
    problem = economy.payment(p, list(data.characters()[o.name]["cost"]), o.pay, name)[1]
    return Note(_("if the board stays as it is: {problem}", problem=problem)) if problem \
        else None


def estate(state: State, seat: str, o: Estate) -> Verdict:
    p = state["players"][seat]
    legal = board.legal_placements(board.tileset(p), board.sun_cell(p))
    bad = [key(cell) for _kind, cell in map(plan_target, o.cells) if cell not in legal]
    if bad:
        return Note(_("{cells}: no tile can go there now (the first tile placed may change "
                      "that); legal cells now: {legal}", cells=", ".join(bad),
                      legal=", ".join(map(key, legal)) or _("none")))
    return None


# --- a Phase 1 script ---------------------------------------------------------------------

def script_verdicts(state: State, seat: str, parsed: Parsed) -> Parsed:
    """Judge a Phase 1 file as a whole (see the module's docstring)."""
    lines = list(parsed.lines)
    verdict: dict[int, Msg | Note] = {}
    structure(lines, verdict)
    blocks = script.split(lines)
    now = seat == current_seat(state)
    left = turn_order(state)[state["turn_index"] + (1 if now else 0):].count(seat)
    for k, block in enumerate(blocks):
        turn = k if now else k + 1  # which coming turn (0: the one played now)
        if turn > left and block.alternatives:
            for ln in block.lines():
                verdict.setdefault(ln.lineno, _("you have {left} more turn(s) this round; this "
                                                "would be your coming turn no. {n}", left=left,
                                                n=turn))
            continue
        for alt in block.alternatives:
            judge_alternative(state, seat, alt, verdict, definite=now and k == 0)
            whole_alternative(alt, verdict)
    empty_turns(blocks, now, verdict)
    return Parsed.of(_apply(ln, verdict.get(ln.lineno)) for ln in lines)


def _apply(ln: OrderLine, v: Msg | Note | None) -> OrderLine:
    if not ln.ok or v is None:
        return ln
    if isinstance(v, Note):
        return OrderLine(ln.lineno, ln.text, ln.order, None, v.text)
    return OrderLine(ln.lineno, ln.text, None, v)


def structure(lines: Sequence[OrderLine], verdict: dict[int, Any]) -> None:
    """Each alternative is TAKE, at most one action fitting the tile's symbol, and BONUS
    lines; OR starts the next alternative, NEXT the next turn (and a turn must follow)."""
    took = acted = False
    column = ""
    for i, ln in enumerate(lines):
        o = ln.order
        err = None
        if not ln.ok or isinstance(o, Catchup):
            continue
        if isinstance(o, Take):
            if took:
                err = _("a second TAKE in one alternative; write OR (or NEXT) before it")
            took, acted, column = True, False, o.column
        elif isinstance(o, Or | Next):
            after = next((x.order for x in lines[i + 1:] if not isinstance(x.order, Catchup)),
                         None)
            if not took:
                err = _("{verb} must follow a TAKE", verb=str(o))
            elif isinstance(o, Or) and not isinstance(after, Take):
                err = _("OR must be followed by the TAKE of the next alternative")
            elif isinstance(o, Next) and not any(
                    isinstance(x.order, Take) for x in lines[i + 1:]):
                err = _("NEXT must be followed by your next turn (TAKE ...)")
            took = acted = False
        elif isinstance(o, Bonus):
            if not took:
                err = _("BONUS must follow a TAKE")
        elif isinstance(o, ACTIONS):
            if not took:
                err = _("start a turn with TAKE before {verb}", verb=str(o).split()[0])
            elif acted:
                err = _("one action per turn; write OR to start an alternative")
            else:
                err = actions.mismatch(column, o)
            acted = True
        if err:
            verdict[ln.lineno] = err


def judge_alternative(state: State, seat: str, alt: Alternative, verdict: dict[int, Any],
                      *, definite: bool) -> None:
    """The turn played now is judged for good (nothing changes before it); a stored turn
    is refused only where it can never become legal, and noted otherwise."""
    if alt.take is None or alt.take_line is None:
        return
    if definite:
        why = turns.take_problem(state, alt.take)
        if why:
            verdict.setdefault(alt.take_line.lineno, join([why, columns(state)], "; "))
    if alt.action is not None and alt.action_line is not None:
        why = actions.check(state, seat, alt.action)
        if why and (definite or never(state, seat, alt.action)):
            more = choices(state, seat, alt.action)
            verdict.setdefault(alt.action_line.lineno, join([why, more], "; ") if more else why)
        elif why:
            verdict.setdefault(alt.action_line.lineno,
                               Note(_("if the board stays as it is: {problem}", problem=why)))
    for b in alt.bonus:
        why = actions.check(state, seat, b.action)
        if why:
            verdict.setdefault(b.line.lineno, Note(_("as the board stands now: {problem}; it is "
                                                     "tried when the bonus action comes",
                                                     problem=why)))


def whole_alternative(alt: Alternative, verdict: dict[int, Any]) -> None:
    """An alternative with a refused line (or one that did not parse) is refused whole."""
    bad = next((ln for ln in alt.lines if not ln.ok or isinstance(verdict.get(ln.lineno), str)),
               None)
    if bad is None:
        return
    for ln in alt.lines:
        if ln is not bad and not isinstance(verdict.get(ln.lineno), str):
            verdict[ln.lineno] = _("its alternative is refused with line {n}; an alternative "
                                   "is used whole or not at all", n=bad.lineno)


def usable(block: Block, verdict: dict[int, Any]) -> bool:
    return any(ln.ok and not isinstance(verdict.get(ln.lineno), str)
               for alt in block.alternatives for ln in alt.lines)


def empty_turns(blocks: Sequence[Block], now: bool, verdict: dict[int, Any]) -> None:
    """A turn whose every alternative is refused: its NEXT line says what happens then."""
    for k, block in enumerate(blocks):
        if usable(block, verdict):
            continue
        if k == 0 and now and len(blocks) > 1:
            line = blocks[1].next_line
            text = _("no usable alternative for your turn now: unless you send a better one, "
                     "the default turn is played (TAKE sun, DECLINE)")
        else:
            line = block.next_line
            text = _("no usable alternative for this turn: when it comes, you will be asked")
        if line is not None and line.lineno not in verdict:
            verdict[line.lineno] = Note(text)


def never(state: State, seat: str, o: Action) -> bool:
    """Can this action never become legal this round, whatever happens first?"""
    p = state["players"][seat]
    if isinstance(o, Place):
        return not board.is_light(o.cell)
    if isinstance(o, Temple):
        t = p["tiles"].get(key(o.cell))
        return not board.is_light(o.cell) or (t is not None and t["temple"])
    if isinstance(o, Build):
        return o.building in p["buildings"]
    if isinstance(o, Sun):
        return any(not board.on_board(c) or key(c) in p["tiles"] for c in o.cells)
    return False


def columns(state: State) -> Msg:
    have = [_("{column} (lowest {colour})", column=term(c), colour=term(state["columns"][c][-1]))
            for c in data.SYMBOLS if state["columns"][c]]
    return _("columns with tiles: {columns}", columns=join(have) if have else _("none"))


def choices(state: State, seat: str, o: Action) -> Msg | None:
    """The legal choices, where a refusal does not already name them."""
    p = state["players"][seat]
    if isinstance(o, Place) and land.display_slot(state, o.item) is None:
        return _("on offer: {tiles}", tiles=idterms(land.offered_items(state)) or _("nothing"))
    if isinstance(o, Place):
        cells = board.legal_placements(board.tileset(p), board.sun_cell(p))
        return _("you can place a tile on {cells}",
                 cells=", ".join(map(key, cells)) or _("no cell"))
    if isinstance(o, Build):
        built = [b for b in data.BUILDINGS if b not in p["buildings"]
                 and actions.check(state, seat, Build(b)) is None]
        return _("you can build {buildings}", buildings=idterms(built) or _("nothing now"))
    return None


def setup_file(state: State, seat: str, parsed: Parsed) -> Parsed:
    """Set-up: one START, one CATCHUP (seats 3 and 4); with `setup_bonus_must_differ` the
    extra resource differs from the start tile's."""
    seen: set[type] = set()
    start = next((ln.order.land for ln in parsed.lines if ln.ok and isinstance(ln.order, Start)),
                 data.STARTING_LANDS[state["seats"].index(seat) % 3])
    out = []
    for ln in parsed.lines:
        o = ln.order
        if ln.ok and type(o) in seen:
            ln = OrderLine(ln.lineno, ln.text, None, _("a second {verb}: send one",
                                                       verb=str(o).split()[0]))
        elif ln.ok and isinstance(o, Catchup) and \
                state["options"]["setup_bonus_must_differ"] == "yes" and \
                o.colour == data.LAND_COLOUR[start]:
            ln = OrderLine(ln.lineno, ln.text, None, _(
                "your {tile} start tile already holds {colour}; this game's extra resource "
                "must differ (option setup_bonus_must_differ)", tile=term(start),
                colour=term(o.colour)))
        if ln.ok:
            seen.add(type(o))
        out.append(ln)
    return Parsed.of(out)
