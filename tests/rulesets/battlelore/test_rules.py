"""Rules in isolation (rules/): every choice the rulebook gives a player can be written
down (a move's path, gain ground, pursuit, the bonus attack, how many flags to ignore, the
retreat path), reaction windows around every roll, landmarks, the War Council tables, and
regressions found by random playouts. The rulebook's worked examples are case files
(cases/*.toml, test_cases.py)."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.core.ruleset import GameConfig
from pbem.core.selfplay import play
from pbem.rulesets.battlelore.data import SEATS, data, lore_card
from pbem.rulesets.battlelore.orders import GRAMMAR, Retreat
from pbem.rulesets.battlelore.rules.battle import attack
from pbem.rulesets.battlelore.rules.common import GameOver
from pbem.rulesets.battlelore.rules.council import COMMAND_HAND, level_of
from pbem.rulesets.battlelore.rules.movement import allowance, path_via, reachable

from .helpers import R, blank, ctx, lore_state, put, run, texts


def south_turn() -> Any:
    s = blank()
    s["active"] = "south"
    s["hands"]["south"] = ["scout_centre"] * 4
    return s


# --- a move's path (p.9) -------------------------------------------------------------------

def test_move_via_picks_the_route_and_respects_stops() -> None:
    s = south_turn()
    put(s, "S1", "south", "regular_cavalry", (9, 3))
    log = texts(run(s, "south", "PLAY scout_centre\nMOVE S1 11-3 VIA 10-2\n", 0))
    assert "(via 10-2 11-3)" in log
    # a forest on the way stops the unit: a path through it is refused, the fallback too
    s = south_turn()
    s["terrain"]["10-2"] = "forest"
    put(s, "S1", "south", "regular_cavalry", (9, 3))
    log = texts(run(s, "south", "PLAY scout_centre\nMOVE S1 11-3 OR 10-4 VIA 10-2\n", 0))
    assert s["units"]["S1"]["hex"] == [9, 3] and "cannot be reached via 10-2" in log
    # too long for the unit's move (blue cavalry: 3 hexes)
    s = south_turn()
    put(s, "S1", "south", "regular_cavalry", (9, 3))
    run(s, "south", "PLAY scout_centre\nMOVE S1 11-3 VIA 8-4 9-5 10-4\n", 0)
    assert s["units"]["S1"]["hex"] == [9, 3]


def test_every_reachable_path_can_be_written_with_via() -> None:
    """Property over real positions: each path `reachable` finds is accepted by VIA with
    the same length, and VIA never passes a unit or stops early."""
    checked = 0
    for variant in ("agincourt", "dwarves_at_the_ford"):
        p = play(R, GameConfig(SEATS, variant, {}), 5, keep=True)
        for out in p.outcomes[::7]:
            s = out.state
            if s["phase"] != "turn":
                continue
            for u in s["units"].values():
                mx = allowance(s, u)[0]
                for h, r in reachable(s, u, mx).items():
                    got = path_via(s, u, h, tuple(r["path"][:-1]), mx)
                    assert got is not None and got["d"] == r["d"], (u["id"], h, r)
                    checked += 1
    assert checked > 100


def test_tc67_a_move_stops_at_a_ford() -> None:
    """TC-67 (p.38): a unit may enter a ford but never move through it."""
    s = blank()
    s["terrain"]["12-6"] = "ford"
    u = put(s, "S1", "south", "regular_cavalry", (13, 3))
    r = reachable(s, u, 3)
    assert r.get((12, 6)) and all(h != (12, 6) for x in r.values() for h in x["path"][:-1])


# --- follow-on actions (p.18-19) -------------------------------------------------------------

def cavalry_fight() -> Any:
    s = blank()
    s["hands"]["north"] = ["scout_centre"] * 6
    put(s, "N1", "north", "regular_cavalry", (13, 7))
    put(s, "S1", "south", "regular_infantry", (12, 6))
    put(s, "S2", "south", "regular_infantry", (10, 6))
    return s


def test_p18_after_the_bonus_attack_gaining_ground_is_optional_stay() -> None:
    """p.18: after a bonus attack that repels its target the unit *may* gain ground."""
    s = cavalry_fight()
    run(s, "north", "PLAY scout_centre\nBATTLE N1 S1 NOPURSUE BONUS S2\n",
        "F", "R", "R", "F", "R", "R", 0)
    assert s["units"]["N1"]["hex"] == [10, 6]
    s = cavalry_fight()
    log = texts(run(s, "north", "PLAY scout_centre\nBATTLE N1 S1 NOPURSUE STAY BONUS S2\n",
                    "F", "R", "R", "F", "R", "R", 0))
    assert s["units"]["N1"]["hex"] == [12, 6] and "makes a bonus attack on S2" in log


def test_p18_pursuit_hex_with_fallbacks_and_back_to_the_start() -> None:
    s = cavalry_fight()
    put(s, "N2", "north", "regular_infantry", (11, 5))
    # S1 retreats to 13-5; 11-5 is taken, so the fallback 13-7 (where N1 attacked from)
    run(s, "north", "PLAY scout_centre\nBATTLE N1 S1 PURSUE 11-5 OR 13-7 NOBONUS\n",
        "F", "R", "R", 0)
    assert s["units"]["S1"]["hex"] == [13, 5] and s["units"]["N1"]["hex"] == [13, 7]


# --- morale (p.16-19) -------------------------------------------------------------------------

def test_ignore_a_number_of_flags() -> None:
    """A bold unit may ignore fewer flags than it could (TC-21): IGNORE <unit> <n>."""
    s = blank()
    s["hands"]["north"] = ["scout_centre"] * 6
    s["standing"]["south"] = {"ignore S1": "1"}
    put(s, "N1", "north", "regular_infantry", (13, 7))
    put(s, "S1", "south", "dwarf_heavy_infantry", (12, 6))
    put(s, "S2", "south", "regular_infantry", (10, 6))
    put(s, "S3", "south", "regular_infantry", (11, 5))
    # supported dwarves may ignore 2 of 3 flags; the standing order ignores only 1
    log = texts(run(s, "north", "PLAY scout_centre\nBATTLE N1 S1\n", "F", "F", "F", 0))
    assert "S1 ignores 1 flag." in log and s["units"]["S1"]["hex"] != [12, 6]
    assert GRAMMAR.parse(s, "south", "IGNORE S1 1").ok


def test_retreat_path_as_a_standing_order() -> None:
    """D15: the owner picks each retreat hex (FAQ; spec §5.9.1). RETREAT <unit> <hex> ...
    names them: here first west then east, which no LEFT/RIGHT policy can say."""
    s = blank()
    s["hands"]["north"] = ["scout_centre"] * 6
    put(s, "N1", "north", "regular_infantry", (13, 7))
    put(s, "S1", "south", "regular_infantry", (12, 6))
    p = GRAMMAR.parse(s, "south", "RETREAT S1 11-5 12-4")
    assert p.ok and str(p.orders[0]) == "RETREAT S1 11-5 12-4"
    assert isinstance(p.orders[0], Retreat)
    s["standing"]["south"] = {p.orders[0].key(): p.orders[0].value}
    run(s, "north", "PLAY scout_centre\nBATTLE N1 S1 HOLD\n", "F", "F", "R", 0)
    assert s["units"]["S1"]["hex"] == [12, 4]


def test_p41_stronghold_captured_and_recaptured_by_a_retreat() -> None:
    """Rulebook p.41: the enemy "takes possession" of the Stronghold however it arrives;
    a unit ending its retreat on it captures it (the spec said a retreat does not), and the
    owner's unit retreating onto it takes it back and draws at once."""
    s = lore_state()
    s["landmarks"]["13-7"] = {"kind": "stronghold", "owner": "south"}
    s["hands"]["south"] = ["scout_centre", "scout_left", "scout_right", "red_banners",
                           "blue_banners", "green_banners"]
    s["hand_size"]["south"] = 6
    s["active"] = "south"
    n1 = put(s, "N1", "north", "regular_infantry", (12, 6))
    put(s, "N2", "north", "regular_infantry", (11, 7))  # the other rear hex is blocked
    s1 = put(s, "S1", "south", "regular_infantry", (12, 4))
    c = ctx(s, "F", "R", "R", "R", 0)
    attack(c, s1, n1, melee=False)
    assert n1["hex"] == [13, 7]
    assert "N1 occupies south's Stronghold" in texts(c)
    assert s["hand_size"]["south"] == 5 and len(s["hands"]["south"]) == 5
    # north's turn: N1 moves off; the Stronghold stays captured (TC-68)
    del s["units"]["N1"]
    s["active"] = "north"
    s2 = put(s, "S2", "south", "regular_infantry", (12, 8))
    put(s, "S3", "south", "regular_infantry", (11, 7))  # the other rear hex is blocked
    n3 = put(s, "N3", "north", "regular_infantry", (13, 9))
    # S2 is next to its own Stronghold, so bold: 2 flags, 1 ignored, 1 hex of retreat
    c2 = ctx(s, "F", "F", "R", "R", 0)
    attack(c2, n3, s2, melee=True)
    assert s2["hex"] == [13, 7]
    assert s["hand_size"]["south"] == 6 and len(s["hands"]["south"]) == 6
    assert "south re-occupies the Stronghold" in texts(c2)


def test_victory_shield_is_a_banner() -> None:
    s = blank("dwarves_at_the_ford")
    s["active"] = "south"
    s["lore"]["council"] = {"north": {"wizard": 1}, "south": {"wizard": 1}}
    s["lore"]["hands"] = {"north": [], "south": []}
    s["hands"]["south"] = ["scout_left"] * 4
    s["banners"]["south"] = 4
    put(s, "S1", "south", "goblin_skirmishers", (6, 8))
    put(s, "N1", "north", "dwarf_infantry", (21, 9))
    with pytest.raises(GameOver):
        run(s, "south", "PLAY scout_left\nMOVE S1 7-9\n")
    assert s["banners"]["south"] == 5 and s["result"]["winner"] == "south"
    assert s["shields"] == [{"hex": "19-9", "side": "south"}]


# --- the War Council (p.33-35) ---------------------------------------------------------------

def test_tc46_tc48_tc66_council_tables_and_out_of_class_cards() -> None:
    assert COMMAND_HAND[2] == 5 and COMMAND_HAND[0] == 3
    s = lore_state({"cleric": 3})
    assert level_of(s, "north", "creeping_doom") == (1, 12)
    s["lore"]["council"]["north"] = {"cleric": 2}
    assert level_of(s, "north", "bless") == (2, 2)
    assert level_of(s, "north", "strength") == (1, 5)


# --- Lore: creatures, windows, regressions ---------------------------------------------------

def test_backstab_kills_the_spider_before_its_powers() -> None:
    """Found by a random playout: a spider killed by Backstab uses no power and its stored
    Lore goes back to the pool once (token conservation)."""
    s = lore_state({"rogue": 1}, goblets=(3, 0))
    s["active"] = "south"
    s["lore"]["hands"]["north"] = ["backstab"]
    s["standing"]["north"] = {"react backstab": "ANY"}
    sp = put(s, "S1", "south", "giant_spider", (13, 5))
    sp["stored_lore"] = 1
    s["lore"]["pool"] -= 1
    put(s, "N1", "north", "regular_infantry", (12, 6))
    run(s, "south", "PLAY scout_centre\nBATTLE S1 N1\nREPLENISH TOKENS\n", "BS", "L", 0)
    lo = s["lore"]
    assert "S1" not in s["units"] and not s["units"]["N1"]["webbed"]
    assert lo["pool"] + sum(lo["goblet"].values()) + sum(lo["on_cards"].values()) == 36


def test_p30_before_opponent_rolls_window_opens_before_a_bonus_attack() -> None:
    """p.30: a 'before your opponent rolls' card lasts one roll only, so a bonus attack is
    a roll of its own with its own window: Broad Shield on the bonus attack's target."""
    s = lore_state({"cleric": 1}, goblets=(0, 3))
    s["lore"]["hands"] = {"north": [], "south": ["broad_shield"]}
    s["standing"]["south"] = {"react broad_shield": "S2"}
    put(s, "N1", "north", "regular_cavalry", (13, 7))
    put(s, "S1", "south", "regular_infantry", (12, 6))
    put(s, "S2", "south", "regular_infantry", (10, 6))
    c = run(s, "north", "PLAY scout_centre\nBATTLE N1 S1 NOPURSUE BONUS S2\nREPLENISH TOKENS\n",
            "F", "R", "R", "B", "B", "F", 0)
    assert s["units"]["N1"]["hex"] == [12, 6]
    assert "Broad Shield cancels 2 hit(s) and 1 flag(s)" in texts(c)
    assert s["units"]["S2"]["figures"] == 4 and s["units"]["S2"]["hex"] == [10, 6]


def test_p30_before_opponent_rolls_window_opens_before_a_battle_back() -> None:
    """The battle back is the opponent's roll in the active player's own turn: the active
    player may shield his attacked unit then (his one Lore card of the turn)."""
    s = lore_state({"cleric": 1}, goblets=(3, 0))
    s["lore"]["hands"] = {"north": ["broad_shield"], "south": []}
    s["standing"]["north"] = {"react broad_shield": "N1"}
    put(s, "N1", "north", "heavy_infantry", (13, 7))
    put(s, "S1", "south", "regular_infantry", (12, 6))
    put(s, "S2", "south", "regular_infantry", (10, 6))  # S1 is supported: bold
    put(s, "S3", "south", "regular_infantry", (11, 5))
    c = run(s, "north", "PLAY scout_centre\nBATTLE N1 S1\nREPLENISH TOKENS\n",
            "F", "G", "G", "G", "R", "R", "F", 0)
    assert "battles back against N1" in texts(c)
    assert "Broad Shield cancels 2 hit(s) and 1 flag(s)" in texts(c)
    assert s["units"]["N1"]["figures"] == 4 and s["units"]["N1"]["hex"] == [13, 7]


def test_p30_after_opponent_rolls_window_opens_after_a_battle_back() -> None:
    """Backstab after the battle-backing unit's roll (the active player's window)."""
    s = lore_state({"rogue": 1}, goblets=(3, 0))
    s["lore"]["hands"] = {"north": ["backstab"], "south": []}
    s["standing"]["north"] = {"react backstab": "ANY"}
    put(s, "N1", "north", "heavy_infantry", (13, 7))
    put(s, "S1", "south", "regular_infantry", (12, 6))
    put(s, "S2", "south", "regular_infantry", (10, 6))
    put(s, "S3", "south", "regular_infantry", (11, 5))
    c = run(s, "north", "PLAY scout_centre\nBATTLE N1 S1\nREPLENISH TOKENS\n",
            "F", "G", "G", "G", "BS", "BS", "G", 0)
    assert "Backstab: S1 suffers its own 2 bonus strike hit(s)" in texts(c)
    assert s["units"]["N1"]["figures"] == 4 and s["units"]["S1"]["figures"] == 2


# --- the windows no shipped card uses (p.29) -------------------------------------------------

def _with_test_card(monkeypatch: pytest.MonkeyPatch, phase: str) -> None:
    """The shipped deck has no card for this window: add one to the data for the test."""
    cards = data("lore_cards")["cards"]
    monkeypatch.setitem(cards, "test_card", {
        "name": "Test Card", "class": "rogue", "copies": 1, "cost": 1, "reaction": True,
        "phase": phase, "target": "none", "effect": "gain_tokens",
        "params": {"tokens": "0/level+2"}, "source": "test"})
    lore_card.cache_clear()


@pytest.fixture(autouse=True)
def _fresh_lore_cards() -> Any:
    yield
    lore_card.cache_clear()


def test_tc50_reaction_to_movement_before_the_unit_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    """TC-50: a 'reaction to movement' card is played before the targeted unit moves, never
    after: the window opens before each unit's move."""
    _with_test_card(monkeypatch, "reaction_movement")
    s = lore_state({"rogue": 1}, goblets=(0, 1))
    s["lore"]["hands"] = {"north": [], "south": ["test_card"]}
    s["standing"]["south"] = {"react test_card": "N2"}
    s["hands"]["north"] = ["order_two_centre"] * 4
    put(s, "N1", "north", "regular_infantry", (13, 7))
    put(s, "N2", "north", "regular_infantry", (15, 7))
    c = run(s, "north", "PLAY order_two_centre\nMOVE N1 13-5\nMOVE N2 15-5\nREPLENISH TOKENS\n",
            0)
    log = texts(c)
    assert log.index("N1 moves") < log.index("plays the Lore card Test Card on N2") \
        < log.index("N2 moves")
    # a unit that does not move opens no window: the card stays in the hand
    s = lore_state({"rogue": 1}, goblets=(0, 1))
    s["lore"]["hands"] = {"north": [], "south": ["test_card"]}
    s["standing"]["south"] = {"react test_card": "N2"}
    s["hands"]["north"] = ["order_two_centre"] * 4
    put(s, "N1", "north", "regular_infantry", (13, 7))
    put(s, "N2", "north", "regular_infantry", (15, 7))
    run(s, "north", "PLAY order_two_centre\nORDER N1 N2\nMOVE N1 13-5\nREPLENISH TOKENS\n", 0)
    assert s["lore"]["hands"]["south"] == ["test_card"]


def test_reaction_to_orders_window(monkeypatch: pytest.MonkeyPatch) -> None:
    _with_test_card(monkeypatch, "reaction_orders")
    s = lore_state({"rogue": 1}, goblets=(0, 1))
    s["lore"]["hands"] = {"north": [], "south": ["test_card"]}
    s["standing"]["south"] = {"react test_card": "ANY"}
    put(s, "N1", "north", "regular_infantry", (13, 7))
    c = run(s, "north", "PLAY scout_centre\nMOVE N1 13-5\nREPLENISH TOKENS\n", 0)
    log = texts(c)
    assert log.index("North orders N1") < log.index("Test Card") < log.index("N1 moves")


def test_shipped_deck_has_no_card_for_the_order_and_movement_reactions() -> None:
    """p.29: 'the base box has no order-phase cards'; the spec's card list has no
    reaction-to-movement card either. If one is added, these windows already open."""
    phases = {c["phase"] for c in data("lore_cards")["cards"].values()}
    assert not phases & {"reaction_orders", "during_orders", "reaction_movement"}


def _deja_vu_turn(react: str) -> str:
    s = lore_state({"rogue": 1, "wizard": 1}, goblets=(6, 0))
    s["lore"]["hands"]["north"] = ["deja_vu", "pick_pocket"]
    s["standing"]["north"] = {"react deja_vu": react, "react_ask": "no"}
    put(s, "N1", "north", "regular_infantry", (13, 7))
    return texts(run(s, "north", "PLAY scout_centre\nLORE pick_pocket\nREPLENISH TOKENS\n", 0))


def test_react_none_also_silences_a_standing_deja_vu() -> None:
    """REACT NONE sets every reaction to NONE; a NONE Déjà Vu! order used to count as
    armed (any text was taken for yes)."""
    assert "Deja Vu" not in _deja_vu_turn("NONE")
    assert "discards Deja Vu! instead and keeps Pick Pocket" in _deja_vu_turn("ANY")
