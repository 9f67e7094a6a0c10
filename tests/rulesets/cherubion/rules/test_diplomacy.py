"""Diplomacy (optional rule, Rulebook "Diplomácia"): alliances by matching orders, secret
ones seen only by the allies, allies not hostile, hostage exchange, joining a dead
demigod's team; without the option the orders are refused."""

from __future__ import annotations

from pbem.rulesets.cherubion import RULESET
from pbem.rulesets.cherubion.rules.queries import engaged, hostile

from ..helpers import build, captive, ctx, place, play_turn, refusal, set_turn, texts


def three(**opts):
    return build({"a": "melan", "b": "choler", "c": "sang"}, {"a": 4, "b": 1, "c": 3},
                 options={"diplomacy": True, **opts})


def test_refused_without_the_option() -> None:
    st = build({"a": "melan", "b": "choler"}, {"a": 4, "b": 1})
    p = RULESET.parse(st, "a", "ALLY b")
    assert not p.ok and "optional rule" in p.lines[0].error


def test_secret_alliance_needs_both_and_stays_secret() -> None:
    st = three()
    set_turn(st, "a")
    st, ev, _ = play_turn(st, "a", "ALLY b SECRET", [1, 2])
    assert not st.get("alliances")
    set_turn(st, "b")
    st, ev, _ = play_turn(st, "b", "ALLY a", [1, 2])
    assert not hostile(st, "a", "b") and hostile(st, "a", "c")
    place(st, ME1="K8", CH1="K8")
    assert not engaged(st, st["pieces"]["ME1"])
    assert RULESET.view(st, "c")["alliances"] == []
    assert RULESET.view(st, "a")["alliances"] == [{"pair": ["a", "b"], "secret": True}]
    made = [e for e in ev if e.kind == "diplomacy"]
    assert made and made[0].to == ("a", "b")
    set_turn(st, "c")
    st, ev, _ = play_turn(st, "c", "", [1, 2])
    place(st, CH1="B8")
    set_turn(st, "a")
    st, ev, _ = play_turn(st, "a", "BREAK b", [1, 2])
    assert hostile(st, "a", "b")


def test_hostage_exchange() -> None:
    st = three()
    st["alliances"] = [{"pair": ["a", "b"], "secret": False}]
    st["players"]["a"]["allies"], st["players"]["b"]["allies"] = ["b"], ["a"]
    set_turn(st, "a")
    st, ev, _ = play_turn(st, "a", "HOSTAGE b GIVE ME8 TAKE CH8", [1, 2])
    st, ev, _ = play_turn(st, "b", "HOSTAGE a GIVE CH8 TAKE ME8", [1, 2])
    assert st["pieces"]["ME8"]["loc"] == "prison:b" and st["pieces"]["CH8"]["loc"] == "prison:a"
    assert st["players"]["a"]["hostage_turns"] == 1 and st["players"]["b"]["hostage_turns"] == 1


def test_join_after_demigod_death() -> None:
    st = three()
    st["pieces"]["CH1"]["loc"] = "gone"
    set_turn(st, "b")
    st, ev, _ = play_turn(st, "b", "JOIN c", [1, 2])
    st, ev, _ = play_turn(st, "c", "ADOPT b", [1, 2])
    assert st["pieces"]["CH2"]["teams"] == ["sang"] and st["pieces"]["CH2"]["owner"] == "b"


# --- prisoner exchange (Rulebook "Fogolyejtés": free terms, both sides agree) ------------------

def _prisoners(st) -> None:
    """CH5 (b's, hurt to 7 ÉP) is held in a's Base, ME8 (a's) in b's Base."""
    place(st, CH5="prison:a", ME8="prison:b")
    st["pieces"]["CH5"]["ep"] = 7


def test_prisoner_exchange_sends_both_home_alive_with_their_ep() -> None:
    st = three()
    _prisoners(st)
    set_turn(st, "a")
    st, ev, _ = play_turn(st, "a", "EXCHANGE b GIVE CH5 TAKE ME8", [1, 2])
    assert st["pieces"]["CH5"]["loc"] == "prison:a"  # one side alone changes nothing
    set_turn(st, "b")
    st, ev, _ = play_turn(st, "b", "FOGOLYCSERE a AD ME8 KAP CH5", [1, 2])
    assert st["pieces"]["CH5"]["loc"] == "base:1" and st["pieces"]["CH5"]["ep"] == 7
    assert st["pieces"]["ME8"]["loc"] == "base:4"
    assert st["pieces"]["CH5"]["owner"] == "b" and st["pieces"]["ME8"]["owner"] == "a"
    assert not st["players"]["a"].get("busy") and not st["players"]["b"].get("busy")
    assert "exchange prisoners" in texts(ev)
    assert not st["proposals"]["a"] and not st["proposals"]["b"]


def test_one_sided_release_needs_the_owner_to_accept() -> None:
    st = three()
    _prisoners(st)
    set_turn(st, "a")
    st, ev, _ = play_turn(st, "a", "EXCHANGE b GIVE CH5", [1, 2])
    assert st["pieces"]["CH5"]["loc"] == "prison:a"
    set_turn(st, "b")
    st, ev, _ = play_turn(st, "b", "EXCHANGE a TAKE CH5", [1, 2])
    assert st["pieces"]["CH5"]["loc"] == "base:1"
    assert st["pieces"]["ME8"]["loc"] == "prison:b"


def test_unmatched_terms_wait_and_a_new_offer_replaces_the_old() -> None:
    st = three()
    _prisoners(st)
    set_turn(st, "a")
    st, ev, _ = play_turn(st, "a", "EXCHANGE b GIVE CH5 TAKE ME8", [1, 2])
    set_turn(st, "b")
    st, ev, _ = play_turn(st, "b", "EXCHANGE a TAKE CH5", [1, 2])
    assert st["pieces"]["CH5"]["loc"] == "prison:a" and st["pieces"]["ME8"]["loc"] == "prison:b"
    set_turn(st, "a")
    st, ev, _ = play_turn(st, "a", "EXCHANGE b GIVE CH5", [1, 2])
    assert st["pieces"]["CH5"]["loc"] == "base:1" and st["pieces"]["ME8"]["loc"] == "prison:b"
    assert st["proposals"]["a"] == []


def test_a_body_is_not_a_prisoner_and_cannot_be_exchanged() -> None:
    st = three()
    place(st, CH5="prison:a")
    st["pieces"]["CH5"]["ep"] = -2
    st["pieces"]["CH5"]["captive"] = captive("a", clock=1)
    set_turn(st, "a")
    p = RULESET.parse(st, "a", "EXCHANGE b GIVE CH5")
    assert not p.ok and "is a body, not a prisoner" in p.lines[0].error  # refused on arrival
    set_turn(st, "b")
    p = RULESET.parse(st, "b", "EXCHANGE a TAKE CH5")
    assert not p.ok and "is a body, not a prisoner" in p.lines[0].error
    assert st["pieces"]["CH5"]["loc"] == "prison:a"


def test_a_revived_captive_goes_home_as_an_ordinary_piece() -> None:
    st = three()
    place(st, CH5="prison:a")
    st["pieces"]["CH5"]["ep"] = 4
    st["pieces"]["CH5"]["captive"] = {**captive("a", dead=False, clock=2), "healed": True}
    set_turn(st, "a")
    st, ev, _ = play_turn(st, "a", "EXCHANGE b GIVE CH5", [1, 2])
    set_turn(st, "b")
    st, ev, _ = play_turn(st, "b", "EXCHANGE a TAKE CH5", [1, 2])
    p = st["pieces"]["CH5"]
    assert p["loc"] == "base:1" and p["captive"] is None and p["ep"] == 4


def test_exchange_of_pieces_not_held_is_refused_to_the_sender() -> None:
    st = three()
    _prisoners(st)
    set_turn(st, "a")
    # CH6 is free in b's Base; CH5 is b's, not c's: both refused on arrival
    assert "CH6 is not held in a's Base" in refusal(st, "a", "EXCHANGE b GIVE CH6")
    assert "CH5 is not c's piece" in refusal(st, "a", "EXCHANGE c GIVE CH5")


def test_exchange_parse_errors_say_what_is_wrong_and_what_is_right() -> None:
    st = three()
    set_turn(st, "a")
    cases = {
        "EXCHANGE b": "needs GIVE <pieces>, TAKE <pieces> or both",
        "EXCHANGE GIVE CH5": "takes one seat before GIVE/TAKE, not 'nothing'",
        "EXCHANGE b c GIVE CH5": "not 'b c'",
        "EXCHANGE b GIVE TAKE ME8": "GIVE needs at least one piece",
        "EXCHANGE b GIVE CH5 GIVE CH6": "GIVE twice",
        "EXCHANGE b GIVE CH5 TAKE CH5": "CH5 is both in GIVE and in TAKE",
        "EXCHANGE b GIVE 12": '"12" is not a piece id',
        "EXCHANGE z GIVE CH5": '"z" is not a seat',
        "JOIN b LATER": "optionally KEEP",
        "BREAK": "BREAK takes one seat, not 'nothing'; e.g. BREAK beta",
    }
    for line, want in cases.items():
        p = RULESET.parse(st, "a", line)
        err = p.lines[0].error
        assert not p.ok and want in err and "\n" not in err, (line, err)
    assert "e.g. EXCHANGE beta GIVE CH5 TAKE ME8" in RULESET.parse(st, "a", "EXCHANGE b").lines[
        0].error


def test_exchange_round_trips_canonically() -> None:
    from pbem.rulesets.cherubion.orders import Exchange, Join

    from ..helpers import parse_line
    o = parse_line("csere b kap me8 ad ch6 ch5 ch5")
    assert o == Exchange("b", ("CH5", "CH6"), ("ME8",))
    assert str(o) == "EXCHANGE b GIVE CH5 CH6 TAKE ME8" and parse_line(str(o)) == o
    j = parse_line("befogad a atad")
    assert j == Join("a", True, "handover") and parse_line(str(j)) == j
    assert str(parse_line("JOIN c KEEP")) == "JOIN c"


# --- joining a dead demigod's team: the two teams count as one --------------------------------

def _join(st, control: str = "") -> dict:
    st["pieces"]["CH1"]["loc"] = "gone"
    set_turn(st, "b")
    st, ev, _ = play_turn(st, "b", f"JOIN c {control}".strip(), [1, 2])
    set_turn(st, "c")
    st, ev, _ = play_turn(st, "c", f"ADOPT b {control}".strip(), [1, 2])
    return st


def test_joined_teams_count_as_one_and_cannot_be_split() -> None:
    st = _join(three())
    assert st["pieces"]["CH2"]["teams"] == ["sang"] and st["pieces"]["CH2"]["owner"] == "b"
    assert not hostile(st, "b", "c") and not hostile(st, "c", "b") and hostile(st, "a", "b")
    place(st, CH2="K8", SA2="K8")
    assert not engaged(st, st["pieces"]["CH2"]) and not engaged(st, st["pieces"]["SA2"])
    set_turn(st, "b")
    st, ev, _ = play_turn(st, "b", "BREAK c", [1, 2])
    assert not hostile(st, "b", "c")
    assert "cannot split it" in texts(ev)
    set_turn(st, "c")
    assert "CH2 is not hostile" in refusal(st, "c", "ATTACK SA2 CH2")


def test_join_keeps_a_converted_prisoners_third_demigod_cards() -> None:
    st = three()
    st["pieces"]["ME8"].update(owner="b", teams=["choler", "melan"])
    st = _join(st)
    assert st["pieces"]["ME8"]["teams"] == ["melan", "sang"]


def test_join_with_handover_gives_the_team_and_base_to_the_adopter() -> None:
    st = three()
    place(st, ME8="prison:b", CH3="J10")
    st = _join(st, "HANDOVER")
    assert st["pieces"]["CH2"]["owner"] == "c" and st["pieces"]["CH3"]["owner"] == "c"
    assert st["pieces"]["CH2"]["teams"] == ["sang"]
    assert not st["players"]["b"]["alive"] and 1 in st["players"]["c"]["bases"]
    assert st["pieces"]["ME8"]["loc"] == "prison:c"  # b's prisoner passes to c
    assert st["phase"] == "turn"


def test_join_needs_the_same_control_term_on_both_sides() -> None:
    st = three()
    st["pieces"]["CH1"]["loc"] = "gone"
    set_turn(st, "b")
    st, ev, _ = play_turn(st, "b", "JOIN c HANDOVER", [1, 2])
    set_turn(st, "c")
    st, ev, _ = play_turn(st, "c", "ADOPT b", [1, 2])
    assert st["pieces"]["CH2"]["teams"] == ["choler"] and hostile(st, "b", "c")
    set_turn(st, "b")
    st, ev, _ = play_turn(st, "b", "JOIN c", [1, 2])  # new terms replace the old offer
    assert st["pieces"]["CH2"]["teams"] == ["sang"] and not hostile(st, "b", "c")
    assert st["pieces"]["CH2"]["owner"] == "b"


def test_join_refused_while_the_demigod_lives() -> None:
    st = three()
    set_turn(st, "b")
    assert "your demigod is alive" in refusal(st, "b", "JOIN c")


def test_prisoner_exchange_needs_no_diplomacy_option() -> None:
    """Rulebook "Fogolyejtés" (not the optional Diplomacy rule) allows exchanges."""
    st = build({"a": "melan", "b": "choler"}, {"a": 4, "b": 1})
    _prisoners(st)
    assert not RULESET.parse(st, "a", "ALLY b").ok
    set_turn(st, "a")
    st, ev, _ = play_turn(st, "a", "EXCHANGE b GIVE CH5 TAKE ME8", [1, 2])
    set_turn(st, "b")
    st, ev, _ = play_turn(st, "b", "EXCHANGE a GIVE ME8 TAKE CH5", [1, 2])
    assert st["pieces"]["CH5"]["loc"] == "base:1" and st["pieces"]["ME8"]["loc"] == "base:4"


def test_the_last_two_players_joined_win_together() -> None:
    st = three()
    for p in st["pieces"].values():
        if p["owner"] == "a":
            p["loc"] = "gone"
    st["players"]["a"]["alive"] = False
    st = _join(st)
    assert st["phase"] == "over"
    assert sorted(st["result"]["winners"]) == ["b", "c"]
    assert "last team standing" in st["result"]["reason"]


def test_a_joined_piece_reaching_the_partners_base_is_home() -> None:
    from pbem.rulesets.cherubion.rules.movement import enter_foreign_base
    st = _join(three())
    c = ctx(st, [])
    enter_foreign_base(c, st["pieces"]["CH2"], 3)  # c's Base
    assert st["pieces"]["CH2"]["loc"] == "base:1"  # b's own Base: it can deploy again
    assert "home" in texts(c.log.events)
