"""Puts this folder on sys.path so the test modules can import `kek_helpers`."""

from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from kek_helpers import RULESET  # noqa: E402


@pytest.fixture
def kek():
    return RULESET
