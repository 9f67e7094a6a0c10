"""Signed reply tokens: a report's Reply-To carries a credential for one seat holder and
one step, so a player can answer without the password (DESIGN section 4).

A token names, in clear, the seat holder (the id of the seat row: a new player gets a new
row), the step and the rollback generation it was issued for; an 8-byte HMAC-SHA256 over
those and the game id and seat, keyed by the holder's own secret, makes it genuine. So a
token is void once the seat changes hands or the GM rotates the holder's secret, and it
is good for its own step only (the service compares step and generation with the game's).
The encoding is lowercase base32 without padding, about 22 characters: it fits the local
part of a plus-address (``orders+TOKEN@host``) and survives mail systems that change the
case of addresses.

This module is pure: no clock, no I/O. Which step is open is the service's question.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import re
from collections.abc import Iterable
from dataclasses import dataclass
from email.utils import formataddr, getaddresses, parseaddr

__all__ = ["make_token", "check_token", "peek_token", "reply_address", "find_token",
           "TokenClaim", "TokenTooLong"]

_VERSION = 2
_MAC_BYTES = 8  # 64 bits: forging one by trial would take ~2**63 stored mails
_DOMAIN = b"pbem-reply-token/2\x00"  # keeps these MACs apart from other uses of a secret
_MAX_LOCAL_PART = 64  # RFC 5321 4.5.3.1.1
_TOKEN_SHAPE = re.compile(r"^[a-z2-7]{12,}$")
_MAX_ID = 2**53  # ids and step numbers above this are refused before any lookup
_MAX_TOKEN = 60


class TokenTooLong(ValueError):
    """The plus-address would exceed the 64 characters RFC 5321 promises for a local part."""


@dataclass(frozen=True)
class TokenClaim:
    """What a token says: the seat row of its holder, its step and rollback generation."""

    holder: int
    step: int
    generation: int


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _read_varints(data: bytes, count: int) -> tuple[list[int], bytes] | None:
    values: list[int] = []
    pos = 0
    for _ in range(count):
        value = shift = 0
        while True:
            if pos >= len(data) or shift > 56:
                return None
            byte = data[pos]
            pos += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                break
        values.append(value)
    return values, data[pos:]


def _mac(secret: bytes, game_id: int, seat: str, claim: TokenClaim) -> bytes:
    message = (_DOMAIN + f"{game_id}\x00{seat}\x00{claim.holder}\x00{claim.step}\x00"
               f"{claim.generation}".encode())
    return hmac.new(secret, message, hashlib.sha256).digest()[:_MAC_BYTES]


def _encode(data: bytes) -> str:
    return base64.b32encode(data).decode("ascii").rstrip("=").lower()


def make_token(secret: bytes, *, game_id: int, seat: str, holder: int, step: int,
               generation: int = 0) -> str:
    """A signed token for one seat holder, step and generation: ``[a-z2-7]+``."""
    if not secret:
        raise ValueError("a reply token needs a non-empty secret")
    for name, value in (("holder", holder), ("step", step), ("generation", generation)):
        if not 0 <= value < _MAX_ID:
            raise ValueError(f"{name} must be between 0 and 2**53")
    if not seat or "\x00" in seat:
        raise ValueError("seat must be non-empty and contain no NUL")
    claim = TokenClaim(holder, step, generation)
    payload = bytes([_VERSION]) + _varint(holder) + _varint(step) + _varint(generation)
    return _encode(payload + _mac(secret, game_id, seat, claim))


def _decode(token: str) -> bytes | None:
    if not isinstance(token, str):
        return None
    text = token.strip().lower()
    if len(text) > _MAX_TOKEN or not _TOKEN_SHAPE.match(text):
        return None
    try:
        data = base64.b32decode(text.upper() + "=" * (-len(text) % 8))
    except (binascii.Error, ValueError):
        return None
    if _encode(data) != text:  # non-canonical: altered padding bits
        return None
    return data


def _parse(token: str) -> tuple[TokenClaim, bytes, bytes] | None:
    data = _decode(token)
    if data is None or len(data) < 1 + 3 + _MAC_BYTES or data[0] != _VERSION:
        return None
    read = _read_varints(data[1:-_MAC_BYTES], 3)
    if read is None or read[1]:
        return None
    holder, step, generation = read[0]
    if max(holder, step, generation) >= _MAX_ID:
        return None
    claim = TokenClaim(holder, step, generation)
    payload = bytes([_VERSION]) + _varint(holder) + _varint(step) + _varint(generation)
    if payload != data[:-_MAC_BYTES]:  # overlong varints: one token, one spelling
        return None
    return claim, payload, data[-_MAC_BYTES:]


def peek_token(token: str) -> TokenClaim | None:
    """What the token claims, NOT verified: only for finding the holder whose secret checks
    it. Every number is a plain int below 2**53, safe for any database lookup. Never raises.
    """
    parsed = _parse(token)
    return parsed[0] if parsed else None


def check_token(secret: bytes, token: str, *, game_id: int, seat: str) -> TokenClaim | None:
    """The claim if the token is genuine for this holder's secret, game and seat, else None
    (never raises)."""
    parsed = _parse(token)
    if parsed is None or not secret:
        return None
    claim, _, mac = parsed
    if not hmac.compare_digest(mac, _mac(secret, game_id, seat, claim)):
        return None
    return claim


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
