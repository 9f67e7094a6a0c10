"""Retry timing for the outbox: exponential backoff with a cap. Pure; the clock is a parameter.
"""

from __future__ import annotations

from datetime import datetime, timedelta

__all__ = ["next_attempt"]


def next_attempt(attempts: int, now: datetime, *, base: timedelta = timedelta(minutes=1),
                 cap: timedelta = timedelta(hours=6), factor: float = 2.0) -> datetime:
    """When to try again after ``attempts`` failed attempts (1 -> base, then x factor, capped).

    Deterministic on purpose (no jitter): the outbox spreads load by its own ordering.
    """
    if attempts < 1:
        return now
    exponent = min(attempts - 1, 64)  # 2**64 minutes is past any cap; avoid overflow
    seconds = min(cap.total_seconds(), base.total_seconds() * factor ** exponent)
    return now + timedelta(seconds=seconds)
