"""Fixtures of the Helios tests (their builders are in helpers.py)."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import new_game


@pytest.fixture
def game2() -> dict[str, Any]:
    return new_game(2, start="north")
