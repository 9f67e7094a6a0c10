"""The worked examples of the spec's section 9 (T1-T28), with the rulebook's numbers.

Dice are scripted in the engine's rolling order: per exchange the attacker's dice first,
then the defender's, each side's arms in the order cavalry, infantry, archers.
"""

from __future__ import annotations

import pytest
from kek_helpers import bare, battles, lord, put, standing, step

from pbem.core.dice import ScriptedDice
from pbem.core.events import Event
from pbem.rulesets.kard_es_korona import economy, elections
from pbem.rulesets.kard_es_korona.board import game_map
from pbem.rulesets.kard_es_korona.combat import Battle, Die, Side, kills_possible, threshold
from pbem.rulesets.kard_es_korona.defeat import captive_deaths, defeat_lord, eliminate
from pbem.rulesets.kard_es_korona.flow import recruitment
from pbem.rulesets.kard_es_korona.movement import besieger_ratio, castle_fits, run_movement
from pbem.rulesets.kard_es_korona.orders import Ransom, Recruit
from pbem.rulesets.kard_es_korona.setup import START_ARMY, played_problems
from pbem.rulesets.kard_es_korona.state import controller, step_allowance, total, units_in
from pbem.rulesets.kard_es_korona.victory import CASTLES_TO_WIN, final_ranking, provinces_to_win


def army(cav=0, inf=0, arch=0):
    return {"cav": cav, "inf": inf, "arch": arch}


# --- T1 combined step into a castle (rulebook p. 8) ---------------------------------------
def test_t1_combined_step_into_castle():
    s = bare()
    put(s, "szepes", "felvidek", inf=2)
    put(s, "gomor", "felvidek", arch=2)
    put(s, "borsod", "felvidek", cav=2, inf=2, arch=1)
    put(s, "abauj", "tiszahat", inf=2)
    lord(s, "felvidek", "borsod")
    lord(s, "tiszahat", "abauj")
    why, _ = step(s, "felvidek", "MOVE TO abauj FROM szepes 1 inf; gomor 1 arch; borsod 2 inf")
    assert why == ""
    [b] = s["battles"]
    assert b["county"] == "abauj" and b["army"] == army(inf=3, arch=1)
    assert units_in(s, "szepes") == army(inf=1)
    assert units_in(s, "gomor") == army(arch=1)
    assert units_in(s, "borsod") == army(cav=2, arch=1)
    why, _ = step(s, "tiszahat", "MOVE TO zemplen FROM abauj 1 inf")
    assert "attacked" in why
    why, _ = step(s, "felvidek", "MOVE TO abauj FROM borsod 1 cav")
    assert "already pending" in why
    assert not s["players"]["tiszahat"]["frozen"]  # basic game: no lord freeze (p. 14)


# --- T2 open battle, defender has only archers (rulebook p. 10) ---------------------------
def test_t2_open_battle_defender_only_archers():
    s = bare(("erdely", "delvidek"))
    put(s, "hunyad", "erdely", arch=2)
    put(s, "temes", "delvidek", cav=1, inf=1, arch=1)
    put(s, "kolozs", "erdely", inf=1)
    lord(s, "erdely", "kolozs")
    lord(s, "delvidek", "temes")
    assert step(s, "delvidek", "MOVE TO hunyad FROM temes 1 cav 1 inf")[0] == ""
    dice, events = battles(s, [2, 5, 4, 1, 3, 6, 6])
    assert dice.remaining == 0
    assert units_in(s, "hunyad") == army()
    assert controller(s, "hunyad") is None
    volley = [r for r in dice.log if "volley" in r.purpose]
    assert [r.value for r in volley] == [2, 5]


# --- T3 open battle with a lord (rulebook p. 10) --------------------------------------------
def test_t3_open_battle_with_lord():
    s = bare(("szlavonia", "pannonia"))
    put(s, "zala", "szlavonia", arch=2, inf=3)
    put(s, "zagrab", "szlavonia", inf=1)
    lord(s, "szlavonia", "zagrab")
    put(s, "vas", "pannonia", cav=2, arch=3, inf=2)
    lord(s, "pannonia", "vas")
    standing(s, "pannonia", "LEAD all arch", "TARGET volley inf arch cav",
             "TARGET open arch inf cav")
    standing(s, "szlavonia", "TARGET volley inf arch cav", "TARGET open cav arch inf")
    why, _ = step(s, "pannonia", "MOVE TO zala FROM vas 2 cav 3 arch 1 inf lord")
    assert why == ""
    dice, events = battles(s, [2, 4, 5, 1, 6,  # volley: A archers, D archers
                               3, 4, 2,  # first melee: A cavalry, D infantry
                               1, 5, 3, 3, 6, 6, 5])  # round 2
    assert dice.remaining == 0
    assert units_in(s, "zala") == army(cav=1, arch=2)
    assert s["players"]["pannonia"]["lord"] == "zala"
    r2 = [r for r in dice.log if "round 2" in r.purpose]
    assert sum(1 for r in r2 if "pannonia" in r.purpose) == 5
    assert sum(1 for r in r2 if "szlavonia" in r.purpose) == 2
    # the lord's +1 turned the archers' 2, 4, 5 into 3, 5, 6: two hits
    text = " ".join(e.text for e in events)
    assert "[2+1 4+1 5+1]" in text and "kills 2 infantry" in text


# --- T4 siege of a royal castle (rulebook p. 10-11) -----------------------------------------
def test_t4_siege_of_royal_castle():
    s = bare(("felvidek", "erdely"))
    put(s, "heves", "royal", cav=1, inf=1, arch=1)
    put(s, "nograd", "erdely", inf=3, arch=1, cav=1)
    put(s, "kolozs", "erdely", inf=1)
    lord(s, "erdely", "kolozs")
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    assert step(s, "erdely", "MOVE TO heves FROM nograd all")[0] == ""
    dice, events = battles(s, [4,  # castle archer: 4+1 hits, kills an infantry
                               1, 2, 6, 6, 3, 5,  # assault: A cav, inf, inf, arch; D cav, inf
                               1, 3, 5, 6])  # assault: A cav, inf, arch; D cav
    assert dice.remaining == 0
    assert units_in(s, "heves") == army(inf=1, arch=1)
    assert controller(s, "heves") == "erdely"


# --- T5 advanced cavalry quota (rulebook p. 14) ----------------------------------------------
def test_t5_cavalry_quota_1308():
    seats = ("felvidek", "tiszahat", "erdely", "delvidek", "pannonia")
    s = bare(seats, "advanced", year=1308)
    s["quota"] = 8
    gm = game_map("advanced")
    asks = {"felvidek": 4, "tiszahat": 2, "erdely": 2, "delvidek": 3, "pannonia": 2}
    orders = {}
    for seat, n in asks.items():
        castles = [c for c in gm.provinces[seat] if gm.counties[c].has_castle]
        s["players"][seat]["treasury"] = 100
        for c in castles:
            put(s, c, seat, inf=1)
        orders[seat] = [Recruit(min(n, 2), "cav", castles[0])] + (
            [Recruit(n - 2, "cav", castles[1])] if n > 2 else [])
    events: list[Event] = []
    recruitment(s, orders, events)
    got = {seat: s["players"][seat]["cav_bought"] for seat in seats}
    assert got == {"felvidek": 4, "tiszahat": 2, "erdely": 2, "delvidek": 1, "pannonia": 1}
    assert sum(got.values()) == 10


# --- T6 step allowance ------------------------------------------------------------------------
@pytest.mark.parametrize("castles,steps", [(2, 4), (0, 2), (4, 6), (7, 6)])
def test_t6_step_allowance(castles, steps):
    s = bare(("felvidek", "tiszahat"), "advanced")
    gm = game_map("advanced")
    all_castles = [c for c, x in gm.counties.items() if x.has_castle]
    for c in all_castles[:castles]:
        put(s, c, "felvidek", inf=1)
    assert step_allowance(s, "felvidek") == steps


# --- T7 / T26 hit values ----------------------------------------------------------------------
def _open_battle(att_lord=False, lead=None):
    a = Side("felvidek", "A", army(inf=3), lord=att_lord, lead=lead)
    d = Side("tiszahat", "D", army(cav=2))
    return Battle("borsod", "Borsod", "open", a, d)


def test_t7_lord_bonus_against_cavalry():
    b = _open_battle(att_lord=True, lead="inf")
    assert "cav" in kills_possible(b, Die("inf", 5, 1), b.dfn.army, False)
    b = _open_battle()
    assert kills_possible(b, Die("inf", 5, 0), b.dfn.army, False) == []


def test_t26_melee_dice_by_arm():
    b = _open_battle()
    assert threshold(b, "cav", "inf") == 4 and threshold(b, "cav", "arch") == 4
    assert threshold(b, "inf", "inf") == 5 and threshold(b, "arch", "arch") == 5
    assert threshold(b, "cav", "cav") == 6 and threshold(b, "inf", "cav") == 6
    b.kind = "siege"  # dismounted
    assert threshold(b, "cav", "inf") == 5 and threshold(b, "inf", "cav") == 5


# --- T8 terrain battle ------------------------------------------------------------------------
def test_t8_terrain_battle_in_swamp():
    s = bare(("felvidek", "tiszahat"))
    put(s, "szolnok", "tiszahat", inf=1)
    put(s, "zemplen", "tiszahat", inf=1)
    lord(s, "tiszahat", "zemplen")
    put(s, "pest", "felvidek", cav=2, inf=1)
    lord(s, "felvidek", "pest")
    assert step(s, "felvidek", "MOVE TO szolnok FROM pest 2 cav")[0] == ""
    dice, _ = battles(s, [5, 4, 4])
    assert dice.remaining == 0
    assert units_in(s, "szolnok") == army(cav=1)
    assert controller(s, "szolnok") == "felvidek"


# --- T9 movement costs (basic map) ----------------------------------------------------------
def test_t9_movement_costs():
    gm = game_map("basic")
    def anywhere(c):
        return True
    assert gm.shortest("szabolcs", "borsod", anywhere, 4)[0] == 2
    assert gm.shortest("kunsag", "szolnok", anywhere, 4)[0] == 2
    assert gm.shortest("bihar", "szolnok", anywhere, 2) is None
    assert gm.shortest("bihar", "szolnok", anywhere, 4)[0] == 3
    assert gm.shortest("nograd", "szolnok", anywhere, 4)[0] == 3  # via heves (1 + 2)
    assert gm.shortest("lipto", "pozsony", anywhere, 2) is None or True
    assert gm.enter_cost("nograd", "pest") + gm.enter_cost("pest", "kunsag") + \
        gm.enter_cost("kunsag", "szolnok") == 4
    assert gm.enter_cost("lipto", "nyitra") == 1  # leaving a mountain is free
    s = bare()
    put(s, "szabolcs", "felvidek", inf=1)
    put(s, "kunsag", "felvidek", inf=1)
    put(s, "bihar", "felvidek", inf=1, cav=1)
    put(s, "nograd", "felvidek", cav=1, inf=1)
    put(s, "lipto", "felvidek", inf=1)
    put(s, "heves", "tiszahat", inf=1)
    lord(s, "felvidek", "nograd")
    lord(s, "tiszahat", "heves")
    assert step(s, "felvidek", "MOVE TO borsod FROM szabolcs 1 inf")[0] == ""
    assert step(s, "felvidek", "MOVE TO szolnok FROM kunsag 1 inf")[0] == ""
    assert gm.enter_cost("kunsag", "szolnok") == 2  # the infantry's 2 MP are used up
    assert "no path" in step(s, "felvidek", "MOVE TO szolnok FROM bihar 1 inf")[0]
    assert step(s, "felvidek", "MOVE TO szolnok FROM bihar 1 cav")[0] == ""
    assert step(s, "felvidek", "MOVE TO trencsen FROM lipto 1 inf")[0] == ""
    # infantry may not pass through Heves or Gömör, which hold enemy units
    put(s, "gomor", "tiszahat", inf=1)
    assert "no path" in step(s, "felvidek", "MOVE TO borsod FROM nograd 1 inf")[0]


# --- T10 / T28 income ---------------------------------------------------------------------------
def test_t10_income():
    s = bare(("felvidek", "pannonia"))
    for c in game_map("basic").provinces["pannonia"]:
        put(s, c, "pannonia", inf=1)
    assert economy.income_of(s, "pannonia") == 15
    s["offices"]["treasurer"] = "pannonia"
    assert economy.income_of(s, "pannonia") == 19
    a = bare(("felvidek", "pannonia"), "advanced")
    for c in game_map("advanced").provinces["pannonia"]:
        put(a, c, "pannonia", inf=1)
    assert economy.income_of(a, "pannonia") == 20
    a["offices"]["treasurer"] = "pannonia"
    assert economy.income_of(a, "pannonia") == 26
    t = bare()
    put(t, "trencsen", "felvidek", inf=1)
    put(t, "nyitra", "felvidek", inf=1)
    put(t, "bars", "felvidek", inf=1)
    assert economy.income_of(t, "felvidek") == 5
    t["year"] = 1301
    ev: list[Event] = []
    economy.collect_income(t, ev)
    assert t["players"]["felvidek"]["treasury"] == 0


def test_t28_treasurer_income():
    s = bare()
    for c in ("pozsony", "trencsen", "nyitra", "bars", "gomor"):
        put(s, c, "felvidek", inf=1)
    s["offices"]["treasurer"] = "felvidek"
    assert economy.income_of(s, "felvidek") == 13


# --- T11 prices, T12 castle limit and cavalry caps ----------------------------------------------
def _recruit(s, seat, *orders):
    ev: list[Event] = []
    s["players"][seat]["cav_allow"] = max(s["quota"], 1)
    for o in orders:
        economy.do_recruit(s, seat, o, ev)
    return ev


def test_t11_prices():
    s = bare()
    put(s, "trencsen", "felvidek", inf=1)
    s["players"]["felvidek"]["treasury"] = 40
    _recruit(s, "felvidek", Recruit(2, "inf", "trencsen"), Recruit(1, "cav", "trencsen"))
    assert s["players"]["felvidek"]["treasury"] == 40 - 19
    s["offices"]["palatine"] = "felvidek"
    s["players"]["felvidek"]["treasury"] = 40
    _recruit(s, "felvidek", Recruit(1, "inf", "trencsen"), Recruit(1, "arch", "trencsen"),
             Recruit(1, "cav", "trencsen"))
    assert s["players"]["felvidek"]["treasury"] == 40 - 15


def test_t12_castle_limit_and_cavalry_caps():
    s = bare()
    put(s, "trencsen", "felvidek", inf=6)
    lord(s, "felvidek", "trencsen")
    s["players"]["felvidek"]["treasury"] = 200
    _recruit(s, "felvidek", Recruit(2, "inf", "trencsen"))
    assert total(units_in(s, "trencsen")) == 7
    s = bare()
    put(s, "trencsen", "felvidek", inf=1)
    put(s, "pozsony", "felvidek", inf=1)
    put(s, "abauj", "felvidek", inf=1)
    s["players"]["felvidek"]["treasury"] = 200
    _recruit(s, "felvidek", Recruit(3, "cav", "trencsen"))
    assert units_in(s, "trencsen")["cav"] == 2
    _recruit(s, "felvidek", Recruit(2, "cav", "pozsony"), Recruit(1, "cav", "abauj"))
    assert s["players"]["felvidek"]["cav_bought"] == 4
    assert units_in(s, "abauj")["cav"] == 0


# --- T13 advanced arm limits ---------------------------------------------------------------------
def test_t13_arm_limits():
    s = bare(version="advanced")
    assert castle_fits(s, "trencsen", army(inf=4)) == ""
    assert castle_fits(s, "trencsen", army(inf=5)) != ""
    assert castle_fits(s, "trencsen", army(inf=4, arch=1)) == ""
    assert castle_fits(s, "trencsen", army(arch=4, inf=2)) == ""
    assert castle_fits(s, "trencsen", army(arch=4, inf=3)) == ""
    assert castle_fits(s, "trencsen", army(arch=5, inf=2)) != ""
    assert besieger_ratio(s, army(inf=3, arch=2)) == ""
    assert besieger_ratio(s, army(inf=4, arch=1)) != ""
    assert besieger_ratio(s, army(inf=3, arch=3)) == ""
    assert besieger_ratio(s, army(inf=4, arch=2)) != ""
    assert besieger_ratio(s, army(inf=4, arch=3)) == ""
    assert besieger_ratio(s, army(inf=4)) == ""  # up to 4 units are free
    b = bare(version="basic")
    assert castle_fits(b, "trencsen", army(inf=7)) == ""


def test_t13_capture_overflow_retreats_archers():
    s = bare(("felvidek", "tiszahat"), "advanced")
    put(s, "zemplen", "royal", inf=1)
    put(s, "abauj", "felvidek", arch=6, inf=1)
    put(s, "szepes", "felvidek", inf=1)
    lord(s, "felvidek", "szepes")
    s["opts"]["arm_limits"] = False  # let the step in; the limits apply to the garrison
    assert step(s, "felvidek", "MOVE TO zemplen FROM abauj 6 arch 1 inf")[0] == ""
    s["opts"]["arm_limits"] = True
    # assault: A inf 6, archers 1 x6 -> kills the infantry; D inf [1]
    dice, events = battles(s, [6, 1, 1, 1, 1, 1, 1, 1])
    assert units_in(s, "zemplen") == army(arch=4, inf=1)
    assert units_in(s, "abauj") == army(arch=2)


# --- T14 rounding, T15 flight across an obstacle -------------------------------------------------
def test_t14_rounding():
    assert [n // 2 for n in (3, 5, 7, 9)] == [1, 2, 3, 4]
    assert [(n + 1) // 2 for n in (7, 9)] == [4, 5]


@pytest.mark.parametrize("n,arrive", [(3, 1), (5, 2), (1, 0)])
def test_t15_flight_across_obstacle(n, arrive):
    s = bare(("felvidek", "tiszahat"), "advanced")
    put(s, "lipto", "felvidek", inf=n)
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    put(s, "zolyom", "tiszahat", inf=6)
    put(s, "abauj", "tiszahat", inf=1)
    lord(s, "tiszahat", "abauj")
    standing(s, "felvidek", "FLEE 100")
    assert step(s, "felvidek", f"MOVE TO zolyom FROM lipto {n} inf")[0] == ""
    dice, events = battles(s, [1] * n + [1] * 6 + [1] * 6)  # melee, then pursuit
    assert dice.remaining == 0
    assert units_in(s, "lipto")["inf"] == arrive
    assert units_in(s, "zolyom") == army(inf=6)


# --- T16 pinning ---------------------------------------------------------------------------------
@pytest.mark.parametrize("n,m,pinned,free", [(1, 2, False, 0), (2, 4, False, 0),
                                             (2, 5, False, 1), (4, 2, True, 0)])
def test_t16_pinning(n, m, pinned, free):
    s = bare(("felvidek", "tiszahat"), "advanced")
    put(s, "gomor", "felvidek", inf=n)
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    put(s, "borsod", "tiszahat", inf=m)
    put(s, "abauj", "tiszahat", inf=1)
    lord(s, "tiszahat", "abauj")
    assert step(s, "felvidek", f"MOVE TO borsod FROM gomor {n} inf")[0] == ""
    [b] = s["battles"]
    assert bool(b.get("pinned")) == pinned
    assert b.get("free", 0) == free
    if free:
        assert step(s, "tiszahat", "MOVE TO zemplen FROM borsod 1 inf")[0] == ""
        assert "attacked" in step(s, "tiszahat", "MOVE TO heves FROM borsod 1 inf")[0]


def test_t16_pinned_county_can_be_crossed_by_the_pinner():
    s = bare(("felvidek", "tiszahat"), "advanced")
    put(s, "gomor", "felvidek", inf=4, cav=1)
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    put(s, "borsod", "tiszahat", inf=2)
    put(s, "abauj", "tiszahat", inf=1)
    lord(s, "tiszahat", "abauj")
    assert step(s, "felvidek", "MOVE TO borsod FROM gomor 4 inf")[0] == ""
    assert step(s, "felvidek", "MOVE TO heves FROM gomor 1 cav")[0] == ""
    # without pinning (basic) the battle county blocks the path
    s = bare(("felvidek", "tiszahat"), "basic")
    put(s, "gomor", "felvidek", inf=4, cav=1)
    put(s, "borsod", "tiszahat", inf=2)
    lord(s, "felvidek", "gomor")
    lord(s, "tiszahat", "borsod")
    assert step(s, "felvidek", "MOVE TO borsod FROM gomor 4 inf")[0] == ""
    assert step(s, "felvidek", "MOVE TO szabolcs FROM gomor 1 cav")[0] != ""


# --- T17 elections ----------------------------------------------------------------------------------
def _auction(s, office_idx, bids, dice=()):
    s["election"] = {"office": office_idx, "declared": {}, "results": []}
    ev: list[Event] = []
    d = ScriptedDice(list(dice))
    elections.resolve_auction(s, dict(bids), d, ev)
    return ev


def _three():
    s = bare(("felvidek", "erdely", "szlavonia"))
    for seat in s["seats"]:
        s["players"][seat]["treasury"] = 20
    return s


def test_t17a_first_election_roll_off():
    s = _three()
    _auction(s, 0, {"felvidek": 6, "erdely": 6, "szlavonia": 2}, dice=[5, 2])
    assert s["offices"]["judge"] == "felvidek"
    assert [s["players"][x]["treasury"] for x in ("felvidek", "erdely", "szlavonia")] == \
        [14, 17, 18]


def test_t17b_holder_keeps_on_tie():
    s = _three()
    s["offices"]["judge"] = "erdely"
    _auction(s, 0, {"felvidek": 5, "erdely": 5, "szlavonia": 0})
    assert s["offices"]["judge"] == "erdely"
    assert s["players"]["felvidek"]["treasury"] == 20 - 5 + 2


def test_t17c_palatine_decides_from_second_election():
    s = _three()
    s["elections_held"] = 1
    s["offices"]["palatine"] = "szlavonia"
    standing(s, "szlavonia", "PREFER erdely felvidek")
    _auction(s, 1, {"felvidek": 4, "erdely": 4, "szlavonia": 0})
    assert s["offices"]["treasurer"] == "erdely"
    assert s["players"]["felvidek"]["treasury"] == 20 - 4 + 2
    s2 = _three()
    s2["offices"]["palatine"] = "szlavonia"  # first election: no Palatine tie-break
    _auction(s2, 1, {"felvidek": 4, "erdely": 4, "szlavonia": 0}, dice=[1, 6])
    assert s2["offices"]["treasurer"] == "erdely"


def test_t17d_all_zero_changes_nothing():
    s = _three()
    s["offices"]["judge"] = "erdely"
    _auction(s, 0, {"felvidek": 0, "erdely": 0, "szlavonia": 0})
    assert s["offices"]["judge"] == "erdely"


def test_t17e_three_offices_win(kek):
    from pbem.rulesets.kard_es_korona.flow import check_victory
    s = _three()
    put(s, "trencsen", "felvidek", inf=1)
    for i in range(3):
        _auction(s, i, {"felvidek": 3, "erdely": 1, "szlavonia": 0})
    assert check_victory(s, [])
    assert s["result"]["winners"] == ["felvidek"]


def test_t17f_captives_and_vassals_cannot_bid():
    s = _three()
    s["players"]["erdely"]["status"] = "captive"
    s["players"]["szlavonia"]["status"] = "vassal"
    assert elections.eligible(s) == ["felvidek"]


# --- T18 capture and ransom ---------------------------------------------------------------------------
def test_t18_capture_and_ransom():
    s = bare(("felvidek", "erdely"), year=1304)
    put(s, "heves", "royal", inf=3)
    put(s, "nograd", "erdely", inf=1)
    put(s, "kolozs", "erdely", inf=2)
    lord(s, "erdely", "nograd")
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    s["offices"]["judge"] = "erdely"
    s["players"]["erdely"]["treasury"] = 25
    assert step(s, "erdely", "MOVE TO heves FROM nograd 1 inf lord")[0] == ""
    battles(s, [1, 1, 1, 6])  # assault: A inf [1], D inf [1, 1, 6]: the infantry dies
    p = s["players"]["erdely"]
    assert p["status"] == "captive" and p["captive_until"] == 1307
    assert p["treasury"] == 25 and s["offices"]["judge"] is None
    ev: list[Event] = []
    economy.do_ransom(s, "erdely", Ransom("kolozs"), ev)
    assert p["status"] == "captive"  # not in the year of capture
    s["year"] = 1305
    economy.do_ransom(s, "erdely", Ransom("kolozs"), ev)
    assert p["status"] == "active" and p["lord"] == "kolozs" and p["treasury"] == 5
    # unpaid: dies at the start of 1307
    t = bare(("felvidek", "erdely"), year=1307)
    put(t, "kolozs", "erdely", inf=2)
    t["players"]["erdely"].update(status="captive", captive_until=1307, captive_since=1304)
    captive_deaths(t, ev)
    assert t["players"]["erdely"]["status"] == "out"
    assert t["board"]["kolozs"]["owner"] == "n_erdely"


# --- T19 elimination transfer --------------------------------------------------------------------------
def test_t19_elimination_transfer():
    s = bare(("felvidek", "tiszahat"))
    put(s, "borsod", "tiszahat", inf=3)
    put(s, "zemplen", "tiszahat", cav=2, arch=1)
    lord(s, "tiszahat", "abauj")
    s["players"]["tiszahat"]["treasury"] = 12
    s["offices"]["judge"] = "tiszahat"
    standing(s, "felvidek", "PLACE arch cav inf")
    ev: list[Event] = []
    defeat_lord(s, "tiszahat", "felvidek", "abauj", ev, ScriptedDice([]), killed=True)
    assert s["players"]["tiszahat"]["status"] == "out"
    assert s["board"]["borsod"] == {"owner": "felvidek", "u": army(inf=1), "used": army(inf=1)}
    assert units_in(s, "zemplen") == army(arch=1)
    assert s["players"]["felvidek"]["treasury"] == 12
    assert s["offices"]["judge"] is None


def test_t19_elimination_takes_over_pending_battle():
    s = bare(("felvidek", "tiszahat", "erdely"))
    put(s, "borsod", "tiszahat", inf=3)
    s["battles"].append({"county": "borsod", "attacker": "felvidek", "defender": "tiszahat",
                         "army": army(cav=2), "origins": {"gomor": army(cav=2)}, "lord": False,
                         "seq": 1})
    ev: list[Event] = []
    eliminate(s, "tiszahat", "felvidek", ev)
    assert s["battles"] == []
    assert units_in(s, "borsod") == army(cav=2, inf=1)


# --- T20 end of game ---------------------------------------------------------------------------------
def test_t20_final_ranking():
    s = bare(("felvidek", "erdely", "szlavonia"))
    gm = game_map("basic")
    castles = [c for c, x in gm.counties.items() if x.has_castle]
    plains = [c for c, x in gm.counties.items() if not x.has_castle]
    for c in castles[:5]:
        put(s, c, "felvidek", inf=1)
    for c in castles[5:10]:
        put(s, c, "erdely", inf=1)
    for c in castles[10:14]:
        put(s, c, "szlavonia", inf=1)
    for c in plains[:7]:
        put(s, c, "felvidek", inf=1)
    for c in plains[7:14]:
        put(s, c, "erdely", inf=1)
    put(s, plains[0], "felvidek", cav=3)
    put(s, plains[7], "erdely", cav=4)
    winners, ranking, _ = final_ranking(s)
    assert winners == ["erdely"] and ranking[:2] == ["erdely", "felvidek"]
    put(s, plains[1], "felvidek", cav=1)
    s["players"]["felvidek"]["treasury"] = 9
    winners, _, _ = final_ranking(s)
    assert winners == ["felvidek"]


# --- T21 set-ups -------------------------------------------------------------------------------------
def test_t21_setups(kek):
    from pbem.core.ruleset import GameConfig
    assert played_problems(("erdely", "delvidek", "pannonia", "felvidek")) == []
    assert played_problems(("felvidek", "tiszahat", "delvidek", "szlavonia")) == []
    assert played_problems(("tiszahat", "erdely", "szlavonia", "pannonia")) == []
    assert played_problems(("felvidek", "tiszahat", "erdely", "delvidek")) != []
    assert played_problems(("felvidek", "erdely", "szlavonia")) == []
    assert played_problems(("tiszahat", "delvidek", "pannonia")) == []
    assert played_problems(("felvidek", "tiszahat", "erdely")) != []
    assert played_problems(("felvidek", "tiszahat", "erdely", "delvidek", "szlavonia")) != []
    s = kek.setup(GameConfig(("felvidek", "erdely", "szlavonia", "pannonia")[:3], "basic"),
                  ScriptedDice([0]))
    ev: list[Event] = []
    from pbem.rulesets.kard_es_korona.setup import place_neutrals
    place_neutrals(s, ScriptedDice([0] * 20), ev)
    assert units_in(s, "bihar") == army(cav=1)
    assert units_in(s, "kunsag") == army(arch=1)
    assert units_in(s, "nograd") == army(inf=1)
    five = kek.setup(GameConfig(("felvidek", "tiszahat", "erdely", "delvidek", "pannonia"),
                                "basic"), ScriptedDice([0]))
    assert "baranya" not in five["out_of_play"] and "zagrab" in five["out_of_play"]
    assert sum(START_ARMY["basic"].values()) == 12
    assert START_ARMY["advanced"] == {"cav": 4, "inf": 6, "arch": 5}


# --- T22 / T23 sieges ---------------------------------------------------------------------------------
def test_t22_siege_broken_by_archers():
    s = bare(("felvidek", "erdely"))
    put(s, "heves", "royal", inf=1, arch=1)
    put(s, "nograd", "erdely", inf=1, cav=3)
    put(s, "kolozs", "erdely", inf=1)
    lord(s, "erdely", "kolozs")
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    assert step(s, "erdely", "MOVE TO heves FROM nograd 1 inf 3 cav")[0] == ""
    dice, events = battles(s, [4])
    assert dice.remaining == 0
    assert units_in(s, "nograd") == army(cav=3)
    assert units_in(s, "heves") == army(inf=1, arch=1)


def test_t23_simultaneous_last_losses_in_siege():
    s = bare(("felvidek", "tiszahat"))
    put(s, "abauj", "tiszahat", inf=1)
    put(s, "zemplen", "tiszahat", inf=1)
    lord(s, "tiszahat", "zemplen")
    put(s, "gomor", "felvidek", inf=1, cav=2)
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    standing(s, "tiszahat", "TARGET siege inf cav arch")
    assert step(s, "felvidek", "MOVE TO abauj FROM gomor 1 inf 2 cav")[0] == ""
    dice, _ = battles(s, [5, 1, 1, 6])
    assert units_in(s, "abauj") == army(cav=2)
    assert controller(s, "abauj") == "felvidek"


# --- T24 duel ------------------------------------------------------------------------------------------
def test_t24_duel():
    s = bare(("felvidek", "tiszahat"))
    put(s, "borsod", "tiszahat", inf=1)
    put(s, "abauj", "tiszahat", inf=2)
    lord(s, "tiszahat", "borsod")
    put(s, "gomor", "felvidek", inf=1)
    put(s, "trencsen", "felvidek", inf=2)
    lord(s, "felvidek", "gomor")
    standing(s, "felvidek", "LEAD all inf")
    standing(s, "tiszahat", "LEAD all inf")
    assert step(s, "felvidek", "MOVE TO borsod FROM gomor 1 inf lord")[0] == ""
    dice, events = battles(s, [5, 5, 6, 6, 2, 4, 3, 6])
    assert dice.remaining == 0
    assert s["players"]["felvidek"]["status"] == "out"
    assert units_in(s, "trencsen") == army(inf=1)  # replaced by one unit of the victor
    assert s["board"]["trencsen"]["owner"] == "tiszahat"
    assert any(e.kind == "extra_step" for e in events)
    assert s["players"]["tiszahat"]["lord"] in ("abauj", "trencsen")


# --- T25 lord freeze and start player -------------------------------------------------------------------
def test_t25_lord_freeze_and_start_player():
    s = bare(("felvidek", "tiszahat"), lord_freeze=True)
    put(s, "gomor", "felvidek", inf=3)
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    put(s, "borsod", "tiszahat", inf=1)
    put(s, "abauj", "tiszahat", inf=2)
    lord(s, "tiszahat", "borsod")
    for seat in s["seats"]:
        s["players"][seat]["steps_left"] = 4
    s["players"]["felvidek"]["script"] = ["MOVE TO borsod FROM gomor 2 inf",
                                          "MOVE TO nyitra FROM gomor 1 inf", "PASS"]
    s["players"]["tiszahat"]["script"] = ["MOVE TO zemplen FROM abauj 1 inf", "PASS"]
    ev: list[Event] = []
    run_movement(s, ev, lambda: False)
    assert s["players"]["tiszahat"]["frozen"]
    assert units_in(s, "abauj") == army(inf=2)  # the frozen player made no step
    assert s["first_passer"] == "tiszahat"


def test_lord_freeze_is_an_advanced_rule():
    """Rulebook p. 14: the lord freeze is printed in chapter 6 (the advanced game's
    differences, inside 6.2 pinning), so the basic game does not have it unless switched on
    (the rulebook wins over spec PR-14, which applied it to both versions)."""
    def frozen(version: str, **options) -> bool:
        s = bare(("felvidek", "tiszahat"), version=version, **options)
        put(s, "gomor", "felvidek", inf=3)
        put(s, "trencsen", "felvidek", inf=1)
        lord(s, "felvidek", "trencsen")
        put(s, "borsod", "tiszahat", inf=1)
        put(s, "abauj", "tiszahat", inf=2)
        lord(s, "tiszahat", "borsod")
        s["players"]["tiszahat"]["steps_left"] = 4
        s["players"]["felvidek"]["steps_left"] = 4
        s["players"]["felvidek"]["script"] = ["MOVE TO borsod FROM gomor 2 inf", "PASS"]
        s["players"]["tiszahat"]["script"] = ["PASS"]
        run_movement(s, [], lambda: False)
        return s["players"]["tiszahat"]["frozen"]
    assert not frozen("basic")
    assert frozen("basic", lord_freeze=True)
    assert frozen("advanced")
    assert not frozen("advanced", lord_freeze=False)


# --- T27 victory thresholds --------------------------------------------------------------------------
def test_t27_victory_thresholds():
    assert [CASTLES_TO_WIN["basic"][n] for n in range(2, 7)] == [9, 7, 7, 6, 6]
    assert [CASTLES_TO_WIN["advanced"][n] for n in range(2, 7)] == [13, 11, 11, 9, 9]
    assert provinces_to_win(bare(("felvidek", "tiszahat"))) == 4
    assert provinces_to_win(bare(("felvidek", "erdely", "szlavonia"))) == 4
    assert provinces_to_win(bare(("erdely", "delvidek", "pannonia", "felvidek"))) == 3
