"""The attacker's suite: each test gets a host with one live game (see support/attack.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from attack import Host, new_host


@pytest.fixture
def make_host(engine, tmp_path: Path) -> Callable[..., Host]:  # type: ignore[no-untyped-def]
    return lambda **kw: new_host(engine, tmp_path, **kw)


@pytest.fixture
def host(make_host) -> Host:  # type: ignore[no-untyped-def]
    return make_host()
