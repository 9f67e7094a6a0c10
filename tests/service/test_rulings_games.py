"""GM rulings on every hosted game (issue: GM-run adjudication, "tests for every game").

Each game is played a few steps by its bots through the service; then the GM prints the
position, changes one element every seat sees and one that only one seat may see (a
hand, a standing order, a sealed score, a treasury during sealed bidding), and rules with
`pbem gm edit`. The test checks the audit, each seat's report against that seat's view,
the public archive, the orders on file judged again and their sender told, and `archive
verify`; a bad file and a broken invariant get one line naming the field (the latter
passes with --force); `gm adjudicate` locks the orders on file.

CASES is the per-game table: each edit is (regex on the position text, replacement),
applied once; the test first proves the table right (the visible edit shows in the
public view, the hidden one in its seat's view only).
"""

from __future__ import annotations

import html
import json
import random
import re
from dataclasses import dataclass
from email import message_from_bytes
from email.policy import default

import pytest
from clock import T0
from sqlmodel import select
from typer.testing import CliRunner

from pbem.archive.export import export_game, step_file
from pbem.cli.app import app
from pbem.core.diff import diff_lines
from pbem.core.engine import canonical_json, digest, process
from pbem.core.envelope import render_envelope
from pbem.reports.context import report_context
from pbem.rulesets import get as get_ruleset
from pbem.service import rulings
from pbem.service.games import create_game, find_game, live_step
from pbem.service.orders import orders_on_file, submit_orders
from pbem.service.turns import process_turn
from pbem.store.db import session_scope
from pbem.store.models import Audit, Outbox, Step

runner = CliRunner()
Edit = tuple[str, str]  # (regex, replacement), applied once to the position text
# KEK's election step is a paused resolution: a change outside pause.snapshot is made
# in the snapshot too, or the resolution, which runs again from it, would undo it.
KEK_TREASURY = r"^(\[{}players\.felvidek\]\n(?:.*\n)*?treasury = )\d+"


def kek(pattern: str, replacement: str) -> list[Edit]:
    """The same edit outside pause.snapshot and in it (`{}` in `pattern` is the table
    prefix)."""
    return [(pattern.format(prefix), replacement) for prefix in ("", r"pause\.snapshot\.")]



@dataclass(frozen=True)
class Case:
    ruleset: str
    seats: tuple[str, ...]
    steps: int  # bot steps played before the ruling
    visible: Edit | list[Edit]  # an element every seat and the public see
    hidden: Edit | list[Edit]  # an element only `hidden_seat` sees
    hidden_seat: str
    bad: tuple[Edit | list[Edit], str]  # an impossible position, its one-line error (regex)
    warning: tuple[Edit | list[Edit], str]  # a broken invariant, its warning (regex)
    # A line the first awaited seat adds to its bot's orders on file, judged otherwise
    # after the ruling (so its sender must be told); "" where the bot's lines suffice.
    extra: str = ""
    # A seat list of another player count, for `game new --position` to refuse.
    other_seats: tuple[str, ...] = ()

    def __str__(self) -> str:
        return self.ruleset


CASES = [
    Case("battlelore", ("north", "south"), 6,
         visible=(r"^figures = 4$", "figures = 3"),
         hidden=(r'^(\[standing\.north\]\n(?:.*\n)*?battleback = )"(?!always")\w+"',
                 r'\1"always"'),
         hidden_seat="north",
         bad=((r'^scenario = "\w+"', 'scenario = "waterloo"'),
              r"position: scenario: 'waterloo' is not an adventure of data/scenarios\.toml"),
         warning=((r'^(\[hands\]\nnorth = \[)"(?!scout_left")\w+"', r'\1"scout_left"'),
                  r"position: deck, discard, hands: the Command cards are not the whole deck")),
    Case("cherubion", ("alpha", "beta"), 6,
         visible=(r"^ep = 60$", "ep = 50"),
         hidden=(r'^(hand = \[)"(?!n02")\w+"', r'\1"n02"'),
         hidden_seat="alpha", other_seats=("alpha", "beta", "gamma"),
         bad=((r'^loc = "[^"]*"', 'loc = "Z99"'),
              r"position: pieces\.\w+\.loc: 'Z99' is not a place: a field, base:<side>, "
              r"prison:<seat>, nml or gone"),
         warning=((r"^ep = 60$", "ep = 99"),
                  r"position: pieces\.\w+\.ep: 99 is above its maximum 60")),
    Case("helios", ("north", "east"), 6,
         visible=(r"^(\[players\.north\]\n(?:.*\n)*?mana = )\d+", r"\g<1>3"),
         hidden=(r"^(\[players\.east\]\n(?:.*\n)*?vp = )\d+", r"\g<1>7"),  # scores are secret
         hidden_seat="east", other_seats=("north", "east", "south"),
         bad=((r'^start = "\w+"', 'start = "south"'), r"position: start: 'south' is not a seat"),
         warning=((r"^(\[players\.east\]\n(?:.*\n)*?temples = )\d+", r"\g<1>9"),
                  r"position: players\.east\.temples: 9, but \d+ tiles carry a temple")),
    Case("kard-es-korona", ("felvidek", "tiszahat"), 6,
         visible=kek(r"^(\[{}board\.abauj\.units\]\narch = \d+\ncav = \d+\ninf = )\d+",
                     r"\g<1>3"),
         hidden=kek(KEK_TREASURY, r"\g<1>5"),  # a treasury is secret during the bidding
         hidden_seat="felvidek", other_seats=("felvidek", "erdely", "szlavonia"),
         bad=((r'^start = "\w+"', 'start = "erdely"'), r"position: start: 'erdely' is not a seat"),
         warning=(kek(KEK_TREASURY, r"\g<1>-3"),
                  r"position: players\.felvidek\.treasury: below 0"),
         extra="BID palatine 5"),  # refused with 0 garas, fine with 5
    Case("macht-und-ohnmacht", ("orange", "white"), 6,
         visible=(r"^(\[vp\]\norange = )\d+", r"\g<1>2"),
         hidden=(r'^(\[standing\.white\]\nbid = )\[[^\]]*\]', r'\1["BID vp 3"]'),
         hidden_seat="white",
         bad=((r'^owner = "white"', 'owner = "blue"'),
              r"position: regions\.\w+\.owner: 'blue' is not a seat"),
         warning=((r"^hourglass = \d+", "hourglass = 9"),
                  r"position: hourglass: 9 cubes, expected 0-8")),
]


def apply(text: str, edit: Edit | list[Edit]) -> str:
    for pattern, replacement in edit if isinstance(edit, list) else [edit]:
        new, n = re.subn(pattern, replacement, text, count=1, flags=re.M)
        assert n == 1, f"the edit {pattern!r} matches nothing in the position"
        assert new != text, f"the edit {pattern!r} changes nothing"
        text = new
    return text


def run(db: str, *args: str, code: int = 0) -> str:
    result = runner.invoke(app, ["--db", db, *args])
    out = result.stdout + (result.stderr if result.stderr_bytes is not None else "")
    assert result.exit_code == code, f"{args}: exit {result.exit_code}\n{out}\n{result.exception!r}"
    return out


def bot_file(engine, case: Case, passwords: dict[str, str], seat: str,  # type: ignore[no-untyped-def]
             rng: random.Random, extra: str = "") -> None:
    """The seat's bot orders for the open step, sent as a player would."""
    rs = get_ruleset(case.ruleset)
    with session_scope(engine) as s:
        step = live_step(s, find_game(s, "g"))
        state = rs.load(json.loads(step.state_json))
        body = "".join(f"{x}\n" for x in rs.legal_orders(state, seat, rng)) + "CONFIRM\n"
        body += f"{extra}\n" if extra else ""
        r = submit_orders(s, render_envelope(game="g", seat=seat, password=passwords[seat],
                                             turn=step.number, body=body), now=T0)
        assert r.accepted, r.reason


def awaited(engine) -> list[str]:  # type: ignore[no-untyped-def]
    with session_scope(engine) as s:
        return sorted(json.loads(live_step(s, find_game(s, "g")).awaiting_json))


def mid_game(engine, case: Case) -> tuple[dict[str, str], random.Random]:  # type: ignore[no-untyped-def]
    """A game of `case` after `case.steps` steps played by the bots through the service."""
    with session_scope(engine) as s:
        pw = create_game(s, ruleset_id=case.ruleset, name="g", seed="rulings", now=T0,
                         seats={x: f"{x}@example.org" for x in case.seats}).passwords
    rng = random.Random(1)
    for _ in range(case.steps):
        for seat in awaited(engine):
            bot_file(engine, case, pw, seat, rng)
        with session_scope(engine) as s:
            process_turn(s, "g", now=T0, force=True)
    assert awaited(engine), "the game must still be running"
    return pw, rng


def gm_changes(events: list[str]) -> list[str]:
    return [e for e in events if e.startswith(("Changed: ", "Changed for you: "))]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_gm_edit_of_a_visible_and_a_hidden_element(engine, db_url, tmp_path, case: Case) -> None:  # type: ignore[no-untyped-def]
    rs = get_ruleset(case.ruleset)
    pw, rng = mid_game(engine, case)
    sender = awaited(engine)[0]
    bot_file(engine, case, pw, sender, rng, case.extra)  # orders on file when the GM rules
    with session_scope(engine) as s:
        game = find_game(s, "g")
        open_step = live_step(s, game)
        old_echo = orders_on_file(s, open_step)[sender].echo
        text = rulings.position_of(s, "g")
    before = rs.load_position(text)

    # The table is right: the visible edit shows in every view, the hidden one in its
    # seat's view only.
    for edit, seen_by in ((case.visible, set(case.seats) | {None}),
                          (case.hidden, {case.hidden_seat})):
        after = rs.load_position(apply(text, edit))
        changed = {seat for seat in (None, *case.seats)
                   if diff_lines(rs.view(before, seat), rs.view(after, seat))}
        assert changed == seen_by, f"{edit[0]!r} is seen by {changed}, not {seen_by}"

    edited = apply(apply(text, case.visible), case.hidden)
    path = tmp_path / "ruling.toml"
    path.write_text(edited)
    reason = "a disputed ruling, settled"
    out = run(db_url, "gm", "edit", "g", str(path), "--reason", reason, "--as", "Gábor Kiss")
    assert f"step {open_step.number + 1} is open" in out
    after = rs.load_position(edited)

    with session_scope(engine) as s:
        game = find_game(s, "g")
        ruled = s.exec(select(Step).where(Step.game_id == game.id,
                                          Step.number == open_step.number)).one()
        nxt = live_step(s, game)
        # The audit: a step of its own, with reason, GM and both digests.
        assert ruled.kind == "ruling" and ruled.closed_at is not None
        info = json.loads(ruled.ruling_json)
        assert (info["reason"], info["gm"]) == (reason, "Gábor Kiss")
        assert info["before"] == digest(ruled.state_json) == ruled.state_digest
        assert info["after"] == digest(nxt.state_json) != info["before"]
        assert info["position"] == edited
        row = s.exec(select(Audit).where(Audit.action == "gm-edit")).one()
        detail = json.loads(row.detail)
        assert row.actor == "Gábor Kiss" and detail["reason"] == reason
        assert (detail["before"], detail["after"]) == (info["before"], info["after"])
        assert nxt.commitment != ruled.commitment  # a new dice commitment

        # Each seat's report: the reason, then exactly the public changes and the changes
        # of its own view; never another seat's hidden part.
        public = diff_lines(rs.view(before, None), rs.view(after, None))
        assert public
        for seat in (None, *case.seats):
            events = report_context(s, "g", seat=seat)["happened"]["events"]
            assert f"The GM changed the position: {reason}" in events
            own = [x for x in diff_lines(rs.view(before, seat), rs.view(after, seat))
                   if x not in public] if seat else []
            assert gm_changes(events) == ([f"Changed: {x}" for x in public]
                                          + [f"Changed for you: {x}" for x in own]), seat
            assert bool(own) == (seat == case.hidden_seat), seat
        hidden_lines = [x for x in diff_lines(rs.view(before, case.hidden_seat),
                                              rs.view(after, case.hidden_seat))
                        if x not in public]
        for seat in (None, *case.seats):
            if seat != case.hidden_seat:
                text_seen = "\n".join(report_context(s, "g", seat=seat)["happened"]["events"])
                assert not any(x in text_seen for x in hidden_lines), seat

        # The orders on file went on to the new step, judged again; their sender is told
        # when their meaning changed.
        carried = orders_on_file(s, nxt)
        assert set(carried) == {sender}
        new_echo = "\n".join(rs.parse(after, sender, carried[sender].body).echo()
                             or ["(no order lines)"])
        assert carried[sender].echo == new_echo
        told = [o for o in s.exec(select(Outbox))
                if o.subject == "[g] your orders after the GM's ruling"]
        assert new_echo != old_echo or not case.extra
        if new_echo != old_echo:
            assert [o.recipient for o in told] == [f"{sender}@example.org"]
            mail = message_from_bytes(told[0].raw, policy=default)
            assert new_echo in mail.get_body(("plain",)).get_content()
        else:
            assert told == []
        gm_mail = [o for o in s.exec(select(Outbox))
                   if o.subject == f"[g] your ruling on step {open_step.number}"]
        assert len(gm_mail) == 1  # the GM gets every change of the state, hidden ones too
        full = message_from_bytes(gm_mail[0].raw, policy=default).get_body(("plain",)).get_content()
        state_diff = diff_lines(rs.dump(before), rs.dump(after))
        assert state_diff and all(x in full for x in state_diff)

        # The public archive: the ruling and its public changes, no hidden part, no GM
        # section while the game runs.
        site = tmp_path / "site"
        export_game(s, "g", site)
        page = html.unescape((site / step_file(nxt.number)).read_text())
        assert f"The GM changed the position: {reason}" in page
        assert all(f"Changed: {x}" in page for x in public)
        assert not any(x in page for x in hidden_lines)
        assert not (site / "gm").exists() and "gm/index.html" not in (site / "index.html").read_text()

    assert "recomputed identically" in run(db_url, "archive", "verify", "g")
    # The game goes on from the ruled position, and still verifies.
    for seat in awaited(engine):
        if seat != sender:
            bot_file(engine, case, pw, seat, rng)
    with session_scope(engine) as s:
        process_turn(s, "g", now=T0, force=True)
    assert "recomputed identically" in run(db_url, "archive", "verify", "g")


@pytest.mark.parametrize("case", CASES, ids=str)
def test_bad_positions_and_broken_invariants_get_one_line(engine, db_url, tmp_path,  # type: ignore[no-untyped-def]
                                                          case: Case) -> None:
    mid_game(engine, case)
    with session_scope(engine) as s:
        text = rulings.position_of(s, "g")
        before = live_step(s, find_game(s, "g")).number
    path = tmp_path / "bad.toml"
    bad = {
        apply(text, (r"^\[", "[[")): "error: position: not valid TOML",
        apply(text, case.bad[0]): f"error: {case.bad[1]}$",
        text.replace("pbem.format = 1", "pbem.format = 1\nweather = \"fine\""):
            "error: position: weather: unknown field",
        apply(text, case.warning[0]): f"error: {case.warning[1]}.*; confirm with --force$",
    }
    for content, message in bad.items():
        path.write_text(content)
        err = run(db_url, "gm", "edit", "g", str(path), "--reason", "x", code=1)
        assert re.match(message, err.rstrip("\n")), err
        assert err.count("\n") == 1, err
    with session_scope(engine) as s:  # nothing was ruled
        assert live_step(s, find_game(s, "g")).number == before
        assert not list(s.exec(select(Audit).where(Audit.action == "gm-edit")))
    out = run(db_url, "gm", "edit", "g", str(path), "--reason", "a house rule", "--force")
    assert f"step {before + 1} is open" in out
    with session_scope(engine) as s:
        step = s.exec(select(Step).where(Step.game_id == find_game(s, "g").id,
                                         Step.number == before)).one()
        warnings = json.loads(step.ruling_json)["warnings"]
        assert re.match(case.warning[1], f"position: {warnings[0]}"), warnings
    assert "recomputed identically" in run(db_url, "archive", "verify", "g")


@pytest.mark.parametrize("case", CASES, ids=str)
def test_gm_adjudicate_a_step_with_orders_on_file(engine, db_url, tmp_path, case: Case) -> None:  # type: ignore[no-untyped-def]
    rs = get_ruleset(case.ruleset)
    pw, rng = mid_game(engine, case)
    for seat in awaited(engine):
        bot_file(engine, case, pw, seat, rng)
    with session_scope(engine) as s:
        game = find_game(s, "g")
        step = live_step(s, game)
        bodies = {seat: sub.body for seat, sub in orders_on_file(s, step).items()}
        hashes = {seat: sub.file_hash for seat, sub in orders_on_file(s, step).items()}
        result = apply(rulings.position_of(s, "g"), case.visible)
    path = tmp_path / "result.toml"
    path.write_text(result)
    run(db_url, "gm", "adjudicate", "g", str(path), "--reason", "resolved at the table")
    with session_scope(engine) as s:
        game = find_game(s, "g")
        closed = s.exec(select(Step).where(Step.game_id == game.id,
                                           Step.number == step.number)).one()
        assert closed.kind == "adjudicated"
        assert json.loads(closed.applied_json) == bodies
        assert json.loads(closed.file_hashes_json) == hashes and closed.orders_digest
        nxt = live_step(s, game)
        assert nxt.state_json == canonical_json(rs.dump(rs.load_position(result)))
        assert orders_on_file(s, nxt) == {}  # the orders were used up by the ruling
        for seat in (None, *case.seats):
            events = report_context(s, "g", seat=seat)["happened"]["events"]
            assert f"The GM adjudicated step {step.number}: resolved at the table" in events
    assert "recomputed identically" in run(db_url, "archive", "verify", "g")


def test_a_ruling_on_a_paused_resolution_is_not_undone_by_its_replay(engine, db_url,  # type: ignore[no-untyped-def]
                                                                     tmp_path) -> None:
    """Found by these tests: the kit resumes a paused resolution from pause.snapshot, so
    a ruling that changed only the state outside it was silently undone by the next step
    (here a treasury during an election). Such a file is refused, naming the field; made
    in the snapshot too, the change holds."""
    case = CASES[3]
    rs = get_ruleset(case.ruleset)
    pw, rng = mid_game(engine, case)
    with session_scope(engine) as s:
        text = rulings.position_of(s, "g")
    assert "[pause.snapshot]" in text, "the election must be a paused resolution"
    path = tmp_path / "ruling.toml"
    path.write_text(apply(text, (KEK_TREASURY.format(""), r"\g<1>5")))
    err = run(db_url, "gm", "edit", "g", str(path), "--reason", "x", code=1)
    assert err == ("error: position: players.felvidek.treasury: the open step is a question "
                   "in the middle of a resolution that runs again from pause.snapshot when "
                   "answered, which would undo this change; make it in "
                   "pause.snapshot.players.felvidek.treasury too\n")

    def treasury_after_the_election(position: str) -> int:
        state = rs.load_position(position)
        out = process(rs, canonical_json(rs.dump(state)), {s: "BID palatine 0\n"
                                                           for s in case.seats},
                      seed=b"s" * 32, force=True)
        return int(out.state["players"]["felvidek"]["treasury"])

    path.write_text(apply(text, case.hidden))
    run(db_url, "gm", "edit", "g", str(path), "--reason", "a lost tax roll found")
    with session_scope(engine) as s:
        ruled = rulings.position_of(s, "g")
    assert treasury_after_the_election(ruled) == treasury_after_the_election(text) + 5
    for seat in awaited(engine):
        bot_file(engine, case, pw, seat, rng)
    with session_scope(engine) as s:
        process_turn(s, "g", now=T0, force=True)
    assert "recomputed identically" in run(db_url, "archive", "verify", "g")


@pytest.mark.parametrize("case", CASES, ids=str)
def test_game_new_from_a_mid_game_position(engine, db_url, tmp_path, case: Case) -> None:  # type: ignore[no-untyped-def]
    mid_game(engine, case)
    text = run(db_url, "gm", "position", "g")
    path = tmp_path / "mid.toml"
    path.write_text(text)
    seats = [f"--seat={x}={x}@example.org" for x in case.seats]
    out = run(db_url, "game", "new", case.ruleset, "g2", *seats, "--position", str(path),
              "--seed", "again")
    assert "step 1 is open" in out
    assert run(db_url, "gm", "position", "g2") == text
    assert "recomputed identically" in run(db_url, "archive", "verify", "g2")
    if case.other_seats:
        # Found by this test: Cherubion keeps its seats under config.seats, and a position
        # for two seats started a game of three (the third seat was never asked).
        others = [f"--seat={x}={x}@example.org" for x in case.other_seats]
        err = run(db_url, "game", "new", case.ruleset, "g3", *others, "--position", str(path),
                  code=1)
        assert err == (f"error: position: seats: the position has {', '.join(case.seats)}; "
                       f"the game has {', '.join(case.other_seats)}\n")
