"""Running `pbem` as a GM does: a real process with a clean environment (no PBEM_* of the
test run), and snapshots of a folder to prove a command left it alone."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

VENV_BIN = Path(sys.executable).parent  # where `pip install -e .` put the `pbem` script


def clean_env(home: Path, **extra: str) -> dict[str, str]:
    tmp = home / ".tmp"
    tmp.mkdir(parents=True, exist_ok=True)
    return {"PATH": f"{VENV_BIN}:/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8",
            "TMPDIR": str(tmp), **extra}


def sh(command: str, *, cwd: Path, env: dict[str, str], timeout: float = 600,
       stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    """One shell command line, as a GM types it (bash, so `.` and `&&` work)."""
    return subprocess.run(["/bin/bash", "-c", command], cwd=cwd, env=env, timeout=timeout,
                          input=stdin.decode() if stdin is not None else None,
                          capture_output=True, text=True)


def snapshot(folder: Path, *, skip: tuple[str, ...] = ()) -> dict[str, str]:
    """Every file under `folder` (relative path -> SHA-256 of its bytes)."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*"))
            if p.is_file() and not any(str(p.relative_to(folder)).startswith(s) for s in skip)}


def sqlite_rows(db: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table, read from a copy (opening the file itself could touch it)."""
    with tempfile.TemporaryDirectory() as tmp:
        for p in db.parent.glob(db.name + "*"):
            shutil.copy2(p, Path(tmp) / p.name)
        con = sqlite3.connect(Path(tmp) / db.name)
        try:
            tables = [r[0] for r in con.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
            return {t: sorted(con.execute(f'SELECT * FROM "{t}"'), key=repr) for t in tables}
        finally:
            con.close()
