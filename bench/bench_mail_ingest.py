"""Benchmark (not a test): mail ingest of 10,000 order mails.

Measures ``read_message`` + ``parse_envelope`` on every candidate order file, against a
baseline measured in the same run: the stdlib ``email.message_from_bytes`` plus one sqlite3
INSERT (and commit, as storing a raw mail before parsing it needs) per mail into a WAL-mode
database file. Prints both rates and the ratio ours / baseline (lower is better; 1.0 means
reading and classifying costs as much as the bare parse-and-store).

    python bench/bench_mail_ingest.py [--mails 10000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import base64
import email
import sqlite3
import tempfile
import time
from pathlib import Path

from pbem.core.envelope import parse_envelope
from pbem.mail.inbound import read_message

SEATS = ["hungary", "austria", "croatia", "serbia", "slovakia", "poland"]


def make_mails(n: int) -> list[bytes]:
    """A realistic mix: plain UTF-8, latin-2 quoted-printable, multipart/alternative, an
    attached order file, a quoted reply. Deterministic."""
    out: list[bytes] = []
    for i in range(n):
        seat = SEATS[i % len(SEATS)]
        orders = (f"GAME gomor-1848\nSEAT {seat}\nPASSWORD pw{i}\nTURN {i % 40}\n"
                  + "".join(f"move army{k} Kassa Gömör\n" for k in range(8)) + "END\n")
        head = (f"From: Player {i} <p{i}@example.org>\r\nTo: orders@pbem.test\r\n"
                f"Subject: orders {i}\r\nMessage-ID: <bench-{i}@example.org>\r\n"
                "Date: Sun, 01 Mar 2026 12:00:00 +0100\r\nMIME-Version: 1.0\r\n")
        shape = i % 5
        if shape == 0:
            body = ("Content-Type: text/plain; charset=utf-8\r\n\r\n"
                    + orders.replace("\n", "\r\n"))
        elif shape == 1:
            import quopri
            qp = quopri.encodestring(orders.replace("ö", "o").encode("iso-8859-2")).decode()
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
                    'Content-Disposition: attachment; filename="orders.txt"\r\n\r\n'
                    + att + "--m--\r\n")
        else:
            quoted = "".join(f"> {line}\r\n" for line in orders.split("\n") * 3)
            body = ("Content-Type: text/plain; charset=utf-8\r\n\r\n" + orders.replace(
                "\n", "\r\n") + "\r\nOn Sun, 1 Mar 2026, PBEM wrote:\r\n" + quoted
                + "-- \r\nPlayer\r\n")
        out.append((head + body).encode("utf-8"))
    return out


def run_ours(mails: list[bytes]) -> float:
    start = time.perf_counter()
    found = 0
    for raw in mails:
        mail = read_message(raw)
        for text in mail.order_texts:
            if parse_envelope(text).game:
                found += 1
                break
    elapsed = time.perf_counter() - start
    assert found == len(mails), f"only {found} of {len(mails)} order files found"
    return elapsed


def run_baseline(mails: list[bytes], db: Path) -> float:
    con = sqlite3.connect(db)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=NORMAL")
    con.execute("CREATE TABLE IF NOT EXISTS raw (id INTEGER PRIMARY KEY, message_id TEXT, "
                "data BLOB)")
    con.commit()
    start = time.perf_counter()
    for raw in mails:
        msg = email.message_from_bytes(raw)
        con.execute("INSERT INTO raw (message_id, data) VALUES (?, ?)",
                    (msg["Message-ID"], raw))
        con.commit()
    elapsed = time.perf_counter() - start
    con.close()
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mails", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs of each")
    args = parser.parse_args()
    mails = make_mails(args.mails)
    size = sum(map(len, mails))
    print(f"{len(mails)} mails, {size / 1e6:.1f} MB")
    ours: list[float] = []
    base: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(args.repeat):  # interleaved, so drift hits both alike
            base.append(run_baseline(mails, Path(tmp) / f"bench{n}.sqlite"))
            ours.append(run_ours(mails))
    o, b = min(ours), min(base)
    print(f"read_message + parse_envelope: {o:.2f} s ({len(mails) / o:,.0f} mails/s)")
    print(f"stdlib parse + sqlite insert:  {b:.2f} s ({len(mails) / b:,.0f} mails/s)")
    print(f"ratio ours / baseline: {o / b:.2f}")


if __name__ == "__main__":
    main()
