"""Signed reply tokens: a report's Reply-To carries the seat and step, so a player can answer
without the password (DESIGN section 4).

A token is HMAC-SHA256-signed, short and address-safe: lowercase base32 without padding, so
it fits the local part of a plus-address (``orders+TOKEN@host``) and survives mail systems
that change the case of addresses. It carries game, seat and step in clear (they are not
secret; the signature is what counts), so checking one needs only the secret.

This module is pure: no clock, no I/O. Whether the step is still open is the service's
question, not this module's.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import re
from collections.abc import Iterable
from email.utils import formataddr, getaddresses, parseaddr

__all__ = ["make_token", "check_token", "peek_token", "reply_address", "find_token",
           "TokenTooLong"]

_MAC_BYTES = 5  # 40 bits: a forger needs ~2**39 mails on average; each one is stored.
_DOMAIN = b"pbem-reply-token/1\x00"  # keeps these MACs apart from other uses of the secret
_MAX_LOCAL_PART = 64  # RFC 5321 4.5.3.1.1
_TOKEN_SHAPE = re.compile(r"^[a-z2-7]{12,}$")


class TokenTooLong(ValueError):
    """The plus-address would exceed the 64 characters RFC 5321 promises for a local part."""


def _mac(secret: bytes, payload: bytes) -> bytes:
    return hmac.new(secret, _DOMAIN + payload, hashlib.sha256).digest()[:_MAC_BYTES]


def _encode(data: bytes) -> str:
    return base64.b32encode(data).decode("ascii").rstrip("=").lower()


def make_token(secret: bytes, game: str, seat: str, step: int) -> str:
    """A signed token for one seat and step of one game: ``[a-z2-7]+``."""
    if not secret:
        raise ValueError("a reply token needs a non-empty secret")
    if step < 0:
        raise ValueError("step must be >= 0")
    if not game or not seat or "\x00" in game or "\x00" in seat:
        raise ValueError("game and seat must be non-empty and contain no NUL")
    payload = f"{game}\x00{seat}\x00{int(step)}".encode()
    return _encode(_mac(secret, payload) + payload)


def _split(payload: bytes) -> tuple[str, str, int] | None:
    try:
        game, seat, step = payload.decode("utf-8").split("\x00")
    except (UnicodeDecodeError, ValueError):
        return None
    if not step.isdigit() or str(int(step)) != step or not game or not seat:
        return None
    return game, seat, int(step)


def peek_token(token: str) -> tuple[str, str, int] | None:
    """``(game, seat, step)`` as the token claims them, NOT verified: only for finding which
    game's secret to check it with. Never raises."""
    data = _decode(token)
    return _split(data[_MAC_BYTES:]) if data is not None else None


def _decode(token: str) -> bytes | None:
    if not isinstance(token, str):
        return None
    text = token.strip().lower()
    if not _TOKEN_SHAPE.match(text):
        return None
    try:
        data = base64.b32decode(text.upper() + "=" * (-len(text) % 8))
    except (binascii.Error, ValueError):
        return None
    if _encode(data) != text:  # non-canonical: altered padding bits
        return None
    return data


def check_token(secret: bytes, token: str) -> tuple[str, str, int] | None:
    """``(game, seat, step)`` if the token is genuine, else None (never raises)."""
    if not secret:
        return None
    data = _decode(token)
    if data is None:
        return None
    mac, payload = data[:_MAC_BYTES], data[_MAC_BYTES:]
    if not hmac.compare_digest(mac, _mac(secret, payload)):
        return None
    return _split(payload)


def reply_address(base_address: str, token: str) -> str:
    """``orders@host`` + token -> ``orders+TOKEN@host`` (a display name is kept).

    Raises TokenTooLong when the local part would pass 64 characters (very long game or seat
    names); the caller then uses the plain address and the player types the password.
    """
    name, addr = parseaddr(base_address)
    local, at, domain = addr.rpartition("@")
    if not at or not local or not domain:
        raise ValueError(f"not an address: {base_address!r}")
    local = local.split("+", 1)[0]
    new_local = f"{local}+{token}"
    if len(new_local) > _MAX_LOCAL_PART:
        raise TokenTooLong(f"local part {len(new_local)} characters long; the limit is 64")
    return formataddr((name, f"{new_local}@{domain}")) if name else f"{new_local}@{domain}"


def find_token(addresses: Iterable[str]) -> str | None:
    """The first plus-address detail that looks like a token, in the given header values.

    Only the shape is checked here; ``check_token`` decides whether it is genuine.
    """
    candidates = [a for a in addresses if a and "+" in a]
    for _, addr in getaddresses(candidates) if candidates else ():
        local = addr.rpartition("@")[0]
        if "+" not in local:
            continue
        detail = local.split("+", 1)[1].strip().lower()
        if _TOKEN_SHAPE.match(detail):
            return detail
    return None
