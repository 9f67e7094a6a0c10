"""Kard és Korona in Hungarian: a whole game (6 players, advanced, decisions asked: the most
texts: battle instructions, oaths, the Palatine's tie, elections) with every report
rendered; no game text outside the catalog, no catalog message shown in English, no bare
word in the game's templates; the rulebook's words in the reports."""

from __future__ import annotations

import json
import tomllib
from dataclasses import replace
from importlib import resources
from pathlib import Path

import pytest
from languages import leaks, msgids, play_in_hungarian

from pbem.core.dice import ScriptedDice
from pbem.core.i18n import Msg, _, render
from pbem.core.kit import Context, Question
from pbem.core.ruleset import GameConfig
from pbem.core.selfplay import play
from pbem.locale import DOMAIN, translator
from pbem.rulesets.kard_es_korona import RULESET
from pbem.rulesets.kard_es_korona.data import CARD_GLOSS
from pbem.rulesets.kard_es_korona.rules.victory import REASONS, reason_message

GAME = "kard-es-korona"
SIX = ("felvidek", "tiszahat", "erdely", "delvidek", "szlavonia", "pannonia")
SEATS = {s: f"{s}@example.org" for s in SIX}
ASK = {"decisions": "ask"}

# The rulebook's words (and the game's sentences), as a Hungarian player reads them.
WORDS = ("tartományúr", "vármegyében", "Kezdőjátékos", "Eseménykártya", "garas",
         "országbíró", "Tárnokmester", "nádor", "Csata, ", "elesik:", "íjászsortűz",
         "közelharc", "passzol", "lovas", "gyalogos", "íjász", "Kincstárad", "Választás",
         "Licitek", "hegyvidék", "síkság", "mocsár", "szomszédai", "Állandó parancsaid",
         "Mozgás: lovas és tartományúr 4 mozgáspont", "A játék 1312 után ér véget",
         "Az utolsó év véget ért.", "toborzási és mozgási parancsok")
# The board picture's words, as a Hungarian player reads them on the PNG of a report.
PICTURE = ("halvány = semleges", "c=lovas i=gyalogos a=íjász", "tartományúr", "függő támadás",
           "(síkság)", "(hegyvidék)", "(mocsár)")

def test_a_whole_game_reads_in_hungarian(tmp_path: Path) -> None:
    found = play_in_hungarian(GAME, SEATS, tmp_path, variant="advanced", options=ASK,
                              every=3)
    assert found.finished, f"the game did not end in {found.steps} steps"
    assert found.plain == []
    assert found.leaks == set()
    assert found.picture == set()
    assert [w for w in PICTURE if w not in found.picture_text] == []
    assert found.bare == []
    assert [w for w in WORDS if w not in found.text] == []


@pytest.mark.parametrize("seed", [3, 8])
def test_every_prompt_and_question_is_a_message_read_in_hungarian(seed: int) -> None:
    """Questions too (battle instructions, oaths, the Palatine's tie, strict movement), whose
    text the kit keeps as English in the state: the game asks them again as messages."""
    hu = translator("hu", GAME)
    ids = msgids(DOMAIN) + msgids(GAME)
    options = {**ASK, "movement": "strict"} if seed == 8 else ASK
    pl = play(RULESET, GameConfig(SIX, "advanced", options), seed, keep=True)
    prompts = [p.text for o in pl.outcomes for p in o.awaiting.values()]
    assert [t for t in prompts if not isinstance(t, Msg)] == []
    shown = "\n".join(render(t, hu) for t in prompts)
    assert leaks(shown, ids) == set()
    assert "Választás" in shown and "Helyezd el tartományuradat" in shown
    kinds = {q.kind for o in pl.outcomes for q in RULESET.questions(o.state)}
    assert kinds >= ({"move"} if seed == 8 else {"bid"})


def test_a_question_kept_in_the_state_is_asked_as_its_message() -> None:
    """The state keeps a question's texts as messages (the kit's Question): its prompt and
    notices read in Hungarian, in this game's own words; a sealed bid is not announced."""
    asked = Question("erdely", "battle", _("battle instructions for {county}", county="Pest"),
                     "FIGHT", (), True, _("his next step"), {"county": "pest"})
    q = Question.from_json(json.loads(json.dumps(asked.to_json())))  # as the state keeps it
    assert isinstance(q.text, Msg) and isinstance(q.public, Msg)
    hu = translator("hu", GAME)
    prompt = RULESET.question_prompt({}, q)
    assert render(prompt.text, hu) == "csataparancsok: Pest"
    ctx = Context(state={"seats": ["erdely", "pest"], "pause": None}, dice=ScriptedDice([]))
    RULESET.ask_events(ctx, [q, replace(q, seat="pest", kind="bid")])
    assert [(e.to, render(e.text, hu)) for e in ctx.log.events] == [
        (("pest",), "Várakozás erdely döntésére: a következő lépése."),
        (("erdely",), "Döntésed szükséges: csataparancsok: Pest")]
    assert q.data["county"] == "pest"


def test_the_result_reason_is_a_message_from_its_stored_english() -> None:
    hu = translator("hu", GAME)
    for english in ("holds 4 complete provinces", "holds 9 castles", "holds all three offices",
                    "end of 1308: most castles, then counties, cavalry, money",
                    "no lord is left",
                    "last lord standing: every other lord is dead or a vassal"):
        msg = reason_message(english)
        assert isinstance(msg, Msg) and msg == english
        assert render(msg, hu) != english
    assert len(REASONS) == 6
    assert reason_message("a GM's own words") == "a GM's own words"


def test_the_card_glosses_say_what_the_data_file_says() -> None:
    text = resources.files("pbem.rulesets.kard_es_korona").joinpath(
        "data", "events.toml").read_text(encoding="utf-8")
    cards = tomllib.loads(text)["card"]
    assert {c["id"]: c["english"] for c in cards} == {k: str(v) for k, v in CARD_GLOSS.items()}


def test_order_errors_and_arrival_notes_reach_the_player_in_hungarian() -> None:
    """What the confirmation answers (OrderError, refusals and notes on arrival) stays a
    message: through the parse cache, the usage hint and the arrival checks."""
    pl = play(RULESET, GameConfig(("felvidek", "erdely", "szlavonia"), "advanced"), 1,
              keep=True)
    state = next(o.state for o in pl.outcomes
                 if o.state["phase"] == "orders" and o.state["year"] >= 1302)
    text = ("RECRUIT 2 cav IN turoc\nRECRUIT 2 cav IN pozsony\n"
            "MOVE TO zemplen FROM trencsen 9 inf\nGIVE 500 TO erdely\nGIVE 5 TO felvidek\n"
            "LEAD open cav cav\nRANSOM pozsony\nCEDE judge TO erdely\nBID judge 5\n"
            "LEAD sideways cav\nRECRUIT x cav IN pozsony\nRANSOM\n")
    hu = translator("hu", GAME)
    for _round in range(2):  # the second time from the grammar's cache
        said = [ln.error or ln.note for ln in RULESET.parse(state, "felvidek", text).lines]
        assert all(isinstance(m, Msg) for m in said), said
        shown = "\n".join(render(m, hu) for m in said)
        assert leaks(shown, msgids(DOMAIN) + msgids(GAME)) == set()
        assert "nincs vár" in shown and "például RECRUIT 2 inf IN trencsen" in shown
        assert "a darabszám egész szám" in shown and "pedig vármegye következne" in shown
