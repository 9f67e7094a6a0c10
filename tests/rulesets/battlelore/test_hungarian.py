"""BattleLore in Hungarian: a whole game of The Spider's Lair (Lore cards, the War Council,
landmarks, the Giant Spider) with `decisions=ask`, so the questions and reaction windows
are asked too, every report rendered in Hungarian and checked for text outside the catalog
(tests/support/languages.py); and the data's names are all in the catalog's terms list."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from languages import play_in_hungarian

from pbem.core.i18n import render
from pbem.core.ruleset import GameConfig
from pbem.locale import translator
from pbem.rulesets.battlelore import RULESET
from pbem.rulesets.battlelore import data as game_data

from .helpers import Zero

TERMS = Path(game_data.__file__).with_name("terms.py")

WORDS = ("A pók fészke", "Előkészület: haditanácsok", "haditanácsa", "tudáskártya",
         "tudásjelző", "a kupában", "Győzelmi zászlók", "győzelmi zászlót kap", "parancskártya",
         "Felderítés", "visszatámad", "hátrál", "figurát veszít", "előrenyomul",
         "jutalomtámadás", "közelharc", "Reakcióablak", "Döntened kell", "Kérdés hozzád",
         "utánpótlás", "pentagramma", "varázsló", "csatakockák")
# The board picture's words, as a Hungarian player reads them on the PNG of a report.
PICTURE = ("A pók fészke", "győzelmi zászlói", "Négyzet: north egységei", "Tereptárgyak: R sánc",
           "vízfolyás", "erdő", "domb", "gázló")


def test_a_whole_game_in_hungarian(tmp_path: Path) -> None:
    found = play_in_hungarian("battlelore", {"north": "n@example.org", "south": "s@example.org"},
                              tmp_path, variant="spiders_lair",
                              options={"decisions": "ask"}, every=10)
    assert found.finished, f"the game did not end in {found.steps} steps"
    assert found.bare == []
    assert found.plain == []
    assert found.leaks == set()
    assert found.picture == set()
    assert [w for w in PICTURE if w not in found.picture_text] == []
    missing = [w for w in WORDS if w not in found.text]
    assert missing == []


def test_every_name_of_the_data_is_in_the_terms_list() -> None:
    """data.py makes each name a message; terms.py must list it, or the catalog lacks it."""
    listed = set(re.findall(r'_\("((?:[^"\\]|\\.)*)"\)', TERMS.read_text(encoding="utf-8")))
    folder = TERMS.with_name("data")
    names: set[str] = set()

    def walk(x: object) -> None:
        if isinstance(x, dict):
            for k, v in x.items():
                if k == "name" and isinstance(v, str):
                    names.add(v)
                elif k == "sides" and isinstance(v, dict):
                    names.update(v.values())
                else:
                    walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    for path in sorted(folder.glob("*.toml")):
        walk(tomllib.loads(path.read_text(encoding="utf-8")))
    units = tomllib.loads((folder / "units.toml").read_text(encoding="utf-8"))["types"]
    names |= {t["name"].lower() for t in units.values()}  # events name units in lower case
    assert sorted(names - listed) == []


def test_a_confirmation_echoes_errors_and_notes_in_hungarian() -> None:
    """Order errors (the syntax) and arrival notes and refusals (the rules) reach the
    confirmation as messages: Hungarian for a Hungarian player, English unchanged."""
    state = RULESET.setup(GameConfig(("north", "south"), "agincourt"), Zero())
    state["phase"] = "turn"
    parsed = RULESET.parse(state, "north", "MOVE N1\nBATTLE N1 S1\nMOVE N1 13-11\n"
                                           "LORE bless ON N1\n")
    echo = [ln.echo() for ln in parsed.lines]
    hu = [render(e, translator("hu", "battlelore")) for e in echo]
    assert echo[0].endswith("ERROR: MOVE needs a unit and a hex, e.g. MOVE N1 13-5 "
                            "(fallbacks: OR 12-6; a path: VIA 12-6)")
    assert hu[0].endswith("a MOVE után egy egység és egy hexa áll, pl. MOVE N1 13-5 "
                          "(tartalék: OR 12-6; útvonal: VIA 12-6)")
    assert "ha a csatamező így marad: egyik megnevezett célpont sem szabályos" in hu[1]
    assert "a sorok száma 1-9" in hu[2]
    assert "ez középkori kaland: nincsenek tudáskártyák" in hu[3]
