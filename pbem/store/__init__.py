"""Storage: SQLModel tables and the queries on them. No game logic, no mail.

The names below are loaded on first use, so that `pbem.store.quick` (the tick's first look)
can be imported without SQLAlchemy.
"""

from __future__ import annotations

import importlib
from typing import Any

_WHERE = {"connect": "db", "migrate": "db", "session_scope": "db", "read_scope": "db",
          **{name: "models" for name in ("Audit", "Game", "InboundMessage", "Outbox", "Seat",
                                         "Step", "Submission")}}
__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'pbem.store' has no attribute {name!r}")
    return getattr(importlib.import_module(f"pbem.store.{_WHERE[name]}"), name)
