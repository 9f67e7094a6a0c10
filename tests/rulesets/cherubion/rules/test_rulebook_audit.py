"""Rules an audit of the implementation against the rulebook found untested or missing:
the second fire hit (TC-17), summons counting for building, a summon's own MÉ, going home
from No-Man's Land later, and the 0-ÉP heal of one's own captured body being for that
turn only."""

from __future__ import annotations

from pbem.rulesets.cherubion import RULESET

from ..helpers import build, place, play_turn, refusal, set_turn, texts


def two(a: str = "melan", b: str = "choler", sa: int = 4, sb: int = 1, **kw):
    return build({"alpha": a, "beta": b}, {"alpha": sa, "beta": sb}, **kw)


def test_tc17_a_second_fire_hit_deals_4_and_the_tick_stays_4() -> None:
    """Rulebook "Speciális sebzések": the special damage does not stack; a second hit from
    the same creature deals its 4 and the per-turn loss stays 4, not 8."""
    st = two()
    fire, y = st["pieces"]["CH2"], st["pieces"]["ME8"]
    fire.update(fe="0d6+4", special=4, tk=40)
    y.update(ep=30, max_ep=30, vsz=25)
    place(st, CH2="H5", ME8="H5")
    for _ in range(2):
        set_turn(st, "beta")
        # hit 3+3 for 4; ME8's strike-back misses 1+1; alpha's MÉ 1+2 and the tick
        st, ev, _ = play_turn(st, "beta", "ATTACK CH2 ME8", [3, 3, 1, 1, 1, 2])
    y = st["pieces"]["ME8"]
    assert y["burn"] == 4
    assert y["ep"] == 30 - 4 - 4 - 4 - 4  # two hits of 4, two ticks of 4


def test_summoned_pieces_count_for_building() -> None:
    """Rulebook "Erőforrások": "az idézett lények is karakternek számítanak": one own
    character and two summoned creatures on the board may build a large resource (3)."""
    st = two()
    place(st, ME1="H10")
    st["players"]["alpha"]["hand"] = ["me05", "me06"]
    set_turn(st, "alpha", me=9, energy=11)
    st, ev, _ = play_turn(st, "alpha", "PLAY BA 5 BY ME1 ON H11\nPLAY BA 6 BY ME1 ON H9\n"
                          "BUILD large H10", [1, 2])
    assert [(r["size"], r["field"]) for r in st["resources"].values()] == [("large", "H10")]


def test_two_pieces_are_too_few_for_a_large_resource() -> None:
    st = two()
    place(st, ME1="H10")
    st["players"]["alpha"]["hand"] = ["me05"]
    set_turn(st, "alpha", me=9, energy=5)
    why = refusal(st, "alpha", "PLAY BA 5 BY ME1 ON H11\nBUILD large H10")
    assert "a large resource needs 3 of your pieces on the board" in why  # on arrival


def test_chlovia_walks_on_her_own_me_not_the_players() -> None:
    """Rulebook "A megidézett lények": Chlovia has her own MÉ (1-6) and moves "külön pont
    elköltése nélkül" (without spending the player's points)."""
    st = two()
    place(st, ME1="L6")
    st["players"]["alpha"]["hand"] = ["n26"]
    set_turn(st, "alpha", energy=6)
    st, ev, _ = play_turn(st, "alpha", "PLAY Chlovia BY ME1 ON L6", [1, 2])
    chl = next(p for p in st["pieces"].values() if p["card"] == "n26")
    st, ev, _ = play_turn(st, "beta", "", [1, 2])
    set_turn(st, "alpha", me=2)
    # own MÉ roll 4: four steps along row L; the player's 2 MÉ are untouched by her walk
    # (no line of the file spends them: they lapse, and the file is told on arrival)
    parsed = RULESET.parse(st, "alpha", f"MOVE {chl['id']} L7 L8 L9 L10")
    assert parsed.ok and "up to 2 MÉ may be left unused" in (parsed.lines[0].note or "")
    st, ev, _ = play_turn(st, "alpha", f"MOVE {chl['id']} L7 L8 L9 L10", [4, 1, 2])
    assert st["pieces"][chl["id"]]["loc"] == "L10"
    assert "rolls its own MÉ: 4" in texts(ev)
    assert "alpha leaves 2 MÉ unused: it lapses" in texts(ev)


def test_a_piece_in_no_mans_land_may_go_home_later() -> None:
    """Rulebook "A Senki Földje": "onnan lehet teleportálni a Bázisra" (one way, to the
    Base), also after staying there; it deploys again from the next turn."""
    st = two()
    place(st, ME8="nml")
    set_turn(st, "alpha", me=3)
    assert "may be deployed from your next turn" in refusal(st, "alpha",
                                                           "MOVE ME8 HOME\nDEPLOY ME8 A4")
    st, ev, _ = play_turn(st, "alpha", "MOVE ME8 HOME", [1, 2])
    assert st["pieces"]["ME8"]["loc"] == "base:4"
    assert "goes home from No-Man's Land" in texts(ev)


def test_the_0_ep_heal_of_your_own_captured_body_is_for_that_turn_only() -> None:
    st = two()
    place(st, CH2="H5", CH4="H5", ME8="H5", ME1="H6")
    st["pieces"]["ME8"]["ep"] = 5
    set_turn(st, "beta")
    # CH2 hits 6+6 for 3+2 = 5: ME8 at exactly 0, captured by the wyvern; no strike-back
    # hit (1+1); alpha's MÉ 1+2
    st, ev, _ = play_turn(st, "beta", "ATTACK CH2 ME8 CAPTURE CH4", [6, 6, 3, 1, 1, 1, 2])
    assert st["pieces"]["ME8"]["ep"] == 0 and st["pieces"]["ME8"]["captive"]["captor"] == "beta"
    st["players"]["alpha"]["hand"] = ["n22"]
    st["players"]["alpha"]["energy"] = 3
    assert "in the turn it fell" in refusal(st, "alpha", "PLAY Gyogyitas BY ME1 ON ME8")


def test_initial_placement_is_anywhere_also_onto_an_enemy() -> None:
    """Rulebook "Mozgások a játéktéren": the first 5 characters go "tetszőleges helyre"
    (anywhere); the spec's [A] ban on fields holding another player's piece is not the
    rulebook's. The pieces then stand engaged."""
    from pbem.rulesets.cherubion.rules.queries import engaged
    st = two()
    st["phase"] = "place"
    st["placing"] = 0
    place(st, CH2="K8")
    st["players"]["alpha"]["deck"] = [f"n0{i}" for i in range(1, 10)] + ["n10"]
    st, _, _ = play_turn(st, "alpha", "PLACE ME8 K8", [0] * 10)
    assert st["pieces"]["ME8"]["loc"] == "K8"
    assert engaged(st, st["pieces"]["ME8"])


def test_a_resource_may_be_built_where_an_enemy_stands() -> None:
    """Rulebook "Erőforrások": "a játéktér tetszőleges pontján" (any point of the board)."""
    st = two()
    place(st, ME1="H10", CH8="H11")
    set_turn(st, "alpha", me=5)
    st, ev, _ = play_turn(st, "alpha", "BUILD small H11", [1, 2])
    assert [(r["owner"], r["field"]) for r in st["resources"].values()] == [("alpha", "H11")]
