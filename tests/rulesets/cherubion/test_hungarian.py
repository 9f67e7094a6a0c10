"""Cherubion in Hungarian: a whole game (three seats, questions asked, diplomacy on) with
every report rendered in Hungarian and checked for game text that is not a message, a
message shown in English, and words written straight into the templates
(tests/support/languages.py); the rulebook's words are there; every name of the data is in
the catalog; an order error reads in Hungarian."""

from __future__ import annotations

import pytest
from languages import leaks, msgids, play_in_hungarian

from pbem.core.i18n import Msg
from pbem.core.kit import OrderError
from pbem.locale import DOMAIN, translator
from pbem.rulesets.cherubion import data, names
from pbem.rulesets.cherubion.orders import GRAMMAR
from pbem.rulesets.cherubion.rules.queries import card_label

SEATS = {"alpha": "a@example.org", "beta": "b@example.org", "gamma": "c@example.org"}

# Names that read the same in Hungarian (the catalog says so): not English left over.
SAME_NAMES = ("Leon Silver", "Myor Thurgos", "Romin'yarak")
WORDS = ("Előkészület: csapatok, Bázisok és paklik választása", "forduló", "köre",
         "MÉ-dobás", "Támadás", "Visszatámadás", "ÉP-t veszít", "Senki Földje",
         "oldali Bázis", "Erőforrások:", "nagy", "Jelzők:", "Kezedben:", "Energiád:",
         "Helikopter", "Klónharcos", "Bábuk (azonosító, név, játékos, hely, ÉP",
         "Döntésed szükséges", "döntésére várunk", "kiesett a játékból")
# The board picture's words, as a Hungarian player reads them on the PNG of a report.
PICTURE = ("ÉP", "Helikopter", "Klónharcos")


@pytest.fixture(scope="module")
def found(tmp_path_factory: pytest.TempPathFactory):
    return play_in_hungarian("cherubion", SEATS, tmp_path_factory.mktemp("hu"),
                             options={"decisions": "ask", "diplomacy": True}, every=4)


def test_a_whole_game_reads_in_hungarian(found) -> None:
    assert found.finished and found.steps > 20
    assert found.plain == []
    assert leaks(found.text, msgids(DOMAIN) + msgids("cherubion"), ignore=SAME_NAMES) == set()
    assert found.bare == []
    assert found.picture == set()
    assert [w for w in PICTURE if w not in found.picture_text] == []
    missing = [w for w in WORDS if w not in found.text]
    assert missing == []


def test_every_name_of_the_data_is_in_the_catalog() -> None:
    """names.py lists what the data names (pieces, summoned creatures, teams, cards); the
    Hungarian of each is the rulebook's."""
    t = translator("hu", "cherubion")
    listed = set(names.PIECES) | set(names.TEAMS) | set(names.CARDS)
    for team in data.teams()["teams"].values():
        assert team["name_en"] in listed
        assert t.gettext(team["name_en"]) == team["name_hu"]
        for p in team["pieces"]:
            assert t.gettext(p["name_en"]) == p["name_hu"]
    for cid, c in data.cards().items():
        label = card_label(cid)
        assert label in listed and label.render(t) == c["name_hu"]
        if c.get("summon"):
            assert t.gettext(c["name_en"]) == c["name_hu"]


def test_an_order_error_reads_in_hungarian() -> None:
    state = {"config": {"seats": ["alpha", "beta"]}, "board_size": 6}
    with pytest.raises(OrderError) as err:
        GRAMMAR.parse_line(state, "alpha", "LINEUP SIDEWAYS")
    message = err.value.args[0]
    assert isinstance(message, Msg)
    assert "LINEUP után STANDARD vagy ADVANCED" in message.render(translator("hu", "cherubion"))
