"""A player can check his own file hash: the confirmation attaches (and shows) exactly the
text that is hashed, and the next report lists its SHA-256 for his seat."""

from __future__ import annotations

import email
import hashlib
import json
from email.message import EmailMessage
from email.policy import default
from pathlib import Path

from clock import T0

from pbem.config import Settings
from pbem.reports.context import report_context
from pbem.reports.render import render_report
from pbem.service import mailflow
from pbem.service.games import create_game, find_game, live_step
from pbem.service.turns import process_turn
from pbem.store.db import session_scope


def test_the_confirmation_holds_exactly_the_hashed_text(engine, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    settings = Settings(address="orders@pbem.test", maildir=str(tmp_path / "out"))
    sessions = lambda: session_scope(engine)  # noqa: E731
    with session_scope(engine) as s:
        new = create_game(s, ruleset_id="highcard", name="g1", seed="hash", now=T0,
                          seats={"north": "ann@example.org", "south": "bob@example.org"})
        hand = json.loads(live_step(s, new.game).state_json)["hands"]
    # What a player really sends: a greeting, smart quotes, a comment, a signature after END.
    sent = (f"Hi GM,\n\nGAME g1\nSEAT north\nPASSWORD {new.passwords['north']}\nTURN 1\n"
            f"PLAY {hand['north'][0]}   # my \u201cbest\u201d card\n\nEND\n-- \nAnn\n")
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "ann@example.org", "orders@pbem.test", "orders"
    msg.set_content(sent)
    assert mailflow.receive(sessions, msg.as_bytes(), source="pipe", settings=settings,
                            now=T0).status == "applied"
    mailflow.send_outbox(sessions, settings, now=T0)
    (path,) = (tmp_path / "out" / "new").iterdir()
    echo = email.message_from_bytes(path.read_bytes(), policy=default)
    (att,) = echo.iter_attachments()
    assert att.get_filename() == "g1-step1-north-hashed.txt"
    hashed = att.get_payload(decode=True)
    assert hashed != sent.encode() and hashed.endswith(b"\n")
    digest = hashlib.sha256(hashed).hexdigest()
    body = echo.get_body(("plain",)).get_content()
    assert f"File hash: {digest}" in body
    # The '| ' lines of the mail body are the same text, for a player without attachments.
    shown = "".join(line[2:] + "\n" if line.startswith("| ") else "\n"
                    for line in body.splitlines() if line.startswith("|"))
    assert hashlib.sha256(shown.encode()).hexdigest() == digest
    with session_scope(engine) as s:
        process_turn(s, "g1", now=T0, force=True)
    with session_scope(engine) as s:
        report = render_report(report_context(s, "g1", seat="north"))
        assert f"  north: {digest}" in report
        assert find_game(s, "g1").step == 2
