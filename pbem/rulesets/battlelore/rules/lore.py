"""The Lore system in play (rulebook chapters 6-8, p.26-35; spec §5.13-§5.14): rolled Lore
faces and tokens, playing Lore cards in their windows (one per player per turn,
reactions in the opponent's turn, Foiled! and Déjà Vu!), and the end-of-turn replenish.

Not here: what each card does (effects.py), tokens (tokens.py), creature powers
(creatures.py), the War Council and the Lore deck (council.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.core.i18n import Msg, _
from pbem.core.kit import Context
from pbem.core.orders import OrderLine

from ..board import hex_name
from ..data import COLOUR_FACE, lore_card
from ..effects import Cast, apply_effect, target_problem
from ..orders import Discard, Keep, Lore, Replenish
from ..state import Effect, State, Unit, lore_of, other, uclass
from .common import decide, standing, state_of
from .council import hand_limit, level_of
from .creatures import creature_powers
from .losses import lose_figures
from .tokens import gain_tokens

REACTION_PUBLIC = _("whether to play a Lore card")


# --- playing a card ----------------------------------------------------------------------

FOILED = _("cancelled by the opponent's Foiled! (p.31); its tokens are lost")


def _played_text(seat: str, card: dict[str, Any], unit: str, hex_: Any, cost: int,
                 out_of_class: bool) -> Msg:
    """The event of a Lore card played: a whole sentence for each case."""
    args = {"seat": seat.capitalize(), "card": card["name"], "n": cost}
    if unit and hex_:
        where = _("on {unit} at {hex}", unit=unit, hex=hex_name(hex_))
    elif unit or hex_:
        where = _("on {unit}", unit=unit) if unit else _("at {hex}", hex=hex_name(hex_))
    else:
        return (_("{seat} plays the Lore card {card} for {n} token(s) (out of class: +3 "
                  "tokens, level 1).", **args) if out_of_class else
                _("{seat} plays the Lore card {card} for {n} token(s).", **args))
    return (_("{seat} plays the Lore card {card} {where} for {n} token(s) (out of class: +3 "
              "tokens, level 1).", where=where, **args) if out_of_class else
            _("{seat} plays the Lore card {card} {where} for {n} token(s).", where=where,
              **args))


def play_card(ctx: Context, seat: str, cid: str, *, unit: str = "", hex_: Any = None,
              info: dict[str, Any] | None = None) -> Msg | None:
    """Pay, put the tokens on the card, let the opponent foil it, apply it (p.30-31).
    None when the card was played and applied; FOILED; else why it was not played."""
    s = state_of(ctx)
    lo = lore_of(s)
    tf = s["this_turn"]
    info = info or {}
    if cid not in lo["hands"][seat]:
        return _("the card is not in your hand")
    if tf["lore_played"].get(seat):
        return _("you have already played a Lore card this turn (p.30)")
    lvl, cost = level_of(s, seat, cid)
    if lo["goblet"][seat] < cost:
        return _("it costs {n} Lore tokens and you have {have}", n=cost,
                 have=lo["goblet"][seat])
    card = lore_card(cid)
    why = target_problem(s, seat, card, unit, hex_, info)
    if why:
        return why
    lo["goblet"][seat] -= cost
    lo["on_cards"][seat] += cost
    lo["hands"][seat].remove(cid)
    tf["lore_played"][seat] = cid
    tf["lore_cards"].append([seat, cid])
    ctx.log.public("lore", _played_text(seat, card, unit, hex_, cost,
                                        not lo["council"][seat].get(card["class"])),
                   seat=seat, card=cid)
    if _foiled(ctx, seat, cid):
        return FOILED
    _deja_vu(ctx, seat, cid)
    apply_effect(ctx, Cast(seat, card, lvl, unit, hex_, info))
    return None


def _foiled(ctx: Context, seat: str, cid: str) -> bool:
    """p.31: the opponent may cancel the card with Foiled! (his one card for this turn)."""
    if choose_reaction(ctx, other(seat), "reaction_lore", "",
                       _("{seat} plays {card}", seat=seat, card=cid)) is None:
        return False
    ctx.log.public("foiled", _("{card} is cancelled; its tokens are lost.",
                               card=lore_card(cid)["name"]), card=cid)
    return True


def _deja_vu(ctx: Context, seat: str, cid: str) -> None:
    """Public source (Rogue #3): discard Déjà Vu! instead and keep the card just played."""
    s = state_of(ctx)
    lo = lore_of(s)
    react = standing(s, seat, "react deja_vu")
    want = s["this_turn"]["deja_vu"].get(seat) or react not in (None, "NONE")
    if not want or "deja_vu" not in lo["hands"][seat] or cid == "deja_vu":
        return
    _lvl, cost = level_of(s, seat, "deja_vu")
    if lo["goblet"][seat] < cost:
        return
    lo["goblet"][seat] -= cost
    lo["on_cards"][seat] += cost
    lo["hands"][seat].remove("deja_vu")
    lo["hands"][seat].append(cid)
    lo["hands"][seat].sort()
    s["this_turn"]["lore_cards"].append([seat, "deja_vu"])
    s["this_turn"]["lore_cards"].remove([seat, cid])
    ctx.log.public("deja_vu", _("{seat} discards Deja Vu! instead and keeps {card}.",
                                seat=seat.capitalize(), card=lore_card(cid)["name"]))


WINDOWS = {"reaction_command": _("reaction command"), "reaction_orders": _("reaction orders"),
           "reaction_movement": _("reaction movement"), "reaction_lore": _("reaction lore"),
           "before_opponent_rolls": _("before opponent rolls"),
           "after_opponent_rolls": _("after opponent rolls")}


def choose_reaction(ctx: Context, seat: str, window: str, unit: str, what: Msg,
                    info: dict[str, Any] | None = None) -> str | None:
    """A reaction window of `seat` (D5, D11, D12 and the like): its standing REACT orders
    first; then, with `decisions=ask` and no standing REACT NONE, a question; else pass
    (the `auto` default). Which windows ask: see `_asks`. Returns the card played."""
    s = state_of(ctx)
    if s["mode"] != "lore" or s["this_turn"]["lore_played"].get(seat):
        return None
    info = info or {}
    lo = lore_of(s)
    cands = [c for c in sorted(set(lo["hands"][seat]))
             if _eligible(s, seat, c, window, unit, info)]
    choice = None
    for c in cands:
        v = standing(s, seat, f"react {c}")
        if v is not None and (v == "ANY" or v == unit):
            choice = c
            break
    if choice is None:
        _unfit_reactions(ctx, seat, window, unit, info, cands)
    if choice is None and _asks(ctx, seat, window, unit, info, cands):
        name = WINDOWS.get(window, window.replace("_", " "))
        question = (_("Reaction window ({window}): {what}. Play a Lore card ({cards}) or "
                      "none?", window=name, what=what, cards=", ".join(cands)) if cands else
                    _("Reaction window ({window}): {what}. You hold no card you could play "
                      "here: ANSWER none.", window=name, what=what))
        ans = decide(ctx, seat, "react", [], ["none", *cands], "none", question,
                     force=True, public=REACTION_PUBLIC)
        choice = None if ans == "none" else ans
    if choice is None:
        return None
    return choice if play_card(ctx, seat, choice, unit=unit, info=info) is None else None


def _unfit_reactions(ctx: Context, seat: str, window: str, unit: str, info: dict[str, Any],
                     cands: list[str]) -> None:
    """A standing REACT order for this window that cannot be followed is not passed over in
    silence: the seat is told why (its cost, its target)."""
    s = state_of(ctx)
    lo = lore_of(s)
    for cid in sorted(set(lo["hands"][seat]) - set(cands)):
        v = standing(s, seat, f"react {cid}")
        c = lore_card(cid)
        if v is None or v not in ("ANY", unit) or c["phase"] != window or not (
                c.get("reaction") or seat == s["active"]):
            continue
        cost = level_of(s, seat, cid)[1]
        why = (_("it costs {n} Lore tokens and you have {have}", n=cost,
                 have=lo["goblet"][seat])
               if cost > lo["goblet"][seat] else
               target_problem(s, seat, c, unit, None, info) or _("it cannot be played now"))
        ctx.log.private([seat], "standing_unfit", _("Your standing order REACT {card} ON {unit} "
                                                    "could not be followed: {why}.", card=cid,
                                                    unit=v, why=why), seat=seat)


def _eligible(s: State, seat: str, cid: str, window: str, unit: str,
              info: dict[str, Any]) -> bool:
    """May `seat` play `cid` in this window (phase, reaction marker, cost, target)?"""
    c = lore_card(cid)
    return (c["phase"] == window and (bool(c.get("reaction")) or seat == s["active"])
            and level_of(s, seat, cid)[1] <= lore_of(s)["goblet"][seat]
            and target_problem(s, seat, c, unit, None, info) is None)


def game_cards(s: State) -> set[str]:
    """Every Lore card id of this game's deck (public: the deck is built from the councils,
    p.35), wherever its copies are now."""
    lo = lore_of(s)
    out = set(lo["deck"]) | set(lo["discard"])
    for seat in lo["hands"]:
        out |= set(lo["hands"][seat]) | set(lo["offer"].get(seat, []))
    return out | {c for _seat, c in s["this_turn"]["lore_cards"]}


def _asks(ctx: Context, seat: str, window: str, unit: str, info: dict[str, Any],
          cands: list[str]) -> bool:
    """Ask when `decisions=ask` and no standing REACT NONE (a later REACT ASK undoes it;
    with `auto` nothing asks). With the option `ask_blind` (default) the seat is asked at
    every window where some card of the game's deck could be played by it (phase, reaction
    marker, its goblet, the target): all public, so being asked tells the opponent nothing
    about the hand. Without it, only when the hand holds such a card: fewer questions, but
    a question shows that it does."""
    s = state_of(ctx)
    if standing(s, seat, "react_ask") == "no" or not ctx.ask:
        return False
    if s["options"]["ask_blind"]:
        return any(_eligible(s, seat, c, window, unit, info) for c in sorted(game_cards(s)))
    return bool(cands)


# --- the windows of a turn ------------------------------------------------------------------

class OwnLore:
    """The active player's LORE lines (p.29-30): each is tried in its window in file order
    (`command` with the Command card, `in_lieu` instead of it, `movement` at the start of
    the movement phase, `battle` when its unit battles); the first card played ends the
    others, one Lore card per turn. Every line gets its outcome; `LORE deja_vu` arms Déjà
    Vu! for the card played."""

    def __init__(self, ctx: Context, lines: Sequence[OrderLine]) -> None:
        self.ctx = ctx
        s = state_of(ctx)
        self.seat = s["active"]
        self.lines = [ln for ln in lines if isinstance(ln.order, Lore)]
        self.current: OrderLine | None = None  # the line whose card is being played
        self.deja_vu = [ln for ln in self.lines if ln.order.card == "deja_vu"]
        self.open = [ln for ln in self.lines if ln.order.card != "deja_vu"]
        if self.deja_vu:
            s["this_turn"]["deja_vu"][self.seat] = True

    def window(self, phases: tuple[str, ...], *, unit: str | None = None,
               info: dict[str, Any] | None = None) -> bool:
        """Try the open lines of these phases (a battle card: on `unit` or on no unit);
        True when a card was played and applied."""
        for ln in list(self.open):
            o = ln.order
            if lore_card(o.card)["phase"] not in phases or (
                    unit is not None and o.unit not in ("", unit)):
                continue
            self.open.remove(ln)
            self.current = ln
            why = play_card(self.ctx, self.seat, o.card, unit=unit or o.unit, hex_=o.hex,
                            info=info)
            self.current = None
            if why is None:
                self.ctx.log.done(self.seat, ln, _("{card} was played",
                                                   card=lore_card(o.card)["name"]))
            elif why == FOILED:
                self.ctx.log.changed(self.seat, ln, FOILED)
            else:
                self.ctx.log.refused(self.seat, ln, why)
                continue
            self.close(_("{card} was played; one Lore card per turn (p.30)",
                         card=lore_card(o.card)["name"]))
            return why is None
        return False

    def close(self, why: Msg) -> None:
        """The lines left: not needed (the card played, or a window that did not open)."""
        for ln in self.open:
            self.ctx.log.not_needed(self.seat, ln, why if self.played() else
                                    _not_reached(ln.order))
        self.open = []

    def played(self) -> bool:
        return bool(state_of(self.ctx)["this_turn"]["lore_played"].get(self.seat))

    def finish(self) -> None:
        """End of the turn: the lines whose window never came, and Déjà Vu!."""
        self.close(_("one Lore card per turn (p.30)"))
        used = [self.seat, "deja_vu"] in state_of(self.ctx)["this_turn"]["lore_cards"]
        for ln in self.deja_vu:
            if used:
                self.ctx.log.done(self.seat, ln,
                                  _("Déjà Vu! was discarded instead of your card"))
            else:
                self.ctx.log.not_needed(self.seat, ln, _("no card of yours was kept by Déjà Vu! "
                                                         "(none played, or its cost not paid)"))


def _not_reached(o: Lore) -> Msg:
    phase = lore_card(o.card)["phase"]
    if phase == "battle":
        return _("{unit} did not battle", unit=o.unit) if o.unit \
            else _("no unit of yours battled")
    return {"in_lieu": _("its window (in lieu of the Command card) passed"),
            "command": _("its window did not open: no Command card acted this turn"),
            "movement": _("no unit of yours was ordered, so there was no movement phase"),
            }.get(phase, _("it is not played by a LORE line (phase {phase})", phase=phase))


def before_roll_window(ctx: Context, att: Unit, tgt: Unit, what: Msg) -> str | None:
    """p.29-30 'before your opponent rolls': the window of the target's owner before every
    attack roll: the battle's first roll, a bonus attack, a battle back (p.30: such a card
    lasts that one roll only, so each roll has its own window). The card played, if any."""
    return choose_reaction(ctx, tgt["owner"], "before_opponent_rolls", tgt["id"], what,
                           {"attacker": att["id"], "defender": tgt["id"]})


def after_battle(ctx: Context) -> None:
    tf = state_of(ctx)["this_turn"]
    tf["effects"] = [e for e in tf["effects"] if e["scope"] != "battle"]


def _effects(s: State, kind: str, unit: str) -> list[Effect]:
    return [e for e in s["this_turn"]["effects"] if e["kind"] == kind and e.get("unit") == unit]


def lore_faces(ctx: Context, att: Unit, tgt: Unit, faces: list[str], hits: list[int],
               flags: int, lores: int, melee: bool, was_poisoned: bool) -> tuple[list[int], int]:
    """After the roll: the defender's 'after opponent rolls' reaction (Backstab), defensive
    effects (Agility, Broad Shield), creature powers, then a token per unused Lore (p.32)."""
    s = state_of(ctx)
    # p.30 'after your opponent rolled': after every attack roll (first roll, bonus
    # attack, battle back, first strike), before it is resolved; the card says what it
    # needs (Backstab: a melee roll)
    card = choose_reaction(ctx, tgt["owner"], "after_opponent_rolls", tgt["id"],
                           _("{unit} rolled {faces} against {target}", unit=att["id"],
                             faces=" ".join(faces) or _("no dice"), target=tgt["id"]),
                           {"attacker": att["id"], "defender": tgt["id"], "melee": melee})
    if card is not None and lore_card(card)["effect"] == "backstab":
        bs = [i for i in hits if i >= 0 and faces[i] == "BS"]
        hits = [i for i in hits if i not in bs]
        if bs:
            ctx.log.public("backstab", _("Backstab: {unit} suffers its own {n} bonus strike "
                                         "hit(s).", unit=att["id"], n=len(bs)))
            lose_figures(ctx, att, len(bs), _("to Backstab"))
    if _effects(s, "broad_shield", tgt["id"]):
        # p.31: every physical result (helmets, bonus strikes, flags) is cancelled; what
        # rolled Lore triggers still happens (spec TC-65)
        kept = [i for i in hits if i >= 0 and faces[i] == "L"]
        ctx.log.public("shield", _("Broad Shield cancels {hits} hit(s) and {flags} flag(s).",
                                   hits=len(hits) - len(kept), flags=flags))
        hits, flags = kept, 0
    if _effects(s, "ignore_hit", tgt["id"]):
        want = COLOUR_FACE[tgt["colour"]]
        helm = [i for i in hits if i >= 0 and faces[i] == want]
        if helm:
            hits = [i for i in hits if i != helm[0]]
            ctx.log.public("agility", _("Agility: {unit} ignores one hit.", unit=tgt["id"]))
    used = 0
    if _effects(s, "havoc", att["id"]):
        used = lores  # p.31: every Lore is a hit (score() counted them) and gives no token
    elif uclass(att) == "creature" and att["id"] in s["units"]:  # not if Backstab killed it
        used = creature_powers(ctx, att, tgt, hits, lores)
    if was_poisoned:
        used = lores  # the Lore removed poisoned figures instead (spec §5.13)
    free = max(0, lores - used)
    if free:
        gain_tokens(ctx, att["owner"], free, _("for rolled Lore"))
    s["this_turn"]["effects"] = [e for e in s["this_turn"]["effects"] if e["scope"] != "roll"]
    return hits, flags


# --- end of turn (p.32) -----------------------------------------------------------------------

REPLENISHED = {"cards": _("draws 2 Lore cards and keeps 1"),
               "card_token": _("draws 1 Lore card and takes 1 token"),
               "tokens": _("takes 2 tokens")}


def _replenishes(choice: str, seat: str) -> Msg:
    if choice == "cards":
        return _("{seat} replenishes: draws 2 Lore cards and keeps 1.", seat=seat)
    if choice == "card_token":
        return _("{seat} replenishes: draws 1 Lore card and takes 1 token.", seat=seat)
    return _("{seat} replenishes: takes 2 tokens.", seat=seat)


def end_of_turn_lore(ctx: Context, lines: Sequence[OrderLine]) -> None:
    """p.32: played cards to the discard, tokens on them to the pool; the active player
    replenishes (REPLENISH, default: a card and a token while under the hand limit, else 2
    tokens) and keeps to the hand limit (KEEP, DISCARD)."""
    s = state_of(ctx)
    a = s["active"]
    lo = lore_of(s)
    for _seat, cid in s["this_turn"]["lore_cards"]:
        lo["discard"].append(cid)
    for seat in lo["on_cards"]:
        lo["pool"] += lo["on_cards"][seat]
        lo["on_cards"][seat] = 0
    choice = _replenish_choice(ctx, lines)
    keeps = [ln for ln in lines if isinstance(ln.order, Keep)]
    drops = [ln for ln in lines if isinstance(ln.order, Discard)]
    used: set[int] = set()
    ctx.log.public("replenish", _replenishes(choice, a.capitalize()))
    if choice == "cards":
        drawn = [x for x in (_draw_lore(ctx, a), _draw_lore(ctx, a)) if x]
        if len(drawn) == 2:
            keep = _chosen(ctx, keeps, drawn, "kept", used)
            if keep is None:
                keep = min(drawn, key=lambda c: (level_of(s, a, c)[1], c))
            drawn.remove(keep)
            lo["hands"][a].remove(drawn[0])
            lo["discard"].append(drawn[0])
            ctx.log.public("lore_discard", _("{seat} discards {card} face up.",
                                             seat=a.capitalize(),
                                             card=lore_card(drawn[0])["name"]))
    elif choice == "card_token":
        _draw_lore(ctx, a)
        gain_tokens(ctx, a, 1, _("(replenish)"))
    else:
        gain_tokens(ctx, a, 2, _("(replenish)"))
    while len(lo["hands"][a]) > hand_limit(s, a):
        hand = lo["hands"][a]
        drop = _chosen(ctx, drops, hand, "discarded", used)
        if drop is None:
            drop = max(hand, key=lambda c: (level_of(s, a, c)[1], c))
        hand.remove(drop)
        lo["discard"].append(drop)
        ctx.log.public("lore_discard", _("{seat} is over the hand limit and discards {card} face "
                                         "up.", seat=a.capitalize(),
                                         card=lore_card(drop)["name"]))
    for ln in keeps:
        if ln.lineno not in used:
            ctx.log.not_needed(a, ln, _("no card it names was one of two drawn cards to choose "
                                        "from this turn"))
    for ln in drops:
        if ln.lineno not in used:
            ctx.log.not_needed(a, ln, _("no card it names had to be discarded this turn"))


def _replenish_choice(ctx: Context, lines: Sequence[OrderLine]) -> str:
    s = state_of(ctx)
    a = s["active"]
    mine = [ln for ln in lines if isinstance(ln.order, Replenish)]
    for i, ln in enumerate(mine):
        if i == 0:
            ctx.log.done(a, ln, REPLENISHED[ln.order.choice])
        else:
            ctx.log.refused(a, ln, _("one replenish per turn (p.32): line {line} chose it",
                                     line=mine[0].lineno))
    if mine:
        return str(mine[0].order.choice)
    lo = lore_of(s)
    return "card_token" if len(lo["hands"][a]) < hand_limit(s, a) else "tokens"


def _chosen(ctx: Context, lines: list[OrderLine], among: Sequence[str], what: str,
            used: set[int]) -> str | None:
    """The first card of the KEEP/DISCARD lines (in file order) that is one of `among`;
    its line is carried out (`used`)."""
    for ln in lines:
        for c in ln.order.cards:
            if c in among:
                if ln.lineno not in used:
                    used.add(ln.lineno)
                    ctx.log.done(state_of(ctx)["active"], ln,
                                 _("{card} kept of the two drawn", card=lore_card(c)["name"])
                                 if what == "kept" else
                                 _("{card} discarded over the hand limit",
                                   card=lore_card(c)["name"]))
                return str(c)
    return None


def _draw_lore(ctx: Context, seat: str) -> str | None:
    lo = lore_of(state_of(ctx))
    if not lo["deck"]:
        lo["deck"] = sorted(lo["discard"])  # SPEC-AMBIGUITY §10.19: reshuffle the discards
        lo["discard"] = []
        if lo["deck"]:
            ctx.log.public("reshuffle", _("The Lore deck is empty: the discards are shuffled "
                                          "into it."))
    if not lo["deck"]:
        return None
    cid = lo["deck"].pop(ctx.dice.pick(len(lo["deck"]), _("Lore card drawn by {seat}",
                                                          seat=seat), visible_to=[seat]))
    lo["hands"][seat].append(cid)
    lo["hands"][seat].sort()
    ctx.log.private([seat], "lore_draw", _("You draw the Lore card {card}.",
                                           card=lore_card(cid)["name"]))
    ctx.log.private([other(seat)], "lore_draw_public",
                    _("{seat} draws a Lore card.", seat=seat.capitalize()))
    return cid
