"""The rulebook examples and rules of spec §9 (TC-1 ... TC-37), with the rulebook's numbers
and scripted dice. TC-38 (the worked example game) is in test_cherubion_worked_example.py."""

from __future__ import annotations

import pytest

from pbem.core.dice import ScriptedDice
from pbem.core.kit import Context as Ctx
from pbem.rulesets.cherubion import RULESET, data
from pbem.rulesets.cherubion.board import get_board
from pbem.rulesets.cherubion.orders import Play
from pbem.rulesets.cherubion.rules.cards import card_range, check_play, price
from pbem.rulesets.cherubion.rules.queries import holder
from pbem.rulesets.cherubion.rules.resources import production
from pbem.rulesets.cherubion.rules.turn import roll_me

from .helpers import build, captive, ctx, place, play_turn, resource, set_turn, texts


def two(a: str = "melan", b: str = "choler", sa: int = 4, sb: int = 1, **kw):
    return build({"alpha": a, "beta": b}, {"alpha": sa, "beta": sb}, **kw)


# --- TC-1 MÉ roll -----------------------------------------------------------------------
@pytest.mark.parametrize("dice,me", [([3, 4], 7), ([6, 6, 2, 3], 17), ([6, 6, 6, 6, 2, 4], 30),
                                     ([1, 1], 2)])
def test_tc01_me_roll(dice: list[int], me: int) -> None:
    st = two()
    d = ScriptedDice(dice)
    assert roll_me(Ctx(st, d), "alpha")[0] == me
    assert d.remaining == 0


# --- TC-2 / TC-3 MÉ budget ----------------------------------------------------------------
def test_tc02_deploy_then_steps() -> None:
    st = two()
    place(st, ME1="K8")
    set_turn(st, "alpha", me=8)
    st, ev, _ = play_turn(st, "alpha", "DEPLOY ME8 L8\nMOVE ME1 K9 K10 K11 K12 K13", [1, 2])
    assert st["pieces"]["ME8"]["loc"] == "L8"
    assert st["pieces"]["ME1"]["loc"] == "K13"
    assert "auto_steps" not in {e.kind for e in ev} and "forfeit" not in {e.kind for e in ev}


def test_tc02_nothing_to_spend_lapses() -> None:
    st = two()
    set_turn(st, "alpha", me=2)
    st, ev, _ = play_turn(st, "alpha", "", [1, 2])
    assert "cannot spend 2 MÉ" in texts(ev)


@pytest.mark.parametrize("script", [
    "DRAW\nMOVE ME1 K9 K10 K11",
    "DEPLOY ME2 L6",
    "DEPLOY ME8 L6\nMOVE ME1 K9 K10 K11 K12",
    "MOVE ME1 K9 K10 K11\nMOVE ME4 K5 K4 K3 K2",
    "BUILD MEDIUM K10",
])
def test_tc03_opening_options_spend_seven(script: str) -> None:
    st = two()
    place(st, ME1="K8", ME4="K6")
    st["players"]["alpha"]["deck"] = ["n01"]
    set_turn(st, "alpha", me=7)
    st, ev, _ = play_turn(st, "alpha", script, ([0] if "DRAW" in script else []) + [1, 2])
    assert st["players"]["alpha"]["me"] == 0
    assert "auto_steps" not in {e.kind for e in ev}, texts(ev)


def test_tc03_unspent_me_is_walked_out() -> None:
    # "draw + 2 steps" with MÉ 7 leaves 1: the engine walks it out (all steps must be taken)
    st = two()
    place(st, ME1="K8")
    st["players"]["alpha"]["deck"] = ["n01"]
    set_turn(st, "alpha", me=7)
    st, ev, _ = play_turn(st, "alpha", "DRAW\nMOVE ME1 K9 K10", [0, 1, 2])
    assert "must use all 1 MÉ" in texts(ev)


# --- TC-4 / TC-5 / TC-8 energy --------------------------------------------------------------
def test_tc04_energy_no_carry_over() -> None:
    st = two()
    resource(st, "alpha", "L8")
    place(st, ME1="K8")
    set_turn(st, "alpha", me=0, energy=5)
    st["players"]["alpha"]["hand"] = ["n01"]
    st, ev, _ = play_turn(st, "alpha", "PLAY Barlangi gyik BY ME1 ON J10", [1, 2])
    assert st["players"]["alpha"]["energy"] == 1  # usable for instants until his next turn
    set_turn(st, "beta", me=0)
    st, ev, _ = play_turn(st, "beta", "", [3, 4])
    assert st["players"]["alpha"]["energy"] == 5  # not 6


def test_tc05_build_delay() -> None:
    st = two(a="choler", b="melan", sa=1, sb=4)
    resource(st, "alpha", "B6")
    place(st, CH1="B8", CH2="D12", CH4="C6")
    set_turn(st, "alpha", me=9)
    st, _, _ = play_turn(st, "alpha", "BUILD LARGE E13", [1, 2])
    assert production(st, "alpha") == 5  # the new one is not active yet
    set_turn(st, "beta")
    st, ev, _ = play_turn(st, "beta", "", [2, 3])
    assert st["players"]["alpha"]["energy"] == 10


def test_tc08_production_field() -> None:
    st = two()
    resource(st, "alpha", "L8")
    resource(st, "alpha", "L10")
    place(st, ME8="G11")
    st["turn"] = {}
    assert production(st, "alpha") == 12


# --- TC-6 / TC-7 resources -------------------------------------------------------------------
@pytest.mark.parametrize("sizes,loss", [(["large"], 15), (["large", "large"], 30),
                                        (["small"], 5), (["large"] * 5, 75)])
def test_tc06_destruction_loss(sizes: list[str], loss: int) -> None:
    from pbem.rulesets.cherubion.rules.life import destroy_resource
    st = two()
    rids = [resource(st, "alpha", f, s) for f, s in zip(["K2", "K4", "K6", "K8", "K10"], sizes, strict=False)]
    before = sum(p["ep"] for p in st["pieces"].values() if p["owner"] == "alpha")
    c = ctx(st, [])
    for r in rids:
        destroy_resource(c, r, "test")
    after = sum(p["ep"] for p in st["pieces"].values() if p["owner"] == "alpha")
    assert before - after == loss


def test_tc06_loss_capped_and_zero_dies() -> None:
    from pbem.rulesets.cherubion.rules.life import destroy_resource
    st = two(a="choler", b="melan", sa=1, sb=4)
    for pid in list(st["pieces"]):
        if st["pieces"][pid]["owner"] == "alpha" and pid != "CH8":
            st["pieces"][pid]["loc"] = "B8" if pid == "CH1" else "gone"
    rid = resource(st, "alpha", "B6")
    c = ctx(st, [])
    destroy_resource(c, rid, "test")
    assert st["pieces"]["CH8"]["ep"] == 0
    assert "3 ÉP of the loss is lost" in texts(c.log.events)
    set_turn(st, "alpha")
    st, ev, _ = play_turn(st, "alpha", "", [1, 2])
    assert st["pieces"]["CH8"]["loc"] == "gone"


def test_tc07_upgrade_and_cap() -> None:
    st = two()
    place(st, ME1="K8", ME2="K10")
    for f in ["K2", "K4", "K6", "K12"]:
        resource(st, "alpha", f)
    small = resource(st, "alpha", "K14", "small")
    set_turn(st, "alpha", me=14)
    st, ev, _ = play_turn(st, "alpha", "UPGRADE K14 MEDIUM\nBUILD SMALL H3\nMOVE ME1 K9 K10 "
                          "K11 K12 K13 K14 K15", [1, 2])
    assert st["resources"][small]["size"] == "medium"
    assert sum(1 for r in st["resources"].values() if r["owner"] == "alpha") == 5
    assert "already have 5 resources" in texts(ev)
    assert "destroyed" not in texts(ev)


# --- TC-9 .. TC-13 cards: cost and range -------------------------------------------------------
def test_tc09_discount() -> None:
    st = two(a="choler", b="melan", sa=1, sb=4)
    place(st, CH8="G13")
    st["turn"] = {}
    assert holder(st, "discount") == "alpha"
    assert price(st, "alpha", "n11", 0, 1) == 9


def test_tc10_reach_field() -> None:
    st = two()
    place(st, ME1="D10", CH2="D15")
    st["turn"] = {}
    assert card_range(st, "alpha", "me01", 1) == 5
    assert card_range(st, "alpha", "n12", 1) == 4
    st["players"]["alpha"]["hand"] = ["n03"]
    st["players"]["alpha"]["energy"] = 3
    assert get_board(6).distance("D10", "D15") == 5
    assert check_play(st, "alpha", Play("n03", "ME1", ("CH2",))) is not None
    place(st, ME8="F11")
    assert card_range(st, "alpha", "me01", 1) == 6
    assert card_range(st, "alpha", "n12", 1) == 5
    assert check_play(st, "alpha", Play("n03", "ME1", ("CH2",))) is None


@pytest.mark.parametrize("target,k,pays,ok", [("D14", 1, 10, True), ("C14", 2, 20, True),
                                              ("A1", 3, 30, True), ("C14", 1, 10, False)])
def test_tc11_card_range(target: str, k: int, pays: int, ok: bool) -> None:
    st = two(a="choler", b="melan", sa=1, sb=4)
    place(st, CH1="D10", ME8=target)
    st["turn"] = {}
    st["players"]["alpha"]["hand"] = ["n11"]
    st["players"]["alpha"]["energy"] = 30
    assert price(st, "alpha", "n11", 0, k) == pays
    assert (check_play(st, "alpha", Play("n11", "CH1", ("ME8",), k)) is None) == ok
    if target == "A1":
        st["players"]["alpha"]["energy"] = 25
        assert "costs 30" in check_play(st, "alpha", Play("n11", "CH1", ("ME8",), 3))


def test_tc12_helicopter_and_warrior() -> None:
    st = two()
    place(st, ME2="D10", CH2="D15")
    st["turn"] = {}
    st["players"]["alpha"]["hand"] = ["me01"]
    st["players"]["alpha"]["energy"] = 2
    assert check_play(st, "alpha", Play("me01", "ME2", ("CH2",))) is None
    st["active"] = "beta"
    st["players"]["beta"]["hand"] = ["n03"]
    st["players"]["beta"]["energy"] = 6
    assert check_play(st, "beta", Play("n03", "CH2", ("ME2",))) is not None
    assert check_play(st, "beta", Play("n03", "CH2", ("ME2",), 2)) is None
    assert price(st, "beta", "n03", 0, 2) == 6


def test_tc13_foreign_cards() -> None:
    from pbem.rulesets.cherubion.rules.cards import surcharge
    st = two()
    P = st["pieces"]
    assert surcharge(st, P["CH1"], "ch02") == 0 and data.card("ch02")["cost"] == 9
    assert surcharge(st, P["ME1"], "ch02") == 2  # Balamud costs Melan 11
    assert isinstance(surcharge(st, P["ME2"], "ch02"), str)  # helicopter: not a demigod
    st3 = build({"a": "melan", "b": "choler", "c": "sang"}, {"a": 4, "b": 1, "c": 3})
    P3 = st3["pieces"]
    assert isinstance(surcharge(st3, P3["CH1"], "sa01"), str)  # Myor Thurgos: exclusive
    assert surcharge(st3, P3["ME7"], "me01") == 0  # gnome, own demigod's card
    assert surcharge(st3, P3["ME7"], "ch01") == 2  # gnome, weaker Choler card
    assert isinstance(surcharge(st3, P3["ME7"], "ch03"), str)  # printed 12 > 5
    assert isinstance(surcharge(st3, P3["ME2"], "ch01"), str)


# --- TC-14 .. TC-17 combat arithmetic ------------------------------------------------------------
def test_tc14_armed_combat_example() -> None:
    st = two()
    y, e = st["pieces"]["ME8"], st["pieces"]["CH8"]
    y.update(ep=23, max_ep=23, tk=8, vsz=9, fe="1d6+2", reach=0)
    e.update(ep=12, max_ep=12, tk=9, vsz=7, fe="1d6", reach=0)
    place(st, ME8="H5", CH8="H5")
    set_turn(st, "beta")
    st, ev, d = play_turn(st, "beta", "ATTACK CH8 ME8", [3, 4, 3, 1, 3, 6, 1, 2])
    assert y["ep"] == 20 and e["ep"] == 4
    set_turn(st, "alpha")
    st, ev, d = play_turn(st, "alpha", "ATTACK ME8 CH8", [1, 4, 4, 3, 3, 2, 1, 2])
    y, e = st["pieces"]["ME8"], st["pieces"]["CH8"]
    assert y["ep"] == 18
    assert e["loc"] == "gone" and "CH8" in st["players"]["beta"]["grave"]
    assert d.remaining == 0


@pytest.mark.parametrize("face,dmg", [(5, 4), (1, 2), (2, 2), (3, 3), (6, 4)])
def test_tc15_half_die(face: int, dmg: int) -> None:
    assert data.roll_expr(ScriptedDice([face]), "1d3+1", "x")[0] == dmg


@pytest.mark.parametrize("rolls,doubled", [([3, 3], True), ([2, 3], False)])
def test_tc16_double_damage(rolls: list[int], doubled: bool) -> None:
    from pbem.rulesets.cherubion.rules.combat import blow
    st = two()
    st["turn"] = {}
    a, b = st["pieces"]["ME8"], st["pieces"]["CH8"]
    a.update(tk=12, fe="1d6", loc="H5")
    b.update(vsz=9, loc="H5")
    out = blow(ctx(st, rolls + [4]), a, b, "t")
    assert out.hit and out.dmg == (8 if doubled else 4)


def test_tc17_special_damage() -> None:
    st = two()
    fire, y = st["pieces"]["CH2"], st["pieces"]["ME8"]
    fire.update(fe="0d6+4", special=4, tk=40)
    y.update(ep=30, max_ep=30, vsz=25)
    place(st, CH2="H5", ME8="H5")
    set_turn(st, "beta")
    st, ev, _ = play_turn(st, "beta", "ATTACK CH2 ME8", [3, 3, 1, 1, 1, 2])
    y = st["pieces"]["ME8"]
    assert y["burn"] == 4 and y["ep"] == 26 - 4  # hit 4, then -4 at Melan's turn start
    st["pieces"]["CH2"]["loc"] = "gone"
    set_turn(st, "beta")
    st, ev, _ = play_turn(st, "beta", "", [1, 2])
    assert st["pieces"]["ME8"]["ep"] == 18  # the tick goes on after the attacker died


# --- TC-18 .. TC-21 teleport and NML --------------------------------------------------------------
def gate(st: dict, field: str) -> str:
    from pbem.rulesets.cherubion.rules.queries import new_id
    mid = new_id(st, "T")
    st["markers"][mid] = {"id": mid, "kind": "T", "field": field, "owner": "alpha",
                          "card": "n15", "hidden": False}
    return mid


def test_tc18_teleport_roll() -> None:
    b = get_board(6)
    ok = {f for f in b.fields if b.distance("E10", f) <= 6 and (6 - b.distance("E10", f)) % 2 == 0}
    assert "E16" in ok and "D8" in ok and "E11" not in ok and "I10" not in ok
    st = two()
    gate(st, "E10")
    place(st, ME8="E9", CH8="E13")
    set_turn(st, "alpha", me=1)
    st, ev, _ = play_turn(st, "alpha", "MOVE ME8 E10 GATE ROLL E16", [3, 3, 1, 2])
    assert st["pieces"]["ME8"]["loc"] == "E16"
    assert "engage" not in {e.kind for e in ev}  # the hostile piece on E13 is not touched


def test_tc19_gate_to_gate() -> None:
    st = two()
    gate(st, "E10")
    t2 = gate(st, "I16")
    place(st, ME8="E9", CH8="G13")
    set_turn(st, "alpha", me=1)
    st, ev, _ = play_turn(st, "alpha", f"MOVE ME8 E10 GATE {t2}", [1, 2])
    assert st["pieces"]["ME8"]["loc"] == "I16"


def test_tc20_mid_move_teleport() -> None:
    st = two()
    gate(st, "E7")
    t2 = gate(st, "I10")
    place(st, ME8="E4")
    set_turn(st, "alpha", me=7)
    st, ev, _ = play_turn(st, "alpha", f"MOVE ME8 E5 E6 E7 GATE {t2} I11 I12 I13 I14", [1, 2])
    assert st["pieces"]["ME8"]["loc"] == "I14"
    assert st["players"]["alpha"]["me"] == 0 and "auto_steps" not in {e.kind for e in ev}


def test_tc21_nml() -> None:
    st = two()
    place(st, ME8="B2", ME9="B2")
    set_turn(st, "alpha", me=4)
    st, ev, _ = play_turn(st, "alpha", "MOVE ME8 B1 HOME\nMOVE ME9 B1 OUT", [1, 2])
    assert st["pieces"]["ME8"]["loc"] == "base:4"
    assert st["pieces"]["ME9"]["loc"] == "nml"
    # in NML: no card reaches it
    st["active"] = "beta"
    st["players"]["beta"]["hand"] = ["n03"]
    st["players"]["beta"]["energy"] = 9
    place(st, CH1="B2")
    assert "No-Man's Land" in check_play(st, "beta", Play("n03", "CH1", ("ME9",)))
    # ME8 came home this turn: not before the next turn; from NML: KK onto a side-6 field
    set_turn(st, "alpha", me=6)
    st["players"]["alpha"]["turns"] = 2
    st, ev, _ = play_turn(st, "alpha", "DEPLOY ME8 L6\nDEPLOY ME9 C1", [1, 2])
    assert st["pieces"]["ME8"]["loc"] == "L6" and st["pieces"]["ME9"]["loc"] == "C1"


# --- TC-22 .. TC-27 traps, summons, icons, capture ----------------------------------------------------
def test_tc22_landmine() -> None:
    st = two()
    place(st, ME4="I13", ME1="K8", CH8="H14")
    set_turn(st, "alpha", energy=5)
    st["players"]["alpha"]["hand"] = ["me03", "me03"]
    assert "hostile" in check_play(st, "alpha", Play("me03", "ME4", ("H14",)))
    st, ev, _ = play_turn(st, "alpha", "PLAY Taposoakna BY ME4 ON I13", [1, 2])
    mid = next(iter(st["markers"]))
    pub = RULESET.view(st, "beta")
    assert pub["markers"] == [{"id": mid, "kind": "N", "field": "I13", "owner": "alpha",
                               "hidden": True}]
    assert all(e.to == ("alpha",) for e in ev if "Taposóakna" in e.text)
    set_turn(st, "beta", me=1)
    st, ev, _ = play_turn(st, "beta", "MOVE CH8 I13", [2, 4, 1, 1, 1, 2])
    assert st["pieces"]["CH8"]["ep"] == 12 - 6 and st["pieces"]["CH8"]["loc"] == "I13"
    assert mid not in st["markers"] and "me03" in st["players"]["alpha"]["grave"]


def test_tc23_mole_turkey_guards() -> None:
    st = two()
    place(st, ME1="D12", CH8="C8")
    set_turn(st, "alpha", energy=4)
    st["players"]["alpha"]["hand"] = ["n02"]
    st, ev, _ = play_turn(st, "alpha", "PLAY Vakondpulyka BY ME1 ON D10", [1, 2])
    mole = next(p for p in st["pieces"].values() if p["card"] == "n02")
    set_turn(st, "beta", me=1)
    st, ev, _ = play_turn(st, "beta", "MOVE CH8 C9", [1, 1, 1, 1, 1, 1, 1, 2])
    assert mole["id"] in texts(ev)
    m = st["pieces"][mole["id"]]
    assert m["loc"] == "C9" and not m["hidden"]
    assert st["pieces"]["CH8"]["loc"] in ("C9", "gone")


def test_tc24_unique() -> None:
    st = two()
    place(st, ME1="K8", CH1="B8")
    st["turn"] = {}
    st["players"]["alpha"]["hand"] = ["n25"]
    st["players"]["alpha"]["energy"] = 7
    st["players"]["beta"]["hand"] = ["n25"]
    st["players"]["beta"]["energy"] = 7
    set_turn(st, "alpha")
    st, ev, _ = play_turn(st, "alpha", "PLAY Leon Silver BY ME1 ON K9", [1, 2])
    leon = next(p for p in st["pieces"].values() if p["card"] == "n25")
    st["players"]["beta"]["energy"] = 7
    assert "unique" in check_play(st, "beta", Play("n25", "CH1", ("B9",)))
    from pbem.rulesets.cherubion.rules.life import kill
    kill(ctx(st, []), leon, "test", None)
    assert "n25" in st["players"]["alpha"]["grave"]
    assert check_play(st, "beta", Play("n25", "CH1", ("B9",))) is None


def test_tc25_icons() -> None:
    st = two(a="choler", b="melan", sa=1, sb=4)
    place(st, CH1="D10", ME1="D12", ME8="D13")
    st["turn"] = {}
    st["players"]["alpha"]["hand"] = ["n28"]
    st["players"]["alpha"]["energy"] = 9
    assert "demigod" in check_play(st, "alpha", Play("n28", "CH1", ("ME1",)))
    st["players"]["beta"]["hand"] = ["me09"]
    st["players"]["beta"]["energy"] = 9
    set_turn(st, "beta")
    st, ev, _ = play_turn(st, "beta", "PLAY Agymosas BY ME1 ON ME8", [1, 2])
    assert "no effect" in texts(ev)
    assert "me09" in st["players"]["beta"]["grave"] and st["players"]["beta"]["energy"] == 3


def test_tc26_capture_and_conversion() -> None:
    st = two(a="choler", b="melan", sa=1, sb=4)
    place(st, CH2="C5", CH4="C5", ME5="C5", CH1="B8")
    st["pieces"]["ME5"]["ep"] = 5
    set_turn(st, "alpha", me=6)
    st["players"]["alpha"]["deck"] = ["n01"]
    # xinaf hits (6+...), damage 6+2 = 8 -> jeep at -3; capture with the wyvern
    st, ev, _ = play_turn(st, "alpha", "ATTACK CH2 ME5 CAPTURE CH4\nDRAW", [6, 6, 6, 1, 1, 1, 2])
    jeep = st["pieces"]["ME5"]
    assert jeep["ep"] == -3 and jeep["captive"]["captor"] == "alpha"
    assert "all MÉ goes to carrying" in texts(ev)
    # the wyvern carries it home with all MÉ: C5 -> ... -> side 1
    assert jeep["loc"] == "prison:alpha", jeep["loc"]
    assert jeep["captive"]["clock"] == 1
    set_turn(st, "alpha", energy=20)
    st["players"]["alpha"]["turns"] += 1
    jeep["captive"]["clock"] = 2
    st["players"]["alpha"]["hand"] = ["n22", "ch06"]
    st, ev, _ = play_turn(st, "alpha", "PLAY Gyogyitas BY CH1 ON ME5\n"
                          "PLAY Sotet lang ceremonia BY CH1 ON ME5", [3, 4, 1, 2])
    jeep = st["pieces"]["ME5"]
    assert jeep["ep"] == 4 and jeep["owner"] == "alpha" and "choler" in jeep["teams"]
    assert jeep["loc"].startswith("base:")


def test_tc26_too_deep_no_capture() -> None:
    st = two(a="choler", b="melan", sa=1, sb=4)
    place(st, CH2="H5", CH4="H5", ME5="H5")
    st["pieces"]["ME5"]["ep"] = 2
    set_turn(st, "alpha")
    st, ev, _ = play_turn(st, "alpha", "ATTACK CH4 ME5 CAPTURE CH4", [6, 6, 6, 6, 1, 1, 1, 2])
    assert st["pieces"]["ME5"]["ep"] == -10 and st["pieces"]["ME5"]["loc"] == "gone"


def test_tc26_body_not_revived_is_lost() -> None:
    st = two(a="choler", b="melan", sa=1, sb=4)
    place(st, CH1="B8")
    jeep = st["pieces"]["ME5"]
    jeep.update(ep=-3, loc="prison:alpha", captive=captive("alpha", clock=2))
    set_turn(st, "beta")
    st, ev, _ = play_turn(st, "beta", "", [1, 2])  # alpha's turn starts: clock 3
    set_turn(st, "alpha")
    st, ev, _ = play_turn(st, "alpha", "", [1, 2])
    assert st["pieces"]["ME5"]["loc"] == "gone" and "ME5" in st["players"]["beta"]["grave"]


def test_tc27_foreign_base_intruder() -> None:
    st = build({"a": "choler", "b": "sang"}, {"a": 1, "b": 3})
    place(st, CH1="D10", SA7="D12", SA1="L6")
    set_turn(st, "a", energy=8)
    st["players"]["a"]["hand"] = ["n16"]
    st, ev, _ = play_turn(st, "a", "PLAY Hamis Utazas I BY CH1 ON SA7", [1, 2])
    assert st["pieces"]["SA7"]["loc"] == "prison:a"
    st2 = build({"a": "choler", "b": "sang"}, {"a": 1, "b": 3})
    place(st2, CH1="D10", SA7="D12", SA1="L6")
    set_turn(st2, "a", energy=8)
    st2["players"]["a"]["hand"] = ["n16"]
    st2, ev, _ = play_turn(st2, "a", "INTRUDER KILL\nPLAY Hamis Utazas I BY CH1 ON SA7", [1, 2])
    assert st2["pieces"]["SA7"]["loc"] == "gone"


# --- TC-28 .. TC-31 --------------------------------------------------------------------------------------
def test_tc28_fleeing_free_attacks() -> None:
    st = two()
    place(st, ME8="H5", CH8="H5", CH2="H5", ME1="K8")
    set_turn(st, "alpha", me=1)
    # zombie: 1+1 +20 +10 = 32 > 24 hit, dmg 1+4; xinaf: 1+1 +25+10 = 37 hit, dmg 1+2+4
    st, ev, _ = play_turn(st, "alpha", "FLEE ME8 H4", [1, 1, 1, 1, 1, 1, 1, 2])
    t = texts(ev)
    assert "Free attack: Zombie (CH8) rolls 1+1, 30+2=32" in t
    assert "Free attack: Xinaf (CH2) rolls 1+1, 35+2=37" in t
    assert st["pieces"]["ME8"]["ep"] == 16 - 5 - 7 and st["pieces"]["ME8"]["loc"] == "H4"


def test_tc28_mist_veil_cancels() -> None:
    st = two()
    place(st, ME8="H5", CH8="H5", CH2="H5", ME1="H7")
    set_turn(st, "alpha", me=1, energy=1)
    st["players"]["alpha"]["hand"] = ["n07"]
    st, ev, _ = play_turn(st, "alpha", "PLAY Kodfatyol BY ME1 ON ME8\nFLEE ME8 H4", [1, 2])
    assert st["pieces"]["ME8"]["ep"] == 16 and "Free attack" not in texts(ev)


def test_tc29_ranged_strike_back_penalty() -> None:
    st = two(a="choler", b="melan", sa=1, sb=4)
    place(st, CH1="D10", ME8="D15")
    set_turn(st, "alpha")
    st, ev, _ = play_turn(st, "alpha", "ATTACK CH1 ME8", [1, 1, 1, 1, 1, 1, 1, 2])
    assert "Strike-back: Rifleman (ME8) rolls 1+1, 18+2=20" in texts(ev)
    st = two(a="choler", b="melan", sa=1, sb=4)
    place(st, CH1="D10", CH8="D15")
    st["pieces"]["CH8"]["owner"] = "beta"
    set_turn(st, "alpha")
    st, ev, _ = play_turn(st, "alpha", "ATTACK CH1 CH8", [1, 1, 1, 1, 1, 1, 1, 2])
    assert "15+2=17" in texts(ev)


@pytest.mark.parametrize("ep,after", [(20, 22), (24, 25)])
def test_tc30_life_drain(ep: int, after: int) -> None:
    st = two(a="choler", b="melan", sa=1, sb=4)
    place(st, CH7="H5", ME8="H5")
    st["pieces"]["CH7"]["ep"] = ep
    set_turn(st, "alpha")
    st, ev, _ = play_turn(st, "alpha", "ATTACK CH7 ME8", [6, 6, 1, 1, 1, 1, 2])
    assert st["pieces"]["CH7"]["ep"] == after


def test_tc31_transport() -> None:
    st = two()
    place(st, ME2="K10", ME8="K10", ME9="K10")
    set_turn(st, "alpha", me=3)
    st, ev, _ = play_turn(st, "alpha", "MOVE ME2 K11 K12 K13 WITH ME8 ME9", [1, 2])
    assert {st["pieces"][p]["loc"] for p in ("ME2", "ME8", "ME9")} == {"K13"}
    assert st["players"]["alpha"]["me"] == 0


# --- TC-32 .. TC-37 special fields, 0 ÉP, elimination, placement ---------------------------------------
def test_tc32_heal_field() -> None:
    st = two()
    place(st, ME2="F12")
    st["pieces"]["ME2"]["ep"] = 20
    set_turn(st, "beta")
    st, ev, _ = play_turn(st, "beta", "", [1, 2])
    assert st["pieces"]["ME2"]["ep"] == 21
    st["players"]["alpha"]["hand"] = ["n22"]
    set_turn(st, "alpha", energy=3)
    place(st, ME1="F10")
    st, ev, _ = play_turn(st, "alpha", "PLAY Gyogyitas BY ME1 ON ME2", [3, 4, 1, 2])
    assert st["pieces"]["ME2"]["ep"] == 30
    st["pieces"]["ME2"]["ep"] = 20
    place(st, CH8="F12")
    st["pieces"]["CH8"]["status"] = {"asleep": {"seat": "beta", "until": 99}}
    set_turn(st, "beta")
    st, ev, _ = play_turn(st, "beta", "", [1, 2])
    assert st["pieces"]["ME2"]["ep"] == 20  # contested: no heal


def test_tc33_rally() -> None:
    from pbem.rulesets.cherubion.rules.queries import effective_tk, fe_bonus
    st = two()
    place(st, ME8="K8", ME9="F13")
    st["turn"] = {}
    assert effective_tk(st, st["pieces"]["ME8"]) == 23 and fe_bonus(st, st["pieces"]["ME8"]) == 1
    assert effective_tk(st, st["pieces"]["ME9"]) == 21


def test_tc34_scry() -> None:
    st = two()
    place(st, ME8="G12")
    st["players"]["beta"]["deck"] = ["n01", "n02", "n03"]
    set_turn(st, "beta")
    st, ev, _ = play_turn(st, "beta", "", [1, 1, 2])  # pick index 1 = n02 as the top card
    seen = [e for e in ev if e.kind == "scry"]
    assert seen and seen[0].to == ("alpha",) and "Vakondpulyka" in seen[0].text
    assert st["players"]["beta"]["deck_top"]["card"] == "n02"
    assert len(st["players"]["beta"]["deck"]) + 1 == 3


def test_tc35_zero_window_heal_trigger() -> None:
    st = two()
    place(st, ME8="H5", CH8="H5", ME1="H7")
    st["pieces"]["ME8"]["ep"] = 3
    st["pieces"]["CH8"]["vsz"] = 30
    st["players"]["alpha"]["hand"] = ["n22"]
    st["players"]["alpha"]["energy"] = 3
    st["players"]["alpha"]["triggers"] = [{"event": "ZERO", "card": "n22", "caster": "ANY",
                                           "on": "ANY", "subject": "ANY", "over": 0}]
    set_turn(st, "beta")
    # zombie hits 20+6 > 24 for 3 -> 0; ME8 strikes back (miss); trigger heals 2+2
    st, ev, _ = play_turn(st, "beta", "ATTACK CH8 ME8", [3, 3, 3, 1, 1, 2, 2, 1, 2])
    assert st["pieces"]["ME8"]["ep"] == 4 and "Gyógyítás" in texts(ev)
    st = two()
    place(st, ME8="H5", CH8="H5")
    st["pieces"]["ME8"]["ep"] = 3
    st["pieces"]["CH8"]["vsz"] = 30
    set_turn(st, "beta")
    st, ev, _ = play_turn(st, "beta", "ATTACK CH8 ME8", [3, 3, 3, 1, 1, 1, 2])
    assert st["pieces"]["ME8"]["loc"] == "gone"


def test_tc36_elimination_base_transfer() -> None:
    st = build({"a": "choler", "b": "sang", "c": "melan"}, {"a": 1, "b": 3, "c": 4})
    for p in st["pieces"].values():
        if p["owner"] == "b" and p["id"] != "SA7":
            p["loc"] = "gone"
    place(st, CH2="H5", SA7="H5", ME1="K8", CH1="B8")
    st["pieces"]["SA7"]["ep"] = 1
    set_turn(st, "a")
    st, ev, _ = play_turn(st, "a", "ATTACK CH2 SA7", [6, 6, 6, 1, 1, 1, 2])
    assert not st["players"]["b"]["alive"] and st["players"]["a"]["bases"] == [1, 3]
    from pbem.rulesets.cherubion.rules.movement import deploy_problem
    st["players"]["a"]["me"] = 9
    assert deploy_problem(st, "a", "CH5", "J17") is not None  # CH5 is in side 1's Base


def test_tc37_initial_placement() -> None:
    st = two()
    st["phase"] = "place"
    st["placing"] = 0
    st["players"]["alpha"]["deck"] = [f"n0{i}" for i in range(1, 10)] + ["n10"]
    lines = "\n".join(f"PLACE {p} {f}" for p, f in zip(
        ["ME1", "ME2", "ME3", "ME4", "ME5", "ME6"], ["K8", "K10", "K12", "K6", "K4", "K2"],
        strict=False))
    st, ev, _ = play_turn(st, "alpha", lines, [0] * 10)
    assert st["pieces"]["ME6"]["loc"] == "base:4"
    assert "only 5 pieces" in texts(ev)
    assert len(st["players"]["alpha"]["hand"]) == 10
