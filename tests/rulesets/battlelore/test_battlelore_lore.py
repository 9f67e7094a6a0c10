"""Rulebook examples for mercenaries' lore, creatures, Lore cards and the War Council
(spec §9, TC-36 to TC-69). Dice are scripted faces; picks (card draws) are 0."""

from __future__ import annotations

import pytest
from battlelore_helpers import RULESET, blank, ctx, dice, put

from pbem.core.orders import Parsed
from pbem.core.ruleset import GameConfig
from pbem.rulesets.battlelore.combat import attack, battle
from pbem.rulesets.battlelore.council import COMMAND_HAND, level_of
from pbem.rulesets.battlelore.ctx import Ctx, RecDice
from pbem.rulesets.battlelore.landmarks import end_of_turn
from pbem.rulesets.battlelore.lore import end_of_turn_lore
from pbem.rulesets.battlelore.lore_effects import halve, value
from pbem.rulesets.battlelore.orders import parse_text
from pbem.rulesets.battlelore.turn import run_turn


def lore_state(council: dict | None = None, goblets: tuple[int, int] = (0, 0)) -> dict:
    s = blank("spiders_lair")
    s["phase"] = "turn"
    s["lore"]["council"] = {"north": dict(council or {}), "south": dict(council or {})}
    s["lore"]["hands"] = {"north": [], "south": []}
    s["lore"]["offer"] = {"north": [], "south": []}
    s["lore"]["goblet"] = {"north": goblets[0], "south": goblets[1]}
    s["lore"]["pool"] = 36 - sum(goblets)
    s["hands"] = {"north": ["scout_centre"] * 4, "south": ["scout_centre"] * 4}
    s["hand_size"] = {"north": 4, "south": 4}
    return s


def run(s, seat, text, *faces):
    p = parse_text(s, seat, text)
    assert p.ok, p.echo()
    c = Ctx(s, RecDice(dice(*faces), []), ask=False)
    run_turn(c, p.orders)
    return c


def texts(c) -> str:
    return "\n".join(e.text for e in c.events)


# --- creatures ------------------------------------------------------------------------

def test_tc36_creature_out_of_section_costs_3() -> None:
    s = lore_state(goblets=(0, 5))
    s["active"] = "south"
    s["hands"]["south"] = ["order_three_left"] * 4
    put(s, "S1", "south", "goblin_infantry", (5, 3))
    put(s, "S2", "south", "goblin_infantry", (7, 3))
    put(s, "S3", "south", "giant_spider", (13, 5))
    put(s, "N1", "north", "regular_infantry", (13, 9))
    c = run(s, "south", "PLAY order_three_left\nORDER S1 S2 S3\nREPLENISH CARDS\n", 0, 0, 0)
    assert "pays 3 Lore tokens to order S3" in texts(c)
    assert s["lore"]["goblet"]["south"] == 2


def test_tc37_critical_hits() -> None:
    s = lore_state()
    sp = put(s, "S1", "south", "giant_spider", (13, 5))
    a = put(s, "N1", "north", "archers", (12, 6))
    attack(ctx(s, "G", "BS", "B"), a, sp, melee=True)
    assert "S1" in s["units"]
    cav = put(s, "N2", "north", "regular_cavalry", (14, 6))
    attack(ctx(s, "G", "BS", "L", "G", "R"), cav, sp, melee=True)
    assert "S1" not in s["units"] and s["banners"]["north"] == 1
    assert s["lore"]["goblet"]["north"] == 2  # 1 for the unused Lore, 1 for the kill


def test_tc38_creature_flags() -> None:
    s = lore_state()
    sp = put(s, "S1", "south", "giant_spider", (13, 5))
    a = put(s, "N1", "north", "regular_infantry", (12, 6))
    c = ctx(s, "F", "L", "L", "B", "L")
    battle(c, a, sp, {})
    assert sp["hex"] == [13, 5] and a["fig"] == 3  # ignored the flag, battled back with 2 dice
    s2 = lore_state()
    sp = put(s2, "S1", "south", "giant_spider", (13, 5))
    a = put(s2, "N1", "north", "regular_infantry", (12, 6))
    attack(ctx(s2, "F", "F", "L"), a, sp, melee=True)
    assert sp["hex"][1] == 3  # ignored 1, retreated 2 hexes
    s3 = lore_state()
    sp = put(s3, "S1", "south", "giant_spider", (13, 1))
    a = put(s3, "N1", "north", "regular_infantry", (12, 2))
    c = ctx(s3, "F", "F", "L", "G", "B", "F")
    attack(c, a, sp, melee=True)
    assert "S1" in s3["units"] and "no critical hit" in texts(c)


def test_tc39_trample() -> None:
    s = lore_state()
    sp = put(s, "S1", "south", "giant_spider", (13, 5))
    put(s, "S2", "south", "goblin_infantry", (12, 4), fig=2)
    put(s, "S3", "south", "goblin_infantry", (14, 4))
    a = put(s, "N1", "north", "regular_infantry", (12, 6))
    attack(ctx(s, "F", "F", "L", "B", "R"), a, sp, melee=True)
    assert "S2" not in s["units"] and s["banners"]["north"] == 1
    assert s["units"]["S3"]["fig"] == 2
    assert sp["hex"][1] == 3  # went on through the emptied hex


def test_tc40_web() -> None:
    s = lore_state()
    sp = put(s, "S1", "south", "giant_spider", (13, 5))
    t = put(s, "N1", "north", "regular_infantry", (12, 6))
    attack(ctx(s, "F", "L"), sp, t, melee=True)
    assert t["web"] and t["fig"] == 3 and t["hex"] == [12, 6]
    assert s["lore"]["goblet"]["south"] == 0  # the Lore was used
    from pbem.rulesets.battlelore.combat import targets
    assert targets(s, t) == []


def test_tc41_store_and_poison() -> None:
    s = lore_state()
    s["standing"]["south"] = {"creature": "store"}
    sp = put(s, "S1", "south", "giant_spider", (13, 5))
    t = put(s, "N1", "north", "archers", (12, 6))
    attack(ctx(s, "L", "R"), sp, t, melee=True)
    assert sp["stored"] == 1 and s["lore"]["goblet"]["south"] == 0
    s["standing"]["south"] = {"creature": "auto"}
    pool = s["lore"]["pool"]
    attack(ctx(s, "G", "L"), sp, t, melee=True)
    assert t["poison"] and t["fig"] == 3 and sp["stored"] == 0
    assert s["lore"]["pool"] == pool + 1  # the stored token went back
    foot = put(s, "S2", "south", "regular_infantry", (11, 5))
    attack(ctx(s, "G", "G", "L"), foot, t, melee=True)
    assert "N1" not in s["units"] and s["lore"]["goblet"]["south"] == 0


def test_tc42_storage_cap() -> None:
    s = lore_state()
    s["standing"]["south"] = {"creature": "store"}
    sp = put(s, "S1", "south", "giant_spider", (13, 5))
    sp["stored"] = 2
    s["lore"]["pool"] -= 2
    t = put(s, "N1", "north", "regular_infantry", (12, 6))
    attack(ctx(s, "L", "R"), sp, t, melee=True)
    assert sp["stored"] == 2 and s["lore"]["goblet"]["south"] == 1


# --- Lore cards -------------------------------------------------------------------------

def test_tc43_tc60_notation_and_halving() -> None:
    assert [value("2/level+3", lv) for lv in (1, 2, 3)] == [5, 7, 9]
    assert [value("1/level-1", lv) for lv in (1, 2, 3)] == [0, 1, 2]
    assert value("2/level+0", 2) == 4
    assert halve(7) == 4 and halve(6) == 3


def test_tc44_defender_reaction_foiled_and_card_limit() -> None:
    s = lore_state({"rogue": 1, "warrior": 1, "cleric": 1}, goblets=(5, 5))
    s["lore"]["hands"] = {"north": ["bless", "foiled"], "south": ["first_strike"]}
    s["standing"]["south"] = {"react first_strike": "ANY"}
    s["standing"]["north"] = {"react foiled": "ANY"}
    put(s, "N1", "north", "regular_infantry", (13, 7))
    put(s, "S1", "south", "regular_infantry", (12, 6))
    put(s, "S2", "south", "regular_infantry", (14, 6))
    c = run(s, "north", "PLAY scout_centre\nLORE bless ON N1\nBATTLE N1 S1\nBATTLE N1 S2\n"
            "REPLENISH TOKENS\n", "L", "L", "L", "L", "L", "L", "L", 0)
    t = texts(c)
    assert "Bless on N1" in t and "strikes first at N1" in t
    assert "already battled" in t
    # north had played Bless, so Foiled! was not available: the first strike happens
    s2 = lore_state({"rogue": 1, "warrior": 1, "cleric": 1}, goblets=(5, 5))
    s2["lore"]["hands"] = {"north": ["bless", "foiled"], "south": ["first_strike"]}
    s2["standing"]["south"] = {"react first_strike": "ANY"}
    s2["standing"]["north"] = {"react foiled": "ANY"}
    put(s2, "N1", "north", "regular_infantry", (13, 7))
    put(s2, "S1", "south", "regular_infantry", (12, 6))
    c = run(s2, "north", "PLAY scout_centre\nBATTLE N1 S1\nREPLENISH TOKENS\n",
            "L", "L", "L", 0)
    t = texts(c)
    assert "First Strike is cancelled" in t and "strikes first" not in t
    assert "foiled" in s2["lore"]["discard"] and "first_strike" in s2["lore"]["discard"]


def test_tc45_later_card_wins() -> None:
    """p.31: the Wizard's Strength of the Crowd is cancelled by the opponent's Blinding Light."""
    s = lore_state({"wizard": 1, "cleric": 1}, goblets=(5, 5))
    s["lore"]["hands"] = {"north": ["strength_of_the_crowd"], "south": ["blinding_light"]}
    s["standing"]["south"] = {"react blinding_light": "S1"}
    s["hands"]["north"] = ["order_two_centre"] * 4
    put(s, "N1", "north", "regular_infantry", (13, 7))
    put(s, "N2", "north", "regular_infantry", (17, 7))
    put(s, "S1", "south", "regular_infantry", (12, 6))
    put(s, "S2", "south", "regular_infantry", (16, 6))
    c = run(s, "north", "PLAY order_two_centre\nLORE strength_of_the_crowd\nBATTLE N1 S1\n"
            "BATTLE N2 S2\nREPLENISH TOKENS\n", "R", "R", "L", "L", "L", "L", 0)
    rolls = [e for e in c.events if e.kind == "roll"]
    assert len(rolls[0].data["faces"]) == 2   # 3 dice, no Lore bonus, -1 (Blinding Light)
    assert len(rolls[1].data["faces"]) == 4   # 3 dice +1 (Strength of the Crowd)


def test_tc46_tc66_out_of_class() -> None:
    s = lore_state({"cleric": 3})
    assert level_of(s, "north", "creeping_doom") == (1, 12)
    assert value("2/level+0", 1) == 2
    s["lore"]["council"]["north"] = {"cleric": 2}
    assert level_of(s, "north", "bless") == (2, 2)
    assert level_of(s, "north", "strength") == (1, 5)


def test_tc47_replenish_draw_two_keep_one_then_limit() -> None:
    s = lore_state({"wizard": 1})
    s["lore"]["hands"]["north"] = ["fireball", "portal"]
    s["lore"]["deck"] = ["eagle_eye", "lightning_bolt"]
    c = Ctx(s, RecDice(dice(0, 0), []), ask=False)
    end_of_turn_lore(c, parse_text(s, "north", "REPLENISH CARDS\n").orders)
    assert len(s["lore"]["hands"]["north"]) == 2
    assert len(s["lore"]["discard"]) == 2


def test_tc48_tc49_council_hand_and_lore_deck() -> None:
    assert COMMAND_HAND[2] == 5 and COMMAND_HAND[0] == 3
    s = RULESET.setup(GameConfig(("north", "south"), "spiders_lair"), _dice0())
    assert s["phase"] == "council"
    orders = {"north": RULESET.parse(s, "north", "COUNCIL commander 2 wizard 1 cleric 1"),
              "south": RULESET.parse(s, "south", "COUNCIL wizard 3 commander 2")}
    s, ev = RULESET.resolve(s, orders, _dice0())
    lo = s["lore"]
    assert len(lo["deck"]) + 8 == 14 + 8 + 5 + 5
    assert len(s["hands"]["north"]) == 5 and len(s["hands"]["south"]) == 5
    assert s["phase"] == "keep"
    bad = RULESET.parse(s, "north", "COUNCIL commander 3 wizard 3 cleric 3")
    assert "not part of this step" in (bad.lines[0].error or "")  # the council is over
    s0 = RULESET.setup(GameConfig(("north", "south"), "spiders_lair"), _dice0())
    assert "you have 6" in (RULESET.parse(s0, "north", "COUNCIL commander 3 wizard 3 cleric 3")
                            .lines[0].error or "")


def _dice0():
    from battlelore_helpers import _Zero
    return _Zero()


def test_tc59_empty_pool() -> None:
    s = lore_state()
    s["lore"]["pool"] = 0
    s["lore"]["total"] = 0
    a = put(s, "N1", "north", "regular_infantry", (13, 7))
    t = put(s, "S1", "south", "regular_infantry", (12, 6))
    attack(ctx(s, "L", "L", "R"), a, t, melee=True)
    assert s["lore"]["goblet"]["north"] == 0


def test_tc18_lore_face_gives_a_token_in_lore_adventures() -> None:
    s = lore_state()
    a = put(s, "N1", "north", "regular_infantry", (13, 7))
    t = put(s, "S1", "south", "archers", (12, 6))
    attack(ctx(s, "G", "F", "L"), a, t, melee=True)
    assert t["fig"] == 3 and s["lore"]["goblet"]["north"] == 1


def test_tc62_fearless() -> None:
    s = lore_state({"rogue": 1}, goblets=(0, 3))
    s["lore"]["hands"]["south"] = ["fearless"]
    s["standing"]["south"] = {"react fearless": "S1"}
    put(s, "N1", "north", "regular_infantry", (13, 7))
    put(s, "S1", "south", "regular_infantry", (12, 6))
    c = run(s, "north", "PLAY scout_centre\nBATTLE N1 S1\nREPLENISH TOKENS\n",
            "F", "F", "F", "B", "L", "L", 0)
    assert s["units"]["S1"]["hex"] == [12, 6] and "battles back" in texts(c)
    assert s["units"]["N1"]["fig"] == 3


def test_tc63_havoc() -> None:
    s = lore_state({"warrior": 1}, goblets=(3, 0))
    s["lore"]["hands"]["north"] = ["havoc"]
    put(s, "N1", "north", "archers", (13, 7))
    put(s, "S1", "south", "archers", (12, 6))
    put(s, "S2", "south", "regular_infantry", (25, 1))
    run(s, "north", "PLAY scout_centre\nLORE havoc ON N1\nBATTLE N1 S1\nREPLENISH CARDS\n",
        "G", "L", 0, 0, 0)
    assert s["units"]["S1"]["fig"] == 2 and s["lore"]["goblet"]["north"] == 0


def test_tc65_broad_shield() -> None:
    s = lore_state({"cleric": 1, "warrior": 1}, goblets=(3, 3))
    s["lore"]["hands"] = {"north": ["havoc"], "south": ["broad_shield"]}
    s["standing"]["south"] = {"react broad_shield": "ANY"}
    put(s, "N1", "north", "heavy_infantry", (13, 7))
    put(s, "S1", "south", "regular_infantry", (12, 6))
    c = run(s, "north", "PLAY scout_centre\nLORE havoc ON N1\nBATTLE N1 S1\nREPLENISH CARDS\n",
            "B", "F", "L", "L", 0, 0, 0)
    assert "Broad Shield cancels 1 hit(s) and 1 flag(s)" in texts(c)
    assert s["units"]["S1"]["fig"] == 2 and s["units"]["S1"]["hex"] == [12, 6]


# --- landmarks ---------------------------------------------------------------------------

def test_tc55_tc68_stronghold() -> None:
    s = lore_state()
    s["landmarks"]["13-5"] = {"kind": "stronghold", "owner": "south"}
    s["hands"]["south"] = ["scout_centre", "scout_left", "scout_right", "red_banners",
                           "blue_banners", "green_banners"]
    s["hand_size"]["south"] = 6
    put(s, "N1", "north", "regular_cavalry", (13, 7))
    put(s, "S9", "south", "regular_infantry", (3, 1))
    c = run(s, "north", "PLAY scout_centre\nMOVE N1 13-5\nREPLENISH TOKENS\n", 2, 0)
    assert len(s["hands"]["south"]) == 5 and s["hand_size"]["south"] == 5
    assert "Stronghold" in texts(c)
    del s["units"]["N1"]
    s["hands"]["south"] = ["scout_centre"] * 5
    put(s, "S1", "south", "regular_infantry", (14, 4))
    run(s, "south", "PLAY scout_centre\nMOVE S1 13-5\nREPLENISH TOKENS\n", 0, 0)
    assert s["hand_size"]["south"] == 6 and len(s["hands"]["south"]) == 6


def test_tc56_healing_spring() -> None:
    s = lore_state()
    s["active"] = "south"
    s["landmarks"]["13-5"] = {"kind": "healing_spring", "owner": "south"}
    put(s, "S1", "south", "regular_infantry", (14, 4), fig=2)
    put(s, "N1", "north", "regular_infantry", (12, 6))
    run(s, "south", "PLAY scout_centre\nMOVE S1 13-5\nREPLENISH TOKENS\n", 0)
    assert s["units"]["S1"]["fig"] == 4 and "13-5" not in s["landmarks"]
    # p.40: it may battle instead, but then it does not use the spring
    s2 = lore_state()
    s2["active"] = "south"
    s2["landmarks"]["13-5"] = {"kind": "healing_spring", "owner": "south"}
    put(s2, "S1", "south", "regular_infantry", (14, 4), fig=2)
    put(s2, "N1", "north", "regular_infantry", (12, 6))
    c = run(s2, "south", "PLAY scout_centre\nMOVE S1 13-5\nBATTLE S1 N1\nREPLENISH TOKENS\n",
            "B", "L", "L", 0)
    assert s2["units"]["S1"]["fig"] == 2 and "13-5" in s2["landmarks"]
    assert s2["units"]["N1"]["fig"] == 3 and "does not use the Healing Spring" in texts(c)
    # a full-strength unit: nothing happens, the spring stays
    s3 = lore_state()
    s3["active"] = "south"
    s3["landmarks"]["13-5"] = {"kind": "healing_spring", "owner": "south"}
    put(s3, "S1", "south", "regular_infantry", (14, 4))
    run(s3, "south", "PLAY scout_centre\nMOVE S1 13-5\nREPLENISH TOKENS\n", 0)
    assert "13-5" in s3["landmarks"]


def test_tc57_training_camp() -> None:
    s = lore_state()
    s["landmarks"]["13-3"] = {"kind": "training_camp", "owner": "north"}
    put(s, "N1", "north", "archers", (13, 3))
    put(s, "S1", "south", "regular_infantry", (25, 1))
    run(s, "north", "PLAY scout_centre\nDRILL N1\nMOVE N1 13-5\nREPLENISH TOKENS\n", 0)
    assert s["units"]["N1"]["colour"] == "blue" and s["units"]["N1"]["hex"] == [13, 3]
    assert "13-3" not in s["landmarks"]


def test_tc58_pentagram() -> None:
    s = lore_state()
    s["landmarks"]["13-3"] = {"kind": "pentagram", "owner": "south"}
    s["active"] = "south"
    put(s, "S1", "south", "regular_infantry", (13, 3))
    end_of_turn(Ctx(s, RecDice(dice(), []), ask=False))
    assert s["lore"]["goblet"]["south"] == 1


def test_tc69_secret_passage_same_turn() -> None:
    s = lore_state(goblets=(0, 2))
    s["active"] = "south"
    s["terrain"]["3-7"] = "forest"
    s["landmarks"]["13-3"] = {"kind": "hideout", "owner": "south"}
    s["tf"]["start_hex"] = {}
    put(s, "S1", "south", "regular_infantry", (13, 3))
    put(s, "N1", "north", "regular_infantry", (4, 8))
    run(s, "south", "PLAY scout_centre\nPASSAGE S1 3-7\nBATTLE S1 N1\nREPLENISH CARDS\n",
        "B", "L", "L", 0, 0, 0)
    assert s["units"]["S1"]["hex"] == [3, 7] and s["units"]["N1"]["fig"] == 3
    assert s["landmarks"]["3-7"]["kind"] == "secret_exit"


# --- War Council steps ---------------------------------------------------------------------

def test_sealed_council_keep_and_place_steps() -> None:
    s = RULESET.setup(GameConfig(("north", "south"), "spiders_lair"), _dice0())
    assert set(RULESET.awaiting(s)) == {"north", "south"}
    orders = {"north": RULESET.parse(s, "north", "COUNCIL commander 3 wizard 3"),
              "south": RULESET.parse(s, "south", "COUNCIL cleric 3 commander 2")}
    s, _ = RULESET.resolve(s, orders, _dice0())
    assert s["phase"] == "keep" and set(RULESET.awaiting(s)) == {"north", "south"}
    keep = {x: RULESET.parse(s, x, "KEEP " + " ".join(s["lore"]["offer"][x][:3]))
            for x in ("north", "south")}
    assert all(p.ok for p in keep.values())
    s, _ = RULESET.resolve(s, keep, _dice0())
    assert s["lore"]["goblet"] == {"north": 3, "south": 3}
    assert s["phase"] == "place" and list(RULESET.awaiting(s)) == ["north"]
    assert [p["kind"] for p in s["place_queue"]] == ["pentagram", "stronghold", "healing_spring"]
    s, _ = RULESET.resolve(s, {"north": RULESET.parse(s, "north", "PLACE pentagram 13-7\n"
                                                                     "PLACE stronghold 12-8")},
                           _dice0())
    assert s["landmarks"]["13-7"]["kind"] == "pentagram"
    assert s["landmarks"]["12-8"] == {"kind": "stronghold", "owner": "north"}
    assert list(RULESET.awaiting(s)) == ["south"]
    s, _ = RULESET.resolve(s, {"south": Parsed()}, _dice0())
    assert any(v["kind"] == "healing_spring" for v in s["landmarks"].values())
    assert s["phase"] == "turn"


@pytest.mark.parametrize("text,err", [
    ("KEEP fireball fireball fireball", "not among your 4 cards"),
])
def test_keep_errors(text, err) -> None:
    s = RULESET.setup(GameConfig(("north", "south"), "dwarves_at_the_ford"), _dice0())
    s["lore"]["offer"]["north"] = ["eagle_eye", "mass_speed", "portal", "portal"]
    assert err in (RULESET.parse(s, "north", text).lines[0].error or "")


def test_victory_shield_is_a_banner() -> None:
    s = blank("dwarves_at_the_ford")
    s["phase"] = "turn"
    s["active"] = "south"
    s["lore"]["council"] = {"north": {"wizard": 1}, "south": {"wizard": 1}}
    s["lore"]["hands"] = {"north": [], "south": []}
    s["hands"]["south"] = ["scout_left"] * 4
    s["banners"]["south"] = 4
    put(s, "S1", "south", "goblin_skirmishers", (6, 8))
    put(s, "N1", "north", "dwarf_infantry", (21, 9))
    from pbem.rulesets.battlelore.ctx import GameOver
    with pytest.raises(GameOver):
        run(s, "south", "PLAY scout_left\nMOVE S1 7-9\n", 0)
    assert s["banners"]["south"] == 5 and s["result"]["winner"] == "south"
    assert s["shields"] == [{"hex": "19-9", "side": "south"}]


def test_tc28_pre_emptive_defender_gets_no_follow_on() -> None:
    s = lore_state({"warrior": 1}, goblets=(0, 3))
    s["lore"]["hands"]["south"] = ["first_strike"]
    s["standing"]["south"] = {"react first_strike": "ANY"}
    put(s, "N1", "north", "regular_cavalry", (13, 7))
    put(s, "S1", "south", "heavy_infantry", (12, 6))
    c = run(s, "north", "PLAY scout_centre\nBATTLE N1 S1\nREPLENISH TOKENS\n",
            "F", "L", "L", "L", 0)
    assert s["units"]["N1"]["hex"][1] == 8          # repelled before it could roll
    assert s["units"]["S1"]["hex"] == [12, 6]       # no gain ground for the defender
    assert sum(e.kind == "roll" for e in c.events) == 1


def test_tc50_movement_card_only_on_units_not_yet_moved() -> None:
    s = lore_state({"wizard": 1}, goblets=(9, 0))
    s["lore"]["hands"]["north"] = ["portal"]
    put(s, "N1", "north", "regular_infantry", (13, 7))
    put(s, "S1", "south", "regular_infantry", (25, 1))
    s["tf"]["ordered"] = ["N1"]
    s["tf"]["moved"]["N1"] = 1
    from pbem.rulesets.battlelore.council import lore_card
    from pbem.rulesets.battlelore.lore_effects import target_problem
    assert "already moved" in (target_problem(s, "north", lore_card("portal"), "N1", (13, 5), {})
                               or "")


def test_tc51_bless_on_top_of_the_forest_cap() -> None:
    s = lore_state({"cleric": 1}, goblets=(2, 0))
    s["terrain"]["13-5"] = "forest"
    s["active"] = "south"
    s["lore"]["hands"]["south"] = ["bless"]
    s["lore"]["goblet"]["south"] = 2
    put(s, "S1", "south", "heavy_cavalry", (13, 5))
    put(s, "N1", "north", "regular_infantry", (12, 6))
    c = run(s, "south", "PLAY scout_centre\nLORE bless ON S1\nBATTLE S1 N1 HOLD\n"
            "REPLENISH TOKENS\n", "L", "L", "L", 0)
    roll = next(e for e in c.events if e.kind == "roll")
    assert len(roll.data["faces"]) == 3


def test_tc64_card_movement_obeys_terrain() -> None:
    s = lore_state({"wizard": 1}, goblets=(3, 0))
    s["lore"]["hands"]["north"] = ["mass_speed"]
    s["terrain"]["13-5"] = "forest"
    put(s, "N1", "north", "regular_infantry", (13, 7))
    put(s, "S1", "south", "regular_infantry", (25, 1))
    run(s, "north", "PLAY scout_centre\nLORE mass_speed\nMOVE N1 13-3 OR 13-5\n"
        "REPLENISH TOKENS\n", 0)
    assert s["units"]["N1"]["hex"] == [13, 5]   # 3 hexes allowed, but the forest stops it


def test_backstab_kills_the_spider_before_its_powers() -> None:
    """Found by a random playout: a spider killed by Backstab uses no power and its stored
    Lore goes back to the pool once (token conservation)."""
    s = lore_state({"rogue": 1}, goblets=(3, 0))
    s["active"] = "south"
    s["lore"]["hands"]["north"] = ["backstab"]
    s["standing"]["north"] = {"react backstab": "ANY"}
    sp = put(s, "S1", "south", "giant_spider", (13, 5))
    sp["stored"] = 1
    s["lore"]["pool"] -= 1
    put(s, "N1", "north", "regular_infantry", (12, 6))
    run(s, "south", "PLAY scout_centre\nBATTLE S1 N1\nREPLENISH TOKENS\n", "BS", "L", 0)
    lo = s["lore"]
    assert "S1" not in s["units"] and not s["units"]["N1"].get("web")
    assert lo["pool"] + sum(lo["goblet"].values()) + sum(lo["on_cards"].values()) == 36


def test_p41_stronghold_captured_and_recaptured_by_a_retreat() -> None:
    """Rulebook p.41: the enemy "takes possession" of the Stronghold however it arrives;
    a unit ending its retreat on it captures it (the spec said a retreat does not), and the
    owner's unit retreating onto it takes it back and draws at once."""
    s = lore_state()
    s["landmarks"]["13-7"] = {"kind": "stronghold", "owner": "south"}
    s["hands"]["south"] = ["scout_centre", "scout_left", "scout_right", "red_banners",
                           "blue_banners", "green_banners"]
    s["hand_size"]["south"] = 6
    s["active"] = "south"
    n1 = put(s, "N1", "north", "regular_infantry", (12, 6))
    put(s, "N2", "north", "regular_infantry", (11, 7))  # the other rear hex is blocked
    s1 = put(s, "S1", "south", "regular_infantry", (12, 4))
    c = ctx(s, "F", "R", "R", "R", 0)
    attack(c, s1, n1, melee=False)
    assert n1["hex"] == [13, 7]
    assert "N1 occupies south's Stronghold" in texts(c)
    assert s["hand_size"]["south"] == 5 and len(s["hands"]["south"]) == 5
    # north's turn: N1 moves off; the Stronghold stays captured (TC-68)
    del s["units"]["N1"]
    s["active"] = "north"
    s2 = put(s, "S2", "south", "regular_infantry", (12, 8))
    put(s, "S3", "south", "regular_infantry", (11, 7))  # the other rear hex is blocked
    n3 = put(s, "N3", "north", "regular_infantry", (13, 9))
    # S2 is next to its own Stronghold, so bold: 2 flags, 1 ignored, 1 hex of retreat
    c2 = ctx(s, "F", "F", "R", "R", 0)
    attack(c2, n3, s2, melee=True)
    assert s2["hex"] == [13, 7]
    assert s["hand_size"]["south"] == 6 and len(s["hands"]["south"]) == 6
    assert "south re-occupies the Stronghold" in texts(c2)


# --- reaction windows before every roll (p.29-30) ------------------------------------------

def test_p30_before_opponent_rolls_window_opens_before_a_bonus_attack() -> None:
    """p.30: a 'before your opponent rolls' card lasts one roll only, so a bonus attack is
    a roll of its own with its own window: Broad Shield on the bonus attack's target."""
    s = lore_state({"cleric": 1}, goblets=(0, 3))
    s["lore"]["hands"] = {"north": [], "south": ["broad_shield"]}
    s["standing"]["south"] = {"react broad_shield": "S2"}
    put(s, "N1", "north", "regular_cavalry", (13, 7))
    put(s, "S1", "south", "regular_infantry", (12, 6))
    put(s, "S2", "south", "regular_infantry", (10, 6))
    c = run(s, "north", "PLAY scout_centre\nBATTLE N1 S1 NOPURSUE BONUS S2\nREPLENISH TOKENS\n",
            "F", "R", "R", "B", "B", "F", 0, 0)
    assert s["units"]["N1"]["hex"] == [12, 6]
    assert "Broad Shield cancels 2 hit(s) and 1 flag(s)" in texts(c)
    assert s["units"]["S2"]["fig"] == 4 and s["units"]["S2"]["hex"] == [10, 6]


def test_p30_before_opponent_rolls_window_opens_before_a_battle_back() -> None:
    """The battle back is the opponent's roll in the active player's own turn: the active
    player may shield his attacked unit then (his one Lore card of the turn)."""
    s = lore_state({"cleric": 1}, goblets=(3, 0))
    s["lore"]["hands"] = {"north": ["broad_shield"], "south": []}
    s["standing"]["north"] = {"react broad_shield": "N1"}
    put(s, "N1", "north", "heavy_infantry", (13, 7))
    put(s, "S1", "south", "regular_infantry", (12, 6))
    put(s, "S2", "south", "regular_infantry", (10, 6))  # S1 is supported: bold
    put(s, "S3", "south", "regular_infantry", (11, 5))
    c = run(s, "north", "PLAY scout_centre\nBATTLE N1 S1\nREPLENISH TOKENS\n",
            "F", "G", "G", "G", "R", "R", "F", 0, 0)
    assert "battles back against N1" in texts(c)
    assert "Broad Shield cancels 2 hit(s) and 1 flag(s)" in texts(c)
    assert s["units"]["N1"]["fig"] == 4 and s["units"]["N1"]["hex"] == [13, 7]


def test_p30_after_opponent_rolls_window_opens_after_a_battle_back() -> None:
    """Backstab after the battle-backing unit's roll (the active player's window)."""
    s = lore_state({"rogue": 1}, goblets=(3, 0))
    s["lore"]["hands"] = {"north": ["backstab"], "south": []}
    s["standing"]["north"] = {"react backstab": "ANY"}
    put(s, "N1", "north", "heavy_infantry", (13, 7))
    put(s, "S1", "south", "regular_infantry", (12, 6))
    put(s, "S2", "south", "regular_infantry", (10, 6))
    put(s, "S3", "south", "regular_infantry", (11, 5))
    c = run(s, "north", "PLAY scout_centre\nBATTLE N1 S1\nREPLENISH TOKENS\n",
            "F", "G", "G", "G", "BS", "BS", "G", 0, 0)
    assert "Backstab: S1 suffers its own 2 bonus strike hit(s)" in texts(c)
    assert s["units"]["N1"]["fig"] == 4 and s["units"]["S1"]["fig"] == 2  # G misses red


# --- the windows no shipped card uses (p.29) -----------------------------------------------

def _with_test_card(monkeypatch: pytest.MonkeyPatch, phase: str) -> None:
    """The shipped deck has no card for this window: add one to the data for the test."""
    from pbem.rulesets.battlelore import council
    real = council.data

    def fake(name: str) -> dict:
        d = real(name)
        if name == "lore_cards":  # a copy: data() is cached and shared
            d = {**d, "cards": dict(d["cards"])}
            d["cards"]["test_card"] = {"name": "Test Card", "class": "rogue", "copies": 1,
                                       "cost": 1, "reaction": True, "phase": phase,
                                       "target": "none", "effect": "gain_tokens",
                                       "params": {"tokens": "0/level+2"}, "source": "test"}
        return d
    monkeypatch.setattr(council, "data", fake)


def test_tc50_reaction_to_movement_before_the_unit_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    """TC-50: a 'reaction to movement' card is played before the targeted unit moves, never
    after: the window opens before each unit's move."""
    _with_test_card(monkeypatch, "reaction_movement")
    s = lore_state({"rogue": 1}, goblets=(0, 1))
    s["lore"]["hands"] = {"north": [], "south": ["test_card"]}
    s["standing"]["south"] = {"react test_card": "N2"}
    s["hands"]["north"] = ["order_two_centre"] * 4
    put(s, "N1", "north", "regular_infantry", (13, 7))
    put(s, "N2", "north", "regular_infantry", (15, 7))
    c = run(s, "north", "PLAY order_two_centre\nMOVE N1 13-5\nMOVE N2 15-5\nREPLENISH TOKENS\n",
            0, 0)
    log = texts(c)
    assert log.index("N1 moves") < log.index("plays the Lore card Test Card on N2") \
        < log.index("N2 moves")
    # a unit that does not move opens no window: the card stays in the hand
    s = lore_state({"rogue": 1}, goblets=(0, 1))
    s["lore"]["hands"] = {"north": [], "south": ["test_card"]}
    s["standing"]["south"] = {"react test_card": "N2"}
    s["hands"]["north"] = ["order_two_centre"] * 4
    put(s, "N1", "north", "regular_infantry", (13, 7))
    put(s, "N2", "north", "regular_infantry", (15, 7))
    run(s, "north", "PLAY order_two_centre\nORDER N1 N2\nMOVE N1 13-5\nREPLENISH TOKENS\n", 0, 0)
    assert s["lore"]["hands"]["south"] == ["test_card"]


def test_reaction_to_orders_window(monkeypatch: pytest.MonkeyPatch) -> None:
    _with_test_card(monkeypatch, "reaction_orders")
    s = lore_state({"rogue": 1}, goblets=(0, 1))
    s["lore"]["hands"] = {"north": [], "south": ["test_card"]}
    s["standing"]["south"] = {"react test_card": "ANY"}
    put(s, "N1", "north", "regular_infantry", (13, 7))
    c = run(s, "north", "PLAY scout_centre\nMOVE N1 13-5\nREPLENISH TOKENS\n", 0, 0)
    log = texts(c)
    assert log.index("North orders N1") < log.index("Test Card") < log.index("N1 moves")


def test_shipped_deck_has_no_card_for_the_order_and_movement_reactions() -> None:
    """p.29: 'the base box has no order-phase cards'; the spec's card list has no
    reaction-to-movement card either. If one is added, these windows already open."""
    from pbem.rulesets.battlelore.state import data
    phases = {c["phase"] for c in data("lore_cards")["cards"].values()}
    assert not phases & {"reaction_orders", "during_orders", "reaction_movement"}
