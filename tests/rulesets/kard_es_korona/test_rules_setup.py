"""rules/setup.py: the legal sets of seats (T21), the advanced set-ups with 5 and 6
players, and the players' placement of neutral units (DP4)."""

from __future__ import annotations

from pbem.core.dice import ScriptedDice
from pbem.core.kit import Log
from pbem.core.ruleset import GameConfig
from pbem.rulesets.kard_es_korona.rules.setup import (
    DEFAULT_SEATS,
    START_ARMY,
    neutral_assignment,
    place_neutrals,
    played_problems,
)

from .helpers import RULESET, army, run_step, units_in


def test_t21_legal_sets_of_seats():
    assert played_problems(("erdely", "delvidek", "pannonia", "felvidek")) == []
    assert played_problems(("felvidek", "tiszahat", "delvidek", "szlavonia")) == []
    assert played_problems(("tiszahat", "erdely", "szlavonia", "pannonia")) == []
    assert played_problems(("felvidek", "tiszahat", "erdely", "delvidek")) != []
    assert played_problems(("felvidek", "erdely", "szlavonia")) == []
    assert played_problems(("tiszahat", "delvidek", "pannonia")) == []
    assert played_problems(("felvidek", "tiszahat", "erdely")) != []
    assert played_problems(("felvidek", "tiszahat", "erdely", "delvidek", "szlavonia")) != []
    assert sum(START_ARMY["basic"].values()) == 12
    assert START_ARMY["advanced"] == {"cav": 4, "inf": 6, "arch": 5}
    bad = RULESET.check_config(GameConfig(("felvidek", "tiszahat", "erdely"), "basic"))
    assert bad and "rulebook p. 2" in bad[0]


def test_advanced_setups_six_and_five_players():
    six = RULESET.setup(GameConfig(DEFAULT_SEATS[6], "advanced"), ScriptedDice([0]))
    place_neutrals(six, ScriptedDice([0, 0]), Log())
    infantry_only = [c for c, x in six["board"].items() if x["units"] == army(inf=2, arch=1)]
    assert len(infantry_only) == 2
    five = RULESET.setup(GameConfig(DEFAULT_SEATS[5], "advanced"), ScriptedDice([0]))
    place_neutrals(five, ScriptedDice([]), Log())
    assert five["board"]["baranya"]["owner"] == "n_szlavonia"
    assert "zagrab" not in five["board"] and "zagrab" in five["out_of_play"]


def test_players_place_the_neutral_units():
    s = RULESET.setup(GameConfig(("felvidek", "tiszahat"), "basic",
                                 {"neutral_placement": "players"}), ScriptedDice([0]))
    # four unplayed provinces dealt in seating order
    assert neutral_assignment(s) == {"felvidek": ["erdely", "szlavonia"],
                                     "tiszahat": ["delvidek", "pannonia"]}
    text = "NEUTRAL doboka cav\nNEUTRAL hunyad arch\nNEUTRAL szeben inf\n"
    parsed = RULESET.parse(s, "felvidek", text + "NEUTRAL arad cav\n")
    assert [ln.ok for ln in parsed.lines] == [True, True, True, False]
    out = run_step(s, {"felvidek": text, "tiszahat": ""}, None)
    st = out.state
    assert units_in(st, "doboka") == army(cav=1) and units_in(st, "szeben") == army(inf=1)
    assert st["board"]["hunyad"]["owner"] == "n_erdely"
