"""Reply tokens: round trip, forgery, address safety (hypothesis for the properties)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.mail.tokens import (
    TokenTooLong,
    check_token,
    find_token,
    make_token,
    reply_address,
)

SECRET = b"0123456789abcdef0123456789abcdef"
names = st.text(st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)),
                min_size=1, max_size=30)
steps = st.integers(min_value=0, max_value=10**9)


@given(names, names, steps)
@settings(deadline=None)
def test_round_trip(game: str, seat: str, step: int) -> None:
    token = make_token(SECRET, game, seat, step)
    assert check_token(SECRET, token) == (game, seat, step)
    assert check_token(SECRET, token.upper()) == (game, seat, step)
    assert set(token) <= set("abcdefghijklmnopqrstuvwxyz234567")


@given(names, names, steps, st.data())
@settings(max_examples=300, deadline=None)
def test_altered_token_refused(game: str, seat: str, step: int, data: st.DataObject) -> None:
    token = make_token(SECRET, game, seat, step)
    at = data.draw(st.integers(0, len(token) - 1))
    new = data.draw(st.sampled_from("abcdefghijklmnopqrstuvwxyz234567").filter(
        lambda c: c != token[at]))
    altered = token[:at] + new + token[at + 1:]
    assert check_token(SECRET, altered) is None


@given(names, names, steps)
@settings(deadline=None)
def test_other_secret_refused(game: str, seat: str, step: int) -> None:
    assert check_token(b"another secret", make_token(SECRET, game, seat, step)) is None


@given(st.text(max_size=80))
@settings(deadline=None)
def test_garbage_never_raises(text: str) -> None:
    assert check_token(SECRET, text) is None


def test_truncated_and_extended_refused():
    token = make_token(SECRET, "gomor-1848", "hungary", 4)
    assert check_token(SECRET, token[:-1]) is None
    assert check_token(SECRET, token + "a") is None
    assert check_token(SECRET, token[1:]) is None
    assert check_token(SECRET, "") is None
    assert check_token(b"", token) is None


def test_forged_payload_with_old_mac_refused():
    real = make_token(SECRET, "gomor-1848", "hungary", 4)
    other = make_token(SECRET, "gomor-1848", "austria", 4)
    # the MAC of one token with the payload of another
    import base64
    pad = lambda t: t.upper() + "=" * (-len(t) % 8)  # noqa: E731
    a, b = base64.b32decode(pad(real)), base64.b32decode(pad(other))
    forged = base64.b32encode(a[:5] + b[5:]).decode().rstrip("=").lower()
    assert check_token(SECRET, forged) is None


def test_reply_address_fits_and_is_found_again():
    token = make_token(SECRET, "gomor-1848", "hungary", 12)
    addr = reply_address("PBEM <orders@pbem.example.org>", token)
    assert addr == f"PBEM <orders+{token}@pbem.example.org>"
    assert len(f"orders+{token}") <= 64
    assert find_token([addr]) == token
    assert find_token([addr.upper()]) == token
    assert reply_address("orders+old@x.org", token) == f"orders+{token}@x.org"


def test_reply_address_too_long():
    token = make_token(SECRET, "a very long campaign name indeed", "the-kingdom-of-hungary", 1)
    with pytest.raises(TokenTooLong):
        reply_address("orders@x.org", token)


def test_find_token_ignores_short_details():
    assert find_token(["orders+games@x.org", "bob@x.org"]) is None
    assert find_token([]) is None


def test_bad_arguments():
    with pytest.raises(ValueError):
        make_token(SECRET, "", "s", 1)
    with pytest.raises(ValueError):
        make_token(SECRET, "g", "s", -1)
    with pytest.raises(ValueError):
        make_token(b"", "g", "s", 1)
    with pytest.raises(ValueError):
        reply_address("no address here", "abc")


@given(names, names, steps)
@settings(deadline=None)
def test_peek_reads_the_claim_without_the_secret(game: str, seat: str, step: int) -> None:
    from pbem.mail.tokens import peek_token
    token = make_token(SECRET, game, seat, step)
    assert peek_token(token) == (game, seat, step)
    assert peek_token("not a token") is None
