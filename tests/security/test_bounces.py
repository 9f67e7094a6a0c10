"""Finding (high): forged bounces bought deadline extensions (each forged DSN naming a
report's predictable Message-ID added one, plus a GM notice each). Now only a bounce that
names a mail we sent counts (outbox Message-IDs carry a MAC), a seat gets at most one
bounce-granted extension per step, and the GM hears of bounces once per tick."""

from __future__ import annotations

from datetime import timedelta
from email.message import EmailMessage

from attack import mail, order_text
from clock import T0

from pbem.mail.outbound import make_message_id


def dsn(report_id: str | None, recipient: str = "bob@example.org") -> EmailMessage:
    bounce = EmailMessage()
    bounce["From"] = "MAILER-DAEMON@mx.example.org"
    bounce["To"] = "orders@pbem.test"
    bounce["Subject"] = "Undelivered Mail Returned to Sender"
    bounce.set_content(f"This is the mail system. Your message could not be delivered.\n"
                       f"<{recipient}>: mailbox full\n")
    original = EmailMessage()
    if report_id:
        original["Message-ID"] = report_id
    original["To"] = recipient
    original.set_content("report")
    bounce.add_attachment(original)
    bounce["X-Failed-Recipients"] = recipient
    return bounce


def extensions(host) -> list[str]:  # type: ignore[no-untyped-def]
    return [line for line in host.lines if "deadline extended" in line]


def miss_deadlines(host, times: int) -> None:  # type: ignore[no-untyped-def]
    """Ann sends orders; Bob never does; the clock runs past deadline after deadline."""
    card = host.hand("north")[0]
    assert host.receive(mail("ann@example.org", order_text(host, "north", f"PLAY {card}\n"))
                        ).status == "applied"
    now = T0
    for _ in range(times):
        game = host.game()
        if game.step != 1:
            break
        now = (game.deadline or now) + timedelta(minutes=1)
        host.tick(now)


def test_forged_bounces_naming_a_guessable_report_id_count_for_nothing(host) -> None:  # type: ignore[no-untyped-def]
    guessed = make_message_id("pbem.test", "report", "g1", 0, 1, "south", 2)  # the old scheme
    for n in range(5):
        forged = dsn(guessed if n % 2 else None)
        forged["Message-ID"] = f"<forged{n}@mx.example.org>"
        r = host.receive(forged)
        assert r.status == "ignored"
    assert host.seat("south").bounces == 0
    miss_deadlines(host, 5)
    assert len(extensions(host)) == 1  # the one ordinary extension, nothing bought
    assert host.game().step == 2


def test_real_bounces_give_one_extension_per_step_and_one_gm_notice_per_tick(host) -> None:  # type: ignore[no-untyped-def]
    report = [o for o in host.outbox(recipient="bob@example.org") if o.kind == "report"][0]
    for n in range(5):
        bounce = dsn(report.message_id)
        bounce.replace_header("Subject", f"Undelivered Mail Returned to Sender ({n})")
        assert host.receive(bounce).status == "ignored"
    assert host.seat("south").bounces == 5
    host.tick()
    notices = [o for o in host.outbox(recipient="gm@pbem.test") if "bounced" in o.subject]
    assert len(notices) == 1 and "5 mail(s) bounced" in notices[0].subject
    miss_deadlines(host, 6)
    assert len(extensions(host)) == 2  # the ordinary one and one for the bounced step
    assert host.game().step == 2
