"""pytest set-up for the BattleLore tests: the `R` fixture (the ruleset)."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.rulesets.battlelore import RULESET


@pytest.fixture
def R() -> Any:
    return RULESET
