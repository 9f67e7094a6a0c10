"""Findings (medium): reflection (a refusal went to any Reply-To or From with the
attacker's subject and text), mail loops with auto-responders, no rate limit on password
guesses (and one notice to the owner per guess). Now only registered players and the GM
are answered, at their From address; anyone else gets one short refusal a day that
repeats nothing; answers, senders and passwords are rate-limited."""

from __future__ import annotations

from datetime import timedelta

from attack import body_text, mail, order_text
from clock import T0
from sqlmodel import select

from pbem.store.models import Audit, InboundMessage


def test_no_reflection_to_a_reply_to_and_nothing_of_the_attackers_text_repeated(host) -> None:  # type: ignore[no-untyped-def]
    for n in range(3):
        spam = mail("mallory@evil.example", "BUY CHEAP PILLS at http://spam.example\n",
                    subject="CHEAP PILLS http://spam.example", Reply_To="victim@third.example",
                    message_id=f"<spam{n}@evil.example>")
        assert host.receive(spam).status == "refused"
    assert not host.outbox(recipient="victim@third.example")
    refusals = host.outbox(recipient="mallory@evil.example")
    assert len(refusals) == 1 and refusals[0].kind == "refusal"
    assert b"CHEAP" not in refusals[0].raw and b"spam.example" not in refusals[0].raw
    assert "not the address of a player" in body_text(refusals[0])
    later = mail("mallory@evil.example", "again\n", message_id="<spam-next-day@evil.example>")
    host.receive(later, now=T0 + timedelta(days=1))
    assert len(host.outbox(recipient="mallory@evil.example")) == 2  # one a day


def test_an_auto_responder_without_auto_submitted_does_not_loop(host) -> None:  # type: ignore[no-untyped-def]
    # A stranger's responder answers every mail it gets; we answer it at most once a day.
    for n in range(50):
        host.receive(mail("robot@elsewhere.example", "I am away until Monday.\n",
                          subject="Re: pbem: your mail was not read",
                          message_id=f"<away{n}@elsewhere.example>"),
                     now=T0 + timedelta(minutes=n))
    assert len(host.outbox(recipient="robot@elsewhere.example")) == 1


def test_a_registered_players_auto_responder_is_cut_off_and_the_gm_told(host) -> None:  # type: ignore[no-untyped-def]
    for n in range(50):
        host.receive(mail("ann@example.org", "I am away until Monday.\n", subject="Re: [g1]",
                          message_id=f"<ann-away{n}@example.org>"),
                     now=T0 + timedelta(seconds=20 * n))
    from pbem.service import limits

    answers = host.outbox(recipient="ann@example.org", kind="echo")
    assert len(answers) == limits.ANSWERS_PER_HOUR
    gm = [o for o in host.outbox(recipient="gm@pbem.test") if "stopped answering" in o.subject]
    assert len(gm) == 1


def test_a_hundred_password_guesses_are_cut_short_and_told_once(host) -> None:  # type: ignore[no-untyped-def]
    card = host.hand("north")[0]
    for n in range(100):
        guess = mail("mallory@evil.example",
                     order_text(host, "north", f"PLAY {card}\n", password=f"guess{n}"),
                     message_id=f"<guess{n}@evil.example>")
        host.receive(guess, now=T0 + timedelta(seconds=n / 20))
    from pbem.service import limits

    with host.sessions() as s:
        checked = list(s.exec(select(Audit).where(Audit.action == "wrong-password")))
        statuses = [r.status for r in s.exec(select(InboundMessage))]
    assert len(checked) == limits.WRONG_PASSWORDS_PER_DAY
    assert statuses.count("throttled") == 100 - limits.SENDER_PER_HOUR
    host.tick(T0 + timedelta(minutes=1))
    notices = [o for o in host.outbox(recipient="ann@example.org") if "wrong password" in o.subject]
    assert len(notices) == 1  # one digest this step
    told = host.outbox(recipient="mallory@evil.example")  # the one short refusal a day
    assert len(told) == 1 and told[0].kind == "refusal"
    assert not any("wal" in line for line in host.lines)
    # The real player: the password is locked for now, the reply address still works.
    r = host.receive(mail("ann@example.org", order_text(host, "north", f"PLAY {card}\n"),
                          message_id="<real@example.org>"))
    assert r.status == "refused" and "too many wrong passwords" in r.reason
    r = host.receive(mail("ann@example.org", f"PLAY {card}\n", to=host.reply_to("ann@example.org")))
    assert r.status == "applied"


def test_the_next_steps_digest_lists_the_attempts_after_the_first(host) -> None:  # type: ignore[no-untyped-def]
    card = host.hand("north")[0]
    for n in range(3):
        host.receive(mail(f"guesser{n}@evil.example",
                          order_text(host, "north", f"PLAY {card}\n", password="nope")))
    host.tick()
    first = [o for o in host.outbox(recipient="ann@example.org") if "wrong password" in o.subject]
    assert len(first) == 1 and "1 order file(s)" in first[0].subject
    from pbem.service.turns import process_turn

    with host.sessions() as s:
        process_turn(s, "g1", now=T0, force=True)
    host.tick()
    notices = [o for o in host.outbox(recipient="ann@example.org") if "wrong password" in o.subject]
    assert len(notices) == 2 and "2 order file(s)" in notices[1].subject
    assert "guesser1@evil.example (1), guesser2@evil.example (1)" in body_text(notices[1])
