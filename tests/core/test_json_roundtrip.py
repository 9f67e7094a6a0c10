"""Every value the engine stores round-trips through JSON exactly (hypothesis)."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from pbem.core.dice import Roll
from pbem.core.engine import canonical_json
from pbem.core.events import Event
from pbem.core.orders import Prompt
from pbem.core.ruleset import GameConfig, Result

text = st.text(max_size=40)
seats = st.lists(st.text(alphabet="abcdefghijklmnop_", min_size=1, max_size=8), max_size=5,
                 unique=True).map(tuple)
scalars = st.none() | st.booleans() | st.integers(-10**9, 10**9) | text
data = st.recursive(scalars, lambda c: st.lists(c, max_size=4) | st.dictionaries(text, c, max_size=4),
                    max_leaves=12)


def through_json(value):  # type: ignore[no-untyped-def]
    return json.loads(canonical_json(value.to_json()))


@given(text, text, st.dictionaries(text, data, max_size=4), st.none() | seats)
def test_events(kind, body, d, to) -> None:  # type: ignore[no-untyped-def]
    e = Event(kind, body, d, to)
    assert Event.from_json(through_json(e)) == e


@given(text, st.integers(1, 100), st.integers(0, 99), st.none() | seats)
def test_rolls(purpose, sides, value, vis) -> None:  # type: ignore[no-untyped-def]
    r = Roll(purpose, f"d{sides}", value, vis)
    assert Roll.from_json(through_json(r)) == r


@given(text, st.lists(text, max_size=4).map(tuple), st.lists(text, max_size=4).map(tuple),
       st.dictionaries(text, data, max_size=3))
def test_prompts(t, sk, opts, d) -> None:  # type: ignore[no-untyped-def]
    p = Prompt(t, sk, opts, d)
    assert Prompt.from_json(through_json(p)) == p


@given(seats, text, st.dictionaries(text, scalars, max_size=4))
def test_configs(s, variant, options) -> None:  # type: ignore[no-untyped-def]
    c = GameConfig(s, variant, options)
    assert GameConfig.from_json(through_json(c)) == c


@given(seats, st.dictionaries(text, st.integers(-1000, 1000), max_size=4), text, seats)
def test_results(w, scores, reason, ranking) -> None:  # type: ignore[no-untyped-def]
    r = Result(w, scores, reason, ranking)
    assert Result.from_json(through_json(r)) == r


@given(data)
def test_canonical_json_is_stable(value) -> None:  # type: ignore[no-untyped-def]
    once = canonical_json(value)
    assert canonical_json(json.loads(once)) == once
