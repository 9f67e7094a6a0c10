"""Instant cards in other players' turns: reaction windows, their stack, standing triggers.

Rulebook "A kártyalapok felépítése" (instants any time, e.g. a counterspell against an
opponent's spell), "Időbeliség a játékon belül" (empty in the text); spec §5.21 [A].

Windows (spec §5.21.1), each with the seats that may answer (spec §5.21.2: anyone with an
instant, the energy and a caster in range):
- CAST (W1): a card is announced openly; every other seat may cancel it (Ellenvarázs).
- DAMAGE (W3): a damage roll; every seat hostile to the attacker may play Éppenhogy.
- ZERO (W4): at the end step, a piece at exactly 0 ÉP; every seat may heal it.
- AFTER: a card played openly has resolved and left a permanent card or a binding status
  (asleep, immobile, bound) on a piece; every other seat may answer with Kötés Oldása or
  Maradandóság Feloldása (Rulebook "A kártyalapok felépítése": instants at any time).
- TELEPORT: a hostile piece enters a gate or goes home through No-Man's Land; every
  seat hostile to it may play Hamis Utazás II (it lands in that seat's Base).
- BUILD (W7): an enemy has announced a build or upgrade and paid its MÉ; every seat
  hostile to him may stop it (card n30, Rulebook: an instant can stop a building).
- START: another player's turn begins; every seat but his may remove a status or a
  permanent card a hostile player put on (its own pieces, its allies', or a hostile
  permanent anywhere) or heal a friendly piece: instants "at any time" for what is
  already on the board. A seat that answers is offered the window again (one more
  instant), until it passes.

The seats are offered a window in turn order after the active seat, the active seat last.
Each seat decides through `ctx.decide`: its standing triggers first (`WHEN ...`, each
fires at most once per turn; `ON ANY` only in a window that concerns one of its pieces or
itself, `ON ALL` in any), then with option decisions=ask a seat holding a playable answer
(every seat the rules allow, with ask_blind) is asked; the default is PASS. An answer is
paid at once and goes on the window's stack, where it opens a CAST window of its own; when
every seat has passed on the top item, it resolves, then the window below goes on with the
seats not yet offered it. A seat is offered each window (each stack item) once.

The stack lives in `Item`s for the length of one window: nothing of it is kept in the state
(a resolution that stops for a question is run again from the start of the step).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pbem.core.i18n import Msg, _, join
from pbem.core.kit import Context, Effects
from pbem.rulesets.cherubion import data
from pbem.rulesets.cherubion.orders import GRAMMAR, Play, When
from pbem.rulesets.cherubion.rules.cards import (
    card_range,
    check_play,
    pay,
    price,
    resolve_card,
    surcharge,
)
from pbem.rulesets.cherubion.rules.life import to_grave
from pbem.rulesets.cherubion.rules.queries import (
    alive_seats,
    ask_mode,
    board,
    can_act,
    card_label,
    either,
    hostile,
    is_body,
    name_of,
    on_board,
)
from pbem.rulesets.cherubion.state import Piece, State

Info = dict[str, Any]

# the instant effects that answer each window; a heal in a DAMAGE window heals the victim
# before the damage is applied (spec §10 #29: any instant in any window; its use: keeping
# a hurt piece alive through a blow)
REACTIONS = ("CAST", "DAMAGE", "ZERO", "AFTER", "TELEPORT", "BUILD", "START")
EFFECT_OF = {"CAST": ("counter",), "DAMAGE": ("just_barely", "heal"),
             "ZERO": ("heal",), "TELEPORT": ("false_journey_teleport",),
             "AFTER": ("unbind", "dispel"), "BUILD": ("stop_build",),
             "START": ("unbind", "dispel", "heal")}

# what the other seats are told while a seat is asked (its hand stays secret)
PUBLIC = {"CAST": _("whether to answer a card"), "DAMAGE": _("whether to answer a damage roll"),
          "ZERO": _("whether to heal a piece at 0 ÉP"),
          "AFTER": _("whether to remove what a card left on a piece"),
          "TELEPORT": _("whether to divert a teleport"),
          "BUILD": _("whether to stop a building"),
          "START": _("whether to play an instant as the turn begins")}


@dataclass
class Item:
    """One item of a window's stack: the event the window opened for (the bottom), or an
    answer card put on it. `seat`: who played or did it (None for a blow or a piece at 0)."""

    seat: str | None
    answered: list[str] = field(default_factory=list)  # seats offered this item
    countered: bool = False  # cancelled (Ellenvarázs, Építkezés Megakadályozása)
    diverted: str | None = None  # Hamis Utazás II: the seat whose Base it goes to
    play: Play | None = None  # an answer's card
    event: str = ""  # the window an answer answered
    info: Info = field(default_factory=dict)


def _aim(event: str, effect: str, info: Info) -> str | None:
    """The piece an answer targets: the cancelled card's caster (CAST), the attacker
    (Éppenhogy) or the victim (a heal) in a DAMAGE window, the piece at 0 (ZERO), the
    teleporting piece (TELEPORT)."""
    if event == "CAST":
        return info.get("caster")
    if event == "BUILD":
        return None  # the building itself, which is not a piece
    if event == "DAMAGE":
        return info.get("victim") if effect == "heal" else info.get("attacker")
    return info.get("piece")  # ZERO, TELEPORT, AFTER (the bound or enchanted piece)


def responders(state: State, seats: list[str]) -> list[str]:
    """Seats in turn order starting after the active seat, the active seat last."""
    order = alive_seats(state)
    if state["active"] in order:
        i = order.index(state["active"])
        order = order[i + 1:] + order[:i + 1]
    return [s for s in order if s in seats]


def target_field_of(state: State, event: str, info: Info, effect: str = "") -> str | None:
    """Where the answering card must reach: its target piece's field (see `_aim`), or
    the gate (TELEPORT)."""
    if event in ("TELEPORT", "BUILD"):
        return info.get("field")
    p = state["pieces"].get(_aim(event, effect, info) or "")
    if p is None or not on_board(p["loc"]):
        return None
    return p["loc"]


def _best(state: State, seat: str, event: str, cid: str, caster_id: str,
          info: Info) -> Play | None:
    """The cheapest legal answer with `cid` by `caster_id` (or "ANY"), or None."""
    effect = data.card(cid)["effect"]
    goal = target_field_of(state, event, info, effect)
    if goal is None:
        return None
    if effect == "heal" and event == "DAMAGE":
        victim = state["pieces"][info["victim"]]
        if victim["ep"] >= victim["max_ep"]:
            return None  # nothing to heal before the blow
    if event == "AFTER":
        victim = state["pieces"][info["piece"]]
        if not victim["attached"] and not (effect == "unbind" and victim["status"]):
            return None  # nothing left for it to remove
    casters = [p for p in state["pieces"].values()
               if p["owner"] == seat and not p["summoned"] and on_board(p["loc"])
               and can_act(p) and (caster_id == "ANY" or p["id"] == caster_id)]
    energy = state["players"][seat]["energy"]
    best: tuple[int, int, str] | None = None
    for p in sorted(casters, key=lambda q: q["id"]):
        extra = surcharge(state, p, cid)
        if isinstance(extra, str):
            continue
        d = board(state).distance(p["loc"], goal)
        k = 1
        while card_range(state, seat, cid, k) < d:
            k += 1
        cost = price(state, seat, cid, extra, k)
        if cost <= energy and (best is None or (cost, k, p["id"]) < best):
            best = (cost, k, p["id"])
    if best is None:
        return None
    target = _aim(event, effect, info)
    return Play(cid, best[2], (target,) if target else (), best[1])


def _play_on(state: State, seat: str, cid: str, caster_id: str, target: str) -> Play | None:
    """The cheapest legal play of `cid` on `target` by `caster_id` (or "ANY") now, by the
    card rules themselves (`check_play`: caster, range at x k, Base targets, energy)."""
    energy = state["players"][seat]["energy"]
    best: tuple[int, int, str] | None = None
    for p in sorted(state["pieces"].values(), key=lambda q: q["id"]):
        if p["owner"] != seat or p["summoned"] or p["loc"] == "gone" or \
                caster_id not in ("ANY", p["id"]):
            continue
        extra = surcharge(state, p, cid)
        if isinstance(extra, str):
            continue
        k = 1
        while price(state, seat, cid, extra, k) <= energy and k <= 10:
            play = Play(cid, p["id"], (target,), k)
            if check_play(state, seat, play, reaction=True) is None:
                cost = price(state, seat, cid, extra, k)
                if best is None or (cost, k, p["id"]) < best:
                    best = (cost, k, p["id"])
                break
            k += 1
    return None if best is None else Play(cid, best[2], (target,), best[1])


def _foe_card(state: State, seat: str, p: Piece) -> bool:
    """Is the permanent card a removal would take off `p` (the last attached) a hostile
    player's?"""
    return bool(p["attached"]) and hostile(state, seat, p["attached"][-1]["owner"])


def start_targets(state: State, seat: str, effect: str) -> list[str]:
    """What `seat` may play an instant of `effect` on when another player's turn begins,
    where it helps `seat`: heal a hurt friendly piece; end a hostile player's status on a
    friendly piece (Kötés Oldása ends the status first); take a hostile player's permanent
    card off any piece; close a hostile gate or dispel a hostile Ménes."""
    out = []
    for p in sorted(state["pieces"].values(), key=lambda q: q["id"]):
        if p["loc"] == "gone" or (p["hidden"] and p["owner"] != seat):
            continue
        friend = not hostile(state, seat, p["owner"])
        if effect == "heal":
            if friend and p["ep"] < p["max_ep"] and not is_body(p):
                out.append(p["id"])
        elif effect == "unbind" and p["status"]:
            first = p["status"][sorted(p["status"])[0]]
            if friend and hostile(state, seat, first["owner"]):
                out.append(p["id"])
        elif effect in ("unbind", "dispel") and _foe_card(state, seat, p):
            out.append(p["id"])
    if effect == "dispel":
        out += [mid for mid, m in sorted(state["markers"].items())
                if m["kind"] == "T" and hostile(state, seat, m["owner"])]
        out += [s for s in alive_seats(state)
                if state["players"][s]["herd"] and hostile(state, seat, s)]
    return out


def start_concerns(state: State, seat: str) -> list[str]:
    """What a hostile player has put on `seat`'s own pieces (statuses, permanent cards):
    public facts, so asking about them (also with ask_blind) tells nothing of a hand."""
    out = []
    for p in sorted(state["pieces"].values(), key=lambda q: q["id"]):
        if p["owner"] != seat or p["loc"] == "gone":
            continue
        out += [f"{p['id']}:{n}:{s['owner']}:{s['until']}"
                for n, s in sorted(p["status"].items()) if hostile(state, seat, s["owner"])]
        out += [f"{p['id']}:{'face-down' if a.get('secret') else a['card']}:{a['owner']}"
                for a in p["attached"] if hostile(state, seat, a["owner"])]
    return out


def start_options(state: State, seat: str) -> list[Play]:
    out = []
    for cid in sorted(set(state["players"][seat]["hand"])):
        eff = data.card(cid)["effect"]
        if eff in EFFECT_OF["START"]:
            for t in start_targets(state, seat, eff):
                play = _play_on(state, seat, cid, "ANY", t)
                if play is not None:
                    out.append(play)
    return out


def options(state: State, seat: str, event: str, info: Info) -> list[Play]:
    """Every answer `seat` could play in this window now (one per card: the cheapest)."""
    if event == "START":
        return start_options(state, seat)
    out = []
    for cid in sorted(set(state["players"][seat]["hand"])):
        if data.card(cid)["effect"] in EFFECT_OF[event]:
            p = _best(state, seat, event, cid, "ANY", info)
            if p is not None:
                out.append(p)
    return out


def concerned(event: str, seat: str, info: Info) -> bool:
    """Does the window concern `seat` (its piece is the target, victim or zeroed piece, or
    it is the targeted player)? `WHEN ... ON ANY` fires only then; `ON ALL` always."""
    return event in ("TELEPORT", "BUILD") or info.get("mine") is not None or \
        seat in info.get("concerns", ())


def _trigger_fits(state: State, seat: str, event: str, info: Info, w: When) -> bool:
    if w.event != event:
        return False
    if event != "START":  # START picks its own target
        if w.on == "ANY" and not concerned(event, seat, info):
            return False
        if w.on not in ("ANY", "ALL") and w.on != info.get("mine"):
            return False
    if event in ("CAST", "AFTER") and w.subject != "ANY" and w.subject != info.get("card"):
        return False
    if event == "DAMAGE" and info.get("damage", 0) < w.over:
        return False
    return data.card(w.card)["effect"] in EFFECT_OF[event] and \
        w.card in state["players"][seat]["hand"]


def _start_trigger(state: State, seat: str, w: When) -> Play | None:
    """ON ANY: a target on one of my pieces; ON ALL: any target that helps me."""
    for t in start_targets(state, seat, data.card(w.card)["effect"]):
        owner = state["pieces"][t]["owner"] if t in state["pieces"] else None
        if (w.on == "ANY" and owner != seat) or w.on not in ("ANY", "ALL", t):
            continue
        play = _play_on(state, seat, w.card, w.caster, t)
        if play is not None:
            return play
    return None


def trigger(state: State, seat: str, event: str, info: Info) -> Play | None:
    """The play of `seat`'s first standing trigger that fits this window (it fires at most
    once per turn), or None."""
    fired = state["turn"].setdefault("fired", [])
    for i, raw in enumerate(state["players"][seat]["triggers"]):
        w = When(**raw)
        if f"{seat}:{i}" in fired or not _trigger_fits(state, seat, event, info, w):
            continue
        play = _start_trigger(state, seat, w) if event == "START" else \
            _best(state, seat, event, w.card, w.caster, info)
        if play is not None:
            fired.append(f"{seat}:{i}")
            return play
    return None


def others(state: State, seat: str) -> list[str]:
    """Every living seat but `seat`: who may answer a card `seat` plays (spec §5.21.2)."""
    return [s for s in state["players"] if s != seat and state["players"][s]["alive"]]


def enemies(state: State, seat: str) -> list[str]:
    """Living seats hostile to `seat` (Éppenhogy answers an *enemy* attacker, spec n05)."""
    return [s for s in others(state, seat) if hostile(state, s, seat)]


def _frame_info(state: State, frame: Item, below: str | None) -> Info:
    """The CAST window an answer card opens on the stack (spec §5.21.2 2)."""
    play = frame.play
    assert play is not None
    mine = {state["pieces"][t]["owner"]: t for t in play.targets if t in state["pieces"]}
    # it also concerns the seat whose item it answers (`ON ANY`: a counter to my build's
    # stopping card, to my card's counter)
    concerns = [below] if below else []
    concerns += [t for t in play.targets if t in state["players"]]  # a seat (its Ménes)
    concerns += [state["markers"][t]["owner"] for t in play.targets if t in state["markers"]]
    return {"card": play.card, "caster": play.caster, "seat": frame.seat, "mine_of": mine,
            "concerns": concerns}


def window(ctx: Context, item: Item, event: str, seats: list[str], info: Info,
           still: Callable[[], bool] | None = None) -> None:
    """Run one window for `item` with its stack of answers (spec §5.21.2): the seats are
    offered the window in turn order after the active seat (the active seat last); an
    answer goes on top and opens a CAST window of its own, offered to every other seat;
    when all have passed on it, it resolves, and the window below goes on with the seats
    not yet offered it. `still()`: is there still something to answer (the piece is still
    at 0, still holds a card)? When not, the window closes."""
    while not item.countered:
        got = _offer(ctx, item, event, seats, info, still)
        if got is None:
            return
        _stack(ctx, item, event, *got)


def _stack(ctx: Context, item: Item, event: str, seat: str, play: Play, info: Info) -> None:
    """An answer on top of `item`: paid, offered to every other seat (a CAST window of its
    own, with its own answers on top), then resolved."""
    state: State = ctx.state
    frame = push(ctx, item, seat, play, event, info)
    while not frame.countered:
        got = _offer(ctx, frame, "CAST", others(state, seat), _frame_info(state, frame, item.seat))
        if got is None:
            break
        _stack(ctx, frame, "CAST", *got)
    resolve_frame(ctx, frame, item)


def _offer(ctx: Context, item: Item, event: str, seats: list[str], info: Info,
           still: Callable[[], bool] | None = None) -> tuple[str, Play, Info] | None:
    """Offer `item`'s window to the seats not yet offered it; the first answer, or None
    when all passed (or there is nothing left to answer)."""
    state: State = ctx.state
    for seat in responders(state, seats):
        if seat in item.answered or not state["players"][seat]["alive"]:
            continue
        if still is not None and not still():
            return None
        item.answered.append(seat)
        if state["players"][seat]["trapped"]:
            continue  # spec §10 #21: a time-trapped player plays no instants
        local = {k: v for k, v in info.items() if k != "mine_of"}
        local["mine"] = info.get("mine_of", {}).get(seat)
        play = decide(ctx, seat, event, local)
        if play is not None:
            return seat, play, local
    return None


def decide(ctx: Context, seat: str, event: str, info: Info) -> Play | None:
    """What `seat` answers in this window: its standing trigger, else (decisions=ask) its
    answer when it has a playable one (any seat, with ask_blind), else nothing."""
    state: State = ctx.state
    fired = trigger(state, seat, event, info)
    if fired is not None:
        ctx.decide(seat, event, question="", default="PASS", standing=str(fired))
        return fired
    if not ask_mode(state):
        return None
    opts = options(state, seat, event, info)
    if not _asks(state, seat, event, opts):
        return None
    shown = [str(o) for o in opts]
    answer = ctx.decide(seat, event, question=ask_text(state, event, info, seat),
                        default="PASS", options=(*shown, "PASS"), exhaustive=False,
                        accept=lambda a: a == "PASS" or _match(state, seat, a, opts) is not None,
                        public=PUBLIC[event])
    play = None if answer == "PASS" else _match(state, seat, answer, opts)
    if play is None:
        if event == "START":
            _decline_start(state, seat)
        ctx.log.public("pass", _("{seat} passes", seat=seat))
        return None
    why = _lapsed(state, seat, play)
    if why:
        ctx.log.public("pass", _("{seat}: {play} is no longer possible ({why}); passes",
                                 seat=seat, play=str(play), why=why))
        # the kit tells the seat what became of its answer
        ctx.verdicts[(ctx.asked - 1, seat)] = _("no longer possible ({why}): you passed",
                                                why=why)
        return None
    return play


def _lapsed(state: State, seat: str, play: Play) -> str | None:
    """Why an answer can no longer be paid now that the standing orders sent with it have
    taken effect (e.g. the same file handed the team over), or None."""
    pl = state["players"][seat]
    caster = state["pieces"].get(play.caster)
    if not pl["alive"] or play.card not in pl["hand"]:
        return _("the card is no longer in your hand")
    if caster is None or caster["owner"] != seat or caster["loc"] == "gone":
        return _("{caster} is no longer yours", caster=play.caster)
    extra = surcharge(state, caster, play.card)
    if isinstance(extra, str):
        return extra
    if price(state, seat, play.card, extra, play.k) > pl["energy"]:
        return _("not enough energy")
    return None


def _asks(state: State, seat: str, event: str, opts: list[Play]) -> bool:
    """With decisions=ask: is `seat` asked in this window? With ask_blind every seat the
    rules let answer is asked, even without a playable answer, so that being asked tells
    the others nothing about its hand or energy. START asks only about what hostile
    players put on its own pieces, once each (a PASS declines it for good)."""
    blind = bool(state["config"]["options"]["ask_blind"])
    if event != "START":
        return bool(opts) or blind
    standing = state["players"][seat]["standing"]
    now = start_concerns(state, seat)
    # forget what is gone, so the same card put on again is a new question
    declined = [c for c in standing.get("start_declined", []) if c in now]
    if "start_declined" in standing:
        standing["start_declined"] = declined
    return any(c not in declined for c in now) and (bool(opts) or blind)


def _decline_start(state: State, seat: str) -> None:
    """A PASS in the START window: not asked about these again (WHEN START triggers still
    fire)."""
    standing = state["players"][seat]["standing"]
    standing["start_declined"] = sorted(
        set(standing.get("start_declined", [])) | set(start_concerns(state, seat)))


def _match(state: State, seat: str, answer: str, opts: list[Play]) -> Play | None:
    """The offered play an answer means: the same line, else one with the same card and
    targets, else (no target written) one with the same card. A written target is never
    swapped for another one."""
    by_text = {str(o): o for o in opts}
    if answer in by_text:
        return by_text[answer]
    try:
        play = GRAMMAR.parse_line(state, seat, answer)
    except ValueError:
        return None
    if not isinstance(play, Play):
        return None
    for o in opts:
        if o.card == play.card and o.targets == play.targets:
            return o
    if not play.targets:
        return next((o for o in opts if o.card == play.card), None)
    return None


def answer_problem(state: State, seat: str, answer: Play, offered: tuple[str, ...]) -> str | None:
    """Why `answer` does not answer the open question (its offered answers), or None."""
    plays = []
    for line in offered:
        if line != "PASS":
            o = GRAMMAR.parse_line(state, seat, line)
            assert isinstance(o, Play)
            plays.append(o)
    if _match(state, seat, str(answer), plays) is not None:
        return None
    return _("{answer} is not one of the answers offered now (a written target is never "
             "swapped for another); answer {offered}", answer=str(answer),
             offered=either(list(offered)))


def ask_text(state: State, event: str, info: Info, seat: str = "") -> Msg:
    if event == "DAMAGE":
        return (_("{piece} rolled {damage} damage against your {piece2}. Play an instant, or PASS.",
                  piece=name_of(state, info["attacker"]), damage=info["damage"],
                  piece2=name_of(state, info["victim"])))
    if event == "CAST":
        return (_("{seat} plays {card} on your piece(s). Counter it, or PASS.",
                  seat=info["seat"], card=data.card(info["card"])["name_hu"]))
    if event == "AFTER":
        return (_("{seat}'s {card} now holds {piece}. Remove it with an instant, or PASS.",
                  seat=info["seat"], card=data.card(info["card"])["name_hu"],
                  piece=name_of(state, info["piece"])))
    if event == "ZERO":
        return _("Your {piece} is at exactly 0 ÉP. Heal it, or PASS.",
                 piece=name_of(state, info["piece"]))
    if event == "BUILD":
        if info.get("upgrade"):
            return _("{seat} pays to upgrade a resource on {field}. Stop it with an instant, "
                     "or PASS.", seat=info["seat"], field=info["field"])
        return _("{seat} pays to build a resource on {field}. Stop it with an instant, or "
                 "PASS.", seat=info["seat"], field=info["field"])
    if event == "START":
        held = join([name_of(state, pid) for pid in
                     sorted({c.split(":")[0] for c in start_concerns(state, seat)})])
        return (_("{active}'s turn begins. A hostile card holds your {held}. Play an instant (it "
                  "may also heal or dispel elsewhere), or PASS (you are not asked about these "
                  "again; WHEN START triggers still fire).",
                  active=state["active"], held=held))
    return (_("{piece} steps into a teleport gate. Divert it into your Base, or PASS.",
              piece=name_of(state, info["piece"])))


def push(ctx: Context, item: Item, seat: str, play: Play, event: str, info: Info) -> Item:
    """Pay for an answer card and put it on top of `item` (its effect waits until every
    other seat has passed on it)."""
    state: State = ctx.state
    pay(ctx, seat, play)
    args = {"seat": seat, "card": card_label(play.card), "caster": name_of(state, play.caster),
            "k": play.k}
    ctx.log.public("react", _("{seat} answers with {card}, cast by {caster} at x{k}", **args)
                   if play.k != 1 else _("{seat} answers with {card}, cast by {caster}", **args),
                   seat=seat, card=play.card)
    if event == "START" and seat in item.answered:
        item.answered.remove(seat)  # offered the START window again: one more, or pass
    return Item(seat, play=play, event=event, info=info)


# --- answers resolving -----------------------------------------------------------------------

# What an answer card does to the item it answers: `fn(ctx, frame, below)`. An answer of any
# other effect (a heal, Kötés Oldása, Maradandóság Feloldása) is its card's own effect.
ANSWERS = Effects("answer effect")


@ANSWERS.register("counter", "stop_build")
def _cancel(ctx: Context, frame: Item, below: Item) -> None:
    """Ellenvarázs cancels a card being played (its cost stays paid, spec §2.8 n04);
    Építkezés Megakadályozása stops a building (its MÉ stays paid)."""
    below.countered = True


@ANSWERS.register("just_barely")
def _just_barely(ctx: Context, frame: Item, below: Item) -> None:
    """Éppenhogy (Rulebook worked example): the attacker's damage is 1 for the turn."""
    ctx.state["turn"].setdefault("just_barely", []).append(frame.info["attacker"])


@ANSWERS.register("false_journey_teleport")
def _divert(ctx: Context, frame: Item, below: Item) -> None:
    """Hamis Utazás II: the teleporting piece lands in the answering seat's Base."""
    below.diverted = frame.seat


def resolve_frame(ctx: Context, frame: Item, below: Item) -> None:
    """The top answer resolves: cancelled (its card to the graveyard, cost paid) or its
    effect on the item below it."""
    state: State = ctx.state
    seat = frame.seat
    play = frame.play
    assert seat is not None and play is not None
    c = data.card(play.card)
    if frame.countered:
        to_grave(state, seat, play.card)
        ctx.log.public("countered", _("{seat}'s {card} is cancelled", seat=seat, card=c["name_hu"]))
        return
    if c["effect"] in ANSWERS:
        ANSWERS(c["effect"], ctx, frame, below)
        to_grave(state, seat, play.card)
    else:
        resolve_card(ctx, seat, play)
