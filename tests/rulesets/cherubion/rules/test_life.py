"""Base inheritance on elimination (Rulebook "A játék alapjai": "a Bázisa átmegy annak a
játékosnak a tulajdonába, aki az utolsó karakterét ... elpusztította"): the Base goes to
whoever destroyed the last character, also when it is captured, dies at exactly 0 ÉP at the
end step, dies of a resource-destruction loss or of special damage."""

from __future__ import annotations

from pbem.core.dice import ScriptedDice
from pbem.rulesets.cherubion import RULESET
from pbem.rulesets.cherubion.rules.life import damage, destroy_resource

from ..helpers import asked, build, ctx, place, play_turn, resource, set_turn, texts


def three() -> dict:
    """a = Choler (side 1), b = Sang (side 3) with only the clone warrior SA7 left (16 ÉP
    max, VSZ 24), c = Melan (side 4)."""
    st = build({"a": "choler", "b": "sang", "c": "melan"}, {"a": 1, "b": 3, "c": 4})
    for p in st["pieces"].values():
        if p["owner"] == "b" and p["id"] != "SA7":
            p["loc"] = "gone"
    return st


def test_capturing_the_last_character_eliminates_and_the_capturer_takes_the_base() -> None:
    st = three()
    place(st, CH2="H5", CH4="H5", SA7="H5", CH1="B8")
    st["pieces"]["SA7"]["ep"] = 5
    set_turn(st, "a")
    # CH2 hits (6+6), damage 6+2 = 8 -> SA7 at -3, captured with the wyvern CH4; SA7's
    # strike-back misses (1+1); then c's MÉ dice
    st, ev, _ = play_turn(st, "a", "ATTACK CH2 SA7 CAPTURE CH4", [6, 6, 6, 1, 1, 1, 2])
    sa7 = st["pieces"]["SA7"]
    assert sa7["ep"] == -3 and sa7["captive"]["captor"] == "a"
    assert not st["players"]["b"]["alive"]
    assert st["players"]["a"]["bases"] == [1, 3] and st["players"]["b"]["bases"] == []
    assert "a takes over the Base on side(s) 3" in texts(ev)
    # the body stays the capturer's: it is not cleared away with b's pieces
    assert sa7["loc"] != "gone" and sa7["id"] in st["players"]["a"]["transit"]


def test_last_character_left_at_zero_goes_to_whoever_brought_it_to_zero() -> None:
    st = three()
    place(st, SA7="H5", CH1="B8")
    st["pieces"]["SA7"]["ep"] = 5
    c = ctx(st, [])
    damage(c, st["pieces"]["SA7"], 5, "Attack", by="c")  # c's blow: 5 -> exactly 0
    set_turn(st, "a")
    st, ev, _ = play_turn(st, "a", "", [1, 2])  # end step: nobody heals it, it dies
    assert st["pieces"]["SA7"]["loc"] == "gone"
    assert not st["players"]["b"]["alive"]
    assert st["players"]["c"]["bases"] == [4, 3] and st["players"]["a"]["bases"] == [1]
    assert "closed" not in texts(ev)


def test_last_character_killed_by_a_resource_loss_goes_to_the_destroyer() -> None:
    st = three()
    rid = resource(st, "b", "N5", "large")  # 60 ÉP: the loss is 60 // 4 = 15
    st["pieces"]["SA7"]["loc"] = "base:3"
    st["pieces"]["SA7"]["ep"] = 4
    c = ctx(st, [])
    destroy_resource(c, rid, "attacked", by="a")
    assert st["pieces"]["SA7"]["ep"] == 0  # a loss never goes below 0
    set_turn(st, "a")
    st, ev, _ = play_turn(st, "a", "", [1, 2])
    assert st["pieces"]["SA7"]["loc"] == "gone"
    assert not st["players"]["b"]["alive"]
    assert st["players"]["a"]["bases"] == [1, 3]


def test_resource_loss_split_on_asking_keeps_the_destroyer() -> None:
    st = build({"a": "choler", "b": "sang", "c": "melan"}, {"a": 1, "b": 3, "c": 4},
               options={"decisions": "ask"})
    for p in st["pieces"].values():
        if p["owner"] == "b" and p["id"] != "SA7":
            p["loc"] = "gone"
    rid = resource(st, "b", "H10", "large")
    st["pieces"]["SA7"]["loc"] = "base:3"
    st["pieces"]["SA7"]["ep"] = 4
    place(st, ME1="H12")
    set_turn(st, "c", energy=10)
    st["players"]["c"]["hand"] = ["n10"]
    st, ev, _ = play_turn(st, "c", f"PLAY n10 BY ME1 ON {rid}", [])
    assert asked(st)["seat"] == "b" and asked(st)["event"] == "LOSS"
    st, ev = RULESET.resolve(st, {"b": RULESET.parse(st, "b", "LOSS SA7")},
                             ScriptedDice([1, 2]))
    assert st["pieces"]["SA7"]["loc"] == "gone"
    assert not st["players"]["b"]["alive"] and st["players"]["c"]["bases"] == [4, 3]


def test_last_character_dying_of_special_damage_goes_to_the_burner() -> None:
    st = three()
    place(st, SA7="H5", CH1="B8")
    st["pieces"]["SA7"]["ep"] = 6
    damage(ctx(st, []), st["pieces"]["SA7"], 4, "Attack", by="a")  # 6 -> 2
    st["pieces"]["SA7"]["burn"] = 3  # a's blow set it burning for 3 a turn
    set_turn(st, "a")
    # a's turn ends; at the start of b's turn SA7 burns 2 -> -1 and dies
    st, ev, _ = play_turn(st, "a", "", [1, 2, 1, 2])
    assert st["pieces"]["SA7"]["loc"] == "gone" and st["pieces"]["SA7"]["ep"] == -1
    assert not st["players"]["b"]["alive"]
    assert st["players"]["a"]["bases"] == [1, 3]


def test_a_blow_to_exactly_zero_in_play_gives_the_base_to_the_attacker() -> None:
    """Through the real attack: CH2 hits SA7 (5 ÉP) for exactly 5; nobody heals it; a
    takes the Base at the end step."""
    st = three()
    place(st, CH2="H5", SA7="H5", CH1="B8")
    st["pieces"]["SA7"]["ep"] = 5
    set_turn(st, "a")
    # hit 6+6; damage: CH2's FÉ die 3 (+2) = 5 -> exactly 0; strike-back misses 1+1; c's MÉ
    st, ev, _ = play_turn(st, "a", "ATTACK CH2 SA7", [6, 6, 3, 1, 1, 1, 2])
    assert st["pieces"]["SA7"]["loc"] == "gone"
    assert st["players"]["a"]["bases"] == [1, 3]


def test_unhealed_body_captured_at_zero_eliminates_at_the_end_step() -> None:
    st = three()
    place(st, CH2="H5", CH4="H5", SA7="H5", CH1="B8")
    st["pieces"]["SA7"]["ep"] = 5
    set_turn(st, "a")
    st, ev, _ = play_turn(st, "a", "ATTACK CH2 SA7 CAPTURE CH4", [6, 6, 3, 1, 1, 1, 2])
    assert not st["players"]["b"]["alive"]
    assert st["players"]["a"]["bases"] == [1, 3]
    assert st["pieces"]["SA7"]["captive"]["captor"] == "a"


def test_taking_the_last_character_captive_by_card_eliminates() -> None:
    """Fogolyejtés on the netted SA7 standing with a's wyvern: a takes b's Base."""
    st = three()
    place(st, CH1="H5", CH4="H5", SA7="H5")
    st["pieces"]["SA7"]["status"]["bound"] = {"seat": "b", "until": 9, "card": "n20",
                                              "owner": "a"}
    st["players"]["a"]["hand"] = ["n19"]
    set_turn(st, "a", energy=5)
    st, ev, _ = play_turn(st, "a", "PLAY Fogolyejtes BY CH1 ON SA7", [1, 2])
    assert not st["players"]["b"]["alive"]
    assert st["players"]["a"]["bases"] == [1, 3]


# --- the resource-destruction loss, split by the player (Rulebook "Erőforrások": "a
# játékos maga osztja el a veszteséget") ------------------------------------------------

def _choler_base(decisions: str = "auto") -> tuple[dict, str]:
    """a = Choler with CH1 (60), CH8, CH9, CH10 (12 each) in its Base and a large resource
    (60 ÉP: the loss is 15); the rest of the team away; c (Melan) holds Erőforrás
    Megsemmisítése with ME1 in range."""
    st = build({"a": "choler", "b": "sang", "c": "melan"}, {"a": 1, "b": 3, "c": 4},
               options={"decisions": decisions})
    for pid in ("CH2", "CH3", "CH4", "CH5", "CH6", "CH7"):
        st["pieces"][pid]["loc"] = "gone"
    rid = resource(st, "a", "H10", "large")
    place(st, ME1="H12")
    st["players"]["c"]["hand"] = ["n10"]
    set_turn(st, "c", energy=10)
    return st, rid


def test_a_free_split_as_a_standing_order() -> None:
    """12/1/1/1: every piece takes what the player says, not a priority list."""
    st, rid = _choler_base()
    parsed = RULESET.parse(st, "a", "LOSS CH8=12 CH9=1 CH10=1 CH1=1")
    assert parsed.ok, parsed.echo()
    turn = RULESET.parse(st, "c", f"PLAY n10 BY ME1 ON {rid}")
    st, ev = RULESET.resolve(st, {"a": parsed, "c": turn}, ScriptedDice([1, 2]))
    assert st["players"]["a"]["standing"]["loss"] == ["CH8=12", "CH9=1", "CH10=1", "CH1=1"]
    ep = {pid: st["pieces"][pid]["ep"] for pid in ("CH1", "CH8", "CH9", "CH10")}
    assert ep == {"CH1": 59, "CH8": 0, "CH9": 11, "CH10": 11}


def test_a_piece_without_an_amount_takes_what_is_left() -> None:
    st, rid = _choler_base()
    st["players"]["a"]["standing"]["loss"] = ["CH9=2", "CH1"]
    st, ev, _ = play_turn(st, "c", f"PLAY n10 BY ME1 ON {rid}", [1, 2])
    assert st["pieces"]["CH9"]["ep"] == 10 and st["pieces"]["CH1"]["ep"] == 60 - 13


def test_asked_the_split_is_answered_and_a_wrong_sum_refused_on_arrival() -> None:
    st, rid = _choler_base("ask")
    st, ev, _ = play_turn(st, "c", f"PLAY n10 BY ME1 ON {rid}", [])
    q = asked(st)
    assert q["seat"] == "a" and q["event"] == "LOSS" and "lose 15 ÉP in total" in q["text"]
    assert q["options"] == ["LOSS CH1=15"]  # the default: the piece with the most ÉP
    bad = RULESET.parse(st, "a", "LOSS CH8=12 CH9=1")
    assert not bad.ok and "the amounts add up to 13; split 15 ÉP" in bad.lines[0].error
    over = RULESET.parse(st, "a", "LOSS CH8=13 CH9=2")
    assert not over.ok and "CH8 has 12 ÉP: it can lose at most that" in over.lines[0].error
    st, ev = RULESET.resolve(st, {"a": RULESET.parse(st, "a", "LOSS CH8=12 CH9=1 CH10=1 CH1=1")},
                             ScriptedDice([1, 2]))
    ep = {pid: st["pieces"][pid]["ep"] for pid in ("CH1", "CH8", "CH9", "CH10")}
    assert ep == {"CH1": 59, "CH8": 0, "CH9": 11, "CH10": 11}
    assert st["players"]["a"]["standing"]["loss"] == ["CH8=12", "CH9=1", "CH10=1", "CH1=1"]
