"""effects.py: every event card's effect id has a handler; the cards that change units."""

from __future__ import annotations

from pbem.core.kit import Log
from pbem.rulesets.kard_es_korona.data import events_data
from pbem.rulesets.kard_es_korona.effects import EFFECTS, apply_card

from .helpers import bare, put, standing, units_in


def test_every_card_effect_in_the_data_has_a_handler():
    assert EFFECTS.missing(c["effect"] for c in events_data()) == []
    assert len(events_data()) == 16


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
        apply_card(s, Log())
        assert check(), cid


def test_income_cards_are_void_in_1301_and_the_king_election_adds_an_election():
    s = bare(("felvidek", "tiszahat"), year=1301)
    s["card"] = "cehek"
    log = Log()
    apply_card(s, log)
    assert s["guilds_from"] is None and "void in 1301" in log.events[0].text
    s["year"], s["card"] = 1302, "kiralyvalasztas"
    apply_card(s, Log())
    assert s["extra_election"]
    s["year"], s["extra_election"] = 1303, False
    apply_card(s, Log())
    assert not s["extra_election"]  # 1303 ends with an election anyway
