"""pytest glue for the Kard és Korona tests: the long playouts run only with -m nightly."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config, items):  # type: ignore[no-untyped-def]
    if "nightly" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="nightly: run with -m nightly")
    for item in items:
        if "nightly" in item.keywords and "kard_es_korona" in str(item.fspath):
            item.add_marker(skip)
