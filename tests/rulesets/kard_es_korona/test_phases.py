"""phases.py: what each step asks (the prompts and skeletons), the NMR defaults, and how a
line is judged on arrival."""

from __future__ import annotations

from pbem.core.dice import ScriptedDice
from pbem.core.ruleset import GameConfig

from .helpers import RULESET, asked, bare, lord, put


def _skeleton(state, seat):
    return "\n".join(RULESET.awaiting(state)[seat].skeleton)


def test_nmr_defaults_parse_cleanly():
    s = bare(("felvidek", "tiszahat"))
    for seat in s["seats"]:
        assert RULESET.default_orders(s, seat).ok
        assert RULESET.default_orders(s, seat).canonical() == "PASS\n"
    s["phase"] = "bid"
    s["election"] = {"office": 1, "declared": {}, "results": []}
    assert str(RULESET.default_orders(s, "felvidek").orders[0]) == "BID treasurer 0"
    d = RULESET.setup(GameConfig(("felvidek", "tiszahat"), "basic"), ScriptedDice([0]))
    assert RULESET.default_orders(d, "felvidek").canonical().startswith("DEPLOY pozsony ")


def test_lines_are_judged_against_the_step_and_the_position():
    s = bare(("felvidek", "tiszahat"))
    parsed = RULESET.parse(s, "felvidek", "BID judge 3\nPASS\nGIVE 3 TO felvidek\n")
    assert [ln.ok for ln in parsed.lines] == [False, True, False]
    assert "pre-bids are accepted only in election years" in parsed.lines[0].error
    assert parsed.lines[2].error == "you cannot give money to yourself"
    asked(s, "felvidek", "oath", "OATH YES")
    parsed = RULESET.parse(s, "felvidek", "PASS\nOATH NO\nFEALTY NO\n")
    assert "does not answer the question" in parsed.lines[0].error
    assert parsed.lines[1].ok and parsed.lines[2].ok  # a standing order is always welcome
    d = RULESET.setup(GameConfig(("felvidek", "tiszahat"), "basic"), ScriptedDice([0]))
    parsed = RULESET.parse(d, "felvidek", "DEPLOY abauj 2 inf\n")
    assert "not in your home province" in parsed.lines[0].error


def test_a_bid_answer_must_be_for_the_office_asked_and_within_the_treasury():
    s = bare(("felvidek", "tiszahat"), year=1303)
    s["players"]["felvidek"]["treasury"] = 8
    s["phase"] = "bid"
    s["election"] = {"office": 1, "declared": {}, "results": []}
    asked(s, "felvidek", "bid", "BID treasurer 0", office="treasurer")
    parsed = RULESET.parse(s, "felvidek", "BID judge 3\nBID treasurer 9\nBID treasurer 8\n")
    assert parsed.lines[0].error.startswith("this auction is for treasurer, not judge")
    assert parsed.lines[1].error.startswith("you have only 8 garas; bid 0 to 8")
    assert parsed.lines[2].ok


def test_skeleton_of_the_first_year_says_no_recruitment():
    s = bare(("felvidek", "tiszahat"), year=1301)
    put(s, "pozsony", "felvidek", inf=2)
    sk = _skeleton(s, "felvidek")
    assert "no income and no recruitment in 1301" in sk
    assert "RECRUIT <n>" not in sk


def test_skeleton_names_ransom_caps_and_prebids():
    s = bare(("felvidek", "tiszahat"), year=1303)
    put(s, "abauj", "tiszahat", inf=2)
    put(s, "pozsony", "felvidek", inf=2)
    lord(s, "felvidek", "pozsony")
    s["players"]["tiszahat"]["status"] = "captive"
    s["players"]["tiszahat"]["captive_until"] = 1304
    s["players"]["tiszahat"]["treasury"] = 25
    sk = _skeleton(s, "tiszahat")
    assert "# your lord is captive: RANSOM <county with your units> (20 garas) before 1304" \
        in sk
    sk = _skeleton(s, "felvidek")
    assert "cavalry: at most 2 per castle and 4 in all this year" in sk
    assert "# election at the end of 1303: you may pre-bid here, e.g. BID judge 5" in sk


def test_skeleton_advanced_cavalry_quota():
    s = bare(("felvidek", "tiszahat"), version="advanced", year=1304)
    s["cavalry_quota"] = 4  # rulebook p. 15: in the 4th year 4 new cavalry in all
    put(s, "pozsony", "felvidek", inf=2)
    sk = _skeleton(s, "felvidek")
    assert "cavalry: at most 3 per castle; 4 new cavalry in all players' recruitment this " \
        "year (at least 1 for you)" in sk


def test_election_question_names_the_office_its_power_and_the_rules():
    s = bare(("felvidek", "tiszahat"), year=1303)
    put(s, "pozsony", "felvidek", inf=2)
    put(s, "abauj", "tiszahat", inf=2)
    s["players"]["felvidek"]["treasury"] = 14
    s["phase"] = "bid"
    s["election"] = {"office": 0, "declared": {"felvidek": 14, "tiszahat": 3}, "results": []}
    text = RULESET.awaiting(s)["felvidek"].text
    assert text.startswith("Election at the end of 1303, auction 1 of 3: Judge Royal "
                           "(Országbíró)")
    assert "reroll" in text and "0 to 14 garas" in text
    assert "every bid is paid" in text and "half" in text and "roll-off" in text
    s["election"]["office"] = 2
    s["elections_held"] = 1
    s["offices"]["palatine"] = "tiszahat"
    text = RULESET.awaiting(s)["felvidek"].text
    assert "Palatine (Nádor)" in text and "the Palatine tiszahat chooses" in text
