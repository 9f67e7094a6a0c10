"""The code's own checks run with the suite, so CI keeps them: ruff over the package (with
the complexity limit of pyproject.toml, C901 at 15) and mypy over the whole package (about
7 s from a cold cache on two cores)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)


def test_ruff_passes_on_the_package_with_the_complexity_limit() -> None:
    done = _run("ruff", "check", "pbem", "tests")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-1000:]


def test_mypy_passes_on_the_package() -> None:
    done = _run("mypy", "pbem")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-1000:]
