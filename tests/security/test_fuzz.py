"""Done when: 10,000 hypothesis cases through the real receive -> tick path give 0 crashes,
and the host keeps processing steps and sending mail. Four tests share the cases (reply
tokens, envelopes, headers and MIME, raw bytes); each feeds one live host that keeps its
database across its cases, as a real host would, and ticks after every few mails."""

from __future__ import annotations

import base64
import tempfile
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

from attack import Host, mail, new_host, order_text
from clock import T0
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlmodel import select

from pbem.store.db import connect, migrate
from pbem.store.models import InboundMessage

CASES = 2500  # per test; four tests
TICK_EVERY = 25
ALLOWED = {"applied", "refused", "ignored", "throttled", "duplicate"}
B32 = "abcdefghijklmnopqrstuvwxyz234567"
SENDERS = ["ann@example.org", "bob@example.org", "mallory@evil.example", "gm@pbem.test",
           "MAILER-DAEMON@evil.example", "orders@pbem.test", "", "a@b@c", "x <y@z.org>"]
WORDS = ["GAME", "SEAT", "PLAYER", "PASSWORD", "TURN", "END", "STATUS", "CLEAR", "WAIT",
         "PLAY", "PREFER", ">", "#", "g1", "north", "south", "HIGH", "LOW"]


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


tokens = st.one_of(
    st.text(B32, min_size=12, max_size=70),
    st.builds(lambda v, h, s, g, mac: base64.b32encode(bytes([v]) + _varint(h) + _varint(s)
                                                      + _varint(g) + mac).decode().rstrip("=").lower(),
              st.sampled_from([2, 1, 3]), st.integers(0, 2**70), st.integers(0, 2**70),
              st.integers(0, 2**20), st.binary(min_size=0, max_size=12)),
    st.builds(lambda gid, seat, step: base64.b32encode(b"\0" * 5 + f"{gid}\0{seat}\0{step}".encode(
        "utf-8", "surrogatepass")).decode().rstrip("=").lower(),
              st.one_of(st.integers(-2**80, 2**80).map(str), st.text(max_size=8)),
              st.sampled_from(["north", "south", "", "x"]), st.integers(0, 10**30)),
)
SPECIAL = ["²", "٣", "1²", "%", "_", "g%", "9" * 30, "-1", "0", "1", "g1", "G1", "north",
           "\x00", "../../x", "<svg/onload=x>", "g" * 5000, "%" * 300]
values = st.one_of(st.text(max_size=30), st.sampled_from(SPECIAL))
lines = st.lists(st.one_of(
    st.builds(lambda w, v: f"{w} {v}", st.sampled_from(WORDS), values),
    st.text(max_size=60)), max_size=15).map("\n".join)
texts = st.text(max_size=80)


class Fuzzed:
    """One host for all cases of one test; every case is received, every few a tick."""

    def __init__(self, tmp: Path) -> None:
        # tmpfs where there is one: the cases are many and the database only scratch
        base = Path("/dev/shm") if Path("/dev/shm").is_dir() else tmp
        self.dir = Path(tempfile.mkdtemp(dir=base, prefix="pbem-fuzz-"))
        engine = connect(f"sqlite:///{self.dir / 'pbem.sqlite'}")
        migrate(engine)
        self.host: Host = new_host(engine, self.dir)
        self.n = 0

    def feed(self, raw: bytes) -> None:
        self.n += 1
        now = T0 + timedelta(seconds=20 * self.n)
        r = self.host.receive(raw, now=now)
        assert r.status in ALLOWED, (r, raw[:400])
        if self.n % TICK_EVERY == 0:
            lines = self.host.tick(now)
            assert not [line for line in lines if "internal error" in line], lines

    def plays_on(self) -> None:
        host = self.host
        now = T0 + timedelta(seconds=20 * self.n) + timedelta(hours=2)  # past the rate limits
        with host.sessions() as s:
            stuck = [r for r in s.exec(select(InboundMessage))
                     if r.status not in ALLOWED - {"duplicate"}]
        assert not stuck, [(r.message_id, r.status, r.reason) for r in stuck[:5]]
        step = host.game().step
        for seat, who in (("north", "ann@example.org"), ("south", "bob@example.org")):
            if seat in awaiting(host):
                card = host.hand(seat)[0]
                r = host.receive(mail(who, f"PLAY {card}\n", to=host.reply_to(who)), now=now)
                assert r.status == "applied", r
        lines = host.tick(now)
        assert host.game().step == step + 1 or host.game().status == "finished", lines
        assert any(line.startswith("outbox: ") for line in lines), lines
        host.engine.dispose()  # type: ignore[attr-defined]


def awaiting(host: Host) -> set[str]:
    import json

    from pbem.service.games import find_game, live_step

    with host.sessions() as s:
        return set(json.loads(live_step(s, find_game(s, "g1")).awaiting_json))


def run(tmp: Path, strategy: st.SearchStrategy[bytes], build: Callable[..., bytes]) -> None:
    fuzz = Fuzzed(tmp)

    @settings(max_examples=CASES, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def case(args: object) -> None:
        fuzz.feed(build(args))

    case()
    assert fuzz.n >= CASES
    fuzz.plays_on()


def _raw(sender: str, to: str, body: str, extra: str = "", ctype: str = "text/plain; charset=utf-8",
         mid: str = "") -> bytes:
    head = f"From: {sender}\r\nTo: {to}\r\nSubject: fuzz\r\n{extra}"
    if mid:
        head += f"Message-ID: {mid}\r\n"
    head += f"MIME-Version: 1.0\r\nContent-Type: {ctype}\r\n\r\n"
    return (head + body).encode("utf-8", "surrogatepass")


def test_fuzzed_reply_tokens(tmp_path: Path) -> None:
    run(tmp_path, st.tuples(st.sampled_from(SENDERS), tokens, lines, st.integers(0, 10**9)),
        lambda a: _raw(a[0], f"orders+{a[1]}@pbem.test", a[2], mid=f"<t{a[3]}@fuzz>"))


def test_fuzzed_envelopes(tmp_path: Path) -> None:
    run(tmp_path, st.tuples(st.sampled_from(SENDERS), lines, st.integers(0, 10**9),
                            st.sampled_from(["", "north", "south"])),
        lambda a: _raw(a[0], "orders@pbem.test",
                       (f"GAME g1\nSEAT {a[3]}\nPASSWORD x\n" if a[3] else "") + a[1],
                       mid=f"<e{a[2]}@fuzz>"))


def test_fuzzed_headers_and_mime(tmp_path: Path) -> None:
    headers = st.lists(st.builds(lambda n, v: f"{n}: {v}\r\n",
                                 st.sampled_from(["Reply-To", "From", "Sender", "Message-ID",
                                                  "In-Reply-To", "Auto-Submitted", "Precedence",
                                                  "Content-Transfer-Encoding", "X-Original-To",
                                                  "Delivered-To", "Return-Path", "Subject"]),
                                 texts.map(lambda t: t.replace("\r", " ").replace("\n", " "))),
                       max_size=6).map("".join)
    ctypes = st.one_of(st.sampled_from(["text/plain", "text/html", "multipart/mixed",
                                        "multipart/alternative; boundary=x",
                                        "multipart/report; report-type=delivery-status",
                                        "message/rfc822", "application/octet-stream"]),
                       texts.map(lambda t: t.replace("\r", " ").replace("\n", " ")))
    run(tmp_path, st.tuples(st.sampled_from(SENDERS), headers, ctypes, lines),
        lambda a: _raw(a[0], "orders@pbem.test", a[3], extra=a[1], ctype=a[2]))


def test_fuzzed_raw_bytes(tmp_path: Path) -> None:
    prefix = b"From: mallory@evil.example\r\nTo: orders@pbem.test\r\n"
    run(tmp_path, st.tuples(st.booleans(), st.binary(max_size=600)),
        lambda a: (prefix if a[0] else b"") + a[1])


def test_a_fuzzed_host_still_takes_real_orders(tmp_path: Path) -> None:
    fuzz = Fuzzed(tmp_path)
    host = fuzz.host
    card = host.hand("south")[0]
    fuzz.feed(mail("bob@example.org", order_text(host, "south", f"PLAY {card}\n")).as_bytes())
    fuzz.plays_on()
