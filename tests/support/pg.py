"""A private throwaway PostgreSQL cluster on a free loopback port, for the tests of the
multi-host path. Skipped when psycopg or the server binaries (Debian's `postgresql`) are
missing. Use: `from pg import pg_url  # noqa: F401` in a test module."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from pbem.mail.listener import free_port


def _bin(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    pytest.importorskip("psycopg")
    initdb, pg_ctl = _bin("initdb"), _bin("pg_ctl")
    if not initdb or not pg_ctl:
        pytest.skip("PostgreSQL server binaries are not installed")
    root = Path(tempfile.mkdtemp(prefix="pbem-pg-"))
    root.chmod(0o755)
    port = free_port()
    as_user: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        shutil.chown(root, "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    data = root / "data"
    subprocess.run([*as_user, initdb, "-D", str(data), "-A", "trust", "-U", "pbem"], check=True,
                   capture_output=True)
    subprocess.run([*as_user, pg_ctl, "-D", str(data), "-l", str(root / "log"), "-w", "-o",
                    f"-p {port} -k {root} -c listen_addresses=127.0.0.1", "start"], check=True,
                   capture_output=True)
    try:
        yield f"postgresql+psycopg://pbem@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*as_user, pg_ctl, "-D", str(data), "-m", "immediate", "stop"],
                       capture_output=True)
        shutil.rmtree(root, ignore_errors=True)
