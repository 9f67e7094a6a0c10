"""Diplomacy (optional rule, Rulebook "Diplomácia"): alliances by matching orders, secret
ones seen only by the allies, allies not hostile, hostage exchange, joining a dead
demigod's team; without the option the orders are refused."""

from __future__ import annotations

from cherubion_testkit import build, place, play_turn, set_turn

from pbem.rulesets.cherubion import RULESET
from pbem.rulesets.cherubion.model import engaged, hostile


def three(**opts):
    return build({"a": "melan", "b": "choler", "c": "sang"}, {"a": 4, "b": 1, "c": 3},
                 options={"diplomacy": True, **opts})


def test_refused_without_the_option() -> None:
    st = build({"a": "melan", "b": "choler"}, {"a": 4, "b": 1})
    p = RULESET.parse(st, "a", "ALLY b")
    assert not p.ok and "optional rule" in p.lines[0].error


def test_secret_alliance_needs_both_and_stays_secret() -> None:
    st = three()
    set_turn(st, "a")
    st, ev, _ = play_turn(st, "a", "ALLY b SECRET", [1, 2])
    assert not st.get("alliances")
    set_turn(st, "b")
    st, ev, _ = play_turn(st, "b", "ALLY a", [1, 2])
    assert not hostile(st, "a", "b") and hostile(st, "a", "c")
    place(st, ME1="K8", CH1="K8")
    assert not engaged(st, st["pieces"]["ME1"])
    assert RULESET.view(st, "c")["alliances"] == []
    assert RULESET.view(st, "a")["alliances"] == [{"pair": ["a", "b"], "secret": True}]
    made = [e for e in ev if e.kind == "diplomacy"]
    assert made and made[0].to == ("a", "b")
    set_turn(st, "c")
    st, ev, _ = play_turn(st, "c", "", [1, 2])
    place(st, CH1="B8")
    set_turn(st, "a")
    st, ev, _ = play_turn(st, "a", "BREAK b", [1, 2])
    assert hostile(st, "a", "b")


def test_hostage_exchange() -> None:
    st = three()
    st["alliances"] = [{"pair": ["a", "b"], "secret": False}]
    st["players"]["a"]["allies"], st["players"]["b"]["allies"] = ["b"], ["a"]
    set_turn(st, "a")
    st, ev, _ = play_turn(st, "a", "HOSTAGE b GIVE ME8 TAKE CH8", [1, 2])
    st, ev, _ = play_turn(st, "b", "HOSTAGE a GIVE CH8 TAKE ME8", [1, 2])
    assert st["pieces"]["ME8"]["loc"] == "prison:b" and st["pieces"]["CH8"]["loc"] == "prison:a"
    assert st["players"]["a"]["busy"] == 1 and st["players"]["b"]["busy"] == 1


def test_join_after_demigod_death() -> None:
    st = three()
    st["pieces"]["CH1"]["loc"] = "gone"
    set_turn(st, "b")
    st, ev, _ = play_turn(st, "b", "JOIN c", [1, 2])
    st, ev, _ = play_turn(st, "c", "ADOPT b", [1, 2])
    assert st["pieces"]["CH2"]["teams"] == ["sang"] and st["pieces"]["CH2"]["owner"] == "b"
