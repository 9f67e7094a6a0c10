"""Done when: a hostile corpus of at least 300 mails through the real receive -> tick path
gives 0 crashes, and the host keeps processing steps and sending mail."""

from __future__ import annotations

from datetime import timedelta

from attack import mail, order_text
from clock import T0
from hostile import corpus
from sqlmodel import select

from pbem.store.models import InboundMessage

ALLOWED = {"applied", "refused", "ignored", "throttled", "duplicate"}


def test_the_hostile_corpus_crashes_nothing_and_the_host_plays_on(host) -> None:  # type: ignore[no-untyped-def]
    mails = corpus(host.passwords)
    assert len(mails) >= 300
    statuses: dict[str, int] = {}
    for n, raw in enumerate(mails):
        # spread over hours, as mail arrives: the per-sender limit is not what stops them
        r = host.receive(raw, now=T0 + timedelta(minutes=3 * n))
        statuses[r.status] = statuses.get(r.status, 0) + 1
        assert r.status in ALLOWED, (n, r, raw[:300])
    lines = host.tick(T0 + timedelta(hours=22))
    assert not [line for line in lines if "internal error" in line], lines
    with host.sessions() as s:
        left = {r.status for r in s.exec(select(InboundMessage))}
    assert left <= ALLOWED - {"duplicate"}
    # The host goes on: real orders are applied (the corpus guessed north's password often
    # enough to lock it, so north answers its report), the step is processed, mail goes out.
    now = T0 + timedelta(hours=23)
    card = host.hand("north")[0]
    r = host.receive(mail("ann@example.org", f"Here you go\nPLAY {card}\n",
                          to=host.reply_to("ann@example.org")), now=now)
    assert r.status == "applied", r
    card = host.hand("south")[0]
    r = host.receive(mail("bob@example.org", order_text(host, "south", f"PLAY {card}\n"),
                          message_id="<real-south@example.org>"), now=now)
    assert r.status == "applied", r
    lines = host.tick(now)
    assert "g1: step 1 processed (all orders in)" in lines
    assert any(line.startswith("outbox: ") and "0 failed" in line for line in lines)
    sent = [o for o in host.outbox() if o.status == "sent"]
    assert {o.recipient for o in sent if o.kind == "report"} == {"ann@example.org",
                                                                 "bob@example.org"}
    # Nobody outside the game, the GM and the senders themselves was ever written to.
    senders = {r.sender for r in _rows(host) if r.sender}
    for o in host.outbox():
        assert o.recipient in {"ann@example.org", "bob@example.org", "gm@pbem.test"} \
            or (o.kind == "refusal" and o.recipient in senders), o.recipient
    print(statuses)


def _rows(host) -> list[InboundMessage]:  # type: ignore[no-untyped-def]
    with host.sessions() as s:
        return list(s.exec(select(InboundMessage)))
