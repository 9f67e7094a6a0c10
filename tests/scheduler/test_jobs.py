"""Scheduler jobs on several hosts: the job store is shared through the database and
holds the arguments of the host that started last, so a job must run with the settings of
the host that runs it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pbem.scheduler import jobs


@pytest.fixture(autouse=True)
def _clean() -> Iterator[None]:
    jobs._wake.clear()
    yield
    jobs._host = None
    jobs._wake.clear()


def _host(folder: Path, with_file: bool) -> tuple[str, str]:
    folder.mkdir()
    (folder / "spool" / "inbox").mkdir(parents=True)
    if with_file:
        (folder / "spool" / "inbox" / "orders.txt").write_text("GAME x\n")
    config = folder / "pbem.toml"
    config.write_text('spool = "spool"\n')
    return f"sqlite:///{folder / 'pbem.sqlite'}", str(config)


def test_a_job_stored_by_another_host_runs_with_this_hosts_settings(tmp_path: Path) -> None:
    own_db, own_config = _host(tmp_path / "a", with_file=True)
    other_db, other_config = _host(tmp_path / "b", with_file=False)
    jobs.run_here(own_db, own_config)
    jobs.spool_job(other_db, other_config)  # the job row another host wrote last
    assert jobs._wake.is_set(), "the job looked at the other host's spool"


def test_without_a_host_the_stored_arguments_count(tmp_path: Path) -> None:
    db, config = _host(tmp_path / "a", with_file=True)
    jobs.spool_job(db, config)
    assert jobs._wake.is_set()
    jobs._wake.clear()
    db, config = _host(tmp_path / "b", with_file=False)
    jobs.spool_job(db, config)
    assert not jobs._wake.is_set()
