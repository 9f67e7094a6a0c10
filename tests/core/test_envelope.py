"""The order-file envelope (DESIGN section 4)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pbem.core.envelope import normalise, parse_envelope, render_envelope
from pbem.core.names import NameIndex, UnknownName, fold


def test_full_envelope_with_debris_quotes_and_signature() -> None:
    text = ("Hello GM, here are my orders.\n"
            "GAME\u00a0kassa-1302\n"
            "player north\n"
            "Password: s3cr#t\n"
            "TURN 4\n"
            "> PLAY 1   (quoted from the report)\n"
            "PLAY \u201c7\u201d   # my best card\n"
            "STATUS\n"
            "END\n"
            "--\nJohn\nGAME other\n")
    env = parse_envelope(text)
    assert (env.game, env.seat, env.password, env.turn) == ("kassa-1302", "north", "s3cr#t", 4)
    assert env.controls == ["STATUS"]
    assert not env.problems
    body_lines = env.body.split("\n")
    assert body_lines[6] == 'PLAY "7"   # my best card'  # line 7 of the file stays line 7
    assert "PLAY 1" not in env.body and "John" not in env.body


def test_missing_header_and_bad_turn_are_problems() -> None:
    assert parse_envelope("PLAY 3\n").problems[0].startswith("no GAME/SEAT header")
    env = parse_envelope("GAME g\nTURN soon\n")
    assert "missing SEAT line" in env.problems
    assert any("TURN must be a step number" in p for p in env.problems)


def test_quoted_printable_leftovers_are_undone() -> None:
    assert normalise("G=C3=B6m=C3=B6r=20X") == "Gömör X"
    assert normalise("MOVE a=\nb") == "MOVE ab"


def test_names_fold_accents_and_suggest() -> None:
    assert fold("Gömör-Kishont") == "gomor kishont"
    idx = NameIndex({"gomor": ["Gömör"], "abauj": ["Abaúj", "Abauj-Torna"]}, what="county")
    assert idx.lookup("GOMOR") == "gomor"
    assert idx.lookup("abauj torna") == "abauj"
    try:
        idx.lookup("Gomr")
    except UnknownName as e:
        assert str(e) == 'unknown county "Gomr"; did you mean "gomor"?'
    else:
        raise AssertionError("no error")


_word = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-", min_size=1, max_size=12)


@given(game=_word, seat=_word, password=_word, turn=st.none() | st.integers(0, 10**6),
       lines=st.lists(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789", min_size=1,
                              max_size=30).filter(lambda s: s.strip() and s.split()[0] not in
                                                  ("GAME", "SEAT", "PLAYER", "PASSWORD", "TURN",
                                                   "END", "STATUS", "CLEAR", "WAIT")),
                      max_size=8))
def test_render_then_parse_round_trips(game: str, seat: str, password: str, turn: int | None,
                                       lines: list[str]) -> None:
    text = render_envelope(game=game, seat=seat, password=password, turn=turn,
                           body="".join(f"{x}\n" for x in lines))
    env = parse_envelope(text)
    assert (env.game, env.seat, env.password, env.turn) == (game, seat, password, turn)
    assert [x.strip() for x in env.body.split("\n") if x.strip()] == [x.strip() for x in lines]


@given(st.text(max_size=300))
def test_parse_envelope_never_raises(text: str) -> None:
    parse_envelope(text)


def test_a_turn_of_non_ascii_or_endless_digits_is_a_problem_not_a_crash() -> None:
    for value in ("²", "٣", "1" * 40):
        env = parse_envelope(f"GAME g\nSEAT s\nTURN {value}\nPLAY 1\n")
        assert env.turn is None and env.problems == [f'TURN must be a step number, not "{value}"']
