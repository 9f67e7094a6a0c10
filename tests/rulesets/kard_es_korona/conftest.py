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


def pytest_collection_modifyitems(config, items):  # type: ignore[no-untyped-def]
    """Nightly playouts of this folder run only when asked for with -m nightly."""
    if "nightly" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="nightly: run with -m nightly")
    for item in items:
        if "nightly" in item.keywords and "kard_es_korona" in str(item.fspath):
            item.add_marker(skip)
