"""Rule unit tests for the tricky parts: reaction windows (triggers and `ask`), persistent
melee, flying, hidden pieces, Time Trap, dead demigods' cards, Ménes, Volodyan,
invisibility, the Timed Death Spell, summons and Bases, NMR defaults."""

from __future__ import annotations

from pbem.core.dice import ScriptedDice
from pbem.rulesets.cherubion import RULESET
from pbem.rulesets.cherubion.orders import Play
from pbem.rulesets.cherubion.rules.cards import check_play

from ..helpers import build, place, play_turn, refusal, set_turn, texts


def two(a="melan", b="choler", sa=4, sb=1, **kw):
    return build({"alpha": a, "beta": b}, {"alpha": sa, "beta": sb}, **kw)


def test_counterspell_trigger_cancels_deadly_curse() -> None:
    st = two(a="choler", b="melan", sa=1, sb=4)
    place(st, CH1="D10", ME8="D12", ME1="D13")
    st["players"]["alpha"]["hand"] = ["ch03"]
    st["players"]["beta"]["hand"] = ["n04"]
    st["players"]["beta"]["energy"] = 4
    st["players"]["beta"]["triggers"] = [{"event": "CAST", "card": "n04", "caster": "ANY",
                                          "on": "ANY", "subject": "ch03", "over": 0}]
    set_turn(st, "alpha", energy=12)
    st, ev, _ = play_turn(st, "alpha", "PLAY Halalos Atok BY CH1 ON ME8", [1, 2])
    assert st["pieces"]["ME8"]["loc"] == "D12"
    assert "is cancelled" in texts(ev)
    assert "ch03" in st["players"]["alpha"]["grave"] and st["players"]["alpha"]["energy"] == 0
    assert "n04" in st["players"]["beta"]["grave"] and st["players"]["beta"]["energy"] == 0


def test_counterspell_out_of_range_does_not_fire() -> None:
    st = two(a="choler", b="melan", sa=1, sb=4)
    place(st, CH1="D10", ME8="D12", ME1="L2")
    st["pieces"]["ME8"]["status"] = {"asleep": {"seat": "beta", "until": 99, "card": "",
                                                "owner": "alpha"}}  # cannot cast
    st["players"]["alpha"]["hand"] = ["ch03"]
    st["players"]["beta"]["hand"] = ["n04"]
    st["players"]["beta"]["energy"] = 4  # x1 only: ME1 at L2 is too far from CH1
    st["players"]["beta"]["triggers"] = [{"event": "CAST", "card": "n04", "caster": "ANY",
                                          "on": "ANY", "subject": "ANY", "over": 0}]
    set_turn(st, "alpha", energy=12)
    st, ev, _ = play_turn(st, "alpha", "PLAY Halalos Atok BY CH1 ON ME8", [1, 2])
    assert st["pieces"]["ME8"]["loc"] == "gone"


def test_ask_mode_pauses_and_asks_the_damaged_seat() -> None:
    st = two(options={"decisions": "ask"})
    place(st, ME4="H12", CH2="H12")
    st["players"]["alpha"]["hand"] = ["n05"]
    st["players"]["alpha"]["energy"] = 3
    set_turn(st, "beta")
    st, ev, _ = play_turn(st, "beta", "ATTACK CH2 ME4", [2, 4, 4])
    asked = RULESET.awaiting(st)
    assert list(asked) == ["alpha"]
    assert "PLAY n05 BY ME4 ON CH2" in asked["alpha"].skeleton
    assert st["pieces"]["ME4"]["ep"] == 40  # damage not applied yet
    reply = RULESET.parse(st, "alpha", "PLAY Eppenhogy BY ME4 ON CH2")
    assert reply.ok
    st, ev = RULESET.resolve(st, {"alpha": reply}, ScriptedDice([1, 2]))
    assert st["pieces"]["ME4"]["ep"] == 39 and st["active"] == "alpha"


def test_ask_mode_nmr_is_pass() -> None:
    st = two(options={"decisions": "ask"})
    place(st, ME4="H12", CH2="H12")
    st["players"]["alpha"]["hand"] = ["n05"]
    st["players"]["alpha"]["energy"] = 3
    set_turn(st, "beta")
    st, ev, _ = play_turn(st, "beta", "ATTACK CH2 ME4", [2, 4, 4])
    nmr = RULESET.default_orders(st, "alpha")
    assert nmr.canonical() == "PASS\n"
    st, ev = RULESET.resolve(st, {"alpha": nmr}, ScriptedDice([1, 2]))
    assert st["pieces"]["ME4"]["ep"] == 34


def test_melee_goes_on_across_turns() -> None:
    st = two()
    place(st, ME8="H5", CH8="H5")
    st["pieces"]["ME8"]["vsz"] = st["pieces"]["CH8"]["vsz"] = 30
    set_turn(st, "alpha")
    st, ev, _ = play_turn(st, "alpha", "", [1, 1, 1, 1, 1, 2])  # mandatory melee, both miss
    assert "Mandatory melee: Rifleman (ME8)" in texts(ev)
    st, ev, _ = play_turn(st, "beta", "", [1, 1, 1, 1, 1, 2])
    assert "Mandatory melee: Zombie (CH8)" in texts(ev)


def test_flying_passes_enemies_and_traps() -> None:
    st = two()
    place(st, ME2="K10", CH8="K11")
    st["markers"]["N9"] = {"id": "N9", "kind": "N", "field": "K12", "owner": "beta",
                           "card": "me03", "hidden": True, "uses": 1}
    set_turn(st, "alpha", me=3)
    st, ev, _ = play_turn(st, "alpha", "MOVE ME2 K11 K12 K13", [1, 2])
    assert st["pieces"]["ME2"]["loc"] == "K13" and st["pieces"]["ME2"]["ep"] == 30
    assert "N9" in st["markers"]


def test_walker_stops_at_enemy() -> None:
    st = two()
    place(st, ME8="K10", CH8="K11")
    st["pieces"]["ME8"]["vsz"] = st["pieces"]["CH8"]["vsz"] = 30
    set_turn(st, "alpha", me=3)
    # a path through a field it would stop on is refused on arrival (it would run part-way)
    assert "K11 holds an enemy (CH8): ME8 would stop and fight there" in refusal(
        st, "alpha", "MOVE ME8 K11 K12 K13")
    st, ev, _ = play_turn(st, "alpha", "MOVE ME8 K11", [1, 1, 1, 1, 1, 2])
    assert st["pieces"]["ME8"]["loc"] == "K11"
    assert "forfeits 2 MÉ after combat" in texts(ev)


def test_hidden_summon_revealed_and_stops_the_intruder() -> None:
    st = two()
    place(st, ME1="K8", CH8="J9")
    st["players"]["alpha"]["hand"] = ["n01"]
    set_turn(st, "alpha", energy=4)
    st, ev, _ = play_turn(st, "alpha", "PLAY Barlangi gyik BY ME1 ON J10", [1, 2])
    assert not any(p["id"].startswith("S") for p in RULESET.view(st, "beta")["pieces"])
    # beta cannot see the lizard: the 3-step path is taken, and stops on J10
    st, ev, _ = play_turn(st, "beta", "MOVE CH8 J10 J11 J12", [1, 1, 1, 1, 1, 1, 2])
    assert st["pieces"]["CH8"]["loc"] == "J10" and "revealed" in texts(ev)


def test_time_trap_skips_two_turns_and_blocks_instants() -> None:
    st = two(a="choler", b="melan", sa=1, sb=4)
    place(st, CH1="D10", ME8="D12")
    st["players"]["alpha"]["hand"] = ["ch04"]
    st["players"]["beta"]["hand"] = ["n05"]
    st["players"]["beta"]["triggers"] = [{"event": "DAMAGE", "card": "n05", "caster": "ANY",
                                          "on": "ANY", "subject": "ANY", "over": 0}]
    set_turn(st, "alpha", energy=9)
    st, ev, _ = play_turn(st, "alpha", "PLAY Idocsapda BY CH1 ON beta", [1, 2])
    assert st["players"]["beta"]["skip_turns"] == 1 and st["active"] == "alpha"
    assert st["players"]["beta"]["trapped"]
    st["players"]["beta"]["energy"] = 9
    st, ev, _ = play_turn(st, "alpha", "ATTACK CH1 ME8", [6, 6, 1, 1, 1, 1, 1, 2])
    assert "Éppenhogy" not in texts(ev)  # out of the game: no instants
    assert st["players"]["beta"]["skip_turns"] == 0 and st["active"] == "alpha"


def test_dead_demigods_cards_are_unusable() -> None:
    st = two()
    place(st, CH2="D10", ME8="D12")
    st["players"]["beta"]["hand"] = ["ch03"]
    st["players"]["beta"]["energy"] = 20
    st["active"] = "beta"
    st["turn"] = {}
    assert check_play(st, "beta", Play("ch03", "CH2", ("ME8",))) is None
    st["pieces"]["CH1"]["loc"] = "gone"
    assert "dead" in check_play(st, "beta", Play("ch03", "CH2", ("ME8",)))


def test_herd_adds_two_me() -> None:
    st = two(a="otoaak", b="choler", sa=2, sb=1)
    place(st, OT1="D10")
    st["players"]["alpha"]["hand"] = ["ot01"]
    set_turn(st, "alpha", energy=6)
    st, ev, _ = play_turn(st, "alpha", "PLAY Menes BY OT1", [1, 2])
    set_turn(st, "beta")
    st, ev, _ = play_turn(st, "beta", "", [3, 4])
    assert st["players"]["alpha"]["me"] == 9


def test_volodyan_senses_hidden_markers() -> None:
    st = two()
    place(st, ME1="K8")
    st["markers"]["N9"] = {"id": "N9", "kind": "N", "field": "K10", "owner": "beta",
                           "card": "n21", "hidden": True, "uses": 1}
    st["players"]["alpha"]["hand"] = ["n27"]
    set_turn(st, "alpha", energy=7)
    st, ev, _ = play_turn(st, "alpha", "PLAY Volodyan a Vandor BY ME1 ON K9", [1, 2])
    assert st["markers"]["N9"]["hidden"] is False
    assert any(m["id"] == "N9" and m.get("card") == "n21"
               for m in RULESET.view(st, "alpha")["markers"])


def test_invisibility_blocks_targeting_and_reveals_on_attack() -> None:
    st = two()
    place(st, ME8="H5", ME1="H7", CH1="H9")
    st["players"]["alpha"]["hand"] = ["n14"]
    set_turn(st, "alpha", energy=6)
    st, ev, _ = play_turn(st, "alpha", "PLAY Lathatatlansag BY ME1 ON ME8", [1, 2])
    assert st["pieces"]["ME8"]["hidden"]
    st["players"]["beta"]["hand"] = ["n03"]
    st["players"]["beta"]["energy"] = 9
    assert "cannot be targeted" in check_play(st, "beta", Play("n03", "CH1", ("ME8",)))
    assert all(p["id"] != "ME8" for p in RULESET.view(st, "beta")["pieces"])


def test_timed_death_spell() -> None:
    st = two(a="choler", b="melan", sa=1, sb=4)
    place(st, CH1="D10", ME8="D12")
    st["players"]["alpha"]["hand"] = ["n29"]
    set_turn(st, "alpha", energy=8)
    st, ev, _ = play_turn(st, "alpha", "PLAY Idozitett Halalvarazs BY CH1 ON ME8", [1, 2])
    assert all("Időzített" not in e.text for e in ev if e.to is None)
    assert RULESET.view(st, "beta")["pieces"][-1]["attached"] == [] or \
        "face-down permanent" in next(p for p in RULESET.view(st, "beta")["pieces"]
                                      if p["id"] == "ME8")["attached"]
    for _ in range(2):
        st, ev, _ = play_turn(st, "beta", "", [1, 2])
        st, ev, _ = play_turn(st, "alpha", "", [1, 2])
    assert st["pieces"]["ME8"]["loc"] != "gone"
    st, ev, _ = play_turn(st, "beta", "", [1, 2])
    assert st["pieces"]["ME8"]["loc"] == "gone" and "Időzített" in texts(ev)


def test_summons_never_cross_into_a_base() -> None:
    st = two()
    place(st, ME1="L6")
    st["players"]["alpha"]["hand"] = ["n26"]
    set_turn(st, "alpha", energy=6)
    st, ev, _ = play_turn(st, "alpha", "PLAY Chlovia BY ME1 ON L6", [1, 2])
    chl = next(p for p in st["pieces"].values() if p["card"] == "n26")
    st, ev, _ = play_turn(st, "beta", "", [1, 2])
    st, ev, _ = play_turn(st, "alpha", f"MOVE {chl['id']} OUT", [6, 1, 2])
    assert chl["id"] in st["pieces"] and st["pieces"][chl["id"]]["loc"] == "L6"
    assert "summoned pieces never enter a Base" in texts(ev)


def test_demigod_intruder_killed_by_default() -> None:
    st = two(a="choler", b="melan", sa=1, sb=4)
    place(st, ME1="A4", CH1="K8")
    set_turn(st, "beta", me=1)
    st, ev, _ = play_turn(st, "beta", "MOVE ME1 OUT", [1, 2])
    assert st["pieces"]["ME1"]["loc"] == "gone"


def test_nmr_turn_is_a_pass_and_me_is_walked_out() -> None:
    st = two()
    place(st, ME8="K8")
    set_turn(st, "alpha", me=3)
    nmr = RULESET.default_orders(st, "alpha")
    assert [ln.text for ln in nmr.lines] == ["PASS"]
    st, ev = RULESET.resolve(st, {"alpha": nmr}, ScriptedDice([1, 2]))
    assert "must use all 3 MÉ" in texts(ev)
    said = [e.data for e in ev if e.kind == "outcome"]
    assert said and said[0]["status"] == "carried out" and "walked out your 3 MÉ" in said[0]["why"]


def test_ask_intruder_decision_becomes_standing() -> None:
    st = build({"a": "choler", "b": "sang"}, {"a": 1, "b": 3}, options={"decisions": "ask"})
    place(st, CH1="D10", SA7="D12", SA1="L6")
    st["players"]["a"]["hand"] = ["n16", "n16"]
    set_turn(st, "a", energy=16)
    st, ev, _ = play_turn(st, "a", "PLAY Hamis Utazas I BY CH1 ON SA7", [])
    asked = RULESET.awaiting(st)
    assert list(asked) == ["a"] and "INTRUDER KILL" in asked["a"].skeleton
    reply = RULESET.parse(st, "a", "INTRUDER KILL")
    st, ev = RULESET.resolve(st, {"a": reply}, ScriptedDice([1, 2]))
    assert st["pieces"]["SA7"]["loc"] == "gone"
    assert st["players"]["a"]["standing"]["intruder"] == "kill"


def test_ask_loss_split_and_pass_default() -> None:
    st = build({"a": "choler", "b": "sang"}, {"a": 1, "b": 3}, options={"decisions": "ask"})
    place(st, SA6="G14", CH1="B8")
    from ..helpers import resource
    rid = resource(st, "a", "E13")
    st["players"]["b"]["hand"] = ["n10"]
    set_turn(st, "b", energy=10)
    st, ev, _ = play_turn(st, "b", f"PLAY Eroforras Megsemmisitese BY SA6 ON {rid}", [])
    assert list(RULESET.awaiting(st)) == ["a"]
    st, ev = RULESET.resolve(st, {"a": RULESET.parse(st, "a", "PASS")}, ScriptedDice([1, 2]))
    # default: one point at a time to the highest current ÉP; 15 in total, nobody below 0
    assert min(p["ep"] for p in st["pieces"].values() if p["owner"] == "a") > 0
    assert sum(p["max_ep"] - p["ep"] for p in st["pieces"].values() if p["owner"] == "a") == 15


def test_if_else_fallback_after_dice() -> None:
    st = two()
    place(st, ME4="H12", CH2="H12", ME8="K8")
    st["pieces"]["ME4"]["ep"] = 10
    set_turn(st, "alpha", me=3)
    # the tank is weak: flee; the ELSE is not taken
    st, ev, _ = play_turn(st, "alpha", "IF ME4 EP < 20 THEN FLEE ME4 H13 H14 I13\n"
                          "ELSE MOVE ME8 K9 K10 K11\nIF CH2 ALIVE THEN ATTACK ME4 CH2",
                          [6, 6, 1, 1, 3, 3, 3, 2, 3, 1, 1, 2])
    assert st["pieces"]["ME4"]["loc"] in ("I13", "gone")
    assert st["pieces"]["ME8"]["loc"] == "K8"
    st2 = two()
    place(st2, ME4="H12", CH2="H12", ME8="K8")
    set_turn(st2, "alpha", me=3)
    st2, ev, _ = play_turn(st2, "alpha", "IF ME4 EP < 20 THEN FLEE ME4 H13 H14 I13\n"
                           "ELSE MOVE ME8 K9 K10 K11", [1, 1, 1, 2])
    assert st2["pieces"]["ME8"]["loc"] == "K11" and st2["pieces"]["ME4"]["loc"] == "H12"


def test_melee_piece_fights_its_field_not_the_shooter() -> None:
    st = two(a="choler", b="melan", sa=1, sb=4)
    place(st, CH1="D10", CH8="D14", ME8="D14")
    st["pieces"]["ME8"]["reach"] = 0
    set_turn(st, "alpha")
    # Choler shoots from 4 fields: hit 1+1 (+28 > 24), damage 1+1+2; no strike-back at him
    st, ev, _ = play_turn(st, "alpha", "ATTACK CH1 ME8", [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2])
    t = texts(ev)
    assert "Strike-back: Rifleman (ME8) rolls 1+1, 21-" not in t
    assert "Mandatory melee: Zombie (CH8)" in t and "Strike-back: Rifleman (ME8)" in t


def test_false_journey_ii_diverts_a_piece_going_home_through_nml() -> None:
    st = two(a="melan", b="choler", sa=4, sb=1)
    place(st, ME8="B2", CH1="D4")
    st["players"]["beta"]["hand"] = ["n17"]
    st["players"]["beta"]["energy"] = 6
    st["players"]["beta"]["triggers"] = [{"event": "TELEPORT", "card": "n17", "caster": "ANY",
                                          "on": "ANY", "subject": "ANY", "over": 0}]
    set_turn(st, "alpha", me=2)
    st, ev, _ = play_turn(st, "alpha", "MOVE ME8 B1 HOME", [1, 2])
    assert st["pieces"]["ME8"]["loc"] == "prison:beta"
    assert "Hamis Utazás II" in texts(ev)


def test_round_limit_scores() -> None:
    from pbem.core.ruleset import GameConfig
    from pbem.core.selfplay import play
    p = play(RULESET, GameConfig(RULESET.seat_ids(3, "standard"), "standard",
                                 {"round_limit": 2}), 3)
    assert p.result is not None and p.rounds == 3
    assert "round limit" in p.result.reason and len(p.result.scores) == 3
    best = max(p.result.scores.values())
    assert all(p.result.scores[w] == best for w in p.result.winners)


def test_summon_move_option() -> None:
    st = two(options={"summon_move": True})
    place(st, ME1="K8")
    st["players"]["alpha"]["hand"] = ["n01"]
    set_turn(st, "alpha", me=2, energy=4)
    st, ev, _ = play_turn(st, "alpha", "PLAY Barlangi gyik BY ME1 ON K9\nMOVE S1 K10 K11", [1, 2])
    assert st["pieces"]["S1"]["loc"] == "K11"
    st2 = two()
    place(st2, ME1="K8")
    st2["players"]["alpha"]["hand"] = ["n01"]
    set_turn(st2, "alpha", me=2, energy=4)
    assert "moves only when carried" in refusal(st2, "alpha",
                                                "PLAY Barlangi gyik BY ME1 ON K9\nMOVE S1 K10 K11")


def test_ask_blind_asks_without_a_card() -> None:
    st = two(options={"decisions": "ask", "ask_blind": True})
    place(st, ME4="H12", CH2="H12")
    set_turn(st, "beta")
    st, ev, _ = play_turn(st, "beta", "ATTACK CH2 ME4", [2, 4, 4])
    assert list(RULESET.awaiting(st)) == ["alpha"]
    assert RULESET.awaiting(st)["alpha"].skeleton == ("PASS",)
