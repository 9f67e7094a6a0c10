"""Every choice the rulebook gives a player can be written down: a move's path (VIA),
gain ground, pursuit hexes with fallbacks, the bonus attack and the second gain ground
(STAY), how many flags to ignore (IGNORE <n>)."""

from __future__ import annotations

from battlelore_helpers import blank, dice, put

from pbem.rulesets.battlelore.ctx import Ctx, RecDice
from pbem.rulesets.battlelore.orders import parse_text
from pbem.rulesets.battlelore.turn import run_turn


def run(s: dict, seat: str, text: str, *faces: str | int) -> str:
    p = parse_text(s, seat, text)
    assert p.ok, p.echo()
    c = Ctx(s, RecDice(dice(*faces), []), ask=False)
    run_turn(c, p.orders)
    return "\n".join(e.text for e in c.events)


def south_turn() -> dict:
    s = blank()
    s["active"] = "south"
    s["hands"]["south"] = ["scout_centre"] * 4
    return s


def test_tc07_move_via_a_chosen_path() -> None:
    """TC-07 (p.9): blue cavalry 9-3 to 13-3 past archers on 11-3: the 3-hex path
    10-4 12-4 is legal and can be written; a path through the archers cannot."""
    s = south_turn()
    put(s, "S1", "south", "regular_cavalry", (9, 3))
    put(s, "S2", "south", "archers", (11, 3))
    log = run(s, "south", "PLAY scout_centre\nMOVE S1 13-3 VIA 10-4 12-4\n", 0)
    assert "S1 moves to 13-3 (via 10-4 12-4 13-3)" in log
    s = south_turn()
    put(s, "S1", "south", "regular_cavalry", (9, 3))
    put(s, "S2", "south", "archers", (11, 3))
    log = run(s, "south", "PLAY scout_centre\nMOVE S1 13-3 VIA 11-3\n", 0)
    assert "cannot be reached via 11-3" in log and s["units"]["S1"]["hex"] == [9, 3]


def test_move_via_picks_the_route_and_respects_stops() -> None:
    s = south_turn()
    put(s, "S1", "south", "regular_cavalry", (9, 3))
    log = run(s, "south", "PLAY scout_centre\nMOVE S1 11-3 VIA 10-2\n", 0)
    assert "(via 10-2 11-3)" in log
    # a forest on the way stops the unit: a path through it is refused, the fallback used
    s = south_turn()
    s["terrain"]["10-2"] = "forest"
    put(s, "S1", "south", "regular_cavalry", (9, 3))
    log = run(s, "south", "PLAY scout_centre\nMOVE S1 11-3 OR 10-4 VIA 10-2\n", 0)
    assert s["units"]["S1"]["hex"] == [9, 3] and "cannot be reached via 10-2" in log
    # too long for the unit's move (blue cavalry: 3 hexes)
    s = south_turn()
    put(s, "S1", "south", "regular_cavalry", (9, 3))
    run(s, "south", "PLAY scout_centre\nMOVE S1 11-3 VIA 8-4 9-5 10-4\n", 0)
    assert s["units"]["S1"]["hex"] == [9, 3]


def cavalry_fight() -> dict:
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
    log = run(s, "north", "PLAY scout_centre\nBATTLE N1 S1 NOPURSUE STAY BONUS S2\n",
              "F", "R", "R", "F", "R", "R", 0)
    assert s["units"]["N1"]["hex"] == [12, 6] and "makes a bonus attack on S2" in log


def test_p18_pursuit_hex_with_fallbacks_and_back_to_the_start() -> None:
    s = cavalry_fight()
    put(s, "N2", "north", "regular_infantry", (11, 5))
    # S1 retreats to 13-5; 11-5 is taken, so the fallback 13-7 (where N1 attacked from)
    run(s, "north", "PLAY scout_centre\nBATTLE N1 S1 PURSUE 11-5 OR 13-7 NOBONUS\n",
        "F", "R", "R", 0)
    assert s["units"]["S1"]["hex"] == [13, 5] and s["units"]["N1"]["hex"] == [13, 7]


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
    log = run(s, "north", "PLAY scout_centre\nBATTLE N1 S1\n", "F", "F", "F", 0)
    assert "S1 ignores 1 flag." in log and s["units"]["S1"]["hex"] != [12, 6]
    assert parse_text(s, "south", "IGNORE S1 1").ok


def test_retreat_path_as_a_standing_order() -> None:
    """D15: the owner picks each retreat hex (FAQ; spec §5.9.1). RETREAT <unit> <hex> ...
    names them: here first west then east, which no LEFT/RIGHT policy can say."""
    s = blank()
    s["hands"]["north"] = ["scout_centre"] * 6
    put(s, "N1", "north", "regular_infantry", (13, 7))
    put(s, "S1", "south", "regular_infantry", (12, 6))
    p = parse_text(s, "south", "RETREAT S1 11-5 12-4")
    assert p.ok and str(p.orders[0]) == "RETREAT S1 11-5 12-4"
    s["standing"]["south"] = {"retreat S1": p.orders[0].value}
    run(s, "north", "PLAY scout_centre\nBATTLE N1 S1 HOLD\n", "F", "F", "R", 0)
    assert s["units"]["S1"]["hex"] == [12, 4]


def test_every_reachable_path_can_be_written_with_via() -> None:
    """Property over real positions: each path `reachable` finds is accepted by VIA with
    the same length, and VIA never passes a unit or stops early."""
    from battlelore_helpers import RULESET

    from pbem.core.ruleset import GameConfig
    from pbem.core.selfplay import play
    from pbem.rulesets.battlelore.movement import allowance, path_via, reachable
    from pbem.rulesets.battlelore.state import SEATS

    checked = 0
    for variant in ("agincourt", "dwarves_at_the_ford"):
        p = play(RULESET, GameConfig(SEATS, variant, {}), 5, keep=True)
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
