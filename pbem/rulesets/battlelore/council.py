"""War Council and Lore set-up (rulebook p.26-27, p.33-36; spec §2.11, §3.3-§3.5, §4.1
D1-D3): councils (fixed by the adventure, or custom as one sealed step), Command hand size
from the Commander, the Lore deck (14/8/5 per class), the starting Lore cards (a sealed
keep step), starting tokens, and the landmarks of level-3 masters and the Stronghold
(placed first player first). Also the Lore part of the views and of the set-up prompts.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from pbem.core.dice import Dice
from pbem.core.orders import Parsed, Prompt

from .board import ALL_HEXES, Hex, hex_name
from .ctx import Ctx, RecDice
from .orders import Council, Keep, Place
from .state import SEATS, data, hkey, other, uclass

POOL = 36  # Lore tokens in the box (spec §2.1, public source)
COMMAND_HAND = {0: 3, 1: 4, 2: 5, 3: 6}  # p.33-34
KEEP = {0: 0, 1: 1, 2: 2, 3: 3}  # p.35 (row 2 interpolated, spec §2.11)
TOKENS = {0: 0, 1: 1, 2: 2, 3: 3}
LORE_CLASSES = ("wizard", "cleric", "rogue", "warrior")


def lore_card(cid: str) -> dict[str, Any]:
    return {"id": cid, **data("lore_cards")["cards"][cid]}


def top_level(council: Mapping[str, int]) -> int:
    return max([int(council.get(c, 0)) for c in LORE_CLASSES] + [0])


def hand_limit(s: dict[str, Any], seat: str) -> int:
    """p.32: highest Lore-Master level + 1 (no master: 1, spec §10.20)."""
    return top_level(s["lore"]["council"][seat]) + 1


def budget(s: dict[str, Any], seat: str) -> int:
    """Custom council level tokens; a creature costs one (public source, spec §2.11)."""
    creatures = sum(1 for u in s["units"].values() if u["owner"] == seat and uclass(u) == "creature")
    return int(s["options"].get("council_levels", 6)) - creatures


def setup_lore(s: dict[str, Any], sc: dict[str, Any], dice: Dice) -> None:
    s["lore"] = {"pool": POOL, "total": POOL, "goblet": {x: 0 for x in SEATS},
                 "hands": {x: [] for x in SEATS}, "deck": [], "discard": [],
                 "offer": {x: [] for x in SEATS}, "on_cards": {x: 0 for x in SEATS},
                 "council": {x: {} for x in SEATS},
                 "classes": list(sc.get("lore_classes", LORE_CLASSES))}
    s["place_queue"] = []
    if sc["council"] == "custom":
        s["phase"] = "council"
        return
    for seat in SEATS:
        s["lore"]["council"][seat] = dict(sc["council"][seat])
    ctx = Ctx(s, RecDice(dice, []), ask=False)
    after_council(ctx)


def after_council(ctx: Ctx) -> None:
    """Hands (Commander table unless the adventure fixes them), Lore deck, deal 4 each."""
    s = ctx.s
    sc = data("scenarios")[s["scenario"]]
    for seat in SEATS:
        if "hand" not in sc:
            s["hand_size"][seat] = COMMAND_HAND[int(s["lore"]["council"][seat].get("commander", 0))]
        for i in range(s["hand_size"][seat]):
            k = ctx.dice.pick(len(s["deck"]), f"Command card {i + 1} dealt to {seat}",
                              visible_to=[seat])
            s["hands"][seat].append(s["deck"].pop(k))
        s["hands"][seat].sort()
    build_lore_deck(ctx)
    for seat in (s["first"], other(s["first"])):
        for i in range(4):
            if s["lore"]["deck"]:
                k = ctx.dice.pick(len(s["lore"]["deck"]), f"Lore card {i + 1} dealt to {seat}",
                                  visible_to=[seat])
                s["lore"]["offer"][seat].append(s["lore"]["deck"].pop(k))
        s["lore"]["offer"][seat].sort()
    s["phase"] = "keep"
    if not keepers(s):  # nobody has a Lore Master: nothing to choose, no step
        resolve_council_step(ctx, {})


def keepers(s: dict[str, Any]) -> list[str]:
    """The seats that choose starting Lore cards (their highest Lore Master > 0)."""
    return [x for x in SEATS if KEEP[top_level(s["lore"]["council"][x])] > 0]


def build_lore_deck(ctx: Ctx) -> None:
    """p.35: per class, 14 cards if both councils have its master, 8 if one, 5 if none;
    the rest go back to the box unseen. An adventure may use only some classes (p.26)."""
    s = ctx.s
    lo = s["lore"]
    deck: list[str] = []
    for cls in lo["classes"]:
        cards = sorted(cid for cid, c in data("lore_cards")["cards"].items() if c["class"] == cls
                       for _ in range(int(c["copies"])))
        if len(lo["classes"]) == 1:
            deck += cards
            continue
        have = sum(1 for x in SEATS if lo["council"][x].get(cls))
        keep = {2: 14, 1: 8, 0: 5}[have]
        kept = []
        for _ in range(keep):
            kept.append(cards.pop(ctx.dice.pick(len(cards), f"{cls} Lore cards kept for the deck",
                                                visible_to=[])))
        deck += kept
    lo["deck"] = sorted(deck)
    ctx.ev("lore_deck", f"The Lore deck has {len(deck)} cards.")


def level_of(s: dict[str, Any], seat: str, cid: str) -> tuple[int, int]:
    """(level, cost): out of class (no master of its class) costs +3 and acts at level 1
    (p.31, p.35)."""
    c = lore_card(cid)
    lvl = int(s["lore"]["council"][seat].get(c["class"], 0))
    if lvl == 0:
        return 1, int(c["cost"]) + 3
    return lvl, int(c["cost"])


# --- the set-up steps ------------------------------------------------------------------

def resolve_council_step(ctx: Ctx, orders: Mapping[str, Parsed]) -> None:
    s = ctx.s
    ph = s["phase"]
    if ph == "council":
        for seat in SEATS:
            chosen = None
            for o in orders.get(seat, Parsed()).orders:
                if isinstance(o, Council) and council_problem(s, seat, o) is None:
                    chosen = dict(o.levels)
                    break
            if chosen is None:
                chosen = default_council(s, seat)
                ctx.ev("default", f"{seat.capitalize()} sent no valid War Council: the default "
                                  f"is used.")
            s["lore"]["council"][seat] = chosen
        for seat in SEATS:
            desc = ", ".join(f"{m} {n}" for m, n in s["lore"]["council"][seat].items()) or "nobody"
            ctx.ev("council", f"{seat.capitalize()}'s War Council: {desc}.")
        after_council(ctx)
    elif ph == "keep":
        lo = s["lore"]
        for seat in SEATS:
            n = KEEP[top_level(lo["council"][seat])]
            offer = lo["offer"][seat]
            keep: list[str] = []
            for o in orders.get(seat, Parsed()).orders:
                if isinstance(o, Keep) and o.verb == "keep" and keep_problem(s, seat, o) is None:
                    keep = list(o.cards)
                    break
            else:
                keep = default_keep(s, seat)
            rest = list(offer)
            for c in keep:
                rest.remove(c)
            lo["hands"][seat] = sorted(keep)
            lo["deck"] = sorted(lo["deck"] + rest)
            lo["offer"][seat] = []
            ctx.ev("keep", f"{seat.capitalize()} keeps {n} Lore card(s) and shuffles "
                           f"{len(rest)} back into the Lore deck.")
            ctx.ev("keep_own", "You keep " + (", ".join(keep) or "no card") + ".", to=[seat])
            from .lore import gain_tokens
            gain_tokens(ctx, seat, TOKENS[top_level(lo["council"][seat])], "to start")
        s["place_queue"] = placements(s)
        s["phase"] = "place" if s["place_queue"] else "turn"
    elif ph == "place":
        seat = s["place_queue"][0]["seat"]
        todo = [p for p in s["place_queue"] if p["seat"] == seat]
        given = [o for o in orders.get(seat, Parsed()).orders if isinstance(o, Place)]
        for p in todo:
            h = None
            for o in given:
                if o.landmark == p["kind"]:
                    h = next((x for x in o.hexes if place_ok(s, seat, p["kind"], x)), None)
                    break
            if h is None:
                h = default_place(s, seat, p["kind"])
                ctx.ev("default", f"{seat.capitalize()} places the {p['kind']} by default.")
            s["landmarks"][hkey(h)] = {"kind": p["kind"], "owner": seat}
            ctx.ev("place", f"{seat.capitalize()} places a {p['kind'].replace('_', ' ')} at "
                            f"{hex_name(h)}.")
        s["place_queue"] = [p for p in s["place_queue"] if p["seat"] != seat]
        if not s["place_queue"]:
            s["phase"] = "turn"


def council_problem(s: dict[str, Any], seat: str, o: Council) -> str | None:
    total = sum(n for _, n in o.levels)
    b = budget(s, seat)
    if total > b:
        return f"the council uses {total} levels; you have {b}"
    return None


def keep_problem(s: dict[str, Any], seat: str, o: Keep) -> str | None:
    lo = s["lore"]
    n = KEEP[top_level(lo["council"][seat])]
    rest = list(lo["offer"][seat])
    for c in o.cards:
        if c not in rest:
            return f"{c} is not among your 4 cards ({', '.join(lo['offer'][seat])})"
        rest.remove(c)
    if len(o.cards) != n:
        return f"keep exactly {n} card(s)"
    return None


def default_council(s: dict[str, Any], seat: str) -> dict[str, int]:
    """NMR: Commander 2 and one Lore Master with the rest (Wizard first)."""
    b = budget(s, seat)
    if b <= 0:
        return {}
    out = {"commander": min(2, b)}
    if b - out["commander"] > 0:
        out["wizard"] = min(3, b - out["commander"])
    if b - sum(out.values()) > 0:
        out["cleric"] = min(3, b - sum(out.values()))
    return out


def default_keep(s: dict[str, Any], seat: str) -> list[str]:
    """NMR: keep the cheapest cards."""
    lo = s["lore"]
    n = KEEP[top_level(lo["council"][seat])]
    return sorted(lo["offer"][seat], key=lambda c: (level_of(s, seat, c)[1], c))[:n]


def placements(s: dict[str, Any]) -> list[dict[str, Any]]:
    """p.33-34, p.41: landmarks of level-3 Lore Masters (not when both have one of the same
    class) and the Stronghold of a level-3 Commander; first player first."""
    sc = data("scenarios")[s["scenario"]]
    out = []
    for seat in (s["first"], other(s["first"])):
        c = s["lore"]["council"][seat]
        if sc.get("grant_landmarks"):
            for cls in LORE_CLASSES:
                if c.get(cls) == 3 and s["lore"]["council"][other(seat)].get(cls) != 3:
                    out.append({"seat": seat, "kind": data("lore_cards")["classes"][cls]["landmark"]})
        if c.get("commander") == 3:
            out.append({"seat": seat, "kind": "stronghold"})
    return out


def place_ok(s: dict[str, Any], seat: str, kind: str, h: Hex) -> bool:
    from .board import row_from_own_edge
    from .state import feat, occupant
    if hkey(h) in s["landmarks"] or feat(s, h, "impassable"):
        return False
    occ = occupant(s, h)
    if kind == "stronghold":  # SPEC-AMBIGUITY §10.12: any hex holding one of your units
        return occ is not None and occ["owner"] == seat
    return occ is None and row_from_own_edge(h, seat) in (3, 4)


def default_place(s: dict[str, Any], seat: str, kind: str) -> Hex:
    ok = [h for h in ALL_HEXES if place_ok(s, seat, kind, h)]
    return min(ok, key=lambda h: (abs(h[0] - 13), h))


# --- prompts, bots, views ----------------------------------------------------------------

def setup_prompts(s: dict[str, Any]) -> dict[str, Prompt]:
    ph = s["phase"]
    if ph == "council":
        return {seat: Prompt(f"Build your War Council secretly: up to {budget(s, seat)} levels "
                             f"(Commander, Wizard, Cleric, Rogue, Warrior; level 1-3 each).",
                             ("COUNCIL " + " ".join(f"{m} {n}" for m, n in
                                                    default_council(s, seat).items()),))
                for seat in SEATS}
    if ph == "keep":
        out = {}
        for seat in keepers(s):
            n = KEEP[top_level(s["lore"]["council"][seat])]
            offer = s["lore"]["offer"][seat]
            out[seat] = Prompt(f"Keep {n} of your 4 Lore cards: {', '.join(offer)}.",
                               ("KEEP " + " ".join(default_keep(s, seat)),))
        return out
    if ph == "place":
        seat = s["place_queue"][0]["seat"]
        kinds = [p["kind"] for p in s["place_queue"] if p["seat"] == seat]
        return {seat: Prompt("Place " + ", ".join(kinds) + " (Lore-Master landmarks on an empty "
                             "hex in your 3rd or 4th row; the Stronghold under one of your units).",
                             tuple(f"PLACE {k} {hex_name(default_place(s, seat, k))}" for k in kinds))}
    return {}


def nmr_setup(s: dict[str, Any], seat: str) -> list[str]:
    p = setup_prompts(s).get(seat)
    return list(p.skeleton) if p else []


def random_setup(s: dict[str, Any], seat: str, rng: random.Random) -> list[str]:
    ph = s["phase"]
    if ph == "council":
        b = budget(s, seat)
        levels: dict[str, int] = {}
        masters = ["commander", *LORE_CLASSES]
        while b > 0 and rng.random() < 0.9:
            m = rng.choice(masters)
            if levels.get(m, 0) < 3:
                levels[m] = levels.get(m, 0) + 1
                b -= 1
        if not levels:
            return ["COUNCIL commander 1"]
        order = ["commander", *LORE_CLASSES]
        return ["COUNCIL " + " ".join(f"{m} {levels[m]}" for m in order if m in levels)]
    if ph == "keep":
        n = KEEP[top_level(s["lore"]["council"][seat])]
        offer = list(s["lore"]["offer"][seat])
        rng.shuffle(offer)
        return [f"KEEP {' '.join(offer[:n])}"] if n else []
    if ph == "place":
        out = []
        for p in s["place_queue"]:
            if p["seat"] == seat:
                ok = [h for h in ALL_HEXES if place_ok(s, seat, p["kind"], h)]
                out.append(f"PLACE {p['kind']} {hex_name(rng.choice(ok))}")
        return out
    return []


def lore_view(s: dict[str, Any], seat: str | None) -> dict[str, Any]:
    lo = s["lore"]
    v: dict[str, Any] = {
        "pool": lo["pool"], "goblet": dict(lo["goblet"]), "on_cards": dict(lo["on_cards"]),
        "hand_counts": {x: len(lo["hands"][x]) for x in SEATS}, "deck_count": len(lo["deck"]),
        "discard": sorted(lo["discard"]),
        "council": {x: dict(lo["council"][x]) for x in SEATS} if s["phase"] != "council" else {},
        "hand_limit": {x: hand_limit(s, x) for x in SEATS} if s["phase"] != "council" else {},
    }
    if seat in SEATS:
        v["hand"] = [{"id": c, "name": lore_card(c)["name"], "cost": level_of(s, seat, c)[1],
                      "level": level_of(s, seat, c)[0], "phase": lore_card(c)["phase"]}
                     for c in sorted(lo["hands"][seat])]
        if lo["offer"][seat]:
            v["offer"] = sorted(lo["offer"][seat])
    return v
