"""Positions as text (position.py, state.py): every state of the golden replay (decision
pauses included) round-trips exactly, and a bad position gets a one-line error naming the
field."""

from __future__ import annotations

import pytest

from pbem.core.kit import PositionError
from pbem.core.ruleset import GameConfig
from pbem.core.selfplay import play

from .helpers import RS, canon, ex1
from .test_golden import SEATS, SEED


def test_every_state_of_the_golden_replay_round_trips() -> None:
    p = play(RS, GameConfig(SEATS, "standard", {"decisions": "ask"}), SEED, keep=True)
    paused = 0
    for out in p.outcomes:
        text = RS.dump_position(out.state)
        back = RS.load_position(text)
        assert canon(RS.dump(back)) == canon(RS.dump(out.state))
        assert RS.dump_position(back) == text
        assert RS.position_warnings(back) == []
        paused += out.state["pause"] is not None
    assert paused >= 5  # decision pauses (with their snapshots) are positions too


BAD = [
    ("regions.d.owner", '"blue"', "regions.d.owner: 'blue' is not a seat"),
    ("hourglass", '"five"', "position: hourglass: expected a whole number, got 'five'"),
    ("cycle_type", '"bronze"', "position: cycle_type: expected 'magic' or 'steel', got 'bronze'"),
    ("options.decisions", '"sometimes"', "position: options.decisions: expected 'auto' or 'ask'"),
    ("turn.seat", '"green"', "position: turn.seat: 'green' is not a seat"),
]


@pytest.mark.parametrize(("field", "value", "message"), BAD, ids=[b[0] for b in BAD])
def test_a_bad_position_gets_one_line_naming_the_field(field: str, value: str,
                                                       message: str) -> None:
    text = RS.dump_position(ex1())
    head, _, key = field.rpartition(".")
    lines = text.splitlines()
    if head:
        at = lines.index(f"[{head}]")
        i = next(j for j in range(at + 1, len(lines)) if lines[j].startswith(f"{key} = "))
    else:
        i = next(j for j, ln in enumerate(lines) if ln.startswith(f"{key} = "))
    lines[i] = f"{key} = {value}"
    with pytest.raises(PositionError) as err:
        RS.load_position("\n".join(lines) + "\n")
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_an_unknown_field_and_a_missing_one_are_named() -> None:
    text = RS.dump_position(ex1())
    with pytest.raises(PositionError, match="position: colour: unknown field"):
        RS.load_position(text.replace("cycle = 1\n", "cycle = 1\ncolour = 3\n"))
    with pytest.raises(PositionError, match="position: hourglass: missing"):
        RS.load_position(text.replace("hourglass = 5\n", ""))


def test_warnings_count_units_and_tiles() -> None:
    state = ex1()
    state["reserve"]["orange"]["knight"] += 1
    state["pile"].pop()
    warnings = RS.position_warnings(state)
    assert "orange has 17 knights on the board, in reserve and in stock, not 16" in warnings
    assert any(w.startswith("tiles: 39 action tiles") for w in warnings)
