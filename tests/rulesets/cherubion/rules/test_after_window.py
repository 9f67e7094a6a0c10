"""The AFTER window (gap: instants in another player's turn): Rulebook "A kártyalapok
felépítése" says instant cards may be played at any time; spec §5.21.2 lets any seat
answer. When a card played openly leaves a permanent card or a binding status
(asleep/immobile/bound) on a piece, every other seat may answer with Kötés Oldása
(unbinds) or Maradandóság Feloldása (removes the permanent card) right after it resolves,
by a standing `WHEN AFTER` trigger, by `ask`, or pass (`auto`)."""

from __future__ import annotations

import json

from pbem.core.dice import ScriptedDice
from pbem.core.engine import canonical_json
from pbem.rulesets.cherubion import RULESET

from ..helpers import asked, build, parse_line, place, play_turn, set_turn, texts


def two(**kw):
    """alpha Choler (active) nets beta's Melan piece ME8 with Hálódobás."""
    st = build({"alpha": "choler", "beta": "melan"}, {"alpha": 1, "beta": 4}, **kw)
    place(st, CH1="D10", ME8="D12", ME1="D13")
    st["players"]["alpha"]["hand"] = ["n20"]
    st["players"]["beta"]["hand"] = ["n24"]
    st["players"]["beta"]["energy"] = 3
    set_turn(st, "alpha", energy=12)
    return st


D = [1, 2, 3, 4, 1, 2, 3, 4]


def trig(card: str, on: str = "ANY", subject: str = "ANY") -> dict:
    return {"event": "AFTER", "card": card, "caster": "ANY", "on": on, "subject": subject,
            "over": 0}


def test_when_after_parses_and_prints() -> None:
    w = parse_line("WHEN AFTER Hálódobás ON ME8 PLAY Kötés Oldása BY ANY", 6)
    assert str(w) == "WHEN AFTER n20 ON ME8 PLAY n24 BY ANY"


def test_unbinding_in_the_enemy_turn_frees_the_netted_piece() -> None:
    st = two()
    st["players"]["beta"]["triggers"] = [trig("n24")]
    st, ev, _ = play_turn(st, "alpha", "PLAY Halodobas BY CH1 ON ME8", D)
    assert "beta answers with Kötés Oldása" in texts(ev)
    assert st["pieces"]["ME8"]["status"] == {}
    assert st["players"]["beta"]["energy"] == 0  # cost 3 paid in alpha's turn
    assert "n24" in st["players"]["beta"]["grave"]


def test_auto_passes_without_a_trigger() -> None:
    st = two()
    st, ev, _ = play_turn(st, "alpha", "PLAY Halodobas BY CH1 ON ME8", D)
    assert "bound" in st["pieces"]["ME8"]["status"]
    assert st["players"]["beta"]["hand"] == ["n24"]


def test_ask_offers_the_unbinding_and_the_answer_applies() -> None:
    st = two(options={"decisions": "ask"})
    st, ev, _ = play_turn(st, "alpha", "PLAY Halodobas BY CH1 ON ME8", D)
    # the stored step: the answer must land on the window after a JSON round trip
    st = RULESET.load(json.loads(canonical_json(RULESET.dump(st))))
    asked = RULESET.awaiting(st)
    assert list(asked) == ["beta"]
    line = next(s for s in asked["beta"].skeleton if s.startswith("PLAY"))
    st, ev = RULESET.resolve(st, {"beta": RULESET.parse(st, "beta", line)}, ScriptedDice(D))
    assert st["pieces"]["ME8"]["status"] == {}
    assert "n24" in st["players"]["beta"]["grave"]


def test_ask_pass_keeps_the_net() -> None:
    st = two(options={"decisions": "ask"})
    st, ev, _ = play_turn(st, "alpha", "PLAY Halodobas BY CH1 ON ME8", D)
    st, ev = RULESET.resolve(st, {"beta": RULESET.parse(st, "beta", "PASS")}, ScriptedDice(D))
    assert "bound" in st["pieces"]["ME8"]["status"]


def test_no_answer_no_question_unless_blind() -> None:
    st = two(options={"decisions": "ask"})
    st["players"]["beta"]["hand"] = []
    st, ev, _ = play_turn(st, "alpha", "PLAY Halodobas BY CH1 ON ME8", D)
    assert not asked(st)  # beta is awaited for its own turn, not asked
    st = two(options={"decisions": "ask", "ask_blind": True})
    st["players"]["beta"]["hand"] = []
    st, ev, _ = play_turn(st, "alpha", "PLAY Halodobas BY CH1 ON ME8", D)
    assert asked(st)["seat"] == "beta" and asked(st)["event"] == "CAST"
    st, ev = RULESET.resolve(st, {"beta": RULESET.parse(st, "beta", "PASS")}, ScriptedDice(D))
    assert asked(st)["seat"] == "beta" and asked(st)["event"] == "AFTER"
    assert asked(st)["options"] == []


def test_dispel_permanence_removes_a_fresh_permanent_in_the_enemy_turn() -> None:
    """alpha enchants his own CH1 with Éj Pajzsa (permanent, +VSZ); beta, holding
    Maradandóság Feloldása (cost 5), removes it at once with `WHEN AFTER ... ON ALL`."""
    st = two()
    st["players"]["alpha"]["hand"] = ["n12"]
    st["players"]["beta"]["hand"] = ["n23"]
    st["players"]["beta"]["energy"] = 5
    st["players"]["beta"]["triggers"] = [trig("n23", "ALL", "n12")]
    st, ev, _ = play_turn(st, "alpha", "PLAY Ej Pajzsa BY CH1 ON CH1", D)
    assert "beta answers with Maradandóság Feloldása" in texts(ev)
    assert st["pieces"]["CH1"]["attached"] == []
    assert "n12" in st["players"]["alpha"]["grave"]
    assert "n23" in st["players"]["beta"]["grave"]
    assert st["players"]["beta"]["energy"] == 0


def test_on_any_does_not_fire_for_another_players_piece() -> None:
    st = two()
    st["players"]["alpha"]["hand"] = ["n12"]
    st["players"]["beta"]["hand"] = ["n23"]
    st["players"]["beta"]["energy"] = 5
    st["players"]["beta"]["triggers"] = [trig("n23")]
    st, ev, _ = play_turn(st, "alpha", "PLAY Ej Pajzsa BY CH1 ON CH1", D)
    assert len(st["pieces"]["CH1"]["attached"]) == 1
    assert st["players"]["beta"]["hand"] == ["n23"]


def test_the_answer_can_itself_be_countered() -> None:
    """The unbinding goes on the stack and opens a CAST window: alpha counters it with
    Ellenvarázs, and the net holds."""
    st = two()
    st["players"]["alpha"]["hand"] = ["n20", "n04"]
    st["players"]["alpha"]["triggers"] = [
        {"event": "CAST", "card": "n04", "caster": "ANY", "on": "ALL", "subject": "n24",
         "over": 0}]
    st["players"]["beta"]["triggers"] = [trig("n24")]
    st, ev, _ = play_turn(st, "alpha", "PLAY Halodobas BY CH1 ON ME8", D)
    assert "alpha answers with Ellenvarázs" in texts(ev)
    assert "bound" in st["pieces"]["ME8"]["status"]
    assert "n24" in st["players"]["beta"]["grave"]
