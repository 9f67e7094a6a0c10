"""Hidden pieces that walk onto an enemy are revealed and fight (Rulebook "Csapdák": a
hidden monster is revealed "ha ellenséges karakterrel találkozik"; card n14); an owner may
not heal back his own captured body below 0 (Rulebook "Fogolyejtés"); after a GATE ROLL
teleport the teleported piece takes the remaining steps (Rulebook "Teleportálás")."""

from __future__ import annotations

from pbem.rulesets.cherubion.orders import Play
from pbem.rulesets.cherubion.rules.cards import check_play
from pbem.rulesets.cherubion.rules.queries import engaged

from ..helpers import build, captive, place, play_turn, refusal, set_turn, texts


def two(a="melan", b="choler", sa=4, sb=1, **kw):
    return build({"alpha": a, "beta": b}, {"alpha": sa, "beta": sb}, **kw)


def test_hidden_summon_walking_onto_an_enemy_is_revealed_and_fights() -> None:
    st = two(options={"summon_move": True})
    place(st, ME1="K8", CH8="J12")
    st["players"]["alpha"]["hand"] = ["n01"]
    set_turn(st, "alpha", energy=4)
    st, ev, _ = play_turn(st, "alpha", "PLAY Barlangi gyik BY ME1 ON J10", [1, 2])
    s1 = st["pieces"]["S1"]
    assert s1["hidden"] == "SZ1" and s1["loc"] == "J10"
    set_turn(st, "alpha", me=2)
    # two steps onto CH8; mandatory melee: S1 rolls 1+1 (22+2 = 24 > 22), damage 1+1 = 2;
    # CH8 strikes back 1+1 (20+2 = 22 <= 25): miss; then beta's MÉ roll
    st, ev, _ = play_turn(st, "alpha", "MOVE S1 J11 J12", [1, 1, 1, 1, 1, 1, 1, 1])
    s1 = st["pieces"]["S1"]
    assert s1["loc"] == "J12" and s1["hidden"] is None and "SZ1" not in st["markers"]
    assert "Marker SZ1 is revealed: Cave Lizard (S1)" in texts(ev)
    assert st["pieces"]["CH8"]["ep"] == 12 - 2 and s1["ep"] == 20
    assert engaged(st, s1) and engaged(st, st["pieces"]["CH8"])


def test_invisible_piece_walking_onto_an_enemy_is_revealed_and_the_card_discarded() -> None:
    st = two()
    place(st, ME8="H5", ME1="H7", CH8="H8")
    st["players"]["alpha"]["hand"] = ["n14"]
    set_turn(st, "alpha", energy=6)
    st, ev, _ = play_turn(st, "alpha", "PLAY Lathatatlansag BY ME1 ON ME8", [1, 2])
    assert st["pieces"]["ME8"]["hidden"]
    set_turn(st, "alpha", me=3)
    st, ev, _ = play_turn(st, "alpha", "MOVE ME8 H6 H7 H8", [1, 1, 1, 1, 1, 1, 1, 1])
    me8 = st["pieces"]["ME8"]
    assert me8["loc"] == "H8" and me8["hidden"] is None and me8["attached"] == []
    assert "n14" in st["players"]["alpha"]["grave"]
    assert "Mandatory melee: Rifleman (ME8)" in texts(ev)
    assert st["players"]["alpha"]["me"] == 0


def _own_body(ep: int) -> dict:
    """beta's ME8 is a body at `ep` carried by alpha's CH3 on H12; beta's ME1 on H14 holds
    Gyógyítás (2d6, cost 3); beta to move."""
    st = build({"alpha": "choler", "beta": "melan"}, {"alpha": 1, "beta": 4})
    place(st, CH2="H12", CH3="H12", ME8="H12", ME1="H14")
    st["pieces"]["ME8"]["ep"] = ep
    st["pieces"]["ME8"]["captive"] = captive("alpha", "CH3", carried=True,
                                              turn_no=st["turn_no"])
    st["players"]["alpha"]["transit"] = ["ME8"]
    st["players"]["beta"]["hand"] = ["n22"]
    set_turn(st, "beta", energy=3)
    return st


def test_owner_cannot_heal_back_his_own_body_below_zero() -> None:
    st = _own_body(-3)
    why = check_play(st, "beta", Play("n22", "ME1", ("ME8",)))
    assert why and "only a body at exactly 0" in why
    assert "only a body at exactly 0" in refusal(st, "beta", "PLAY Gyogyitas BY ME1 ON ME8")


def test_owner_may_still_heal_his_body_at_exactly_zero() -> None:
    st = _own_body(0)
    assert check_play(st, "beta", Play("n22", "ME1", ("ME8",))) is None
    # heal 4+3 = 7; then ME8 is engaged: its melee 1+1 misses (23 <= 28), Xinaf's
    # strike-back 1+1 hits (27 > 24) for 1+2 = 3
    st, ev, _ = play_turn(st, "beta", "PLAY Gyogyitas BY ME1 ON ME8",
                          [4, 3, 1, 1, 1, 1, 1, 1, 2])
    assert "heals 7 ÉP" in texts(ev) and "capture is cancelled" in texts(ev)
    me8 = st["pieces"]["ME8"]
    assert me8["ep"] == 7 - 3 and me8["captive"] is None and st["players"]["alpha"]["transit"] == []


def test_gate_roll_piece_walks_the_remaining_steps() -> None:
    """7 MÉ: ME8 steps E9 -> E10 (gate) and rolls 3+3 = 6 to E16; the 6 MÉ left are the
    teleported piece's steps, not ME1's (ME1 has the lowest id and used to walk them)."""
    from pbem.rulesets.cherubion.rules.queries import new_id
    st = two()
    mid = new_id(st, "T")
    st["markers"][mid] = {"id": mid, "kind": "T", "field": "E10", "owner": "alpha",
                          "card": "n15", "hidden": False}
    place(st, ME1="K8", ME8="E9")
    set_turn(st, "alpha", me=7)
    st, ev, _ = play_turn(st, "alpha", "MOVE ME8 E10 GATE ROLL E16", [3, 3, 1, 2])
    assert st["players"]["alpha"]["me"] == 0
    assert st["pieces"]["ME1"]["loc"] == "K8"
    assert "Rifleman (ME8) walks E16<->" in texts(ev)
    assert "must use all 6 MÉ" in texts(ev)
    assert st["pieces"]["ME8"]["loc"] == "E16"  # 6 steps there and back
