"""Dependencies point one way: core and rulesets import no I/O layer and read no clock."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "pbem"
FORBIDDEN_MODULES = {"sqlmodel", "sqlalchemy", "alembic", "smtplib", "imaplib", "imapclient",
                     "aiosmtpd", "socket", "subprocess", "apscheduler", "jinja2", "typer",
                     "urllib.request", "http", "time", "datetime", "os", "shutil", "threading",
                     "asyncio"}
FORBIDDEN_PBEM = ("pbem.store", "pbem.service", "pbem.mail", "pbem.scheduler", "pbem.cli",
                  "pbem.reports", "pbem.archive", "pbem.config")


def pure_files() -> list[Path]:
    return sorted((ROOT / "core").rglob("*.py")) + sorted((ROOT / "rulesets").rglob("*.py"))


@pytest.mark.parametrize("path", pure_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_pure_layers_import_no_io(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        for name in names:
            top = name.split(".")[0]
            assert name not in FORBIDDEN_MODULES and top not in FORBIDDEN_MODULES, \
                f"{path.name} imports {name}"
            assert not name.startswith(FORBIDDEN_PBEM), f"{path.name} imports {name}"
        if isinstance(node, ast.Attribute) and node.attr in ("shuffle", "random", "randint") \
                and isinstance(node.value, ast.Name) and node.value.id == "random":
            raise AssertionError(f"{path.name} uses the global random generator")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "open":
            raise AssertionError(f"{path.name} opens files (use importlib.resources for data)")
