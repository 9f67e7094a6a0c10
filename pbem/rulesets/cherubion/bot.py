"""Prompts with order skeletons, NMR placement, and the random bot (`legal_orders`).

The bot writes a plausible whole-turn script from the state it is given: draw, deploy,
build, walk toward the nearest enemy, attack what is in reach, play a card whose target
checks out now, sometimes standing triggers, and PASS; lines the arrival judgement refuses
are left out; commands that turn illegal mid-turn get their outcome from the engine. To
make random games end, the bot surrenders with a chance that
grows after round 6 (a legal order: the rulebook's end by surrender).
"""

from __future__ import annotations

import random

from pbem.core.i18n import _
from pbem.core.orders import Prompt
from pbem.rulesets.cherubion import data
from pbem.rulesets.cherubion.arrival import taken_lines
from pbem.rulesets.cherubion.board import Board
from pbem.rulesets.cherubion.data import RESOURCE_TABLE
from pbem.rulesets.cherubion.orders import Play
from pbem.rulesets.cherubion.rules.cards import TARGETS, check_play
from pbem.rulesets.cherubion.rules.combat import attack_problem
from pbem.rulesets.cherubion.rules.queries import (
    board,
    by_place,
    engaged,
    hostile,
    on_board,
    pieces_on_board,
)
from pbem.rulesets.cherubion.rules.setup import default_resource_field
from pbem.rulesets.cherubion.state import Piece, State


def draft_prompt(state: State, seat: str) -> Prompt:
    sides = " ".join(map(str, state["open_sides"]))
    return Prompt(_("Choose your demigod and Base side (in order of preference), your line-up "
                    "and your deck. Teams and sides are drafted in choice order: {order}",
                    order=", ".join(state["order"])),
                  ("TEAM melan choler sang otoaak rominyarak", f"BASE {sides}",
                   "LINEUP STANDARD", "DECK DEFAULT"))


def place_prompt(state: State, seat: str) -> Prompt:
    return Prompt(_("Place up to 5 of your pieces on any fields and your starting large "
                    "resource (the rest stay in your Base)."),
                  tuple(default_placement(state, seat)))


def default_placement(state: State, seat: str) -> list[str]:
    """NMR placement: the demigod and the four cheapest-id pieces on the first free fields
    next to the middle of the Base side; the resource on the nearest free field."""
    b = board(state)
    side = state["players"][seat]["bases"][0]
    border = b.border[side]
    anchor = border[len(border) // 2]
    placed = by_place(state)
    taken = {r["field"] for r in state["resources"].values()}
    free = [f for f in sorted(b.fields, key=lambda f: (b.distance(anchor, f), b.index[f]))
            if not any(p["owner"] != seat for p in placed.get(f, ()))
            and f not in taken]
    mine = sorted((p["id"] for p in state["pieces"].values() if p["owner"] == seat),
                  key=lambda x: int(x[2:]))[:5]
    out = [f"PLACE {pid} {free[i + 1]}" for i, pid in enumerate(mine)]
    out.append(f"RESOURCE {free[0]}")
    return out


def turn_prompt(state: State, seat: str) -> Prompt:
    pl = state["players"][seat]
    text = _("Round {round}: your turn. MÉ {me} (dice {dice}), energy {energy}. Every MÉ "
             "must be used unless one of your pieces fights; the engine walks out what you "
             "leave.", round=state["round"], me=pl["me"],
             dice="+".join(map(str, pl["me_dice"])), energy=pl["energy"])
    skel = ["# MOVE <piece> <field> <field> ... | MOVE <piece> TO <field>",
            "# DEPLOY <piece> <border field>   DRAW   BUILD <size> <field>",
            "# PLAY <card> BY <caster> ON <target> [X k]   ATTACK <piece> <target>"]
    for p in sorted(pieces_on_board(state, seat), key=lambda q: q["id"])[:3]:
        skel.append(f"# MOVE {p['id']} TO {p['loc']}")
    return Prompt(text, tuple(skel))


def random_orders(state: State, seat: str, rng: random.Random) -> list[str]:
    if state["phase"] == "draft":
        teams = list(data.TEAMS)
        rng.shuffle(teams)
        sides = list(state["open_sides"])
        rng.shuffle(sides)
        return [f"TEAM {' '.join(teams)}", f"BASE {' '.join(map(str, sides))}",
                f"LINEUP {rng.choice(['STANDARD', 'ADVANCED'])}", _random_deck(teams[0], rng),
                rng.choice(["FREEATTACK YES", "FREEATTACK NO", "INTRUDER KILL",
                            "INTRUDER PRISONER", "CAPTURE ANY", "CAPTURE NO"])]
    if state["phase"] == "place":
        return taken_lines(state, seat, _random_placement(state, seat, rng))
    pause = state["pause"]
    if pause:
        q = next(q for q in pause["questions"] if q["seat"] == seat)
        opts = [o for o in q["options"] if o != "PASS"]
        return [rng.choice(opts + ["PASS"])]
    # the bot writes its script from the board at the start; lines that the plan of the
    # turn refuses (a piece an earlier line moved is out of reach, the energy is spent)
    # are left out, as a player would after reading the confirmation
    return taken_lines(state, seat, _random_turn(state, seat, rng))


def _random_placement(state: State, seat: str, rng: random.Random) -> list[str]:
    b = board(state)
    side = state["players"][seat]["bases"][0]
    border = b.border[side]
    placed = by_place(state)
    taken = {r["field"] for r in state["resources"].values()}
    near = [f for f in b.fields if min(b.distance(f, x) for x in border) <= 4
            and not any(p["owner"] != seat for p in placed.get(f, ()))
            and f not in taken]
    near.sort(key=lambda f: b.index[f])
    mine = sorted(p["id"] for p in state["pieces"].values() if p["owner"] == seat)
    rng.shuffle(mine)
    out = [f"PLACE {pid} {rng.choice(near)}" for pid in mine[:rng.randint(3, 5)]]
    out.append(f"RESOURCE {rng.choice(near) if near else default_resource_field(state, seat)}")
    out += rng.choice([[], ["WHEN DAMAGE ON ANY OVER 6 PLAY Eppenhogy BY ANY"],
                       ["WHEN ZERO ON ANY PLAY Gyogyitas BY ANY"],
                       ["WHEN CAST ANY ON ANY PLAY Ellenvarazs BY ANY",
                        "WHEN AFTER ANY ON ANY PLAY Kotes Oldasa BY ANY"],
                       ["WHEN CAST ANY ON ALL PLAY Ellenvarazs BY ANY",
                        "WHEN DAMAGE ON ALL PLAY Eppenhogy BY ANY",
                        "WHEN ZERO ON ALL PLAY Gyogyitas BY ANY",
                        "WHEN AFTER ANY ON ALL PLAY Maradandosag Feloldasa BY ANY"],
                       ["WHEN BUILD PLAY Epitkezes Megakadalyozasa BY ANY",
                        "WHEN TELEPORT PLAY Hamis Utazas II BY ANY"],
                       ["WHEN START ON ANY PLAY Kotes Oldasa BY ANY",
                        "WHEN START ON ANY PLAY Gyogyitas BY ANY"],
                       ["WHEN START ON ALL PLAY Maradandosag Feloldasa BY ANY",
                        "WHEN START ON ALL PLAY Gyogyitas BY ANY"]])
    return out


def _random_deck(team: str, rng: random.Random) -> str:
    """The default deck, or (half the time) it plus the pool's instants that no default
    deck holds (Hamis Utazás II, Építkezés Megakadályozása), so playouts meet them."""
    if rng.random() < 0.5:
        return "DECK DEFAULT"
    deck = data.default_deck(team)
    deck["n17"] = deck.get("n17", 0) + 2
    deck["n30"] = deck.get("n30", 0) + 2
    return "DECK " + ", ".join(f"{c}={n}" for c, n in sorted(deck.items()))


def _random_turn(state: State, seat: str, rng: random.Random) -> list[str]:
    if state["round"] > 6 and rng.random() < min(0.35, 0.04 * (state["round"] - 6)):
        return ["SURRENDER"]
    if state["players"][seat]["transit"]:
        return ["PASS"]  # all MÉ goes to carrying the captive home
    out: list[str] = []
    me = _draw_and_build(state, seat, rng, state["players"][seat]["me"], out)
    me = _deploy(state, seat, rng, me, out)
    enemies = [p for p in state["pieces"].values() if on_board(p["loc"]) and not p["hidden"]
               and not p["captive"] and hostile(state, seat, p["owner"])]
    _moves(state, seat, rng, me, enemies, out)
    _attacks(state, seat, rng, enemies, out)
    out += _random_cards(state, seat, rng)
    out.append("PASS")  # the engine walks out the MÉ this script leaves
    if state["config"]["options"]["diplomacy"] and rng.random() < 0.3:
        others = [s for s in state["order"] if s != seat and state["players"][s]["alive"]]
        if others:
            other = rng.choice(others)
            out.append(rng.choice([f"ALLY {other}", f"ALLY {other} SECRET", f"BREAK {other}"]))
    return out


def _draw_and_build(state: State, seat: str, rng: random.Random, me: int, out: list[str]) -> int:
    if me >= 4 and state["players"][seat]["deck"] and rng.random() < 0.35:
        out.append("DRAW")
        me -= 4
    mine = pieces_on_board(state, seat)
    if rng.random() < 0.3:
        size = rng.choice(["small", "medium", "large"])
        t = RESOURCE_TABLE[size]
        if me >= t["me"] and len(mine) >= t["need"] and \
                sum(1 for r in state["resources"].values() if r["owner"] == seat) < 5:
            fields = [p["loc"] for p in mine if not any(r["field"] == p["loc"]
                                                         for r in state["resources"].values())]
            if fields:
                out.append(f"BUILD {size} {rng.choice(sorted(fields))}")
                me -= t["me"]
    return me


def _deploy(state: State, seat: str, rng: random.Random, me: int, out: list[str]) -> int:
    pl = state["players"][seat]
    home = sorted((p for p in state["pieces"].values()
                   if p["owner"] == seat and p["loc"].startswith("base:")
                   and int(p["loc"][5:]) in pl["bases"] and p["home_turn"] < pl["turns"]),
                  key=lambda p: p["id"])
    if home and rng.random() < 0.6:
        p = rng.choice(home)
        if p["kk"] <= me:
            side = int(p["loc"][5:])
            out.append(f"DEPLOY {p['id']} {rng.choice(board(state).border[side])}")
            me -= p["kk"]
    return me


def _moves(state: State, seat: str, rng: random.Random, me: int, enemies: list[Piece],
           out: list[str]) -> int:
    """Up to three pieces walk toward the nearest enemy; summons with their own MÉ too."""
    b = board(state)
    mine = pieces_on_board(state, seat)
    movers = [p for p in mine if not p["summoned"] and not engaged(state, p)]
    rng.shuffle(movers)
    for p in movers[:3]:
        if me <= 0 or not enemies:
            break
        foe = min(enemies, key=lambda q: (b.distance(p["loc"], q["loc"]), q["id"]))
        route = b.path_to(p["loc"], foe["loc"]) or []
        steps = min(len(route), me, rng.randint(1, max(1, me)))
        if steps > 0:
            out.append(f"MOVE {p['id']} {' '.join(route[:steps])}")
            me -= steps
    for p in sorted(mine, key=lambda q: q["id"]):
        if p["summoned"] and p["own_me"] and enemies and rng.random() < 0.7:
            foe = min(enemies, key=lambda q: (b.distance(p["loc"], q["loc"]), q["id"]))
            out.append(f"MOVE {p['id']} TO {foe['loc']}")
    return me


def _attacks(state: State, seat: str, rng: random.Random, enemies: list[Piece],
             out: list[str]) -> None:
    """Attacks on what is in reach now (the engine re-checks when the line is reached)."""
    for p in sorted(pieces_on_board(state, seat), key=lambda q: q["id"]):
        targets = [q for q in enemies if attack_problem(state, p, q["id"]) is None]
        if targets and rng.random() < 0.8:
            t = rng.choice(targets)["id"]
            line = f"ATTACK {p['id']} {t}" + _capture_clause(state, seat, rng)
            if rng.random() < 0.3:
                out.append(f"IF {t} ALIVE THEN {line}")
                out.append(f"ELSE MOVE {p['id']} TO {p['loc']}")
            else:
                out.append(line)
        else:
            res = [r for r in state["resources"].values() if hostile(state, seat, r["owner"])
                   and attack_problem(state, p, r["id"]) is None]
            if res and rng.random() < 0.5:
                out.append(f"ATTACK {p['id']} {rng.choice(res)['id']}")


def _capture_clause(state: State, seat: str, rng: random.Random) -> str:
    carriers = [p for p in pieces_on_board(state, seat) if p["transport"] > 0]
    if carriers and rng.random() < 0.3:
        return f" CAPTURE {rng.choice(sorted(carriers, key=lambda p: p['id']))['id']}"
    return ""


def _random_cards(state: State, seat: str, rng: random.Random) -> list[str]:
    pl = state["players"][seat]
    out: list[str] = []
    hand = sorted(set(pl["hand"]))
    rng.shuffle(hand)
    casters = sorted((p for p in state["pieces"].values() if p["owner"] == seat
                      and not p["summoned"] and p["loc"] != "gone"
                      and (on_board(p["loc"]) or p["loc"].startswith("base:"))),
                     key=lambda p: p["id"])
    if not casters:
        return out
    b = board(state)
    for cid in hand[:4]:
        kind = TARGETS[data.card(cid)["effect"]]
        if kind == "reaction":
            continue
        for _i in range(4):
            caster = rng.choice(casters)
            tg = _random_target(state, seat, kind, caster, rng, b)
            if tg is None:
                continue
            play = Play(cid, caster["id"], tg, 1)
            if check_play(state, seat, play) is None:
                out.append(str(play))
                break
    return out


def _random_target(state: State, seat: str, kind: str, caster: Piece,
                   rng: random.Random, b: Board) -> tuple[str, ...] | None:
    if kind == "none":
        return ()
    if kind in ("piece", "own_piece", "pieces"):
        cands = [p for p in state["pieces"].values() if p["loc"] != "gone" and not p["hidden"]
                 and (kind == "piece" or p["owner"] == seat)]
        if not cands:
            return None
        return (rng.choice(sorted(cands, key=lambda p: p["id"]))["id"],)
    if kind == "field":
        if not on_board(caster["loc"]):
            return None
        near = [f for f in b.fields if b.distance(f, caster["loc"]) <= 4]
        return (rng.choice(sorted(near, key=lambda f: b.index[f])),)
    if kind == "resource":
        rs = sorted(state["resources"])
        return (rng.choice(rs),) if rs else None
    if kind == "seat":
        others = [s for s in state["order"] if s != seat and state["players"][s]["alive"]]
        return (rng.choice(others),) if others else None
    if kind == "any":
        held = sorted(p["id"] for p in state["pieces"].values() if p["attached"])
        return (rng.choice(held),) if held else None
    return None
