"""The War Council and the Lore set-up (rulebook p.26-27, p.33-36; spec §2.11, §3.3-§3.5,
§4.1 D1-D3): councils (fixed by the adventure, or custom and sealed), the Command hand
from the Commander, the Lore deck (14/8/5 per class), the starting Lore cards and tokens,
and the landmarks of level-3 masters and the Stronghold (placed first player first).

Not here: the set-up steps' orders and prompts (phases.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core.i18n import Msg, _, join
from pbem.core.kit import Context

from ..board import ALL_HEXES, Hex, hex_name, row_from_own_edge
from ..data import LORE_CLASSES, SEATS, data, lore_card, scenario, term
from ..state import LoreState, Placement, State, feat, hkey, lore_of, occupant, other, uclass
from .common import state_of
from .tokens import gain_tokens

POOL = 36  # Lore tokens in the box (spec §2.1, public source)
COMMAND_HAND = {0: 3, 1: 4, 2: 5, 3: 6}  # p.33-34
KEEP = {0: 0, 1: 1, 2: 2, 3: 3}  # p.35 (row 2 interpolated, spec §2.11)
TOKENS = {0: 0, 1: 1, 2: 2, 3: 3}


def top_level(council: Mapping[str, int]) -> int:
    return max([int(council.get(c, 0)) for c in LORE_CLASSES] + [0])


def hand_limit(s: State, seat: str) -> int:
    """p.32: highest Lore-Master level + 1 (no master: 1, spec §10.20)."""
    return top_level(lore_of(s)["council"][seat]) + 1


def keep_count(s: State, seat: str) -> int:
    """How many of the 4 dealt Lore cards the seat keeps (p.35)."""
    return KEEP[top_level(lore_of(s)["council"][seat])]


def budget(s: State, seat: str) -> int:
    """Custom council level tokens; a creature costs one (public source, spec §2.11)."""
    creatures = sum(1 for u in s["units"].values()
                    if u["owner"] == seat and uclass(u) == "creature")
    return int(s["options"]["council_levels"]) - creatures


def level_of(s: State, seat: str, cid: str) -> tuple[int, int]:
    """(level, cost): out of class (no master of its class) costs +3 and acts at level 1
    (p.31, p.35)."""
    c = lore_card(cid)
    lvl = int(lore_of(s)["council"][seat].get(c["class"], 0))
    if lvl == 0:
        return 1, int(c["cost"]) + 3
    return lvl, int(c["cost"])


def new_lore(sc: dict[str, Any]) -> LoreState:
    return {"pool": POOL, "total": POOL, "goblet": {x: 0 for x in SEATS},
            "hands": {x: [] for x in SEATS}, "deck": [], "discard": [],
            "offer": {x: [] for x in SEATS}, "on_cards": {x: 0 for x in SEATS},
            "council": {x: {} for x in SEATS},
            "classes": list(sc.get("lore_classes", LORE_CLASSES))}


def after_council(ctx: Context) -> None:
    """Hands (Commander table unless the adventure fixes them), Lore deck, deal 4 each."""
    s = state_of(ctx)
    lo = lore_of(s)
    sc = scenario(s["scenario"])
    for seat in SEATS:
        if "hand" not in sc:
            s["hand_size"][seat] = COMMAND_HAND[int(lo["council"][seat].get("commander", 0))]
        for i in range(s["hand_size"][seat]):
            k = ctx.dice.pick(len(s["deck"]), _("Command card {n} dealt to {seat}", n=i + 1,
                                                seat=seat),
                              visible_to=[seat])
            s["hands"][seat].append(s["deck"].pop(k))
        s["hands"][seat].sort()
    build_lore_deck(ctx)
    for seat in (s["first"], other(s["first"])):
        for i in range(4):
            if lo["deck"]:
                k = ctx.dice.pick(len(lo["deck"]), _("Lore card {n} dealt to {seat}", n=i + 1,
                                                     seat=seat),
                                  visible_to=[seat])
                lo["offer"][seat].append(lo["deck"].pop(k))
        lo["offer"][seat].sort()
    s["phase"] = "keep"
    if not keepers(s):  # nobody has a Lore Master: nothing to choose, no step
        apply_keep(ctx, {})


def keepers(s: State) -> list[str]:
    """The seats that choose starting Lore cards (their highest Lore Master > 0)."""
    return [x for x in SEATS if keep_count(s, x) > 0]


def build_lore_deck(ctx: Context) -> None:
    """p.35: per class, 14 cards if both councils have its master, 8 if one, 5 if none;
    the rest go back to the box unseen. An adventure may use only some classes (p.26)."""
    lo = lore_of(state_of(ctx))
    deck: list[str] = []
    for cls in lo["classes"]:
        cards = sorted(cid for cid, c in data("lore_cards")["cards"].items() if c["class"] == cls
                       for _i in range(int(c["copies"])))
        if len(lo["classes"]) == 1:
            deck += cards
            continue
        have = sum(1 for x in SEATS if lo["council"][x].get(cls))
        keep = {2: 14, 1: 8, 0: 5}[have]
        kept = []
        for _i in range(keep):
            purpose = _("{master} Lore cards kept for the deck", master=term(cls))
            kept.append(cards.pop(ctx.dice.pick(len(cards), purpose, visible_to=[])))
        deck += kept
    lo["deck"] = sorted(deck)
    ctx.log.public("lore_deck", _("The Lore deck has {n} cards.", n=len(deck)))


# --- the set-up steps --------------------------------------------------------------------

def apply_councils(ctx: Context, chosen: Mapping[str, dict[str, int] | None]) -> None:
    """D1: the sealed councils (None: the seat sent no valid one, the default is used)."""
    s = state_of(ctx)
    lo = lore_of(s)
    for seat in SEATS:
        council = chosen.get(seat)
        if council is None:
            council = default_council(s, seat)
            ctx.log.public("default", _("{seat} sent no valid War Council: the default is used.",
                                        seat=seat.capitalize()))
        lo["council"][seat] = council
    for seat in SEATS:
        desc = join([_("{master} {level}", master=term(m), level=n)
                     for m, n in lo["council"][seat].items()]) or _("nobody")
        ctx.log.public("council", _("{seat}'s War Council: {masters}.", seat=seat.capitalize(),
                                    masters=desc))
    after_council(ctx)


def apply_keep(ctx: Context, kept: Mapping[str, Sequence[str]]) -> None:
    """D2: each seat keeps its cards of the 4 dealt (the others go back into the deck) and
    takes its starting tokens; then the landmarks to place (D3) or the first turn."""
    s = state_of(ctx)
    lo = lore_of(s)
    for seat in SEATS:
        n = keep_count(s, seat)
        keep = list(kept[seat]) if seat in kept else default_keep(s, seat)
        rest = list(lo["offer"][seat])
        for c in keep:
            rest.remove(c)
        lo["hands"][seat] = sorted(keep)
        lo["deck"] = sorted(lo["deck"] + rest)
        lo["offer"][seat] = []
        ctx.log.public("keep", _("{seat} keeps {n} Lore card(s) and shuffles {back} back into "
                                 "the Lore deck.", seat=seat.capitalize(), n=n, back=len(rest)))
        ctx.log.private([seat], "keep_own", _("You keep {cards}.", cards=", ".join(keep))
                        if keep else _("You keep no card."))
        gain_tokens(ctx, seat, TOKENS[top_level(lo["council"][seat])], _("to start"))
    s["place_queue"] = placements(s)
    s["phase"] = "place" if s["place_queue"] else "turn"


def council_problem(s: State, seat: str, levels: Sequence[tuple[str, int]]) -> Msg | None:
    total = sum(n for _m, n in levels)
    b = budget(s, seat)
    if total > b:
        return _("the council uses {n} levels; you have {have}", n=total, have=b)
    return None


def keep_problem(s: State, seat: str, cards: Sequence[str]) -> Msg | None:
    lo = lore_of(s)
    n = keep_count(s, seat)
    rest = list(lo["offer"][seat])
    for c in cards:
        if c not in rest:
            return _("{card} is not among your 4 cards ({cards})", card=c,
                     cards=", ".join(lo["offer"][seat]))
        rest.remove(c)
    if len(cards) != n:
        return _("keep exactly {n} card(s)", n=n)
    return None


def default_council(s: State, seat: str) -> dict[str, int]:
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


def default_keep(s: State, seat: str) -> list[str]:
    """NMR: keep the cheapest cards."""
    n = keep_count(s, seat)
    return sorted(lore_of(s)["offer"][seat], key=lambda c: (level_of(s, seat, c)[1], c))[:n]


def placements(s: State) -> list[Placement]:
    """p.33-34, p.41: landmarks of level-3 Lore Masters (not when both have one of the same
    class) and the Stronghold of a level-3 Commander; first player first."""
    sc = scenario(s["scenario"])
    council = lore_of(s)["council"]
    out: list[Placement] = []
    for seat in (s["first"], other(s["first"])):
        c = council[seat]
        if sc.get("grant_landmarks"):
            for cls in LORE_CLASSES:
                if c.get(cls) == 3 and council[other(seat)].get(cls) != 3:
                    out.append({"seat": seat,
                                "kind": data("lore_cards")["classes"][cls]["landmark"]})
        if c.get("commander") == 3:
            out.append({"seat": seat, "kind": "stronghold"})
    return out


def place_problem(s: State, seat: str, kind: str, h: Hex) -> Msg | None:
    """Why the landmark may not go on `h` (None: it may). p.33-34: a Lore-Master landmark on
    an empty hex of the owner's 3rd or 4th row; p.41 (SPEC-AMBIGUITY §10.12): the
    Stronghold under one of the owner's units."""
    where = hex_name(h)
    if hkey(h) in s["landmarks"]:
        return _("{hex} already holds a landmark", hex=where)
    if feat(s, h, "impassable"):
        return _("{hex} is water", hex=where)
    occ = occupant(s, h)
    if kind == "stronghold":
        return None if occ is not None and occ["owner"] == seat else \
            _("no unit of yours stands on {hex}", hex=where)
    if occ is not None:
        return _("{hex} holds a unit", hex=where)
    row = row_from_own_edge(h, seat)
    return None if row in (3, 4) else _("{hex} is in your row {row}, not your 3rd or 4th",
                                        hex=where, row=row)


def place_ok(s: State, seat: str, kind: str, h: Hex) -> bool:
    return place_problem(s, seat, kind, h) is None


def legal_places(s: State, seat: str, kind: str) -> list[Hex]:
    return [h for h in ALL_HEXES if place_ok(s, seat, kind, h)]


def default_place(s: State, seat: str, kind: str) -> Hex:
    return min(legal_places(s, seat, kind), key=lambda h: (abs(h[0] - 13), h))


def apply_places(ctx: Context, seat: str,
                 wanted: Mapping[str, Sequence[Hex]]) -> dict[str, tuple[Hex, int]]:
    """D3: the seat's landmarks, each on the first legal hex of its PLACE line (none legal
    or no line: the legal hex nearest the centre). Returns kind -> (hex, the index of the
    hex of the line used, or -1 for the default)."""
    s = state_of(ctx)
    out: dict[str, tuple[Hex, int]] = {}
    for p in [p for p in s["place_queue"] if p["seat"] == seat]:
        hexes = list(wanted.get(p["kind"], ()))
        i = next((k for k, x in enumerate(hexes) if place_ok(s, seat, p["kind"], x)), -1)
        h = hexes[i] if i >= 0 else default_place(s, seat, p["kind"])
        if i < 0:
            ctx.log.public("default", _("{seat} places the {landmark} by default.",
                                        seat=seat.capitalize(), landmark=term(p["kind"])))
        s["landmarks"][hkey(h)] = {"kind": p["kind"], "owner": seat}
        ctx.log.public("place", _("{seat} places a {landmark} at {hex}.", seat=seat.capitalize(),
                                  landmark=term(p["kind"].replace("_", " ")), hex=hex_name(h)))
        out[p["kind"]] = (h, i)
    s["place_queue"] = [p for p in s["place_queue"] if p["seat"] != seat]
    if not s["place_queue"]:
        s["phase"] = "turn"
    return out
