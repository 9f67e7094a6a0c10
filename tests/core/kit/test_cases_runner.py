"""The shared case runner (tests/support/cases.py), on the kit's test game."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cases import Case, case_params, check_case

from .duel import Duel

CASES = Path(__file__).parent / "cases"


@pytest.mark.parametrize("case", case_params(CASES))
def test_duel_case(case: Case) -> None:
    check_case(Duel(), case)


def test_a_failing_case_shows_the_case_the_expected_and_the_actual_value() -> None:
    case = next(c for c in case_params(CASES) if c.id == "guarded").values[0]
    case.data = {**case.data, "expect": {"hp.blue": 5, "hp.green": 1}}
    with pytest.raises(AssertionError) as err:
        check_case(Duel(), case)
    message = str(err.value)
    assert "case guarded (duel.py): a standing GUARD ALWAYS blocks" in message
    assert "hp.blue: expected 5, got 8" in message
    assert "hp.green: expected 1, but there is no such field" in message
