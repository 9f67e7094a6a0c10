"""The CLI tests' clock: `state.now` fixed at T0, moved by the test (`clock[0] += ...`)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import pytest
from clock import T0

from pbem.cli.app import state


@pytest.fixture
def clock() -> Iterator[list[datetime]]:
    now = [T0]
    state.now = lambda: now[0]  # type: ignore[method-assign]
    yield now
    del state.now
