"""rules/battles.py and rules/combat.py beyond the worked examples: the order of battles,
retreats and forced battles, the Judge Royal, the event cards that act in battle, lone
lords, the escape roll and the duel winner's extra step."""

from __future__ import annotations

from pbem.core.dice import ScriptedDice
from pbem.core.kit import Context, Log
from pbem.rulesets.kard_es_korona.rules.battles import next_battle, run_battles
from pbem.rulesets.kard_es_korona.rules.combat import Battle, Die, Side, kills_possible, threshold
from pbem.rulesets.kard_es_korona.rules.defeat import make_vassal

from .helpers import RULESET, army, bare, battles, lord, put, standing, step, units_in


def test_lord_battles_first_then_open_then_sieges_in_rotation():
    s = bare(("felvidek", "tiszahat", "erdely"))
    s["start"] = "tiszahat"

    def b(county, attacker, lord_, seq):
        return {"county": county, "attacker": attacker, "army": army(inf=1), "lord": lord_,
                "seq": seq, "origins": {}, "pinned": False, "free_owner": None, "free": 0}
    s["battles"] = [b("heves", "tiszahat", False, 1), b("bars", "felvidek", False, 2),
                    b("borsod", "tiszahat", False, 3), b("nograd", "erdely", True, 4),
                    b("szabolcs", "erdely", False, 5)]
    order = []
    while s["battles"]:
        nb = next_battle(s)
        assert nb is not None
        order.append(nb["county"])
        s["battles"].remove(nb)
    # lords first; open battles: tiszahat (start), erdely, felvidek; then the siege
    assert order == ["nograd", "borsod", "szabolcs", "bars", "heves"]


def surrounded_retreat():
    """Gömör's army attacks Abaúj; every county it could retreat to is hostile.
    Szepes (mountain) neighbours in the basic map: Abaúj, Gömör, Liptó."""
    s = bare(("felvidek", "tiszahat"))
    put(s, "szepes", "tiszahat", inf=1, arch=1)
    put(s, "abauj", "tiszahat", inf=1)
    put(s, "lipto", "tiszahat", inf=1)
    put(s, "zemplen", "tiszahat", inf=1)
    lord(s, "tiszahat", "zemplen")
    put(s, "gomor", "felvidek", inf=1, cav=2)
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    return s


def test_forced_battle_when_retreat_is_surrounded():
    s = surrounded_retreat()
    assert step(s, "felvidek", "MOVE TO abauj FROM gomor 1 inf 2 cav")[0] == ""
    s["board"]["gomor"] = {"owner": "tiszahat", "units": army(inf=1), "used": army()}
    put(s, "borsod", "tiszahat", inf=1)
    _, ev = battles(s, [1, 1, 1, 6,  # assault: A cav, cav, inf; D inf 6 kills the infantry
                        4, 4, 1])  # forced battle in Borsod: A cav 4, 4; D inf 1
    assert any("surrounded and must attack Borsod" in e.text for e in ev)
    assert units_in(s, "borsod") == army(cav=2)


def test_retreat_list_picks_the_forced_battle_when_surrounded():
    """Rulebook p. 11: surrounded retreating units must attack one of the neighbours, the
    player's choice (DP14): the first hostile county of his RETREAT list, else the weakest."""
    s = surrounded_retreat()
    standing(s, "felvidek", "RETREAT lipto gomor")
    assert step(s, "felvidek", "MOVE TO abauj FROM gomor 1 inf 2 cav")[0] == ""
    s["board"]["gomor"] = {"owner": "tiszahat", "units": army(inf=1), "used": army()}
    put(s, "borsod", "tiszahat", inf=1)
    _, ev = battles(s, [1, 1, 1, 6, 4, 4, 1])
    assert any("surrounded and must attack Gömör" in e.text for e in ev)
    assert units_in(s, "gomor") == army(cav=2)


def test_judge_royal_rerolls_an_arm_that_missed():
    s = bare(("felvidek", "tiszahat"))
    put(s, "borsod", "tiszahat", inf=2)
    put(s, "abauj", "tiszahat", inf=1)
    lord(s, "tiszahat", "abauj")
    put(s, "gomor", "felvidek", inf=3)
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    s["offices"]["judge"] = "felvidek"
    standing(s, "felvidek", "REROLL 3")
    assert step(s, "felvidek", "MOVE TO borsod FROM gomor 3 inf")[0] == ""
    # melee: A [1, 2, 3] all miss -> reroll [6, 6, 1]; D [1, 1]
    dice, ev = battles(s, [1, 2, 3, 1, 1, 6, 6, 1])
    assert any("Judge Royal rerolls the 3 infantry" in e.text for e in ev)
    assert units_in(s, "borsod") == army(inf=3)
    assert dice.remaining == 0


def test_vintage_card_helps_the_defender():
    s = bare(("felvidek", "tiszahat"))
    put(s, "borsod", "tiszahat", inf=1)
    put(s, "abauj", "tiszahat", inf=1)
    lord(s, "tiszahat", "abauj")
    put(s, "gomor", "felvidek", inf=1)
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    s["card"] = "szuret"
    assert step(s, "felvidek", "MOVE TO borsod FROM gomor 1 inf")[0] == ""
    battles(s, [4, 4])  # A 4 misses; D 4+1 hits
    assert units_in(s, "borsod") == army(inf=1) and s["board"]["borsod"]["owner"] == "tiszahat"


def test_rainy_autumn_calls_off_a_siege():
    s = bare(("felvidek", "tiszahat"))
    put(s, "abauj", "tiszahat", inf=1)
    lord(s, "tiszahat", "abauj")
    put(s, "gomor", "felvidek", inf=2)
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    s["card"] = "esos_osz"
    assert step(s, "felvidek", "MOVE TO abauj FROM gomor 2 inf")[0] == ""
    _, ev = battles(s, [2])
    assert units_in(s, "gomor") == army(inf=2)
    assert any("called off" in e.text for e in ev)


def test_lone_lord_is_defeated_without_dice_and_vassals_are_freed():
    s = bare(("felvidek", "tiszahat", "erdely"), fealty=False)
    put(s, "abauj", "tiszahat", inf=2)
    lord(s, "tiszahat", "borsod")  # alone, e.g. after a duel
    put(s, "gomor", "felvidek", inf=1)
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    put(s, "kolozs", "erdely", inf=1)
    make_vassal(s, Log(), "erdely", "tiszahat")
    assert step(s, "felvidek", "MOVE TO borsod FROM gomor 1 inf")[0] == ""
    battles(s, [])
    assert s["players"]["tiszahat"]["status"] == "out"
    assert units_in(s, "abauj") == army(inf=1) and s["board"]["abauj"]["owner"] == "felvidek"
    assert s["players"]["erdely"]["status"] == "active"
    assert s["players"]["erdely"]["lord"] == "kolozs"


def test_escape_roll():
    s = bare(("felvidek", "tiszahat"), escape_roll=True)
    put(s, "borsod", "tiszahat", inf=1)
    put(s, "abauj", "tiszahat", inf=1)
    lord(s, "tiszahat", "borsod")
    put(s, "gomor", "felvidek", inf=2)
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    assert step(s, "felvidek", "MOVE TO borsod FROM gomor 2 inf")[0] == ""
    battles(s, [5, 5, 1, 6])  # melee: A kills the infantry; escape roll 6
    assert s["players"]["tiszahat"]["lord"] == "abauj"
    assert s["players"]["tiszahat"]["status"] == "active"


def test_rejoin_standing_order_guides_the_duel_winners_extra_step():
    """Rulebook p. 11: the winner of a duel gets one extra step (DP19). Standing order
    REJOIN <county...>: the first listed own county his lord can reach (4 MP)."""
    s = bare(("felvidek", "tiszahat"))
    put(s, "borsod", "tiszahat", inf=1)
    put(s, "abauj", "tiszahat", inf=2)
    lord(s, "tiszahat", "borsod")
    put(s, "gomor", "felvidek", inf=1)
    put(s, "trencsen", "felvidek", inf=2)
    lord(s, "felvidek", "gomor")
    standing(s, "felvidek", "LEAD all inf")
    standing(s, "tiszahat", "LEAD all inf", "REJOIN szepes trencsen abauj")
    assert step(s, "felvidek", "MOVE TO borsod FROM gomor 1 inf lord")[0] == ""
    battles(s, [5, 5, 6, 6, 2, 4, 3, 6])  # the dice of T24: tiszahat wins the duel
    assert s["players"]["felvidek"]["status"] == "out"
    assert s["players"]["tiszahat"]["lord"] == "trencsen"  # szepes holds no units of his
    shown = RULESET.view(s, "tiszahat")["me"]["standing_lines"]
    assert "REJOIN szepes trencsen abauj" in shown


def test_the_game_ends_in_phase_iv_when_a_battle_decides_it():
    s = bare(("felvidek", "tiszahat"), fealty=False)
    put(s, "borsod", "tiszahat", inf=1)
    lord(s, "tiszahat", "borsod")
    put(s, "gomor", "felvidek", inf=2)
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    assert step(s, "felvidek", "MOVE TO borsod FROM gomor 2 inf")[0] == ""
    ctx = Context(s, ScriptedDice([5, 5, 1]), Log())
    assert run_battles(ctx)
    assert s["result"] is not None and s["result"]["winners"] == ["felvidek"]


def _open_battle(att_lord=False, lead=None):
    a = Side("felvidek", "A", army(inf=3), lord=att_lord, lead=lead)
    d = Side("tiszahat", "D", army(cav=2))
    return Battle("borsod", "Borsod", "open", a, d)


def test_t7_t26_hit_values():
    """Rulebook p. 4 unit profiles: mounted cavalry is hit only on 6 (a lord's +1 turns a 5
    into 6); cavalry hit foot on 4; in a siege everyone needs 5."""
    b = _open_battle(att_lord=True, lead="inf")
    assert "cav" in kills_possible(b, Die("inf", 5, 1), b.dfn.army, False)
    b = _open_battle()
    assert kills_possible(b, Die("inf", 5, 0), b.dfn.army, False) == []
    assert threshold(b, "cav", "inf") == 4 and threshold(b, "cav", "arch") == 4
    assert threshold(b, "inf", "inf") == 5 and threshold(b, "arch", "arch") == 5
    assert threshold(b, "cav", "cav") == 6 and threshold(b, "inf", "cav") == 6
    b.kind = "siege"  # dismounted
    assert threshold(b, "cav", "inf") == 5 and threshold(b, "inf", "cav") == 5
