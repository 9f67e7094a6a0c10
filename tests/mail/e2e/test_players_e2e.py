"""Players' own settings, confirmations they can answer, deadlines in their zone: through
the real outbox and an aiosmtpd relay, under a fake clock (every service takes `now`)."""

from __future__ import annotations

import email
import json
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.policy import default

from clock import T0
from sqlmodel import select

from pbem.config import Settings
from pbem.service import mailflow
from pbem.service.games import create_game, find_game, live_step, seat_row
from pbem.service.orders import orders_on_file
from pbem.service.tick import tick
from pbem.store.db import session_scope
from pbem.store.models import Game, Outbox

ADDR = {"north": "ann@example.org", "south": "bob@example.org", "east": "eve@example.org"}


class Table:
    """One game of High Card by mail: receive, tick and read what the relay got."""

    def __init__(self, engine, sink, tmp_path, *, seats=("north", "south"), now=T0,  # type: ignore[no-untyped-def]
                 settings: dict | None = None) -> None:  # type: ignore[type-arg]
        self.engine, self.sink, self.tmp = engine, sink, tmp_path
        self.settings = Settings(db="unused", address="orders@pbem.test", smtp=sink.url,
                                 maildir=str(tmp_path / "out"), gm="gm@pbem.test")
        with session_scope(engine) as s:
            new = create_game(s, ruleset_id="highcard", name="g1",
                              seats={seat: ADDR[seat] for seat in seats}, seed="players",
                              deadline_hours=48, now=now, settings=settings or {})
            mailflow.queue_reports(s, self.settings, new.game, now=now)
        self.pw = new.passwords
        self.seen = 0

    def sessions(self):  # type: ignore[no-untyped-def]
        return session_scope(self.engine)

    def receive(self, msg: EmailMessage, now: datetime):  # type: ignore[no-untyped-def]
        return mailflow.receive(self.sessions, msg.as_bytes(), source="smtp",
                                settings=self.settings, now=now)

    def tick(self, now: datetime) -> list[str]:
        return tick(self.engine, spool=self.tmp / "spool", now=now, settings=self.settings)

    def new_mail(self, now: datetime) -> list[EmailMessage]:
        """What reached the relay since the last look (the outbox sent first)."""
        mailflow.send_outbox(self.sessions, self.settings, now=now)
        got = [email.message_from_bytes(r.data, policy=default) for r in self.sink.received]
        fresh, self.seen = got[self.seen:], len(got)
        return fresh  # type: ignore[return-value]

    def hand(self, seat: str) -> list[int]:
        with session_scope(self.engine) as s:
            return json.loads(live_step(s, find_game(s, "g1")).state_json)["hands"][seat]

    def orders(self, seat: str, body: str) -> EmailMessage:
        return mail(ADDR[seat], f"GAME g1\nSEAT {seat}\nPASSWORD {self.pw[seat]}\n{body}")

    def play(self, seat: str, now: datetime) -> None:
        r = self.receive(self.orders(seat, f"PLAY {self.hand(seat)[0]}\n"), now)
        assert r.status == "applied", r.reason

    def step(self) -> int:
        with session_scope(self.engine) as s:
            return find_game(s, "g1").step


def mail(sender: str, body: str, *, to: str = "orders@pbem.test") -> EmailMessage:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, to, "my orders"
    msg.set_content(body)
    return msg


def text_of(msg: EmailMessage) -> str:
    part = msg.get_body(("plain",))
    assert part is not None, "no text part"
    return part.get_content()  # type: ignore[no-any-return]


def to(mails: list[EmailMessage], seat: str) -> list[EmailMessage]:
    return [m for m in mails if m["To"] == ADDR[seat]]


def reports(mails: list[EmailMessage], seat: str) -> list[EmailMessage]:
    """Reports and digests (not the answers to the player's own mail)."""
    return [m for m in to(mails, seat) if m["Subject"].startswith("[g1]")]


# --- point 5: confirmations you can answer --------------------------------------------------

def test_a_confirmation_carries_a_reply_address_and_answering_it_needs_no_password(engine, smtp_sink, tmp_path) -> None:  # type: ignore[no-untyped-def]
    t = Table(engine, smtp_sink, tmp_path)
    t.new_mail(T0)
    assert t.receive(t.orders("north", "PLAY 99\n"), T0).status == "refused"  # not in hand
    echo = to(t.new_mail(T0), "north")[0]
    assert echo["Subject"] == "Re: my orders" and echo["Reply-To"].startswith("orders+")
    card = t.hand("north")[0]
    r = t.receive(mail(ADDR["north"], f"PLAY {card}\n", to=echo["Reply-To"]), T0)
    assert r.status == "applied", r.reason
    with session_scope(engine) as s:
        assert orders_on_file(s, live_step(s, find_game(s, "g1")))["north"].body.strip() == \
            f"PLAY {card}"


def test_a_confirmation_to_another_player_does_not_carry_the_holders_reply_address(engine, smtp_sink, tmp_path) -> None:  # type: ignore[no-untyped-def]
    t = Table(engine, smtp_sink, tmp_path)
    t.new_mail(T0)
    card = t.hand("north")[0]
    msg = mail(ADDR["south"], f"GAME g1\nSEAT north\nPASSWORD {t.pw['north']}\nPLAY {card}\n")
    assert t.receive(msg, T0).status == "applied"
    got = t.new_mail(T0)
    assert to(got, "north")[0]["Reply-To"].startswith("orders+")
    assert to(got, "south")[0]["Reply-To"] == "orders@pbem.test"


def test_line_numbers_of_a_reply_are_those_of_the_players_own_text(engine, smtp_sink, tmp_path) -> None:  # type: ignore[no-untyped-def]
    t = Table(engine, smtp_sink, tmp_path)
    report = to(t.new_mail(T0), "north")[0]
    card = t.hand("north")[0]
    body = f"PLAY {card}\nPLAY 99\n\n> PLAY 1 from the old report\n"
    assert t.receive(mail(ADDR["north"], body, to=report["Reply-To"]), T0).status == "applied"
    echo = text_of(to(t.new_mail(T0), "north")[0])
    assert f"line 1: PLAY {card}" in echo and "line 2: PLAY 99" in echo, echo
    assert "line 3" not in echo and "line 4" not in echo


def test_a_damaged_reply_address_gets_its_own_answer(engine, smtp_sink, tmp_path) -> None:  # type: ignore[no-untyped-def]
    t = Table(engine, smtp_sink, tmp_path)
    report = to(t.new_mail(T0), "north")[0]
    local = report["Reply-To"].split("@")[0]
    for damaged in (local[:14], local[:-3] + "180"):  # cut short; letters misread as digits
        r = t.receive(mail(ADDR["north"], "PLAY 3\n", to=f"{damaged}@pbem.test"), T0)
        assert r.status == "refused" and "damaged" in r.reason, r.reason
        answer = text_of(to(t.new_mail(T0), "north")[0])
        assert "reply address is damaged" in answer and "GAME/SEAT" not in answer


def test_an_old_reply_address_says_which_step_is_open(engine, smtp_sink, tmp_path) -> None:  # type: ignore[no-untyped-def]
    t = Table(engine, smtp_sink, tmp_path)
    old = to(t.new_mail(T0), "north")[0]["Reply-To"]
    t.play("north", T0)
    t.play("south", T0)
    t.tick(T0)
    r = t.receive(mail(ADDR["north"], "PLAY 3\n", to=old), T0)
    assert r.reason == ("this reply address was for step 1; step 2 is open: reply to the "
                        "latest report")


# --- point 4: SETTINGS by mail --------------------------------------------------------------

def test_settings_by_mail_change_the_next_report(engine, smtp_sink, tmp_path) -> None:  # type: ignore[no-untyped-def]
    t = Table(engine, smtp_sink, tmp_path)
    t.new_mail(T0)
    r = t.receive(t.orders("north", "SETTINGS zone Europe/Budapest\nSETTINGS format text\n"
                                    "SETTINGS colour blue\n"), T0)
    assert r.status == "applied", r.reason
    echo = text_of(to(t.new_mail(T0), "north")[0])
    assert "line 4: SETTINGS zone Europe/Budapest  -> OK: time zone: Europe/Budapest" in echo
    assert "line 5: SETTINGS format text  -> OK: format: text only" in echo
    assert 'line 6: SETTINGS colour blue  -> REFUSED: unknown setting "colour"' in echo
    # The confirmation shows the deadline in the player's zone: T0 + 48h is 13:00 in Budapest.
    assert ("Deadline of step 1: Sat 2026-01-03 13:00 CET (Europe/Budapest) = 12:00 UTC, "
            "in 2 days") in echo
    later = T0 + timedelta(hours=1, minutes=30)
    t.play("north", later)
    t.play("south", later)
    t.tick(later)
    report = next(m for m in to(t.new_mail(later), "north") if "step 2" in m["Subject"])
    assert report.get_body(("html",)) is None  # text only
    body = text_of(report)
    assert "Deadline: Sat 2026-01-03 14:30 CET (Europe/Budapest) = 13:30 UTC, in 2 days" in body
    assert "-- Your settings: time zone Europe/Budapest; mail: text only" in body
    assert "SETTINGS digest on" in body  # how to change them


def test_settings_by_reply_token_even_when_not_awaited(engine, smtp_sink, tmp_path) -> None:  # type: ignore[no-untyped-def]
    t = Table(engine, smtp_sink, tmp_path)
    t.new_mail(T0)
    t.play("north", T0)
    t.play("south", T0)
    t.tick(T0)
    assert t.step() == 2
    report = next(m for m in to(t.new_mail(T0), "south") if "step 2" in m["Subject"])
    r = t.receive(mail(ADDR["south"], "Please:\nSETTINGS format html\nSETTINGS\n",
                       to=report["Reply-To"]), T0)
    assert r.status == "applied" and r.reason == "settings changed", r.reason
    echo = to(t.new_mail(T0), "south")[0]
    said = echo.get_body(("plain",)).get_content()  # an answer has a text part only
    assert "line 2: SETTINGS format html  -> OK: format: HTML only" in said
    assert "line 3: SETTINGS  -> your settings: time zone UTC (the game's); mail: HTML only" in said
    with session_scope(engine) as s:
        row = seat_row(s, find_game(s, "g1"), "south")
        assert json.loads(row.settings_json) == {"format": "html"}


def test_a_report_in_html_only_and_the_board_attached(engine, smtp_sink, tmp_path) -> None:  # type: ignore[no-untyped-def]
    settings = Settings(db="unused", address="orders@pbem.test", smtp=smtp_sink.url, gm="gm@x")
    with session_scope(engine) as s:
        new = create_game(s, ruleset_id="macht-und-ohnmacht", name="m1", seed="m",
                          seats={"orange": ADDR["north"], "white": ADDR["south"]}, now=T0)
        from pbem.service import players
        players.gm_change(s, new.game, "orange", ["format=html", "attach=board"], now=T0)
        players.gm_change(s, new.game, "white", ["format=text"], now=T0)
        mailflow.queue_reports(s, settings, new.game, now=T0)
    mailflow.send_outbox(lambda: session_scope(engine), settings, now=T0)
    got = [email.message_from_bytes(r.data, policy=default) for r in smtp_sink.received]
    orange, white = to(got, "north")[0], to(got, "south")[0]
    assert orange.get_body(("plain",)) is None and orange.get_body(("html",)) is not None
    assert [p.get_filename() for p in orange.iter_attachments()] == ["m1-step1-board.png"]
    # Text only: the board comes as a file, since no HTML part shows it.
    assert white.get_body(("html",)) is None
    assert [p.get_filename() for p in white.iter_attachments()] == ["m1-step1-board.png"]
    assert "attachments: board picture (the game's defaults)" in text_of(white)


# --- digests and quiet hours under a fake clock ---------------------------------------------

def test_digest_one_mail_a_day_unless_awaited_then_at_once(engine, smtp_sink, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Round 2 of High Card is sequential (north, south, east): east waits two steps."""
    t = Table(engine, smtp_sink, tmp_path, seats=("north", "south", "east"))
    t.new_mail(T0)
    assert t.receive(t.orders("east", "SETTINGS digest on\n"), T0).status == "applied"
    t.new_mail(T0)
    now = T0 + timedelta(hours=1)
    for seat in ("north", "south", "east"):
        t.play(seat, now)
    t.tick(now)
    assert t.step() == 2  # north's turn
    got = t.new_mail(now)
    assert to(got, "north") and to(got, "south") and not reports(got, "east")  # east's is held
    assert not reports(t.new_mail(now), "east")
    # A day after east's last mail (the step-1 report at T0), the digest goes.
    t.tick(T0 + timedelta(hours=23, minutes=59))
    assert not reports(t.new_mail(T0 + timedelta(hours=23, minutes=59)), "east")
    day = T0 + timedelta(days=1)
    t.tick(day)
    digest = reports(t.new_mail(day), "east")
    assert len(digest) == 1 and digest[0]["Subject"] == "[g1] digest: 1 report, up to step 2"
    assert "[g1] step 2: " in text_of(digest[0])
    assert digest[0]["Reply-To"].startswith("orders+")
    # Step 3 (south's turn) is held again: the last mail was just now.
    t.play("north", day + timedelta(hours=1))
    t.tick(day + timedelta(hours=1))
    assert t.step() == 3 and not reports(t.new_mail(day + timedelta(hours=1)), "east")
    # Step 4 asks east: everything held comes at once, in one mail.
    later = day + timedelta(hours=2)
    t.play("south", later)
    t.tick(later)
    assert t.step() == 4
    mails = reports(t.new_mail(later), "east")
    assert [m["Subject"] for m in mails] == ["[g1] digest: 2 reports, up to step 4, your turn"]
    text = text_of(mails[0])
    assert text.index("[g1] step 3: ") < text.index("[g1] step 4: ")
    assert "Reply with your orders" in text
    # Answering the digest sends orders for the open step.
    r = t.receive(mail(ADDR["east"], f"PLAY {t.hand('east')[0]}\n", to=mails[0]["Reply-To"]),
                  later)
    assert r.status == "applied", r.reason
    with session_scope(engine) as s:
        statuses = {row.subject: row.status for row in s.exec(
            select(Outbox).where(Outbox.recipient == ADDR["east"], Outbox.kind == "report"))}
    assert statuses == {"[g1] step 1: Round 1 (sealed)": "sent",
                        **{f"[g1] step {n}: Round 2 (in turn)": "digested" for n in (2, 3, 4)}}


def test_quiet_hours_hold_all_but_the_players_own_turn(engine, smtp_sink, tmp_path) -> None:  # type: ignore[no-untyped-def]
    evening = datetime(2026, 1, 1, 20, 0, tzinfo=UTC)  # 21:00 in Budapest
    t = Table(engine, smtp_sink, tmp_path, seats=("north", "south", "east"), now=evening)
    t.new_mail(evening)
    for seat in ("south", "north"):
        r = t.receive(t.orders(seat, "SETTINGS zone Europe/Budapest\n"
                                     "SETTINGS quiet 22:00-07:00\n"), evening)
        assert r.status == "applied"
    t.new_mail(evening)
    night = datetime(2026, 1, 1, 23, 0, tzinfo=UTC)  # midnight in Budapest
    for seat in ("north", "south", "east"):
        t.play(seat, night)
    got = t.new_mail(night)
    assert to(got, "south") and to(got, "north")  # answers to their own mail: at once
    t.tick(night)
    got = t.new_mail(night)
    assert to(got, "north"), "north's own turn goes at once, quiet or not"
    assert not reports(got, "south") and reports(got, "east")
    assert not reports(t.new_mail(datetime(2026, 1, 2, 5, 59, tzinfo=UTC)), "south")
    morning = datetime(2026, 1, 2, 6, 0, tzinfo=UTC)  # 07:00 in Budapest
    t.tick(morning)
    late = reports(t.new_mail(morning), "south")
    assert [m["Subject"] for m in late] == ["[g1] step 2: Round 2 (in turn)"]


# --- away ------------------------------------------------------------------------------------

def test_away_tells_the_gm_and_the_extend_policy_moves_the_deadline(engine, smtp_sink, tmp_path) -> None:  # type: ignore[no-untyped-def]
    t = Table(engine, smtp_sink, tmp_path, settings={"away_policy": "extend", "hold": False})
    t.new_mail(T0)
    r = t.receive(t.orders("south", "SETTINGS away 2026-01-02 2026-01-05\n"), T0)
    assert r.status == "applied", r.reason
    gm = [m for m in t.new_mail(T0) if m["To"] == "gm@pbem.test"]
    assert len(gm) == 1 and "will be away from 2026-01-02 to 2026-01-05" in text_of(gm[0])
    t.play("north", T0)
    deadline = T0 + timedelta(hours=48)  # 2026-01-03 12:00, while south is away
    lines = t.tick(deadline)
    assert "g1: south is away; deadline of step 1 moved" in lines, lines
    with session_scope(engine) as s:
        game = s.exec(select(Game)).one()
        # The end of 2026-01-05 (UTC) plus the game's extension_hours (24).
        assert game.deadline.replace(tzinfo=UTC) == datetime(2026, 1, 7, 0, 0, tzinfo=UTC)
        assert game.step == 1
    notices = [m for m in t.new_mail(deadline) if "deadline moved" in m["Subject"]]
    assert sorted(m["To"] for m in notices) == sorted([ADDR["north"], ADDR["south"],
                                                        "gm@pbem.test"])
    # Once per step: at the new deadline the NMR ladder goes on.
    assert "away" not in " ".join(t.tick(datetime(2026, 1, 7, 0, 0, tzinfo=UTC)))


def test_an_old_reply_address_with_the_old_report_unquoted_says_which_step_is_open(engine, smtp_sink, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Mail programs that quote without '>' send the old report's order skeleton back
    (its PASSWORD placeholder and TURN line): the player hears about the reply address,
    not about a wrong password or a TURN line they never wrote."""
    t = Table(engine, smtp_sink, tmp_path)
    old = to(t.new_mail(T0), "north")[0]
    t.play("north", T0)
    t.play("south", T0)
    t.tick(T0)
    body = f"PLAY {t.hand('north')[0]}\n\n" + text_of(old)  # no separator line
    r = t.receive(mail(ADDR["north"], body, to=old["Reply-To"]), T0)
    assert r.reason == ("this reply address was for step 1; step 2 is open: reply to the "
                        "latest report"), r.reason
    got = t.new_mail(T0)
    assert not [m for m in got if "wrong password" in m["Subject"]]


def test_a_digest_has_every_report_in_its_html_part_too(engine, smtp_sink, tmp_path) -> None:  # type: ignore[no-untyped-def]
    t = Table(engine, smtp_sink, tmp_path, seats=("north", "south", "east"))
    assert t.receive(t.orders("east", "SETTINGS digest on\n"), T0).status == "applied"
    now = T0 + timedelta(hours=1)
    for seat in ("north", "south", "east"):
        t.play(seat, now)
    t.tick(now)
    t.play("north", now)
    t.tick(now)
    t.play("south", now)
    t.tick(now)
    digest = [m for m in reports(t.new_mail(now), "east") if "digest" in m["Subject"]]
    assert len(digest) == 1
    html = digest[0].get_body(("html",)).get_content()
    assert html.count('<h1 class="digest-item">') == 3
    assert html.index("[g1] step 2: ") < html.index("[g1] step 3: ") < html.index("[g1] step 4: ")


def test_a_player_chooses_their_own_language_by_mail_and_the_gm_for_another(engine, smtp_sink, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from pbem.service import players
    from pbem.service.language import language_of

    t = Table(engine, smtp_sink, tmp_path)  # an English game
    t.new_mail(T0)
    r = t.receive(t.orders("north", "SETTINGS language magyar\nSETTINGS digest maybe\n"), T0)
    assert r.status == "applied", r.reason
    echo = text_of(to(t.new_mail(T0), "north")[0])
    # The answer is in the language just chosen, the refusal too.
    assert "4. sor: SETTINGS language magyar  -> RENDBEN: nyelv: magyar" in echo
    assert "5. sor: SETTINGS digest maybe  -> ELUTASÍTVA: a digest értéke on vagy off" in echo
    assert "A(z) 1. lépés határideje: Szo 2026-01-03 12:00 UTC, 2 nap múlva" in echo
    with session_scope(engine) as s:
        game = find_game(s, "g1")
        assert (language_of(game, "north"), language_of(game, "south")) == ("hu", "en")
        players.gm_change(s, game, "south", ["language=hu"], now=T0)
        players.gm_change(s, game, "south", ["language=default"], now=T0)  # back to the game's
    t.play("north", T0)
    t.play("south", T0)
    t.tick(T0)
    mails = t.new_mail(T0)
    north = next(m for m in to(mails, "north") if m["Subject"].startswith("[g1] 2. lépés"))
    body = text_of(north)
    assert "-- A beállításaid: időzóna: UTC (a játéké)" in body
    assert "nyelv: magyar;" not in body and "nyelv: magyar" in body  # their own, not the game's
    south = next(m for m in to(mails, "south") if "step 2" in m["Subject"])
    assert "language English (the game's)" in text_of(south)
    with session_scope(engine) as s:
        game = find_game(s, "g1")
        assert json.loads(seat_row(s, game, "north").settings_json) == {"language": "hu"}
        assert json.loads(seat_row(s, game, "south").settings_json) == {}
