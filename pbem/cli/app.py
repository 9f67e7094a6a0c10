"""The `pbem` command line. Thin: it parses arguments, calls services and prints.

Every command exits non-zero with one line `error: ...` on bad input. Each command imports
what it needs when it runs (SQLAlchemy, the models, the rulesets), so `pbem --help` and an
idle `pbem tick` start in a few hundredths of a second.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from pbem.config import Settings, load_settings
from pbem.service.errors import ServiceError

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine
    from sqlmodel import Session

# Plain help and errors: rich formatting would cost a tenth of a second at every start.
PLAIN: dict[str, Any] = {"no_args_is_help": True, "rich_markup_mode": None}
app = typer.Typer(help="pbem: a play-by-email turn processor.", **PLAIN,
                  add_completion=False, pretty_exceptions_enable=False)
game_app = typer.Typer(help="Create and inspect games.", **PLAIN)
orders_app = typer.Typer(help="Check and submit order files.", **PLAIN)
turn_app = typer.Typer(help="Process steps.", **PLAIN)
archive_app = typer.Typer(help="Export and verify game archives.", **PLAIN)
gm_app = typer.Typer(help="Game-master tools (every action is audited).", **PLAIN)
mail_app = typer.Typer(help="Mail in and out.", **PLAIN)
app.add_typer(game_app, name="game")
app.add_typer(orders_app, name="orders")
app.add_typer(turn_app, name="turn")
app.add_typer(archive_app, name="archive")
app.add_typer(gm_app, name="gm")
app.add_typer(mail_app, name="mail")


class _State:
    settings: Settings | None = None
    config: Path | None = None
    engine: Engine | None = None
    fail_code: int = 1  # 75 (EX_TEMPFAIL) under an MTA pipe: the MTA tries again later
    config_error: str | None = None
    now: Callable[[], datetime] = staticmethod(lambda: datetime.now(UTC))


state = _State()


EX_TEMPFAIL = 75  # sysexits.h: the MTA keeps the mail and tries again


def fail(message: str, code: int = 1) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


@app.callback()
def _main(
    db: Annotated[str | None, typer.Option(help="SQLAlchemy URL (default sqlite:///db/pbem.sqlite; env PBEM_DB)")] = None,
    config: Annotated[Path | None, typer.Option(help="TOML config file (default ./pbem.toml)")] = None,
) -> None:
    state.fail_code = 1
    state.config_error = None
    try:
        settings = load_settings(config)
    except (OSError, ValueError) as e:
        # Said by the first command that needs the settings, with its exit code (75 for
        # `mail receive`, so an MTA keeps the mail while the GM mends the file).
        state.settings, state.config, state.engine = None, config, None
        state.config_error = str(e)
        return
    if db:
        settings.db = db
    state.settings = settings
    state.config = config
    state.engine = None


def settings() -> Settings:
    if state.config_error:
        fail(state.config_error, state.fail_code)
    if state.settings is None:
        state.settings = load_settings()
    return state.settings


def engine(*, write: bool = True) -> Engine:
    """The database, created or upgraded first when this user may write it. A command
    that only reads (`write=False`) also opens an SQLite file it may not write, read-only
    (`store.db.connect_read_only`)."""
    if state.engine is None:
        from sqlalchemy import exc

        from pbem.service.vault import attach_key
        from pbem.store.db import ReadOnlyDatabase, connect, connect_read_only, migrate

        url = settings().db
        try:
            eng = connect(url)
            migrate(eng)
        except Exception as e:  # a bad URL or an unreachable server: one line
            if write or not isinstance(e, exc.OperationalError):
                fail(f"cannot open the database {url}: {str(e).splitlines()[0]}",
                     state.fail_code)
            try:
                eng = connect_read_only(url)
            except ReadOnlyDatabase as why:
                fail(f"cannot open the database {url}: {why}", state.fail_code)
        attach_key(eng, settings().secret_key)
        state.engine = eng
        _warn_stale_addresses(eng)
    return state.engine


def _warn_stale_addresses(eng: Engine) -> None:
    from pbem.service.addresses import stale_address_warnings
    from pbem.store.db import read_scope

    with read_scope(eng) as s:
        for line in stale_address_warnings(s, settings().address):
            typer.echo(f"warning: {line}", err=True)


@contextmanager
def session(*, write: bool = True) -> Iterator[Session]:
    """A transaction for a command; `write=False` for one that only reads (it then works
    on a database this user may not write)."""
    from pbem.store.db import read_scope, session_scope

    try:
        with (session_scope(engine()) if write else read_scope(engine(write=False))) as s:
            yield s
    except ServiceError as e:
        fail(str(e))


def out_json(data: Any) -> None:
    typer.echo(json.dumps(data, indent=2, ensure_ascii=False, sort_keys=True))


def parse_kv(items: list[str] | None, what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key or not value:
            fail(f'{what} "{item}" must look like KEY=VALUE')
        out[key.strip()] = value.strip()
    return out


def _option_value(text: str) -> Any:
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return {"true": True, "false": False, "none": None}.get(text.lower(), text)


# --- init, rulesets ------------------------------------------------------------------------

@app.command()
def init() -> None:
    """Create (or upgrade) the database and the order spool folders."""
    engine()
    spool = Path(settings().spool)
    for sub in ("inbox", "processed", "rejected"):
        (spool / sub).mkdir(parents=True, exist_ok=True)
    typer.echo(f"database ready: {settings().db}")
    typer.echo(f"order spool: {spool}/inbox")


@app.command()
def rulesets(as_json: Annotated[bool, typer.Option("--json", help="machine-readable")] = False) -> None:
    """List the hosted games."""
    from pbem.rulesets import all_rulesets

    rows: list[dict[str, Any]] = []
    for rid, r in sorted(all_rulesets().items()):
        rows.append({"id": rid, "title": r.title, "min_players": r.min_players,
                     "max_players": r.max_players,
                     "seats": {str(n): list(r.seat_ids(n, r.default_variant()))
                               for n in range(r.min_players, r.max_players + 1)},
                     "variants": [{"id": v.id, "title": v.title} for v in r.variants],
                     "options": [{"key": o.key, "default": o.default, "choices": list(o.choices)}
                                 for o in r.options]})
    if as_json:
        out_json(rows)
        return
    for row in rows:
        typer.echo(f"{row['id']:22} {row['title']}  ({row['min_players']}-{row['max_players']} "
                   f"players; variants: {', '.join(v['id'] for v in row['variants'])})")
        for n, seat_ids in row["seats"].items():
            typer.echo(f"{'':24}{n} players: seats {' '.join(seat_ids)}")


# --- games -----------------------------------------------------------------------------------

@game_app.command("new")
def game_new(
    ruleset: Annotated[str, typer.Argument(help="ruleset id, see `pbem rulesets`")],
    name: Annotated[str, typer.Argument(help="the game's name (one word)")],
    seat: Annotated[list[str], typer.Option(help="SEAT=EMAIL, once per seat, in seating order")],
    variant: Annotated[str | None, typer.Option(help="variant id")] = None,
    seed: Annotated[str | None, typer.Option(help="master seed for a reproducible game (default: secret random)")] = None,
    deadline: Annotated[str | None, typer.Option(help='step length (72h, 3d, 90m) or a time of day ("20:00 Europe/Budapest"; add "+36h" to leave at least 36 hours)')] = None,
    option: Annotated[list[str] | None, typer.Option(help="ruleset option KEY=VALUE")] = None,
    setting: Annotated[list[str] | None, typer.Option(help="game setting KEY=VALUE: early, extensions, extension_hours, civil_disorder_after, hold, mail_retention_days, view_json, language, seat_language")] = None,
    position: Annotated[Path | None, typer.Option(help="start from this position file (the game's notation, e.g. from `pbem gm position`)")] = None,
    force: Annotated[bool, typer.Option(help="accept a position that breaks the game's invariants (piece counts...)")] = False,
    lang: Annotated[str | None, typer.Option("--lang", help="the language of the players' mail: en or hu (the setting `language`; per seat: --setting seat_language=north=hu)")] = None,
) -> None:
    """Create a game, queue a welcome mail per seat, and print each seat's password
    (shown once; only a hash is kept)."""
    from pbem.service import mailflow
    from pbem.service.games import create_game

    seats = parse_kv(seat, "--seat")
    options = {k: _option_value(v) for k, v in parse_kv(option, "--option").items()}
    settings_ = {k: _option_value(v) for k, v in parse_kv(setting, "--setting").items()}
    if lang is not None:
        settings_["language"] = lang
    from pbem.service.deadlines import parse_deadline

    try:
        rule = parse_deadline(deadline) if deadline else None
    except ServiceError as e:
        fail(str(e))
    hours = rule.hours if rule else None
    if rule and rule.at:
        settings_["deadline"] = rule.to_json()
    start = _read_text(position) if position is not None else None
    with session() as s:
        new = create_game(s, ruleset_id=ruleset, name=name, seats=seats, variant=variant,
                          seed=seed, options=options, deadline_hours=hours, now=state.now(),
                          settings=settings_, position=start, force=force)
        mailflow.queue_welcome(s, settings(), new.game, new.passwords, now=state.now())
        mailflow.queue_reports(s, settings(), new.game, now=state.now())
        typer.echo(f"game {new.game.name} created ({new.game.ruleset}, variant {new.game.variant}); "
                   f"step {new.game.step} is open")
        for seat_id, password in new.passwords.items():
            typer.echo(f"  {seat_id:14} {seats[seat_id]:30} password: {password}")


def parse_duration(text: str) -> float:
    units = {"h": 1.0, "d": 24.0, "m": 1 / 60}
    t = text.strip().lower()
    try:
        if t[-1] in units:
            return float(t[:-1]) * units[t[-1]]
        return float(t)
    except (ValueError, IndexError):
        fail(f'"{text}" is not a duration; write e.g. 72h, 3d or 90m')


@game_app.command("list")
def game_list(as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """List all games."""
    from sqlmodel import col, select

    from pbem.store.models import Game

    with session(write=False) as s:
        games = list(s.exec(select(Game).order_by(col(Game.id))))
        rows = [{"name": g.name, "ruleset": g.ruleset, "status": g.status, "step": g.step}
                for g in games]
    if as_json:
        out_json(rows)
    elif not rows:
        typer.echo("no games yet; create one with `pbem game new`")
    for r in rows if not as_json else []:
        typer.echo(f"{r['name']:24} {r['ruleset']:22} {r['status']:9} step {r['step']}")


@game_app.command("show")
def game_show(name: str, as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Show a game: seats, step, awaited seats, deadline, status."""
    from pbem.service.games import find_game
    from pbem.service.summary import summary

    with session(write=False) as s:
        data = summary(s, find_game(s, name))
    if as_json:
        out_json(data)
        return
    typer.echo(f"{data['name']}: {data['ruleset']} ({data['variant']}), {data['status']}, "
               f"step {data['step']}{' - ' + data['phase'] if data['phase'] else ''}")
    for seat in data["seats"]:
        mark = ("orders in" if seat["seat"] in data["orders_in"] else "awaited") \
            if seat["seat"] in data["awaited"] else ""
        if seat["seat"] in data["wait"]:
            mark += ", WAIT (not before the deadline)" if mark else "WAIT (not before the deadline)"
        bounced = f"  ({seat['bounces']} bounced mail(s))" if seat["bounces"] else ""
        typer.echo(f"  {seat['seat']:14} {seat['email']:30} {mark}{bounced}")
    typer.echo(f"deadline: {data['deadline'] or 'none'}")
    if data["result"]:
        typer.echo(f"result: {', '.join(data['result']['winners'])} won "
                   f"({data['result'].get('reason', '')})")


# --- orders ----------------------------------------------------------------------------------

def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    p = Path(path)
    if not p.is_file():
        fail(f"no such file: {path}")
    return p.read_bytes().decode("utf-8", errors="replace")


@orders_app.command("check")
def orders_check(file: Annotated[str, typer.Argument(help="order file, or - for stdin")]) -> None:
    """Parse an order file and echo it line by line; store nothing."""
    from pbem.service.orders import check_orders

    with session(write=False) as s:
        receipt = check_orders(s, _read(file), now=state.now())
    typer.echo(receipt.text().rstrip())
    if not receipt.accepted or any("-> ERROR:" in line for line in receipt.lines):
        raise typer.Exit(1)


@orders_app.command("submit")
def orders_submit(file: Annotated[str, typer.Argument(help="order file, or - for stdin")]) -> None:
    """Submit an order file for the game's open step (the latest file wins)."""
    from pbem.service.orders import submit_orders

    with session() as s:
        receipt = submit_orders(s, _read(file), now=state.now(), source="cli")
    typer.echo(receipt.text().rstrip())
    if not receipt.accepted:
        raise typer.Exit(1)


@orders_app.command("spool")
def orders_spool() -> None:
    """Submit every file in the spool's inbox/ (moved to processed/ or rejected/), then
    process the steps they completed and send the reports."""
    from pbem.service import digests, mailflow
    from pbem.service.orders import process_spool
    from pbem.service.tick import after_mail
    from pbem.store.db import session_scope

    spool = Path(settings().spool)
    (spool / "inbox").mkdir(parents=True, exist_ok=True)
    items = process_spool(lambda: session_scope(engine()), spool, now=state.now())
    with session() as s:  # refusals are told to the seats, as refused mail is
        mailflow.notify_spool(s, settings(), items, now=state.now())
        digests.queue_password_digests(s, settings(), now=state.now())
    for item in items:
        verdict = "accepted" if item.receipt.accepted else "REFUSED: " + item.receipt.reason
        typer.echo(f"{item.path.name}: {verdict}")
    if not items:
        typer.echo("the spool is empty")
        return
    for line in after_mail(engine(), settings=settings(), now=state.now()):
        typer.echo(line)


# --- turns -----------------------------------------------------------------------------------

@turn_app.command("process")
def turn_process(
    name: str,
    force: Annotated[bool, typer.Option(help="apply default orders for seats that sent none")] = False,
) -> None:
    """Process the game's open step."""
    from pbem.service import mailflow
    from pbem.service.games import find_game
    from pbem.service.turns import process_turn

    with session() as s:
        done = process_turn(s, name, now=state.now(), force=force)
        mailflow.queue_reports(s, settings(), find_game(s, name), now=state.now())
    if done.outcome.defaulted:
        typer.echo(f"default orders for: {', '.join(done.outcome.defaulted)}")
    typer.echo(f"step {done.step} of {done.game} processed; "
               + ("the game is over: " + ", ".join(done.outcome.result.winners) + " won"
                  if done.finished and done.outcome.result else f"step {done.next_step} is open"))


@app.command()
def report(
    name: str,
    seat: Annotated[str | None, typer.Option(help="seat id (omit for the public report)")] = None,
    step: Annotated[int | None, typer.Option(help="step number (default: the open step)")] = None,
    fmt: Annotated[str, typer.Option("--format", help="text or html")] = "text",
    as_json: Annotated[bool, typer.Option("--json", help="the report's data as JSON")] = False,
    seeds: Annotated[bool, typer.Option("--seeds", help="every step's dice commitment, and its seed once revealed (reports list only the new ones)")] = False,
    lang: Annotated[str | None, typer.Option("--lang", help="en or hu (default: the seat's language in the game)")] = None,
) -> None:
    """Render the report that opens a step, as a seat sees it."""
    from pbem.locale import LANGUAGES, normalise
    from pbem.reports.context import report_context, seed_list
    from pbem.reports.render import render_report
    from pbem.service.games import find_game
    from pbem.service.language import language_of

    if fmt not in ("text", "html"):
        fail("--format is text or html")
    if lang is not None and not normalise(lang):
        fail(f"--lang is one of {', '.join(LANGUAGES)}")
    if seeds:
        with session(write=False) as s:
            rows = seed_list(s, name)
        if as_json:
            out_json(rows)
        for row in rows if not as_json else []:
            typer.echo(f"step {row['step']:5}: " + (f"seed {row['seed']}" if row["seed"] else
                                                     f"seed secret; commitment {row['commitment']}"))
        return
    with session(write=False) as s:
        # The open step's deadline says how long is left; an older report's does not.
        lang = normalise(lang) or language_of(find_game(s, name), seat)
        ctx = report_context(s, name, seat=seat, step=step,
                             now=state.now() if step is None else None, lang=lang)
    if as_json:
        ctx = {k: v for k, v in ctx.items() if k != "board_svg"}
        out_json(ctx)
        return
    typer.echo(render_report(ctx, fmt=fmt, override=settings().templates, lang=lang), nl=False)


# --- archive ----------------------------------------------------------------------------------

@archive_app.command("export")
def archive_export(name: str, directory: Path) -> None:
    """Write a static HTML site of the game to DIRECTORY. For a finished game whose mail is
    kept until then (the default `mail_retention_days`), the bodies of its sent mail go."""
    from pbem.archive.export import export_game
    from pbem.service import retention
    from pbem.service.games import find_game

    with session() as s:
        total = find_game(s, name).step
        with typer.progressbar(length=total, label="exporting", file=sys.stderr) as bar:
            files = export_game(s, name, directory, override=settings().templates,
                                progress=bar.update)
        dropped = retention.archive_exported(s, find_game(s, name))
    typer.echo(f"{len(files)} pages written to {directory}/index.html")
    if dropped:
        typer.echo(f"the archive is the record now: {dropped} sent mail bodies dropped "
                   "(headers and hashes kept)")


@archive_app.command("verify")
def archive_verify(
    name: str,
    archive: Annotated[Path | None, typer.Option(help="an exported site: check its GM section's position files against the rulings' digests too")] = None,
) -> None:
    """Recompute the whole game from its config, orders and seeds; name the first difference."""
    from pbem.archive.verify import verify_archive_rulings, verify_game
    from pbem.service.games import find_game

    with session(write=False) as s:
        total = find_game(s, name).step
        with typer.progressbar(length=total, label="verifying", file=sys.stderr) as bar:
            v = verify_game(s, name, progress=bar.update)
        problem = v.problem or (verify_archive_rulings(s, name, archive)
                                if archive is not None else None)
    if problem:
        fail(f"{v.game}: {problem}")
    typer.echo(f"{v.game}: all {v.steps_checked} processed steps recomputed identically")
    if archive is not None:
        typer.echo(f"{v.game}: the position files in {archive}/gm match the rulings' digests")


# --- GM ---------------------------------------------------------------------------------------

@gm_app.command("pause")
def gm_pause(name: str, reason: Annotated[str, typer.Option()] = "") -> None:
    """Pause a game: no orders accepted, no deadline runs."""
    from pbem.service import gm, gm_notices

    with session() as s:
        game = gm.pause(s, name, now=state.now(), reason=reason)
        gm_notices.paused(s, settings(), game, reason=reason, now=state.now())
    typer.echo(f"{name} paused; the players are told")


@gm_app.command("resume")
def gm_resume(name: str, by: Annotated[str | None, typer.Option(help="give the open step this long from now, e.g. 24h")] = None) -> None:
    """Resume a paused game. The deadline gets back the time it had left when you paused
    (at least 1h); after an automatic hold 1h; with --by, that long from now."""
    from pbem.service import gm, gm_notices

    hours = parse_duration(by) if by else None
    with session() as s:
        g = gm.resume(s, name, now=state.now(), hours=hours)
        gm_notices.resumed(s, settings(), g, now=state.now())
        left = (f" ({(g.deadline - state.now()).total_seconds() / 3600:.3g}h from now)"
                if g.deadline else "")
        typer.echo(f"{name} resumed; deadline {g.deadline or 'none'}{left}")


@gm_app.command("extend")
def gm_extend(
    name: str,
    by: Annotated[str, typer.Option(help="e.g. 24h, 2d; negative (-12h) only with --shorten")] = "24h",
    shorten: Annotated[bool, typer.Option(help="allow a negative --by: move the deadline earlier")] = False,
) -> None:
    """Move the open step's deadline later (from the deadline, or from now if it has
    passed). On a paused game: the time the step gets when it resumes grows instead."""
    from pbem.service import gm, gm_notices
    from pbem.service.games import find_game

    with session() as s:
        ext = gm.extend(s, name, hours=parse_duration(by), now=state.now(), shorten=shorten)
        gm_notices.extended(s, settings(), find_game(s, name), ext, now=state.now())
    if ext.paused_left_hours is not None:
        typer.echo(f"{name} is paused; when resumed, the step gets {ext.paused_left_hours:.3g}h")
    else:
        typer.echo(f"{name}: deadline now {ext.after}; the players are told")


@gm_app.command("preview")
def gm_preview(name: str) -> None:
    """Show what processing the open step now would give; nothing is stored."""
    from pbem.service.turns import preview_turn

    with session() as s:
        outcome = preview_turn(s, name)
        s.rollback()
    typer.echo("PREVIEW (nothing stored)")
    for e in outcome.events:
        typer.echo(f"- {e.text}" + (f"   [to {', '.join(e.to)}]" if e.to else ""))
    for r in outcome.rolls:
        typer.echo(f"  roll {r.purpose}: {r.value}")
    if outcome.defaulted:
        typer.echo(f"default orders for: {', '.join(outcome.defaulted)}")


@gm_app.command("rollback")
def gm_rollback(
    name: str,
    to: Annotated[int, typer.Option("--to", help="the step to reopen")],
    reprocess: Annotated[bool, typer.Option(help="process the reopened step at once")] = False,
) -> None:
    """Roll back to an earlier step (history is kept) and optionally re-process it."""
    from pbem.service import gm, gm_notices, mailflow
    from pbem.service.games import find_game

    with session() as s:
        rb = gm.rollback(s, name, to, now=state.now(), reprocess=reprocess)
        game = find_game(s, name)
        gm_notices.rolled_back(s, settings(), game, rb, now=state.now())
        # the report of the open step: the reopened one, or the one after it
        mailflow.queue_reports(s, settings(), game, now=state.now())
        deadline = game.deadline
    typer.echo(f"{name} rolled back to step {rb.to_step}"
               + ("; re-processed" if rb.reprocessed else
                  f"; it is open for orders until {deadline or 'the GM processes it'} "
                  "(the orders on file are kept, marked WAIT); its report is mailed again"))
    for seat_id, lines in sorted(rb.changes.items()):
        typer.echo(f"  {seat_id}: {'; '.join(lines)}")


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        fail(f"cannot read {path}: {e}")


@gm_app.command("position")
def gm_position(
    name: str,
    step: Annotated[int | None, typer.Option(help="the step (default: the open one)")] = None,
) -> None:
    """Print a step's position in the game's notation, hidden parts included (GM only).
    Edit it and hand it to `gm edit`, `gm adjudicate` or `game new --position`."""
    from pbem.service.rulings import position_of

    with session(write=False) as s:
        text = position_of(s, name, step=step)
    typer.echo(text, nl=False)


def _rule(name: str, file: Path, reason: str, force: bool, gm_name: str | None, *,
          adjudicate: bool) -> None:
    from pbem.service import mailflow, rulings
    from pbem.service.games import find_game

    text = _read_text(file)
    actor = gm_name or settings().gm
    do = rulings.adjudicate if adjudicate else rulings.edit_position
    with session() as s:
        r = do(s, name, text, reason=reason, actor=actor, force=force, now=state.now())
        game = find_game(s, name)
        for seat_id, (email, echo) in sorted(r.rejudged.items()):
            mailflow.queue(s, settings(), kind="notice", to=email, game=game, seat=seat_id,
                           now=state.now(),
                           subject=f"[{name}] your orders after the GM's ruling",
                           text=("The GM changed the position of step "
                                 f"{r.closed} ({reason}). Your orders on file now count for "
                                 f"step {r.opened} and read:\n{echo}\n"),
                           key=("rejudged", name, r.opened, seat_id))
        for seat_id, (email, why) in sorted(r.dropped.items()):
            mailflow.queue(s, settings(), kind="notice", to=email, game=game, seat=seat_id,
                           now=state.now(), subject=f"[{name}] your orders after the GM's ruling",
                           text=f"The GM changed the position ({reason}). {why}.\n",
                           key=("dropped", name, r.opened, seat_id))
        mailflow.notify_gm(s, settings(), game, f"[{name}] your ruling on step {r.closed}",
                           f"Reason: {reason}\nEvery change of the state:\n"
                           + "\n".join(r.full_diff) + "\n", now=state.now(),
                           key=("ruling", name, r.closed, game.generation))
        mailflow.queue_reports(s, settings(), game, now=state.now())
    what = "adjudicated" if adjudicate else "changed the position of"
    typer.echo(f"{name}: the GM {what} step {r.closed}; step {r.opened} is open "
               f"({len(r.full_diff)} change(s); reports queued)")
    for w in r.warnings:
        typer.echo(f"  confirmed: {w}")
    for seat_id in sorted(r.rejudged):
        typer.echo(f"  {seat_id}: orders judged again (mailed)")


@gm_app.command("edit")
def gm_edit(
    name: str,
    file: Annotated[Path, typer.Argument(help="the new position (edit the output of `gm position`)")],
    reason: Annotated[str, typer.Option(help="why, in one line: every player reads it")],
    force: Annotated[bool, typer.Option(help="accept a position that breaks the game's invariants")] = False,
    gm_name: Annotated[str | None, typer.Option("--as", help="who rules (default: the gm address)")] = None,
) -> None:
    """Rule on a dispute: replace the open step's position. Audited; every seat is told
    what changed in its own view; orders on file are judged again."""
    _rule(name, file, reason, force, gm_name, adjudicate=False)


@gm_app.command("adjudicate")
def gm_adjudicate(
    name: str,
    file: Annotated[Path, typer.Argument(help="the position that results from the step")],
    reason: Annotated[str, typer.Option(help="why, in one line: every player reads it")],
    force: Annotated[bool, typer.Option(help="accept a position that breaks the game's invariants")] = False,
    gm_name: Annotated[str | None, typer.Option("--as", help="who rules (default: the gm address)")] = None,
) -> None:
    """Resolve the open step by hand: the orders on file are locked and the given
    position is the result, instead of the engine's."""
    _rule(name, file, reason, force, gm_name, adjudicate=True)


@gm_app.command("replace-seat")
def gm_replace_seat(name: str, seat: str, email: str) -> None:
    """Give a seat to a new player (the history keeps the old one); prints the new password.
    The other players and the one who left are told."""
    from pbem.service import gm, gm_notices, mailflow
    from pbem.service.games import find_game, seat_row

    with session() as s:
        password = gm.replace_seat(s, name, seat, email, now=state.now())
        game = find_game(s, name)
        row = seat_row(s, game, seat)
        assert row is not None
        mailflow.queue_welcome(s, settings(), game, {row.seat: password}, now=state.now())
        gm_notices.replaced(s, settings(), game, seat, now=state.now())
    typer.echo(f"{seat} of {name} is now played by {row.email}; password: {password} "
               "(a welcome mail with it is queued; the old password and reply addresses "
               "no longer work)")


@gm_app.command("rotate-token")
def gm_rotate_token(name: str, seat: str) -> None:
    """Renew a seat's reply addresses: every token mailed so far stops working, and the
    player gets a mail whose reply address works for the open step."""
    from pbem.service import gm, mailflow
    from pbem.service.games import find_game

    with session() as s:
        row = gm.rotate_token(s, name, seat, now=state.now())
        mailflow.queue_new_reply_address(s, settings(), find_game(s, name), row, now=state.now())
    typer.echo(f"{row.seat} of {name}: reply addresses renewed; a mail with a new one is queued "
               f"to {row.email}")


@gm_app.command("seat-settings")
def gm_seat_settings(
    name: str,
    seat: str,
    values: Annotated[list[str] | None, typer.Argument(help="KEY=VALUE: zone=Europe/Budapest, format=text|html|both, attach=board,json|none|default, digest=on|off, quiet=22:00-07:00|off, away=2026-12-24..2027-01-02|off, language=en|hu|default (none: show them)")] = None,
) -> None:
    """Show or set a player's own settings (the player sets them by mail with SETTINGS
    lines): time zone, mail format, attachments, digest, quiet hours, away, language."""
    from pbem.service import players
    from pbem.service.games import find_game, seat_row

    with session() as s:
        game = find_game(s, name)
        if values:
            changed, echo = players.gm_change(s, game, seat, values, now=state.now())
            for line in echo:
                typer.echo(f"{changed.seat}: {line.split('-> OK: ', 1)[-1]}")
        row = seat_row(s, game, seat)
        if row is None:
            fail(f'game {game.name} has no seat "{seat}"')
        lines = players.footer(game, row)
    typer.echo(f"{row.seat} of {name} ({row.email}): {lines[0]}")
    typer.echo(f"  {lines[1]}")


@gm_app.command("announce")
def gm_announce(name: str, text: str) -> None:
    """Mail an announcement to all players of a game."""
    from pbem.service import gm, gm_notices
    from pbem.service.games import find_game

    with session() as s:
        gm.announce(s, name, text, now=state.now())
        gm_notices.announced(s, settings(), find_game(s, name), text, now=state.now())
    typer.echo("announcement queued to every seat")


@gm_app.command("setting")
def gm_setting(
    name: str,
    values: Annotated[list[str], typer.Argument(help="KEY=VALUE, e.g. view_json=north,south or mail_retention_days=90 (none: until the archive)")],
) -> None:
    """Change game settings during the game (see `pbem game new --setting`)."""
    from pbem.service import gm

    with session() as s:
        changed = gm.set_settings(s, name, {k: _option_value(v) for k, v in
                                            parse_kv(values, "setting").items()}, now=state.now())
    for key, value in sorted(changed.items()):
        typer.echo(f"{name}: {key} = {json.dumps(value)}")


@gm_app.command("log")
def gm_log(name: str) -> None:
    """Show the game's audit log."""
    from pbem.service import gm

    with session(write=False) as s:
        for row in gm.audit_log(s, name):
            typer.echo(f"{row.at:%Y-%m-%d %H:%M} {row.actor:10} {row.action:14} {row.detail}")


# --- whole games ------------------------------------------------------------------------------

@app.command()
def selfplay(
    ruleset: str,
    games: Annotated[int, typer.Option(help="how many games")] = 10,
    seed: Annotated[int, typer.Option(help="first seed; game i uses seed+i")] = 1,
    variant: Annotated[str | None, typer.Option()] = None,
    players: Annotated[int | None, typer.Option(help="player count (default: the maximum)")] = None,
    option: Annotated[list[str] | None, typer.Option(help="ruleset option KEY=VALUE, e.g. decisions=ask")] = None,
    verify: Annotated[bool, typer.Option(help="check every state's JSON round trip (--no-verify: the engine as it runs live)")] = True,
) -> None:
    """Random bots play whole games through the engine (no mail, no database)."""
    from pbem.core.ruleset import GameConfig
    from pbem.core.selfplay import play
    from pbem.rulesets import get

    try:
        r = get(ruleset)
    except KeyError as e:
        fail(str(e.args[0]))
    v = variant or r.default_variant()
    if v not in {x.id for x in r.variants}:
        fail(f"unknown variant {v!r}; choose one of {', '.join(x.id for x in r.variants)}")
    n = players or r.max_players
    if not r.min_players <= n <= r.max_players:
        fail(f"{r.id} takes {r.min_players}-{r.max_players} players")
    options = {k: _option_value(val) for k, val in parse_kv(option, "--option").items()}
    config = GameConfig(r.seat_ids(n, v), v, options)
    problems = r.check_config(config)
    if problems:
        fail(problems[0])
    t0 = time.perf_counter()
    steps = rounds = 0
    slowest = 0.0
    wins: dict[str, int] = {}
    with typer.progressbar(range(games), label="playing", file=sys.stderr) as bar:
        for i in bar:
            p = play(r, config, seed + i, timer=time.perf_counter, verify=verify)
            steps += p.steps
            rounds += p.rounds
            slowest = max(slowest, p.max_step_seconds)
            for w in p.result.winners if p.result else ():
                wins[w] = wins.get(w, 0) + 1
            typer.echo(f"game {seed + i}: {', '.join(p.result.winners) if p.result else '?'} "
                       f"won ({p.result.reason if p.result else ''}); {p.steps} steps; "
                       f"final {p.final_digest[:12]}")
    dt = time.perf_counter() - t0
    typer.echo(f"{games} games in {dt:.2f}s: {games / dt:.2f} games/s, {steps / dt:.0f} steps/s, "
               f"slowest step {slowest * 1000:.1f} ms, "
               f"{steps / max(rounds, 1):.2f} steps per game round")
    typer.echo("wins: " + ", ".join(f"{k} {v}" for k, v in sorted(wins.items())))


@app.command()
def demo(
    ruleset: Annotated[str | None, typer.Option(help="a ruleset id, or all (default: the first hosted)")] = None,
    variant: Annotated[str | None, typer.Option(help="a variant id (default: the ruleset's first; with --ruleset all: every variant)")] = None,
    players: Annotated[int | None, typer.Option(help="player count (default: the maximum)")] = None,
    option: Annotated[list[str] | None, typer.Option(help="ruleset option KEY=VALUE, e.g. decisions=ask")] = None,
    out: Annotated[Path | None, typer.Option(help="a new or empty folder to keep the demo in (default: a temporary folder)")] = None,
    seed: Annotated[int, typer.Option()] = 1,
    max_steps: Annotated[int, typer.Option(help="give up after this many steps")] = 2000,
) -> None:
    """Whole games between bots through the real mail path (SMTP listener, maildir), then
    the archive, exported and verified. It runs in a folder of its own, with its own
    database and default configuration: it never reads pbem.toml, PBEM_* variables or
    --db, never mails through a relay and never touches your games."""
    import tempfile

    from pbem.service.demo import plan, prepare_folder, run_demo

    options = {k: _option_value(v) for k, v in parse_kv(option, "--option").items()}
    try:
        plan(ruleset, variant=variant, players=players, options=options)
        folder = prepare_folder(out or Path(tempfile.mkdtemp(prefix="pbem-demo-")))
        typer.echo(f"demo in {folder}: its own database, configuration and maildir; "
                   "your games, pbem.toml and mail relay are not touched")
        results = run_demo(out=folder, ruleset_id=ruleset, variant=variant, players=players,
                           options=options, seed=seed, max_steps=max_steps,
                           now=state.now(), echo=typer.echo, timer=time.perf_counter,
                           cpu_timer=time.process_time)
    except ServiceError as e:
        fail(str(e))
    if any(r.status != "finished" or r.verified for r in results):
        fail("a demo game did not finish or did not verify")
    typer.echo(f"{len(results)} game(s) played to the end; everything is in {folder}")


@app.command()
def tick() -> None:
    """Do once what is due: stored mail and spooled files in, due steps processed (NMR
    ladder), reminders, the outbox sent. For cron."""
    if _idle(settings(), state.now()):
        return
    from pbem.service.polling import poll
    from pbem.service.tick import tick as run_tick

    for line in poll(engine(), settings=settings(), now=state.now()):
        typer.echo(line)
    for line in run_tick(engine(), spool=Path(settings().spool), now=state.now(),
                         settings=settings()):
        typer.echo(line)


@app.command()
def serve(
    listen: Annotated[bool, typer.Option(help="run the built-in SMTP listener (see `listen` setting)")] = True,
) -> None:
    """Run everything: the SMTP listener, mail polling, deadlines, reminders, the outbox."""
    from pbem.scheduler.serve import serve as run_serve
    from pbem.service import mailflow
    from pbem.store.db import session_scope

    eng = engine()

    def on_message(raw: bytes) -> None:
        mailflow.receive(lambda: session_scope(eng), raw, source="smtp", settings=settings(),
                         now=state.now())

    try:
        run_serve(settings(), config=str(state.config.resolve()) if state.config else None, listen=listen,
                  on_message=on_message, echo=typer.echo)
    except OSError as e:
        fail(f"cannot listen on {settings().listen}: {e}")


@mail_app.command("receive")
def mail_receive(file: Annotated[str, typer.Argument(help="an RFC 5322 message, or - (from an MTA pipe)")] = "-") -> None:
    """Store and apply one mail (for an MTA pipe: `| pbem mail receive`), then process the
    step it completed and send the echo and the reports. Exits 0 once the mail is stored,
    whatever it holds; 75 (EX_TEMPFAIL) when it cannot be stored, so the MTA keeps it and
    tries again."""
    from pbem.service import mailflow
    from pbem.service.tick import after_mail
    from pbem.store.db import session_scope

    state.fail_code = EX_TEMPFAIL  # whatever stops this mail being stored
    if file != "-" and not Path(file).is_file():
        fail(f"no such file: {file}", EX_TEMPFAIL)
    try:
        with (sys.stdin.buffer if file == "-" else Path(file).open("rb")) as stream:
            raw, size = mailflow.read_limited(stream, settings().max_mail_bytes)
        eng = engine()
        r = mailflow.receive(lambda: session_scope(eng), raw, source="pipe",
                             settings=settings(), now=state.now(), size=size)
    except typer.Exit:
        raise
    except Exception as e:  # noqa: BLE001 - not stored: the MTA must try again
        fail(f"the mail was not stored ({type(e).__name__}: {e}".splitlines()[0][:300]
             + "); the MTA will try again", EX_TEMPFAIL)
    typer.echo(f"{r.message_id}: {r.status}{' - ' + r.reason if r.reason else ''}")
    state.fail_code = 1
    try:
        for line in after_mail(eng, settings=settings(), now=state.now()):
            typer.echo(line)  # the step it completed, the echo and the reports, in this run
    except Exception as e:  # noqa: BLE001 - the mail is stored (exit 0); the next tick goes on
        typer.echo(f"note: processing after the mail failed ({type(e).__name__}: {e}"
                   .splitlines()[0][:300] + "); the next tick does it", err=True)


@mail_app.command("poll")
def mail_poll() -> None:
    """Fetch new mail from IMAP (PBEM_IMAP) and the inbox maildir, store and apply it; then
    process the steps it completed and send what is queued."""
    from pbem.service.polling import poll
    from pbem.service.tick import after_mail

    if not settings().imap and not settings().inbox:
        fail("nothing to poll: set PBEM_IMAP (imap://user:pass@host/INBOX) or `inbox` (a maildir)")
    lines = poll(engine(), settings=settings(), now=state.now())
    for line in lines:
        typer.echo(line)
    typer.echo(f"{len(lines)} message(s) handled")
    for line in after_mail(engine(), settings=settings(), now=state.now()) if lines else ():
        typer.echo(line)


@mail_app.command("send")
def mail_send() -> None:
    """Send the outbox: through PBEM_SMTP, or into the local maildir when no relay is set."""
    from pbem.service import mailflow
    from pbem.store.db import session_scope

    eng = engine()
    r = mailflow.send_outbox(lambda: session_scope(eng), settings(), now=state.now())
    where = settings().smtp or f"maildir {settings().maildir}"
    typer.echo(f"{r.sent} sent to {where}, {r.retried} to retry later, {r.failed} failed")


@mail_app.command("retry")
def mail_retry(
    id_: Annotated[list[int] | None, typer.Option("--id", help="an outbox row id (see `pbem mail outbox`)")] = None,
    all_failed: Annotated[bool, typer.Option("--all-failed", help="every failed mail")] = False,
) -> None:
    """Queue failed mail (refused by the relay) again; `pbem mail send` or the next tick sends it."""
    from pbem.service.outbox import retry_failed

    if not id_ and not all_failed:
        fail("say which mail: --id N (see `pbem mail outbox`) or --all-failed")
    with session() as s:
        n = retry_failed(s, now=state.now(), ids=None if all_failed else list(id_ or []))
    if id_ and not all_failed and n < len(id_):
        fail(f"{n} of {len(id_)} mail(s) queued again; the others are not failed mail")
    typer.echo(f"{n} failed mail(s) queued again")


@mail_app.command("outbox")
def mail_outbox(name: Annotated[str | None, typer.Argument(help="a game (default: all)")] = None) -> None:
    """List queued, held (a player's digest or quiet hours: with when it is due), failed and
    bounced mail."""
    from sqlmodel import col, select

    from pbem.service.games import find_game, seats_of
    from pbem.store.models import Outbox

    now = state.now()
    with session(write=False) as s:
        q = select(Outbox).where(col(Outbox.status).notin_(("sent", "digested")))
        if name:
            game = find_game(s, name)
            q = q.where(Outbox.game_id == game.id)
            for row in seats_of(s, game):
                if row.bounces:
                    typer.echo(f"{row.seat}: {row.bounces} bounced mail(s) to {row.email}")
        for mail in s.exec(q.order_by(col(Outbox.id))):
            due = mail.next_attempt_at.replace(tzinfo=UTC) if mail.next_attempt_at else None
            later = (f"due {due:%Y-%m-%d %H:%M} UTC " if due and due > now
                     and mail.status in ("queued", "held") else "")
            typer.echo(f"{mail.id:5} {mail.status:8} {mail.kind:8} {mail.recipient:30} "
                       f"tries {mail.attempts} {later}{mail.last_error or ''}".rstrip())


def _idle(cfg: Settings, now: datetime) -> bool:
    """Nothing for a tick to do: nothing due in the database (one query, sqlite3 only), no
    spooled file, no mailbox to poll."""
    from pbem.store.quick import idle_sqlite

    spool = Path(cfg.spool) / "inbox"
    return not cfg.imap and not cfg.inbox and bool(idle_sqlite(cfg.db, now=now)) and not (
        spool.is_dir() and any(p.is_file() and not p.name.startswith(".") for p in spool.iterdir()))


def main() -> None:
    """Entry point: a bug still ends in one line (PBEM_DEBUG=1 shows the traceback)."""
    import os

    if sys.argv[1:] == ["tick"]:
        # Cron's bare `pbem tick`: when idle, answered before the command line is parsed
        # (typer's parameter handling alone costs a tenth of a second of CPU).
        try:
            if _idle(load_settings(), datetime.now(UTC)):
                return
        except (OSError, ValueError):
            pass  # a bad config file: the command line says so
    try:
        app(standalone_mode=True)
    except Exception as e:  # noqa: BLE001
        if os.environ.get("PBEM_DEBUG"):
            raise
        typer.echo(f"error: internal error: {type(e).__name__}: {e}".splitlines()[0], err=True)
        sys.exit(EX_TEMPFAIL if state.fail_code == EX_TEMPFAIL else 2)


if __name__ == "__main__":
    main()
