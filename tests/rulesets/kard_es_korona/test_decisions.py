"""Decisions inside a resolution (`ctx.decide`): with decisions=ask a battle's player sides
without standing battle lines are asked for a FIGHT line, a defeated lord for his oath,
the Palatine for a tie; with movement=strict a player whose step list ran out is asked for
his next step; sealed bids are always asked. Answers replay the dice already drawn."""

from __future__ import annotations

from pbem.core.kit import Log
from pbem.rulesets.kard_es_korona.rules.elections import start_election

from .helpers import RULESET, bare, lord, put, run_step, standing, units_in


def _lord_battle(**options):
    s = bare(("felvidek", "tiszahat"), decisions="ask", **options)
    put(s, "gomor", "felvidek", inf=3)
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "gomor")
    put(s, "borsod", "tiszahat", inf=1)
    put(s, "abauj", "tiszahat", inf=2)
    lord(s, "tiszahat", "borsod")
    return s


def test_battle_instructions_and_the_oath_are_asked_and_replayed():
    s = _lord_battle()
    out = run_step(s, {"felvidek": "MOVE TO borsod FROM gomor 2 inf lord\nPASS",
                       "tiszahat": "PASS"}, [])
    assert set(out.awaiting) == {"felvidek", "tiszahat"}
    prompt = out.awaiting["tiszahat"]
    assert prompt.text.startswith("Open battle at Borsod: felvidek attacks with 2 inf, lord "
                                  "against tiszahat 1 inf, lord.")
    assert "FIGHT" in prompt.text and "REROLL" not in prompt.text  # no Judge Royal
    assert prompt.skeleton == ("FIGHT LEAD arch cav inf TARGET cav arch inf",)
    assert RULESET.phase_label(out.state).endswith("battle phase, battle instructions")
    # felvidek leads his infantry (+1) in this battle; tiszahat sends nothing (default)
    out2 = run_step(out.state, {"felvidek": "FIGHT LEAD inf"}, [6, 6, 1])
    assert "round 1 melee: felvidek rolls [6+1 6+1], kills 1 infantry." in \
        [e.text for e in out2.events]
    assert list(out2.awaiting) == ["tiszahat"]
    assert "OATH YES" in out2.awaiting["tiszahat"].text
    assert "lead" not in out2.state["players"]["felvidek"]["standing"]  # a one-off answer
    out3 = run_step(out2.state, {"tiszahat": "OATH NO"}, [])
    assert out3.state["players"]["tiszahat"]["status"] == "out"
    assert out3.result is not None and out3.result.winners == ("felvidek",)


def test_standing_battle_lines_skip_the_question():
    s = _lord_battle()
    standing(s, "tiszahat", "LEAD all inf")
    standing(s, "felvidek", "FEALTY NO")
    out = run_step(s, {"felvidek": "MOVE TO borsod FROM gomor 2 inf lord\nPASS",
                       "tiszahat": "PASS\nFEALTY YES"}, [])
    assert list(out.awaiting) == ["felvidek"]  # only the side without standing lines


def test_a_fight_line_chooses_the_retreat_for_one_battle():
    s = bare(("felvidek", "erdely"), decisions="ask")
    put(s, "heves", "royal", inf=1, arch=1)
    put(s, "nograd", "erdely", inf=1, cav=2, arch=2)  # the default would choose Nógrád
    put(s, "pest", "erdely", cav=1, arch=1)
    put(s, "kolozs", "erdely", inf=1)
    lord(s, "erdely", "kolozs")
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    out = run_step(s, {"erdely": "MOVE TO heves FROM nograd 1 inf 2 cav; pest 1 cav\nPASS",
                       "felvidek": "PASS"}, [])
    assert list(out.awaiting) == ["erdely"]  # royal troops are never asked
    # the castle archer kills the infantry: the siege fails; then the event card of 1303
    out2 = run_step(out.state, {"erdely": "FIGHT RETREAT pest"}, [4, 0])
    assert units_in(out2.state, "pest") == {"cav": 3, "inf": 0, "arch": 1}
    assert units_in(out2.state, "nograd") == {"cav": 0, "inf": 0, "arch": 2}
    assert "retreat" not in out2.state["players"]["erdely"]["standing"]


def _tied_palatine_election(decisions):
    s = bare(("felvidek", "tiszahat", "erdely"), year=1306, decisions=decisions)
    for seat, c in (("felvidek", "trencsen"), ("tiszahat", "abauj"), ("erdely", "kolozs")):
        put(s, c, seat, inf=2)
        lord(s, seat, c)
        s["players"][seat]["treasury"] = 20
    s["elections_held"] = 1
    s["offices"]["palatine"] = "erdely"
    start_election(s, Log())
    s["phase"] = "bid"
    return s


BIDS = {"felvidek": "BID judge 6", "tiszahat": "BID judge 6", "erdely": "BID judge 2"}


def test_the_palatine_is_asked_to_break_a_tie():
    """Rulebook p. 12: from the second election the Palatine decides between tied bidders
    (himself included). decisions=ask and no standing PREFER: he is asked; nothing is paid
    before his choice."""
    s = _tied_palatine_election("ask")
    out = run_step(s, BIDS, [])
    assert list(out.awaiting) == ["erdely"]
    assert "felvidek" in out.awaiting["erdely"].text and "tiszahat" in out.awaiting["erdely"].text
    assert out.awaiting["erdely"].options == ("CHOOSE felvidek", "CHOOSE tiszahat")
    assert out.state["players"]["felvidek"]["treasury"] == 20
    assert RULESET.view(out.state, "felvidek")["players"]["erdely"]["treasury"] == 20
    assert "Tie for Judge Royal (Országbíró) between felvidek, tiszahat: the Palatine erdely " \
        "chooses." in [e.text for e in out.events]
    out2 = run_step(out.state, {"erdely": "CHOOSE tiszahat"}, [])
    st = out2.state
    assert st["offices"]["judge"] == "tiszahat"
    assert [st["players"][x]["treasury"] for x in ("tiszahat", "felvidek", "erdely")] == \
        [14, 17, 18]  # the loser of the tie gets half of 6 back
    assert st["phase"] == "bid" and sorted(out2.awaiting) == ["erdely", "felvidek", "tiszahat"]
    assert "prefer" not in st["players"]["erdely"]["standing"]  # a one-off answer


def test_auto_mode_and_a_standing_prefer_do_not_ask_the_palatine():
    s = _tied_palatine_election("auto")
    out = run_step(s, BIDS, [])
    assert out.state["offices"]["judge"] == "felvidek"  # default: first tied in turn order
    s = _tied_palatine_election("ask")
    standing(s, "erdely", "PREFER tiszahat felvidek")
    out = run_step(s, BIDS, [])
    assert out.state["offices"]["judge"] == "tiszahat" and "erdely" in out.awaiting


def test_later_auctions_ask_only_the_seats_without_a_pre_bid():
    s = bare(("felvidek", "tiszahat"), year=1303)
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    put(s, "abauj", "tiszahat", inf=1)
    lord(s, "tiszahat", "abauj")
    s["players"]["felvidek"]["treasury"] = 20
    s["players"]["tiszahat"]["treasury"] = 20
    out = run_step(s, {"felvidek": "BID judge 5\nBID treasurer 2\nBID palatine 9 IF WON judge\n"
                                   "BID palatine 1\nPASS",
                       "tiszahat": "BID judge 4\nBID treasurer 3\nPASS"}, [])
    # tiszahat sent no palatine bid: only he is asked, felvidek's conditional pre-bid waits
    assert out.state["phase"] == "bid" and list(out.awaiting) == ["tiszahat"]
    assert out.state["offices"]["judge"] == "felvidek"
    assert out.state["offices"]["treasurer"] == "tiszahat"
    assert RULESET.phase_label(out.state).endswith("election, palatine")
    out2 = run_step(out.state, {"tiszahat": "BID palatine 8"}, [0])  # then the card of 1304
    assert out2.state["offices"]["palatine"] == "felvidek"  # 9 (he won the judge) beats 8
    assert out2.state["year"] == 1304


def test_strict_movement_asks_for_the_next_step_and_hides_moved_units():
    s = bare(("felvidek", "tiszahat"), movement="strict")
    put(s, "trencsen", "felvidek", inf=2, arch=1)
    put(s, "nyitra", "felvidek", inf=1)
    lord(s, "felvidek", "nyitra")
    put(s, "abauj", "tiszahat", inf=1)
    lord(s, "tiszahat", "abauj")
    out = run_step(s, {"felvidek": "MOVE TO nyitra FROM trencsen 1 inf", "tiszahat": "PASS"}, [])
    assert list(out.awaiting) == ["felvidek"]
    assert "next step" in out.awaiting["felvidek"].text
    mine = RULESET.board_text(RULESET.view(out.state, "felvidek"))
    line = next(x for x in mine.splitlines() if x.strip().startswith("Nyitra"))
    assert "felvidek 2i (moved this year: 1i)" in line
    theirs = RULESET.board_text(RULESET.view(out.state, "tiszahat"))
    assert "moved this year" not in theirs and "+1 face down" in theirs
    out2 = run_step(out.state, {"felvidek": "MOVE TO bars FROM trencsen 1 arch"}, [])
    assert units_in(out2.state, "bars")["arch"] == 1 and list(out2.awaiting) == ["felvidek"]
    out3 = run_step(out2.state, {"felvidek": "PASS"}, [3])  # the card of 1303
    assert out3.state["year"] == 1303
