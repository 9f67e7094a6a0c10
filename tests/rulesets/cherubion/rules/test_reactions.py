"""Responses (spec §5.21.2): every seat with an instant, the energy and a caster in range
may answer, in turn order after the active seat (the active seat last); an answer goes on
a stack and may itself be answered; the top item resolves when all have passed on it.
Also the 0-ÉP heal by any player (Rulebook "Fegyveres harc"; spec §5.12)."""

from __future__ import annotations

from pbem.core.dice import ScriptedDice
from pbem.rulesets.cherubion import RULESET

from ..helpers import asked, build, captive, place, play_turn, set_turn, texts


def three(**kw):
    """alpha Choler (active), beta Melan, gamma Sang; turn order alpha, beta, gamma."""
    st = build({"alpha": "choler", "beta": "melan", "gamma": "sang"},
               {"alpha": 1, "beta": 4, "gamma": 2}, **kw)
    place(st, CH1="D10", ME8="D12", ME1="D13", SA1="D11")
    st["players"]["alpha"]["hand"] = ["ch03"]  # Halálos Átok
    set_turn(st, "alpha", energy=12)
    return st


def trig(event: str, card: str, on: str = "ANY", subject: str = "ANY") -> dict:
    return {"event": event, "card": card, "caster": "ANY", "on": on, "subject": subject,
            "over": 0}


def test_a_third_player_may_counter_with_on_all() -> None:
    st = three()
    st["players"]["gamma"]["hand"] = ["n04"]
    st["players"]["gamma"]["energy"] = 4
    st["players"]["gamma"]["triggers"] = [trig("CAST", "n04", "ALL", "ch03")]
    st, ev, _ = play_turn(st, "alpha", "PLAY Halalos Atok BY CH1 ON ME8", [1, 2])
    assert "gamma answers with Ellenvarázs" in texts(ev)
    assert st["pieces"]["ME8"]["loc"] == "D12"
    assert "n04" in st["players"]["gamma"]["grave"]


def test_on_any_is_only_for_windows_that_concern_the_seat() -> None:
    st = three()
    st["players"]["gamma"]["hand"] = ["n04"]
    st["players"]["gamma"]["energy"] = 4
    st["players"]["gamma"]["triggers"] = [trig("CAST", "n04")]
    st, ev, _ = play_turn(st, "alpha", "PLAY Halalos Atok BY CH1 ON ME8", [1, 2])
    assert st["pieces"]["ME8"]["loc"] == "gone"
    assert st["players"]["gamma"]["hand"] == ["n04"]


def test_priority_goes_in_turn_order_after_the_active_seat() -> None:
    st = three()
    for s in ("beta", "gamma"):
        st["players"][s]["hand"] = ["n04"]
        st["players"][s]["energy"] = 4
        st["players"][s]["triggers"] = [trig("CAST", "n04", "ALL", "ch03")]
    st, ev, _ = play_turn(st, "alpha", "PLAY Halalos Atok BY CH1 ON ME8", [1, 2])
    assert "beta answers with Ellenvarázs" in texts(ev)
    assert "gamma answers" not in texts(ev)  # the card was cancelled before its turn came
    assert st["players"]["gamma"]["hand"] == ["n04"]


def test_counter_to_a_counter_goes_on_the_stack() -> None:
    """beta counters the curse; alpha (the active seat, last in priority) counters the
    counter: the top resolves first, so beta's counter is cancelled and the curse kills."""
    st = three()
    st["players"]["alpha"]["hand"] = ["ch03", "n04"]
    st["players"]["alpha"]["energy"] = 16
    st["players"]["alpha"]["triggers"] = [trig("CAST", "n04", "ANY", "n04")]
    st["players"]["beta"]["hand"] = ["n04"]
    st["players"]["beta"]["energy"] = 4
    st["players"]["beta"]["triggers"] = [trig("CAST", "n04", "ANY", "ch03")]
    st, ev, _ = play_turn(st, "alpha", "PLAY Halalos Atok BY CH1 ON ME8", [1, 2])
    t = texts(ev)
    assert t.index("beta answers with Ellenvarázs") < t.index("alpha answers with Ellenvarázs")
    assert "beta's Ellenvarázs is cancelled" in t
    assert st["pieces"]["ME8"]["loc"] == "gone"
    assert "n04" in st["players"]["beta"]["grave"] and "n04" in st["players"]["alpha"]["grave"]


def test_ask_mode_asks_every_seat_that_can_answer_in_priority_order() -> None:
    st = three(options={"decisions": "ask"})
    for s in ("beta", "gamma"):
        st["players"][s]["hand"] = ["n04"]
        st["players"][s]["energy"] = 4
    st, ev, _ = play_turn(st, "alpha", "PLAY Halalos Atok BY CH1 ON ME8", [])
    assert list(RULESET.awaiting(st)) == ["beta"]
    st, ev = RULESET.resolve(st, {"beta": RULESET.parse(st, "beta", "PASS")}, ScriptedDice([]))
    asked = RULESET.awaiting(st)
    assert list(asked) == ["gamma"]
    assert "PLAY n04 BY SA1 ON CH1" in asked["gamma"].skeleton
    st, ev = RULESET.resolve(st, {"gamma": RULESET.parse(st, "gamma", "PLAY n04 BY SA1 ON CH1")},
                             ScriptedDice([]))
    # gamma's counter is on the stack; beta may answer it, but it has already used its turn
    # in this window for the curse; beta is offered the new window (it still holds n04)
    assert list(RULESET.awaiting(st)) == ["beta"]
    st, ev = RULESET.resolve(st, {"beta": RULESET.parse(st, "beta", "PASS")},
                             ScriptedDice([1, 2]))
    assert st["pieces"]["ME8"]["loc"] == "D12"
    assert "is cancelled" in texts(ev)


def test_a_third_player_may_play_eppenhogy_on_an_enemy_attacker() -> None:
    st = three()
    place(st, ME4="H12", CH2="H12", SA1="H13")
    st["players"]["gamma"]["hand"] = ["n05"]
    st["players"]["gamma"]["energy"] = 3
    st["players"]["gamma"]["triggers"] = [trig("DAMAGE", "n05", "ALL")]
    st, ev, _ = play_turn(st, "alpha", "ATTACK CH2 ME4", [4, 4, 4, 1, 1, 1, 2])
    assert "gamma answers with Éppenhogy" in texts(ev)
    assert st["pieces"]["ME4"]["ep"] == st["pieces"]["ME4"]["max_ep"] - 1


def test_any_player_may_heal_a_piece_at_zero() -> None:
    """Rulebook "Fegyveres harc": at exactly 0 ÉP a healing card may still be played on
    the piece that turn (no word on who); spec §5.12: any player."""
    st = three()
    st["pieces"]["ME8"]["ep"] = 0
    st["players"]["gamma"]["hand"] = ["n22"]
    st["players"]["gamma"]["energy"] = 3
    st["players"]["gamma"]["triggers"] = [trig("ZERO", "n22", "ALL")]
    st, ev, _ = play_turn(st, "alpha", "", [3, 4, 1, 2])
    assert "gamma answers with Gyógyítás" in texts(ev)
    assert st["pieces"]["ME8"]["loc"] == "D12" and st["pieces"]["ME8"]["ep"] == 7


def test_zero_heal_asks_an_unrelated_seat_holding_a_heal() -> None:
    st = three(options={"decisions": "ask"})
    st["pieces"]["ME8"]["ep"] = 0
    st["players"]["gamma"]["hand"] = ["n22"]
    st["players"]["gamma"]["energy"] = 3
    st, ev, _ = play_turn(st, "alpha", "", [])
    assert list(RULESET.awaiting(st)) == ["gamma"]


def _trap(st: dict, owner: str, card: str, field: str, uses: int) -> None:
    st["markers"]["N9"] = {"id": "N9", "kind": "N", "field": field, "owner": owner,
                           "card": card, "hidden": True, "uses": uses}


def _carry() -> dict:
    st = build({"alpha": "melan", "beta": "choler"}, {"alpha": 4, "beta": 1})
    place(st, ME5="K11", ME8="K11", ME9="K11")
    set_turn(st, "alpha", me=1)
    return st


def test_minefield_hits_the_carrier_and_its_passengers() -> None:
    """Spec §2.8 me04 Aknazár: every hostile piece that enters takes 2d6, three triggers;
    carried passengers enter the field too."""
    st = _carry()
    _trap(st, "beta", "me04", "K12", 3)
    st, ev, _ = play_turn(st, "alpha", "MOVE ME5 K12 WITH ME8 ME9",
                          [1, 1, 2, 2, 3, 3, 1, 2])
    assert [st["pieces"][x]["ep"] for x in ("ME5", "ME8", "ME9")] == [24 - 2, 16 - 4, 16 - 6]
    assert "N9" not in st["markers"] and "me04" in st["players"]["beta"]["grave"]


def test_pit_hits_only_the_first_piece_to_enter() -> None:
    """Spec §2.8 n21 Verem: the first hostile piece to enter (the carrier) takes 1d6."""
    st = _carry()
    _trap(st, "beta", "n21", "K12", 1)
    st, ev, _ = play_turn(st, "alpha", "MOVE ME5 K12 WITH ME8 ME9", [4, 1, 2])
    assert [st["pieces"][x]["ep"] for x in ("ME5", "ME8", "ME9")] == [20, 16, 16]


def test_a_hidden_piece_at_zero_is_offered_to_its_owner_only() -> None:
    st = three(options={"decisions": "ask"})
    st["pieces"]["ME8"]["ep"] = 0
    st["pieces"]["ME8"]["hidden"] = "N7"
    st["markers"]["N7"] = {"id": "N7", "kind": "N", "field": "D12", "owner": "beta",
                           "piece": "ME8", "hidden": True}
    st["players"]["gamma"]["hand"] = ["n22"]
    st["players"]["gamma"]["energy"] = 3
    st, ev, _ = play_turn(st, "alpha", "", [1, 2])
    assert asked(st) is None and st["pieces"]["ME8"]["loc"] == "gone"


def test_owner_heals_a_captive_body_at_zero_and_the_capture_is_cancelled() -> None:
    """Spec §5.12 [A]: a body at exactly 0 may still be healed by its owner this turn,
    which cancels the capture."""
    st = build({"alpha": "choler", "beta": "melan"}, {"alpha": 1, "beta": 4})
    place(st, CH2="H12", CH3="H12", ME8="H12", ME1="H14")
    st["pieces"]["ME8"]["ep"] = 0
    st["pieces"]["ME8"]["captive"] = captive("alpha", "CH3", carried=True,
                                              turn_no=st["turn_no"])
    st["players"]["alpha"]["transit"] = ["ME8"]
    st["players"]["beta"]["hand"] = ["n22"]
    st["players"]["beta"]["energy"] = 3
    st["players"]["beta"]["triggers"] = [trig("ZERO", "n22", "ME8")]
    set_turn(st, "alpha")
    st, ev, _ = play_turn(st, "alpha", "", [2, 3, 1, 2])
    assert "capture is cancelled" in texts(ev)
    me8 = st["pieces"]["ME8"]
    assert me8["captive"] is None and me8["ep"] == 5 and me8["loc"] == "H12"
    assert st["players"]["alpha"]["transit"] == []


def test_nobody_else_is_offered_a_captive_body() -> None:
    st = three(options={"decisions": "ask"})
    st["pieces"]["ME8"]["ep"] = 0
    st["pieces"]["ME8"]["captive"] = captive("alpha", "CH1", turn_no=st["turn_no"])
    st["players"]["alpha"]["transit"] = ["ME8"]
    st["players"]["gamma"]["hand"] = ["n22"]
    st["players"]["gamma"]["energy"] = 3
    st, ev, _ = play_turn(st, "alpha", "", [1, 2])
    assert asked(st) is None or asked(st)["seat"] != "gamma"


def test_a_heal_in_the_damage_window_keeps_a_hurt_piece_alive() -> None:
    """Spec §10 #29 (any instant in any window): Gyógyítás answers a damage roll; it
    resolves first (the top of the stack), then the blow lands."""
    st = build({"alpha": "choler", "beta": "melan"}, {"alpha": 1, "beta": 4})
    place(st, CH2="H12", ME8="H12", ME1="H14")
    st["pieces"]["ME8"]["ep"] = 4
    st["players"]["beta"]["hand"] = ["n22"]
    st["players"]["beta"]["energy"] = 3
    st["players"]["beta"]["triggers"] = [trig("DAMAGE", "n22")]
    set_turn(st, "alpha")
    # xinaf 6+6 hits, damage 1d6+2 = 3; the heal (2d6 = 4+3) lands first: 4 -> 11 -> 8
    st, ev, _ = play_turn(st, "alpha", "ATTACK CH2 ME8", [6, 6, 1, 4, 3, 3, 1, 1, 1, 2])
    t = texts(ev)
    assert "beta answers with Gyógyítás" in t
    assert t.index("heals") < t.index("loses")
    assert st["pieces"]["ME8"]["loc"] == "H12" and st["pieces"]["ME8"]["ep"] == 8
