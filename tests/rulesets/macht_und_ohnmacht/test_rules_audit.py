"""Audit tests: rules of the rulebook that the code implemented but no test pinned (found by
removing each check in turn and seeing that every test still passed). Each test names the
rulebook passage it holds the code to."""

from __future__ import annotations

from pbem.core.dice import ScriptedDice
from pbem.core.kit import Log
from pbem.core.ruleset import GameConfig
from pbem.rulesets.macht_und_ohnmacht.data import KNIGHT
from pbem.rulesets.macht_und_ohnmacht.rules import cycle

from .helpers import RS, build, ex1, phase, region, resolve, send, texts


def test_bolster_needs_the_tiles_marker() -> None:
    # Rulebook "Erősítés" (influence tile): "a régión a kijátszottal megegyező jelzőnek kell
    # lennie". A is a tent region of orange's; a castle tile cannot bolster it.
    state = ex1(cycle_type="steel", held={"orange": ["castle"]}, reserve={"orange": (1, 0)})
    ev = send(state, "orange", "PLAY castle BOLSTER a\nRECRUIT\nRECRUIT")
    assert "A carries a tent marker, not castle" in texts(ev)
    assert region(state, "a") == ("orange", 2, 1)
    assert state["reserve"]["orange"][KNIGHT] == 1


def test_movement_uses_the_cycles_adjacency() -> None:
    # Rulebook "Mozgás": between two regions adjacent "a ciklus alapján". A and G share no
    # border (steel: not adjacent) but both carry a tent marker (magic: adjacent).
    steel = ex1(cycle_type="steel", held={"orange": ["movement"]})
    parsed = RS.parse(steel, "orange", "PLAY movement a g 1K 0M")
    assert parsed.lines[0].error == ("A and G share no border, so they are not adjacent in "
                                     "this steel cycle; a borders b, d")
    magic = ex1(cycle_type="magic", held={"orange": ["movement"]})
    send(magic, "orange", "PLAY movement a g 1K 1M\nRECRUIT")
    assert region(magic, "a") == ("orange", 1, 0)
    assert region(magic, "g") == ("orange", 3, 2)


def test_sea_voyage_moves_only_own_units() -> None:
    # Rulebook "Hajózás": the player moves "bárhány egységét" (his own units) from a coastal
    # region. B is coastal here but white's: orange cannot sail white's units away.
    from .helpers import EX1_BORDERS, EX1_MARKERS, EX1_UNITS
    state = build(EX1_MARKERS, EX1_BORDERS, EX1_UNITS, coastal=("a", "b"), cycle_type="steel",
                  held={"orange": ["sea"]})
    ev = send(state, "orange", "PLAY sea b f 1K 0M\nRECRUIT\nRECRUIT")
    assert "you have no units in B" in texts(ev)
    assert region(state, "b") == ("white", 1, 1) and region(state, "f") == ("orange", 0, 1)


def _won_auction(kind: str) -> dict:
    state = ex1(cycle_type="steel", hourglass=3, turn="white", display=[kind],
                reserve={"orange": (1, 0), "white": (1, 0)}, decisions="ask")
    send(state, "white", f"TAKE {kind} BID 1\nRECRUIT")
    send(state, "orange", "BID 0")
    assert phase(state) == "effect"
    return state


def test_rebellion_only_in_an_opponent_region_and_at_most_two_units() -> None:
    # Rulebook "Lázadás": "leveheti egy régióról ellenfele legfeljebb két ... egységét".
    state = _won_auction("rebellion")
    bad = RS.parse(state, "white", "REBEL g 2K 1M")
    assert not bad.ok and "at most 2 units" in bad.errors[0].error
    bad = RS.parse(state, "white", "REBEL b 1K 0M")  # B is white's own region
    assert not bad.ok and "B is not held by orange; answer DECLINE or e.g." in bad.errors[0].error
    # nothing valid sent: the NMR default: orange's region with most active units (A, G:
    # 2 knights each; A first), two knights removed
    resolve(state, {"white": RS.default_orders(state, "white")}, ScriptedDice([]))
    assert region(state, "b") == ("white", 1, 1)
    assert region(state, "a") == ("orange", 0, 1)


def test_marker_swap_takes_a_set_aside_marker_even_on_an_enemy_region() -> None:
    # Rulebook "Régiójelző cseréje": a marker "a félretettek közül"; "A cserének nem
    # akadálya, ha a régiót ellenfele irányítja."
    state = _won_auction("swap")
    bad = RS.parse(state, "white", "SWAP a helmet")  # no helmet is set aside
    assert not bad.ok and "no helmet marker is set aside" in bad.errors[0].error
    send(state, "white", "SWAP a castle")  # A is orange's
    assert state["regions"]["a"]["marker"] == "castle"
    assert sorted(state["set_aside"]) == ["key", "tent", "tent"]


def test_exactly_twelve_points_win() -> None:
    # Rulebook "A ciklus és a játék vége": 12 points (VP + controlled active regions) win.
    markers = {f"r{i}": "castle" for i in range(4)}
    units = {"r0": ("orange", 1, 0), "r1": ("orange", 1, 0)}
    state = build(markers, [], units, cycle_type="steel", hourglass=0,
                  vp={"orange": 9, "white": 0})
    cycle.end_cycle(state, ScriptedDice([]), Log())
    assert state["vp"]["orange"] == 10
    assert state["result"]["winners"] == ["orange"]
    assert state["result"]["scores"]["orange"] == 12


def test_sure_seize_is_skipped_when_the_count_would_not_win() -> None:
    # Order-language guard (docs: `SURE`): the TC-05 count 4:4 would fail, so the line is
    # skipped: tile kept, no cube, no action used.
    state = ex1(cycle_type="steel", held={"orange": ["tent"]})
    ev = send(state, "orange", "PLAY tent SEIZE b SURE\nRECRUIT\nRECRUIT")
    assert ("SURE: the count would be 4:4, not a win (attack: A 2 knights, G 2 knights; "
            "defence: in B 2 units, C 1 knight, D 1 knight)" in texts(ev))
    assert len(state["held"]["orange"]) == 1 and state["hourglass"] == 3  # two recruits


def test_noplace_leaves_the_seized_region_empty() -> None:
    # Rulebook "Megszerzés": the attacker "felrakhatja" (may) a unit; with NOPLACE he does
    # not, even with a knight in reserve (TC-04 set-up).
    state = ex1(cycle_type="steel", held={"orange": ["castle"]}, reserve={"orange": (1, 0)})
    send(state, "orange", "PLAY castle SEIZE d NOPLACE\nRECRUIT")
    assert region(state, "d") == (None, 0, 0)
    assert state["reserve"]["orange"][KNIGHT] == 1


def test_strength_and_first_recruit_bonus_last_one_cycle() -> None:
    # Rulebook "Erő": "a ciklus hátralévő részében"; "Toborzás": three units for the first
    # recruitment "minden ciklusban".
    state = ex1(cycle_type="steel", hourglass=0)
    state["strength"]["orange"] = {"tent": 2}
    state["first_recruit_done"] = True
    cycle.end_cycle(state, ScriptedDice([0] * 20), Log())
    assert state["cycle_type"] == "magic"
    assert state["strength"] == {"orange": {}, "white": {}}
    assert state["first_recruit_done"] is False


def test_serpent_never_is_not_asked() -> None:
    # Docs: standing serpent orders decide; SERPENT NEVER means no serpent and no question.
    state = ex1(cycle_type="steel", hourglass=5, held={"orange": ["castle"],
                                                       "white": ["serpent"]}, decisions="ask")
    state["standing"]["white"]["serpent"] = ["SERPENT NEVER"]
    send(state, "orange", "PLAY castle SEIZE d\nRECRUIT", dice=None)
    assert phase(state) != "serpent" and len(state["held"]["white"]) == 1


def test_seize_report_shows_how_the_count_was_made() -> None:
    # Reports must let a player check a seize without the board: TC-04 and TC-08 terms.
    state = ex1(cycle_type="steel", held={"orange": ["castle"]})
    ev = send(state, "orange", "PLAY castle SEIZE d\nRECRUIT")
    assert ("orange seizes D: 4:3, success (attack: A 2 knights, G 2 knights; defence: "
            "in D 1 unit, B 1 knight, C 1 knight)." in texts(ev))
    assert "orange plays castle SEIZE d." in texts(ev)
    state = ex1(cycle_type="magic", hourglass=4, held={"orange": ["strength-tent", "tent"]})
    ev = send(state, "orange", "PLAY strength-tent\nPLAY tent SEIZE b NOPLACE\nRECRUIT")
    assert "3:2, success (attack: A 1 mage, G 1 mage, strength +1; defence: in B 2 units)" \
        in texts(ev)


def test_a_seat_with_no_active_unit_in_reserve_is_not_asked_to_bid() -> None:
    # Rulebook: bids are made "a tartalékukban lévő aktív egységeikkel"; with none, the
    # only bid is 0, so `ask` costs no mail round trip for it.
    state = ex1(cycle_type="steel", hourglass=3, turn="white", display=["vp"],
                reserve={"orange": (0, 3), "white": (1, 0)}, decisions="ask")
    ev = send(state, "white", "TAKE vp BID 1\nRECRUIT")
    assert phase(state) == "turn"
    assert "Bids for Victory point: orange 0, white 1." in texts(ev)
    assert state["vp"]["white"] == 1


def test_bid_prompt_spells_out_the_ifwin_syntax() -> None:
    state = ex1(cycle_type="steel", hourglass=3, turn="white", display=["swap"],
                reserve={"orange": (2, 0), "white": (1, 0)}, decisions="ask")
    send(state, "white", "TAKE swap BID 1\nRECRUIT")
    text = RS.awaiting(state)["orange"].text
    assert "IFWIN SWAP <region> <set-aside marker: castle, key, tent>" in text
    assert "equal bids: nobody wins or pays" in text


def test_serpent_rules_match_merlin_by_its_own_name() -> None:
    # Docs: a Merlin matches `merlin` (and seize/bolster/any), not the symbol it plays as.
    for rule, cancelled in (("SERPENT NEXT castle", False), ("SERPENT NEXT merlin", True),
                            ("SERPENT EVERY seize d", True), ("SERPENT EVERY seize b", False)):
        state = ex1(cycle_type="steel", hourglass=5, held={"orange": ["merlin"],
                                                           "white": ["serpent"]})
        state["standing"]["white"]["serpent"] = [rule]
        send(state, "orange", "PLAY merlin castle SEIZE d NOPLACE\nRECRUIT")
        assert (len(state["held"]["white"]) == 0) == cancelled, rule
        assert (region(state, "d")[0] == "white") == cancelled, rule


def test_auction_on_the_last_cube_still_completes_with_its_effect() -> None:
    # Rulebook A): "ha ez volt az utolsó kocka, a ciklus véget is ér, de ez az akció még
    # végrehajtódik" - the bid step and the winner's effect step both happen, then the
    # cycle ends and the taker's second action is dropped.
    state = ex1(cycle_type="steel", hourglass=1, turn="white", display=["rebellion"],
                reserve={"orange": (1, 0), "white": (2, 0)}, decisions="ask")
    send(state, "white", "TAKE rebellion BID 2\nRECRUIT")
    assert state["hourglass"] == 0 and phase(state) == "bid"
    send(state, "orange", "BID 1")
    assert phase(state) == "effect" and state["cycle"] == 1
    ev = send(state, "white", "REBEL a 2K 0M", dice=None)
    log = texts(ev)
    assert "Rebellion: white removes 2 knights of orange from A." in log
    assert "white recruits" not in log
    assert "Cycle 1 (steel) ends" in log and state["cycle"] == 2


def test_retreat_preference_falls_back_as_documented() -> None:
    # Docs: a wanted unit type that is not there -> the other type; TO regions that are not
    # possible -> the auto destination (first own adjacent region by id). TC-04 set-up: D
    # holds one white knight; B and C are white's, A and G orange's.
    state = ex1(cycle_type="steel", held={"orange": ["castle"]})
    state["standing"]["white"]["retreat"] = ["RETREAT mage TO a g"]
    send(state, "orange", "PLAY castle SEIZE d\nRECRUIT")
    assert region(state, "b") == ("white", 2, 1)  # the knight went to B


def test_start_tiebreak_default_counts_the_cycle_just_scored() -> None:
    # Rulebook play example: "A ciklus véget is ért, és a narancssárga játékos kap 1
    # győzelmi pontot, mert ő irányít több aktív régiót. A következő ciklus a mágiáé lesz,
    # és a fehér játékos kezdi majd - ugyanannyi győzelmi pontjuk van, de neki kevesebb az
    # aktív régiója": the "fewer active regions" is the count just made for the steel cycle.
    # Here the two bases disagree: in steel orange has 2 active regions and white 1; in
    # magic orange has 0 and white 1. VP end tied 2-2, so white must start (1 action).
    markers = {r: "castle" for r in "abcd"}
    units = {"a": ("orange", 1, 0), "b": ("orange", 1, 0), "c": ("white", 0, 1),
             "d": ("white", 1, 0)}
    state = build(markers, [], units, cycle_type="steel", hourglass=0,
                  vp={"orange": 1, "white": 2})
    assert RS.option(GameConfig(("orange", "white"), "standard", {}),
                     "start_tiebreak") == "previous_cycle"
    cycle.end_cycle(state, ScriptedDice([0] * 20), Log())
    assert state["vp"] == {"orange": 2, "white": 2}
    assert state["turn"]["seat"] == "white" and state["turn"]["actions"] == 1
    assert cycle.DEFAULT_OPTIONS["start_tiebreak"] == "previous_cycle"


def test_serpent_question_shows_the_seize_count() -> None:
    state = ex1(cycle_type="steel", hourglass=5, held={"orange": ["castle"],
                                                       "white": ["serpent"]}, decisions="ask")
    send(state, "orange", "PLAY castle SEIZE d\nRECRUIT")
    text = RS.awaiting(state)["white"].text
    assert "The seize would count 4:3, a win." in text
