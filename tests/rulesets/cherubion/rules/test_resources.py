"""The BUILD window (spec §5.21.1 W7): Rulebook "A kártyalapok felépítése" says an instant
can stop an opponent from putting up a building. The MÉ is paid when the build or upgrade
is announced; every seat hostile to the builder may then answer with Építkezés
Megakadályozása (n30, an assumed card: the rulebook names none), by a standing
`WHEN BUILD` trigger, by `ask`, or pass (`auto`). A stopped build keeps its MÉ paid."""

from __future__ import annotations

from pbem.core.dice import ScriptedDice
from pbem.core.kit import OrderError
from pbem.rulesets.cherubion import RULESET
from pbem.rulesets.cherubion.rules.queries import board

from ..helpers import build, parse_line, place, play_turn, resource, set_turn, texts

STOP = {"event": "BUILD", "card": "n30", "caster": "ANY", "on": "ANY", "subject": "ANY",
        "over": 0}
DICE = [3, 4, 3, 4]  # beta's MÉ roll after alpha's turn (spare dice for safety)


def two(**kw):
    """alpha Choler (active, 5 MÉ) builds next to beta's Melan pieces; beta holds n30."""
    st = build({"alpha": "choler", "beta": "melan"}, {"alpha": 1, "beta": 4}, **kw)
    place(st, CH1="D10", ME8="D12", ME1="D13")
    st["players"]["beta"]["hand"] = ["n30"]
    st["players"]["beta"]["energy"] = 5
    set_turn(st, "alpha", me=5)
    return st


def test_the_card_is_an_instant_costing_5_and_outside_the_default_decks() -> None:
    from pbem.rulesets.cherubion import data
    c = data.card("n30")
    assert (c["type"], c["cost"], c["effect"]) == ("instant", 5, "stop_build")
    assert "assumption" in c["source"]
    assert all("n30" not in data.default_deck(t) for t in data.TEAMS)


def test_a_standing_trigger_stops_the_build_and_the_me_stays_paid() -> None:
    st = two()
    st["players"]["beta"]["triggers"] = [STOP]
    st, ev, _ = play_turn(st, "alpha", "BUILD small D10", DICE)
    t = texts(ev)
    assert "alpha pays 5 MÉ to build a resource on D10 (small)" in t
    assert "beta answers with Építkezés Megakadályozása" in t
    assert "alpha's small resource on D10 is stopped; the 5 MÉ stay paid" in t
    assert not st["resources"]
    assert st["players"]["beta"]["energy"] == 0
    assert "n30" in st["players"]["beta"]["grave"]


def test_without_a_trigger_auto_passes_and_the_resource_stands() -> None:
    st = two()
    st, ev, _ = play_turn(st, "alpha", "BUILD small D10", DICE)
    (r,) = st["resources"].values()
    assert (r["owner"], r["field"], r["size"]) == ("alpha", "D10", "small")
    assert st["players"]["beta"]["hand"] == ["n30"]


def test_ask_offers_the_stop_and_the_answer_applies() -> None:
    st = two(options={"decisions": "ask"})
    st, ev, _ = play_turn(st, "alpha", "BUILD small D10", [])
    asked = RULESET.awaiting(st)
    assert list(asked) == ["beta"]
    assert "PLAY n30 BY ME1" in asked["beta"].skeleton or \
        "PLAY n30 BY ME8" in asked["beta"].skeleton
    line = next(s for s in asked["beta"].skeleton if s.startswith("PLAY"))
    st, ev = RULESET.resolve(st, {"beta": RULESET.parse(st, "beta", line)},
                             ScriptedDice(DICE))
    assert not st["resources"]
    assert "is stopped" in texts(ev)


def test_ask_pass_lets_the_build_stand() -> None:
    st = two(options={"decisions": "ask"})
    st, ev, _ = play_turn(st, "alpha", "BUILD small D10", [])
    st, ev = RULESET.resolve(st, {"beta": RULESET.parse(st, "beta", "PASS")},
                             ScriptedDice(DICE))
    assert [r["field"] for r in st["resources"].values()] == ["D10"]


def test_the_builder_may_counter_the_stopping_card() -> None:
    """The answer goes on the stack and opens a CAST window; `ON ANY` fires for the seat
    whose build it answers."""
    st = two()
    st["players"]["beta"]["triggers"] = [STOP]
    st["players"]["alpha"]["hand"] = ["n04"]
    st["players"]["alpha"]["energy"] = 4
    st["players"]["alpha"]["triggers"] = [dict(STOP, event="CAST", card="n04",
                                               subject="n30")]
    st, ev, _ = play_turn(st, "alpha", "BUILD small D10", DICE)
    t = texts(ev)
    assert t.index("beta answers with Építkezés") < t.index("alpha answers with Ellenvarázs")
    assert "beta's Építkezés Megakadályozása is cancelled" in t
    assert [r["field"] for r in st["resources"].values()] == ["D10"]
    assert "n30" in st["players"]["beta"]["grave"] and "n04" in st["players"]["alpha"]["grave"]


def test_out_of_range_and_too_poor_for_x2_no_answer() -> None:
    st = two()
    b = board(st)
    far = max(b.fields, key=lambda f: min(b.distance(f, "D10"), 99))
    assert b.distance(far, "D10") > 5  # Melan card range is 5; a neutral card's is 4
    place(st, ME8=far, ME1=far)
    st["players"]["beta"]["triggers"] = [STOP]
    st, ev, _ = play_turn(st, "alpha", "BUILD small D10", DICE)
    assert [r["field"] for r in st["resources"].values()] == ["D10"]
    assert st["players"]["beta"]["hand"] == ["n30"]


def test_a_stopped_upgrade_keeps_the_old_size() -> None:
    st = two()
    rid = resource(st, "alpha", "D10", "small")
    place(st, CH2="D10")  # a medium resource needs 2 pieces on the board
    st["players"]["alpha"]["me"] = 7
    st["players"]["beta"]["triggers"] = [STOP]
    st, ev, _ = play_turn(st, "alpha", "UPGRADE D10 medium", DICE)
    assert st["resources"][rid]["size"] == "small"
    assert "alpha pays 7 MÉ to upgrade the resource on D10 (medium)" in texts(ev)
    assert "n30" in st["players"]["beta"]["grave"]


def test_an_ally_is_not_offered_the_window() -> None:
    st = two()
    st["players"]["alpha"]["allies"] = ["beta"]
    st["players"]["beta"]["allies"] = ["alpha"]
    st["players"]["beta"]["triggers"] = [STOP]
    st, ev, _ = play_turn(st, "alpha", "BUILD small D10", DICE)
    assert [r["field"] for r in st["resources"].values()] == ["D10"]


def test_when_build_parses_and_rejects_on() -> None:
    w = parse_line("amikor epites PLAY Epitkezes Megakadalyozasa BY ANY", 6)
    assert str(w) == "WHEN BUILD PLAY n30 BY ANY"
    try:
        parse_line("WHEN BUILD ON ME1 PLAY n30 BY ANY", 6)
    except OrderError as e:
        assert "takes no ON" in str(e)
    else:
        raise AssertionError("ON after WHEN BUILD must be refused")
