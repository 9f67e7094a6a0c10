"""pytest glue for the BattleLore tests: makes battlelore_helpers importable."""

from __future__ import annotations

import os
import sys
from typing import Any

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from battlelore_helpers import RULESET  # noqa: E402


@pytest.fixture
def R() -> Any:
    return RULESET
