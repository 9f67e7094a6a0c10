"""pbem.mail stays a library without the database: it imports pbem.core and nothing above."""

from __future__ import annotations

import ast
from pathlib import Path

import pbem.mail

ALLOWED = ("pbem.core", "pbem.mail")


def test_mail_imports_only_core():
    root = Path(pbem.mail.__file__).parent
    for path in sorted(root.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                if name == "pbem" or name.startswith("pbem."):
                    assert name.startswith(ALLOWED), f"{path.name} imports {name}"
