"""Judging an order file on arrival, against the position as it stands (DESIGN §3).

A line that cannot be carried out as the board stands is refused with the reason and the
legal choices; a line that may yet work out (the dice of an earlier line decide it, or it
waits on an IF) is accepted with a note saying what would happen if the board stays as it
is. A turn file is read as a whole, on a plan of the turn: the seat's pieces moved by its
earlier lines, its MÉ and energy spent, its summons and gates made, its pieces that have
attacked. So a line is judged where it stands in the script, and a file that leaves MÉ
unused (Rulebook "Mozgások a játéktéren": "kötelező mindet meglépni", unless a piece gets
into combat) has its last line that spends MÉ refused.

Not here: which lines a step accepts at all (the kit, from the phase table), the per-line
checks that need no plan (ruleset.py `check`), carrying lines out (rules/).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.core.i18n import _, join
from pbem.core.kit import Note, Order, Question, Verdict
from pbem.core.orders import OrderLine
from pbem.rulesets.cherubion import data
from pbem.rulesets.cherubion.orders import (
    DIPLOMACY,
    GRAMMAR,
    TURN_SCRIPT,
    Ally,
    Attack,
    BaseChoice,
    Build,
    CaptureWith,
    Deck,
    Deploy,
    Draw,
    Else,
    Exchange,
    Execute,
    Hostage,
    If,
    Join,
    Lineup,
    Loss,
    Move,
    Pass,
    Place,
    Play,
    Scry,
    StartResource,
    StrikeBack,
    Team,
    Upgrade,
    When,
)
from pbem.rulesets.cherubion.rules.cards import check_play, price, surcharge
from pbem.rulesets.cherubion.rules.combat import attack_problem, free_attackers
from pbem.rulesets.cherubion.rules.diplomacy import offer_problem
from pbem.rulesets.cherubion.rules.life import split_problem
from pbem.rulesets.cherubion.rules.movement import cross_problem, deploy_problem, move_problem
from pbem.rulesets.cherubion.rules.queries import (
    board,
    both,
    can_step,
    carrier_of,
    engaged,
    has_flag,
    hostile_fields,
    name_of,
    on_board,
    visible_hostiles_at,
)
from pbem.rulesets.cherubion.rules.reactions import EFFECT_OF, REACTIONS, answer_problem
from pbem.rulesets.cherubion.rules.resources import build_problem, upgrade_problem
from pbem.rulesets.cherubion.rules.setup import PLACED_PIECES, placement_problem
from pbem.rulesets.cherubion.rules.turn import CARRY_HOME, DRAW_COST
from pbem.rulesets.cherubion.state import Piece, State

ALL_MUST_BE_USED = _("every MÉ must be used (Rulebook \"Mozgások a játéktéren\": \"kötelező "
                     "mindet meglépni\") unless a piece of yours gets into combat")


def judge_file(state: State, seat: str, lines: Sequence[OrderLine]) -> list[OrderLine]:
    """The file's lines with their arrival verdicts (those already refused stay so)."""
    if state["pause"]:
        return list(lines)
    if state["phase"] == "draft":
        return _once_each(lines, (Team, BaseChoice, Lineup, Deck))
    if state["phase"] == "place":
        return _placement(state, seat, lines)
    if state["phase"] == "turn" and state["active"] == seat:
        return Plan(state, seat).judge(lines)
    return list(lines)


def taken_lines(state: State, seat: str, lines: Sequence[str]) -> list[str]:
    """The lines of a file the arrival judgement takes, refused ones dropped until none is
    left (dropping one may refuse a later one): what a bot may send."""
    kept = list(lines)
    for _i in range(len(kept) + 1):
        parsed = GRAMMAR.parse(state, seat, "".join(f"{x}\n" for x in kept)).lines
        judged = judge_file(state, seat, [
            _with(ln, check_line(state, seat, ln.order, None)) if ln.ok else ln
            for ln in parsed])
        bad = {ln.lineno for ln in judged if not ln.ok}
        if not bad:
            return kept
        kept = [x for i, x in enumerate(kept, start=1) if i not in bad]
    return kept


def _with(ln: OrderLine, verdict: Verdict) -> OrderLine:
    if isinstance(verdict, Note):
        return OrderLine(ln.lineno, ln.text, ln.order, None, verdict.text)
    if verdict:
        return OrderLine(ln.lineno, ln.text, None, verdict)
    return ln


def _once_each(lines: Sequence[OrderLine], kinds: tuple[type, ...]) -> list[OrderLine]:
    """The draft: one line of each kind counts; a second is refused."""
    seen: dict[type, int] = {}
    out = []
    for ln in lines:
        kind = type(ln.order) if ln.ok else None
        if kind in kinds and kind in seen:
            ln = _with(ln, _("{verbs} is given on line {kind} already; one counts",
                             verbs=ln.order.verbs[0], kind=seen[kind]))
        elif kind in kinds:
            seen[kind] = ln.lineno
        out.append(ln)
    return out


def _placement(state: State, seat: str, lines: Sequence[OrderLine]) -> list[OrderLine]:
    """Up to 5 pieces anywhere and one starting resource per team, as the seat writes them."""
    placed: list[str] = []
    resources = 0
    teams = len(state["players"][seat]["own_sides"])
    out = []
    for ln in lines:
        o = ln.order
        if ln.ok and isinstance(o, (Place, StartResource)):
            why = placement_problem(state, seat, o, placed)
            if isinstance(o, Place) and not why:
                placed.append(o.piece)
            elif isinstance(o, StartResource) and not why:
                resources += 1
                if resources > teams:
                    why = (_("one starting resource per team ({teams}); this is one more",
                             teams=teams))
            if why and isinstance(o, Place) and "only 5" in why:
                why = (_("only {n} pieces are placed at the start (Rulebook); the rest "
                         "start in your Base: {placed} are placed already",
                         n=PLACED_PIECES, placed=", ".join(placed)))
            ln = _with(ln, why)
        out.append(ln)
    return out


# --- one line, whatever the step ----------------------------------------------------------

def check_line(state: State, seat: str, order: Order, question: Question | None) -> Verdict:
    """A line judged on its own: diplomacy offers, standing orders, answers."""
    if isinstance(order, DIPLOMACY):
        return _offer(state, seat, order)
    if isinstance(order, Place) and order.piece not in state["pieces"]:
        return _("{piece} is not a piece", piece=order.piece)
    if question is not None and question.kind in REACTIONS and isinstance(order, Play):
        return answer_problem(state, seat, order, question.options)
    if question is not None and question.kind == "LOSS" and isinstance(order, Loss):
        return split_problem(state, seat, int(question.data["loss"]), order)
    if state["phase"] == "draft":
        return None  # no pieces yet to check standing orders against
    return _standing(state, seat, order)


def _offer(state: State, seat: str, order: Order) -> Verdict:
    if not isinstance(order, Exchange) and not state["config"]["options"]["diplomacy"]:
        # prisoner exchange is in the rulebook's "Fogolyejtés", not the optional Diplomacy
        # rule: it is always allowed
        return _("Diplomacy is an optional rule not used in this game (option diplomacy=true)")
    if state["phase"] == "draft":
        return _("diplomacy starts after the draft")
    if isinstance(order, (Ally, Hostage, Join, Exchange)):
        return offer_problem(state, seat, order)
    return None


def _standing(state: State, seat: str, o: Order) -> Verdict:
    if isinstance(o, When):
        return _trigger_problem(state, seat, o)
    if isinstance(o, Loss):
        return _pieces_problem(state, seat, o.pieces, "LOSS")
    if isinstance(o, Scry):
        if o.seat == seat or not state["players"][o.seat]["alive"]:
            others = [s for s in state["order"] if s != seat and state["players"][s]["alive"]]
            return _("SCRY names an opponent in the game: {seats}", seats=", ".join(others))
        return None
    if isinstance(o, CaptureWith) and o.carrier not in ("ANY", "NO"):
        p = state["pieces"].get(o.carrier)
        if p is None or p["owner"] != seat or p["transport"] <= 0 or p["loc"] == "gone":
            return _("{carrier} is not a transport piece of yours (yours: {value}); or CAPTURE ANY "
                     "/ NO",
                     carrier=o.carrier, value=", ".join(_transports(state, seat)) or _("none"))
        return None
    if isinstance(o, StrikeBack):
        return _strikeback_problem(state, seat, o)
    return None


def _transports(state: State, seat: str) -> list[str]:
    return sorted(p["id"] for p in state["pieces"].values()
                  if p["owner"] == seat and p["transport"] > 0 and p["loc"] != "gone")


def _pieces_problem(state: State, seat: str, pieces: Sequence[str], verb: str) -> str | None:
    for pid in pieces:
        p = state["pieces"].get(pid)
        if p is None or p["owner"] != seat or p["loc"] == "gone" or p["summoned"]:
            return _("{verb}: {piece} is not one of your characters", verb=verb, piece=pid)
    return None


def _trigger_problem(state: State, seat: str, w: When) -> str | None:
    effect = data.card(w.card)["effect"]
    if effect not in EFFECT_OF[w.event]:
        fits = [e for e, effects in EFFECT_OF.items() if effect in effects]
        card = data.card(w.card)["name_hu"]
        if fits:
            return _("{card} does not answer {event}; it answers {events}", card=card,
                     event=w.event, events=both(fits))
        return _("{card} does not answer {event}; it is no instant answer", card=card,
                 event=w.event)
    for pid in (w.caster, w.on):
        if pid in ("ANY", "ALL"):
            continue
        p = state["pieces"].get(pid)
        if p is None or p["owner"] != seat or p["loc"] == "gone":
            return _("{piece} is not one of your pieces (ANY: any of yours)", piece=pid)
    return None


def _strikeback_problem(state: State, seat: str, o: StrikeBack) -> str | None:
    p = state["pieces"].get(o.piece)
    if p is None or p["owner"] != seat or p["loc"] == "gone":
        return _("{piece} is not one of your pieces", piece=o.piece)
    if o.targets and p["reach"] == 0:
        # Rulebook "Harc több ellenféllel": "a karakternek azzal az ellenséggel kell
        # harcolnia, akivel azonos játékmezőn áll, kivéve ..., ha a karakter képes
        # távolabbi mezőket támadni": only a piece with reach chooses whom it fights
        return (_("{piece} has no reach: it fights the enemy on its own field (Rulebook \"Harc több "
                  "ellenféllel\": \"azzal az ellenséggel kell harcolnia, akivel azonos játékmezőn "
                  "áll\"); a STRIKEBACK plan is for pieces that reach other fields",
                  piece=name_of(state, o.piece)))
    for t in o.targets:
        q = state["pieces"].get(t)
        if q is None or q["loc"] == "gone" or q["owner"] == seat:
            return _("{t} is not an enemy piece", t=t)
    return None


# --- the turn ----------------------------------------------------------------------------

class Plan:
    """The seat's turn as its file plans it: a shallow copy of the state in which its own
    lines' foreseeable effects are made (not the dice)."""

    def __init__(self, state: State, seat: str) -> None:
        self.seat = seat
        self.real = state
        plan: dict[str, Any] = dict(state)
        plan["pieces"] = {pid: dict(p) for pid, p in state["pieces"].items()}
        plan["players"] = {s: dict(pl) for s, pl in state["players"].items()}
        pl = plan["players"][seat]
        pl["hand"] = list(pl["hand"])
        plan["resources"] = dict(state["resources"])
        plan["id_counters"] = dict(state["id_counters"])
        plan["turn"] = {k: (list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict)
                            else v) for k, v in state["turn"].items()}
        self.state: State = plan  # type: ignore[assignment]
        self.me_at_start = pl["me"]
        self.gates = {m["field"]: mid for mid, m in state["markers"].items() if m["kind"] == "T"}
        self.targets: set[str] = set()  # pieces an earlier line attacks or plays a card on
        self.combat = any(engaged(state, p) for p in state["pieces"].values()
                          if p["owner"] == seat)
        self.passes = False  # PASS: the engine walks out what is left
        self.uncertain = False  # an IF/ELSE or a teleport: the MÉ left is not known
        self.carrying = bool(state["players"][seat]["transit"])
        self.draws = 0  # cards drawn by earlier lines (not known on arrival)

    @property
    def me(self) -> int:
        return int(self.state["players"][self.seat]["me"])

    def spend(self, n: int) -> None:
        self.state["players"][self.seat]["me"] -= n

    # --- the file ---------------------------------------------------------------------
    def judge(self, lines: Sequence[OrderLine]) -> list[OrderLine]:
        turn = [i for i, ln in enumerate(lines) if ln.ok and isinstance(ln.order, TURN_SCRIPT)]
        out = list(lines)
        spenders: list[int] = []
        for k, i in enumerate(turn):
            ln = lines[i]
            before = self.me
            verdict = self.line(ln.order, later=len(turn) - k - 1,
                                after_if=k > 0 and isinstance(lines[turn[k - 1]].order, If))
            out[i] = _with(ln, verdict)
            if out[i].ok and self.me < before:
                spenders.append(i)
        return self._unused(out, spenders, turn)

    def _unused(self, out: list[OrderLine], spenders: list[int],
                turn: list[int]) -> list[OrderLine]:
        """MÉ left at the end of the file, as it plans the turn."""
        left = self.me
        if left <= 0 or self.passes or self.combat or self.carrying or not self._can_walk():
            return out
        used = self.me_at_start - left
        why = (_("your lines use {used} of your {me_at_start} MÉ and leave {left}: "
                 "{rule}; add steps to use them (or write PASS: the engine then walks "
                 "them out, as when no orders come)",
                 used=used, me_at_start=self.me_at_start, left=left,
                 rule=ALL_MUST_BE_USED))
        if self.uncertain:
            last = turn[-1] if turn else None
            if last is not None and out[last].ok and out[last].note is None:
                out[last] = _with(out[last], Note(
                    _("up to {left} MÉ may be left unused (what IF lines, gates, drawn cards and "
                      "pieces walking on their own MÉ do is not known now) and would lapse: "
                      "{rule}; PASS last lets the engine walk out what is left",
                      left=left, rule=ALL_MUST_BE_USED)))
            return out
        if spenders:
            out[spenders[-1]] = _with(out[spenders[-1]], why)
        elif turn and out[turn[-1]].ok:
            out[turn[-1]] = _with(out[turn[-1]], Note(_("{left} MÉ are left unused and lapse: "
                                                        "{rule}",
                                                        left=left,
                                                        rule=ALL_MUST_BE_USED)))
        return out

    def _can_walk(self) -> bool:
        return any(p["owner"] == self.seat and on_board(p["loc"]) and not p["captive"]
                   and not p["summoned"] and can_step(p) for p in self.state["pieces"].values())

    # --- one line ---------------------------------------------------------------------
    def line(self, o: Order, *, later: int, after_if: bool) -> Verdict:
        if isinstance(o, Pass):
            if later:
                return _("PASS ends your turn: put it last (it walks out the MÉ you leave)")
            self.passes = True
            return Note(_("the engine walks out the {me} MÉ left (as when no orders come)",
                          me=self.me)) if self.me > 0 else None
        if isinstance(o, If):
            return self.conditional(o.order, str(o.cond))
        if isinstance(o, Else):
            if not after_if:
                return _("ELSE follows an IF line (IF <condition> THEN <order>)")
            return self.conditional(o.order, None)
        if self.carrying and isinstance(o, (Draw, Deploy, Build, Upgrade)):
            return CARRY_HOME
        return self.order(o)

    def conditional(self, o: Order, cond: str | None) -> Verdict:
        """An order that waits on a condition: judged on a copy of the plan; a refusal is
        only a note (the board may be another when the line is reached)."""
        self.uncertain = True
        scratch = Plan(self.state, self.seat)
        scratch.carrying = self.carrying
        verdict = scratch.order(o)
        if isinstance(verdict, str):
            if cond is None:
                return Note(_("otherwise {order}: as the board stands it would be skipped: "
                              "{verdict}", order=str(o), verdict=verdict))
            return Note(_("if {cond} then {order}: as the board stands it would be skipped: "
                          "{verdict}", cond=cond, order=str(o), verdict=verdict))
        return verdict

    def order(self, o: Order) -> Verdict:
        if isinstance(o, Move):
            return self.move(o)
        if isinstance(o, Deploy):
            return self.deploy(o)
        if isinstance(o, Draw):
            return self.draw()
        if isinstance(o, (Build, Upgrade)):
            return self.build(o)
        if isinstance(o, Play):
            return self.play(o)
        if isinstance(o, Attack):
            return self.attack(o)
        if isinstance(o, Execute):
            return self.execute(o)
        return None

    # --- movement -----------------------------------------------------------------------
    def move(self, mv: Move) -> Verdict:
        state, seat = self.state, self.seat
        p = state["pieces"].get(mv.piece)
        if self.carrying and not any(carrier_of(state["pieces"][q]) == mv.piece
                                     for q in state["players"][seat]["transit"]):
            return CARRY_HOME
        if p is not None and p["owner"] == seat and p["loc"] == "nml" and mv.path == ("HOME",):
            self.leave(p, [], home=True)
            return None
        why = move_problem(state, seat, mv)
        if why:
            return why
        assert p is not None
        if engaged(state, p):
            self.combat = self.combat or bool(free_attackers(state, p))
            state["turn"].setdefault("fled", []).append(p["id"])
        if p["summoned"] and p["own_me"]:
            self.uncertain = True  # its own dice: where it gets to is not known
            state["turn"].setdefault("own_moved", []).append(p["id"])
            return None
        if mv.to:
            return self.move_to(p, mv)
        return self.walk(p, mv, list(mv.path))

    def move_to(self, p: Piece, mv: Move) -> Verdict:
        b = board(self.state)
        avoid = hostile_fields(self.state, self.seat)
        route = b.path_to(p["loc"], mv.to, avoid)
        if route is None:
            return _("no route from {loc} to {to} around the enemies you can see",
                     loc=p["loc"], to=mv.to)
        return self.walk(p, mv, route)

    def walk(self, p: Piece, mv: Move, path: list[str]) -> Verdict:
        """Step by step as the board stands: each field next to the last, no enemy in the
        way (a flyer passes over), OUT/HOME last, a gate entered teleports."""
        b = board(self.state)
        cost = 0
        note: Verdict = None
        for i, tok in enumerate(path):
            last = i == len(path) - 1
            if tok.startswith("GATE"):
                return _("{field} follows a field that is no gate ({gate_list})",
                         field=tok, gate_list=join(self.gate_list()))
            if tok in ("OUT", "HOME"):
                why = self.step_out(p, tok, last) or self.pay(p, cost + 1)
                if why:
                    return why
                side = b.side_of[p["loc"]]
                self.leave(p, mv.carry, home=tok == "HOME" or
                           self.state["players"][self.seat]["bases"].count(side) > 0,
                           nml=side in self.state["nml_sides"])
                return note
            if tok not in b.adj[p["loc"]]:
                return (_("{field} is not next to {loc} (next to {loc}: {loc2})",
                          field=tok, loc=p["loc"], loc2=", ".join(b.adj[p["loc"]])))
            cost += 1
            p["loc"] = tok
            for c in mv.carry:
                self.state["pieces"][c]["loc"] = tok
            foes = visible_hostiles_at(self.state, self.seat, tok)
            if foes and (last or not has_flag(p, "flying")):
                self.combat = True
                if last:
                    break
                held = ", ".join(q["id"] for q in foes)
                if not any(q["id"] in self.targets for q in foes):
                    return (_("{field} holds an enemy ({held}): {piece} would stop and fight there;"
                              " end the path on {field} or go around",
                              field=tok, held=held, piece=mv.piece))
                note = Note(_("if {held} still stands on {field} then, {piece} stops there",
                              held=held, field=tok, piece=mv.piece))
            if tok in self.gates:
                return self.pay(p, cost) or self.gate(p, mv, tok, path[i + 1:], note)
        return self.pay(p, cost) or note

    def step_out(self, p: Piece, tok: str, last: bool) -> str | None:
        b = board(self.state)
        if not last:
            return _("{field} ends the path: the piece leaves the board", field=tok)
        if p["loc"] not in b.side_of:
            return _("{field}: {loc} is not a border field", field=tok, loc=p["loc"])
        return cross_problem(self.state, p, b.side_of[p["loc"]])

    def leave(self, p: Piece, carry: Sequence[str], *, home: bool, nml: bool = True) -> None:
        """Off the board: home to the Base (deployed again from the next turn), into
        No-Man's Land, or into a foreign Base (out of the seat's hands)."""
        pl = self.state["players"][self.seat]
        for q in [p] + [self.state["pieces"][c] for c in carry]:
            if q["captive"]:
                q["loc"] = "away"  # a carried body goes to its captor's prison
            elif home and pl["bases"]:
                q["loc"] = f"base:{pl['bases'][0]}"
                q["home_turn"] = pl["turns"]
            else:
                q["loc"] = "nml" if nml else "away"

    def gate(self, p: Piece, mv: Move, field: str, rest: list[str], note: Verdict) -> Verdict:
        """Entering a gate teleports (Rulebook "Teleportálás"): GATE T<n> to another gate,
        GATE ROLL <field> 2d6 steps (the piece walks the MÉ left at the end of the turn)."""
        nxt = rest[0] if rest else ""
        if nxt.startswith("GATE T"):
            mid = nxt.split()[1]
            if mid not in self.gates.values() or self.gates.get(field) == mid:
                return _("{nxt}: {marker} is not another gate ({gate_list})",
                         nxt=nxt, marker=mid, gate_list=join(self.gate_list()))
            p["loc"] = next(f for f, m in self.gates.items() if m == mid)
            return self.walk(p, mv, rest[1:]) if rest[1:] else note
        self.uncertain = True  # where the roll lands is not known
        if nxt.startswith("GATE ROLL"):
            return note
        return Note(_("entering the gate on {field} teleports {piece} 2d6 steps; the steps after it"
                      " are then walked toward the end of the path (write GATE T<n> or GATE ROLL "
                      "<field> after {field} to choose)",
                      field=field, piece=mv.piece))

    def gate_list(self) -> list[str]:
        return [_("{marker} on {field}", marker=m, field=f)
                for f, m in sorted(self.gates.items())] or [_("no gates")]

    def pay(self, p: Piece, cost: int) -> str | None:
        """Steps are paid from the piece's bonus steps (Hétmérföldes Csizma), then MÉ."""
        bonus = self.state["turn"].setdefault("bonus", {})
        free = min(cost, bonus.get(p["id"], 0))
        if cost - free > self.me:
            if free:
                return _("the path takes {cost} MÉ ({free} of them bonus steps); {me} are left "
                         "after the lines before it", cost=cost, free=free, me=self.me)
            return _("the path takes {cost} MÉ; {me} are left after the lines before it",
                     cost=cost, me=self.me)
        if free:
            bonus[p["id"]] -= free
        self.spend(cost - free)
        return None

    def deploy(self, o: Deploy) -> Verdict:
        why = deploy_problem(self.state, self.seat, o.piece, o.field)
        if why:
            return why
        p = self.state["pieces"][o.piece]
        self.spend(p["kk"])
        p["loc"] = o.field
        if visible_hostiles_at(self.state, self.seat, o.field):
            self.combat = True
        return None

    def draw(self) -> Verdict:
        pl = self.state["players"][self.seat]
        if self.me < DRAW_COST:
            return _("a card costs {cost} MÉ; {me} are left after the lines before it",
                     cost=DRAW_COST, me=self.me)
        if not pl["deck"] and pl["deck_top"] is None:
            return _("your deck is empty")
        self.spend(DRAW_COST)
        self.draws += 1
        return None

    def build(self, o: Build | Upgrade) -> Verdict:
        if isinstance(o, Upgrade):
            why = upgrade_problem(self.state, self.seat, o.field, o.size)
        else:
            why = build_problem(self.state, self.seat, o.size, o.field)
        if why:
            return why
        self.spend(data.RESOURCE_TABLE[o.size]["me"])
        if isinstance(o, Build):
            self.state["resources"][f"planned {o.field}"] = {
                "id": "", "owner": self.seat, "field": o.field, "size": "small", "ep": 1,
                "active": False}
        return None

    # --- cards and blows ------------------------------------------------------------------
    def play(self, o: Play) -> Verdict:
        state, seat = self.state, self.seat
        drawn = o.card not in state["players"][seat]["hand"] and self.draws > 0
        if drawn:  # a card an earlier DRAW may bring: judged as if it did
            state["players"][seat]["hand"].append(o.card)
        why = check_play(state, seat, o)
        if drawn and not why:
            self.uncertain = True
            self.play_made(o)
            return Note(_("{card} is not in your hand now: the line is carried out if an earlier "
                          "DRAW brings it",
                          card=data.card(o.card)["name_hu"]))
        if drawn:
            state["players"][seat]["hand"].remove(o.card)
        touched = [t for t in o.targets if t in self.targets]
        if why and touched:  # an earlier line's dice decide (a heal may revive a body)
            return Note(_("as the board stands it would be refused ({why}); an earlier line acts on"
                          " {touched} first",
                          why=why, touched=", ".join(touched)))
        if why:
            return why
        self.play_made(o)
        return None

    def play_made(self, o: Play) -> None:
        """The card's foreseeable effects on the plan: its price paid, the card gone from
        the hand, steps, energy, gates and summoned pieces made."""
        state, seat = self.state, self.seat
        extra = surcharge(state, state["pieces"][o.caster], o.card)
        assert isinstance(extra, int)
        pl = state["players"][seat]
        pl["energy"] -= price(state, seat, o.card, extra, o.k)
        pl["hand"].remove(o.card)
        self.targets |= set(o.targets)
        c = data.card(o.card)
        if c["effect"] == "bonus_steps":
            state["turn"].setdefault("bonus", {})[o.targets[0]] = c["steps"]
        elif c["effect"] in ("dark_flame", "wring"):
            pl["energy"] += c["energy"]
        elif c["effect"] == "gate":
            self.gates[o.targets[0]] = f"T{state['id_counters'].get('T', 0) + 1}"
            state["id_counters"]["T"] = state["id_counters"].get("T", 0) + 1
        elif c["effect"] == "summon":
            self.summon(o, c)

    def summon(self, o: Play, c: dict[str, Any]) -> None:
        """A summoned piece stands on its field for the later lines (its id is the next
        S number)."""
        n = self.state["id_counters"].get("S", 0) + 1
        self.state["id_counters"]["S"] = n
        s = c["summon"]
        self.state["pieces"][f"S{n}"] = {
            "id": f"S{n}", "name": c["name_en"], "owner": self.seat, "origin": self.seat,
            "teams": [], "kind": "creature", "summoned": True, "card": o.card,
            "loc": o.targets[0], "ep": s["ep"], "max_ep": s["ep"], "tk": s["tk"],
            "vsz": s["vsz"], "fe": s["fe"], "reach": s["reach"], "transport": 0, "kk": 0,
            "flags": list(s.get("flags", [])), "own_me": s["own_me"], "status": {},
            "attached": [], "hidden": None, "captive": None, "home_turn": -1}

    def attack(self, o: Attack) -> Verdict:
        state, seat = self.state, self.seat
        att = state["pieces"].get(o.piece)
        if att is None or att["owner"] != seat or att["loc"] == "gone":
            return _("{piece} is not one of your pieces", piece=o.piece)
        why = attack_problem(state, att, o.target)
        if why:
            reach = [q["id"] for q in state["pieces"].values()
                     if attack_problem(state, att, q["id"]) is None] + \
                [r for r in state["resources"] if r in self.real["resources"]
                 and attack_problem(state, att, r) is None]
            return _("{why} (in reach of {piece} now: {value})",
                     why=why, piece=o.piece, value=", ".join(sorted(reach)) or _("none"))
        state["turn"].setdefault("attacked", []).append(o.piece)
        self.targets.add(o.target)
        self.combat = True
        return self.capture_clause(o)

    def capture_clause(self, o: Attack) -> Verdict:
        if not o.capture:
            return None
        state = self.state
        carrier = state["pieces"].get(o.capture)
        if carrier is None or carrier["owner"] != self.seat or carrier["transport"] <= 0:
            mine = sorted(p["id"] for p in state["pieces"].values()
                          if p["owner"] == self.seat and p["transport"] > 0
                          and p["loc"] != "gone")
            return _("CAPTURE {piece}: not a transport piece of yours (yours: {yours})",
                     piece=o.capture, yours=", ".join(mine) or _("none"))
        target = state["pieces"].get(o.target)
        if target is not None and target["summoned"]:
            return Note(_("{target} is a summoned piece: it cannot be captured (Rulebook \"A "
                          "megidézett lények\": \"A megidézett lényeket nem lehet foglyul ejteni!\"); "
                          "the attack goes on without CAPTURE",
                          target=o.target))
        return None

    def execute(self, o: Execute) -> Verdict:
        p = self.state["pieces"].get(o.piece)
        if p is None or p["loc"] != f"prison:{self.seat}":
            held = sorted(q["id"] for q in self.state["pieces"].values()
                          if q["loc"] == f"prison:{self.seat}")
            return (_("{piece} is not a prisoner in your Base (your prisoners: {value})",
                      piece=o.piece, value=", ".join(held) or _("none")))
        p["loc"] = "gone"
        return None
