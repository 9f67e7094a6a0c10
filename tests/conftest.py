"""Shared fixtures: the test game is registered, and each test gets its own SQLite file."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "support"))

from fixture_game import RULESET as HIGHCARD  # noqa: E402

from pbem.rulesets import register  # noqa: E402

register(HIGHCARD)

from clock import T0  # noqa: E402,F401


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'pbem.sqlite'}"


@pytest.fixture
def engine(db_url: str):  # type: ignore[no-untyped-def]
    from pbem.store.db import connect, migrate

    eng = connect(db_url)
    migrate(eng)
    yield eng
    eng.dispose()


@pytest.fixture
def session(engine) -> Iterator:  # type: ignore[no-untyped-def]
    from pbem.store.db import session_scope

    with session_scope(engine) as s:
        yield s
