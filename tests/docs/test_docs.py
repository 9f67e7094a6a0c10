"""The docs a test keeps true (after sqlite-utils' documentation tests).

- Every shell command in the `sh` blocks of README.md and docs/**/*.md is run, in order,
  in an empty folder per document, as a GM would type it (bash, a clean environment, the
  venv's `pbem` on PATH); any that fails fails the test. Files a document shows (`# pbem.toml`)
  are written where it says, before the commands after them. The players' side (their order
  files and mails, which the docs leave to the player guide) is played by `PLAYERS` below.
- Every code block names its language, so a shell block cannot hide as plain text.
- Every key of `pbem.config.Settings` is in the gm-guide's configuration table, with its
  variable and default, and nothing else is.
- The cron, systemd and MTA-pipe recipes run as written under `env -i PATH=/usr/bin:/bin`,
  with `/srv/pbem` being a folder set up like the guide says.
- The template-override example changes the report the way the guide says.
- The docs refer only to files in the project, and the relay example is not the listener.
- docs/dice.md's worked example is a real game's report, recomputed by its own recipe.
"""

from __future__ import annotations

import json
import os
import random
import re
import shlex
import signal
import smtplib
import socket
import subprocess
import threading
import time
import tomllib
from dataclasses import dataclass, fields
from email.message import EmailMessage
from pathlib import Path

import pytest
from mdblocks import ROOT, Block, Command, blocks, commands, docs
from shell import VENV_BIN, clean_env, sh
from typer.testing import CliRunner

from pbem.cli.app import app
from pbem.config import Settings, load_settings
from pbem.mail.listener import SmtpListener, free_port

LANGUAGES = {"sh", "text", "toml", "jinja", "python", "ini", "crontab", "aliases"}
MINIMAL = {"PATH": "/usr/bin:/bin"}  # what cron, an MTA pipe or a bare unit gives a command

# Commands not run, each with the reason.
SKIP = {
    "python -m pbem.locale.catalogs":
        "a translator's step in the source checkout (it rewrites the catalogs); "
        "tests/reports/test_languages.py checks that the catalogs match the code",
    "python3 -m venv .venv && . .venv/bin/activate && pip install -e .":
        "installs pbem into a new venv: the suite runs inside the venv CI made with the "
        "README's test command, which is the same install",
}
# Servers: started, checked to be up, then stopped the way a GM stops them.
SERVERS = {"pbem serve", "pbem serve --no-listen"}
# In the docs the relay is the host's MTA on port 25; here it is a real SMTP server on a
# free port (the only text the test changes in a file a document shows).
DOC_RELAY = "smtp://127.0.0.1:25"


@dataclass(frozen=True)
class OrderFile:
    """A player's order file for the open step: header, password, TURN, a bot's orders."""

    game: str
    seat: str
    path: str


@dataclass(frozen=True)
class OrderMail(OrderFile):
    """The same file in the body of a mail from the seat's player; a path under a
    maildir's new/ delivers it there."""

    sender: str


# What the players send before a GM's command (keyed by document and command).
PLAYERS: dict[tuple[str, str], list[OrderFile]] = {
    ("README.md", "pbem tick"): [OrderFile("sunrise", "north", "orders/inbox/north.txt"),
                                 OrderFile("sunrise", "east", "orders/inbox/east.txt")],
    ("docs/gm-guide.md", "pbem orders check felvidek.txt"): [
        OrderFile("kassa-1302", "felvidek", "felvidek.txt")],
    ("docs/gm-guide.md", "pbem orders submit tiszahat.txt"): [
        OrderFile("kassa-1302", "tiszahat", "tiszahat.txt")],
    ("docs/gm-guide.md", "pbem orders spool"): [
        OrderFile("kassa-1302", "felvidek", "orders/inbox/felvidek.txt")],
    ("docs/gm-guide.md", "pbem mail receive felvidek.eml"): [
        OrderMail("kassa-1302", "felvidek", "felvidek.eml", "anna@example.org")],
    ("docs/gm-guide.md", "pbem mail poll"): [
        OrderMail("kassa-1302", "tiszahat", "mail/inbox/new/1.tiszahat", "new@example.org")],
}
# The GM's own edits of a position file the docs leave to him ("edit now.toml, then:"):
# before the command, in the file, the pattern becomes the replacement.
GM_EDITS: dict[tuple[str, str], tuple[str, str, str]] = {
    ("docs/gm-guide.md", 'pbem gm edit britain now.toml --reason "white\'s point for the disputed battle"'):
        ("now.toml", r"(\[vp\]\norange = \d+\nwhite = )\d+", r"\g<1>1"),
    ("docs/gm-guide.md", 'pbem gm adjudicate britain result.toml --reason "resolved at the table"'):
        ("result.toml", r"(\[vp\]\norange = )\d+", r"\g<1>2"),
}
# What a command must answer when a player's mail is in it (a refused mail exits 0 too).
EXPECT = {"pbem mail receive felvidek.eml": ": applied", "pbem mail poll": ": applied"}


def shell_docs() -> list[str]:
    return [d for d in docs() if any(b.lang == "sh" for b in blocks(d))]


# --- running a document ------------------------------------------------------------------

@dataclass
class Ran:
    command: Command
    stdout: str
    seconds: float


class DocRun:
    """One document's commands, in order, in `folder`."""

    def __init__(self, doc: str, folder: Path, relay_url: str) -> None:
        self.doc, self.folder, self.relay_url = doc, folder, relay_url
        self.env = clean_env(folder.parent)
        self.passwords: dict[tuple[str, str], str] = {}
        self.ran: list[Ran] = []

    def run(self) -> list[Ran]:
        for block in blocks(self.doc):
            name = block.named_file()
            if block.lang in ("toml", "jinja") and name and not name.startswith("/"):
                self.write_shown_file(block, name)
            if block.lang != "sh":
                continue
            for cmd in commands(block):
                if cmd.bare in SKIP:
                    continue
                for item in PLAYERS.get((self.doc, cmd.bare), []):
                    self.player_sends(item)
                if (self.doc, cmd.bare) in GM_EDITS:
                    self.gm_edits(*GM_EDITS[(self.doc, cmd.bare)])
                t0 = time.perf_counter()
                out = self.serve(cmd) if cmd.bare in SERVERS else self.command(cmd)
                if cmd.bare in EXPECT:
                    assert EXPECT[cmd.bare] in out, f"{cmd.where}: `{cmd.text}` said\n{out}"
                self.note_passwords(cmd, out)
                self.ran.append(Ran(cmd, out, time.perf_counter() - t0))
        return self.ran

    def write_shown_file(self, block: Block, name: str) -> None:
        path = self.folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(block.text.replace(DOC_RELAY, self.relay_url) + "\n", encoding="utf-8")

    def command(self, cmd: Command) -> str:
        done = sh(cmd.text, cwd=self.folder, env=self.env)
        assert done.returncode == 0, (f"{cmd.where}: `{cmd.text}` exited {done.returncode}\n"
                                      f"{done.stdout}{done.stderr}")
        return done.stdout + done.stderr

    def serve(self, cmd: Command) -> str:
        # Port 2525 may be taken on a shared machine: the listener gets a free one.
        port = free_port()
        env = {**self.env, "PBEM_LISTEN": f"127.0.0.1:{port}"}
        proc = subprocess.Popen(shlex.split(cmd.bare), cwd=self.folder, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        lines: list[str] = []
        reader = threading.Thread(target=lambda: lines.extend(proc.stdout or ()), daemon=True)
        reader.start()
        try:
            deadline = time.monotonic() + 60
            while not any("pbem serve: tick every" in line for line in lines):
                assert proc.poll() is None and time.monotonic() < deadline, \
                    f"{cmd.where}: `{cmd.text}` did not start:\n{''.join(lines)}"
                time.sleep(0.1)
            if "--no-listen" not in cmd.bare:
                with smtplib.SMTP("127.0.0.1", port, timeout=10) as client:
                    assert client.noop()[0] == 250
            time.sleep(1.0)  # its first tick
        finally:
            proc.send_signal(signal.SIGINT)
            code = proc.wait(timeout=60)
            reader.join(timeout=10)
        assert code == 0, f"{cmd.where}: `{cmd.text}` stopped with {code}:\n{''.join(lines)}"
        return "".join(lines)

    def note_passwords(self, cmd: Command, out: str) -> None:
        args = shlex.split(cmd.bare)
        game = (args[4] if args[1:3] == ["game", "new"] else
                args[3] if args[1:3] == ["gm", "replace-seat"] else None)
        for line in out.splitlines():
            m = re.match(r"\s*(\S+)\s.*password: (\S+)", line)
            if game and m:
                self.passwords[(game, m[1])] = m[2]

    def gm_edits(self, name: str, pattern: str, replacement: str) -> None:
        path = self.folder / name
        text, n = re.subn(pattern, replacement, path.read_text(encoding="utf-8"))
        assert n == 1, f"{self.doc}: the GM's edit of {name} found nothing to change"
        path.write_text(text, encoding="utf-8")

    def player_sends(self, item: OrderFile) -> None:
        text = order_file(self.folder, item.game, item.seat, self.passwords[(item.game, item.seat)])
        path = self.folder / item.path
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(item, OrderMail):
            if path.parent.name == "new":  # a maildir: all three folders
                for sub in ("cur", "tmp"):
                    (path.parent.parent / sub).mkdir(exist_ok=True)
            msg = EmailMessage()
            msg["From"], msg["To"] = item.sender, "orders@games.example.org"
            msg["Subject"] = f"orders for {item.game}"
            msg["Message-ID"] = f"<{item.seat}.{time.time_ns()}@example.org>"
            msg.set_content(text)
            path.write_bytes(msg.as_bytes())
        else:
            path.write_text(text, encoding="utf-8")


def order_file(folder: Path, game: str, seat: str, password: str) -> str:
    """What a player would send now: the header and a random legal script (the bot's)."""
    from pbem.core.envelope import render_envelope
    from pbem.service.games import find_game, live_step, ruleset_of
    from pbem.store.db import connect, session_scope

    config = folder / "pbem.toml"
    engine = connect(load_settings(config, environ={}).db if config.exists()
                     else f"sqlite:///{folder}/db/pbem.sqlite")
    try:
        with session_scope(engine) as s:
            g = find_game(s, game)
            step = live_step(s, g)
            ruleset = ruleset_of(g)
            lines = ruleset.legal_orders(ruleset.load(json.loads(step.state_json)), seat,
                                         random.Random(f"{game}-{seat}-{step.number}"))
            return render_envelope(game=g.name, seat=seat, password=password, turn=step.number,
                                   body="".join(f"{line}\n" for line in lines))
    finally:
        engine.dispose()


@pytest.fixture(scope="module")
def relay() -> list[bytes]:
    got: list[bytes] = []
    with SmtpListener("127.0.0.1", 0, got.append) as listener:
        got.append(f"smtp://127.0.0.1:{listener.port}".encode())  # the first item: its URL
        yield got


_runs: dict[str, list[Ran]] = {}


def run_doc(doc: str, tmp_path_factory: pytest.TempPathFactory, relay: list[bytes]) -> list[Ran]:
    if doc not in _runs:
        folder = tmp_path_factory.mktemp(Path(doc).stem) / "srv-pbem"
        folder.mkdir()
        _runs[doc] = DocRun(doc, folder, relay[0].decode()).run()
    return _runs[doc]


@pytest.mark.parametrize("doc", shell_docs())
def test_every_shell_command_in_the_docs_runs(doc: str, tmp_path_factory, relay) -> None:  # type: ignore[no-untyped-def]
    ran = run_doc(doc, tmp_path_factory, relay)
    assert ran, f"{doc}: no command ran"
    for r in ran:  # shown with -s: what each command costs
        print(f"{r.seconds:6.2f}s  {r.command.where}  {r.command.bare}")


def test_every_code_block_names_its_language() -> None:
    for doc in docs():
        for block in blocks(doc):
            assert block.lang in LANGUAGES, (f"{block.where}: a code block needs a language "
                                             f"({', '.join(sorted(LANGUAGES))}), not {block.lang!r}")


def test_every_skip_and_hook_names_a_command_of_the_docs() -> None:
    written = {(d, c.bare) for d in docs() for b in blocks(d) if b.lang == "sh"
               for c in commands(b)}
    assert {c for _, c in written} >= set(SKIP), "a stale skip"
    for key in [*PLAYERS, *GM_EDITS]:
        assert key in written, f"{key}: no such command in the docs"


def test_the_shell_docs_are_the_ones_the_project_has() -> None:
    # A new page with commands is picked up by itself; these must stay covered.
    assert {"README.md", "docs/gm-guide.md", "docs/dice.md"} <= set(shell_docs())


# --- configuration --------------------------------------------------------------------------

def config_table() -> dict[str, tuple[str, str]]:
    text = (ROOT / "docs" / "gm-guide.md").read_text(encoding="utf-8")
    head = text.index("| TOML key | variable | default | meaning |")
    rows = {}
    for line in text[head:].split("\n")[2:]:
        if not line.startswith("|"):
            break
        key, var, dflt = (c.strip() for c in line.strip("|").split("|")[:3])
        rows[key.strip("`")] = (var.strip("`"), dflt)
    return rows


def _value(cell: str) -> object:
    if cell == "none":
        return None
    if cell.startswith("`") and cell.endswith("`"):
        return cell.strip("`")
    return float(cell)


def test_the_configuration_table_lists_every_key_with_its_variable_and_default() -> None:
    table = config_table()
    keys = [f.name for f in fields(Settings)]
    assert sorted(table) == sorted(keys), "docs/gm-guide.md's table and pbem.config.Settings differ"
    defaults = Settings()
    for key in keys:
        var, cell = table[key]
        assert var == f"PBEM_{key.upper()}", key
        want = getattr(defaults, key)
        got = _value(cell)
        assert got == (float(want) if isinstance(want, int | float) else want), (key, cell, want)
        # ... and the variable really sets it.
        sample = "7" if isinstance(want, int | float) else "x@example.org"
        assert str(getattr(load_settings(environ={var: sample}), key)).startswith(sample[:1])


def test_every_toml_example_loads(tmp_path: Path) -> None:
    for doc in docs():
        for block in blocks(doc):
            if block.lang == "toml":
                (tmp_path / "pbem.toml").write_text(block.text)
                load_settings(tmp_path / "pbem.toml", environ={})  # unknown keys raise
                assert tomllib.loads(block.text), block.where


def test_the_relay_examples_are_not_the_listeners_port() -> None:
    listen_port = Settings().listen.rpartition(":")[2]
    for doc in docs():
        for url in re.findall(r"smtps?://[\w.:@%-]+", (ROOT / doc).read_text(encoding="utf-8")):
            assert not url.endswith(f":{listen_port}"), f"{doc}: relay example {url} is the listener"


def test_the_readme_states_the_defaults() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    defaults = Settings()
    assert f"SMTP on\n{defaults.listen}" in readme or f"SMTP on {defaults.listen}" in readme
    assert f"the maildir `{defaults.maildir}`" in readme


# --- recipes under a minimal environment ---------------------------------------------------

def block_of(lang: str) -> Block:
    (block,) = [b for b in blocks("docs/gm-guide.md") if b.lang == lang]
    return block


@pytest.fixture
def srv(tmp_path: Path, relay: list[bytes]) -> Path:
    """A folder set up as the guide says for /srv/pbem: the venv, pbem.toml, a game."""
    home = tmp_path / "srv-pbem"
    home.mkdir()
    (home / ".venv").symlink_to(VENV_BIN.parent)
    toml = next(b for b in blocks("docs/gm-guide.md") if b.named_file() == "pbem.toml")
    (home / "pbem.toml").write_text(toml.text.replace(DOC_RELAY, relay[0].decode()) + "\n")
    # Set up in this process (quicker than two more processes); the recipes run outside it.
    runner = CliRunner(env={k: None for k in os.environ if k.startswith("PBEM_")})
    for args in (["init"], ["game", "new", "helios", "g1", "--seat", "north=ann@example.org",
                            "--seat", "east=bob@example.org", "--seed", "s"]):
        result = runner.invoke(app, ["--config", str(home / "pbem.toml"), *args])
        assert result.exit_code == 0, result.stdout + result.stderr
    (tmp_path / "elsewhere").mkdir()
    return home


def as_written(command: str, home: Path) -> str:
    return command.replace("/srv/pbem", str(home))


def test_the_cron_recipe_runs_as_written(srv: Path, relay: list[bytes]) -> None:
    (line,) = [x for x in block_of("crontab").text.split("\n") if x.strip()]
    command = as_written(line.split(None, 5)[5], srv)
    sent_before = len(relay)
    done = subprocess.run(["env", "-i", *[f"{k}={v}" for k, v in MINIMAL.items()], "/bin/sh",
                           "-c", command], cwd=srv.parent / "elsewhere", capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "outbox: 4 sent" in done.stdout  # the game's welcome mails and reports, to the relay
    assert len(relay) == sent_before + 4
    assert not list((srv.parent / "elsewhere").iterdir())  # nothing made where cron runs it


def test_the_mta_pipe_recipe_runs_as_written(srv: Path) -> None:
    (line,) = [x for x in block_of("aliases").text.split("\n") if x.strip()]
    command = as_written(re.fullmatch(r'\w+:\s*"\|(.+)"', line.strip())[1], srv)  # type: ignore[index]
    msg = EmailMessage()
    msg["From"], msg["To"] = "ann@example.org", "orders@games.example.org"
    msg["Subject"], msg["Message-ID"] = "orders", "<pipe-1@example.org>"
    msg.set_content("GAME g1\nSEAT north\nPASSWORD wrong\n")
    done = subprocess.run(["env", "-i", *[f"{k}={v}" for k, v in MINIMAL.items()], "/bin/sh",
                           "-c", command], cwd=srv.parent / "elsewhere", input=msg.as_bytes(),
                          capture_output=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert b"<pipe-1@example.org>: refused - wrong password" in done.stdout
    assert not list((srv.parent / "elsewhere").iterdir())
    log = sh("pbem gm log g1", cwd=srv, env=clean_env(srv.parent))
    assert "wrong-password" in log.stdout  # it reached the GM's database


def test_the_systemd_unit_runs_as_written(srv: Path) -> None:
    unit = dict(line.split("=", 1) for line in block_of("ini").text.split("\n") if "=" in line)
    cwd = Path(as_written(unit["WorkingDirectory"], srv))
    port = free_port()
    with (srv / "pbem.toml").open("a") as f:  # 2525 may be taken on a shared machine
        f.write(f'listen = "127.0.0.1:{port}"\n')
    proc = subprocess.Popen(["env", "-i", *[f"{k}={v}" for k, v in MINIMAL.items()],
                             *shlex.split(as_written(unit["ExecStart"], srv))], cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, proc.stdout.read()  # type: ignore[union-attr]
                time.sleep(0.2)
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = "ann@example.org", "orders@games.example.org", "o"
        msg.set_content("GAME g1\nSEAT north\nPASSWORD wrong\n")
        with smtplib.SMTP("127.0.0.1", port, timeout=30) as client:
            client.send_message(msg)
    finally:
        proc.send_signal(signal.SIGTERM)  # what `systemctl stop` does
        out = proc.communicate(timeout=60)[0].decode()
    assert proc.returncode == 0, out
    assert "wrong-password" in sh("pbem gm log g1", cwd=srv, env=clean_env(srv.parent)).stdout


# --- the template override -------------------------------------------------------------------

def test_the_template_override_example_changes_the_report(srv: Path) -> None:
    (block,) = [b for b in blocks("docs/gm-guide.md") if b.lang == "jinja"]
    name = block.named_file()
    assert name and name.startswith("club-templates/kard-es-korona/")
    path = srv / name
    path.parent.mkdir(parents=True)
    path.write_text(block.text + "\n")
    # As the guide says: `templates = "club-templates"` in pbem.toml (next to it).
    (srv / "club.toml").write_text((srv / "pbem.toml").read_text()
                                   + 'templates = "club-templates"\n')
    runner = CliRunner(env={k: None for k in os.environ if k.startswith("PBEM_")})

    def pbem(config: str, *args: str) -> str:
        result = runner.invoke(app, ["--config", str(srv / config), *args])
        assert result.exit_code == 0, result.stdout + result.stderr
        return result.stdout

    pbem("pbem.toml", "game", "new", "kard-es-korona", "k1", "--seat", "felvidek=a@example.org",
         "--seat", "tiszahat=b@example.org", "--seed", "s")
    plain = pbem("pbem.toml", "report", "k1", "--seat", "felvidek")
    club = pbem("club.toml", "report", "k1", "--seat", "felvidek")
    head = "== The game as you see it ==\n"
    assert head in plain and "Our club's map of the realm:" not in plain
    assert club == plain.replace(head, head + "Our club's map of the realm:\n")


# --- references -----------------------------------------------------------------------------

_PROJECT_DIRS = ("docs/", "pbem/", "tests/", "bench/", "templates/", "orders/examples/",
                 "db/migrations", ".ci/")


def test_the_docs_refer_only_to_files_in_the_project() -> None:
    for doc in docs():
        text = (ROOT / doc).read_text(encoding="utf-8")
        assert "DESIGN" not in text and "shared/" not in text, f"{doc} points outside the project"
        for ref in re.findall(r"`([^`\s]+)`", text):
            if not ref.startswith(_PROJECT_DIRS) or "<" in ref or "*" in ref:
                continue
            options = re.fullmatch(r"(.*)\{(.+)\}(.*)", ref)
            paths = ([options[1] + o + options[3] for o in options[2].split(",")] if options
                     else [ref])
            for p in paths:
                assert (ROOT / p.split(":")[0]).exists(), f"{doc}: `{ref}` is not in the project"


# --- the dice worked example ----------------------------------------------------------------

def test_the_dice_worked_example_is_a_real_report_recomputed(tmp_path_factory, relay) -> None:  # type: ignore[no-untyped-def]
    ran = run_doc("docs/dice.md", tmp_path_factory, relay)
    reports = "".join(r.stdout for r in ran if r.command.bare.startswith("pbem report"))
    dice_blocks = blocks("docs/dice.md")
    (excerpt,) = [b for b in dice_blocks if b.lang == "text"]
    for line in excerpt.text.split("\n"):
        assert line in reports, f"docs/dice.md: {line!r} is not in the game's reports"
    namespace: dict[str, object] = {}
    for block in (b for b in dice_blocks if b.lang == "python"):
        exec(compile(block.text, block.where, "exec"), namespace)  # its asserts are the check
    hashes = [r.stdout.split()[0] for r in ran if "sha256sum" in r.command.bare]
    h = "c26de83abdc9496cd1301470918ec39ecca1cf389ef0ae1c6504da1800d1c431"
    assert hashes == [h, "1680787ec1423be159277d85e0cb71f82cdb3a4f49cb255898a9b8f7ffeca361",
                      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"]
    assert all(x in excerpt.text or x in (ROOT / "docs/dice.md").read_text() for x in hashes)


def test_a_mail_answer_attaches_what_dice_md_says(tmp_path: Path) -> None:
    """docs/dice.md and the player guide name the attachment; it is what a player gets."""
    from pbem.service.orders import Receipt

    name = Receipt(True, game="kassa-1302", seat="felvidek", step=4).hashed_name()
    assert re.fullmatch(r"kassa-1302-step4-felvidek-hashed\.txt", name)
    for doc in ("docs/dice.md", "docs/player-guide.md"):
        assert "-hashed.txt" in (ROOT / doc).read_text(encoding="utf-8")
