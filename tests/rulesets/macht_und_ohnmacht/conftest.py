"""pytest set-up for the Macht & Ohnmacht tests: puts this folder on sys.path so the
tests can import their helpers as `mou_helpers` (pytest runs in importlib mode, and a
module named `conftest` would clash with other folders), and skips nightly playouts
unless `-m nightly` is given."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

_HERE = str(Path(__file__).parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Nightly playouts run only when asked for with -m nightly."""
    if "nightly" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="nightly: run with -m nightly")
    for item in items:
        if "nightly" in item.keywords and "macht_und_ohnmacht" in str(item.fspath):
            item.add_marker(skip)
