"""A hostile corpus, made on the fly and the same every time: the mail corpus of
tests/mail/corpus plus mails built to hit every door of the host (tokens, envelope,
headers, MIME, sizes, encodings) aimed at the live game "g1" of tests/support/attack.py.
"""

from __future__ import annotations

import base64
import random
from collections.abc import Iterator
from pathlib import Path

CORPUS = Path(__file__).resolve().parent.parent / "mail" / "corpus"
B32 = "abcdefghijklmnopqrstuvwxyz234567"


def b32(data: bytes) -> str:
    return base64.b32encode(data).decode().rstrip("=").lower()


def varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def poison_tokens(rng: random.Random) -> list[str]:
    """Tokens of every shape an attacker might try."""
    tokens = [b32(b"\0" * 5 + f"{gid}\0north\0{step}".encode())  # the old shape
              for gid in ("1", str(2**64), str(2**70), "1²", "٣", "-1", "0" * 30, "1e9", " 1")
              for step in ("1", "99999999999999999999")]
    for holder, step, gen in ((1, 1, 0), (2**62, 1, 0), (2**53, 2**53, 2**53), (0, 0, 0),
                              (10**15, 1, 0), (1, 2**63, 0), (1, 1, 2**63)):
        tokens.append(b32(bytes([2]) + varint(holder) + varint(step) + varint(gen) + b"\0" * 8))
    tokens.append(b32(bytes([2]) + b"\xff" * 12 + b"\0" * 8))  # an endless varint
    tokens.append(b32(bytes([2]) + b"\x81\x00\x01\x00" + b"\0" * 8))  # an overlong one
    tokens += ["".join(rng.choice(B32) for _ in range(rng.randint(12, 60))) for _ in range(12)]
    return tokens


def _mail(n: int, body: str | bytes, *, sender: str = "Mallory <mallory@evil.example>",
          to: str = "orders@pbem.test", extra: str = "", ctype: str = "text/plain; charset=utf-8"
          ) -> bytes:
    head = (f"From: {sender}\r\nTo: {to}\r\nSubject: hostile {n}\r\n"
            f"Message-ID: <hostile-{n}@evil.example>\r\nMIME-Version: 1.0\r\n"
            f"Content-Type: {ctype}\r\n{extra}")
    data = body.encode("utf-8", "surrogateescape") if isinstance(body, str) else body
    return head.encode("utf-8", "surrogateescape") + b"\r\n" + data


def generated(passwords: dict[str, str]) -> Iterator[bytes]:
    rng = random.Random(12)
    n = 0

    def nxt() -> int:
        nonlocal n
        n += 1
        return n

    for token in poison_tokens(rng):
        yield _mail(nxt(), "PLAY 1\n", to=f"orders+{token}@pbem.test")
        yield _mail(nxt(), "GAME g1\nSEAT north\nPLAY 1\n", sender="ann@example.org",
                    to=f"<orders+{token}@pbem.test>", extra=f"Delivered-To: orders+{token}@pbem.test\r\n")
    envelopes = [
        "GAME g1\nSEAT north\nPASSWORD x\nTURN 99999999999999999999999\nPLAY 1\n",
        "GAME g1\nSEAT north\nPASSWORD x\nTURN ²\nPLAY 1\n",
        "GAME g1\nSEAT north\nPASSWORD x\nTURN -1\n",
        "GAME g1\nSEAT ../../etc/passwd\nPASSWORD x\n",
        "GAME ../../x\nSEAT north\n",
        "GAME <svg/onload=alert(1)>\nSEAT north\n",
        "GAME g1\x00\nSEAT north\x00\nPASSWORD \x00\n",
        "GAME " + "g" * 100_000 + "\nSEAT north\n",
        "GAME g1\nSEAT north\nPASSWORD " + "p" * 50_000 + "\n",
        "GAME g1\nSEAT north\nPASSWORD x\n" + "PLAY 1\n" * 20_000,
        "GAME g1\nSEAT north\nPASSWORD x\n" + "A" * 500_000 + "\n",
        "GAME g1\rSEAT north\rPASSWORD x\rPLAY 1\r",
        "GAME\tg1\nSEAT\tnorth\n",
        "game G1\nseat NORTH\npassword x\nclear\nwait\nstatus\n",
        "GAME g1\nGAME g2\nSEAT north\nSEAT south\nPASSWORD a\nPASSWORD b\n",
        "GAME g1\nSEAT north\nPASSWORD x\nEND\nGAME g1\nSEAT south\n",
        "> GAME g1\n> SEAT north\n> PASSWORD x\n",
        "GAME g1\nSEAT north\nPASSWORD =C3=A9=\n\nPLAY 1\n",
        "GAME %s\nSEAT north\nPASSWORD {{ 7*7 }}\n{%% raw %%}\n",
        "GAME g1\nSEAT north\nPASSWORD x\nPLAY 99999999999999999999999999\nPLAY -0\nPLAY ٣\n",
        "GAME g1\nSEAT north\nPASSWORD x\nPREFER " + "HIGH " * 10_000 + "\n",
        "\ufeffGAME g1\u2028SEAT north\u2029PASSWORD x\u0085PLAY 1\n",
        "GAME g1\nSEAT north\nPASSWORD x\n\udcff\udcfe\n",
        "GAME g1\nSEAT south\nPASSWORD " + passwords.get("south", "x") + "\nPLAY 12345\nBOGUS\n",
        "GAME g1\nSEAT north\nPASSWORD " + passwords.get("north", "x") + "\nTURN 7\nPLAY 1\n",
    ]
    for text in envelopes:
        yield _mail(nxt(), text)
        yield _mail(nxt(), text, sender="ann@example.org")
    charsets = ["utf-8", "latin-1", "x-unknown", "utf-7", "utf-16", "", "../../etc", "a" * 500]
    for cs in charsets:
        yield _mail(nxt(), "GAME g1\nSEAT north\n".encode("utf-16"),
                    ctype=f"text/plain; charset={cs}")
        yield _mail(nxt(), base64.b64encode(b"\xff\xfe\x00GAME g1"),
                    ctype=f"text/plain; charset={cs}", extra="Content-Transfer-Encoding: base64\r\n")
    headers = [
        "Reply-To: victim@third.example\r\n",
        "Reply-To: =?utf-8?q?victim=40third.example?=\r\n",
        "From: second@evil.example\r\n",
        "Auto-Submitted: no\r\n",
        "Precedence: junk\r\n",
        "Return-Path: <>\r\n",
        "X-Failed-Recipients: ann@example.org\r\n",
        "In-Reply-To: <" + "x" * 5000 + "@evil>\r\n",
        "References: " + " ".join(f"<r{i}@e>" for i in range(2000)) + "\r\n",
        "Subject: =?utf-8?b?" + base64.b64encode("é\r\nBcc: v@x".encode()).decode() + "?=\r\n",
        "".join(f"X-Junk-{i}: {'v' * 100}\r\n" for i in range(3000)),
        "Date: Thu, 31 Feb 99999 25:61:61 +9999\r\n",
        "Content-Transfer-Encoding: quoted-printable\r\n",
        "Content-Disposition: attachment; filename=\"../../../etc/passwd\"\r\n",
        "X-Original-To: orders+" + "a" * 300 + "@pbem.test\r\n",
        "Message-ID: <ann-1@example.org>\r\n",
    ]
    for extra in headers:
        yield _mail(nxt(), "GAME g1\nSEAT north\nPASSWORD x\nPLAY 1\n", extra=extra)
    senders = ["", "<>", "a@b@c", "\"evil\r\nBcc: x@y\" <m@evil.example>", "x" * 3000 + "@e.x",
               "=?utf-8?q?ann=40example.org?= <m@evil.example>", "ann@example.org, m@evil.example",
               "MAILER-DAEMON@evil.example", "orders@pbem.test", "orders+abc@pbem.test",
               "gm@pbem.test", "ANN@EXAMPLE.ORG", "bob@example.org (Bob)", "ütf@exämple.org"]
    for sender in senders:
        yield _mail(nxt(), "GAME g1\nSEAT south\nPASSWORD x\nPLAY 1\n", sender=sender)
    boundary = "b"
    deep = "".join(f"--{boundary}{i}\r\nContent-Type: multipart/mixed; boundary=\"{boundary}{i + 1}\"\r\n\r\n"
                   for i in range(200))
    yield _mail(nxt(), deep, ctype=f"multipart/mixed; boundary=\"{boundary}0\"")
    parts = "".join(f"--p\r\nContent-Type: text/plain\r\n\r\nPLAY {i}\r\n" for i in range(1500))
    yield _mail(nxt(), parts + "--p--\r\n", ctype="multipart/mixed; boundary=\"p\"")
    yield _mail(nxt(), "<html><script>alert(1)</script><p>GAME g1<br>SEAT north</p>" * 200,
                ctype="text/html; charset=utf-8")
    yield _mail(nxt(), "no boundary here", ctype="multipart/mixed")
    yield _mail(nxt(), "", ctype="text/plain")
    yield b""
    yield b"\r\n\r\n"
    yield b"\x00" * 1000
    yield bytes(range(256)) * 40
    yield b"From: a@b.c\r\n" * 10_000
    for _ in range(40):  # random byte soup and random header soup, seeded
        size = rng.randint(1, 4000)
        yield bytes(rng.getrandbits(8) for _ in range(size))
        names = ["From", "To", "Subject", "X", "Content-Type", "GAME", "SEAT"]
        soup = "ab@.<>=?;: \x00é"
        lines = [rng.choice(names) + ": "
                 + "".join(rng.choice(soup) for _ in range(rng.randint(0, 40)))
                 for _ in range(rng.randint(0, 30))]
        yield ("\r\n".join(lines) + "\r\n\r\nGAME g1\r\nSEAT north\r\n").encode("utf-8", "replace")


def corpus(passwords: dict[str, str]) -> list[bytes]:
    shipped = [p.read_bytes() for p in sorted(CORPUS.rglob("*.eml"))]
    return shipped + list(generated(passwords))
