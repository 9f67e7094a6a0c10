"""Headless Chromium for the tests that look at pages and pictures."""

from __future__ import annotations

import os
import shutil

import pytest


def chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def need_chromium() -> str:
    """The browser, or skip (fail in CI, which must install it)."""
    browser = chromium()
    if browser is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed (CI must install it)")
        pytest.skip("chromium is not installed")
    return browser
