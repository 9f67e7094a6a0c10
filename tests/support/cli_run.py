"""Running the `pbem` app in-process for tests (typer's CliRunner)."""

from __future__ import annotations

from typer.testing import CliRunner

from pbem.cli.app import app

runner = CliRunner()


def run(db: str, *args: str, code: int = 0) -> str:
    """`pbem --db DB ARGS...`: its output; the exit code must be `code`."""
    result = runner.invoke(app, ["--db", db, *args])
    out = result.stdout + (result.stderr if result.stderr_bytes is not None else "")
    assert result.exit_code == code, f"{args}: exit {result.exit_code}\n{out}\n{result.exception!r}"
    return out
