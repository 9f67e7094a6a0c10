"""Translatable messages: English by default, any language from a catalog, JSON-safe."""

from __future__ import annotations

import copy
import gettext
import json

from pbem.core.events import Event
from pbem.core.i18n import Msg, _, join, n_, render


class Hu(gettext.NullTranslations):
    table = {"{seat} places a {unit} on {region}.": "{seat} egy {unit} lerak ide: {region}.",
             "mage": "mágust", "{n} unit": "{n} egység", "{n} units": "{n} egység"}

    def gettext(self, message: str) -> str:
        return self.table.get(message, message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.table.get(singular if n == 1 else plural, singular if n == 1 else plural)


def test_a_message_is_its_english_text_and_renders_in_another_language() -> None:
    m = _("{seat} places a {unit} on {region}.", seat="orange", unit=_("mage"), region="Powys")
    assert m == "orange places a mage on Powys." and isinstance(m, str)
    assert m.render(Hu()) == "orange egy mágust lerak ide: Powys."
    assert render(m, None) == str(m)


def test_plurals_and_joins() -> None:
    assert n_("{n} unit", "{n} units", 1) == "1 unit"
    assert n_("{n} unit", "{n} units", 3) == "3 units"
    assert n_("{n} unit", "{n} units", 3).render(Hu()) == "3 egység"
    assert join([_("mage"), "Kent"]).render(Hu()) == "mágust, Kent"


def test_messages_survive_json_copies_and_events() -> None:
    m = _("{seat} places a {unit} on {region}.", seat="orange", unit=_("mage"), region="Powys")
    back = Msg.from_json(json.loads(json.dumps(m.to_json())))
    assert back == m and back.render(Hu()) == m.render(Hu())
    assert copy.deepcopy(m).render(Hu()) == m.render(Hu())


def test_a_broken_translation_falls_back_to_english() -> None:
    class Bad(Hu):
        table = {"{seat} wins.": "{who} nyer."}
    assert _("{seat} wins.", seat="white").render(Bad()) == "white wins."


def test_an_event_text_may_be_a_message() -> None:
    e = Event("place", _("{seat} wins.", seat="white"), {})
    assert e.to_json()["text"] == "white wins."


def test_an_event_keeps_its_message_through_json() -> None:
    e = Event("place", _("{seat} wins.", seat="white"), {})
    back = Event.from_json(json.loads(json.dumps(e.to_json())))
    assert isinstance(back.text, Msg) and back.text == "white wins."
    plain = Event.from_json(Event("x", "just text", {}).to_json())
    assert "msg" not in Event("x", "just text", {}).to_json() and plain.text == "just text"
