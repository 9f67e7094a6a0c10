"""Languages: a whole game of Macht & Ohnmacht in Hungarian through the real paths (order
mails in through `mailflow.receive`, the tick, the reports, confirmations, refusals,
reminders and notices out through the outbox), checked for platform text that did not
pass through the catalog; the catalogs themselves are complete and match the code.

How a leak is found: every message of the platform catalog (`pbem/locale`) is English
text with placeholders; its literal pieces of two words or more must not appear in a
Hungarian mail. The same check on the same game in English must find them (so the check
can fail). Each game's own texts (events, prompts, the board: its own catalog domain) are
checked by its `test_hungarian.py` (tests/support/languages.py).
"""

from __future__ import annotations

import email
import html
import json
import random
import re
from datetime import timedelta
from email.message import EmailMessage
from email.policy import default
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from clock import T0
from languages import leaks as find_leaks
from sqlmodel import select

from pbem.config import Settings
from pbem.core.events import Event, public
from pbem.core.i18n import Msg, _
from pbem.locale import DOMAIN, LANGUAGES, SOURCE, catalog_path, template_path, translations
from pbem.locale.catalogs import domains, extract, games, ids
from pbem.reports.context import report_context
from pbem.reports.render import render_report
from pbem.rulesets import all_rulesets
from pbem.service import mailflow
from pbem.service.game_settings import problems
from pbem.service.games import create_game, find_game, live_step, ruleset_of
from pbem.service.language import language_of
from pbem.service.tick import tick
from pbem.store.db import connect, migrate, session_scope
from pbem.store.models import Outbox

ROOT = Path(__file__).resolve().parents[2]
ORDERS = "orders@pbem.test"
SEATS = {"orange": "ann@example.org", "white": "bob@example.org"}
PLACEHOLDER = re.compile(r"%\(\w+\)s|\{\w+\}")
# Words a player's own text shares with the catalog, so the check cannot tell them apart:
# each with where it comes from.
GAME_WORDS = {
    "strength-": "Macht & Ohnmacht's tile ids as players type them (PLAY strength-helmet), "
                 "echoed in the confirmations"}


def catalog(lang: str, domain: str = DOMAIN) -> dict[str, tuple[str, ...]]:
    """msgid (a plural's singular) -> its translations (one, or one per plural form)."""
    with catalog_path(lang, domain).open("rb") as f:
        return {_single(m.id): (m.string,) if isinstance(m.string, str) else tuple(m.string)
                for m in read_po(f, locale=lang) if m.id}


def _single(msgid: str | tuple[str, ...]) -> str:
    return msgid if isinstance(msgid, str) else msgid[0]


def leaks(text: str, msgids: list[str]) -> list[str]:
    """The catalog messages found in English in `text` (tests/support/languages.py),
    less those sharing words with a player's own text (GAME_WORDS)."""
    return sorted(find_leaks(text, msgids, ignore=tuple(GAME_WORDS)))


def mail_text(raw: bytes) -> str:
    """Subject, text part and HTML part (tags and the board picture dropped) of a sent
    mail, decoded."""
    msg = email.message_from_bytes(raw, policy=default)
    out = [str(msg["Subject"])]
    for kind in ("plain", "html"):
        part = msg.get_body((kind,))
        if part is None:
            continue
        body = part.get_content()
        if kind == "html":
            body = re.sub(r"<svg.*?</svg>|<style>.*?</style>", "", body, flags=re.S)
            body = html.unescape(re.sub(r"<[^>]+>", " ", body))
        out.append(body)
    return "\n".join(out)


def campaign(tmp_path: Path, lang: str, *, steps: int = 400,
             whole: bool = True) -> tuple[set[str], list[bytes]]:
    """A whole game by mail: bot orders (a refused line, a wrong TURN and a silent step
    now and then), the tick processing steps. The kinds of mail the host sent, and every
    mail it sent to the players (as delivered: the maildir)."""
    engine = connect(f"sqlite:///{tmp_path}/{lang}.sqlite")
    migrate(engine)
    settings = Settings(db="unused", address=ORDERS, maildir=str(tmp_path / lang / "out"),
                        gm="gm@pbem.test")
    with session_scope(engine) as s:
        new = create_game(s, ruleset_id="macht-und-ohnmacht", name="partie", seats=SEATS,
                          seed="languages", deadline_hours=48, now=T0,
                          settings={"language": lang})
        mailflow.queue_welcome(s, settings, new.game, new.passwords, now=T0)
        mailflow.queue_reports(s, settings, new.game, now=T0)
    rng = random.Random(7)
    now = T0
    for i in range(steps):
        with session_scope(engine) as s:
            game = find_game(s, "partie")
            if game.status == "finished":
                break
            step = live_step(s, game)
            ruleset = ruleset_of(game)
            state = ruleset.load(json.loads(step.state_json))
            awaited = sorted(json.loads(step.awaiting_json))
            number = step.number
        for seat in awaited:
            if i % 7 == 3:
                continue  # silent: the deadline, a reminder, an extension, NMR
            lines = ruleset.legal_orders(state, seat, rng)
            if i % 5 == 1:
                lines = [*lines, "FLY to the moon"]  # a refused line
            turn = number + 1 if i % 11 == 2 else number  # a stale TURN: refused whole
            body = (f"GAME partie\nSEAT {seat}\nPASSWORD {new.passwords[seat]}\nTURN {turn}\n"
                    + "".join(f"{line}\n" for line in lines) + ("CONFIRM\n" if i % 5 == 1 else ""))
            msg = EmailMessage()
            msg["From"], msg["To"], msg["Subject"] = SEATS[seat], ORDERS, f"orders {i}"
            msg["Message-ID"] = f"<{lang}-{i}-{seat}@example.org>"
            msg.set_content(body)
            mailflow.receive(lambda: session_scope(engine), msg.as_bytes(), source="pipe",
                             settings=settings, now=now)
        now += timedelta(hours=30)
        tick(engine, spool=tmp_path / lang / "spool", now=now, settings=settings)
        now += timedelta(hours=30)
        tick(engine, spool=tmp_path / lang / "spool", now=now, settings=settings)
    with session_scope(engine) as s:
        assert not whole or find_game(s, "partie").status == "finished", "the game went on"
        kinds = set(s.exec(select(Outbox.kind).where(Outbox.recipient != "gm@pbem.test")))
    engine.dispose()
    mails = [p.read_bytes() for p in sorted((tmp_path / lang / "out" / "new").iterdir())]
    return kinds, [m for m in mails if b"\nTo: gm@pbem.test" not in m]


def test_a_whole_game_in_hungarian_shows_no_platform_text_in_english(tmp_path: Path) -> None:
    msgids = sorted(catalog("hu")) + sorted(catalog("hu", "macht-und-ohnmacht"))
    kinds, hu = campaign(tmp_path, "hu")
    assert {"welcome", "report", "echo", "reminder", "notice"} <= kinds, kinds
    found = {i: leaks(mail_text(raw), msgids) for i, raw in enumerate(hu)}
    assert not {k: v for k, v in found.items() if v}, found
    # Hungarian is there: the headings, the outcomes' words, the confirmations.
    everything = "\n".join(mail_text(raw) for raw in hu)
    for word in ("A parancsaid és mi lett velük", "végrehajtva", "elutasítva", "Mi történt",
                 "ELUTASÍTVA", "Nincs parancsunk", "Üdvözlünk", "Mellékelve", "  -> HIBA: ",
                 "  -> OK", "Homokóra: ", "Akciólapkák"):
        assert word in everything, word
    # The order echo and the outcomes number lines the Hungarian way ("5. sor").
    assert re.search(r"^- \d+\. sor: ", everything, re.M)
    assert not re.search(r"(^|- )line \d+: ", everything, re.M)
    # The same check on the same game in English finds the platform's text: it can fail.
    _kinds, en = campaign(tmp_path, SOURCE, steps=12, whole=False)
    assert len(set().union(*(leaks(mail_text(raw), msgids) for raw in en))) >= 30


@pytest.mark.parametrize("domain", domains())
def test_every_message_is_translated_and_keeps_its_placeholders(domain: str) -> None:
    for lang in LANGUAGES:
        if lang == SOURCE:
            continue
        entries = catalog(lang, domain)
        empty = [m for m, s in entries.items() if not all(s)]
        assert not empty, f"{lang}: {len(empty)} messages without a translation: {empty[:5]}"
        wrong = [m for m, forms in entries.items() for s in forms
                 if sorted(PLACEHOLDER.findall(m)) != sorted(PLACEHOLDER.findall(s))]
        assert not wrong, f"{lang}: placeholders differ: {wrong[:5]}"
        with catalog_path(lang, domain).open("rb") as f:
            fuzzy = [m.id for m in read_po(f, locale=lang) if m.id and m.fuzzy]
        assert not fuzzy, f"{lang}: fuzzy (unchecked) translations: {fuzzy[:5]}"


@pytest.mark.parametrize("domain", domains())
def test_the_catalogs_hold_every_message_of_the_code(domain: str) -> None:
    """A string wrapped in _() in the code or a template but missing from its domain's
    catalog (run `python -m pbem.locale.catalogs`, docs/translating.md), or one the code
    no longer has."""
    code = ids(extract(domain))
    with template_path(domain).open("rb") as f:
        template = {_single(m.id) for m in read_po(f) if m.id}
    assert code == template, (f"not in {domain}.pot: {sorted(code - template)[:5]}; "
                              f"gone from the code: {sorted(template - code)[:5]}")
    for lang in LANGUAGES:
        if lang != SOURCE:
            assert set(catalog(lang, domain)) == code, lang


def test_every_game_has_its_catalog() -> None:
    """A game's texts are its own domain: every ruleset package has one, in every language."""
    hosted = {rid for rid, r in all_rulesets().items()
              if type(r).__module__.startswith("pbem.rulesets.")}
    assert set(games()) == hosted
    for game in games():
        assert template_path(game).is_file(), game
        for lang in LANGUAGES:
            assert lang == SOURCE or catalog_path(lang, game).is_file(), (lang, game)


def test_the_shared_templates_have_no_text_outside_the_catalog() -> None:
    """Every word of templates/mail/*.j2 is inside a Jinja tag (a message, a value):
    text written straight into the template would reach a Hungarian player in English."""
    for path in sorted((ROOT / "templates" / "mail").glob("*.j2")):
        source = path.read_text(encoding="utf-8")
        bare = re.sub(r"\{#.*?#\}|\{%.*?%\}|\{\{.*?\}\}", " ", source, flags=re.S)
        bare = re.sub(r"<style>.*?</style>|<[^>]+>|&\w+;", " ", bare, flags=re.S)
        words = re.findall(r"[A-Za-z]{2,}", bare)
        assert not words, f"{path.name}: text outside the catalog: {words[:10]}"


def test_a_translation_reaches_the_report() -> None:
    t = translations("hu")
    assert t.gettext("Public report") == "Nyilvános jelentés"
    assert translations("en").gettext("Public report") == "Public report"


def test_a_stored_event_message_is_shown_in_the_readers_language() -> None:
    """Event.to_json keeps a Msg's id and arguments; the report renders it from the
    catalog in the reader's language (English: the stored text, byte for byte)."""
    stored = public("note", _("REFUSED: {reason}", reason=_("the game is over"))).to_json()
    event = Event.from_json(stored)
    ctx = {"game": {"name": "g", "ruleset": "no-such-game", "title": "T"}, "seat": None,
           "step": 2, "phase": "", "view": {}, "board_text": "", "board_svg": "",
           "awaited": [], "prompt": None, "skeleton": None, "deadline": None,
           "commitment": "c", "master_seed": None, "result": None,
           "happened": {"number": 1, "phase": "", "events": [event.text], "outcomes": [],
                        "rolls": [], "defaulted": [], "file_hashes": {},
                        "orders_digest": "", "seed": None, "commitment": "c"}}
    assert "- REFUSED: the game is over\n" in render_report(ctx, lang="en")
    hu = render_report(ctx, lang="hu")
    assert "- ELUTASÍTVA: a játék véget ért\n" in hu and "REFUSED" not in hu


def test_the_board_picture_is_drawn_in_the_language_of_its_report(engine) -> None:  # type: ignore[no-untyped-def]
    """A report's context draws the board for its reader: a Hungarian seat's in Hungarian
    (the HTML shows that very picture), in English when asked; rendering a context in a
    language its picture is not drawn in is refused, not done with the wrong picture."""
    with session_scope(engine) as s:
        create_game(s, ruleset_id="macht-und-ohnmacht", name="g", seed="kep", now=T0,
                    seats={"orange": "o@example.org", "white": "w@example.org"},
                    settings={"language": "hu"})
    with session_scope(engine) as s:
        hu = report_context(s, "g", seat="orange")
        en = report_context(s, "g", seat="orange", lang="en")
    assert hu["lang"] == "hu" and "homokóra" in hu["board_svg"]
    assert "hourglass" not in hu["board_svg"] and "Thick ring" not in hu["board_svg"]
    assert "hourglass" in en["board_svg"] and "homokóra" not in en["board_svg"]
    assert hu["board_svg"] in render_report(hu, fmt="html")
    assert en["board_svg"] in render_report(en, fmt="html")
    with pytest.raises(ValueError, match="drawn in 'hu'"):
        render_report(hu, fmt="html", lang="en")


def test_a_mail_without_a_game_is_answered_in_the_senders_language(engine) -> None:  # type: ignore[no-untyped-def]
    """No order file, so no game: a player whose seats read Hungarian is answered in
    Hungarian; a stranger gets the host's one short refusal in English."""
    settings = Settings(db="unused", address=ORDERS, gm="gm@pbem.test")
    with session_scope(engine) as s:
        create_game(s, ruleset_id="macht-und-ohnmacht", name="partie", seats=SEATS,
                    seed="x", now=T0, settings={"language": "hu"})
    for sender in ("ann@example.org", "eve@example.org"):
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = sender, ORDERS, "hello"
        msg["Message-ID"] = f"<{sender}>"
        msg.set_content("Just saying hello.\n")
        mailflow.receive(lambda: session_scope(engine), msg.as_bytes(), source="pipe",
                         settings=settings, now=T0)
    with session_scope(engine) as s:
        answers = {r.recipient: r for r in s.exec(select(Outbox))}
    assert "ELUTASÍTVA: nincs GAME/SEAT fejléc" in mail_text(answers[SEATS["orange"]].raw)
    assert "Your mail was not read" in mail_text(answers["eve@example.org"].raw)


def test_the_language_settings_are_checked_and_a_seat_may_differ(engine) -> None:  # type: ignore[no-untyped-def]
    assert problems({"language": "hu", "seat_language": "white=en"}, SEATS) == []
    assert problems({"language": "de"}, SEATS) == ["language is one of en, hu, not 'de'"]
    assert problems({"seat_language": "black=hu, white=fr"}, SEATS) == [
        "seat_language: no seat black (seats: orange, white)",
        "seat_language: white=fr: the languages are en, hu"]
    with session_scope(engine) as s:
        game = create_game(s, ruleset_id="macht-und-ohnmacht", name="partie", seats=SEATS,
                           seed="x", now=T0, settings={"language": "hu",
                                                       "seat_language": "white=en"}).game
        assert [language_of(game, seat) for seat in (*SEATS, None)] == ["hu", "en", "hu"]


def test_an_empty_message_stays_empty_in_every_language() -> None:
    """gettext("") answers with the catalog's header: an empty message (an unknown word
    with no suggestion) must render as nothing."""
    t = translations("hu")
    assert _("unknown {what} \"{text}\"{suggestion}", what="x", text="y",
             suggestion=Msg("")).render(t) == "ismeretlen x: „y”"
    assert Msg("").render(t) == ""
