"""Positions and GM rulings through the service and the command line (issue: GM-run
adjudication), on the kit's test game: print a position, change a visible and a hidden
element, `gm edit` it, and check the audit, each seat's report, the carried orders and
`archive verify`; `gm adjudicate`; `game new --position`; bad files refused."""

from __future__ import annotations

import json
import re
from email import message_from_bytes
from email.policy import default
from pathlib import Path

import pytest
from clock import T0
from sqlmodel import select
from typer.testing import CliRunner

from pbem.archive.verify import verify_game
from pbem.cli.app import app
from pbem.reports.context import report_context
from pbem.rulesets import register
from pbem.service import rulings
from pbem.service.games import ServiceError, create_game, find_game, live_step
from pbem.service.orders import orders_on_file, submit_orders
from pbem.service.turns import process_turn
from pbem.store.db import session_scope
from pbem.store.models import Audit, Outbox, Step
from tests.core.kit.duel import Duel

register(Duel())
runner = CliRunner()


def run(db: str, *args: str, code: int = 0) -> str:
    result = runner.invoke(app, ["--db", db, *args])
    out = result.stdout + (result.stderr if result.stderr_bytes is not None else "")
    assert result.exit_code == code, f"{args}: exit {result.exit_code}\n{out}\n{result.exception!r}"
    return out


def _start(engine) -> dict[str, str]:  # type: ignore[no-untyped-def]
    with session_scope(engine) as s:
        new = create_game(s, ruleset_id="duel", name="d1", seed="r",
                          seats={"red": "red@example.org", "blue": "blue@example.org"}, now=T0)
    pw = new.passwords
    with session_scope(engine) as s:
        for seat, bid in (("red", 3), ("blue", 0)):
            r = submit_orders(s, f"GAME d1\nSEAT {seat}\nPASSWORD {pw[seat]}\nBID {bid}\n", now=T0)
            assert r.accepted, r.reason
        process_turn(s, "d1", now=T0)  # step 2: red's turn
    return pw


def test_gm_edit_changes_a_visible_and_a_hidden_element_openly(engine, db_url) -> None:  # type: ignore[no-untyped-def]
    pw = _start(engine)
    with session_scope(engine) as s:
        r = submit_orders(s, f"GAME d1\nSEAT red\nPASSWORD {pw['red']}\nHEAL\nATTACK 1\n", now=T0)
        assert "note: you are at full health" in "\n".join(r.lines)
        text = rulings.position_of(s, "d1")
    assert 'active = "red"' in text and "[hp]" in text
    edited = (text.replace("red = 10", "red = 6")  # visible to all
              .replace('red = ""', 'red = "ALWAYS"'))  # red's standing order: hidden from blue
    pos = Path(db_url.removeprefix("sqlite:///")).parent / "ruling.toml"
    pos.write_text(edited)
    out = run(db_url, "gm", "edit", "d1", str(pos), "--reason", "red was hit by a misread die",
              "--as", "Gábor")
    assert "step 2" in out and "step 3 is open" in out and "red: orders judged again" in out
    with session_scope(engine) as s:
        game = find_game(s, "d1")
        ruled = s.exec(select(Step).where(Step.game_id == game.id, Step.number == 2)).one()
        assert ruled.kind == "ruling" and ruled.closed_at is not None
        info = json.loads(ruled.ruling_json)
        assert info["reason"] == "red was hit by a misread die" and info["gm"] == "Gábor"
        assert info["before"] != info["after"]
        row = s.exec(select(Audit).where(Audit.action == "gm-edit")).one()
        assert json.loads(row.detail)["reason"] == "red was hit by a misread die"
        assert row.actor == "Gábor"
        # orders on file went on to step 3, judged again (the note is gone: red is hurt)
        step3 = live_step(s, game)
        carried = orders_on_file(s, step3)
        assert set(carried) == {"red"} and "note" not in carried["red"].echo
        # each seat's report: the reason, the public change, its own hidden change only
        red = [e for e in report_context(s, "d1", seat="red")["happened"]["events"]]
        blue = [e for e in report_context(s, "d1", seat="blue")["happened"]["events"]]
        public = report_context(s, "d1", seat=None)["happened"]["events"]
        red_t, blue_t, pub_t = ([getattr(e, "text", e) for e in x] for x in (red, blue, public))
        for seen in (red_t, blue_t, pub_t):
            assert "The GM changed the position: red was hit by a misread die" in seen
            assert "Changed: hp.red: 10 -> 6" in seen
        assert 'Changed for you: my_guard: "" -> "ALWAYS"' in red_t
        assert not any("my_guard" in t for t in blue_t + pub_t)
        mails = {o.subject for o in s.exec(select(Outbox))}
        assert "[d1] your orders after the GM's ruling" in mails
        assert "[d1] your ruling on step 2" in mails
        assert verify_game(s, "d1").ok
    # the game goes on from the ruled position and still verifies
    with session_scope(engine) as s:
        out2 = process_turn(s, "d1", now=T0, force=True)
        assert out2.outcome.state["hp"]["red"] == 7  # HEAL from 6
        assert verify_game(s, "d1").ok


def test_a_ruling_cannot_hide_a_changed_position(engine, db_url) -> None:  # type: ignore[no-untyped-def]
    _start(engine)
    with session_scope(engine) as s:
        text = rulings.position_of(s, "d1")
        rulings.edit_position(s, "d1", text.replace("blue = 10", "blue = 8"), reason="r",
                              actor="gm", now=T0)
    with session_scope(engine) as s:
        game = find_game(s, "d1")
        step3 = live_step(s, game)
        forged = json.loads(step3.state_json)
        forged["hp"]["blue"] = 2
        step3.state_json = json.dumps(forged, sort_keys=True, separators=(",", ":"))
        from pbem.core.engine import digest
        step3.state_digest = digest(step3.state_json)
        s.add(step3)
    with session_scope(engine) as s:
        v = verify_game(s, "d1")
        assert not v.ok and "state differs from the ruling's position" in v.problem


def test_gm_adjudicate_locks_the_orders_on_file(engine) -> None:  # type: ignore[no-untyped-def]
    pw = _start(engine)
    with session_scope(engine) as s:
        submit_orders(s, f"GAME d1\nSEAT red\nPASSWORD {pw['red']}\nATTACK 3\n", now=T0)
        text = rulings.position_of(s, "d1")
        result = text.replace("blue = 10", "blue = 7").replace('active = "red"',
                                                               'active = "blue"')
        r = rulings.adjudicate(s, "d1", result, reason="the GM rolled at the table",
                               actor="gm", now=T0)
        assert r.kind == "adjudicated" and r.opened == 3
        game = find_game(s, "d1")
        step2 = s.exec(select(Step).where(Step.game_id == game.id, Step.number == 2)).one()
        assert json.loads(step2.applied_json)["red"].strip() == "ATTACK 3"
        assert step2.orders_digest and json.loads(step2.file_hashes_json)["red"]
        assert list(json.loads(live_step(s, game).awaiting_json)) == ["blue"]
        assert verify_game(s, "d1").ok


def test_bad_positions_and_invariants_get_one_line(engine) -> None:  # type: ignore[no-untyped-def]
    _start(engine)
    with session_scope(engine) as s:
        text = rulings.position_of(s, "d1")
        cases = {
            text.replace("blue = 10", "blue = -"): "position: not valid TOML",
            text.replace('phase = "turn"', 'phase = "nap"'): "position: phase: expected",
            text: "the position is the same as the open step's",
            text.replace("blue = 10", "blue = 12"): "position: hp.blue: 12 hit points is more "
                                                     "than the 10 a seat starts with; confirm with --force",
        }
        for bad, message in cases.items():
            with pytest.raises(ServiceError) as err:
                rulings.edit_position(s, "d1", bad, reason="x", actor="gm", now=T0)
            assert str(err.value).startswith(message), str(err.value)
            assert "\n" not in str(err.value)
        with pytest.raises(ServiceError, match="needs a --reason"):
            rulings.edit_position(s, "d1", text, reason=" ", actor="gm", now=T0)
        r = rulings.edit_position(s, "d1", text.replace("blue = 10", "blue = 12"),
                                  reason="a house rule", actor="gm", now=T0, force=True)
        assert r.warnings == ["hp.blue: 12 hit points is more than the 10 a seat starts with"]
        assert verify_game(s, "d1").ok


def test_game_new_from_a_position_and_gm_position(engine, db_url, tmp_path) -> None:  # type: ignore[no-untyped-def]
    _start(engine)
    text = run(db_url, "gm", "position", "d1")
    pos = tmp_path / "start.toml"
    pos.write_text(text.replace("red = 10", "red = 4"))
    out = run(db_url, "game", "new", "duel", "d2", "--seat", "red=r@example.org",
              "--seat", "blue=b@example.org", "--position", str(pos), "--seed", "p")
    assert "step 1 is open" in out
    assert run(db_url, "gm", "position", "d2") == text.replace("red = 10", "red = 4")
    with session_scope(engine) as s:
        game = find_game(s, "d2")
        step0 = s.exec(select(Step).where(Step.game_id == game.id, Step.number == 0)).one()
        assert step0.kind == "position"
        assert verify_game(s, "d2").ok
    pos.write_text(text.replace('active = "red"', 'active = "green"'))
    err = run(db_url, "game", "new", "duel", "d3", "--seat", "red=r@example.org",
              "--seat", "blue=b@example.org", "--position", str(pos), code=1)
    assert re.search(r"^error: position: active: 'green' is not a seat$", err, re.M)
    err = run(db_url, "gm", "position", "nope", code=1)
    assert err.count("\n") == 1


def test_a_game_without_position_notation_says_so(engine, db_url) -> None:  # type: ignore[no-untyped-def]
    with session_scope(engine) as s:
        create_game(s, ruleset_id="highcard", name="h1", seed="x",
                    seats={"north": "n@example.org", "south": "s@example.org"}, now=T0)
    err = run(db_url, "gm", "position", "h1", code=1)
    assert "highcard has no position notation" in err


def test_the_archive_gm_section_holds_every_ruling_after_the_end(engine, db_url, tmp_path) -> None:  # type: ignore[no-untyped-def]
    pw = _start(engine)
    with session_scope(engine) as s:
        text = rulings.position_of(s, "d1")
        edit = text.replace("red = 10", "red = 6").replace('red = ""', 'red = "ALWAYS"')
        rulings.edit_position(s, "d1", edit, reason="a misread die", actor="Gábor", now=T0)
    with session_scope(engine) as s:
        submit_orders(s, f"GAME d1\nSEAT red\nPASSWORD {pw['red']}\nATTACK 3\n", now=T0)
        result = rulings.position_of(s, "d1").replace("blue = 10", "blue = 12").replace(
            'active = "red"', 'active = "blue"')
        rulings.adjudicate(s, "d1", result, reason="resolved at the table", actor="Gábor",
                           now=T0, force=True)
    # While the game runs: no GM section (a position file shows every hidden part), and
    # an archive cannot be checked for one.
    run(db_url, "archive", "export", "d1", str(tmp_path / "running"))
    assert not (tmp_path / "running" / "gm").exists()
    assert "GM section" not in (tmp_path / "running" / "index.html").read_text()
    err = run(db_url, "archive", "verify", "d1", "--archive", str(tmp_path / "running"), code=1)
    assert err.splitlines()[-1] == ("error: d1: d1 is not over: an archive has the rulings' position files only "
                   "after the game ends")
    with session_scope(engine) as s:
        for _ in range(40):
            if find_game(s, "d1").status == "finished":
                break
            process_turn(s, "d1", now=T0, force=True)
        assert find_game(s, "d1").status == "finished"
        steps = {st.number: st for st in s.exec(select(Step).where(
            Step.game_id == find_game(s, "d1").id, Step.kind.in_(("ruling", "adjudicated"))))}  # type: ignore[attr-defined]
        assert sorted((n, st.kind) for n, st in steps.items()) == [(2, "ruling"), (3, "adjudicated")]
        infos = {n: json.loads(st.ruling_json) for n, st in steps.items()}
    site = tmp_path / "site"
    run(db_url, "archive", "export", "d1", str(site))
    assert (site / "gm" / "ruling-step-0002.toml").read_text() == edit
    assert (site / "gm" / "ruling-step-0003.toml").read_text() == result
    assert '<a href="gm/index.html">GM section</a>: 2 ruling(s)' in (site / "index.html").read_text()
    page = (site / "gm" / "index.html").read_text()
    rows = re.findall(r"<tr><td>(.*?)</tr>", page)
    assert len(rows) == 2
    for row, n, kind, reason in ((rows[0], 2, "GM ruling", "a misread die"),
                                 (rows[1], 3, "adjudicated by the GM", "resolved at the table")):
        assert row.startswith(f'{n} (told in <a href="../step-{n + 1:04d}.html">step {n + 1}</a>)')
        assert f"<td>{kind}</td><td>{reason}" in row and "<td>Gábor</td>" in row
        assert infos[n]["before"] in row and infos[n]["after"] in row
        assert f'<a href="ruling-step-{n:04d}.toml">' in row
    assert "confirmed with --force: hp.blue: 12 hit points is more than" in rows[1]
    out = run(db_url, "archive", "verify", "d1", "--archive", str(site))
    assert "the position files in" in out and "match the rulings' digests" in out
    # A changed file, or a missing one, is named.
    (site / "gm" / "ruling-step-0003.toml").write_text(result.replace("blue = 12", "blue = 2"))
    err = run(db_url, "archive", "verify", "d1", "--archive", str(site), code=1)
    assert err.splitlines()[-1] == ("error: d1: step 3: gm/ruling-step-0003.toml does not give the state the "
                   "ruling's digest names")
    (site / "gm" / "ruling-step-0002.toml").unlink()
    err = run(db_url, "archive", "verify", "d1", "--archive", str(site), code=1)
    assert err.splitlines()[-1] == "error: d1: step 2: the archive has no gm/ruling-step-0002.toml"


def test_gm_adjudicate_can_end_the_game(engine, db_url, tmp_path) -> None:  # type: ignore[no-untyped-def]
    pw = _start(engine)
    with session_scope(engine) as s:
        submit_orders(s, f"GAME d1\nSEAT red\nPASSWORD {pw['red']}\nATTACK 3\n", now=T0)
        text = rulings.position_of(s, "d1")
    end = (text.replace("blue = 10", "blue = 0")
           .replace('phase = "turn"', 'phase = "over"\nwinner = "red"')
           .replace('active = "red"\n', ""))
    path = tmp_path / "end.toml"
    path.write_text(end)
    run(db_url, "gm", "adjudicate", "d1", str(path), "--reason", "blue conceded at the table")
    with session_scope(engine) as s:
        game = find_game(s, "d1")
        assert game.status == "finished"
        assert json.loads(live_step(s, game).result_json)["winners"] == ["red"]
    run(db_url, "archive", "export", "d1", str(tmp_path / "site"))
    assert (tmp_path / "site" / "gm" / "ruling-step-0002.toml").read_text() == end
    assert "recomputed identically" in run(db_url, "archive", "verify", "d1", "--archive",
                                           str(tmp_path / "site"))


def test_orders_of_a_seat_no_longer_asked_are_judged_again_and_their_sender_told(  # type: ignore[no-untyped-def]
        engine, db_url, tmp_path) -> None:
    pw = _start(engine)
    with session_scope(engine) as s:
        submit_orders(s, f"GAME d1\nSEAT red\nPASSWORD {pw['red']}\nATTACK 2\n", now=T0)
        text = rulings.position_of(s, "d1")
    path = tmp_path / "blue.toml"
    path.write_text(text.replace('active = "red"', 'active = "blue"'))
    run(db_url, "gm", "edit", "d1", str(path), "--reason", "it was blue's turn")
    with session_scope(engine) as s:
        game = find_game(s, "d1")
        echo = orders_on_file(s, live_step(s, game))["red"].echo  # Duel takes standing orders
        assert echo == ("line 4: ATTACK 2  -> ERROR: ATTACK is not yours to send now: blue is "
                        "awaited; you may send standing orders only")
        (mail,) = [o for o in s.exec(select(Outbox))
                   if o.subject == "[d1] your orders after the GM's ruling"]
        assert mail.recipient == "red@example.org"
        body = message_from_bytes(mail.raw, policy=default).get_body(("plain",)).get_content()
        assert "(it was blue's turn)" in body and echo in body
        process_turn(s, "d1", now=T0, force=True)  # the refused line gets its outcome
        (outcome,) = report_context(s, "d1", seat="red")["happened"]["outcomes"]
        assert (outcome["line"], outcome["status"]) == (4, "refused")
        assert verify_game(s, "d1").ok
