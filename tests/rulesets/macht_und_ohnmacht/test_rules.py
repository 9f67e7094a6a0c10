"""Rule unit tests beyond the case files (cases/): decision steps with `decisions=ask`,
standing orders, fallbacks and conditions in a turn script, the win options."""

from __future__ import annotations

import pytest

from pbem.core.dice import ScriptedDice
from pbem.core.kit import Log
from pbem.rulesets.macht_und_ohnmacht.data import KNIGHT, MAGE
from pbem.rulesets.macht_und_ohnmacht.rules import cycle

from .helpers import RS, build, ex1, phase, region, send, send_many, texts


def _auction_state(**kw):  # TC-14 set-up
    return ex1(cycle_type="steel", hourglass=3, turn="white", display=["vp", "rebellion", "swap"],
               reserve={"orange": (2, 0), "white": (1, 0)}, **kw)


def test_sealed_bid_step_in_ask_mode_awaits_both() -> None:
    state = _auction_state(decisions="ask")
    send(state, "white", "TAKE vp\nRECRUIT")
    assert phase(state) == "bid"
    assert set(RS.awaiting(state)) == {"orange", "white"}
    # the seats' views do not show the other's bid
    send_many(state, {"orange": "BID 2", "white": "BID 1"})
    assert state["vp"]["orange"] == 1 and phase(state) == "turn"
    assert state["hourglass"] == 1  # white's script went on with RECRUIT


def test_taker_bid_is_sealed_while_the_other_is_asked() -> None:
    state = _auction_state(decisions="ask")
    send(state, "white", "TAKE vp BID 1\nRECRUIT")
    assert list(RS.awaiting(state)) == ["orange"]
    assert "my_bid" not in RS.view(state, "orange")
    assert RS.view(state, "white")["my_bid"]["bid"] == 1
    assert "bids" not in (RS.view(state, None)["pending"] or {})


def test_serpent_ask_step() -> None:
    state = ex1(cycle_type="steel", hourglass=5, held={"orange": ["castle"],
                                                       "white": ["serpent"]}, decisions="ask")
    send(state, "orange", "PLAY castle SEIZE d\nRECRUIT")
    assert phase(state) == "serpent" and list(RS.awaiting(state)) == ["white"]
    assert "RECRUIT" not in str(RS.view(state, "white"))  # orange's script stays hidden
    send(state, "white", "CANCEL")
    assert region(state, "d") == ("white", 1, 0)
    assert state["hourglass"] == 2  # tile, serpent, recruit
    assert state["turn"]["seat"] == "white"


def _scoring_state(o_active: int, w_active: int, vp: dict[str, int]) -> dict:
    markers = {f"r{i}": "castle" for i in range(8)}
    units = {f"r{i}": ("orange", 1, 0) for i in range(o_active)}
    units.update({f"r{4 + i}": ("white", 1, 0) for i in range(w_active)})
    return build(markers, [], units, cycle_type="steel", hourglass=0, vp=vp)


@pytest.mark.parametrize(("mode", "over"), [("another_cycle", False), ("draw", True)])
def test_simultaneous_twelve_full_tie(mode: str, over: bool) -> None:
    state = _scoring_state(2, 2, {"orange": 10, "white": 10})
    state["options"]["simultaneous_win"] = mode
    cycle.end_cycle(state, ScriptedDice([0] * 20), Log())
    assert (state["result"] is not None) == over
    if over:
        assert state["result"]["winners"] == ["orange", "white"]
    else:
        assert state["tied_ends"] == 1 and state["cycle"] == 2


def test_retreat_standing_preference_and_ask() -> None:
    state = ex1(cycle_type="steel", held={"orange": ["castle"]}, reserve={"orange": (1, 0)})
    state["standing"]["white"]["retreat"] = ["RETREAT active TO c"]
    send(state, "orange", "PLAY castle SEIZE d\nRECRUIT")
    assert region(state, "c") == ("white", 2, 2)
    state = ex1(cycle_type="steel", held={"orange": ["castle"]}, decisions="ask")
    send(state, "orange", "PLAY castle SEIZE d\nRECRUIT")
    assert phase(state) == "retreat"
    send(state, "white", "RETREAT none")
    assert region(state, "b") == ("white", 1, 1) and region(state, "c") == ("white", 1, 2)


def test_effect_ask_step() -> None:
    state = _auction_state(decisions="ask")
    send(state, "white", "TAKE rebellion BID 1\nRECRUIT")
    send(state, "orange", "BID 0")
    assert phase(state) == "effect" and list(RS.awaiting(state)) == ["white"]
    bad = RS.parse(state, "white", "SWAP a tent")
    assert not bad.ok and "rebellion" in bad.errors[0].error
    send(state, "white", "REBEL g 1K 1M")
    assert region(state, "g") == ("orange", 1, 0)


def test_script_fallbacks_refuse_illegal_lines_with_the_legal_choices() -> None:
    state = ex1(cycle_type="steel", display=["castle"], reserve={"orange": (1, 0)})
    # on arrival: a tile that is not on display can never be taken in this turn
    parsed = RS.parse(state, "orange", "TAKE helmet\nPLACE d\nTAKE castle\nPLACE f\nRECRUIT")
    assert parsed.lines[0].error == ("no Helmet influence tile is on display; on display: "
                                     "castle")
    assert parsed.lines[1].note == ("if the board stays as it is, this line will be refused: "
                                    "D is held by white")
    ev = send(state, "orange", "PLACE d\nTAKE castle\nPLACE f\nRECRUIT")
    outcomes = [(e.data["line"], e.data["status"], e.data["why"]) for e in ev
                if e.kind == "outcome"]
    assert outcomes == [
        (1, "refused", "D is held by white; you may place on: a, f, g"),
        (2, "carried out", "the Castle influence tile is in your reserve"),
        (3, "carried out", ""),
        (4, "not needed", "your 2 actions were used before this line")]
    assert all(e.to == ("orange",) for e in ev if e.kind == "outcome")
    assert region(state, "f") == ("orange", 1, 1)
    assert state["turn"]["seat"] == "white"


def test_ifwin_on_the_take_line_survives_the_bid_step() -> None:
    state = _auction_state(decisions="ask")
    send(state, "white", "TAKE rebellion IFWIN REBEL g 1K 0M\nRECRUIT")
    assert set(RS.awaiting(state)) == {"orange", "white"}
    send_many(state, {"orange": "BID 0", "white": "BID 1"})
    assert region(state, "g") == ("orange", 1, 1)
    assert phase(state) == "turn"


def test_conditional_lines() -> None:
    state = ex1(cycle_type="steel", held={"orange": ["castle", "tent"], "white": ["serpent"]},
                reserve={"orange": (2, 0)})
    state["standing"]["white"]["serpent"] = ["SERPENT NEXT castle"]
    ev = send(state, "orange", "PLAY castle SEIZE d\nIF HOLD d THEN PLAY castle BOLSTER d\n"
              "IF NOT HOLD d THEN PLAY tent BOLSTER a\nIF HOURGLASS >= 9 THEN RECRUIT\n"
              "PLACE g")
    log = texts(ev)
    assert "the condition HOLD d does not hold" in log  # the serpent cancelled the seize
    assert "orange puts a knight on A" in log
    assert "the condition HOURGLASS >= 9 does not hold" in log
    assert region(state, "g") == ("orange", 3, 1)


def test_serpent_takes_the_last_cube() -> None:
    state = ex1(cycle_type="steel", hourglass=2, held={"orange": ["castle", "sea"],
                                                       "white": ["serpent"]})
    state["standing"]["white"]["serpent"] = ["SERPENT EVERY seize d"]
    ev = send(state, "orange", "PLAY castle SEIZE d\nPLAY sea RECRUIT", dice=None)
    log = texts(ev)
    assert "is cancelled" in log and "Cycle 1 (steel) ends" in log
    assert "recruits 1 knight and 1 mage with the tile" not in log  # dropped
    assert region(state, "d") == ("white", 1, 0)
    assert len(state["held"]["orange"]) == 1 and state["cycle"] == 2


def test_win_counts_all_regions_option() -> None:
    # orange: 8 VP (+1 for the cycle), 2 active regions and 1 region that is not active
    for mode, winner in (("all", ["orange"]), ("active", None)):
        state = _scoring_state(2, 0, {"orange": 8, "white": 0})
        state["regions"]["r7"].update({"owner": "orange", KNIGHT: 1, MAGE: 1})
        state["stock"]["orange"][KNIGHT] -= 1
        state["stock"]["orange"][MAGE] -= 1
        state["options"]["win_regions"] = mode
        cycle.end_cycle(state, ScriptedDice([0] * 20), Log())
        result = state["result"]
        assert (result and result["winners"]) == winner
        if result:
            assert result["scores"]["orange"] == 9 + 3
