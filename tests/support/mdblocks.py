"""The fenced code blocks of the project's Markdown docs, and the shell commands in them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_FENCE = re.compile(r"^(\s*)```(\S*)\s*$")


@dataclass(frozen=True)
class Block:
    doc: str  # path relative to the project, e.g. docs/gm-guide.md
    line: int  # line number of the first line inside the fence
    lang: str
    text: str

    @property
    def where(self) -> str:
        return f"{self.doc}:{self.line}"

    def named_file(self) -> str | None:
        """A block that shows a file says which in its first line: `# pbem.toml`,
        `{# club-templates/x.j2 #}`."""
        first = self.text.split("\n", 1)[0].strip()
        m = re.fullmatch(r"(?:#|\{#)\s*([\w./-]+)\s*(?:#\})?", first)
        return m[1] if m and ("/" in m[1] or "." in m[1]) else None


@dataclass(frozen=True)
class Command:
    block: Block
    line: int
    text: str  # as written, continuation lines joined

    @property
    def bare(self) -> str:
        """The command without its trailing comment."""
        return re.split(r"\s{2,}#", self.text, maxsplit=1)[0].strip()

    @property
    def where(self) -> str:
        return f"{self.block.doc}:{self.line}"


def docs() -> list[str]:
    return ["README.md"] + sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").rglob("*.md"))


def blocks(doc: str) -> list[Block]:
    found: list[Block] = []
    lines = (ROOT / doc).read_text(encoding="utf-8").split("\n")
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, lang = len(m[1]), m[2]
        body: list[str] = []
        j = i + 1
        while j < len(lines) and not re.match(r"^\s*```\s*$", lines[j]):
            body.append(lines[j][indent:] if lines[j][:indent].isspace() else lines[j])
            j += 1
        found.append(Block(doc, i + 2, lang, "\n".join(body)))
        i = j + 1
    return found


def commands(block: Block) -> list[Command]:
    out: list[Command] = []
    pending: list[str] = []
    start = 0
    for n, line in enumerate(block.text.split("\n"), start=block.line):
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if not pending:
            start = n
        if line.rstrip().endswith("\\"):
            pending.append(line.rstrip()[:-1].rstrip())
            continue
        pending.append(line.strip())
        out.append(Command(block, start, " ".join(p.strip() for p in pending)))
        pending = []
    return out
