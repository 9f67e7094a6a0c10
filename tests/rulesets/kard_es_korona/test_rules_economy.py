"""rules/economy.py: office cession, a vassal's income."""

from __future__ import annotations

from pbem.core.kit import Log
from pbem.rulesets.kard_es_korona.rules import economy
from pbem.rulesets.kard_es_korona.rules.defeat import make_vassal
from pbem.rulesets.kard_es_korona.rules.victory import instant_winner

from .helpers import bare, lord, put


def test_cede_office_can_win():
    s = bare(("felvidek", "tiszahat"))
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    put(s, "abauj", "tiszahat", inf=1)
    lord(s, "tiszahat", "abauj")
    s["offices"].update(judge="felvidek", treasurer="felvidek", palatine="tiszahat")
    assert economy.cede(s, Log(), "tiszahat", "judge", "felvidek") == \
        "you do not hold the office judge"
    assert economy.cede(s, Log(), "tiszahat", "palatine", "felvidek") == ""
    assert instant_winner(s) == ("felvidek", "holds all three offices")


def test_vassal_income_is_half_and_counts_for_the_overlord():
    s = bare(("felvidek", "tiszahat"))
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    put(s, "abauj", "tiszahat", inf=1)
    put(s, "zemplen", "tiszahat", inf=1)
    make_vassal(s, Log(), "tiszahat", "felvidek")
    assert economy.income_of(s, "felvidek") == 9
    assert economy.income_of(s, "tiszahat") == 3  # half of 6
    assert instant_winner(s)[0] == "felvidek"  # the last lord standing
