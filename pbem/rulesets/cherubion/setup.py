"""Setting up a game: choice order, team/Base/deck draft, initial placement, opening hand.

Rulebook "A játék alapjai" and "Mozgások a játéktéren" (first 5 characters placed
anywhere, a large resource, shuffle and draw 10); spec §3. The draft is one sealed step
(spec §4.2 DP1/DP2: ranked preferences drafted in choice order); placement is one step
per player in choice order, each seeing the earlier placements (Rulebook: "all at once
before the next player places").
"""

from __future__ import annotations

from typing import Any

from pbem.rulesets.cherubion import data
from pbem.rulesets.cherubion.model import Ctx, State, board, new_id, pieces_at
from pbem.rulesets.cherubion.orders import (
    BaseChoice,
    Deck,
    Lineup,
    Place,
    StartResource,
    Team,
)

RESOURCE_TABLE = {  # Rulebook "Erőforrások" table: MÉ, pieces on board, ÉP, energy/turn
    "small": {"me": 5, "need": 1, "ep": 20, "energy": 1},
    "medium": {"me": 7, "need": 2, "ep": 40, "energy": 3},
    "large": {"me": 9, "need": 3, "ep": 60, "energy": 5},
}


def choice_order(ctx: Ctx, seats: list[str]) -> list[str]:
    """Every player rolls 2d6; highest chooses first; ties re-roll among themselves
    (Rulebook "A játék alapjai"; 2d6 is spec §3.1 [A])."""
    def rank(group: list[str], depth: int) -> list[str]:
        if len(group) == 1:
            return group
        rolls = {s: sum(ctx.dice.rolls(2, 6, f"choice order, {s}" + (f", re-roll {depth}"
                                                                     if depth else "")))
                 for s in group}
        ctx.pub("choice_roll", "Choice-order roll: " + ", ".join(f"{s} {rolls[s]}" for s in group),
                rolls=rolls)
        out: list[str] = []
        for value in sorted(set(rolls.values()), reverse=True):
            tied = [s for s in group if rolls[s] == value]
            out += rank(tied, depth + 1)
        return out
    return rank(list(seats), 0)


def new_state(config: dict[str, Any], n: int, nml: list[int], open_sides: list[int]) -> State:
    return {
        "config": config, "n": n, "nml": nml, "open_sides": open_sides, "phase": "draft",
        "round": 0, "order": [], "active": None, "players": {}, "pieces": {}, "resources": {},
        "markers": {}, "counters": {}, "turn": {}, "script": [], "queue": [], "ask": None,
        "place_idx": 0, "result": None, "awaiting_orders": False, "turn_no": 0,
    }


def apply_draft(ctx: Ctx, orders: dict[str, list[Any]]) -> None:
    """Draft teams and Bases in choice order from each seat's ranked preferences; record
    line-ups and decks (Rulebook: two players never share a Base; spec §3.1)."""
    st = ctx.state
    free_teams = list(data.TEAMS)
    free_sides = list(st["open_sides"])
    picks = 2 if st["config"]["variant"] == "multibase" else 1
    drafted: dict[str, list[tuple[str, int]]] = {s: [] for s in st["order"]}
    for _ in range(picks):  # Multiple Bases (Rulebook "Több Bázis használata"): 2 teams each
        for seat in st["order"]:
            if not free_teams or not free_sides:
                break  # 3-4 players: second teams while teams last, in choice order
            os_ = orders.get(seat, [])
            team_prefs = next((o.prefs for o in os_ if isinstance(o, Team)), ())
            side_prefs = next((o.prefs for o in os_ if isinstance(o, BaseChoice)), ())
            team = next((t for t in team_prefs if t in free_teams), free_teams[0])
            side = next((s for s in side_prefs if s in free_sides), free_sides[0])
            free_teams.remove(team)
            free_sides.remove(side)
            drafted[seat].append((team, side))
    for seat in st["order"]:
        os_ = orders.get(seat, [])
        lineup = next((o.kind for o in os_ if isinstance(o, Lineup)), "standard")
        deck_o = next((o for o in os_ if isinstance(o, Deck)), Deck())
        team, side = drafted[seat][0]
        deck = dict(deck_o.cards) if deck_o.cards else data.default_deck(team)
        pile = sorted(c for c, k in deck.items() for _ in range(k))
        st["players"][seat] = {
            "team": team, "bases": [sd for _, sd in drafted[seat]], "lineup": lineup,
            "own_sides": [sd for _, sd in drafted[seat]], "pile": pile, "hand": [],
            "grave": [], "energy": 0, "me": 0, "me_dice": [], "skip": 0, "alive": True,
            "turns": 0, "standing": {}, "triggers": [], "known": {}, "herd": 0,
            "transit": [], "top": None, "allies": [], "permanents": [], "placed": False,
        }
        for tm, sd in drafted[seat]:
            _make_team(st, seat, tm, lineup, sd)
            ctx.pub("draft", f"{seat} takes {data.teams()['teams'][tm]['name_en']} ({lineup}) "
                    f"and the Base on side {sd}", seat=seat, team=tm, side=sd)
        ctx.pub("deck", f"{seat} registers a deck of {len(pile)} cards", seat=seat)
    st["phase"] = "place"
    st["place_idx"] = 0


def _make_team(st: State, seat: str, team: str, lineup: str, side: int) -> None:
    adv = data.teams()["advanced"]
    for pid, t in data.piece_templates().items():
        if t["team"] != team:
            continue
        bonus = adv["demigod" if t["kind"] == "demigod" else "creature"] \
            if lineup == "advanced" else {"tk": 0, "vsz": 0, "ep": 0}
        ep = t["ep"] + bonus["ep"]
        st["pieces"][pid] = {
            "id": pid, "name": t["name_en"], "owner": seat, "origin": seat, "teams": [team],
            "kind": t["kind"], "summoned": False, "card": None, "loc": f"base:{side}",
            "ep": ep, "max": ep, "tk": t["tk"] + bonus["tk"], "vsz": t["vsz"] + bonus["vsz"],
            "fe": t["fe"], "reach": t["reach"], "transport": t["transport"], "kk": t["kk"],
            "flags": list(t.get("flags", [])), "own_me": "", "status": {}, "attached": [],
            "hidden": None, "body": None, "home_turn": -1,
        }


def placement_problem(st: State, seat: str, order: Any, placed: list[str]) -> str | None:
    """Why an initial placement is illegal, or None. Rulebook "Mozgások a játéktéren": the
    first 5 characters go "tetszőleges helyre" (anywhere), so also onto a field where
    another player's piece or resource stands (the spec's §3.1 [A] ban is not the
    rulebook's); the starting resource goes on any field without a resource."""
    b = board(st)
    if isinstance(order, Place):
        p = st["pieces"].get(order.piece)
        if p is None or p["owner"] != seat:
            return f"{order.piece} is not one of your pieces"
        if order.piece in placed:
            return f"{order.piece} is already placed"
        if len(placed) >= 5 * len(st["players"][seat]["own_sides"]):
            return "only 5 pieces may be placed at the start (Rulebook); the rest start in " \
                   "your Base"
        if order.field not in b.fields:
            return f"{order.field} is not a field"
        return None
    if isinstance(order, StartResource):
        if any(r["field"] == order.field for r in st["resources"].values()):
            return f"{order.field} already holds a resource"
        return None
    return None


def apply_placement(ctx: Ctx, seat: str, orders: list[Any]) -> None:
    """Place up to 5 pieces and the starting large resource, then shuffle-and-draw 10
    (Rulebook "Példa a kezdésre"). A missing resource field is put on the first free
    field nearest the Base's middle border field (NMR default)."""
    st = ctx.state
    placed: list[str] = []
    res_fields: list[str] = []
    teams = len(st["players"][seat]["own_sides"])  # Multiple Bases: one per team [A]
    for o in orders:
        why = placement_problem(st, seat, o, placed)
        if why:
            ctx.pub("skipped", f"{seat}: {o} skipped: {why}", seat=seat)
            continue
        if isinstance(o, Place):
            st["pieces"][o.piece]["loc"] = o.field
            placed.append(o.piece)
            ctx.pub("place", f"{seat} places {st['pieces'][o.piece]['name']} ({o.piece}) on "
                    f"{o.field}", seat=seat, piece=o.piece, field=o.field)
        elif isinstance(o, StartResource) and len(res_fields) < teams:
            _start_resource(ctx, seat, o.field)
            res_fields.append(o.field)
    while len(res_fields) < teams:
        f = default_resource_field(st, seat)
        _start_resource(ctx, seat, f)
        res_fields.append(f)
    pl = st["players"][seat]
    for i in range(10):
        pl["hand"].append(ctx.dice.draw(pl["pile"], f"opening hand, {seat}, card {i + 1}",
                                        visible_to=[seat]))
    pl["hand"].sort()
    pl["placed"] = True
    ctx.priv([seat], "hand", f"You draw your opening hand: {', '.join(pl['hand'])}",
             cards=list(pl["hand"]))
    ctx.pub("hand_count", f"{seat} draws 10 cards")


def _start_resource(ctx: Ctx, seat: str, field: str) -> None:
    st = ctx.state
    rid = new_id(st, "N")
    st["resources"][rid] = {"id": rid, "owner": seat, "field": field, "size": "large",
                            "ep": RESOURCE_TABLE["large"]["ep"], "active": True}
    ctx.pub("resource", f"{seat}'s starting large resource {rid} stands on {field}",
            seat=seat, field=field)


def default_resource_field(st: State, seat: str) -> str:
    b = board(st)
    side = st["players"][seat]["bases"][0]
    border = b.border[side]
    anchor = border[len(border) // 2]
    for f in sorted(b.fields, key=lambda f: (b.distance(anchor, f), b.index[f])):
        if any(q["owner"] != seat for q in pieces_at(st, f)):
            continue
        if any(r["field"] == f for r in st["resources"].values()):
            continue
        return f
    raise AssertionError("no free field for a resource")
