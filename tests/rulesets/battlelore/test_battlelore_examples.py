"""The rulebook's worked examples (spec §9, TC numbers), medieval rules.

Positions marked (R) in the spec are reconstructions; dice are scripted faces
(G B R BS F L)."""

from __future__ import annotations

import pytest
from battlelore_helpers import blank, ctx, put

from pbem.core.orders import Parsed
from pbem.rulesets.battlelore import RULESET
from pbem.rulesets.battlelore.cards import can_order, card
from pbem.rulesets.battlelore.combat import attack, battle, dice_count, targets
from pbem.rulesets.battlelore.ctx import GameOver
from pbem.rulesets.battlelore.movement import reachable
from pbem.rulesets.battlelore.turn import candidate_units, run_turn


def run(s, seat, text, *faces, ask=False):
    c = ctx(s, *faces, ask=ask)
    orders = RULESET.parse(s, seat, text)
    assert orders.ok, orders.echo()
    run_turn(c, orders.orders)
    return c


# --- command and order ----------------------------------------------------------------

def test_tc01_advance_orders_up_to_command() -> None:
    s = blank()
    for i, h in enumerate([(19, 9), (21, 9), (23, 9), (25, 9), (20, 8), (22, 8), (24, 8)]):
        put(s, f"N{i + 1}", "north", "regular_infantry", h)
    assert len(candidate_units(s, "north", card("advance_left"), 6)) == 6
    for uid in ("N5", "N6", "N7"):
        del s["units"][uid]
    assert len(candidate_units(s, "north", card("advance_left"), 6)) == 4


def test_tc02_scout_and_dashed_hex() -> None:
    s = blank()
    put(s, "S1", "south", "regular_infantry", (8, 4))
    assert can_order(s, "south", card("scout_left"), 4, [], "S1", []) is None
    assert can_order(s, "south", card("scout_centre"), 4, [], "S1", []) is None
    assert can_order(s, "south", card("scout_right"), 4, [], "S1", []) is not None


def test_tc03_darken_the_sky_orders_archers_not_adjacent() -> None:
    s = blank()
    for uid, h in (("N1", (6, 8)), ("N2", (8, 8)), ("N3", (18, 8))):
        put(s, uid, "north", "archers", h)
    put(s, "S1", "south", "regular_infantry", (5, 7))
    assert candidate_units(s, "north", card("darken_the_sky"), 6) == ["N2", "N3"]


def test_tc04_blue_banners() -> None:
    s = blank()
    put(s, "S1", "south", "regular_infantry", (5, 3))
    put(s, "S2", "south", "regular_infantry", (15, 3))
    put(s, "S3", "south", "heavy_cavalry", (9, 1))
    put(s, "S4", "south", "heavy_cavalry", (21, 1))
    assert candidate_units(s, "south", card("blue_banners"), 4) == ["S1", "S2"]


def test_tc05_no_playable_order_just_draws() -> None:
    s = blank()
    s["active"] = "south"
    put(s, "S1", "south", "regular_infantry", (21, 3))
    put(s, "N1", "north", "regular_infantry", (21, 9))
    s["hands"]["south"] = ["order_two_centre", "scout_left", "scout_right", "red_banners"]
    deck_before = len(s["deck"])
    c = run(s, "south", "PLAY scout_left\nMOVE S1 21-5\n", 0)
    assert s["units"]["S1"]["hex"] == [21, 3]
    assert len(s["deck"]) == deck_before - 1 and len(s["hands"]["south"]) == 4
    assert any("orders no unit" in e.text for e in c.events)


# --- movement -------------------------------------------------------------------------

def test_tc06_move_order_matters() -> None:
    s = blank()
    s["active"] = "south"
    s["hands"]["south"] = ["order_two_centre", "scout_left", "scout_right", "red_banners"]
    put(s, "S1", "south", "regular_infantry", (11, 3))
    put(s, "S2", "south", "archers", (13, 3))
    run(s, "south", "PLAY order_two_centre\nMOVE S1 13-3\nMOVE S2 15-3\n", 0)
    assert s["units"]["S1"]["hex"] == [11, 3]  # blocked when it was its turn
    s2 = blank()
    s2["active"] = "south"
    s2["hands"]["south"] = ["order_two_centre", "scout_left", "scout_right", "red_banners"]
    put(s2, "S1", "south", "regular_infantry", (11, 3))
    put(s2, "S2", "south", "archers", (13, 3))
    run(s2, "south", "PLAY order_two_centre\nMOVE S2 15-3\nMOVE S1 13-3\n", 0)
    assert s2["units"]["S1"]["hex"] == [13, 3] and s2["units"]["S2"]["hex"] == [15, 3]


def test_tc07_no_moving_through_units() -> None:
    s = blank()
    u = put(s, "S1", "south", "regular_cavalry", (9, 3))
    put(s, "S2", "south", "archers", (11, 3))
    r = reachable(s, u, 3)
    assert r[(13, 3)]["d"] == 3 and (11, 3) not in r[(13, 3)]["path"]
    assert reachable(s, u, 2).get((13, 3)) is None


def test_tc08_units_never_merge() -> None:
    s = blank()
    s["active"] = "south"
    s["hands"]["south"] = ["order_two_centre", "scout_left", "scout_right", "red_banners"]
    put(s, "S1", "south", "regular_infantry", (11, 3), fig=2)
    put(s, "S2", "south", "regular_infantry", (13, 3), fig=2)
    run(s, "south", "PLAY order_two_centre\nMOVE S1 13-3\n", 0)
    assert s["units"]["S1"]["fig"] == 2 and s["units"]["S1"]["hex"] == [11, 3]


def test_tc09_blue_foot_two_hexes_no_battle() -> None:
    s = blank()
    s["active"] = "south"
    s["hands"]["south"] = ["order_two_centre", "scout_left", "scout_right", "red_banners"]
    put(s, "S1", "south", "regular_infantry", (13, 3))
    put(s, "N1", "north", "regular_infantry", (15, 7))
    s["hands"]["south"] = ["scout_centre", "scout_left", "scout_right", "red_banners"]
    c = run(s, "south", "PLAY scout_centre\nMOVE S1 15-5\nBATTLE S1 N1\n", 0)
    assert s["units"]["S1"]["hex"] == [15, 5]
    assert s["units"]["N1"]["fig"] == 4
    assert any("may not battle after its move" in e.text for e in c.events)


def test_tc09_blue_foot_one_hex_may_battle() -> None:
    s = blank()
    s["active"] = "south"
    s["hands"]["south"] = ["scout_centre", "scout_left", "scout_right", "red_banners"]
    put(s, "S1", "south", "regular_infantry", (13, 3))
    put(s, "N1", "north", "regular_infantry", (13, 5))
    run(s, "south", "PLAY scout_centre\nMOVE S1 14-4\nBATTLE S1 N1\n", "B", "B", "G", 0)
    assert s["units"]["N1"]["fig"] == 2


# --- range, line of sight, dice --------------------------------------------------------

def test_tc11_mandatory_melee() -> None:
    s = blank()
    a = put(s, "N1", "north", "archers", (13, 7))
    put(s, "S1", "south", "regular_infantry", (13, 5), fig=1)
    put(s, "S2", "south", "regular_infantry", (12, 6))
    assert [t["id"] for t in targets(s, a)] == ["S2"]
    c = ctx(s, "B", "BS")
    battle(c, a, s["units"]["S2"], {})
    assert s["units"]["S2"]["fig"] == 3  # longbow: bonus strike misses; 2 dice


def test_tc12_range() -> None:
    s = blank()
    a = put(s, "N1", "north", "archers", (13, 9))
    put(s, "S1", "south", "regular_infantry", (13, 5))
    assert [t["id"] for t in targets(s, a)] == ["S1"]
    s["units"]["S1"]["hex"] = [13, 3]
    assert targets(s, a) == []
    s["units"]["S1"]["hex"] = [13, 5]
    d = put(s, "N2", "north", "dwarf_crossbows", (17, 9))
    del s["units"]["N1"]
    assert targets(s, d) == []  # distance 4 > crossbow 3


def test_tc16_longbow_minus_one_after_moving() -> None:
    s = blank()
    a = put(s, "N1", "north", "archers", (13, 9))
    t = put(s, "S1", "south", "regular_infantry", (13, 5))
    assert dice_count(s, a, t, False) == 2
    s["tf"]["moved"]["N1"] = 1
    assert dice_count(s, a, t, False) == 1
    h = put(s, "N2", "north", "hobgoblin_archers", (15, 9))
    s["tf"]["moved"]["N2"] = 2
    assert dice_count(s, h, t, False) == 1


def test_tc17_crossbow() -> None:
    s = blank()
    a = put(s, "N1", "north", "dwarf_crossbows", (13, 9))
    put(s, "S1", "south", "regular_cavalry", (14, 6))
    attack(ctx(s, "BS", "BS"), a, s["units"]["S1"], melee=False)
    assert s["units"]["S1"]["fig"] == 1
    s2 = blank()
    a2 = put(s2, "N1", "north", "dwarf_crossbows", (13, 7))
    put(s2, "S1", "south", "regular_cavalry", (12, 6))
    s2["tf"]["moved"]["N1"] = 1
    assert dice_count(s2, a2, s2["units"]["S1"], True) == 1
    attack(ctx(s2, "BS"), a2, s2["units"]["S1"], melee=True)
    assert s2["units"]["S1"]["fig"] == 3


def test_tc18_lore_face_is_a_miss_in_medieval() -> None:
    s = blank()
    a = put(s, "N1", "north", "regular_infantry", (13, 7))
    t = put(s, "S1", "south", "archers", (12, 6))
    attack(ctx(s, "G", "F", "L"), a, t, melee=True)
    assert t["fig"] == 3 and t["hex"] in ([11, 5], [13, 5])


# --- retreat and morale ------------------------------------------------------------------

def test_tc19_retreat_options_and_blocked() -> None:
    s = blank()
    a = put(s, "N1", "north", "regular_infantry", (13, 7))
    t = put(s, "S1", "south", "regular_infantry", (12, 6))
    put(s, "S2", "south", "regular_infantry", (11, 5))
    attack(ctx(s, "F", "L", "L"), a, t, melee=True)
    assert t["hex"] == [13, 5]
    s2 = blank()
    a = put(s2, "N1", "north", "regular_infantry", (13, 7))
    t = put(s2, "S1", "south", "regular_infantry", (13, 5))
    put(s2, "S2", "south", "regular_infantry", (12, 4))
    s2["terrain"]["14-4"] = "river"
    a["hex"] = [14, 6]
    attack(ctx(s2, "F", "L", "L"), a, t, melee=True)
    assert t["hex"] == [13, 5] and t["fig"] == 3


def test_tc21_bold_on_rampart() -> None:
    s = blank()
    s["landmarks"]["12-6"] = {"kind": "rampart", "owner": None}
    a = put(s, "N1", "north", "regular_infantry", (13, 7))
    t = put(s, "S1", "south", "regular_infantry", (12, 6))
    attack(ctx(s, "F", "F"), a, t, melee=True)
    assert t["hex"][1] == 5  # ignored one, retreated one
    s2 = blank()
    s2["landmarks"]["12-6"] = {"kind": "rampart", "owner": None}
    s2["standing"]["south"] = {"ignore": "none"}
    a = put(s2, "N1", "north", "regular_infantry", (13, 7))
    t = put(s2, "S1", "south", "regular_infantry", (12, 6))
    attack(ctx(s2, "F", "F"), a, t, melee=True)
    assert t["hex"][1] == 4


def test_tc22_frightened_goblins_panic() -> None:
    s = blank()
    a = put(s, "N1", "north", "regular_infantry", (13, 9))
    t = put(s, "S1", "south", "goblin_infantry", (12, 8))
    c = ctx(s, "F", "F", "L", "B", "G", "B", "L")
    attack(c, a, t, melee=True)
    assert t["hex"][1] == 4 and t["fig"] == 2
    assert any("Panic roll" in e.text for e in c.events)


def test_tc23_supported_goblins_ignore_one_then_double() -> None:
    s = blank()
    a = put(s, "N1", "north", "regular_infantry", (13, 9))
    t = put(s, "S1", "south", "goblin_infantry", (12, 8))
    put(s, "S2", "south", "goblin_infantry", (10, 8))
    put(s, "S3", "south", "goblin_infantry", (14, 8))
    attack(ctx(s, "F", "F", "F", "R", "R", "R", "R"), a, t, melee=True)
    assert t["hex"][1] == 4 and t["fig"] == 4


# --- follow-on actions -------------------------------------------------------------------

def test_tc24_gain_ground_melee_not_ranged() -> None:
    s = blank()
    a = put(s, "N1", "north", "regular_infantry", (13, 7))
    put(s, "S1", "south", "regular_infantry", (12, 6))
    battle(ctx(s, "F", "L", "L"), a, s["units"]["S1"], {})
    assert a["hex"] == [12, 6]
    s2 = blank()
    a2 = put(s2, "N1", "north", "archers", (13, 9))
    put(s2, "S1", "south", "regular_infantry", (13, 5))
    battle(ctx(s2, "F", "L"), a2, s2["units"]["S1"], {})
    assert a2["hex"] == [13, 9]


def test_tc25_cavalry_vs_archers_on_hill_pursuit_bonus() -> None:
    s = blank()
    s["terrain"]["13-5"] = "hill"
    a = put(s, "S1", "south", "heavy_cavalry", (12, 4))
    t = put(s, "N1", "north", "archers", (13, 5))
    assert dice_count(s, a, t, True) == 2
    c = ctx(s, "F", "F", "G", "G", "L", "L")
    battle(c, a, t, {})
    assert t["hex"][1] == 7
    assert a["hex"][1] == 6            # gained the hill, pursued one hex
    assert t["fig"] == 2               # bonus attack: 3 dice from... see caps
    assert any("bonus attack" in e.text for e in c.events)


def test_tc26_gain_ground_into_forest_counts_as_pursuit() -> None:
    s = blank()
    s["terrain"]["13-7"] = "forest"
    a = put(s, "S1", "south", "regular_cavalry", (13, 5))
    t = put(s, "N1", "north", "regular_infantry", (12, 6))
    s["terrain"]["12-6"] = "forest"
    put(s, "N2", "north", "archers", (11, 7))
    c = ctx(s, "F", "G", "G", "G")
    battle(c, a, t, {"bonus": ["N2"]})
    assert a["hex"] == [12, 6]
    assert s["units"]["N2"]["fig"] == 2  # bonus attack capped at 2 dice from the forest


def test_tc27_bonus_attack_chain_stops() -> None:
    s = blank()
    a = put(s, "S1", "south", "regular_cavalry", (13, 5))
    put(s, "N1", "north", "regular_infantry", (12, 6))
    put(s, "N2", "north", "regular_infantry", (14, 8))
    s["standing"]["north"] = {"retreat": "right"}  # North's right is the west
    c = ctx(s, "F", "L", "L", "F", "L", "L")
    battle(c, a, s["units"]["N1"], {"pursue": [13, 7], "bonus": ["N2"]})
    assert s["units"]["N1"]["hex"] == [11, 7]
    assert a["hex"] == [14, 8]          # gained ground after the bonus attack, then stops
    assert sum("bonus attack" in e.text for e in c.events) == 1


def test_tc33_win_by_battle_back_in_opponents_turn() -> None:
    s = blank()
    s["banners"]["south"] = 3
    a = put(s, "N1", "north", "regular_infantry", (12, 6), fig=1)
    t = put(s, "S1", "south", "dwarf_infantry", (13, 5))
    c = ctx(s, "F", "L", "L", "B", "L", "L")
    with pytest.raises(GameOver):
        battle(c, a, t, {})
    assert s["result"]["winner"] == "south"


def test_tc35_goblin_rush_must_battle_and_is_frightened() -> None:
    s = blank()
    s["active"] = "south"
    s["hands"]["south"] = ["scout_centre", "scout_left", "scout_right", "red_banners"]
    put(s, "S1", "south", "goblin_infantry", (13, 3))
    put(s, "N1", "north", "dwarf_infantry", (12, 6))
    # goblins: 3 dice L L L; dwarves ignore nothing needed; battle back F -> goblins flee 2
    c = run(s, "south", "PLAY scout_centre\nRUSH S1 13-5 AT N1\n",
            "L", "L", "L", "F", "L", "L", "G", "G", 0)
    texts = [e.text for e in c.events]
    assert any("battles back" in x for x in texts)
    assert any("Panic roll by north against S1: G G" in x for x in texts)
    assert s["units"]["S1"]["hex"][1] == 3 and s["units"]["S1"]["fig"] == 4


# --- terrain -----------------------------------------------------------------------------

def test_tc51_forest_cap() -> None:
    s = blank()
    s["terrain"]["13-5"] = "forest"
    a = put(s, "S1", "south", "heavy_cavalry", (13, 5))
    t = put(s, "N1", "north", "regular_infantry", (12, 6))
    assert dice_count(s, a, t, True) == 2


def test_tc52_hills() -> None:
    s = blank()
    s["terrain"]["13-5"] = "hill"
    a = put(s, "S1", "south", "heavy_cavalry", (13, 5))
    t = put(s, "N1", "north", "regular_infantry", (12, 6))
    assert dice_count(s, a, t, True) == 3
    s["terrain"]["12-6"] = "hill"
    assert dice_count(s, a, t, True) == 3
    del s["terrain"]["13-5"]
    assert dice_count(s, a, t, True) == 2


def test_tc54_rampart_cap_from_hill() -> None:
    s = blank()
    s["terrain"]["12-6"] = "hill"
    s["landmarks"]["13-5"] = {"kind": "rampart", "owner": None}
    a = put(s, "N1", "north", "heavy_cavalry", (12, 6))
    t = put(s, "S1", "south", "regular_infantry", (13, 5))
    assert dice_count(s, a, t, True) == 2


def test_tc61_rampart_entry() -> None:
    s = blank()
    s["landmarks"]["13-5"] = {"kind": "rampart", "owner": None}
    s["landmarks"]["15-5"] = {"kind": "rampart", "owner": None}
    u = put(s, "S1", "south", "heavy_infantry", (14, 4))
    r = reachable(s, u, 1)
    assert r[(13, 5)]["no_battle"]
    u["hex"] = [13, 5]
    r = reachable(s, u, 1)
    assert not r[(15, 5)]["no_battle"]


def test_tc67_ford_stops_move_not_pursuit() -> None:
    s = blank()
    s["terrain"]["12-6"] = "ford"
    a = put(s, "S1", "south", "regular_cavalry", (13, 5))
    put(s, "N1", "north", "regular_infantry", (12, 6))
    c = ctx(s, "F", "L", "L")
    battle(c, a, s["units"]["N1"], {"pursue": [11, 7], "nobonus": True})
    assert a["hex"] == [11, 7]
    r = reachable(s, {**a, "hex": [13, 3]}, 3)
    assert r.get((12, 6)) and all(h != (12, 6) for h2 in r.values() for h in h2["path"][:-1])


def test_nmr_default_parses(R) -> None:
    s = blank()
    put(s, "N1", "north", "regular_infantry", (13, 7))
    p = R.default_orders(s, "north")
    assert p.ok and isinstance(p, Parsed) and p.orders
