"""Fixed times for tests (services take an explicit now)."""

from datetime import UTC, datetime

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
