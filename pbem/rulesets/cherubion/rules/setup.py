"""Setting up a game: choice order, team/Base/deck draft, initial placement, opening hand.

Rulebook "A játék alapjai" and "Mozgások a játéktéren" (first 5 characters placed
anywhere, a large resource, shuffle and draw 10); spec §3. The draft is one sealed step
(spec §4.2 DP1/DP2: ranked preferences drafted in choice order); placement is one step
per player in choice order, each seeing the earlier placements (Rulebook: "all at once
before the next player places").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.core.i18n import Msg, _
from pbem.core.kit import Context, Order
from pbem.core.orders import OrderLine
from pbem.rulesets.cherubion import data
from pbem.rulesets.cherubion.data import RESOURCE_TABLE
from pbem.rulesets.cherubion.orders import (
    BaseChoice,
    Deck,
    Lineup,
    Place,
    StartResource,
    Team,
)
from pbem.rulesets.cherubion.rules.queries import (
    board,
    both,
    new_id,
    piece_name,
    pieces_at,
    team_label,
)
from pbem.rulesets.cherubion.state import Config, Player, State

PLACED_PIECES = 5  # Rulebook: the first 5 characters are placed on the board


def choice_order(ctx: Context, seats: list[str]) -> list[str]:
    """Every player rolls 2d6; highest chooses first; ties re-roll among themselves
    (Rulebook "A játék alapjai"; 2d6 is spec §3.1 [A])."""
    def rank(group: list[str], depth: int) -> list[str]:
        if len(group) == 1:
            return group
        rolls = {s: sum(data.rolls(ctx.dice, 2, 6, _("choice order, {seat}, re-roll {n}", seat=s,
                                                 n=depth) if depth
                                       else _("choice order, {seat}", seat=s)))
                 for s in group}
        ctx.log.public("choice_roll", _("Choice-order roll: {rolls}", rolls=", ".join(
            f"{s} {rolls[s]}" for s in group)), rolls=rolls)
        out: list[str] = []
        for value in sorted(set(rolls.values()), reverse=True):
            out += rank([s for s in group if rolls[s] == value], depth + 1)
        return out
    return rank(list(seats), 0)


def new_player() -> Player:
    """A seat before the draft: no team yet."""
    return {"team": "", "bases": [], "own_sides": [], "lineup": "", "deck": [], "deck_size": 0,
            "deck_top": None, "hand": [], "grave": [], "permanents": [], "energy": 0, "me": 0,
            "me_dice": [], "skip_turns": 0, "trapped": False, "time_trap_cards": [],
            "hostage_turns": 0, "alive": True, "turns": 0, "standing": {}, "triggers": [],
            "known_markers": {}, "herd": 0, "transit": [], "allies": [], "joined": None,
            "placed": False}


def new_state(config: Config, size: int, nml: list[int], open_sides: list[int]) -> State:
    return {
        "config": config, "board_size": size, "nml_sides": nml, "open_sides": open_sides,
        "phase": "draft", "round": 0, "order": [], "active": None, "placing": 0,
        "turn_no": 0, "players": {s: new_player() for s in config["seats"]}, "pieces": {},
        "resources": {}, "markers": {}, "id_counters": {}, "turn": {}, "alliances": [],
        "proposals": {}, "result": None, "pause": None,
    }


def _first(lines: Sequence[OrderLine], kind: type) -> OrderLine | None:
    return next((ln for ln in lines if isinstance(ln.order, kind)), None)


def _draft_picks(state: State,
                 lines: Mapping[str, Sequence[OrderLine]]) -> dict[str, list[tuple[str, int]]]:
    """Teams and Bases in choice order from each seat's ranked preferences (Rulebook: two
    players never share a Base); Multiple Bases (Rulebook "Több Bázis használata"): a
    second round while teams last."""
    free_teams = list(data.TEAMS)
    free_sides = list(state["open_sides"])
    picks = 2 if state["config"]["variant"] == "multibase" else 1
    drafted: dict[str, list[tuple[str, int]]] = {s: [] for s in state["order"]}
    for _i in range(picks):
        for seat in state["order"]:
            if not free_teams or not free_sides:
                break  # 3-4 players: second teams while teams last, in choice order
            team_ln = _first(lines.get(seat, ()), Team)
            side_ln = _first(lines.get(seat, ()), BaseChoice)
            team_prefs = team_ln.order.prefs if team_ln else ()
            side_prefs = side_ln.order.prefs if side_ln else ()
            team = next((t for t in team_prefs if t in free_teams), free_teams[0])
            side = next((s for s in side_prefs if s in free_sides), free_sides[0])
            free_teams.remove(team)
            free_sides.remove(side)
            drafted[seat].append((team, side))
    return drafted


def _draft_outcomes(ctx: Context, seat: str, lines: Sequence[OrderLine],
                    got: list[tuple[str, int]]) -> None:
    """Each draft line's outcome: the first line of each kind counts."""
    seen: dict[type, int] = {}
    for ln in lines:
        kind = type(ln.order)
        if kind in seen:
            ctx.log.refused(seat, ln, _("only the first {verbs} line counts (line {kind})",
                                        verbs=ln.order.verbs[0], kind=seen[kind]))
            continue
        seen[kind] = ln.lineno
        o = ln.order
        if isinstance(o, Team):
            teams = [t for t, _sd in got]
            names = both([team_label(t) for t in teams])
            if teams == list(o.prefs)[:len(teams)]:
                ctx.log.done(seat, ln, _("you drafted {names}", names=names))
            else:
                ctx.log.changed(seat, ln, _("your first choices were taken before your turn to "
                                            "choose: you drafted {names}",
                                            names=names))
        elif isinstance(o, BaseChoice):
            sides = [sd for _t, sd in got]
            where = both([_("side {side}", side=sd) for sd in sides])
            if sides == list(o.prefs)[:len(sides)]:
                ctx.log.done(seat, ln, _("your Base is on {where}", where=where))
            else:
                ctx.log.changed(seat, ln, _("your first choices were taken before your turn to "
                                            "choose: your Base is on {where}",
                                            where=where))
        else:
            ctx.log.done(seat, ln)


def apply_draft(ctx: Context, lines: Mapping[str, Sequence[OrderLine]]) -> None:
    """Draft teams and Bases; record line-ups and decks (spec §3.1)."""
    state: State = ctx.state
    drafted = _draft_picks(state, lines)
    for seat in state["order"]:
        seat_lines = lines.get(seat, ())
        lineup_ln = _first(seat_lines, Lineup)
        deck_ln = _first(seat_lines, Deck)
        lineup = lineup_ln.order.kind if lineup_ln else "standard"
        deck_o = deck_ln.order if deck_ln else Deck()
        team, _sd = drafted[seat][0]
        deck = dict(deck_o.cards) if deck_o.cards else data.default_deck(team)
        pl = state["players"][seat]
        pl["team"] = team
        pl["bases"] = [sd for _t, sd in drafted[seat]]
        pl["own_sides"] = [sd for _t, sd in drafted[seat]]
        pl["lineup"] = "advanced" if lineup == "advanced" else "standard"
        pl["deck"] = sorted(c for c, k in deck.items() for _i in range(k))
        pl["deck_size"] = len(pl["deck"])
        for tm, sd in drafted[seat]:
            make_team(state, seat, tm, lineup, sd)
            ctx.log.public("draft", _("{seat} takes {team} ({lineup}) and the Base on side {side}",
                                      seat=seat, team=team_label(tm),
                                      lineup=Msg(lineup), side=sd), seat=seat, team=tm, side=sd)
        ctx.log.public("deck", _("{seat} registers a deck of {n} cards",
                                 seat=seat, n=len(pl["deck"])), seat=seat)
        _draft_outcomes(ctx, seat, seat_lines, drafted[seat])
    state["phase"] = "place"
    state["placing"] = 0


def make_team(state: State, seat: str, team: str, lineup: str, side: int) -> None:
    adv = data.teams()["advanced"]
    for pid, t in data.piece_templates().items():
        if t["team"] != team:
            continue
        bonus = adv["demigod" if t["kind"] == "demigod" else "creature"] \
            if lineup == "advanced" else {"tk": 0, "vsz": 0, "ep": 0}
        ep = t["ep"] + bonus["ep"]
        state["pieces"][pid] = {
            "id": pid, "name": t["name_en"], "owner": seat, "origin": seat, "teams": [team],
            "kind": t["kind"], "summoned": False, "card": None, "loc": f"base:{side}",
            "ep": ep, "max_ep": ep, "tk": t["tk"] + bonus["tk"],
            "vsz": t["vsz"] + bonus["vsz"], "fe": t["fe"], "reach": t["reach"],
            "transport": t["transport"], "kk": t["kk"], "flags": list(t.get("flags", [])),
            "own_me": "", "status": {}, "attached": [], "hidden": None, "captive": None,
            "home_turn": -1,
        }


def placement_problem(state: State, seat: str, order: Order, placed: list[str]) -> str | None:
    """Why an initial placement is illegal, or None. Rulebook "Mozgások a játéktéren": the
    first 5 characters go "tetszőleges helyre" (anywhere), so also onto a field where
    another player's piece or resource stands (the spec's §3.1 [A] ban is not the
    rulebook's); the starting resource goes on any field without a resource."""
    if isinstance(order, Place):
        p = state["pieces"].get(order.piece)
        if p is None or p["owner"] != seat:
            return _("{piece} is not one of your pieces", piece=order.piece)
        if order.piece in placed:
            return _("{piece} is already placed", piece=order.piece)
        if len(placed) >= PLACED_PIECES * len(state["players"][seat]["own_sides"]):
            return _("only 5 pieces may be placed at the start (Rulebook); the rest start in your "
                     "Base")
        if order.field not in board(state).fields:
            return _("{field} is not a field", field=order.field)
        return None
    if isinstance(order, StartResource):
        if any(r["field"] == order.field for r in state["resources"].values()):
            return _("{field} already holds a resource", field=order.field)
    return None


def place_piece(ctx: Context, seat: str, o: Place) -> None:
    state: State = ctx.state
    state["pieces"][o.piece]["loc"] = o.field
    ctx.log.public("place", _("{seat} places {name} ({piece}) on {field}",
                              seat=seat, name=piece_name(state["pieces"][o.piece]["name"]), piece=o.piece,
                              field=o.field), seat=seat, piece=o.piece, field=o.field)


def start_resource(ctx: Context, seat: str, field: str) -> None:
    state: State = ctx.state
    rid = new_id(state, "N")
    state["resources"][rid] = {"id": rid, "owner": seat, "field": field, "size": "large",
                               "ep": RESOURCE_TABLE["large"]["ep"], "active": True}
    ctx.log.public("resource", _("{seat}'s starting large resource {resource} stands on {field}",
                                 seat=seat, resource=rid, field=field),
                   seat=seat, field=field)


def opening_hand(ctx: Context, seat: str) -> None:
    """Shuffle and draw 10 (Rulebook "Példa a kezdésre")."""
    pl = ctx.state["players"][seat]
    for i in range(10):
        pl["hand"].append(ctx.dice.draw(pl["deck"], _("opening hand, {seat}, card {i}",
                                                      seat=seat, i=i + 1),
                                        visible_to=[seat]))
    pl["hand"].sort()
    pl["placed"] = True
    ctx.log.private([seat], "hand", _("You draw your opening hand: {hand}",
                                      hand=", ".join(pl["hand"])),
                    cards=list(pl["hand"]))
    ctx.log.public("hand_count", _("{seat} draws 10 cards", seat=seat))


def default_resource_field(state: State, seat: str) -> str:
    b = board(state)
    side = state["players"][seat]["bases"][0]
    border = b.border[side]
    anchor = border[len(border) // 2]
    for f in sorted(b.fields, key=lambda f: (b.distance(anchor, f), b.index[f])):
        if any(q["owner"] != seat for q in pieces_at(state, f)):
            continue
        if any(r["field"] == f for r in state["resources"].values()):
            continue
        return f
    raise AssertionError("no free field for a resource")
