"""The Lore system in play (rulebook chapters 6-8, p.26-35; spec §5.13-§5.14): Lore
tokens (pool, goblets, tokens on played cards), rolled Lore faces, creature powers and
storing, playing Lore cards in their windows (one per player per turn, reactions in the
opponent's turn, Foiled! and Déjà Vu!), and the end-of-turn replenish. Card effects are
in lore_effects.py; councils, the Lore deck and starting hands in council.py.
"""

from __future__ import annotations

import random
from typing import Any

from .board import hex_name
from .council import hand_limit, level_of, lore_card
from .ctx import Ctx
from .orders import Keep, Lore, Replenish
from .state import COLOUR_FACE, other, uclass, utype


def gain_tokens(ctx: Ctx, seat: str, n: int, why: str) -> int:
    """p.32: tokens come from the common pool; an empty pool gives nothing (TC-59)."""
    lo = ctx.s["lore"]
    got = min(n, lo["pool"])
    if got > 0:
        lo["pool"] -= got
        lo["goblet"][seat] += got
        ctx.ev("tokens", f"{seat.capitalize()} takes {got} Lore token{'s' if got > 1 else ''} "
                         f"{why} ({lo['goblet'][seat]} in the goblet).", seat=seat, n=got)
    return got


def pay_tokens(ctx: Ctx, seat: str, n: int, why: str) -> bool:
    lo = ctx.s["lore"]
    if lo["goblet"][seat] < n:
        return False
    lo["goblet"][seat] -= n
    lo["pool"] += n
    if n:
        ctx.ev("pay", f"{seat.capitalize()} pays {n} Lore token{'s' if n > 1 else ''} {why} "
                      f"({lo['goblet'][seat]} left).", seat=seat, n=n)
    return True


# --- playing a card ----------------------------------------------------------------------

def play_card(ctx: Ctx, seat: str, cid: str, *, unit: str = "", hex_: Any = None,
              info: dict[str, Any] | None = None) -> bool:
    """Pay, put the tokens on the card, let the opponent foil it, apply it (p.30-31)."""
    from .lore_effects import apply_effect, target_problem
    s = ctx.s
    lo = s["lore"]
    tf = s["tf"]
    info = info or {}
    if cid not in lo["hands"][seat]:
        return _skip(ctx, seat, cid, "the card is not in your hand")
    if tf["lore_played"].get(seat):
        return _skip(ctx, seat, cid, "you have already played a Lore card this turn (p.30)")
    lvl, cost = level_of(s, seat, cid)
    if lo["goblet"][seat] < cost:
        return _skip(ctx, seat, cid, f"it costs {cost} Lore tokens and you have "
                                     f"{lo['goblet'][seat]}")
    why = target_problem(s, seat, lore_card(cid), unit, hex_, info)
    if why:
        return _skip(ctx, seat, cid, why)
    lo["goblet"][seat] -= cost
    lo["on_cards"][seat] += cost
    lo["hands"][seat].remove(cid)
    tf["lore_played"][seat] = cid
    tf.setdefault("lore_cards", []).append([seat, cid])
    oc = " (out of class: +3 tokens, level 1)" if not s["lore"]["council"][seat].get(
        lore_card(cid)["class"]) else ""
    on = f" on {unit}" if unit else ""
    at = f" at {hex_name(hex_)}" if hex_ else ""
    ctx.ev("lore", f"{seat.capitalize()} plays the Lore card {lore_card(cid)['name']}{on}{at} "
                   f"for {cost} token(s){oc}.", seat=seat, card=cid)
    if _foiled(ctx, seat, cid):
        return False
    _deja_vu(ctx, seat, cid)
    apply_effect(ctx, seat, lore_card(cid), lvl, unit, hex_, info)
    return True


def _skip(ctx: Ctx, seat: str, cid: str, why: str) -> bool:
    ctx.ev("skip", f"Lore card {cid} not played: {why}.", to=[seat])
    return False


def _foiled(ctx: Ctx, seat: str, cid: str) -> bool:
    """p.31: the opponent may cancel the card with Foiled! (his one card for this turn)."""
    if choose_reaction(ctx, other(seat), "reaction_lore", "", f"{seat} plays {cid}") is None:
        return False
    ctx.ev("foiled", f"{lore_card(cid)['name']} is cancelled; its tokens are lost.", card=cid)
    return True


def _deja_vu(ctx: Ctx, seat: str, cid: str) -> None:
    """Public source (Rogue #3): discard Déjà Vu! instead and keep the card just played."""
    s = ctx.s
    lo = s["lore"]
    want = s["tf"].get("deja_vu", {}).get(seat) or ctx.standing(seat, "react deja_vu")
    if not want or "deja_vu" not in lo["hands"][seat] or cid == "deja_vu":
        return
    lvl, cost = level_of(s, seat, "deja_vu")
    if lo["goblet"][seat] < cost:
        return
    lo["goblet"][seat] -= cost
    lo["on_cards"][seat] += cost
    lo["hands"][seat].remove("deja_vu")
    lo["hands"][seat].append(cid)
    lo["hands"][seat].sort()
    s["tf"].setdefault("lore_cards", []).append([seat, "deja_vu"])
    s["tf"]["lore_cards"].remove([seat, cid])
    ctx.ev("deja_vu", f"{seat.capitalize()} discards Deja Vu! instead and keeps "
                      f"{lore_card(cid)['name']}.")


def choose_reaction(ctx: Ctx, seat: str, window: str, unit: str, what: str,
                    info: dict[str, Any] | None = None) -> str | None:
    """A reaction window of `seat` (D5, D11, D12 and the like): its standing REACT orders
    first; then, with `decisions=ask` and no standing REACT NONE, a question; else pass
    (the `auto` default). Which windows ask: see `_asks`."""
    s = ctx.s
    if s["mode"] != "lore" or s["tf"]["lore_played"].get(seat):
        return None
    info = info or {}
    lo = s["lore"]
    cands = [c for c in sorted(set(lo["hands"][seat]))
             if _eligible(s, seat, c, window, unit, info)]
    choice = None
    for c in cands:
        v = ctx.standing(seat, f"react {c}")
        if v is not None and (v == "ANY" or v == unit):
            choice = c
            break
    if choice is None and _asks(ctx, seat, window, unit, info, cands):
        have = f"Play a Lore card ({', '.join(cands)}) or none?" if cands else \
            "You hold no card you could play here: ANSWER none."
        ans = ctx.decide(seat, "react", [], ["none", *cands], "none",
                         f"Reaction window ({window.replace('_', ' ')}): {what}. {have}",
                         force=True)
        choice = None if ans == "none" else ans
    if choice is None:
        return None
    return choice if play_card(ctx, seat, choice, unit=unit, info=info) else None


def _eligible(s: dict[str, Any], seat: str, cid: str, window: str, unit: str,
              info: dict[str, Any]) -> bool:
    """May `seat` play `cid` in this window (phase, reaction marker, cost, target)?"""
    from .lore_effects import target_problem
    c = lore_card(cid)
    return (c["phase"] == window and (bool(c.get("reaction")) or seat == s["active"])
            and level_of(s, seat, cid)[1] <= s["lore"]["goblet"][seat]
            and target_problem(s, seat, c, unit, None, info) is None)


def game_cards(s: dict[str, Any]) -> set[str]:
    """Every Lore card id of this game's deck (public: the deck is built from the councils,
    p.35), wherever its copies are now."""
    lo = s["lore"]
    out = set(lo["deck"]) | set(lo["discard"])
    for seat in lo["hands"]:
        out |= set(lo["hands"][seat]) | set(lo.get("offer", {}).get(seat, []))
    return out | {c for _seat, c in s["tf"].get("lore_cards", [])}


def _asks(ctx: Ctx, seat: str, window: str, unit: str, info: dict[str, Any],
          cands: list[str]) -> bool:
    """Ask when `decisions=ask` and no standing REACT NONE (a later REACT ASK undoes it;
    with `auto` nothing asks). With the option
    `ask_blind` (default) the seat is asked at every window where some card of the game's
    deck could be played by it (phase, reaction marker, its goblet, the target): all public,
    so being asked tells the opponent nothing about the hand. Without it, only when the
    hand holds such a card: fewer questions, but a question shows that it does."""
    s = ctx.s
    mode = ctx.standing(seat, "react_ask")
    if mode == "no" or not ctx.ask:
        return False
    if s["options"].get("ask_blind", True):
        return any(_eligible(s, seat, c, window, unit, info) for c in sorted(game_cards(s)))
    return bool(cands)


# --- the windows of a turn ------------------------------------------------------------------

def _own_cards(ctx: Ctx, orders: list[Any], phases: tuple[str, ...]) -> list[Lore]:
    s = ctx.s
    a = s["active"]
    out = []
    for o in orders:
        if isinstance(o, Lore) and lore_card(o.card)["phase"] in phases:
            out.append(o)
        elif isinstance(o, Lore) and o.card == "deja_vu":
            s["tf"].setdefault("deja_vu", {})[a] = True
    return out


def play_in_lieu(ctx: Ctx, orders: list[Any]) -> bool:
    """p.29: a Lore card played in lieu of the Command card; no Command card is drawn."""
    a = ctx.s["active"]
    for o in _own_cards(ctx, orders, ("in_lieu",)):
        if play_card(ctx, a, o.card, unit=o.unit, hex_=o.hex):
            return True
    return False


def command_phase(ctx: Ctx, orders: list[Any]) -> None:
    """With the Command card; then the opponent's reaction to the Command card."""
    a = ctx.s["active"]
    for o in _own_cards(ctx, orders, ("command",)):
        if play_card(ctx, a, o.card, unit=o.unit, hex_=o.hex):
            break
    choose_reaction(ctx, other(a), "reaction_command", "", f"{a} played a Command card")


def movement_phase(ctx: Ctx, orders: list[Any]) -> None:
    a = ctx.s["active"]
    for o in _own_cards(ctx, orders, ("movement",)):
        if play_card(ctx, a, o.card, unit=o.unit, hex_=o.hex):
            break


def before_battle(ctx: Ctx, att: dict[str, Any], tgt: dict[str, Any], orders: list[Any]) -> bool:
    """Your 'during battle' card on the battling unit; the defender's 'before opponent
    rolls' reaction. False if the attack is called off (a pre-emptive strike, p.18)."""
    s = ctx.s
    a = s["active"]
    for o in _own_cards(ctx, orders, ("battle",)):
        if o.unit in ("", att["id"]) and play_card(ctx, a, o.card, unit=att["id"],
                                                    info={"target": tgt["id"]}):
            break
    return before_roll(ctx, att, tgt, f"{att['id']} attacks your {tgt['id']}")


def before_roll(ctx: Ctx, att: dict[str, Any], tgt: dict[str, Any], what: str) -> bool:
    """p.29-30 'before your opponent rolls': the window of the target's owner before every
    attack roll: the battle's first roll, a bonus attack, a battle back (p.30: such a card
    lasts that one roll only, so each roll has its own window). False if the roll is
    called off (a first strike repelled or killed the roller)."""
    s = ctx.s
    if s["mode"] != "lore":
        return True
    card = choose_reaction(ctx, tgt["owner"], "before_opponent_rolls", tgt["id"], what,
                           {"attacker": att["id"], "defender": tgt["id"]})
    if card is not None and lore_card(card)["effect"] == "first_strike":
        return bool(s["tf"].pop("attack_goes_on", True))
    return True


def after_battle(ctx: Ctx) -> None:
    ctx.s["tf"]["effects"] = [e for e in ctx.s["tf"]["effects"] if e.get("scope") != "battle"]


def _effects(s: dict[str, Any], kind: str, unit: str) -> list[dict[str, Any]]:
    return [e for e in s["tf"]["effects"] if e["kind"] == kind and e.get("unit") == unit]


def lore_faces(ctx: Ctx, att: dict[str, Any], tgt: dict[str, Any], faces: list[str],
               hits: list[int], flags: int, lores: int, melee: bool,
               was_poisoned: bool) -> tuple[list[int], int]:
    """After the roll: the defender's 'after opponent rolls' reaction (Backstab), defensive
    effects (Agility, Broad Shield), creature powers, then a token per unused Lore (p.32)."""
    s = ctx.s
    # p.30 'after your opponent rolled': after every attack roll (first roll, bonus
    # attack, battle back, first strike), before it is resolved; the card says what it
    # needs (Backstab: a melee roll)
    card = choose_reaction(ctx, tgt["owner"], "after_opponent_rolls", tgt["id"],
                           f"{att['id']} rolled {' '.join(faces) or 'no dice'} against "
                           f"{tgt['id']}", {"attacker": att["id"], "defender": tgt["id"],
                                            "melee": melee})
    if card is not None and lore_card(card)["effect"] == "backstab":
        bs = [i for i in hits if i >= 0 and faces[i] == "BS"]
        hits = [i for i in hits if i not in bs]
        if bs:
            from .combat import lose_figures
            ctx.ev("backstab", f"Backstab: {att['id']} suffers its own {len(bs)} bonus "
                               f"strike hit(s).")
            lose_figures(ctx, att, len(bs), "to Backstab")
    if _effects(s, "broad_shield", tgt["id"]):
        # p.31: every physical result (helmets, bonus strikes, flags) is cancelled; what
        # rolled Lore triggers still happens (spec TC-65)
        kept = [i for i in hits if i >= 0 and faces[i] == "L"]
        ctx.ev("shield", f"Broad Shield cancels {len(hits) - len(kept)} hit(s) and "
                         f"{flags} flag(s).")
        hits, flags = kept, 0
    if _effects(s, "ignore_hit", tgt["id"]):
        want = COLOUR_FACE[tgt["colour"]]
        helm = [i for i in hits if i >= 0 and faces[i] == want]
        if helm:
            hits = [i for i in hits if i != helm[0]]
            ctx.ev("agility", f"Agility: {tgt['id']} ignores one hit.")
    used = 0
    if any(e["kind"] == "havoc" and e.get("unit") == att["id"] for e in s["tf"]["effects"]):
        used = lores  # p.31: every Lore is a hit (score() counted them) and gives no token
    elif uclass(att) == "creature" and att["id"] in s["units"]:  # not if Backstab killed it
        used = creature_powers(ctx, att, tgt, hits, lores)
    if was_poisoned:
        used = lores  # the Lore removed poisoned figures instead (spec §5.13)
    free = max(0, lores - used)
    if free:
        gain_tokens(ctx, att["owner"], free, "for rolled Lore")
    s["tf"]["effects"] = [e for e in s["tf"]["effects"] if e.get("scope") != "roll"]
    return hits, flags


def creature_powers(ctx: Ctx, att: dict[str, Any], tgt: dict[str, Any], hits: list[int],
                    lores: int) -> int:
    """p.24-26 Giant Spider: Web (1 Lore), Poison (2 Lore, needs a hit), storing (max 2).
    Rolled Lore is spent before stored tokens. Returns the rolled Lore used or stored.
    D13 standing: CREATURE AUTO|WEB|POISON|STORE."""
    s = ctx.s
    stored = int(att.get("stored", 0))
    avail = lores + stored
    opts = ["store"]
    if avail >= 1 and not tgt.get("web") and uclass(tgt) != "creature":
        opts.append("web")
    if avail >= 2 and hits and not tgt.get("poison"):
        opts.append("poison")
    default = "poison" if "poison" in opts else "web" if "web" in opts else "store"

    def pol(p: str) -> str:
        return default if p == "auto" else p
    choice = ctx.decide(att["owner"], "creature", [f"creature {att['id']}", "creature"], opts,
                        default, f"Your {att['id']} rolled {lores} Lore ({stored} stored): use a "
                        f"power ({', '.join(opts)})?", resolve_standing=pol)
    cost = {"web": 1, "poison": 2, "store": 0}[choice]
    from_roll = min(cost, lores)
    from_store = cost - from_roll
    if from_store:
        att["stored"] -= from_store
        s["lore"]["pool"] += from_store
    if choice == "web":
        tgt["web"] = True
        ctx.ev("web", f"{att['id']} webs {tgt['id']}: it cannot move, battle or battle back, "
                      f"and flags against it are hits.")
    elif choice == "poison":
        tgt["poison"] = True
        ctx.ev("poison", f"{att['id']} poisons {tgt['id']}: every Lore rolled against it will "
                         f"remove a figure.")
    used = from_roll
    cap = int(utype(att).get("store_max", 0))
    room = cap - int(att.get("stored", 0))
    left = lores - from_roll
    put = min(room, left, s["lore"]["pool"])
    if put > 0:
        att["stored"] = int(att.get("stored", 0)) + put
        s["lore"]["pool"] -= put
        used += put
        ctx.ev("store", f"{att['id']} stores {put} Lore ({att['stored']} stored).")
    return used


def free_web(ctx: Ctx, u: dict[str, Any]) -> str | None:
    """p.25: order the webbed unit and pay 1 token; it may move and battle this turn."""
    if not u.get("web"):
        return "it is not webbed"
    if not pay_tokens(ctx, u["owner"], 1, f"to free {u['id']} from the web"):
        return "it needs 1 Lore token"
    u["web"] = False
    ctx.ev("free", f"{u['id']} is freed from the web.")
    return None


def pay_creature_order(ctx: Ctx, uid: str, c: dict[str, Any], command: int, chosen: list[str],
                       paid: list[str]) -> bool:
    """p.22: a creature outside the card's section for 3 Lore tokens (counts against the
    card's limit)."""
    from .cards import slots_of
    s = ctx.s
    u = s["units"].get(uid)
    if u is None or u["owner"] != s["active"] or uclass(u) != "creature":
        return False
    if len(chosen) >= sum(slots_of(c, command).values()):
        return False
    if not pay_tokens(ctx, u["owner"], 3, f"to order {uid} outside the section"):
        return False
    paid.append(uid)
    return True


# --- end of turn (p.32) -----------------------------------------------------------------------

def end_of_turn_lore(ctx: Ctx, orders: list[Any]) -> None:
    s = ctx.s
    a = s["active"]
    lo = s["lore"]
    for _seat, cid in s["tf"].get("lore_cards", []):
        lo["discard"].append(cid)
    for seat in lo["on_cards"]:
        lo["pool"] += lo["on_cards"][seat]
        lo["on_cards"][seat] = 0
    choice = next((o.choice for o in orders if isinstance(o, Replenish)), None)
    if choice is None:
        choice = "card_token" if len(lo["hands"][a]) < hand_limit(s, a) else "tokens"
    keep_pref = [c for o in orders if isinstance(o, Keep) and o.verb == "keep" for c in o.cards]
    drop_pref = [c for o in orders if isinstance(o, Keep) and o.verb == "discard" for c in o.cards]
    ctx.ev("replenish", f"{a.capitalize()} replenishes: "
                        f"{ {'cards': 'draws 2 Lore cards and keeps 1', 'card_token': 'draws 1 Lore card and takes 1 token', 'tokens': 'takes 2 tokens'}[choice] }.")
    if choice == "cards":
        drawn = [x for x in (_draw_lore(ctx, a), _draw_lore(ctx, a)) if x]
        if len(drawn) == 2:
            pref = [c for c in keep_pref if c in drawn]
            keep = pref[0] if pref else min(drawn, key=lambda c: (level_of(s, a, c)[1], c))
            drawn.remove(keep)
            lo["hands"][a].remove(drawn[0])
            lo["discard"].append(drawn[0])
            ctx.ev("lore_discard", f"{a.capitalize()} discards {lore_card(drawn[0])['name']} "
                                   f"face up.")
    elif choice == "card_token":
        _draw_lore(ctx, a)
        gain_tokens(ctx, a, 1, "(replenish)")
    else:
        gain_tokens(ctx, a, 2, "(replenish)")
    while len(lo["hands"][a]) > hand_limit(s, a):
        hand = lo["hands"][a]
        pref = [c for c in drop_pref if c in hand]
        drop = pref[0] if pref else max(hand, key=lambda c: (level_of(s, a, c)[1], c))
        hand.remove(drop)
        lo["discard"].append(drop)
        ctx.ev("lore_discard", f"{a.capitalize()} is over the hand limit and discards "
                               f"{lore_card(drop)['name']} face up.")


def _draw_lore(ctx: Ctx, seat: str) -> str | None:
    lo = ctx.s["lore"]
    if not lo["deck"]:
        lo["deck"] = sorted(lo["discard"])  # SPEC-AMBIGUITY §10.19: reshuffle the discards
        lo["discard"] = []
        if lo["deck"]:
            ctx.ev("reshuffle", "The Lore deck is empty: the discards are shuffled into it.")
    if not lo["deck"]:
        return None
    cid = lo["deck"].pop(ctx.dice.pick(len(lo["deck"]), f"Lore card drawn by {seat}",
                                       visible_to=[seat]))
    lo["hands"][seat].append(cid)
    lo["hands"][seat].sort()
    ctx.ev("lore_draw", f"You draw the Lore card {lore_card(cid)['name']}.", to=[seat])
    ctx.ev("lore_draw_public", f"{seat.capitalize()} draws a Lore card.", to=[other(seat)])
    return cid


# --- the random bot's Lore lines ----------------------------------------------------------------

def bot_lore(s: dict[str, Any], seat: str, rng: random.Random) -> list[str]:
    lo = s["lore"]
    out: list[str] = []
    mine = sorted(u["id"] for u in s["units"].values() if u["owner"] == seat)
    foes = sorted(u["id"] for u in s["units"].values() if u["owner"] != seat)
    for cid in sorted(set(lo["hands"][seat])):
        c = lore_card(cid)
        if c.get("reaction") and c["phase"] != "with_lore":
            if rng.random() < 0.5:
                out.append(f"REACT {cid} ON ANY")
            continue
        if rng.random() < 0.5 or not mine:
            continue
        line = f"LORE {cid}"
        if c["target"] == "own_unit":
            line += f" ON {rng.choice(mine)}"
        elif c["target"] == "enemy_unit" and foes:
            line += f" ON {rng.choice(foes)}"
        if c["effect"] == "portal" or c["target"] == "hex":
            u = s["units"][rng.choice(foes or mine)]
            line += f" TO {u['hex'][0]}-{u['hex'][1]}"
        out.append(line)
    if rng.random() < 0.2:
        out.append("REACT ASK")
    out.append(f"REPLENISH {rng.choice(['CARDS', 'CARD_TOKEN', 'TOKENS'])}")
    return out
