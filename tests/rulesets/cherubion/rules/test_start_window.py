"""The START window: Rulebook "A kártyalapok felépítése" lets instants be played at any
time ("bármikor"), and permanent cards stay until a Maradandóság Feloldása or Kötés Oldása
removes them. As each turn begins, every seat but the one whose turn it is may remove
what a hostile player put on the board earlier (a status, a permanent card on a piece, a
gate, a Ménes) or heal a friendly piece: by a `WHEN START` trigger, by `ask` (only about
what is on its own pieces, once each), or pass (`auto`)."""

from __future__ import annotations

import json

from pbem.core.dice import ScriptedDice
from pbem.core.engine import canonical_json
from pbem.rulesets.cherubion import RULESET

from ..helpers import build, parse_line, place, play_turn, resource, set_turn, texts


def trig(card: str, on: str = "ANY") -> dict:
    return {"event": "START", "card": card, "caster": "ANY", "on": on, "subject": "ANY",
            "over": 0}


def bound_by(st: dict, pid: str, seat: str, turns: int = 1) -> None:
    """`seat` netted `pid` (Hálódobás) in an earlier turn."""
    p = st["pieces"][pid]
    p["status"]["bound"] = {"seat": p["owner"],
                            "until": st["players"][p["owner"]]["turns"] + turns,
                            "card": "n20", "owner": seat}


def timed_death(st: dict, pid: str, seat: str, due: int) -> None:
    st["pieces"][pid]["attached"].append({"card": "n29", "owner": seat, "mods": {},
                                          "grant": "", "due": due, "secret": True})


def two(**kw):
    """beta Melan is active (its turn about to end); alpha Choler's turn comes next."""
    st = build({"alpha": "choler", "beta": "melan"}, {"alpha": 1, "beta": 4}, **kw)
    place(st, CH1="D10", ME8="D12", ME1="D13")
    set_turn(st, "beta", energy=5)
    return st


def test_when_start_parses_and_prints() -> None:
    w = parse_line("WHEN START ON ANY PLAY Maradandosag Feloldasa BY ANY", 6)
    assert str(w) == "WHEN START ON ANY PLAY n23 BY ANY"
    assert str(parse_line("amikor kezdet on ME8 play Gyogyitas", 6)) == \
        "WHEN START ON ME8 PLAY n22 BY ANY"


def test_timed_death_spell_is_dispelled_just_before_it_strikes() -> None:
    """alpha's Időzített Halálvarázs on ME8 is due at the start of alpha's next turn; the
    START window comes before the start-of-turn ticks, so beta's trigger saves ME8."""
    st = two()
    timed_death(st, "ME8", "alpha", due=2)
    st["players"]["beta"]["hand"] = ["n23"]
    st["players"]["beta"]["triggers"] = [trig("n23")]
    st, ev, _ = play_turn(st, "beta", "", [3, 4])
    t = texts(ev)
    assert "beta answers with Maradandóság Feloldása" in t
    assert "strikes" not in t
    assert st["pieces"]["ME8"]["loc"] == "D12" and st["pieces"]["ME8"]["attached"] == []
    assert "n29" in st["players"]["alpha"]["grave"] and "n23" in st["players"]["beta"]["grave"]
    assert st["players"]["beta"]["energy"] == 0
    assert st["active"] == "alpha" and RULESET.awaiting(st).keys() == {"alpha"}


def test_without_the_window_the_timed_death_spell_kills() -> None:
    st = two()
    timed_death(st, "ME8", "alpha", due=2)
    st["players"]["beta"]["hand"] = ["n23"]
    st, ev, _ = play_turn(st, "beta", "", [3, 4])
    assert "Időzített Halálvarázs strikes" in texts(ev)
    assert st["pieces"]["ME8"]["loc"] == "gone"


def test_a_third_player_unbinds_his_piece_at_the_start_of_another_turn() -> None:
    """gamma's SA1 was netted by alpha earlier; as beta's turn begins gamma unbinds it (the
    net's card goes to alpha's graveyard, the answer to gamma's)."""
    st = build({"alpha": "choler", "beta": "melan", "gamma": "sang"},
               {"alpha": 1, "beta": 4, "gamma": 2})
    place(st, CH1="D10", ME8="D12", SA1="D11", SA2="D11")
    bound_by(st, "SA1", "alpha")  # a bound piece cannot cast: SA2 casts
    st["players"]["gamma"]["hand"] = ["n24"]
    st["players"]["gamma"]["energy"] = 3
    st["players"]["gamma"]["triggers"] = [trig("n24")]
    set_turn(st, "alpha", energy=0)
    st, ev, _ = play_turn(st, "alpha", "", [3, 4])
    t = texts(ev)
    assert "gamma answers with Kötés Oldása" in t
    assert t.index("gamma answers") < t.index("beta's turn. MÉ roll")
    assert st["pieces"]["SA1"]["status"] == {}
    assert "n20" in st["players"]["alpha"]["grave"] and "n24" in st["players"]["gamma"]["grave"]


def test_a_seat_that_answers_is_offered_again() -> None:
    """Two of beta's triggers fire in one START window: it is offered the window again
    after its first answer resolves."""
    st = two()
    bound_by(st, "ME8", "alpha", turns=3)
    timed_death(st, "ME1", "alpha", due=5)
    st["players"]["beta"]["hand"] = ["n23", "n24"]
    st["players"]["beta"]["energy"] = 8
    st["players"]["beta"]["triggers"] = [trig("n24", "ME8"), trig("n23")]
    st, ev, _ = play_turn(st, "beta", "", [3, 4])
    assert st["pieces"]["ME8"]["status"] == {}
    assert st["pieces"]["ME1"]["attached"] == []
    assert st["players"]["beta"]["energy"] == 0


def test_start_heal_by_trigger() -> None:
    st = two()
    st["pieces"]["ME8"]["ep"] = st["pieces"]["ME8"]["max_ep"] - 4
    st["players"]["beta"]["hand"] = ["n22"]
    st["players"]["beta"]["triggers"] = [trig("n22")]
    st, ev, _ = play_turn(st, "beta", "", [2, 3, 3, 4])  # heal 2d6 = 5, then alpha's MÉ
    assert st["pieces"]["ME8"]["ep"] == st["pieces"]["ME8"]["max_ep"]
    assert "alpha's turn. MÉ roll 3+4 = 7" in texts(ev)


def test_on_all_dispels_an_enemy_menes_but_never_a_friendly_permanent() -> None:
    st = two()
    st["players"]["alpha"]["herd"] = 1
    st["players"]["alpha"]["permanents"] = ["ot01"]
    st["pieces"]["ME8"]["attached"].append({"card": "n12", "owner": "beta", "mods": {"vsz": 3},
                                            "grant": ""})
    st["players"]["beta"]["hand"] = ["n23"]
    st["players"]["beta"]["triggers"] = [trig("n23", "ALL")]
    st, ev, _ = play_turn(st, "beta", "", [3, 4])
    assert st["players"]["alpha"]["herd"] == 0 and "ot01" in st["players"]["alpha"]["grave"]
    assert [a["card"] for a in st["pieces"]["ME8"]["attached"]] == ["n12"]
    assert "alpha's turn. MÉ roll 3+4 = 7" in texts(ev)  # no Ménes bonus any more


def test_on_any_leaves_an_enemy_gate_alone() -> None:
    st = two()
    st["markers"]["T1"] = {"id": "T1", "kind": "T", "field": "D11", "owner": "alpha",
                           "card": "n15", "hidden": False}
    st["players"]["beta"]["hand"] = ["n23"]
    st["players"]["beta"]["triggers"] = [trig("n23")]
    st, ev, _ = play_turn(st, "beta", "", [3, 4])
    assert "T1" in st["markers"]
    st2 = two()
    st2["markers"]["T1"] = dict(st["markers"]["T1"])
    st2["players"]["beta"]["hand"] = ["n23"]
    st2["players"]["beta"]["triggers"] = [trig("n23", "ALL")]
    st2, ev, _ = play_turn(st2, "beta", "", [3, 4])
    assert "T1" not in st2["markers"] and "Gate T1 closes" in texts(ev)


def test_ask_offers_removal_of_what_is_on_your_piece() -> None:
    st = two(options={"decisions": "ask"})
    bound_by(st, "ME8", "alpha", turns=5)
    st["players"]["beta"]["hand"] = ["n24"]
    st, ev, _ = play_turn(st, "beta", "", [])
    st = RULESET.load(json.loads(canonical_json(RULESET.dump(st))))
    asked = RULESET.awaiting(st)
    assert list(asked) == ["beta"]
    assert "Bound" in asked["beta"].text or "hostile card holds your" in asked["beta"].text
    assert "PLAY n24 BY ME1 ON ME8" in asked["beta"].skeleton or \
        "PLAY n24 BY ME8 ON ME8" in asked["beta"].skeleton
    line = next(s for s in asked["beta"].skeleton if s.startswith("PLAY"))
    st, ev = RULESET.resolve(st, {"beta": RULESET.parse(st, "beta", line)},
                             ScriptedDice([3, 4]))
    assert st["pieces"]["ME8"]["status"] == {}
    assert list(RULESET.awaiting(st)) == ["alpha"]
    assert "alpha's turn. MÉ roll 3+4 = 7" in texts(ev)


def test_ask_pass_declines_for_good_but_a_new_binding_asks_again() -> None:
    st = two(options={"decisions": "ask"})
    bound_by(st, "ME8", "alpha", turns=5)
    st["players"]["beta"]["hand"] = ["n24"]
    st, ev, _ = play_turn(st, "beta", "", [])
    assert list(RULESET.awaiting(st)) == ["beta"]
    st, ev = RULESET.resolve(st, {"beta": RULESET.parse(st, "beta", "PASS")},
                             ScriptedDice([3, 4]))
    assert "bound" in st["pieces"]["ME8"]["status"]
    # alpha's turn, then beta's, then alpha's again: beta is not asked again
    st, ev, _ = play_turn(st, "alpha", "", [1, 2, 1, 2, 1, 2])
    st, ev, _ = play_turn(st, "beta", "", [1, 2, 1, 2])
    assert list(RULESET.awaiting(st)) == ["alpha"]
    # something new on ME1 is a new question
    timed_death(st, "ME1", "alpha", due=9)
    resource(st, "beta", "H10")  # energy for beta's next turn, left over for alpha's
    st, ev, _ = play_turn(st, "alpha", "", [1, 2])
    st, ev, _ = play_turn(st, "beta", "", [])
    assert list(RULESET.awaiting(st)) == ["beta"]


def test_ask_never_about_things_on_other_pieces_and_blind_asks_without_a_card() -> None:
    st = two(options={"decisions": "ask"})
    st["players"]["alpha"]["herd"] = 1
    st["players"]["alpha"]["permanents"] = ["ot01"]
    st["players"]["beta"]["hand"] = ["n23"]
    st, ev, _ = play_turn(st, "beta", "", [3, 4])
    assert list(RULESET.awaiting(st)) == ["alpha"]  # an enemy Ménes: triggers only
    st = two(options={"decisions": "ask", "ask_blind": True})
    bound_by(st, "ME8", "alpha", turns=5)
    st, ev, _ = play_turn(st, "beta", "", [])
    asked = RULESET.awaiting(st)
    assert list(asked) == ["beta"] and asked["beta"].skeleton == ("PASS",)


def test_declined_keys_hide_a_face_down_card() -> None:
    st = two(options={"decisions": "ask", "ask_blind": True})
    timed_death(st, "ME8", "alpha", due=9)
    st, ev, _ = play_turn(st, "beta", "", [])
    st, ev = RULESET.resolve(st, {"beta": RULESET.parse(st, "beta", "PASS")},
                             ScriptedDice([3, 4]))
    assert "n29" not in json.dumps(RULESET.view(st, "beta"))


def test_menes_can_be_dispelled_in_your_own_turn_too() -> None:
    """Maradandóság Feloldása on a player removes his Ménes (its range: to the nearest of
    his pieces)."""
    st = two()
    st["players"]["alpha"]["herd"] = 1
    st["players"]["alpha"]["permanents"] = ["ot01"]
    st["players"]["beta"]["hand"] = ["n23"]
    st, ev, _ = play_turn(st, "beta", "PLAY Maradandosag Feloldasa BY ME1 ON alpha", [3, 4])
    assert "alpha's Ménes is dispelled" in texts(ev)
    assert st["players"]["alpha"]["herd"] == 0


def test_an_asked_counter_to_a_start_answer_lands_on_the_stack() -> None:
    """beta's START trigger unbinds ME8; alpha (whose turn begins) is asked whether to
    counter it, and does: the unbinding is cancelled (a regression: the answer once
    crashed looking for alpha among the START window's seats)."""
    st = two(options={"decisions": "ask"})
    bound_by(st, "ME8", "alpha", turns=5)
    st["players"]["beta"]["hand"] = ["n24"]
    st["players"]["beta"]["triggers"] = [trig("n24")]
    st["players"]["alpha"]["hand"] = ["n04"]
    st["players"]["alpha"]["energy"] = 4
    place(st, CH1="D11")
    st, ev, _ = play_turn(st, "beta", "", [])
    asked = RULESET.awaiting(st)
    assert list(asked) == ["alpha"] and asked["alpha"].skeleton[0].startswith("PLAY n04")
    st, ev = RULESET.resolve(st, {"alpha": RULESET.parse(st, "alpha", asked["alpha"].skeleton[0])},
                             ScriptedDice([3, 4]))
    assert "beta's Kötés Oldása is cancelled" in texts(ev)
    assert "bound" in st["pieces"]["ME8"]["status"]
    assert list(RULESET.awaiting(st)) == ["alpha"]
