"""Rule unit tests for the tricky parts beyond the worked examples: vassals and vetoes,
office cession, traditional movement, the battle order, ask-mode steps, retreats."""

from __future__ import annotations

from kek_helpers import RULESET, bare, lord, put, standing, step

from pbem.core.dice import HmacDice, ScriptedDice
from pbem.core.events import Event
from pbem.core.orders import Parsed
from pbem.rulesets.kard_es_korona import economy, flow
from pbem.rulesets.kard_es_korona.battles import next_battle, run_battles
from pbem.rulesets.kard_es_korona.defeat import make_vassal
from pbem.rulesets.kard_es_korona.orders import Cede
from pbem.rulesets.kard_es_korona.state import units_in
from pbem.rulesets.kard_es_korona.victory import instant_winner


def army(cav=0, inf=0, arch=0):
    return {"cav": cav, "inf": inf, "arch": arch}


def test_vassal_may_not_attack_overlord_nor_pass_his_counties():
    s = bare(("felvidek", "tiszahat", "erdely"))
    put(s, "gomor", "tiszahat", inf=3)
    put(s, "borsod", "felvidek", inf=2)
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    make_vassal(s, "tiszahat", "felvidek", [])
    assert "overlord or vassal" in step(s, "tiszahat", "MOVE TO borsod FROM gomor 1 inf")[0]
    assert "overlord or vassal" in step(s, "felvidek", "MOVE TO gomor FROM borsod 1 inf")[0]


def test_overlord_veto():
    s = bare(("felvidek", "tiszahat", "erdely"))
    put(s, "gomor", "tiszahat", inf=3)
    put(s, "nograd", "erdely", inf=1)
    put(s, "kolozs", "erdely", inf=1)
    lord(s, "erdely", "kolozs")
    make_vassal(s, "tiszahat", "felvidek", [])
    standing(s, "felvidek", "VETO ATTACK nograd", "VETO LEAVE gomor")
    assert "vetoes attacks" in step(s, "tiszahat", "MOVE TO nograd FROM gomor 1 inf")[0]
    assert "vetoes giving up" in step(s, "tiszahat", "MOVE TO bars FROM gomor 3 inf")[0]
    assert step(s, "tiszahat", "MOVE TO bars FROM gomor 2 inf")[0] == ""


def test_vassal_counts_for_overlord_and_last_lord_standing():
    s = bare(("felvidek", "tiszahat"))
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    put(s, "abauj", "tiszahat", inf=1)
    put(s, "zemplen", "tiszahat", inf=1)
    s["players"]["tiszahat"]["treasury"] = 0
    make_vassal(s, "tiszahat", "felvidek", [])
    assert economy.income_of(s, "felvidek") == 9
    assert economy.income_of(s, "tiszahat") == 3  # half of 6
    assert instant_winner(s)[0] == "felvidek"


def test_cede_office_can_win():
    s = bare(("felvidek", "tiszahat"))
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    put(s, "abauj", "tiszahat", inf=1)
    lord(s, "tiszahat", "abauj")
    s["offices"].update(judge="felvidek", treasurer="felvidek", palatine="tiszahat")
    ev: list[Event] = []
    economy.do_cede(s, "tiszahat", Cede("judge", "felvidek"), ev)
    assert s["offices"]["judge"] == "felvidek" and ev[0].kind == "skip"
    economy.do_cede(s, "tiszahat", Cede("palatine", "felvidek"), ev)
    assert instant_winner(s) == ("felvidek", "holds all three offices")


def test_lord_battles_first_then_open_then_sieges_in_rotation():
    s = bare(("felvidek", "tiszahat", "erdely"))
    s["start"] = "tiszahat"
    s["battles"] = [
        {"county": "heves", "attacker": "tiszahat", "army": army(inf=1), "lord": False,
         "seq": 1, "origins": {}},
        {"county": "bars", "attacker": "felvidek", "army": army(inf=1), "lord": False,
         "seq": 2, "origins": {}},
        {"county": "borsod", "attacker": "tiszahat", "army": army(inf=1), "lord": False,
         "seq": 3, "origins": {}},
        {"county": "nograd", "attacker": "erdely", "army": army(inf=1), "lord": True,
         "seq": 4, "origins": {}},
        {"county": "szabolcs", "attacker": "erdely", "army": army(inf=1), "lord": False,
         "seq": 5, "origins": {}},
    ]
    order = []
    while s["battles"]:
        b = next_battle(s)
        order.append(b["county"])
        s["battles"].remove(b)
    # lords first; open battles: tiszahat (start), erdely, felvidek; then the siege
    assert order == ["nograd", "borsod", "szabolcs", "bars", "heves"]


def test_traditional_mode_moves_and_fights_player_by_player():
    s = bare(("felvidek", "tiszahat"), movement="traditional")
    put(s, "gomor", "felvidek", inf=3)
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    put(s, "borsod", "tiszahat", inf=1)
    put(s, "abauj", "tiszahat", inf=2)
    lord(s, "tiszahat", "abauj")
    orders = {"felvidek": RULESET.parse(s, "felvidek", "MOVE TO borsod FROM gomor 3 inf\n"),
              "tiszahat": RULESET.parse(s, "tiszahat", "MOVE TO borsod FROM abauj 1 inf\n")}
    s2, events = RULESET.resolve(s, orders, HmacDice(b"trad", "x"))
    texts = [e.text for e in events]
    # felvidek (start) moved and fought before tiszahat moved: Borsod was his by then
    i_battle = next(i for i, t in enumerate(texts) if t.startswith("Battle of Borsod"))
    i_skip = next(i for i, t in enumerate(texts) if "tiszahat" in t and "Borsod" in t
                  and "attacks" in t)
    assert i_battle < i_skip


def test_ask_mode_asks_for_battle_instructions_and_fealty():
    s = bare(("felvidek", "tiszahat"), decisions="ask")
    put(s, "gomor", "felvidek", inf=3)
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "gomor")
    put(s, "borsod", "tiszahat", inf=1)
    put(s, "abauj", "tiszahat", inf=2)
    lord(s, "tiszahat", "borsod")
    assert step(s, "felvidek", "MOVE TO borsod FROM gomor 2 inf lord")[0] == ""
    ev: list[Event] = []
    assert run_battles(s, ScriptedDice([]), ev, lambda: False) == "ask"
    s["phase"] = "ask"
    aw = RULESET.awaiting(s)
    assert set(aw) == {"felvidek", "tiszahat"}
    orders = {"felvidek": RULESET.parse(s, "felvidek", "LEAD all inf\n"),
              "tiszahat": Parsed()}
    s["stage"] = "battles"
    # melee: A inf [6, 6] (+1 lead), D inf [1]: the defending lord is defeated -> fealty ask
    s, events = RULESET.resolve(s, orders, ScriptedDice([6, 6, 1]))
    assert s["phase"] == "ask" and s["ask"]["kind"] == "fealty"
    assert list(RULESET.awaiting(s)) == ["tiszahat"]
    s, events = RULESET.resolve(s, {"tiszahat": RULESET.parse(s, "tiszahat", "FEALTY NO")},
                                ScriptedDice([]))
    assert s["players"]["tiszahat"]["status"] == "out"
    assert s["result"]["winners"] == ["felvidek"]


def surrounded_retreat():
    """Gömör's army attacks Abaúj; every county it could retreat to is hostile.
    Szepes (mountain) neighbours in the basic map: Abaúj, Gömör, Liptó."""
    s = bare(("felvidek", "tiszahat"))
    put(s, "szepes", "tiszahat", inf=1, arch=1)
    put(s, "abauj", "tiszahat", inf=1)
    put(s, "lipto", "tiszahat", inf=1)
    put(s, "zemplen", "tiszahat", inf=1)
    lord(s, "tiszahat", "zemplen")
    put(s, "gomor", "felvidek", inf=1, cav=2)
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    return s


def test_forced_battle_when_retreat_is_surrounded():
    s = surrounded_retreat()
    assert step(s, "felvidek", "MOVE TO abauj FROM gomor 1 inf 2 cav")[0] == ""
    s["board"]["gomor"] = {"owner": "tiszahat", "u": army(inf=1), "used": army()}
    put(s, "borsod", "tiszahat", inf=1)
    dice = ScriptedDice([1, 1, 1, 6,  # assault: A cav, cav, inf; D inf 6 kills the infantry
                         4, 4, 1])  # forced battle in Borsod: A cav 4, 4; D inf 1
    ev: list[Event] = []
    assert run_battles(s, dice, ev, lambda: False) == "done"
    assert any("surrounded and must attack Borsod" in e.text for e in ev)
    assert units_in(s, "borsod") == army(cav=2)


def test_nmr_defaults_parse_cleanly():
    s = bare(("felvidek", "tiszahat"))
    for seat in s["seats"]:
        assert RULESET.default_orders(s, seat).ok
    s["phase"] = "bid"
    s["election"] = {"office": 1, "declared": {}, "results": []}
    assert str(RULESET.default_orders(s, "felvidek").orders[0]) == "BID treasurer 0"


def test_instant_castle_victory_during_movement():
    s = bare(("felvidek", "tiszahat"))
    from pbem.rulesets.kard_es_korona.board import game_map
    castles = [c for c, x in game_map("basic").counties.items() if x.has_castle]
    for c in castles[:8]:
        put(s, c, "felvidek", inf=2)
    lord(s, "felvidek", castles[0])
    other = next(c for c in castles if c not in s["board"])
    put(s, other, "tiszahat", inf=1)
    lord(s, "tiszahat", other)
    target = next(c for c in castles[8:] if c not in s["board"]
                  and any(n in castles[:8] for n in game_map("basic").adjacent(c)))
    origin = next(n for n in game_map("basic").adjacent(target) if n in castles[:8])
    ev: list[Event] = []
    s["players"]["felvidek"]["script"] = [f"MOVE TO {target} FROM {origin} 1 inf"]
    s["players"]["felvidek"]["steps_left"] = 4
    s["players"]["tiszahat"]["script"] = ["PASS"]
    s["players"]["tiszahat"]["steps_left"] = 4
    from pbem.rulesets.kard_es_korona.movement import run_movement
    run_movement(s, ev, lambda: flow.check_victory(s, ev))
    assert s["result"]["winners"] == ["felvidek"] and "9 castles" in s["result"]["reason"]
    assert units_in(s, target) == army(inf=1)


def test_judge_royal_rerolls_an_arm_that_missed():
    s = bare(("felvidek", "tiszahat"))
    put(s, "borsod", "tiszahat", inf=2)
    put(s, "abauj", "tiszahat", inf=1)
    lord(s, "tiszahat", "abauj")
    put(s, "gomor", "felvidek", inf=3)
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    s["offices"]["judge"] = "felvidek"
    standing(s, "felvidek", "REROLL 3")
    assert step(s, "felvidek", "MOVE TO borsod FROM gomor 3 inf")[0] == ""
    # melee: A [1, 2, 3] all miss -> reroll [6, 6, 1]; D [1, 1]
    dice = ScriptedDice([1, 2, 3, 1, 1, 6, 6, 1])
    ev: list[Event] = []
    run_battles(s, dice, ev, lambda: False)
    assert any("Judge Royal rerolls the 3 infantry" in e.text for e in ev)
    assert units_in(s, "borsod") == army(inf=3)
    assert dice.remaining == 0


def test_vintage_card_helps_the_defender():
    s = bare(("felvidek", "tiszahat"))
    put(s, "borsod", "tiszahat", inf=1)
    put(s, "abauj", "tiszahat", inf=1)
    lord(s, "tiszahat", "abauj")
    put(s, "gomor", "felvidek", inf=1)
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    s["card"] = "szuret"
    assert step(s, "felvidek", "MOVE TO borsod FROM gomor 1 inf")[0] == ""
    dice = ScriptedDice([4, 4])  # A 4 misses; D 4+1 hits
    ev: list[Event] = []
    run_battles(s, dice, ev, lambda: False)
    assert units_in(s, "borsod") == army(inf=1) and s["board"]["borsod"]["owner"] == "tiszahat"


def test_rainy_autumn_calls_off_a_siege():
    s = bare(("felvidek", "tiszahat"))
    put(s, "abauj", "tiszahat", inf=1)
    lord(s, "tiszahat", "abauj")
    put(s, "gomor", "felvidek", inf=2)
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    s["card"] = "esos_osz"
    assert step(s, "felvidek", "MOVE TO abauj FROM gomor 2 inf")[0] == ""
    dice = ScriptedDice([2])
    ev: list[Event] = []
    run_battles(s, dice, ev, lambda: False)
    assert units_in(s, "gomor") == army(inf=2)
    assert any("called off" in e.text for e in ev)


def test_lone_lord_is_defeated_without_dice_and_vassals_are_freed():
    s = bare(("felvidek", "tiszahat", "erdely"), fealty=False)
    put(s, "abauj", "tiszahat", inf=2)
    lord(s, "tiszahat", "borsod")  # alone, e.g. after a duel
    put(s, "gomor", "felvidek", inf=1)
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    put(s, "kolozs", "erdely", inf=1)
    make_vassal(s, "erdely", "tiszahat", [])
    assert step(s, "felvidek", "MOVE TO borsod FROM gomor 1 inf")[0] == ""
    dice = ScriptedDice([])
    ev: list[Event] = []
    run_battles(s, dice, ev, lambda: False)
    assert s["players"]["tiszahat"]["status"] == "out"
    assert units_in(s, "abauj") == army(inf=1) and s["board"]["abauj"]["owner"] == "felvidek"
    assert s["players"]["erdely"]["status"] == "active"
    assert s["players"]["erdely"]["lord"] == "kolozs"


def test_escape_roll():
    s = bare(("felvidek", "tiszahat"), escape_roll=True)
    put(s, "borsod", "tiszahat", inf=1)
    put(s, "abauj", "tiszahat", inf=1)
    lord(s, "tiszahat", "borsod")
    put(s, "gomor", "felvidek", inf=2)
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    assert step(s, "felvidek", "MOVE TO borsod FROM gomor 2 inf")[0] == ""
    dice = ScriptedDice([5, 5, 1, 6])  # melee: A kills the infantry; escape roll 6
    ev: list[Event] = []
    run_battles(s, dice, ev, lambda: False)
    assert s["players"]["tiszahat"]["lord"] == "abauj"
    assert s["players"]["tiszahat"]["status"] == "active"


def test_reverse_pinning_frees_the_lord():
    s = bare(("felvidek", "tiszahat"), "advanced")
    put(s, "borsod", "tiszahat", inf=5)
    put(s, "abauj", "tiszahat", inf=1)
    lord(s, "tiszahat", "borsod")
    put(s, "gomor", "felvidek", inf=1)
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    assert step(s, "felvidek", "MOVE TO borsod FROM gomor 1 inf")[0] == ""
    assert not s["players"]["tiszahat"]["frozen"]
    assert step(s, "tiszahat", "MOVE TO zemplen FROM borsod 3 inf lord")[0] == ""
    assert "attacked" in step(s, "tiszahat", "MOVE TO heves FROM borsod 1 inf")[0]


def test_cards_revolt_plague_levy():
    s = bare(("felvidek", "tiszahat"))
    put(s, "trencsen", "felvidek", inf=2, arch=3)
    put(s, "nyitra", "felvidek", cav=1, inf=1, arch=2)
    put(s, "pest", "royal", cav=1, inf=1, arch=1)
    standing(s, "felvidek", "LOSSES arch inf cav")
    for cid, check in (("parasztlazadas", lambda: (units_in(s, "trencsen")["inf"] == 1 and
                                                    units_in(s, "pest")["inf"] == 0)),
                       ("pestis", lambda: units_in(s, "trencsen")["arch"] == 2
                        and units_in(s, "nyitra")["arch"] == 1),
                       ("veres_kard", lambda: units_in(s, "pest")["inf"] == 1
                        and units_in(s, "trencsen")["inf"] == 2)):
        s["card"] = cid
        economy.apply_card(s, [])
        assert check(), cid


def test_advanced_setups_six_and_five_players(kek):
    from pbem.core.ruleset import GameConfig
    from pbem.rulesets.kard_es_korona.setup import DEFAULT_SEATS, place_neutrals
    six = kek.setup(GameConfig(DEFAULT_SEATS[6], "advanced"), ScriptedDice([0]))
    place_neutrals(six, ScriptedDice([0, 0]), [])
    infantry_only = [c for c, x in six["board"].items() if x["u"] == army(inf=2, arch=1)]
    assert len(infantry_only) == 2
    five = kek.setup(GameConfig(DEFAULT_SEATS[5], "advanced"), ScriptedDice([0]))
    place_neutrals(five, ScriptedDice([]), [])
    assert five["board"]["baranya"]["owner"] == "n_szlavonia"
    assert "zagrab" not in five["board"] and "zagrab" in five["out_of_play"]


def test_pre_bids_in_the_year_orders_save_the_election_mail_rounds():
    s = bare(("felvidek", "tiszahat"), year=1303)
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    put(s, "abauj", "tiszahat", inf=1)
    lord(s, "tiszahat", "abauj")
    s["players"]["felvidek"]["treasury"] = 20
    s["players"]["tiszahat"]["treasury"] = 20
    orders = {
        "felvidek": RULESET.parse(s, "felvidek", "BID judge 5\nBID treasurer 2\n"
                                  "BID palatine 9 IF WON judge\nBID palatine 1\nPASS\n"),
        "tiszahat": RULESET.parse(s, "tiszahat", "BID judge 4\nBID treasurer 3\nPASS\n"),
    }
    assert all(p.ok for p in orders.values())
    s, events = RULESET.resolve(s, orders, HmacDice(b"bids", "x"))
    # tiszahat sent no palatine bid: only he is asked, felvidek's conditional pre-bid waits
    assert s["phase"] == "bid" and list(RULESET.awaiting(s)) == ["tiszahat"]
    assert s["offices"]["judge"] == "felvidek" and s["offices"]["treasurer"] == "tiszahat"
    s, events = RULESET.resolve(s, {"tiszahat": RULESET.parse(s, "tiszahat", "BID palatine 8")},
                                HmacDice(b"bids2", "x"))
    assert s["offices"]["palatine"] == "felvidek"  # 9 (he won the judge) beats 8
    assert s["year"] == 1304


def test_a_player_who_resigns_leaves_neutral_units():
    s = bare(("felvidek", "tiszahat", "erdely"), year=1304)
    for seat, c in (("felvidek", "trencsen"), ("tiszahat", "abauj"), ("erdely", "kolozs")):
        put(s, c, seat, inf=2)
        lord(s, seat, c)
    s["offices"]["judge"] = "tiszahat"
    orders = {seat: RULESET.parse(s, seat, "PASS") for seat in s["seats"]}
    orders["tiszahat"] = RULESET.parse(s, "tiszahat", "RESIGN")
    assert orders["tiszahat"].ok
    s, events = RULESET.resolve(s, orders, HmacDice(b"resign", "x"))
    assert s["players"]["tiszahat"]["status"] == "out"
    assert s["board"]["abauj"]["owner"] == "n_tiszahat" and s["offices"]["judge"] is None
    assert "tiszahat" not in RULESET.awaiting(s)


def test_ask_mode_retreat_line_for_one_battle():
    s = bare(("felvidek", "erdely"), decisions="ask")
    put(s, "heves", "royal", inf=1, arch=1)
    put(s, "nograd", "erdely", inf=1, cav=2, arch=2)  # the default would choose Nógrád
    put(s, "pest", "erdely", cav=1, arch=1)
    put(s, "kolozs", "erdely", inf=1)
    lord(s, "erdely", "kolozs")
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    assert step(s, "erdely", "MOVE TO heves FROM nograd 1 inf 2 cav; pest 1 cav")[0] == ""
    ev: list[Event] = []
    assert run_battles(s, ScriptedDice([]), ev, lambda: False) == "ask"
    s["phase"], s["stage"] = "ask", "battles"
    s, events = RULESET.resolve(s, {"erdely": RULESET.parse(s, "erdely", "RETREAT pest")},
                                ScriptedDice([4, 0]))  # the castle archer kills the infantry; next card
    assert units_in(s, "pest") == army(cav=3, arch=1)  # all three survivors went to Pest
    assert units_in(s, "nograd") == army(arch=2)


def test_players_place_the_neutral_units():
    from pbem.core.ruleset import GameConfig
    s = RULESET.setup(GameConfig(("felvidek", "tiszahat"), "basic",
                                 {"neutral_placement": "players"}), ScriptedDice([0]))
    # four unplayed provinces dealt in seating order
    from pbem.rulesets.kard_es_korona.setup import neutral_assignment
    assert neutral_assignment(s) == {"felvidek": ["erdely", "szlavonia"],
                                     "tiszahat": ["delvidek", "pannonia"]}
    text = "NEUTRAL doboka cav\nNEUTRAL hunyad arch\nNEUTRAL szeben inf\n"
    parsed = RULESET.parse(s, "felvidek", text + "NEUTRAL arad cav\n")
    assert [ln.ok for ln in parsed.lines] == [True, True, True, False]
    orders = {"felvidek": RULESET.parse(s, "felvidek", text),
              "tiszahat": RULESET.parse(s, "tiszahat", "")}
    s, _ = RULESET.resolve(s, orders, HmacDice(b"neutral", "x"))
    assert units_in(s, "doboka") == army(cav=1) and units_in(s, "szeben") == army(inf=1)
    assert s["board"]["hunyad"]["owner"] == "n_erdely"


def test_persistent_control_keeps_empty_counties_for_victory():
    from pbem.rulesets.kard_es_korona.victory import castles_of, update_claims
    for model, expected in (("presence", 0), ("persistent", 1)):
        s = bare(("felvidek", "tiszahat"), control_model=model)
        put(s, "trencsen", "felvidek", inf=1)
        put(s, "nyitra", "felvidek", inf=1)
        lord(s, "felvidek", "nyitra")
        update_claims(s)
        assert step(s, "felvidek", "MOVE TO nyitra FROM trencsen 1 inf")[0] == ""
        update_claims(s)
        assert len(castles_of(s, {"felvidek"})) == expected, model
        assert economy.income_of(s, "felvidek") == 1  # income follows the units


def _tied_palatine_election(decisions):
    s = bare(("felvidek", "tiszahat", "erdely"), year=1306, decisions=decisions)
    for seat, c in (("felvidek", "trencsen"), ("tiszahat", "abauj"), ("erdely", "kolozs")):
        put(s, c, seat, inf=2)
        lord(s, seat, c)
        s["players"][seat]["treasury"] = 20
    s["elections_held"] = 1
    s["offices"]["palatine"] = "erdely"
    s["stage"] = "election_running"
    s["phase"] = "running"
    from pbem.rulesets.kard_es_korona.elections import start_election
    start_election(s, [])
    s["phase"] = "bid"
    return s


def test_ask_mode_asks_the_palatine_to_break_a_tie():
    """Rulebook p. 12: from the second election the Palatine decides between tied bidders
    (himself included). decisions=ask and no standing PREFER: he is asked in a short step."""
    s = _tied_palatine_election("ask")
    bids = {"felvidek": "BID judge 6", "tiszahat": "BID judge 6", "erdely": "BID judge 2"}
    s, events = RULESET.resolve(s, {k: RULESET.parse(s, k, v) for k, v in bids.items()},
                                ScriptedDice([]))
    assert s["phase"] == "ask" and s["ask"]["kind"] == "palatine"
    prompt = RULESET.awaiting(s)
    assert list(prompt) == ["erdely"]
    assert "felvidek" in prompt["erdely"].text and "tiszahat" in prompt["erdely"].text
    assert s["players"]["felvidek"]["treasury"] == 20  # nothing paid before the choice
    answer = RULESET.parse(s, "erdely", "PREFER tiszahat")
    assert answer.ok
    s, events = RULESET.resolve(s, {"erdely": answer}, ScriptedDice([]))
    assert s["offices"]["judge"] == "tiszahat"
    assert s["players"]["tiszahat"]["treasury"] == 14
    assert s["players"]["felvidek"]["treasury"] == 17  # 20 - 6 + half of 6
    assert s["players"]["erdely"]["treasury"] == 18
    assert s["phase"] == "bid"  # the next auction
    assert "prefer" not in s["players"]["erdely"]["standing"]  # a one-off answer


def test_auto_mode_and_standing_prefer_do_not_ask_the_palatine():
    s = _tied_palatine_election("auto")
    bids = {"felvidek": "BID judge 6", "tiszahat": "BID judge 6", "erdely": "BID judge 2"}
    s, _ = RULESET.resolve(s, {k: RULESET.parse(s, k, v) for k, v in bids.items()},
                           ScriptedDice([]))
    assert s["offices"]["judge"] == "felvidek"  # default: first tied in turn order
    s = _tied_palatine_election("ask")
    standing(s, "erdely", "PREFER tiszahat felvidek")
    s, _ = RULESET.resolve(s, {k: RULESET.parse(s, k, v) for k, v in bids.items()},
                           ScriptedDice([]))
    assert s["offices"]["judge"] == "tiszahat" and s["phase"] == "bid"


def test_rejoin_standing_order_guides_the_duel_winners_extra_step():
    """Rulebook p. 11: the winner of a duel gets one extra step (DP19). Standing order
    REJOIN <county...>: the first listed own county his lord can reach (4 MP)."""
    from kek_helpers import battles
    s = bare(("felvidek", "tiszahat"))
    put(s, "borsod", "tiszahat", inf=1)
    put(s, "abauj", "tiszahat", inf=2)
    lord(s, "tiszahat", "borsod")
    put(s, "gomor", "felvidek", inf=1)
    put(s, "trencsen", "felvidek", inf=2)
    lord(s, "felvidek", "gomor")
    standing(s, "felvidek", "LEAD all inf")
    standing(s, "tiszahat", "LEAD all inf", "REJOIN szepes trencsen abauj")
    assert step(s, "felvidek", "MOVE TO borsod FROM gomor 1 inf lord")[0] == ""
    battles(s, [5, 5, 6, 6, 2, 4, 3, 6])  # the dice of T24: tiszahat wins the duel
    assert s["players"]["felvidek"]["status"] == "out"
    assert s["players"]["tiszahat"]["lord"] == "trencsen"  # szepes holds no units of his
    shown = RULESET.view(s, "tiszahat")["me"]["standing_lines"]
    assert "REJOIN szepes trencsen abauj" in shown


def test_retreat_list_picks_the_forced_battle_when_surrounded():
    """Rulebook p. 11: surrounded retreating units must attack one of the neighbours, the
    player's choice (DP14): the first hostile county of his RETREAT list, else the weakest."""
    s = surrounded_retreat()
    standing(s, "felvidek", "RETREAT lipto gomor")
    assert step(s, "felvidek", "MOVE TO abauj FROM gomor 1 inf 2 cav")[0] == ""
    s["board"]["gomor"] = {"owner": "tiszahat", "u": army(inf=1), "used": army()}
    put(s, "borsod", "tiszahat", inf=1)
    dice = ScriptedDice([1, 1, 1, 6,  # assault: A cav, cav, inf; D inf 6 kills the infantry
                         4, 4, 1])  # forced battle in Gömör (plain): A cav 4, 4; D inf 1
    ev: list[Event] = []
    assert run_battles(s, dice, ev, lambda: False) == "done"
    assert any("surrounded and must attack Gömör" in e.text for e in ev)
    assert units_in(s, "gomor") == army(cav=2)
