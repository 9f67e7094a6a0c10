"""BattleLore in Hungarian: a whole game of The Spider's Lair (Lore cards, the War Council,
landmarks, the Giant Spider) with `decisions=ask`, so the questions and reaction windows
are asked too, every report rendered in Hungarian and checked for text outside the catalog
(tests/support/languages.py); and the data's names are all in the catalog's terms list."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from languages import leaks, msgids, pattern, play_in_hungarian

from pbem.core.i18n import render
from pbem.core.ruleset import GameConfig
from pbem.locale import DOMAIN, translator
from pbem.rulesets.battlelore import RULESET
from pbem.rulesets.battlelore import data as game_data

from .helpers import Zero

TERMS = Path(game_data.__file__).with_name("terms.py")

# The report context keeps a prompt's English text only (pbem/reports/context.py gives the
# template `prompt.to_json()`, whose text is a plain str), so the platform shows every
# prompt in English although the game's prompts are messages of the catalog. These are the
# game's prompts; the test looks past them until the context keeps the prompt's message.
PROMPTS = (
    "Build your War Council secretly: up to {n} levels (Commander, Wizard, Cleric, Rogue, "
    "Warrior; level 1-3 each).",
    "Keep {n} of your 4 Lore cards: {cards}.",
    "Place {landmarks} (Lore-Master landmarks on an empty hex in your 3rd or 4th row; the "
    "Stronghold under one of your units).",
    "Turn {turn}: play a Command card and give your orders.",
    "Your unit {unit} may battle back against {enemy} with {n} dice: yes or no?",
    "Your unit {unit} must retreat {n} more hex(es): to which hex?",
    "{unit} is hit by {n} flag(s) and may ignore up to {most}: how many?",
    "Your {unit} rolled {n} Lore ({stored} stored): use a power ({choices})?",
    "Reaction window ({window}): {what}. Play a Lore card ({cards}) or none?",
    "Reaction window ({window}): {what}. You hold no card you could play here: ANSWER none.",
)
# The kit's own outcome of an ANSWER line (pbem/core/kit/game.py) is not a message yet.
KIT_TEXTS = ("your answer was used",)

WORDS = ("A pók fészke", "Előkészület: haditanácsok", "haditanácsa", "tudáskártya",
         "tudásjelző", "a kupában", "Győzelmi zászlók", "győzelmi zászlót kap", "parancskártya",
         "Felderítés", "visszatámad", "hátrál", "figurát veszít", "előrenyomul",
         "jutalomtámadás", "közelharc", "Reakcióablak", "Döntened kell", "Kérdés hozzád",
         "utánpótlás", "pentagramma", "varázsló", "csatakockák")


def test_a_whole_game_in_hungarian(tmp_path: Path) -> None:
    found = play_in_hungarian("battlelore", {"north": "n@example.org", "south": "s@example.org"},
                              tmp_path, variant="spiders_lair",
                              options={"decisions": "ask"}, every=10)
    assert found.finished, f"the game did not end in {found.steps} steps"
    assert found.bare == []
    plain = [p for p in found.plain
             if not p.startswith("prompt: ") and not p.endswith(KIT_TEXTS)]
    assert plain == []
    text = found.text
    for m in PROMPTS:
        p = pattern(m)
        assert p is not None
        text = p.sub("", text)
    assert leaks(text, msgids(DOMAIN) + msgids("battlelore")) == set()
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
