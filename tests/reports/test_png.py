"""The board picture reaches every mail client: each game's report mail carries its board as
a PNG (drawn from the game's own SVG at that SVG's size), referenced by `cid:` from the
HTML part, the picture a related part of it; and the mail stays under the size limit."""

from __future__ import annotations

import email
import io
import json
import random
import re
from datetime import timedelta
from email.message import EmailMessage
from email.policy import default

import pytest
from bots import bot_step
from clock import T0
from mail_limits import MAIL_LIMIT
from PIL import Image, ImageStat
from sqlmodel import select

from pbem.archive.export import export_game
from pbem.config import Settings
from pbem.core.ruleset import GameConfig
from pbem.core.selfplay import play
from pbem.locale import translator
from pbem.reports.png import board_png
from pbem.reports.svg import compact_svg
from pbem.rulesets import _discover
from pbem.service import mailflow, players
from pbem.service.delivery import send_digest
from pbem.service.games import create_game, find_game, live_step, seat_row
from pbem.store.db import session_scope
from pbem.store.models import Outbox

HOSTED = ("battlelore", "cherubion", "helios", "kard-es-korona", "macht-und-ohnmacht")
PNG_LIMIT = 25_000  # bytes of one board picture (32 colours): measured 10-18 KB


def svg_size(svg: str) -> tuple[int, int]:
    head = re.match(r"\s*<svg\b[^>]*>", svg)
    assert head is not None
    width = re.search(r'\bwidth="(\d+)"', head.group(0))
    height = re.search(r'\bheight="(\d+)"', head.group(0))
    assert width and height
    return int(width.group(1)), int(height.group(1))


def mid_game_mails(rid: str, engine, tmp_path,  # type: ignore[no-untyped-def]
                   lang: str = "en") -> tuple[list[EmailMessage], dict[str, str]]:
    """A game of `rid` at the most players, its seats reading `lang`, played by bots for
    half as many steps as a selfplay game of it lasts, then its reports queued; and each
    seat's board SVG as the game draws it for them."""
    ruleset = _discover()[rid]
    variant = ruleset.default_variant()
    seats = ruleset.seat_ids(ruleset.max_players, variant)
    length = play(ruleset, GameConfig(seats, variant), 3, verify=False).steps
    with session_scope(engine) as s:
        new = create_game(s, ruleset_id=rid, name="g", seed="png", now=T0, variant=variant,
                          seats={seat: f"{seat}@example.org" for seat in seats},
                          settings={"language": lang})
    rng, now = random.Random(5), T0
    for _ in range(length // 2):
        now += timedelta(hours=1)
        assert bot_step(engine, "g", new.passwords, rng, now=now), rid
    with session_scope(engine) as s:
        game = find_game(s, "g")
        state = ruleset.load(json.loads(live_step(s, game).state_json))
        mailflow.queue_reports(s, Settings(maildir=str(tmp_path / "out")), game, now=now)
    with session_scope(engine) as s:
        rows = list(s.exec(select(Outbox).where(Outbox.kind == "report")))
        mails = [email.message_from_bytes(r.raw, policy=default) for r in rows]
    svgs = {seat: ruleset.board_svg(ruleset.view(state, seat), translator(lang, rid))
            for seat in seats}
    return mails, svgs  # type: ignore[return-value]


@pytest.mark.parametrize("rid", HOSTED)
def test_every_report_mail_shows_the_board_as_a_png(rid: str, engine, tmp_path) -> None:  # type: ignore[no-untyped-def]
    mails, svgs = mid_game_mails(rid, engine, tmp_path)
    assert len(mails) == len(svgs)
    for mail in mails:
        seat = mail["To"].split("@")[0]
        assert mail.get_content_type() == "multipart/alternative"
        text, related = mail.get_payload()
        assert text.get_content_type() == "text/plain"
        assert related.get_content_type() == "multipart/related"
        html, picture = related.get_payload()
        assert html.get_content_type() == "text/html"
        assert picture.get_content_type() == "image/png"
        cid = picture["Content-ID"].strip("<>")
        body = html.get_content()
        assert f'src="cid:{cid}"' in body
        assert "<svg" not in body  # the PNG replaces the SVG in mail
        # the board as text is in the text part only, and the HTML says so (mail size)
        if rid != "macht-und-ohnmacht":  # its HTML report shows no board as text
            assert "The board as text is in the plain-text part" in body
        assert picture.get_filename() and picture.get_filename().endswith(".png")
        data = picture.get_content()
        assert len(data) < PNG_LIMIT, (rid, seat, len(data))
        with Image.open(io.BytesIO(data)) as image:
            image.load()
            assert image.format == "PNG"
            assert image.size == svg_size(svgs[seat]), (rid, seat)
            grey = image.convert("L")
        # a board, not a blank page: the pixels vary, and many are not the white background
        inked = sum(grey.histogram()[:240]) / (grey.width * grey.height)
        spread = ImageStat.Stat(grey).stddev[0]
        print(rid, seat, f"PNG {len(data)} bytes, stddev {spread:.1f}, {inked:.0%} inked, "
              f"mail {len(mail.as_bytes())} bytes")  # the figures of docs/performance.md
        assert spread > 8 and inked > 0.03, (rid, seat, spread, inked)
        assert f'width="{image.size[0]}" height="{image.size[1]}"' in body
        assert len(mail.as_bytes()) < MAIL_LIMIT, (rid, seat, len(mail.as_bytes()))


@pytest.mark.parametrize("rid", HOSTED)
def test_a_hungarian_readers_picture_is_drawn_in_hungarian(rid: str, engine, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The PNG of a Hungarian reader's mail is the board the game draws in Hungarian (not
    the English one), and the mail stays under the size limit."""
    mails, svgs = mid_game_mails(rid, engine, tmp_path, lang="hu")
    ruleset = _discover()[rid]
    for mail in mails:
        seat = mail["To"].split("@")[0]
        picture = next(p for p in mail.walk() if p.get_content_type() == "image/png")
        hungarian = board_png(compact_svg(svgs[seat]))
        assert hungarian is not None
        assert picture.get_content() == hungarian.data, (rid, seat)
        english = ruleset.board_svg(ruleset.view(state_of(engine, ruleset), seat))
        assert svgs[seat] != english, (rid, seat)
        print(rid, seat, f"Hungarian PNG {len(hungarian.data)} bytes, "
              f"mail {len(mail.as_bytes())} bytes")
        assert len(mail.as_bytes()) < MAIL_LIMIT, (rid, seat, len(mail.as_bytes()))


def state_of(engine, ruleset):  # type: ignore[no-untyped-def]
    with session_scope(engine) as s:
        return ruleset.load(json.loads(live_step(s, find_game(s, "g")).state_json))


def test_the_archive_keeps_the_svg(engine, tmp_path) -> None:  # type: ignore[no-untyped-def]
    mid_game_mails("macht-und-ohnmacht", engine, tmp_path)
    with session_scope(engine) as s:
        export_game(s, "g", tmp_path / "site")
    pages = [p.read_text(encoding="utf-8") for p in (tmp_path / "site").rglob("*.html")]
    assert any("<svg" in page for page in pages)
    assert not any("cid:" in page for page in pages)


def test_the_archive_of_a_hungarian_game_keeps_its_pictures_in_hungarian(engine, tmp_path) -> None:  # type: ignore[no-untyped-def]
    mid_game_mails("macht-und-ohnmacht", engine, tmp_path, lang="hu")
    with session_scope(engine) as s:
        export_game(s, "g", tmp_path / "site")
    pictures = [svg for p in (tmp_path / "site").rglob("*.html")
                for svg in re.findall(r"<svg.*?</svg>", p.read_text(encoding="utf-8"), re.S)]
    assert pictures and all("Vastag gyűrű" in svg and "Thick ring" not in svg
                            for svg in pictures)


@pytest.mark.parametrize("sign", ["\u2605", "\u2694", "\u0151", "\u0171"])  # star, swords, ő, ű
def test_the_signs_the_boards_use_are_drawn_not_a_missing_glyph_box(sign: str) -> None:
    def draw(text: str) -> bytes:
        picture = board_png('<svg xmlns="http://www.w3.org/2000/svg" width="60" height="40" '
                            f'font-family="sans-serif" font-size="30"><text x="5" y="32">{text}'
                            "</text></svg>")
        assert picture is not None
        with Image.open(io.BytesIO(picture.data)) as image:
            return image.convert("L").tobytes()

    missing = draw("\ue000")  # a private-use character: no font has it
    assert draw(sign) != missing


def test_a_picture_resvg_cannot_read_leaves_the_mail_without_one() -> None:
    assert board_png("<svg not closed") is None
    blank = board_png('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"/>')
    assert blank is not None and (blank.width, blank.height) == (40, 30)


def test_a_digest_shows_the_latest_board_and_no_broken_picture(engine, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A digest holds several reports: the latest board goes inline by cid: (as in its own
    report), the older reports' pictures are left out rather than shown broken."""
    settings = Settings(maildir=str(tmp_path / "out"))
    helios = _discover()["helios"]  # four seats in turn: one waits through three turns
    seats = {seat: f"{seat}@example.org" for seat in helios.seat_ids(4, helios.default_variant())}
    last = sorted(seats)[-1]
    with session_scope(engine) as s:
        new = create_game(s, ruleset_id="helios", name="g", seed="digest", now=T0, seats=seats)
        row = seat_row(s, new.game, last)
        players.change(s, new.game, row, [(None, "digest on")], now=T0, actor="test")
    rng, now, held = random.Random(3), T0, []
    for _ in range(40):  # while the others play, the seat's reports are held
        now += timedelta(minutes=10)
        assert bot_step(engine, "g", new.passwords, rng, now=now)
        with session_scope(engine) as s:
            mailflow.queue_reports(s, settings, find_game(s, "g"), now=now)
            held = s.exec(select(Outbox).where(Outbox.seat == last,
                                               Outbox.status == "held")).all()
        if len(held) >= 3:
            break
    assert len(held) >= 3, [r.subject for r in held]
    with session_scope(engine) as s:
        game = find_game(s, "g")
        assert send_digest(s, settings, game, seat_row(s, game, last), now=now, urgent=False)
        row = s.exec(select(Outbox).where(Outbox.kind == "digest")
                     .order_by(Outbox.id.desc())).first()  # type: ignore[union-attr]
        mail = email.message_from_bytes(row.raw, policy=default)
    html = mail.get_body(("html",)).get_content()
    cids = re.findall(r'src="cid:([^"]+)"', html)
    parts = {p["Content-ID"].strip("<>"): p for p in mail.walk() if p["Content-ID"]}
    assert len(cids) == 1 and set(cids) == set(parts), (cids, list(parts))
    assert parts[cids[0]].get_content_type() == "image/png"
    assert html.count('<h1 class="digest-item">') == len(held)
