"""(e) Mail ingest, the real path, against a raw floor measured in the same run.

    python bench/bench_mail_ingest.py [--token-mails 500] [--password-mails 150] [--repeat 3]

Real: `mailflow.receive` of order mails for open Helios games: the raw mail stored, read,
the orders checked against the game (with the seat's password, PBKDF2, or with the reply
token of its last report) and stored, the echo composed and queued; one transaction to
store and one to apply, as live. Mixed shapes: plain UTF-8, latin-2 quoted-printable,
multipart/alternative, an attached order file, a quoted reply.
Also: reading and finding the order file only (`read_message` + `parse_envelope`, what
this benchmark measured before).
Floor: the stdlib `email.message_from_bytes` plus one sqlite3 INSERT and commit a mail.
Times are CPU seconds of this process (SQLite runs in it): on a shared machine wall time
measures the other processes too.
"""

from __future__ import annotations

import argparse
import base64
import email
import json
import quopri
import random
import sqlite3
import tempfile
import time
from email.parser import HeaderParser
from pathlib import Path

from common import T0, clone_games, fresh, median
from sqlmodel import select

from pbem.config import Settings
from pbem.core.envelope import parse_envelope
from pbem.mail.inbound import read_message
from pbem.rulesets import get
from pbem.service import mailflow
from pbem.service.games import create_game, find_game, live_step
from pbem.store.db import session_scope
from pbem.store.models import Outbox

SEATS = ("north", "east")
PER_SEAT = 10  # mails a seat sends in one step (the cap is 20)


def shaped(i: int, sender: str, to: str, subject: str, orders: str) -> bytes:
    """One mail in one of five shapes; deterministic."""
    head = (f"From: Player <{sender}>\r\nTo: {to}\r\nSubject: {subject}\r\n"
            f"Message-ID: <ingest-{i}-{random.random()}@example.org>\r\n"
            "Date: Sun, 01 Mar 2026 12:00:00 +0100\r\nMIME-Version: 1.0\r\n")
    shape = i % 5
    if shape == 0:
        body = "Content-Type: text/plain; charset=utf-8\r\n\r\n" + orders.replace("\n", "\r\n")
    elif shape == 1:
        qp = quopri.encodestring(orders.encode("iso-8859-2")).decode()
        body = ("Content-Type: text/plain; charset=iso-8859-2\r\n"
                "Content-Transfer-Encoding: quoted-printable\r\n\r\n" + qp)
    elif shape == 2:
        html = "<br>".join(orders.split("\n"))
        body = ('Content-Type: multipart/alternative; boundary="b"\r\n\r\n--b\r\n'
                "Content-Type: text/plain; charset=utf-8\r\n\r\n" + orders
                + "\r\n--b\r\nContent-Type: text/html; charset=utf-8\r\n\r\n"
                + f"<html><body>{html}</body></html>\r\n--b--\r\n")
    elif shape == 3:
        att = base64.encodebytes(orders.encode()).decode()
        body = ('Content-Type: multipart/mixed; boundary="m"\r\n\r\n--m\r\n'
                "Content-Type: text/plain\r\n\r\nOrders attached.\r\n--m\r\n"
                'Content-Type: text/plain; charset=utf-8; name="orders.txt"\r\n'
                "Content-Transfer-Encoding: base64\r\n"
                'Content-Disposition: attachment; filename="orders.txt"\r\n\r\n' + att + "--m--\r\n")
    else:
        quoted = "".join(f"> {line}\r\n" for line in orders.split("\n") * 3)
        body = ("Content-Type: text/plain; charset=utf-8\r\n\r\n" + orders.replace("\n", "\r\n")
                + "\r\nOn Sun, 1 Mar 2026, PBEM wrote:\r\n" + quoted + "-- \r\nPlayer\r\n")
    return (head + body).encode("utf-8")


def make_mails(engine, settings: Settings, games: list[str], count: int, *,
               passwords: dict[str, str] | None) -> list[bytes]:  # type: ignore[no-untyped-def]
    """`count` order mails for these games: with the seats' passwords, or (None) to the
    reply-token address of each seat's last report."""
    ruleset = get("helios")
    rng = random.Random(5)
    mails: list[bytes] = []
    with session_scope(engine) as s:
        for name in games:
            game = find_game(s, name)
            state = ruleset.load(json.loads(live_step(s, game).state_json))
            for seat in SEATS:
                lines = "".join(f"{x}\n" for x in ruleset.legal_orders(state, seat, rng))
                if passwords is None:
                    row = s.exec(select(Outbox).where(Outbox.game_id == game.id,
                                                      Outbox.seat == seat,
                                                      Outbox.kind == "report")).first()
                    to = HeaderParser().parsestr(row.headers + "\n\n")["Reply-To"]
                    orders = lines
                else:
                    to = settings.address
                    orders = (f"GAME {name}\nSEAT {seat}\nPASSWORD {passwords[seat]}\n{lines}"
                              "END\n")
                for _ in range(PER_SEAT):
                    mails.append(shaped(len(mails), f"{seat}@{name}.example", to,
                                        "Re: my orders", orders))
                    if len(mails) == count:
                        return mails
    return mails


def real(engine, settings: Settings, mails: list[bytes]) -> float:  # type: ignore[no-untyped-def]
    sessions = lambda: session_scope(engine)  # noqa: E731
    t0 = time.process_time()
    for raw in mails:
        r = mailflow.receive(sessions, raw, source="pipe", settings=settings, now=T0)
        assert r.status == "applied", (r.status, r.reason)
    return time.process_time() - t0


def parse_only(mails: list[bytes]) -> float:
    t0 = time.process_time()
    for raw in mails:
        mail = read_message(raw)
        assert mail.order_texts and [parse_envelope(t) for t in mail.order_texts]
    return time.process_time() - t0


def floor(mails: list[bytes], db: Path) -> float:
    con = sqlite3.connect(db)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=NORMAL")
    con.execute("CREATE TABLE IF NOT EXISTS raw (id INTEGER PRIMARY KEY, message_id TEXT, data BLOB)")
    con.commit()
    t0 = time.process_time()
    for raw in mails:
        msg = email.message_from_bytes(raw)
        con.execute("INSERT INTO raw (message_id, data) VALUES (?, ?)", (msg["Message-ID"], raw))
        con.commit()
    elapsed = time.process_time() - t0
    con.close()
    return elapsed


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--token-mails", type=int, default=500)
    ap.add_argument("--password-mails", type=int, default=150)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        engine = fresh(tmp / "ingest.sqlite")
        settings = Settings(address="orders@pbem.test", maildir=str(tmp / "mail"))
        with session_scope(engine) as s:
            pw = create_game(s, ruleset_id="helios", name="src", seed="ingest", now=T0,
                             seats={seat: f"{seat}@src.example" for seat in SEATS}).passwords
        per_game = 2 * PER_SEAT
        plan = []
        for r in range(args.repeat):
            tok = clone_games(engine, "src", -(-args.token_mails // per_game), prefix=f"t{r}-")
            pas = clone_games(engine, "src", -(-args.password_mails // per_game), prefix=f"p{r}-")
            with session_scope(engine) as s:
                for name in tok:
                    mailflow.queue_reports(s, settings, find_game(s, name), now=T0)
            # the copies keep the source's seats: north's password is north's in every copy
            plan.append((make_mails(engine, settings, tok, args.token_mails, passwords=None),
                         make_mails(engine, settings, pas, args.password_mails, passwords=pw)))
        runs: dict[str, list[float]] = {"token": [], "password": [], "parse": [], "floor": []}
        for r, (token_mails, password_mails) in enumerate(plan):
            runs["floor"].append(floor(token_mails, tmp / f"floor{r}.sqlite"))
            runs["token"].append(real(engine, settings, token_mails))
            runs["password"].append(real(engine, settings, password_mails))
            runs["parse"].append(parse_only(token_mails))
        engine.dispose()
    t, p = median(runs["token"]) / args.token_mails, median(runs["password"]) / args.password_mails
    q, f = median(runs["parse"]) / args.token_mails, median(runs["floor"]) / args.token_mails
    print(f"(e) mail ingest: with a reply token {1 / t:,.0f} mails/s ({t * 1000:.1f} ms a mail, "
          f"ratio {t / f:.0f}); with a password {1 / p:,.0f} mails/s ({p * 1000:.1f} ms, ratio "
          f"{p / f:.0f}); reading and finding the orders only {1 / q:,.0f} mails/s (ratio "
          f"{q / f:.1f}); floor: stdlib parse + one insert and commit {1 / f:,.0f} mails/s "
          f"({f * 1000:.2f} ms)")


if __name__ == "__main__":
    main()
