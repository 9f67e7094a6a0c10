"""Two standing orders for decisions that fall to a seat in another player's turn:
- CAPTURE (Rulebook "Fogolyejtés": an enemy character wounded to 9..0 may be captured if
  the attacker has a transport piece): also for strike-backs, mandatory melee, free
  attacks and card damage, with a named carrier, ANY, or NO (the default).
- STRIKEBACK (Rulebook "Harc több ellenféllel": the player decides whom his attacked
  piece fights, one enemy per round): save the strike-back for listed attackers."""

from __future__ import annotations

from pbem.core.dice import ScriptedDice
from pbem.core.kit import OrderError
from pbem.rulesets.cherubion import RULESET, data
from pbem.rulesets.cherubion.orders import CaptureWith, StrikeBack

from ..helpers import build, parse_line, place, play_turn, refusal, set_turn, texts


def two() -> dict:
    """alpha Choler (active) against beta Melan; beta's jeep ME5 waits on H13."""
    st = build({"alpha": "choler", "beta": "melan"}, {"alpha": 1, "beta": 4})
    place(st, CH8="H12", ME8="H12", ME5="H13", CH1="B8", ME1="K8")
    set_turn(st, "alpha")
    return st


# the zombie CH8 (3 ÉP, TK 20) misses the rifleman ME8 (1+1: 22 <= VSZ 24); ME8 strikes back
# 6+6 (21+12=33 > VSZ 22) for 1d6+1 = 5+1 = 6: CH8 goes to -3; then beta's MÉ roll 1+2
MISS_THEN_STRIKE_BACK = [1, 1, 6, 6, 5, 1, 2]


def test_a_strike_back_captures_with_the_capture_standing_order() -> None:
    st = two()
    st["pieces"]["CH8"]["ep"] = 3
    st["players"]["beta"]["standing"]["capture"] = "ANY"
    st, ev, _ = play_turn(st, "alpha", "ATTACK CH8 ME8", MISS_THEN_STRIKE_BACK)
    ch8 = st["pieces"]["CH8"]
    assert ch8["ep"] == -3 and ch8["loc"] == "H12"
    assert ch8["captive"]["captor"] == "beta" and ch8["captive"]["carrier"] == "ME5"
    assert "CH8" in st["players"]["beta"]["transit"]
    assert "beta captures the body of Zombie (CH8) at -3 ÉP" in texts(ev)


def test_without_the_order_the_strike_back_kills() -> None:
    st = two()
    st["pieces"]["CH8"]["ep"] = 3
    st, ev, _ = play_turn(st, "alpha", "ATTACK CH8 ME8", MISS_THEN_STRIKE_BACK)
    assert st["pieces"]["CH8"]["loc"] == "gone"
    assert not st["players"]["beta"]["transit"]


def test_capture_no_and_a_full_carrier_kill() -> None:
    st = two()
    st["pieces"]["CH8"]["ep"] = 3
    st["players"]["beta"]["standing"]["capture"] = "ME2"  # the helicopter is in the Base
    st, ev, _ = play_turn(st, "alpha", "ATTACK CH8 ME8", MISS_THEN_STRIKE_BACK)
    assert st["pieces"]["CH8"]["loc"] == "gone"


def test_card_damage_captures_too() -> None:
    """beta's Kézigránát (TK 24 + 6+6 = 36 > 22; 2d6 = 3+3) takes CH8 from 3 to -3."""
    st = two()
    st["pieces"]["CH8"]["ep"] = 3
    place(st, ME1="H13")
    st["players"]["beta"]["hand"] = ["me01"]
    st["players"]["beta"]["standing"]["capture"] = "ME5"
    set_turn(st, "beta", energy=2)
    st, ev, _ = play_turn(st, "beta", "PLAY Kezigranat BY ME1 ON CH8", [6, 6, 3, 3, 1, 2])
    assert st["pieces"]["CH8"]["ep"] == -3 and st["pieces"]["CH8"]["captive"]["captor"] == "beta"


def test_strikeback_saves_the_blow_for_the_named_attacker() -> None:
    """Melan (reach 5) is attacked by the zombie, then by Choler from 2 fields: with
    STRIKEBACK ME1 AT CH1 he lets the zombie be and hits Choler back (6+6: 28+12 = 40 >
    VSZ 32; 2d6+2 = 1+1+2 = 4)."""
    st = two()
    place(st, CH8="H12", ME1="H12", ME8="K8", CH1="H14")
    st["players"]["beta"]["standing"]["strikeback"] = {"ME1": ["CH1"]}
    st, ev, _ = play_turn(st, "alpha", "ATTACK CH8 ME1\nATTACK CH1 ME1",
                          [1, 1, 1, 1, 6, 6, 1, 1, 1, 2])
    t = texts(ev)
    assert t.count("Strike-back: Melan (ME1)") == 1
    assert st["pieces"]["CH1"]["ep"] == 56 and st["pieces"]["CH8"]["ep"] == 12


def test_by_default_the_first_attacker_gets_the_strike_back() -> None:
    st = two()
    place(st, CH8="H12", ME1="H12", ME8="K8", CH1="H14")
    # zombie misses, Melan strikes back 6+6 for 1+1+2 = 4 (12 -> 8); Choler misses, no
    # second strike-back
    st, ev, _ = play_turn(st, "alpha", "ATTACK CH8 ME1\nATTACK CH1 ME1",
                          [1, 1, 6, 6, 1, 1, 1, 1, 1, 2])
    assert st["pieces"]["CH8"]["ep"] == 8 and st["pieces"]["CH1"]["ep"] == 60


def test_parse_and_store() -> None:
    assert parse_line("STRIKEBACK ME1 AT CH1 CH2", 6) == StrikeBack("ME1", ("CH1", "CH2"))
    assert str(parse_line("visszaut ME1 elso", 6)) == "STRIKEBACK ME1 FIRST"
    assert parse_line("ELFOG barmely", 6) == CaptureWith("ANY")
    assert str(parse_line("CAPTURE me5", 6)) == "CAPTURE ME5"
    for bad, says in (("STRIKEBACK ME1", "AT <attacker>"), ("CAPTURE", "transport piece")):
        try:
            parse_line(bad, 6)
        except OrderError as e:
            assert says in str(e)
        else:
            raise AssertionError(bad)
    st = two()
    place(st, CH8="B9")  # no mandatory melee in alpha's empty turn
    st, ev, _ = play_turn(st, "alpha", "", [1, 2])
    parsed = RULESET.parse(st, "alpha", "STRIKEBACK CH1 AT ME1\nCAPTURE CH4")  # unasked
    assert parsed.ok, parsed.echo()
    st, _ = RULESET.resolve(st, {"alpha": parsed, "beta": RULESET.parse(st, "beta", "")},
                            ScriptedDice([1, 2, 1, 2, 1, 2]))
    assert st["players"]["alpha"]["standing"]["strikeback"] == {"CH1": ["ME1"]}
    assert st["players"]["alpha"]["standing"]["capture"] == "CH4"


REACH_0 = ("Rulebook \"Harc több ellenféllel\": \"azzal az ellenséggel kell harcolnia, akivel "
           "azonos játékmezőn áll\"")


def test_a_piece_without_reach_has_no_strikeback_plan() -> None:
    """Rulebook "Harc több ellenféllel": the attacked piece must fight the enemy on its own
    field, unless it can attack farther fields ("kivéve azt az esetet, ha a karakter képes
    távolabbi mezőket támadni"): only then does the player choose. The zombie (reach 0)
    may not save its strike-back for Melan shooting from afar: refused on arrival."""
    st = two()
    assert st["pieces"]["CH8"]["reach"] == 0
    why = refusal(st, "alpha", "STRIKEBACK CH8 AT ME1")
    assert "Zombie (CH8) has no reach: it fights the enemy on its own field" in why
    assert REACH_0 in why
    assert refusal(st, "beta", "STRIKEBACK ME1 AT CH8") == ""  # Melan reaches 5


def test_a_stored_plan_of_a_piece_without_reach_is_void() -> None:
    """A plan stored for the zombie (from before this rule) does not stop it from striking
    back at the rifleman on its own field."""
    st = two()
    st["players"]["alpha"]["standing"]["strikeback"] = {"CH8": ["ME1"]}
    set_turn(st, "beta")
    st, ev, _ = play_turn(st, "beta", "ATTACK ME8 CH8", [1, 1, 6, 6, 6, 6, 1, 2, 1, 2])
    assert "Strike-back: Zombie (CH8)" in texts(ev)


def _summoned_lizard(st: dict, field: str, ep: int) -> str:
    """beta's Barlangi gyík (a summoned creature, face up) on `field`."""
    s = data.card("n01")["summon"]
    st["pieces"]["S1"] = {
        "id": "S1", "name": "Cave Lizard", "owner": "beta", "origin": "beta", "teams": [],
        "kind": "creature", "summoned": True, "card": "n01", "loc": field, "ep": ep,
        "max_ep": s["ep"], "tk": s["tk"], "vsz": s["vsz"], "fe": s["fe"], "reach": s["reach"],
        "transport": 0, "kk": 0, "flags": list(s.get("flags", [])), "own_me": s["own_me"],
        "status": {}, "attached": [], "hidden": None, "captive": None, "home_turn": -1}
    st["id_counters"]["S"] = 1
    return "S1"


SUMMONED = "\"A megidézett lényeket nem lehet foglyul ejteni!\""


def test_a_summoned_piece_cannot_be_captured_and_the_player_is_told() -> None:
    """Rulebook "A megidézett lények": "A megidézett lényeket nem lehet foglyul ejteni!"
    The CAPTURE clause is noted on arrival; when the blow lands, the line's outcome says
    why there was no capture (it used to fail without a word)."""
    st = two()
    place(st, CH2="H14", CH4="H15")
    _summoned_lizard(st, "H14", 2)
    parsed = RULESET.parse(st, "alpha", "ATTACK CH2 S1 CAPTURE CH4")
    assert parsed.ok and SUMMONED in (parsed.lines[0].note or "")
    # CH2 hits 6+6 for 8 (S1 to -6); S1 strikes back 6+6 for 7; then the zombie and the
    # rifleman on H12 fight their mandatory melee (1+2, 1+2, 1); beta's MÉ 2+1
    st, ev = RULESET.resolve(st, {"alpha": parsed}, ScriptedDice([6] * 6 + [1, 2, 1, 2, 1, 2, 1]))
    said = [e for e in ev if e.kind == "outcome"]
    assert said[0].data["status"] == "changed" and SUMMONED in said[0].data["why"]
    assert said[0].to == ("alpha",)
    assert st["pieces"]["S1"]["loc"] == "gone" and st["players"]["alpha"]["transit"] == []


def test_the_capture_standing_order_says_why_a_summoned_piece_was_not_taken() -> None:
    st = two()
    place(st, CH2="H14", CH4="H15")
    _summoned_lizard(st, "H14", 2)
    st["players"]["alpha"]["standing"]["capture"] = "ANY"
    st, ev, _ = play_turn(st, "alpha", "ATTACK CH2 S1", [6] * 6 + [1, 2, 1, 2, 1, 2, 1])
    told = [e for e in ev if e.kind == "capture_fail"]
    assert told and told[0].to == ("alpha",) and SUMMONED in told[0].text
