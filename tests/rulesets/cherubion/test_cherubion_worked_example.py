"""TC-38: the rulebook's worked example game ("Példajáték"), rounds 1-3 and the skipped
start of round 4, die for die with the rulebook's numbers (positions and a few costs are
the spec's assumptions, §9 TC-38). Turn order as played: Melan, Choler, Sang."""

from __future__ import annotations

from pbem.rulesets.cherubion.rules.turn import start_turn

from .helpers import build, ctx, place, play_turn, resource, texts

MELAN, CHOLER, SANG = "alpha", "beta", "gamma"


def setup_example() -> dict:
    st = build({MELAN: "melan", CHOLER: "choler", SANG: "sang"},
               {MELAN: 4, CHOLER: 1, SANG: 3})
    place(st, ME1="K8", ME2="K10", ME4="H12", ME5="J12", ME7="K6",
          CH1="B8", CH2="D12", CH4="C6", CH6="B10", CH7="C10",
          SA1="H18", SA2="G18", SA3="I16", SA5="H16", SA6="G16")
    resource(st, MELAN, "L8")
    resource(st, CHOLER, "B6")
    resource(st, SANG, "I18")
    st["players"][MELAN]["hand"] = sorted(["n01", "n03", "n04", "n05", "n06", "n02", "me01",
                                           "me02", "n07", "ot01"])
    st["players"][MELAN]["deck"] = ["n08"]
    st["players"][CHOLER]["hand"] = sorted(["n06", "ch04", "n21", "n04", "ch01", "ch03",
                                            "ch05", "n11", "n22", "n12"])
    st["players"][CHOLER]["deck"] = ["n09"]
    st["players"][SANG]["hand"] = sorted(["n10", "sa01", "sa02", "sa03", "n04", "n22", "n21",
                                          "n01", "n05", "n20"])
    for s in (MELAN, CHOLER, SANG):
        st["players"][s]["turns"] = 0
    c = ctx(st, [2, 4])
    start_turn(ctx)
    return st


def test_tc38_worked_example() -> None:
    st = setup_example()
    P = st["pieces"]
    pl = st["players"]
    assert pl[MELAN]["me"] == 6 and pl[MELAN]["energy"] == 5

    # Round 1, Melan: helicopter 2 steps, draw (Fegyverállvány), Barlangi gyík at J10
    st, ev, d = play_turn(st, MELAN, "MOVE ME2 K11 K12\nDRAW\n"
                          "PLAY Barlangi gyik BY ME1 ON J10", [0, 6, 6, 2, 3])
    assert P["ME2"]["loc"] == "K12" and "n08" in pl[MELAN]["hand"]
    assert pl[MELAN]["energy"] == 1 and pl[MELAN]["me"] == 0
    assert st["markers"]["SZ1"]["field"] == "J10" and st["markers"]["SZ1"]["hidden"]
    assert pl[CHOLER]["me"] == 17 and pl[CHOLER]["energy"] == 5

    # Round 1, Choler: large resource at E13, xinaf 4 steps, draw, Seven-League Boots
    st, ev, d = play_turn(st, CHOLER, "LOSS CH8 CH9\nBUILD LARGE E13\n"
                          "MOVE CH2 D13 E14 E15 F16\nDRAW\n"
                          "PLAY Hetmerfoldes Csizma BY CH4 ON CH4\n"
                          "MOVE CH4 C5 D6 D5 E6 E5 F6 F7 G7 G8 H7", [0, 1, 2])
    assert P["CH2"]["loc"] == "F16" and P["CH4"]["loc"] == "H7"
    assert pl[CHOLER]["me"] == 0 and pl[CHOLER]["energy"] == 1
    assert pl[SANG]["me"] == 3

    # Round 1, Sang: deploys a clone warrior and passes
    st, ev, d = play_turn(st, SANG, "DEPLOY SA7 J17", [3, 4])
    assert P["SA7"]["loc"] == "J17" and pl[SANG]["energy"] == 5
    assert st["round"] == 2 and pl[MELAN]["me"] == 7 and pl[MELAN]["energy"] == 5

    # Round 2, Melan: a medium resource at L10; a standing trigger for the tank
    st, ev, d = play_turn(st, MELAN, "BUILD MEDIUM L10\n"
                          "WHEN DAMAGE ON ME4 PLAY Eppenhogy BY ME4", [1, 4])
    assert pl[CHOLER]["energy"] == 10 and pl[CHOLER]["me"] == 5

    # Round 2, Choler: xinaf to the tank, Erősítés, attack 2+4, damage 4+2+5 = 11 -> Éppenhogy
    st, ev, d = play_turn(st, CHOLER, "MOVE CH2 F15 G15 G14 H13 H12\n"
                          "PLAY Erosites BY CH2 ON CH2\nATTACK CH2 ME4", [2, 4, 4, 5, 6])
    t = texts(ev)
    assert "25+6=31 > VSZ 30: hit" in t and "-> 11" in t
    assert "Éppenhogy" in t
    assert P["ME4"]["ep"] == 39
    assert "Strike-back" not in t  # the tank cannot strike back on its own field
    assert pl[CHOLER]["energy"] == 7 and pl[MELAN]["energy"] == 2
    assert pl[SANG]["me"] == 11

    # Round 2, Sang: large resource at G20, psionata 2 steps
    st, ev, d = play_turn(st, SANG, "BUILD LARGE G20\nMOVE SA6 G15 F15", [3, 4])
    assert pl[MELAN]["energy"] == 8 and pl[MELAN]["me"] == 7 and st["round"] == 3

    # Round 3, Melan: draw (Taposóakna), Ködfátyol, the tank flees 3 and shoots: 13 damage
    st["players"][MELAN]["deck"] = ["me03"]
    st, ev, d = play_turn(st, MELAN, "DRAW\nPLAY Kodfatyol BY ME4 ON ME4\n"
                          "FLEE ME4 H13 H14 I13\nATTACK ME4 CH2\n"
                          "PLAY Taposoakna BY ME4 ON I13",
                          [0, 1, 3, 4, 4, 5, 2, 3, 3, 4])
    t = texts(ev)
    assert "Free attack" not in t
    assert "25+4=29 > VSZ 28: hit" in t and P["CH2"]["ep"] == 17
    assert "22+5=27 <= VSZ 30: miss" in t  # the xinaf's strike-back at -3
    assert P["ME4"]["loc"] == "I13" and pl[MELAN]["energy"] == 2 and pl[MELAN]["me"] == 0
    mine = next(m for m in st["markers"].values() if m["card"] == "me03")
    assert mine["field"] == "I13" and mine["hidden"]

    # Round 3, Choler: draw, xinaf onto the mine (2+4 = 6 -> 11), misses with 1+1, Időcsapda
    st["players"][CHOLER]["deck"] = ["n01"]
    st, ev, d = play_turn(st, CHOLER, "DRAW\nMOVE CH2 H13 H14 I13\nATTACK CH2 ME4\n"
                          "PLAY Idocsapda BY CH2 ON alpha", [0, 2, 4, 1, 1, 6, 6, 6, 6, 2, 4])
    t = texts(ev)
    assert P["CH2"]["ep"] == 11 and mine["id"] not in st["markers"]
    assert "me03" in pl[MELAN]["grave"]
    assert "25+2=27 <= VSZ 30: miss" in t
    assert pl[MELAN]["skip_turns"] == 2 and pl[CHOLER]["energy"] == 1
    assert pl[SANG]["me"] == 30 and pl[SANG]["energy"] == 10

    # Round 3, Sang: two large resources, psionata 12 steps, Erőforrás Megsemmisítése on E13
    e13 = next(r for r in st["resources"].values() if r["field"] == "E13")["id"]
    st, ev, d = play_turn(st, SANG, "BUILD LARGE F20\nBUILD LARGE E18\n"
                          "MOVE SA6 F16 F17 F18 F19 G19 G18 G17 G16 H15 H14 H13 G14\n"
                          f"PLAY Eroforras Megsemmisitese BY SA6 ON {e13}", [1, 2])
    t = texts(ev)
    assert e13 not in st["resources"]
    assert "lose 15" in t
    assert P["CH9"]["ep"] == 9
    assert P["CH8"]["loc"] == "gone" and "CH8" in pl[CHOLER]["grave"]  # the first victim
    assert [r["field"] for r in st["resources"].values() if r["owner"] == CHOLER] == ["B6"]

    # Round 4: Melan's turn is skipped (1 of 2); Choler's turn begins (MÉ 1+2)
    assert "misses this turn" in t and st["round"] == 4
    assert st["active"] == CHOLER and pl[MELAN]["skip_turns"] == 1 and pl[MELAN]["energy"] == 0
    assert d.remaining == 0
