"""Rulebook examples kept as case files (cases/*.toml: position, `set` edits, orders in the
order language, scripted dice, expected outcome), run by the shared case runner; the hooks
`attack` (one roll) and `battle` (a whole battle) test a rule in isolation."""

from __future__ import annotations

import pytest

from tests.support.cases import Case, case_params, check_case

from .helpers import CASES, HOOKS, R


@pytest.mark.parametrize("case", case_params(CASES))
def test_rulebook_case(case: Case) -> None:
    check_case(R, case, HOOKS)
