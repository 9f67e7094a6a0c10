"""The game's secrets (master seed, step seeds not yet revealed, token secrets), sealed with
a host key that lives outside the database when the GM sets one (`secret_key` in pbem.toml
or PBEM_SECRET_KEY).

Without a key a secret is stored as plain hex, as before. With one, it is stored as
``sealed1:<nonce>:<ciphertext>:<tag>``: the ciphertext is the secret XOR an HMAC-SHA256
keystream of (key, nonce), the tag an HMAC over nonce and ciphertext, so a copy of the
database alone predicts no roll and forges no token. The key travels with the engine, so
every service that has a session can open the secrets without passing the key around:
whoever connects (`pbem.cli`, the scheduler's jobs) calls `attach_key(engine, key)`.

Not here: what the secrets are used for (dice in core, tokens in mail).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from weakref import WeakKeyDictionary

from sqlalchemy.engine import Engine
from sqlmodel import Session

from pbem.service.errors import ServiceError
from pbem.store.models import Game, Seat, Step

_PREFIX = "sealed1:"
_KEYS: WeakKeyDictionary[Engine, bytes] = WeakKeyDictionary()


def attach_key(engine: Engine, secret_key: str | None) -> None:
    """Remember the host key for every session on this engine (None: secrets in clear)."""
    if secret_key:
        _KEYS[engine] = hashlib.sha256(b"pbem-host-key:" + secret_key.encode()).digest()
    else:
        _KEYS.pop(engine, None)


def _key(session: Session) -> bytes | None:
    bind = session.get_bind()
    engine = bind if isinstance(bind, Engine) else getattr(bind, "engine", None)
    # A read-only session's engine is a copy with execution options: the key is its base's.
    engine = getattr(engine, "_proxied", engine)
    return _KEYS.get(engine) if engine is not None else None


def _stream(key: bytes, nonce: bytes, length: int) -> bytes:
    out = b""
    counter = 0
    while len(out) < length:
        out += hmac.new(key, b"stream" + nonce + counter.to_bytes(4, "big"),
                        hashlib.sha256).digest()
        counter += 1
    return out[:length]


def _tag(key: bytes, nonce: bytes, ct: bytes) -> bytes:
    return hmac.new(key, b"tag" + nonce + ct, hashlib.sha256).digest()[:16]


def seal(session: Session, secret: bytes) -> str:
    """How `secret` is stored: sealed with the host key if there is one, else hex."""
    key = _key(session)
    if key is None:
        return secret.hex()
    nonce = secrets.token_bytes(16)
    ct = bytes(a ^ b for a, b in zip(secret, _stream(key, nonce, len(secret)), strict=True))
    return f"{_PREFIX}{nonce.hex()}:{ct.hex()}:{_tag(key, nonce, ct).hex()}"


def unseal(session: Session, stored: str) -> bytes:
    """The secret behind a stored value; a one-line ServiceError without the right key."""
    if not stored.startswith(_PREFIX):
        return bytes.fromhex(stored)
    key = _key(session)
    if key is None:
        raise ServiceError("this database's secrets are sealed: set PBEM_SECRET_KEY "
                           "(or secret_key in pbem.toml) to the key they were sealed with")
    try:
        nonce, ct, tag = (bytes.fromhex(p) for p in stored[len(_PREFIX):].split(":"))
    except ValueError:
        raise ServiceError("a sealed secret in the database is damaged") from None
    if not hmac.compare_digest(tag, _tag(key, nonce, ct)):
        raise ServiceError("the secret key does not open this database's secrets "
                           "(PBEM_SECRET_KEY differs from the one they were sealed with)")
    return bytes(a ^ b for a, b in zip(ct, _stream(key, nonce, len(ct)), strict=True))


def new_secret(session: Session, nbytes: int = 16) -> str:
    return seal(session, secrets.token_bytes(nbytes))


def master_seed_of(session: Session, game: Game) -> bytes:
    return unseal(session, game.master_seed)


def token_secret_of(session: Session, game: Game) -> bytes:
    return unseal(session, game.token_secret)


def holder_secret_of(session: Session, seat: Seat) -> bytes:
    return unseal(session, seat.holder_secret)


def step_seed_of(session: Session, step: Step) -> bytes:
    return unseal(session, step.seed)


def reveal_seed(session: Session, step: Step) -> None:
    """A seed that is published is stored in clear (reports and the archive print it)."""
    step.seed = unseal(session, step.seed).hex()
    step.seed_revealed = True
