"""Findings (low), and the spool's and relay's rough edges: a reused Message-ID silenced a
player's real mail; two spool runs at once crashed one of them; a 5xx from the relay was
silent and final; game names and addresses were barely checked; a refused spool file was
told to nobody."""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import brittle_game  # noqa: F401 - registers the "brittle" test game
import pytest
from aiosmtpd.controller import Controller
from attack import mail, order_text
from clock import T0
from typer.testing import CliRunner

from pbem.cli.app import app
from pbem.config import Settings
from pbem.mail.listener import free_port
from pbem.service import gm, mailflow
from pbem.service.games import ServiceError, create_game
from pbem.service.orders import process_spool
from pbem.store.db import session_scope
from pbem.store.models import Outbox


def test_a_reused_message_id_does_not_silence_the_real_mail(host) -> None:  # type: ignore[no-untyped-def]
    card = host.hand("north")[0]
    fake = mail("mallory@evil.example", "nonsense\n", message_id="<ann-1@example.org>")
    assert host.receive(fake).status == "refused"
    real = mail("ann@example.org", order_text(host, "north", f"PLAY {card}\n"),
                message_id="<ann-1@example.org>")
    r = host.receive(real)
    assert r.status == "applied", r
    again = b"Received: from mx2 by mx1; Thu, 1 Jan 2026 12:00:00 +0000\r\n" + real.as_bytes()
    assert host.receive(again).status == "duplicate"  # the same mail by another path


def test_two_spool_runs_at_once_take_each_file_once(host, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    spool = tmp_path / "spool"
    (spool / "inbox").mkdir(parents=True)
    card = host.hand("north")[0]
    for n in range(5):
        (spool / "inbox" / f"f{n}.txt").write_text(order_text(host, "north", f"PLAY {card}\n"))
    first_in, other_done = threading.Event(), threading.Event()
    results: dict[str, Any] = {}

    def slow_sessions():  # type: ignore[no-untyped-def]
        if not first_in.is_set():  # run A stops inside its first file until B is done
            first_in.set()
            other_done.wait(30)
        return session_scope(host.engine)

    def run_a() -> None:
        try:
            results["a"] = process_spool(slow_sessions, spool, now=T0)
        except Exception as e:  # noqa: BLE001
            results["a"] = e

    a = threading.Thread(target=run_a)
    a.start()
    first_in.wait(30)
    results["b"] = process_spool(host.sessions, spool, now=T0)
    other_done.set()
    a.join(30)
    assert not isinstance(results["a"], Exception), results["a"]
    names = sorted(i.path.name for run in ("a", "b") for i in results[run])
    assert names == [f"f{n}.txt" for n in range(5)]
    assert len(list((spool / "processed").glob("f?.txt"))) == 5
    assert not list((spool / "inbox").iterdir()) and not list((spool / "claimed").iterdir())


def test_a_spool_file_that_breaks_the_service_is_quarantined(host, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    with host.sessions() as s:
        pw = create_game(s, ruleset_id="brittle", name="b1", seed="b", now=T0,
                         seats={"north": "ann@example.org", "south": "bob@example.org"}).passwords
    spool = tmp_path / "spool"
    (spool / "inbox").mkdir(parents=True)
    (spool / "inbox" / "boom.txt").write_text(f"GAME b1\nSEAT north\nPASSWORD {pw['north']}\nBOOM\n")
    card = host.hand("north")[0]
    (spool / "inbox" / "ok.txt").write_text(order_text(host, "north", f"PLAY {card}\n"))
    lines = host.tick()
    assert "ok.txt: accepted" in lines
    assert (spool / "quarantine" / "boom.txt").exists()
    assert "the parser broke" in (spool / "quarantine" / "boom.txt.error.txt").read_text()
    assert [o for o in host.outbox(recipient="gm@pbem.test") if "quarantined" in o.subject]


def test_a_refused_spool_file_is_told_to_the_seats_registered_address(host, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    spool = tmp_path / "spool"
    (spool / "inbox").mkdir(parents=True)
    card = host.hand("north")[0]
    (spool / "inbox" / "stale.txt").write_text(
        order_text(host, "north", f"PLAY {card}\n", turn=7))
    (spool / "inbox" / "badpw.txt").write_text(
        order_text(host, "south", "PLAY 1\n", password="wrong"))
    host.tick()
    told = [o for o in host.outbox(recipient="ann@example.org") if "was refused" in o.subject]
    assert len(told) == 1 and b"TURN 7 is not the open step" in told[0].raw
    digest = [o for o in host.outbox(recipient="bob@example.org") if "wrong password" in o.subject]
    assert len(digest) == 1 and b"spool" in digest[0].raw


class Refusing:
    def __init__(self) -> None:
        self.refuse = True
        self.got: list[bytes] = []

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str,
                          options: list[str]) -> str:
        if self.refuse:
            return "550 5.1.1 no such user"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.got.append(envelope.original_content or envelope.content)
        return "250 OK"


def test_a_5xx_tells_the_gm_once_and_mail_retry_queues_it_again(engine, db_url: str,
                                                               tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    handler = Refusing()
    port = free_port()
    relay = Controller(handler, hostname="127.0.0.1", port=port)
    relay.start()
    try:
        settings = Settings(address="orders@pbem.test", smtp=f"smtp://127.0.0.1:{port}",
                            gm="gm@pbem.test")
        with session_scope(engine) as s:
            for n in range(3):
                mailflow.queue(s, settings, kind="notice", to=f"gone{n}@example.org",
                               subject=f"n{n}", text="t\n", now=T0, key=("n", n))
        report = mailflow.send_outbox(lambda: session_scope(engine), settings, now=T0)
        assert report.failed == 3
        with session_scope(engine) as s:
            from sqlmodel import select

            rows = list(s.exec(select(Outbox)))
        notices = [r for r in rows if r.recipient == "gm@pbem.test"]
        assert len(notices) == 1 and "refused 3 mail(s)" in notices[0].subject
        failed = [r.id for r in rows if r.status == "failed"]
        handler.refuse = False
        runner = CliRunner()
        out = runner.invoke(app, ["--db", db_url, "mail", "retry", "--id", str(failed[0])])
        assert out.exit_code == 0 and "1 failed mail(s) queued again" in out.output
        assert runner.invoke(app, ["--db", db_url, "mail", "retry"]).exit_code == 1
        out = runner.invoke(app, ["--db", db_url, "mail", "retry", "--all-failed"])
        assert "2 failed mail(s) queued again" in out.output
        later = datetime.now(UTC)  # the CLI queued them again at its own now
        report = mailflow.send_outbox(lambda: session_scope(engine), settings, now=later)
        assert report.sent == 4 and report.failed == 0  # the three and the GM's notice
    finally:
        relay.stop()


@pytest.mark.parametrize("name", ["../../x", "<svg/onload=alert(1)>", "Kassa 1302", "a" * 64,
                                  "-lead", "kassa_1302", "ünnep"])
def test_game_names_are_checked_at_the_door(session, name: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ServiceError, match="is not a game name"):
        create_game(session, ruleset_id="highcard", name=name, now=T0,
                    seats={"north": "a@example.org", "south": "b@example.org"})


@pytest.mark.parametrize("address", ["a@x.org\r\nBcc: victim@y.org", "Ann <a@x.org>",
                                     "a@x.org, b@y.org", "no-at-sign", "a@", "@x.org",
                                     "a b@x.org", "a@x.org\n"])
def test_seat_addresses_are_one_plain_address(session, address: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ServiceError, match="is not one e-mail address"):
        create_game(session, ruleset_id="highcard", name="g2", now=T0,
                    seats={"north": address, "south": "b@example.org"})
    create_game(session, ruleset_id="highcard", name="g3", now=T0,
                seats={"north": "Ann@Example.ORG", "south": "b@example.org"})
    with pytest.raises(ServiceError, match="is not one e-mail address"):
        gm.replace_seat(session, "g3", "north", address, now=T0)


def test_a_bad_address_on_the_command_line_is_one_line_not_an_internal_error(db_url: str) -> None:
    out = CliRunner().invoke(app, ["--db", db_url, "game", "new", "highcard", "g4",
                                   "--seat", "north=a@x.org\r\nBcc: v@y.org",
                                   "--seat", "south=b@x.org"])
    assert out.exit_code == 1
    assert "is not one e-mail address" in out.output and "internal error" not in out.output
