"""`pbem` as a real process for the end-to-end tests, with the test game registered."""

from __future__ import annotations

import smtplib
import subprocess
import sys
import time
from pathlib import Path

SUPPORT = Path(__file__).resolve().parent
LAUNCH = (f"import sys; sys.path.insert(0, {str(SUPPORT)!r}); from fixture_game import RULESET; "
          "from pbem.rulesets import register; register(RULESET); "
          "from pbem.cli.app import main; sys.argv[0] = 'pbem'; main()")


def pbem(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", LAUNCH, *args], env=env, cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def wait_for_smtp(port: int, timeout: float = 30) -> None:
    """Until something answers SMTP on the loopback port."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            smtplib.SMTP("127.0.0.1", port, timeout=2).quit()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
