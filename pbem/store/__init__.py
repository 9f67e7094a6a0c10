"""Storage: SQLModel tables and the queries on them. No game logic, no mail."""

from pbem.store.db import connect, migrate, session_scope
from pbem.store.models import Audit, Game, InboundMessage, Outbox, Seat, Step, Submission

__all__ = ["connect", "migrate", "session_scope", "Audit", "Game", "InboundMessage", "Outbox",
           "Seat", "Step", "Submission"]
