"""A whole Helios game in Hungarian (4 players, the most texts: set-up resources for seats
3 and 4, Phase 3 catch-up resources): every report rendered, no game text outside the
catalog, no catalog message shown in English, no bare word in the game's templates."""

from __future__ import annotations

import random
from datetime import timedelta
from pathlib import Path

from bots import bot_step
from clock import T0
from languages import order_error, play_in_hungarian
from mail_limits import MAIL_LIMIT
from sqlmodel import select

from pbem.config import Settings
from pbem.core.i18n import Msg
from pbem.core.ruleset import GameConfig
from pbem.core.selfplay import play
from pbem.locale import translator
from pbem.rulesets.helios import RULESET
from pbem.rulesets.helios.effects import both, estate_question
from pbem.rulesets.helios.orders import GRAMMAR
from pbem.rulesets.helios.words import IDS, term, terms
from pbem.service import mailflow
from pbem.service.games import create_game, find_game
from pbem.store.db import connect, migrate, session_scope
from pbem.store.models import Outbox

SEATS = {"north": "n@example.org", "east": "e@example.org", "south": "s@example.org",
         "west": "w@example.org"}

# The rulebook's words, as a Hungarian player reads them in the reports.
WORDS = ("forduló", "akciólapkát", "Napja lép", "GYP-t kap", "templomát", "vörösfenyő",
         "gránit", "bambusz", "obszidián", "forrás", "Végső pontozás", "Győztes:",
         "Saját helyzeted", "Jelmagyarázat", "kezdőjátékos-sárkány", "felfogad egy karaktert",
         "manát kap", "napforduló", "a tábla piros területe alá", "Felfordított földlapkák",
         "Akciólapkák a játékostáblád alatt", "döntésére várunk", "Döntened kell")
# The board picture's words, as a Hungarian player reads them on the PNG of a report.
PICTURE = ("mana", "Nap", "A tábla alatt:", "Oszlopok (a legalsó a végén):", "Földlapkák:",
           "bónuszlapkák:", "Csill", "Palota", "nappali", "szürke")

# An order line echoes the ids as the player typed them (ACTIVATE fortune_teller): the
# ids' messages (words.IDS) are the same words in English.
ORDER_IDS = tuple(IDS)


def test_a_whole_game_reads_in_hungarian(tmp_path: Path) -> None:
    """With `decisions = ask` (the Phase 3 catch-up resources and the Estate Manager's tiles
    are asked, not defaulted): the most texts."""
    found = play_in_hungarian("helios", SEATS, tmp_path, every=2, options={"decisions": "ask"},
                              ignore=ORDER_IDS)
    assert found.finished, f"the game did not end in {found.steps} steps"
    assert found.plain == []
    assert found.leaks == set()
    assert found.picture == set()
    assert [w for w in PICTURE if w not in found.picture_text] == []
    assert found.bare == []
    assert "Project-Id-Version" not in found.text  # an empty list is empty, not the header
    missing = [w for w in WORDS if w not in found.text]
    assert missing == []


def test_every_prompt_of_the_game_is_a_message() -> None:
    """Questions too (`decisions = ask`: the Phase 3 catch-up resource, the Estate Manager's
    tiles), whose text the kit stores as English: the game says them again as messages."""
    texts = []
    for seed, options in ((7, {}), (8, {"decisions": "ask"})):
        pl = play(RULESET, GameConfig(tuple(SEATS), "standard", options), seed, keep=True)
        texts += [p.text for o in pl.outcomes for p in o.awaiting.values()]
    assert any("catch-up resource" in t for t in texts)
    assert [t for t in texts if not isinstance(t, Msg)] == []


def test_the_words_between_game_words_are_hungarian_too() -> None:
    """Lists and pairs of game words: the joining words are messages, not English glue."""
    hu = translator("hu", "helios")
    assert both(["obsidian", "spring"]).render(hu) == "obszidián és forrás"
    assert estate_question(["redwood", "spring"]).render(hu).startswith(
        "A Birtokintéződ ezeket húzta: vörösfenyő és forrás.")
    assert terms(["brown", "any"], " + ").render(hu) == "barna + tetszőleges"
    assert term("fortune_teller").render(hu) == "jósnő"
    assert RULESET.phase_label(None).render(hu) == "előkészületek"


def test_order_errors_read_in_hungarian() -> None:
    hu = translator("hu", "helios")

    def error(line: str) -> str:
        return order_error(GRAMMAR, {}, None, line, hu)

    assert error("PLACE spring").startswith("a PLACE után AT és egy mező kell")
    assert error("HIRE nobody").startswith("ismeretlen karakter: „nobody”")
    assert error("TAKE sun IF red BONUS").startswith("váratlan „BONUS” a TAKE sorban")
    assert error("ACTIVATE princess BONUS blue").startswith("hercegnő nem tesz le")
    assert error("SUN TO 1,x").startswith("„1,x” nem mező; a mezőket q,r alakban írd")


def test_the_hungarian_report_mails_stay_under_the_size_limit(tmp_path: Path) -> None:
    """Hungarian is longer than English and its accents cost quoted-printable bytes: the
    second half of a 4-player game (the boards fill up), every other step, every seat."""
    engine = connect(f"sqlite:///{tmp_path}/size.sqlite")
    migrate(engine)
    with session_scope(engine) as s:
        new = create_game(s, ruleset_id="helios", name="g", seed="png", now=T0, seats=SEATS,
                          settings={"language": "hu"})
    rng, now, sizes = random.Random(5), T0, {}
    for step in range(1, 200):
        now += timedelta(hours=1)
        if not bot_step(engine, "g", new.passwords, rng, now=now):
            break
        with session_scope(engine) as s:
            game = find_game(s, "g")
            if step < 16 or (step % 2 and game.status != "finished"):
                continue
            mailflow.queue_reports(s, Settings(maildir=str(tmp_path / "out")), game, now=now)
        with session_scope(engine) as s:
            for row in s.exec(select(Outbox).where(Outbox.kind == "report")):
                sizes[(step, row.recipient)] = len(row.raw)
                s.delete(row)
    engine.dispose()
    assert len(sizes) >= 16
    biggest = max(sizes, key=lambda k: sizes[k])
    print("largest Hungarian report mail", biggest, sizes[biggest], "bytes")
    assert sizes[biggest] < MAIL_LIMIT, (biggest, sizes[biggest])
