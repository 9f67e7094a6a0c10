"""`ask` steps for the free attacks on a fleeing piece (spec DP8) and for the deck to scry
(spec DP4): asked only with decisions=ask and no standing order; the answer becomes the
standing order; PASS (and NMR) is the `auto` default."""

from __future__ import annotations

from pbem.core.dice import ScriptedDice
from pbem.rulesets.cherubion import RULESET

from .helpers import asked, build, place, play_turn, set_turn, texts


def two(**kw):
    return build({"alpha": "melan", "beta": "choler"}, {"alpha": 4, "beta": 1},
                 options={"decisions": "ask"}, **kw)


def _flee() -> dict:
    st = two()
    place(st, ME8="H5", CH8="H5", CH2="H5", ME1="K8")
    set_turn(st, "alpha", me=1)
    st, ev, _ = play_turn(st, "alpha", "FLEE ME8 H4", [])
    return st


def test_free_attack_asks_the_engaged_seat_and_no_means_no() -> None:
    st = _flee()
    asked = RULESET.awaiting(st)
    assert list(asked) == ["beta"]
    assert asked["beta"].skeleton == ("FREEATTACK YES", "FREEATTACK NO", "PASS")
    assert st["pieces"]["ME8"]["loc"] == "H5"  # the flight waits for the answer
    st, ev = RULESET.resolve(st, {"beta": RULESET.parse(st, "beta", "FREEATTACK NO")},
                             ScriptedDice([1, 2]))
    assert "Free attack:" not in texts(ev)
    assert st["pieces"]["ME8"]["loc"] == "H4" and st["pieces"]["ME8"]["ep"] == 16
    assert st["players"]["beta"]["standing"]["freeattack"] is False


def test_free_attack_pass_takes_them_as_the_auto_default() -> None:
    """TC-28's numbers: zombie hits for 1+4, xinaf for 1+2+4 (both at +10 TK, +4 dmg)."""
    st = _flee()
    nmr = RULESET.default_orders(st, "beta")
    assert nmr.canonical() == "PASS\n"
    st, ev = RULESET.resolve(st, {"beta": nmr}, ScriptedDice([1, 1, 1, 1, 1, 1, 1, 2]))
    t = texts(ev)
    assert "Free attack: Zombie (CH8) rolls 1+1, 30+2=32" in t
    assert "Free attack: Xinaf (CH2) rolls 1+1, 35+2=37" in t
    assert st["pieces"]["ME8"]["ep"] == 16 - 5 - 7 and st["pieces"]["ME8"]["loc"] == "H4"
    assert "freeattack" not in st["players"]["beta"]["standing"]


def test_free_attack_standing_order_means_no_question() -> None:
    st = two()
    place(st, ME8="H5", CH8="H5", CH2="H5", ME1="K8")
    st["players"]["beta"]["standing"]["freeattack"] = True
    set_turn(st, "alpha", me=1)
    st, ev, _ = play_turn(st, "alpha", "FLEE ME8 H4", [1, 1, 1, 1, 1, 1, 1, 2])
    assert asked(st) is None and st["pieces"]["ME8"]["ep"] == 4


def _scry_state() -> dict:
    st = build({"alpha": "melan", "beta": "choler", "gamma": "sang"},
               {"alpha": 4, "beta": 1, "gamma": 2}, options={"decisions": "ask"})
    place(st, CH8="G12")  # beta holds SCRY
    st["players"]["alpha"]["deck"] = ["n01", "n02", "n03"]
    st["players"]["gamma"]["deck"] = ["n04", "n05"]
    set_turn(st, "alpha")
    return st


def test_scry_asks_whose_deck_and_the_answer_stays() -> None:
    st = _scry_state()
    st, ev, _ = play_turn(st, "alpha", "", [1, 2])  # alpha's empty turn; beta's starts
    asked = RULESET.awaiting(st)
    assert list(asked) == ["beta"]
    assert asked["beta"].skeleton == ("SCRY gamma", "SCRY alpha", "PASS")
    assert st["players"]["beta"]["me"] == 0  # the MÉ is rolled after the answer
    st, ev = RULESET.resolve(st, {"beta": RULESET.parse(st, "beta", "SCRY alpha")},
                             ScriptedDice([0, 3, 4]))
    seen = [e for e in ev if e.kind == "scry"]
    assert seen and seen[0].to == ("beta",) and "alpha's deck" in seen[0].text
    assert st["players"]["beta"]["standing"]["scry"] == "alpha"
    assert st["players"]["beta"]["me"] == 7 and list(RULESET.awaiting(st)) == ["beta"]


def test_scry_pass_looks_at_the_next_opponent() -> None:
    st = _scry_state()
    st, ev, _ = play_turn(st, "alpha", "", [1, 2])
    st, ev = RULESET.resolve(st, {"beta": RULESET.default_orders(st, "beta")},
                             ScriptedDice([0, 3, 4]))
    seen = [e for e in ev if e.kind == "scry"]
    assert seen and "gamma's deck" in seen[0].text
    assert "scry" not in st["players"]["beta"]["standing"]
