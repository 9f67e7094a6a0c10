"""Rule unit tests for the tricky parts (spec §9 TC-14..TC-33 and more): auctions, the
serpent, the hourglass running out mid-turn, recruitment, caps, scoring and victory,
standing orders and `ask` steps."""

from __future__ import annotations

import pytest

from pbem.core.dice import ScriptedDice
from pbem.core.kit import Log
from pbem.rulesets.macht_und_ohnmacht import board, data
from pbem.rulesets.macht_und_ohnmacht.data import KNIGHT, MAGE
from pbem.rulesets.macht_und_ohnmacht.rules import cycle

from .helpers import RS, build, ex1, phase, region, send, send_many, texts


def _auction_state(**kw):  # TC-14 set-up
    return ex1(cycle_type="steel", hourglass=3, turn="white", display=["vp", "rebellion", "swap"],
               reserve={"orange": (2, 0), "white": (1, 0)}, **kw)


def test_tc14_auction_won_by_the_non_taker() -> None:
    state = _auction_state()
    state["standing"]["orange"]["bid"] = ["BID vp 2"]
    stock = state["stock"]["orange"][KNIGHT]
    ev = send(state, "white", "TAKE vp BID 1\nRECRUIT")
    assert "Bids for Victory point: orange 2, white 1." in texts(ev)
    assert state["vp"] == {"orange": 1, "white": 0}
    assert state["stock"]["orange"][KNIGHT] == stock + 2
    assert state["reserve"]["orange"][KNIGHT] == 0
    assert state["reserve"]["white"][KNIGHT] == 1  # the loser keeps his bid
    assert data.first_of_type(state["discard"], "vp") is not None
    assert state["hourglass"] == 1  # the auction's cube and the recruit's


def test_tc15_equal_bids_discard_the_tile() -> None:
    state = _auction_state()
    ev = send(state, "white", "TAKE vp BID 0\nRECRUIT")  # orange: auto default 0
    assert "Equal bids" in texts(ev)
    assert state["vp"] == {"orange": 0, "white": 0}
    assert state["reserve"]["orange"][KNIGHT] == 2 and state["reserve"]["white"][KNIGHT] == 1
    assert state["hourglass"] == 1


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


def test_tc16_rebellion_removes_two_units() -> None:
    state = _auction_state()
    state["regions"]["a"].update({KNIGHT: 2, MAGE: 1})
    send(state, "white", "TAKE rebellion BID 1 IFWIN REBEL a 2K 0M\nRECRUIT")
    assert region(state, "a") == ("orange", 0, 1)
    assert state["reserve"]["white"][KNIGHT] == 0


def test_rebellion_auto_default_takes_active_units_first() -> None:
    state = _auction_state()
    send(state, "white", "TAKE rebellion BID 1\nRECRUIT")
    # most orange knights (active): a and g have 2 each -> a; both knights go
    assert region(state, "a") == ("orange", 0, 1)


def test_tc17_marker_swap_changes_magic_adjacency() -> None:
    state = ex1(cycle_type="magic", turn="white", display=["swap"], reserve={"white": (0, 1)})
    state["regions"]["d"]["marker"] = "key"
    state["set_aside"] = ["castle", "tent", "tent"]
    assert board.neighbours(state, "d") == []
    send(state, "white", "TAKE swap BID 1 IFWIN SWAP d tent\nRECRUIT")
    assert state["regions"]["d"]["marker"] == "tent"
    assert board.neighbours(state, "d") == ["a", "b", "g"]
    assert state["set_aside"] == ["castle", "key", "tent"]


def test_tc18_serpent_cancels_and_action_d_goes_on() -> None:
    state = ex1(cycle_type="steel", hourglass=3, held={"orange": ["castle", "sea"],
                                                       "white": ["serpent"]})
    state["standing"]["white"]["serpent"] = ["SERPENT NEXT seize"]
    ev = send(state, "orange", "PLAY castle SEIZE d\nPLAY sea RECRUIT", dice=None)
    log = texts(ev)
    assert "white plays a serpent: PLAY castle SEIZE d is cancelled." in log
    assert region(state, "d") == ("white", 1, 0)
    assert not state["held"]["white"] and state["standing"]["white"]["serpent"] == []
    # the seize's cube and the serpent's: 1 left, then the sea recruit takes the last
    assert "orange recruits 1 knight and 1 mage with the tile" in log
    assert state["cycle"] == 2  # the sea tile took the last cube; the cycle ended


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


def test_tc19_no_serpent_on_the_last_cube() -> None:
    state = ex1(cycle_type="steel", hourglass=1, held={"orange": ["castle"],
                                                       "white": ["serpent"]}, decisions="ask")
    send(state, "orange", "PLAY castle SEIZE d\nRECRUIT")
    # no serpent window (no cube left); the seize resolves completely, with its retreat
    assert state["hourglass"] == 0 and phase(state) == "retreat"
    send(state, "white", "RETREAT knight TO c", dice=None)
    assert region(state, "c") == ("white", 2, 2)
    assert state["cycle"] == 2 and len(state["held"]["white"]) == 1


def test_tc20_recruit_takes_the_last_cube_second_action_forfeited() -> None:
    state = ex1(cycle_type="steel", hourglass=1, reserve={"orange": (1, 0)})
    ev = send(state, "orange", "RECRUIT\nPLACE f", dice=None)
    assert "orange places" not in texts(ev)
    assert state["cycle"] == 2


def test_tc21_short_first_recruit_uses_the_bonus() -> None:
    state = ex1(cycle_type="steel", reserve={"white": (1, 0)})
    state["stock"]["orange"][MAGE] = 1
    state["reserve"]["orange"][MAGE] = 16 - 3 - 1
    send(state, "orange", "RECRUIT\nRECRUIT")
    assert state["stock"]["orange"][MAGE] == 0
    assert state["first_recruit_done"]
    before = state["stock"]["white"][MAGE]
    send(state, "white", "RECRUIT\nPLACE b")
    assert state["stock"]["white"][MAGE] == before - 2


def test_tc22_tc23_place_cap_and_bolster_without_cap() -> None:
    state = ex1(cycle_type="steel", held={"orange": ["tent"]}, reserve={"orange": (2, 0)})
    state["regions"]["a"].update({KNIGHT: 3, MAGE: 1})
    state["stock"]["orange"][KNIGHT] -= 1
    ev = send(state, "orange", "PLACE a\nPLAY tent BOLSTER a\nRECRUIT")
    assert "skipped" in texts(ev) and "at most 3" in texts(ev)
    assert region(state, "a") == ("orange", 4, 2 - 1) or region(state, "a") == ("orange", 4, 1)
    assert board.units_in(state, "a") == 5


def test_tc24_reinforcement_capped_by_stock() -> None:
    state = ex1(cycle_type="magic", hourglass=0)
    state["stock"]["orange"][KNIGHT] = 1
    state["reserve"]["orange"][KNIGHT] = 16 - 4 - 1
    state["cycle_type"] = "steel"
    cycle.start_cycle(state, ScriptedDice([0] * 20), Log())
    assert state["reserve"]["orange"][KNIGHT] == 12 and state["stock"]["orange"][KNIGHT] == 0


def _scoring_state(o_active: int, w_active: int, vp: dict[str, int]) -> dict:
    markers = {f"r{i}": "castle" for i in range(8)}
    units = {f"r{i}": ("orange", 1, 0) for i in range(o_active)}
    units.update({f"r{4 + i}": ("white", 1, 0) for i in range(w_active)})
    return build(markers, [], units, cycle_type="steel", hourglass=0, vp=vp)


def test_tc25_fewer_vp_can_win() -> None:
    state = _scoring_state(2, 0, {"orange": 10, "white": 11})
    cycle.end_cycle(state, ScriptedDice([]), Log())
    assert state["vp"] == {"orange": 11, "white": 11}
    assert state["result"]["winners"] == ["orange"]
    assert state["result"]["scores"] == {"orange": 13, "white": 11}
    assert RS.awaiting(state) == {}


def test_tc26_equal_active_regions_both_score() -> None:
    state = _scoring_state(3, 3, {"orange": 1, "white": 1})
    cycle.end_cycle(state, ScriptedDice([0] * 20), Log())
    assert state["vp"] == {"orange": 2, "white": 2}


@pytest.mark.parametrize(("vp", "active", "winner"), [
    ({"orange": 11, "white": 9}, (1, 2), ["orange"]),  # 11+1 v 10+2: equal, more VP
    ({"orange": 9, "white": 11}, (2, 1), ["white"]),   # 10+2 v 11+1: equal, more VP
    ({"orange": 10, "white": 9}, (2, 2), ["orange"]),  # 11+2 v 10+2: higher total
])
def test_simultaneous_twelve(vp: dict, active: tuple, winner: list) -> None:
    state = _scoring_state(active[0], active[1], vp)
    cycle.end_cycle(state, ScriptedDice([]), Log())
    assert state["result"]["winners"] == winner


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


def test_tc27_merlin_as_influence() -> None:
    state = ex1(cycle_type="steel", held={"orange": ["merlin"]})
    state["regions"]["d"]["marker"] = "key"
    ev = send(state, "orange", "PLAY merlin key SEIZE d NOPLACE\nRECRUIT")
    assert "4:3, success" in texts(ev)


def test_tc28_merlin_recruits_two_mages() -> None:
    state = ex1(cycle_type="magic", held={"orange": ["merlin"]})
    before = state["reserve"]["orange"][MAGE]
    send(state, "orange", "PLAY merlin RECRUIT MAGES\nRECRUIT")  # RECRUIT: knights
    assert state["reserve"]["orange"][MAGE] == before + 2


def test_tc29_defender_strength_counts() -> None:
    state = ex1(cycle_type="steel", held={"orange": ["helmet"]})
    state["strength"]["white"]["helmet"] = 1
    # C: white 1K 2M; neighbours B (white 1K), D (white 1K), F (orange, no knights)
    assert board.seize_count(state, "orange", "c") == (0, 3 + 1 + 1 + 1)


def test_tc30_reveal_reshuffles_the_discard() -> None:
    state = ex1(cycle_type="steel")
    tiles = sorted(state["pile"])
    state["pile"], state["discard"] = tiles[:2], tiles[2:22]
    events = Log()
    cycle.reveal(state, ScriptedDice([0] * 9), events, 9)
    assert len(state["display"]) == 9
    assert "shuffled into a new draw pile" in texts(events.events)
    assert state["discard"] == [] and len(state["pile"]) == 13


def test_tc31_play_without_tiles_is_skipped() -> None:
    state = ex1(cycle_type="steel")
    ev = send(state, "orange", "PLAY castle SEIZE d\nRECRUIT")
    assert "you hold no Castle influence tile" in texts(ev)
    assert "has an action left" in texts(ev)  # the skipped D was no action


def test_tc32_no_movement_into_enemy_region() -> None:
    state = ex1(cycle_type="steel", held={"orange": ["movement"]})
    ev = send(state, "orange", "PLAY movement a d 1K\nRECRUIT\nRECRUIT")
    assert "D is held by white" in texts(ev)


def test_tc33_sea_voyage_needs_a_coastal_origin() -> None:
    state = ex1(cycle_type="steel", held={"orange": ["sea"]})
    ev = send(state, "orange", "PLAY sea g b 1K\nRECRUIT\nRECRUIT")
    assert "G is not coastal" in texts(ev)


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


def test_script_fallbacks_skip_illegal_lines() -> None:
    state = ex1(cycle_type="steel", display=["castle"], reserve={"orange": (1, 0)})
    ev = send(state, "orange", "TAKE helmet\nPLACE d\nTAKE castle\nPLACE f\nRECRUIT")
    log = "\n".join(e.text for e in ev)
    assert "TAKE helmet: skipped" in log and "PLACE d: skipped" in log
    assert region(state, "f") == ("orange", 1, 1)
    skipped = [e for e in ev if e.kind == "skip"]
    assert all(e.to == ("orange",) for e in skipped)
    assert state["turn"]["seat"] == "white"  # RECRUIT was not needed: 2 actions done


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
