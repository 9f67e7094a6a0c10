"""A step's big texts (its state, the prompts it awaits, the orders applied, its events and
rolls), each stored against the same text of the step it was computed from.

Consecutive steps share most of their state (the same keys, mostly the same values), of
their prompts, of their standing orders and of their events' wording. So each text is a zlib stream whose preset
dictionary is the same text of the step's `base` (the step before it): a Kard és Korona
state of 10 KB takes about 400 bytes instead of 1,600. Every KEYFRAME-th step of a chain
is stored whole, so reading any step inflates at most KEYFRAME texts, whatever the length
of the game, and a read that walks the steps in order (an archive) inflates each text
once (a small cache, keyed by the stored bytes). zlib checks the dictionary (its Adler-32
is in the stream): a base that was altered makes its successors unreadable, never wrong.

Rows stored before this have no base: their texts are whole, as every keyframe's.
"""

from __future__ import annotations

import threading
import zlib
from collections import OrderedDict
from typing import TYPE_CHECKING

from pbem.store.types import LEVEL

if TYPE_CHECKING:
    from pbem.store.models import Step

KEYFRAME = 16  # a chain's length: a step stored whole, then 15 stored against their base
TEXTS = ("state", "awaiting", "applied", "events", "rolls")
_CACHE_SIZE = 4 * KEYFRAME * len(TEXTS)


class _Inflated:
    """Stored bytes -> text, for the latest few hundred texts (the bytes name the text: a
    stream against another dictionary would not have inflated)."""

    def __init__(self) -> None:
        self._texts: OrderedDict[bytes, str] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, raw: bytes) -> str | None:
        with self._lock:
            text = self._texts.get(raw)
            if text is not None:
                self._texts.move_to_end(raw)
            return text

    def put(self, raw: bytes, text: str) -> None:
        with self._lock:
            self._texts[raw] = text
            self._texts.move_to_end(raw)
            while len(self._texts) > _CACHE_SIZE:
                self._texts.popitem(last=False)


_inflated = _Inflated()


def link(step: Step, base: Step | None) -> None:
    """Store `step`'s texts against `base`'s (None, or a full chain: whole). Before any text
    of `step` is written; `base` must have its id."""
    if base is None or base.chain + 1 >= KEYFRAME:
        step.base_id, step.chain = None, 0
    else:
        if base.id is None:
            raise ValueError("a step's base must be stored before it")
        step.base_id, step.chain = base.id, base.chain + 1
    step.__dict__["_pbem_base"] = base if step.base_id is not None else None


def read(step: Step, name: str) -> str | None:
    # Walk back to a text that is whole or inflated already, then inflate forward.
    pending: list[bytes] = []
    row = step
    while True:
        raw = getattr(row, f"{name}_z")
        if raw is None:
            text = None  # no text (the step's own: None; a base's: no dictionary)
            break
        raw = bytes(raw)  # PostgreSQL hands out a memoryview
        text = _inflated.get(raw)
        if text is not None:
            break
        if row.base_id is None:
            text = _inflate(raw, None)
            break
        pending.append(raw)
        row = _base(row, step)
    for raw in reversed(pending):
        text = _inflate(raw, text.encode("utf-8") if text else None)
    return text


def write(step: Step, name: str, text: str | None) -> None:
    if text is None:
        setattr(step, f"{name}_z", None)
        return
    zdict = None
    if step.base_id is not None:
        base_text = read(_base(step, step), name)
        zdict = base_text.encode("utf-8") if base_text else None
    packer = zlib.compressobj(LEVEL, zdict=zdict) if zdict else zlib.compressobj(LEVEL)
    raw = packer.compress(text.encode("utf-8")) + packer.flush()
    setattr(step, f"{name}_z", raw)
    _inflated.put(raw, text)


def _inflate(raw: bytes, zdict: bytes | None) -> str:
    unpacker = zlib.decompressobj(zdict=zdict) if zdict else zlib.decompressobj()
    text = (unpacker.decompress(raw) + unpacker.flush()).decode("utf-8")
    _inflated.put(raw, text)
    return text


def _base(row: Step, reader: Step) -> Step:
    """`row`'s base: linked by `link`, or read with the rest of `reader`'s chain (one query
    for the steps up to KEYFRAME before it, held by `reader` while it lives)."""
    base = row.__dict__.get("_pbem_base")
    if base is not None and base.id == row.base_id:
        return base
    from sqlalchemy.orm import object_session
    from sqlalchemy.orm.util import identity_key

    from pbem.store.models import Step as StepRow
    from pbem.store.models import stored_id

    rows: dict[int, Step] | None = reader.__dict__.get("_pbem_chain")
    if rows is None or row.base_id not in rows:
        session = object_session(reader)
        if session is None:
            raise RuntimeError(f"step {reader.number} is stored against other step rows, "
                               "which need a session to be read")
        loaded = session.identity_map.get(identity_key(StepRow, row.base_id))
        if loaded is not None:  # e.g. a walk through the steps in order
            return loaded
        from sqlmodel import select

        with session.no_autoflush:
            # A rollback may branch a chain further back: those rows come one by one.
            # (object_session is typed as SQLAlchemy's Session: scalars() is what exec() does.)
            rows = {stored_id(r): r for r in session.scalars(select(StepRow).where(
                StepRow.game_id == reader.game_id, StepRow.number <= reader.number,
                StepRow.number >= reader.number - KEYFRAME))} if rows is None else rows
            if row.base_id not in rows:
                found = session.get(StepRow, row.base_id)
                if found is None:
                    raise RuntimeError(f"step {reader.number}: its base row {row.base_id} "
                                       "is missing")
                rows[stored_id(found)] = found
        reader.__dict__["_pbem_chain"] = rows
    return rows[row.base_id]  # type: ignore[index]
