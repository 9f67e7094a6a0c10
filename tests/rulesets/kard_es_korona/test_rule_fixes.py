"""The rule fixes of issue 14, each with the rulebook's words: the Judge Royal rerolls all
the dice of any one arm, the hits too; either side may flee after a full round whatever
the numbers; a conquered county stays its conqueror's when he moves on (persistent
control, the default) and a battle that kills everyone leaves it masterless."""

from __future__ import annotations

from pbem.core.dice import ScriptedDice
from pbem.core.ruleset import GameConfig
from pbem.rulesets.kard_es_korona.rules.economy import income_of
from pbem.rulesets.kard_es_korona.rules.victory import held_castles, held_counties, update_claims

from .helpers import RULESET, army, bare, battles, lord, order, put, standing, step, units_in


def _judge_battle(policy: str):
    s = bare(("felvidek", "tiszahat"))
    put(s, "borsod", "tiszahat", inf=2)
    put(s, "abauj", "tiszahat", inf=1)
    lord(s, "tiszahat", "abauj")
    put(s, "gomor", "felvidek", inf=3)
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    s["offices"]["judge"] = "felvidek"
    standing(s, "felvidek", policy)
    assert step(s, "felvidek", "MOVE TO borsod FROM gomor 3 inf")[0] == ""
    return s


def test_the_judge_royal_rerolls_all_dice_of_an_arm_also_those_that_hit():
    """Rulebook p. 12, the Judge Royal: "Minden csatában egyszer újradobhatja egy
    fegyvernem részére egy összecsapás eredményét, de valamennyi kockát, nem csak azokat,
    amelyek nem találtak." His infantry rolls 5, 1, 1 (one hit); REROLL 3 HITS 1 rerolls
    all three dice, the 5 too."""
    s = _judge_battle("REROLL 3 HITS 1")
    dice, ev = battles(s, [5, 1, 1, 1, 1,  # melee: A infantry 5, 1, 1; D infantry 1, 1
                           1, 1, 1,        # the reroll of all three: the hit is lost
                           5, 5, 1, 1, 1])  # round 2
    texts = [e.text for e in ev]
    assert "Judge Royal rerolls the 3 infantry dice of felvidek." in texts
    assert "round 1 melee: felvidek rolls [1 1 1], kills nothing." in texts
    assert dice.remaining == 0 and units_in(s, "borsod") == army(inf=3)


def test_without_a_hits_allowance_an_arm_that_hit_is_not_rerolled():
    s = _judge_battle("REROLL 3")
    dice, ev = battles(s, [5, 1, 1, 1, 1, 5, 1, 1, 1])
    assert not any("rerolls" in e.text for e in ev) and dice.remaining == 0


def test_the_reroll_can_name_its_arm():
    assert str(order(bare(), "újradob 2 találat 1 fegyvernem lovas")) == "REROLL 2 HITS 1 ARM cav"
    assert str(order(bare(), "FIGHT REROLL 3 HITS 2 FLEE ALWAYS")) == \
        "FIGHT REROLL 3 HITS 2 FLEE ALWAYS"


def _stronger_attacker(flee: str):
    s = bare(("felvidek", "tiszahat"), "advanced")
    put(s, "gomor", "felvidek", inf=4)
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    put(s, "borsod", "tiszahat", inf=1)
    put(s, "abauj", "tiszahat", inf=1)
    lord(s, "tiszahat", "abauj")
    standing(s, "felvidek", flee)
    assert step(s, "felvidek", "MOVE TO borsod FROM gomor 4 inf")[0] == ""
    return s


def test_either_side_may_flee_whatever_the_numbers():
    """Rulebook p. 15, 6.3: "ezt követően dönthet mind a támadó, mind a védekező fél, hogy a
    veszteségek és a várható fejlemények miatt nem kívánja folytatni a harcot, inkább
    visszavonul." A stronger attacker (4 against 1) with FLEE ALWAYS flees after the first
    full round; the defender pursues with his one unit."""
    s = _stronger_attacker("FLEE ALWAYS")
    dice, ev = battles(s, [1, 1, 1, 1, 1,  # the first melee: nobody hits
                           1])             # the pursuit
    assert "felvidek flees after round 1; tiszahat pursues." in [e.text for e in ev]
    assert units_in(s, "gomor") == army(inf=4) and units_in(s, "borsod") == army(inf=1)
    assert dice.remaining == 0


def test_a_percentage_above_100_flees_while_stronger():
    s = _stronger_attacker("FLEE 400")  # flee while at most 4 times as strong
    dice, ev = battles(s, [1, 1, 1, 1, 1, 1])
    assert any("felvidek flees after round 1" in e.text for e in ev)


def test_persistent_control_is_the_default_and_a_county_stays_its_conquerors():
    """Rulebook p. 3: "Az elfoglalt vármegyékben helyőrséget hagyni nem kötelező, a hadsereg
    továbbvonulhat, ám a körök elején csak az a vármegye ad bevételt, amelyikben legalább
    egy csapat állomásozik." The army moves on; the empty castle stays his for victory,
    but pays no income."""
    state = RULESET.setup(GameConfig(("felvidek", "tiszahat"), "basic"), ScriptedDice([0]))
    assert state["options"]["control_model"] == "persistent"
    s = bare(("felvidek", "tiszahat"))
    put(s, "trencsen", "felvidek", inf=1)
    put(s, "nyitra", "felvidek", inf=1)
    lord(s, "felvidek", "nyitra")
    update_claims(s)
    assert step(s, "felvidek", "MOVE TO nyitra FROM trencsen 1 inf")[0] == ""
    update_claims(s)
    assert held_castles(s, {"felvidek"}) == ["trencsen"]
    assert RULESET.view(s, None)["players"]["felvidek"]["castles"] == 1
    assert income_of(s, "felvidek") == 1  # only Nyitra, where units stand, pays


def test_a_battle_that_kills_everyone_leaves_the_county_masterless():
    """Rulebook p. 9: "így néha megesik az is, hogy egy csata utolsó összecsapásában minden
    harcos fűbe harap, s a vitatott vármegye gazdátlanul marad." Abaúj was tiszahat's; both
    last units fall in the same exchange: nobody holds it, not even by persistent control."""
    s = bare(("felvidek", "tiszahat"), control_model="persistent")
    put(s, "abauj", "tiszahat", inf=1)
    put(s, "zemplen", "tiszahat", inf=1)
    lord(s, "tiszahat", "zemplen")
    put(s, "gomor", "felvidek", inf=2)
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    update_claims(s)
    assert "abauj" in held_counties(s, {"tiszahat"})
    assert step(s, "felvidek", "MOVE TO abauj FROM gomor 1 inf")[0] == ""
    _, ev = battles(s, [5, 5])  # the assault: both infantry hit
    assert "Both armies at Abaúj are wiped out; the county is empty and masterless." in \
        [e.text for e in ev]
    assert "abauj" not in held_counties(s, {"tiszahat"}) + held_counties(s, {"felvidek"})
