"""Finding (high): a reply token was a permanent credential of the seat, not of a step and
a person; a token submission was confirmed to the sender only. Now the token's MAC covers
game, seat, the holder's own secret, step and generation; it is good for its step only
(a TURN line cannot move it); replacing a seat or `gm rotate-token` voids the old ones; the
seat's registered address hears of every token submission. Passwords rotate with the seat.
"""

from __future__ import annotations

from attack import body_text, mail, order_text
from clock import T0
from typer.testing import CliRunner

from pbem.cli.app import app
from pbem.service import gm, mailflow
from pbem.service.games import check_password, find_game, hash_password
from pbem.service.turns import process_turn


def advance(host, steps: int) -> None:  # type: ignore[no-untyped-def]
    with host.sessions() as s:
        for _ in range(steps):
            process_turn(s, "g1", now=T0, force=True)
        mailflow.queue_reports(s, host.settings, find_game(s, "g1"), now=T0)


def reply(host, sender: str, to: str, body: str):  # type: ignore[no-untyped-def]
    return host.receive(mail(sender, body, to=to))


def test_the_welcome_token_with_a_turn_line_cannot_order_a_later_step(host) -> None:  # type: ignore[no-untyped-def]
    welcome_token_address = host.reply_to("ann@example.org", step=1)
    advance(host, 2)
    assert host.game().step == 3
    card = host.hand("north")[0]
    r = reply(host, "ann@example.org", welcome_token_address, f"TURN 3\nPLAY {card}\n")
    assert r.status == "refused"
    assert r.reason == "this reply address was for step 1; step 3 is open: reply to the latest report"


def test_a_turn_line_that_differs_from_the_tokens_step_is_refused(host) -> None:  # type: ignore[no-untyped-def]
    address = host.reply_to("ann@example.org", step=1)
    r = reply(host, "ann@example.org", address, f"TURN 2\nPLAY {host.hand('north')[0]}\n")
    assert r.status == "refused" and "for step 1 only" in r.reason


def test_an_old_steps_token_gets_a_one_line_answer(host) -> None:  # type: ignore[no-untyped-def]
    old = host.reply_to("ann@example.org", step=1)
    advance(host, 2)
    r = reply(host, "ann@example.org", old, f"PLAY {host.hand('north')[0]}\n")
    assert r.reason == "this reply address was for step 1; step 3 is open: reply to the latest report"
    echo = host.outbox(recipient="ann@example.org", kind="echo")[-1]
    assert "step 3 is open: reply to the latest report" in body_text(echo)
    current = host.reply_to("ann@example.org", step=3)
    assert reply(host, "ann@example.org", current, f"PLAY {host.hand('north')[0]}\n").status \
        == "applied"


def test_a_token_dies_with_a_rollback(host) -> None:  # type: ignore[no-untyped-def]
    advance(host, 1)
    before = host.reply_to("ann@example.org", step=2)
    with host.sessions() as s:
        process_turn(s, "g1", now=T0, force=True)
        gm.rollback(s, "g1", 2, now=T0)
    r = reply(host, "ann@example.org", before, f"PLAY {host.hand('north')[0]}\n")
    assert r.status == "refused" and "before the GM rolled g1 back" in r.reason


def test_replacing_a_seat_voids_the_old_players_token_and_password(host) -> None:  # type: ignore[no-untyped-def]
    old_token = host.reply_to("ann@example.org", step=1)
    old_password = host.passwords["north"]
    with host.sessions() as s:
        password = gm.replace_seat(s, "g1", "north", "cid@example.org", now=T0)
        game = find_game(s, "g1")
        mailflow.queue_welcome(s, host.settings, game, {"north": password}, now=T0)
    card = host.hand("north")[0]
    r = reply(host, "ann@example.org", old_token, f"PLAY {card}\n")
    assert r.status == "refused" and "previous player of north" in r.reason
    r = host.receive(mail("ann@example.org", order_text(host, "north", f"PLAY {card}\n",
                                                        password=old_password)))
    assert r.status == "refused" and "wrong password" in r.reason
    welcome = [o for o in host.outbox(recipient="cid@example.org") if o.kind == "welcome"]
    assert len(welcome) == 1 and password.encode() in welcome[0].raw
    new_token = host.reply_to("cid@example.org", step=1)
    assert new_token != old_token
    assert reply(host, "cid@example.org", new_token, f"PLAY {card}\n").status == "applied"


def test_gm_rotate_token_voids_every_reply_address_and_mails_a_new_one(host, db_url) -> None:  # type: ignore[no-untyped-def]
    old = host.reply_to("ann@example.org", step=1)
    result = CliRunner().invoke(app, ["--db", db_url, "gm", "rotate-token", "g1", "north"])
    assert result.exit_code == 0, result.output
    assert "reply addresses renewed" in result.output
    card = host.hand("north")[0]
    assert reply(host, "ann@example.org", old, f"PLAY {card}\n").status == "refused"
    renewed = [o for o in host.outbox(recipient="ann@example.org") if "renewed" in o.subject]
    assert len(renewed) == 1
    import email
    from email.policy import default

    new = str(email.message_from_bytes(renewed[0].raw, policy=default)["Reply-To"])
    assert reply(host, "ann@example.org", new, f"PLAY {card}\n").status == "applied"


def test_a_token_submission_is_told_to_the_seats_registered_address(host) -> None:  # type: ignore[no-untyped-def]
    address = host.reply_to("ann@example.org", step=1)
    card = host.hand("north")[0]
    r = reply(host, "someone@elsewhere.example", address, f"PLAY {card}\n")
    assert r.status == "applied"
    told = [o for o in host.outbox(recipient="ann@example.org", kind="echo")]
    assert len(told) == 1
    assert "someone@elsewhere.example" in body_text(told[0])
    assert "answering a report" in body_text(told[0])
    assert not host.outbox(recipient="someone@elsewhere.example")


def test_prose_before_the_orders_of_a_token_reply_is_ignored_and_named(host) -> None:  # type: ignore[no-untyped-def]
    address = host.reply_to("ann@example.org", step=1)
    card = host.hand("north")[0]
    r = reply(host, "ann@example.org", address,
              f"Here is my move\nsee you soon\n\nPLAY {card}\n\n> old report\n")
    assert r.status == "applied" and r.reason == "orders accepted"
    echo = host.outbox(recipient="ann@example.org", kind="echo")[-1]
    text = body_text(echo)
    assert 'ignored, before your first order line: "Here is my move", "see you soon"' in text
    assert "ERROR" not in text and "unknown" not in text.lower()


def test_old_pbkdf2_hashes_still_check_and_new_ones_are_scrypt() -> None:
    import hashlib

    salt = bytes(16)
    dk = hashlib.pbkdf2_hmac("sha256", b"hunter2", salt, 120_000)
    old = f"pbkdf2_sha256$120000${salt.hex()}${dk.hex()}"
    assert check_password("hunter2", old) and not check_password("hunter3", old)
    new = hash_password("hunter2")
    assert new.startswith("scrypt$16384$8$1$")
    assert check_password("hunter2", new) and not check_password("hunter3", new)
    assert not check_password("x", "garbage") and not check_password("x", "scrypt$1$2$3$zz$yy")


def test_the_migration_gives_every_existing_seat_its_own_token_secret(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from sqlalchemy import text

    from pbem.store.db import connect, migrate

    engine = connect(f"sqlite:///{tmp_path / 'old.sqlite'}")
    migrate(engine, "0001")
    with engine.begin() as conn:
        conn.execute(text(
            "INSERT INTO game (id, name, ruleset, variant, config_json, master_seed, "
            "token_secret, status, step, generation, settings_json, created_at) VALUES "
            "(1, 'old', 'highcard', 'standard', '{}', '00', '00', 'open', 1, 0, '{}', "
            "'2026-01-01 00:00:00')"))
        for n in (1, 2):
            conn.execute(text(
                "INSERT INTO seat (id, game_id, seat, email, password_hash, active, joined_at, "
                f"bounces) VALUES ({n}, 1, 's{n}', 'p{n}@x.org', 'h', 1, '2026-01-01', 0)"))
    migrate(engine)
    with engine.connect() as conn:
        secrets = [r[0] for r in conn.execute(text("SELECT holder_secret FROM seat"))]
    assert len(set(secrets)) == 2 and all(len(s) == 32 for s in secrets)
    engine.dispose()
