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


class ZBytes(TypeDecorator[bytes]):
    """Bytes, stored compressed. Empty bytes stay empty (a mail body that has expired)."""

    impl = LargeBinary
    cache_ok = True

    def process_bind_param(self, value: bytes | None, dialect: Any) -> bytes | None:
        if value is None or value == b"":
            return value
        return compress(value)

    def process_result_value(self, value: bytes | None, dialect: Any) -> bytes | None:
        if value is None or value == b"":
            return None if value is None else b""
        return zlib.decompress(value)


class ZText(TypeDecorator[str]):
    """UTF-8 text, stored compressed."""

    impl = LargeBinary
    cache_ok = True

    def process_bind_param(self, value: str | None, dialect: Any) -> bytes | None:
        return None if value is None else compress(value.encode("utf-8"))

    def process_result_value(self, value: bytes | None, dialect: Any) -> str | None:
        return None if value is None else zlib.decompress(value).decode("utf-8")
