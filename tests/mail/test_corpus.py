"""The hostile-mail corpus: every file is read without a crash, classified as its name and
the expectations table say, never answered when it must not be, and its order file found.

Regenerate the generated part with ``python tests/mail/make_corpus.py``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pbem.core.envelope import parse_envelope
from pbem.mail.inbound import KINDS, read_message, should_reply

CORPUS = Path(__file__).parent / "corpus"
TABLE: dict[str, dict] = json.loads((CORPUS / "expectations.json").read_text())
OWN = ("orders@pbem.test", "PBEM <orders@pbem.test>")
FILES = sorted(p.relative_to(CORPUS).as_posix() for p in CORPUS.rglob("*.eml"))


def test_corpus_is_big_enough_and_fully_expected():
    assert len(FILES) >= 100
    assert set(FILES) == set(TABLE), "every .eml has an expectation and vice versa"
    kinds = {TABLE[f]["kind"] for f in FILES}
    assert kinds == set(KINDS)


@pytest.mark.parametrize("name", FILES)
def test_corpus_file(name: str) -> None:
    expect = TABLE[name]
    raw = (CORPUS / name).read_bytes()
    mail = read_message(raw, max_bytes=expect.get("max_bytes", 2_000_000))

    assert Path(name).name.split("__", 1)[0] == expect["kind"]
    assert mail.kind == expect["kind"], mail.reason
    assert should_reply(mail, own_addresses=OWN) is expect["reply"]
    if mail.kind in ("bounce", "autoreply"):
        assert not should_reply(mail)
    assert mail.message_id.startswith("<") and mail.message_id.endswith(">")
    for value in (mail.subject, mail.sender or "", mail.reply_to or "", *mail.to):
        assert "\n" not in value and "\r" not in value
    if "message_id" in expect:
        assert mail.message_id == expect["message_id"]
    if expect.get("synthesised_id"):
        assert mail.message_id_synthesised
    for key in ("bounce_of", "bounced_recipient", "token", "sender"):
        if key in expect:
            assert getattr(mail, key) == expect[key], key
    if "body_has" in expect:
        assert any(expect["body_has"] in t for t in mail.order_texts), mail.order_texts
    if "body_lacks" in expect:  # a quoted original must not become orders
        assert not any(expect["body_lacks"] in t for t in mail.order_texts), mail.order_texts
    if "subject_has" in expect:
        assert expect["subject_has"] in mail.subject
    if mail.kind != "orders":
        assert mail.order_texts == ()
        return
    envelopes = [parse_envelope(t) for t in mail.order_texts]
    found = next((e for e in envelopes if e.game), None)
    if "game" in expect and expect["game"] is None:
        return  # best effort only: the file is too broken to promise anything
    if "game" in expect or "game_re" in expect:
        assert found is not None, mail.order_texts
        if "game" in expect:
            assert found.game == expect["game"]
        else:  # undeclared or unknown charset: only the ASCII letters are sure
            assert re.match(expect["game_re"], found.game), found.game
        assert found.seat == expect["seat"]
