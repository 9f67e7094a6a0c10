"""Column types that store zlib-compressed bytes and hand Python plain text or bytes.

States, events, rolls and mail are kept for the life of a game and compress four to eight
times (JSON and MIME are repetitive), so the history costs a few kilobytes a step, not tens.
The columns are never searched by content, so nothing is lost by compressing them.
Not here: what is kept and for how long (that is `pbem.service.retention`).
"""

from __future__ import annotations

import zlib
from typing import Any

from sqlalchemy.types import LargeBinary, TypeDecorator

LEVEL = 6  # zlib's default: most of the gain of 9 at a third of the time


def compress(data: bytes) -> bytes:
    return zlib.compress(data, LEVEL)


class ZText(TypeDecorator[str]):
    """UTF-8 text, stored compressed. Empty text stays empty (an echo that has expired)."""

    impl = LargeBinary
    cache_ok = True

    def process_bind_param(self, value: str | None, dialect: Any) -> bytes | None:
        if value is None or value == "":
            return None if value is None else b""
        return compress(value.encode("utf-8"))

    def process_result_value(self, value: bytes | None, dialect: Any) -> str | None:
        if value is None or value == b"":
            return None if value is None else ""
        return zlib.decompress(value).decode("utf-8")


class Sha256(TypeDecorator[str]):
    """A SHA-256 as Python sees it (64 hex digits), stored as its 32 bytes. Reads the hex
    text of rows stored before too."""

    impl = LargeBinary
    cache_ok = True

    def process_bind_param(self, value: str | None, dialect: Any) -> bytes | None:
        if value is None or value == "":
            return None if value is None else b""
        return bytes.fromhex(value)

    def process_result_value(self, value: bytes | str | None, dialect: Any) -> str | None:
        if value is None or isinstance(value, str):
            return value
        return bytes(value).hex()


# What mail headers have in common, as a preset dictionary: half a kilobyte of headers then
# takes about 170 bytes instead of 350. Frozen: stored headers need it to be read. A new
# dictionary would get a new first byte (1 is this one).
HEADERS_V1 = (
    b"From: orders@pbem.localhost\nTo: \nSubject: Re: [] step : Round , (final): report\n"
    b"Date: Mon, Tue, Wed, Thu, Fri, Sat, Sun, 01 Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov "
    b"Dec 2026 00:00:00 +0000\nMessage-ID: <report..@pbem.localhost>\n"
    b"In-Reply-To: <thread..@pbem.localhost>\nReferences: <thread..@pbem.localhost>\n"
    b"Reply-To: orders+@pbem.localhost\nList-Id: <.pbem.localhost>\n"
    b"Auto-Submitted: auto-generated\nX-Auto-Response-Suppress: All\nMIME-Version: 1.0\n"
    b'Content-Type: text/plain; charset="utf-8"\nContent-Transfer-Encoding: quoted-printable\n'
    b'Content-Type: multipart/alternative;\n boundary="=_pbem_0123456789abcdef01234567_0"\n')


def pack_mail(data: bytes) -> bytes:
    """`data` compressed with `HEADERS_V1`, behind its first byte."""
    packer = zlib.compressobj(LEVEL, zdict=HEADERS_V1)
    return b"\x01" + packer.compress(data) + packer.flush()


def unpack_mail(value: bytes) -> bytes | None:
    """What `pack_mail` packed (None: not packed with `HEADERS_V1`)."""
    if value[:1] != b"\x01":
        return None
    unpacker = zlib.decompressobj(zdict=HEADERS_V1)
    return unpacker.decompress(value[1:]) + unpacker.flush()


class ZMail(TypeDecorator[bytes]):
    """A mail's bytes, stored compressed with the headers' preset dictionary (`HEADERS_V1`:
    a mail's record headers take a third less). Empty bytes stay empty (a mail body that
    has expired). Reads the plain zlib of rows stored before too (a zlib stream never
    starts with byte 1)."""

    impl = LargeBinary
    cache_ok = True

    def process_bind_param(self, value: bytes | None, dialect: Any) -> bytes | None:
        if value is None or value == b"":
            return value
        return pack_mail(value)

    def process_result_value(self, value: bytes | None, dialect: Any) -> bytes | None:
        if value is None or value == b"":
            return None if value is None else b""
        value = bytes(value)
        unpacked = unpack_mail(value)
        return zlib.decompress(value) if unpacked is None else unpacked


class ZHeaders(TypeDecorator[str]):
    """Mail headers, stored compressed with a preset dictionary (`HEADERS_V1`)."""

    impl = LargeBinary
    cache_ok = True

    def process_bind_param(self, value: str | None, dialect: Any) -> bytes | None:
        return None if value is None else pack_mail(value.encode("utf-8"))

    def process_result_value(self, value: bytes | None, dialect: Any) -> str | None:
        if value is None:
            return None
        unpacked = unpack_mail(bytes(value))
        if unpacked is None:
            raise ValueError("mail headers stored with an unknown dictionary")
        return unpacked.decode("utf-8")
