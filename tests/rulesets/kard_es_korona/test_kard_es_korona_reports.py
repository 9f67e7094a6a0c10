"""What a player needs to play from the report alone (RULESET-DONE 5): the text board names
every county's neighbours and wide rivers (the MP costs of MOVE depend on them), a captive
lord's deadline reads as a deadline, and the year-orders skeleton says what may be sent now
(no recruitment in 1301, the ransom, the cavalry caps, pre-bids in an election year)."""

from __future__ import annotations

from kek_helpers import RULESET, bare, lord, put

from pbem.rulesets.kard_es_korona.view import board_text


def _text(state, seat=None):
    return board_text(RULESET.view(state, seat))


def test_board_text_lists_neighbours_and_rivers():
    s = bare(("felvidek", "tiszahat"))
    put(s, "pozsony", "felvidek", inf=2)
    lord(s, "felvidek", "pozsony")
    text = _text(s, "felvidek")
    line = next(x for x in text.splitlines() if x.strip().startswith("Pozsony"))
    # basic map data: Pozsony borders Győr and Moson across the Duna, Nyitra by land
    assert "borders Győr (Duna), Moson (Duna), Nyitra" in line
    assert "MP" in text and "mountain" in text  # the movement-cost legend


def test_captive_line_reads_as_a_deadline():
    s = bare(("felvidek", "tiszahat"), year=1302)
    put(s, "abauj", "tiszahat", inf=2)
    s["players"]["tiszahat"]["status"] = "captive"
    s["players"]["tiszahat"]["captive_until"] = 1304
    text = _text(s, "tiszahat")
    assert "captive until" not in text
    assert "captive: dies at the start of 1304 unless ransomed (RANSOM, 20 garas)" in text


def _skeleton(state, seat):
    return "\n".join(RULESET.awaiting(state)[seat].skeleton)


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
    s["quota"] = 4  # rulebook p. 15: in the 4th year 4 new cavalry in all
    put(s, "pozsony", "felvidek", inf=2)
    sk = _skeleton(s, "felvidek")
    assert "cavalry: at most 3 per castle; 4 new cavalry in all players' recruitment this " \
        "year (at least 1 for you)" in sk


def test_battle_question_describes_the_battle():
    from kek_helpers import step

    from pbem.core.dice import ScriptedDice
    from pbem.rulesets.kard_es_korona.battles import run_battles
    s = bare(("felvidek", "tiszahat"), decisions="ask")
    put(s, "gomor", "felvidek", inf=3)
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "gomor")
    put(s, "borsod", "tiszahat", inf=1, arch=1)
    put(s, "abauj", "tiszahat", inf=2)
    lord(s, "tiszahat", "abauj")
    assert step(s, "felvidek", "MOVE TO borsod FROM gomor 2 inf lord")[0] == ""
    assert run_battles(s, ScriptedDice([]), [], lambda: False) == "ask"
    s["phase"] = "ask"
    prompt = RULESET.awaiting(s)["tiszahat"]
    assert prompt.text.startswith("Open battle at Borsod: felvidek attacks with 2 inf, lord "
                                  "against tiszahat 1 inf, 1 arch.")
    s["board"]["borsod"]["owner"] = "royal"
    assert "against royal troops 1 inf" in RULESET.awaiting(s)["felvidek"].text
    s["board"]["borsod"]["owner"] = "tiszahat"
    assert "LEAD all <arms>" in prompt.text and "TARGET all <arms>" in prompt.text
    assert "REROLL" not in prompt.text and "FLEE" not in prompt.text  # no judge, basic game
    assert "RETREAT" in prompt.text and "skeleton holds the defaults" in prompt.text
    assert prompt.skeleton == ("LEAD all arch cav inf", "TARGET all cav arch inf")
    s["offices"]["judge"] = "tiszahat"
    assert "REROLL <n>|NEVER" in RULESET.awaiting(s)["tiszahat"].text


def test_board_picture_has_a_colour_legend_full_names_and_no_overlaps():
    import re
    for version in ("basic", "advanced"):
        s = bare(("felvidek", "tiszahat", "erdely"), version=version)
        svg = RULESET.board_svg(RULESET.view(s, "erdely"))
        assert "tiszahat (Aba Amadé)" in svg and "white = empty" in svg
        assert ">Trencsén</text>" in svg and ">Szabolcs</text>" in svg
        circles = [(float(x), float(y)) for x, y in
                   re.findall(r'<circle cx="([\d.-]+)" cy="([\d.-]+)" r="13"', svg)]
        closest = min(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5
                      for i, a in enumerate(circles) for b in circles[i + 1:])
        assert closest >= 28, (version, closest)


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


def test_own_moved_units_are_marked_during_movement():
    """movement=strict: a player asked for his next step must see which of his units have
    already moved this year (each unit moves once, rulebook p. 8)."""
    from kek_helpers import step
    s = bare(("felvidek", "tiszahat"))
    put(s, "trencsen", "felvidek", inf=2, arch=1)
    put(s, "nyitra", "felvidek", inf=1)
    lord(s, "felvidek", "nyitra")
    assert step(s, "felvidek", "MOVE TO nyitra FROM trencsen 1 inf")[0] == ""
    s["stage"] = "movement"
    mine = _text(s, "felvidek")
    line = next(x for x in mine.splitlines() if x.strip().startswith("Nyitra"))
    assert "felvidek 2i (moved this year: 1i)" in line
    theirs = _text(s, "tiszahat")
    assert "moved this year" not in theirs and "+1 face down" in theirs
