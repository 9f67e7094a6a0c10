"""Regressions found by an adversarial stress run (thousands of random games with injected
standing orders, surrenders and diplomacy): each test is one found failure, made small."""

from __future__ import annotations

from pbem.core.dice import ScriptedDice
from pbem.rulesets.cherubion import RULESET
from pbem.rulesets.cherubion.rules.queries import board

from ..helpers import asked, build, captive, place, play_turn, resource, set_turn, texts


def two(**kw):
    return build({"alpha": "melan", "beta": "choler"}, {"alpha": 4, "beta": 1}, **kw)


def _body(st: dict, pid: str, by: str, holder: str, carried: bool) -> None:
    st["pieces"][pid]["ep"] = -3
    st["pieces"][pid]["captive"] = captive(holder, by, carried=carried,
                                            turn_no=st["turn_no"])
    st["players"][holder]["transit"].append(pid)


def test_a_carrier_dying_on_a_trap_loses_both_its_bodies_without_a_crash() -> None:
    """alpha's jeep (1 ÉP) must fetch two bodies; it steps on beta's Verem on the way and
    dies: both bodies go to the graveyard (the loop once removed the second twice)."""
    st = two()
    b = board(st)
    place(st, ME5="H10", CH8="H14", CH9="H14", ME1="K8", CH1="B8")
    st["pieces"]["ME5"]["ep"] = 1
    _body(st, "CH8", "ME5", "alpha", False)
    _body(st, "CH9", "ME5", "alpha", False)
    first = b.path_to("H10", "H14")[0]
    st["markers"]["N9"] = {"id": "N9", "kind": "N", "field": first, "owner": "beta",
                           "card": "n21", "hidden": True, "uses": 1}
    set_turn(st, "alpha", me=6)
    st, ev, _ = play_turn(st, "alpha", "", [4, 1, 2])  # Verem 1d6 = 4; beta's MÉ 1+2
    assert st["pieces"]["ME5"]["loc"] == "gone"
    assert st["pieces"]["CH8"]["loc"] == "gone" and st["pieces"]["CH9"]["loc"] == "gone"
    assert st["players"]["alpha"]["transit"] == []


def test_a_carrier_that_stepped_into_no_mans_land_takes_its_body_home() -> None:
    """Carrying a body into No-Man's Land used to park it there and lock every later
    order (all MÉ goes to the captive); now the carrier goes home with it."""
    st = two()
    b = board(st)
    edge = sorted(b.border[st["nml_sides"][0]])[0]
    place(st, ME5=edge, CH8=edge, ME1="K8", CH1="B8")
    _body(st, "CH8", "ME5", "alpha", True)
    set_turn(st, "alpha", me=3)
    st, ev, _ = play_turn(st, "alpha", "MOVE ME5 OUT", [1, 2, 1, 2])
    set_turn(st, "alpha", me=8)
    st, ev, _ = play_turn(st, "alpha", "", [1, 2])
    assert st["pieces"]["CH8"]["loc"] == "prison:alpha"
    assert st["pieces"]["ME5"]["loc"] == "base:4"
    assert st["players"]["alpha"]["transit"] == []


def test_a_seat_killed_by_a_start_tick_gets_no_turn() -> None:
    """gamma's last character burns to death at the start of its turn: the next seat plays."""
    st = build({"a": "choler", "b": "sang", "c": "melan"}, {"a": 1, "b": 3, "c": 4})
    for p in st["pieces"].values():
        if p["owner"] == "c" and p["id"] != "ME8":
            p["loc"] = "gone"
    place(st, ME8="H5", CH1="B8", SA1="K8")
    st["pieces"]["ME8"].update(ep=2, burn=4, last_hit="a")
    set_turn(st, "b")
    st, ev, _ = play_turn(st, "b", "", [3, 4])
    assert not st["players"]["c"]["alive"]
    assert st["active"] == "a" and list(RULESET.awaiting(st)) == ["a"]
    assert st["players"]["a"]["bases"] == [1, 4]


def test_a_surrender_while_the_start_window_asks_skips_that_seat() -> None:
    """beta's turn is about to begin and gamma is asked in the START window; beta
    surrenders meanwhile: gamma's turn comes next, beta gets none."""
    st = build({"alpha": "melan", "beta": "choler", "gamma": "sang"},
               {"alpha": 4, "beta": 1, "gamma": 3}, options={"decisions": "ask"})
    place(st, SA8="D12", SA1="D13", CH1="D10", ME1="K8")
    st["pieces"]["SA8"]["status"]["bound"] = {"seat": "gamma", "until": 9, "card": "n20",
                                              "owner": "alpha"}
    st["players"]["gamma"]["hand"] = ["n24"]
    st["players"]["gamma"]["energy"] = 3
    set_turn(st, "alpha")
    st, ev, _ = play_turn(st, "alpha", "", [])
    assert list(RULESET.awaiting(st)) == ["gamma"] and asked(st)["event"] == "START"
    st, ev = RULESET.resolve(st, {"gamma": RULESET.parse(st, "gamma", "PASS"),
                                  "beta": RULESET.parse(st, "beta", "SURRENDER")},
                             ScriptedDice([1, 2, 1, 2]))
    assert not st["players"]["beta"]["alive"]
    assert st["active"] == "gamma" and list(RULESET.awaiting(st)) == ["gamma"]
    assert "beta's turn" not in texts(ev)


def test_a_card_whose_target_left_the_game_has_no_effect() -> None:
    """alpha nets CH8; asked in the CAST window, beta surrenders instead: the net goes to
    the graveyard with no effect on a piece that has left play."""
    st = build({"alpha": "melan", "beta": "choler", "gamma": "sang"},
               {"alpha": 4, "beta": 1, "gamma": 3}, options={"decisions": "ask"})
    place(st, ME1="D12", CH8="D13", CH1="B8", SA1="K8")
    st["players"]["alpha"]["hand"] = ["n20"]
    st["players"]["beta"]["hand"] = ["n04"]
    st["players"]["beta"]["energy"] = 4
    set_turn(st, "alpha", energy=4)
    st, ev, _ = play_turn(st, "alpha", "PLAY Halodobas BY ME1 ON CH8", [])
    assert list(RULESET.awaiting(st)) == ["beta"]
    st, ev = RULESET.resolve(st, {"beta": RULESET.parse(st, "beta", "SURRENDER")},
                             ScriptedDice([1, 2, 1, 2]))
    assert "Hálódobás has no effect: CH8 left the game" in texts(ev)
    assert "n20" in st["players"]["alpha"]["grave"]


def test_a_written_target_is_never_swapped() -> None:
    """An answer naming a target that is not among the offered answers is refused on
    arrival; it is not played on another piece."""
    st = two(options={"decisions": "ask"})
    place(st, ME8="D12", ME1="D13", CH1="D10")
    st["pieces"]["ME8"]["status"]["bound"] = {"seat": "alpha", "until": 9, "card": "n20",
                                              "owner": "beta"}
    st["pieces"]["ME1"]["ep"] -= 5
    st["players"]["alpha"]["hand"] = ["n22", "n24"]
    st["players"]["alpha"]["energy"] = 6
    set_turn(st, "alpha")
    st, ev, _ = play_turn(st, "alpha", "", [])
    full = st["pieces"]["CH1"]["id"]
    reply = RULESET.parse(st, "alpha", f"PLAY Gyogyitas BY ME1 ON {full}")
    assert "is not one of the answers offered now" in (reply.lines[0].error or "")
    st, ev = RULESET.resolve(st, {"alpha": reply}, ScriptedDice([1, 2]))
    assert "alpha passes" in texts(ev)
    assert st["players"]["alpha"]["hand"] == ["n22", "n24"]


def test_handover_rekeys_statuses_frees_own_prisoners_and_caps_resources() -> None:
    st = build({"a": "melan", "b": "choler", "c": "sang"}, {"a": 4, "b": 1, "c": 3},
               options={"diplomacy": True})
    st["pieces"]["CH1"]["loc"] = "gone"  # b's demigod is dead
    place(st, CH2="H5", CH3="prison:c")
    st["pieces"]["CH2"]["status"]["bound"] = {"seat": "b", "until": 2, "card": "n20",
                                              "owner": "a"}
    for f in ["A1", "A2", "A3", "A4", "A5"]:
        resource(st, "c", f, "small")
    resource(st, "b", "B5", "small")
    set_turn(st, "b")
    st, ev, _ = play_turn(st, "b", "JOIN c HANDOVER", [1, 2])
    set_turn(st, "c")
    st, ev, _ = play_turn(st, "c", "ADOPT b HANDOVER", [1, 2])
    assert not st["players"]["b"]["alive"]
    assert st["pieces"]["CH2"]["owner"] == "c" and st["pieces"]["CH2"]["status"]["bound"]["seat"] == "c"
    assert st["pieces"]["CH3"]["loc"] == "base:3" and st["pieces"]["CH3"]["owner"] == "c"
    assert sum(1 for r in st["resources"].values() if r["owner"] == "c") == 5
    assert "abandoned" in texts(ev)


def test_a_piece_without_range_fights_any_enemy_on_its_field_not_a_distant_shooter() -> None:
    """Rulebook "Harc több ellenféllel": the zombie CH8 (reach 0) shares its field with
    gamma's SA1; alpha's rifleman shoots it from 2 fields: no strike-back at him."""
    st = build({"alpha": "melan", "beta": "choler", "gamma": "sang"},
               {"alpha": 4, "beta": 1, "gamma": 3})
    b = board(st)
    far = next(f for f in sorted(b.fields) if b.distance(f, "H12") == 2)
    place(st, CH8="H12", SA1="H12", ME8=far, ME1="K8", CH1="B8", SA2="L8")
    set_turn(st, "alpha")
    st, ev, _ = play_turn(st, "alpha", "ATTACK ME8 CH8", [1, 1, 1, 2, 1, 2, 1, 2])
    assert "Strike-back: Zombie (CH8)" not in texts(ev)


def test_an_answer_sent_with_a_handover_lapses_instead_of_crashing() -> None:
    """b is asked whether to counter a's grenade and answers with a counter plus JOIN c
    HANDOVER, which c's earlier ADOPT completes: the standing orders sent with an answer
    take effect as soon as it is given, so b's team (and hand) is gone before the answer
    is paid: it lapses (it once crashed taking the card from the hand)."""
    st = build({"a": "melan", "b": "choler", "c": "sang"}, {"a": 4, "b": 1, "c": 3},
               options={"diplomacy": True, "decisions": "ask"})
    st["pieces"]["CH1"]["loc"] = "gone"
    place(st, ME1="H10", CH2="H12", SA1="K8")
    set_turn(st, "c")
    st, ev, _ = play_turn(st, "c", "ADOPT b HANDOVER", [1, 2])
    st["players"]["a"]["hand"] = ["me01"]
    st["players"]["b"]["hand"] = ["n04"]
    st["players"]["b"]["energy"] = 4
    set_turn(st, "a", energy=2)
    st, ev, _ = play_turn(st, "a", "PLAY Kezigranat BY ME1 ON CH2", [])
    assert list(RULESET.awaiting(st)) == ["b"]
    st, ev = RULESET.resolve(st, {"b": RULESET.parse(st, "b", "PLAY n04 BY CH2 ON ME1\n"
                                                             "JOIN c HANDOVER")},
                             ScriptedDice([1, 1, 1, 2, 1, 2]))
    assert not st["players"]["b"]["alive"]
    assert "is no longer possible" in texts(ev)
    assert st["pieces"]["CH2"]["owner"] == "c"
