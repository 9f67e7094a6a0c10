"""Rule unit tests for the tricky parts: payments with the 2-for-1 substitution and
either/or costs, placement and enclosure, Phase 2 hiring, final-scoring pieces."""

from __future__ import annotations

from collections import Counter

import pytest

from pbem.rulesets.helios import board
from pbem.rulesets.helios.orders import (
    Activate,
    Bonus,
    Build,
    Decline,
    Hire,
    Place,
    Sun,
    Take,
    Temple,
    Token,
)
from pbem.rulesets.helios.rules import actions, characters, economy, scoring, sun, supply, turns
from pbem.rulesets.helios.rules.script import Alternative, BonusLine

from .helpers import ctx, new_game, numbered, set_board


def bonus(*actions):
    """BONUS lines 1, 2, ... of a file."""
    return [BonusLine(a, ln) for a, ln in zip(actions, numbered(*map(Bonus, actions)),
                                                strict=True)]


@pytest.mark.parametrize("reqs,paid,have,ok", [
    (["green", "any", "grey"], "green green grey", "green green grey", True),
    (["green", "any", "grey"], "green green green green", "green green green green", True),
    (["green", "any", "grey"], "green green blue blue", "green green blue blue grey", False),
    (["green", "any", "grey"], "green green grey grey", "green green grey grey", False),  # overpay
    (["black|blue"], "blue", "blue", True),
    (["black|blue"], "black", "black blue", True),
    (["black|blue"], "green grey", "green grey", True),       # owns neither: 2 any
    (["black|blue"], "green grey", "green grey blue", False),  # owns blue: no substitution
    (["any", "any", "any"], "brown brown black", "brown brown black", True),
    (["any", "any"], "brown", "brown", False),
    (["black", "blue"], "green green green green", "green green green green", True),
    (["black", "blue"], "green green black", "green green black", True),  # blue: 2 any
    (["black", "blue"], "green green black", "green green black blue", False),
])
def test_covers(reqs, paid, have, ok):
    assert economy.covers(reqs, Counter(paid.split()), Counter(have.split())) is ok


def test_auto_payment_prefers_the_temple_tile(game2):
    p = set_board(game2, "north", {(0, 0): ("granite", ["grey", "grey"]),
                                   (1, 0): ("bamboo", ["green", "blue"])}, temples=1)
    located, problem = economy.payment(p, ["any", "any"], None, "temple", (1, 0))
    assert problem is None and sorted(c for _, c in located) == [(1, 0), (1, 0)]


def test_explicit_cube_must_be_on_that_tile(game2):
    set_board(game2, "north", {(0, 0): ("granite", ["grey"]), (1, 0): ("bamboo", ["green"])})
    assert "no green resource left on 0,0" in actions.check(
        game2, "north", Temple((1, 0), (Token("green", (0, 0)),)))
    assert "no tile on 5,5" in actions.check(game2, "north", Temple((1, 0), (Token("green", (5, 5)),)))


def test_temple_needs_enough_resources(game2):
    set_board(game2, "north", {(0, 0): ("granite", ["grey"]), (1, 0): "bamboo"}, temples=2)
    assert "cannot pay" in actions.check(game2, "north", Temple((1, 0)))
    game2["players"]["north"]["buildings"].append("citadel")
    assert actions.check(game2, "north", Temple((1, 0))) is None


def test_building_only_once(game2):
    set_board(game2, "north", {(0, 0): ("granite", ["grey", "grey"])}, buildings=["sun_hut"])
    assert "already built" in actions.check(game2, "north", Build("sun_hut"))


def test_power_plant_makes_the_sun_unlimited(game2):
    s = game2
    p = set_board(s, "north", {(0, 0): ("spring", ["blue"]), (1, 0): "granite", (0, 1): "granite"},
                  sun=(1, -1))
    actions.perform(ctx(s), "north", Build("power_plant"), [])
    assert p["sun_infinite"] and p["mana"] == 2
    reach = board.reachable(sun.walk_of(p), sun.max_steps(p))
    w = sun.walk_of(p)
    assert set(reach) == {c for c in w.cells if c != (1, -1)}


def test_placement_next_to_tiles_only_and_never_on_dark(game2):
    tiles = frozenset({(0, 0), (1, 0), (2, 0), (3, 0)})
    assert board.placement_problem((4, 0), tiles, (1, -1)).startswith("4,0 is a dark")
    assert board.placement_problem((9, 9), tiles, (1, -1)) == "9,9 is not on the board"
    assert board.placement_problem((2, 0), tiles, (1, -1)) == "2,0 already holds a tile"


def test_sun_on_the_dark_ring_can_never_be_enclosed():
    tiles = frozenset({(0, 0), (1, -1), (2, -2), (3, -3)})
    for c in board.legal_placements(tiles, (4, -4)):
        assert board.reaches_ring((4, -4), tiles | {c})


def test_hire_needs_mana_and_a_free_character(game2):
    s = game2
    s["players"]["north"]["mana"] = 3
    c = ctx(s)
    north = numbered(Hire(("treasurer",)), Hire(("treasurer", "princess")))
    assert not characters.hire(c, "north", north[0])  # costs 4
    assert characters.hire(c, "north", north[1])
    assert s["characters"]["princess"]["owner"] == "north" and s["players"]["north"]["mana"] == 0
    s["players"]["east"]["mana"] = 9
    assert not characters.hire(c, "east", numbered(Hire(("princess",)))[0])
    assert [e.text for e in c.log.events if e.kind == "outcome"] == [
        "line 1: HIRE treasurer -> refused: the treasurer costs 4 mana, you have 3",
        "line 2: HIRE treasurer OR princess -> carried out: hired the princess for 3 mana",
        "line 1: HIRE princess -> refused: the princess is taken by north"]


def test_activation_rules(game2):
    s = game2
    set_board(s, "north", {(0, 0): ("granite", ["blue", "brown"]), (1, 0): ("granite", ["grey"])})
    assert "do not own" in characters.activation_problem(s, "north", Activate("princess"))
    s["characters"]["princess"]["owner"] = "north"
    assert characters.activation_problem(s, "north", Activate("princess")) is None
    characters.activate(ctx(s), "north", Activate("princess"))
    assert "already active" in characters.activation_problem(s, "north", Activate("princess"))


def test_cartographer_counts_land_types_only(game2):
    s = game2
    set_board(s, "north", {(0, 0): "granite", (1, 0): "granite", (0, 1): "spring",
                           (-1, 1): "temples", (1, -1): "obsidian"})
    assert scoring.character_vp(s, "north", "cartographer") == 9
    assert scoring.character_vp(s, "north", "fortune_teller") == 10
    s["players"]["north"]["temples"] = 2
    s["players"]["north"]["buildings"] = ["citadel"]
    assert scoring.character_vp(s, "north", "architect") == 9


def test_treasurer_scores_mana_and_resources(game2):
    s = game2
    set_board(s, "north", {(0, 0): ("granite", ["grey", "blue"])}, mana=3, vp=0)
    s["characters"]["treasurer"] = {"owner": "north", "active": True}
    f = scoring.final_scores(s, "north")
    assert f["mana"] == 9 and f["resources"] == 4
    # leftover resources are shown for the tie-break (rulebook p. 14) but are not VP
    assert f["resources_left"] == 2 and f["total"] == f["bag"] + 9 + 4 + f["characters"]


def test_catchup_resource_is_lost_without_a_tile(game2):
    s = game2
    set_board(s, "north", {(0, 0): ("granite", [], True), (1, 0): ("granite", ["grey", "grey"])})
    c = ctx(s)
    economy.place_cube(c, "north", "blue", (0, 0), "catch-up resource")
    assert c.log.events[0].kind == "cube_lost"
    set_board(s, "north", {(0, 0): ("granite", [], True), (1, 0): ("granite", ["grey"])})
    economy.place_cube(ctx(s), "north", "blue", (0, 0), "catch-up resource")
    assert s["players"]["north"]["tiles"]["1,0"]["cubes"] == ["grey", "blue"]


def test_palace_and_fourth_tile_bonus_in_one_turn(game2):
    """Spec A28: the Palace bonus resolves inside the build, the 4th-tile bonus after it;
    BONUS lines are used in that order."""
    s = game2
    p = set_board(s, "north", {(0, 0): ("bamboo", ["green", "green"]), (1, 0): ("granite", ["grey"])},
                  sun=(1, -1), sun_value=2)
    p["under"]["blue"] = [["land", "blue"]] * 3
    s["columns"]["build"][-1] = "blue"
    c = ctx(s)
    turns.play_alternative(c, "north", Alternative(Take("build"), Build("palace"), bonus(
        Sun(((2, -1),)), Place("temples", (0, 1)))))
    kinds = [e.kind for e in c.log.events]
    assert kinds.index("building") < kinds.index("sun") < kinds.index("place")
    assert p["sun"] == [2, -1] and "0,1" in p["tiles"] and p["under"]["blue"] == []


def test_illegal_bonus_line_is_skipped_and_next_used(game2):
    s = game2
    p = set_board(s, "north", {(0, 0): ("granite", ["grey"])}, sun=(1, -1))
    c = ctx(s)
    turns.bonus_action(c, "north", bonus(Sun(((3, 3),)), Place("temples", (0, 1))))
    assert "0,1" in p["tiles"]
    assert [e.text for e in c.log.events if e.kind == "outcome"] == [
        "line 1: BONUS SUN TO 3,3 -> refused: your Sun cannot reach 3,3; it can reach 1,0, 0,1",
        "line 2: BONUS PLACE temples AT 0,1 -> carried out: your bonus action"]
    c = ctx(s)
    turns.bonus_action(c, "north", [])
    assert c.log.events[-1].kind == "bonus_lost"


def test_grey_tile_default_area(game2):
    s = game2
    p = s["players"]["north"]
    p["under"] = {"red": [["sun", "red"]], "yellow": [["sun", "yellow"]] * 2, "blue": []}
    s["columns"]["sun"][-1] = "grey"
    turns.play_alternative(ctx(s), "north", Alternative(Take("sun"), Decline()))
    assert len(p["under"]["yellow"]) == 3 and p["under"]["yellow"][-1] == ["sun", "grey"]


def test_circuit_scores_while_leaving_a_dead_end(game2):
    """TC-16 continued: the way out of a pocket may cross the yellow line and score."""
    s = game2
    tiles = {c: "granite" for c in [(0, 0), (-1, 1), (-2, 1), (-2, 0), (-1, -1)]}
    p = set_board(s, "north", tiles, sun=(-1, 0), sun_value=2, vp=0)
    assert (-1, 0) in board.dead_ends(board.tileset(p)) and p["sun_angle"] == 300_000_000
    assert set(board.reachable(sun.walk_of(p), 2)) == {(0, -1), (1, -1)}
    actions.perform(ctx(s), "north", Sun(((0, -1),)), [])
    assert p["laps"] == 1 and p["vp"] == 5


def test_component_limits_option():
    """Spec §2.9 option: 14 cubes per colour, 30 mana, 35 houses; shortfalls are lost."""
    s = new_game(2, start="north", options={"enforce_component_limits": "yes"})
    assert supply.limited(s)
    # 14 black cubes in play already: sunlight on an empty obsidian yields nothing
    set_board(s, "east", {(0, 0): ("obsidian", ["black", "black"])} | {
        (q, 1): ("obsidian", ["black", "black"]) for q in range(-3, 3)})
    p = set_board(s, "north", {(0, 0): ("granite", ["grey"]), (1, 0): ("obsidian", [])}, sun=(1, -1))
    assert supply.cubes_in_play(s, "black") == 14 + (1 if s["display"]["obsidian"] else 0) + (
        1 if s["display"]["extra"] == "obsidian" else 0)
    c = ctx(s)
    actions.perform(c, "north", Sun(((2, -1),)), [])
    assert p["tiles"]["1,0"]["cubes"] == [] and any(e.kind == "supply" for e in c.log.events)
    # mana: the supply holds 30
    s["players"]["east"]["mana"] = 29
    p["mana"] = 0
    supply.gain_mana(ctx(s), "north", 3, "test")
    assert p["mana"] == 1
    # houses: 35 in all
    s["players"]["east"]["temples"] = 35
    set_board(s, "north", {(0, 0): ("granite", ["grey", "grey"])})
    assert actions.check(s, "north", Temple((0, 0))) == "no house is left in the supply"
    assert actions.check(s, "north", Build("sun_hut")) == "no house is left in the supply"
    s2 = new_game(2, start="north")
    assert not supply.limited(s2) and supply.houses_left(s2) > 1000


def test_action_must_match_the_tile_symbol(game2):
    """Rulebook p. 4: the tile's symbol decides the action; a mismatched line is skipped."""
    s = game2
    p = set_board(s, "north", {(0, 0): ("granite", ["grey"])}, sun=(1, -1))
    c = ctx(s)
    turns.play_alternative(c, "north", Alternative(Take("land"), Sun(((1, 0),))))
    assert p["sun"] == [1, -1] and any("a land tile grants PLACE" in e.text for e in c.log.events)
    assert turns.problem_of(s, "north", Alternative(Take("land"), Sun(((1, 0),))))


def test_auto_payment_handles_either_or_with_a_single_colour(game2):
    p = set_board(game2, "north", {(0, 0): ("granite", ["blue", "black"])})
    tokens = economy.auto_tokens(p, ["black|blue", "blue"])
    assert tokens is not None and sorted(t.colour for t in tokens) == ["black", "blue"]


def test_phase2_activation_mana_pays_a_hire_in_the_same_turn(game2):
    # Rulebook p. 11: "A játékos eldöntheti a fenti akciók végrehajtási sorrendjét": a turn's
    # hire and activations come in the order the player wants. Activating the Priestess
    # (+2 mana) first lets a seat with 2 mana hire the Treasurer (4 mana) on the same turn.
    s = game2
    set_board(s, "north", {(0, 0): ("granite", ["grey", "green"]),
                           (1, 0): ("granite", ["brown"])}, mana=2)
    s["characters"]["priestess"]["owner"] = "north"
    q = numbered(Hire(("treasurer",)), Activate("priestess"))
    assert characters.phase2_turn(ctx(s), "north", q)
    assert s["characters"]["priestess"]["active"]
    assert s["characters"]["treasurer"]["owner"] == "north"
    assert s["players"]["north"]["mana"] == 0 and q == []


def test_phase2_hire_then_activate_the_same_character(game2):
    # Rulebook p. 11: a character may be hired and activated on the same turn.
    s = game2
    set_board(s, "north", {(0, 0): ("granite", ["blue", "brown"]), (1, 0): ("granite", ["grey"])},
              mana=3)
    assert characters.phase2_turn(ctx(s), "north", numbered(Hire(("princess",)), Activate("princess")))
    assert s["characters"]["princess"] == {"owner": "north", "active": True}
    assert s["players"]["north"]["mana"] == 0 and s["players"]["north"]["sun_value"] == 3


def test_phase2_one_hire_per_turn_even_after_activation_mana(game2):
    s = game2
    set_board(s, "north", {(0, 0): ("granite", ["grey", "green"]), (1, 0): ("granite", ["brown"])},
              mana=2)
    s["characters"]["priestess"]["owner"] = "north"
    q = numbered(Hire(("inventor",)), Hire(("architect",)), Activate("priestess"))
    assert characters.phase2_turn(ctx(s), "north", q)
    assert s["characters"]["inventor"]["owner"] == "north"
    assert s["characters"]["architect"]["owner"] is None
    assert [ln.order for ln in q] == [Hire(("architect",))]  # kept for a later turn


def test_phase2_preferred_hire_uses_the_activation_mana(game2):
    # HIRE treasurer OR inventor with 2 mana and an owned Priestess: activating her first
    # (+2 mana) makes the preferred Treasurer affordable (rulebook p. 11: any order).
    s = game2
    set_board(s, "north", {(0, 0): ("granite", ["grey", "green"]), (1, 0): ("granite", ["brown"])},
              mana=2)
    s["characters"]["priestess"]["owner"] = "north"
    assert characters.phase2_turn(ctx(s), "north",
                                    numbered(Hire(("treasurer", "inventor")), Activate("priestess")))
    assert s["characters"]["treasurer"]["owner"] == "north"
    assert s["characters"]["inventor"]["owner"] is None
