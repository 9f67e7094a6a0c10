"""rules/year.py: the traditional movement mode (6.5) and a year's order of phases."""

from __future__ import annotations

from .helpers import RULESET, bare, lord, put, run_step


def test_traditional_mode_moves_and_fights_player_by_player():
    s = bare(("felvidek", "tiszahat"), movement="traditional")
    put(s, "gomor", "felvidek", inf=3)
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    put(s, "borsod", "tiszahat", inf=1)
    put(s, "abauj", "tiszahat", inf=2)
    lord(s, "tiszahat", "abauj")
    out = run_step(s, {"felvidek": "MOVE TO borsod FROM gomor 3 inf",
                       "tiszahat": "MOVE TO borsod FROM abauj 1 inf"})
    texts = [e.text for e in out.events]
    # felvidek (start) moved and fought before tiszahat moved: Borsod was his by then
    i_battle = next(i for i, t in enumerate(texts) if t.startswith("Battle of Borsod"))
    i_skip = next(i for i, t in enumerate(texts) if "tiszahat" in t and "Borsod" in t
                  and "attacks" in t)
    assert i_battle < i_skip


def test_no_recruitment_in_the_first_year():
    s = bare(("felvidek", "tiszahat"), year=1301)
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    put(s, "abauj", "tiszahat", inf=1)
    lord(s, "tiszahat", "abauj")
    s["players"]["felvidek"]["treasury"] = 30
    parsed = RULESET.parse(s, "felvidek", "RECRUIT 1 inf IN trencsen\nPASS")
    assert parsed.lines[0].error == "no income and no recruitment in 1301 (rulebook p. 7)"
    out = run_step(s, {"felvidek": "RECRUIT 1 inf IN trencsen\nPASS", "tiszahat": "PASS"}, [6])
    assert "line 1: RECRUIT 1 inf IN trencsen -> refused: no income and no recruitment in " \
        "1301 (rulebook p. 7)" in [e.text for e in out.events]
    assert out.state["board"]["trencsen"]["units"]["inf"] == 1
