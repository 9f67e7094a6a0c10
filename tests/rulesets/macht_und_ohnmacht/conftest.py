"""pytest set-up for the Macht & Ohnmacht tests: nightly playouts run only with
`-m nightly`."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if "nightly" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="nightly: run with -m nightly")
    for item in items:
        if "nightly" in item.keywords and "macht_und_ohnmacht" in str(item.fspath):
            item.add_marker(skip)
