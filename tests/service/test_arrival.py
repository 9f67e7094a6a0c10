"""Orders judged on arrival (issue: every order line gets an outcome): a file with no
usable line is not on file; a file with refused lines does not count as "in" for early
processing until the player sends a clean file or CONFIRM."""

from __future__ import annotations

import json

from clock import T0

from pbem.core.envelope import render_envelope
from pbem.service.games import create_game, find_game, live_step
from pbem.service.orders import orders_on_file, submit_orders
from pbem.service.turns import ready


def _game(session):  # type: ignore[no-untyped-def]
    new = create_game(session, ruleset_id="highcard", name="g1", seed="fixed",
                      seats={"north": "n@example.org", "south": "s@example.org"},
                      deadline_hours=48, now=T0)
    game = find_game(session, "g1")
    hands = json.loads(live_step(session, game).state_json)["hands"]
    return new.passwords, hands, game


def send(session, seat, pw, body):  # type: ignore[no-untyped-def]
    return submit_orders(session, render_envelope(game="g1", seat=seat, password=pw, turn=None, body=body),
                         now=T0)


def test_a_file_without_one_usable_line_is_not_on_file(session) -> None:  # type: ignore[no-untyped-def]
    pw, hands, game = _game(session)
    r = send(session, "north", pw["north"], "PLAY 99\nPLAYY 3\n")
    assert not r.accepted
    assert r.reason.startswith("no line of your file can be used, so nothing was put on file; "
                               "you are still awaited")
    assert "line 4: PLAY 99  -> ERROR: you hold no 99" in r.text()
    assert orders_on_file(session, live_step(session, game)) == {}


def test_refused_lines_hold_early_processing_until_confirm_or_a_clean_file(session) -> None:  # type: ignore[no-untyped-def]
    pw, hands, game = _game(session)
    assert send(session, "south", pw["south"], f"PLAY {hands['south'][0]}\n").accepted
    r = send(session, "north", pw["north"], f"PLAY {hands['north'][0]}\nPLAY 99\n")
    assert r.accepted and "1 line(s) are refused" in r.reason and "CONFIRM" in r.reason
    assert ready(session, game, now=T0) is None  # a typo does not trigger the step
    c = send(session, "north", pw["north"], "CONFIRM\n")
    assert c.accepted and c.reason == ("CONFIRM noted: your file counts as it is (1 refused "
                                       "line(s) are not used)")
    assert ready(session, game, now=T0) == "all orders in"
    # a new file with an error is held again; a clean one counts at once
    send(session, "north", pw["north"], f"PLAY {hands['north'][1]}\nPLAY 98\n")
    assert ready(session, game, now=T0) is None
    send(session, "north", pw["north"], f"PLAY {hands['north'][1]}\n")
    assert ready(session, game, now=T0) == "all orders in"
