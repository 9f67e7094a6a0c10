"""Puts this folder on sys.path so the test modules can import `helios_support`
(pytest runs in importlib mode; conftest modules are not importable by name)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = str(Path(__file__).parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from helios_support import new_game  # noqa: E402


@pytest.fixture
def game2():
    return new_game(2, start="north")
