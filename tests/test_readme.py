"""The README's first lines give the two commands for a fresh machine; CI runs the second."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> tuple[str, str]:
    head = (ROOT / "README.md").read_text().splitlines()[:8]
    commands = [m.group(1) for line in head for m in [re.fullmatch(r"`(.+)`", line.strip())] if m]
    assert len(commands) == 2, head
    return commands[0], commands[1]


def test_ci_runs_the_readme_test_command() -> None:
    _, test = readme_commands()
    ci = (ROOT / ".ci" / "run").read_text()
    assert test in ci.splitlines()


def test_run_command_installs_and_starts_the_main_job() -> None:
    run, _ = readme_commands()
    assert "pip install -e ." in run and run.endswith(("pbem demo", "pbem serve"))
