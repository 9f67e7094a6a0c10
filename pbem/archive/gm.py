"""The GM section of an exported archive (`gm/` in the site), written after the game ends:
every GM ruling's position file, exactly as the GM gave it, and a page listing the
rulings (step, kind, reason, GM, digests, a link to the file).

While the game runs the section is absent: a position file shows every hidden part.
`check_ruling_files` lets `pbem archive verify --archive DIR` check the files of an
exported site against the digests stored with the rulings. Not here: the rest of the
site (`export.py`), recomputing the game (`verify.py`).
"""

from __future__ import annotations

import hashlib
import html
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from pbem.core.engine import canonical_json, digest
from pbem.core.ruleset import Ruleset
from pbem.store.models import Step

GM_DIR = "gm"
KINDS = {"position": "start from a position", "ruling": "GM ruling",
         "adjudicated": "adjudicated by the GM"}


@dataclass(frozen=True)
class RulingRecord:
    """What the archive keeps of one ruling step."""

    step: int
    kind: str
    reason: str
    gm: str
    before: str
    after: str
    position: str
    warnings: tuple[str, ...]

    @classmethod
    def of(cls, step: Step) -> RulingRecord:
        info = json.loads(step.ruling_json or "{}")
        return cls(step.number, step.kind, info.get("reason", ""), info.get("gm", ""),
                   info.get("before", ""), info.get("after", ""), info.get("position", ""),
                   tuple(info.get("warnings", [])))

    @property
    def file(self) -> str:
        return f"ruling-step-{self.step:04d}.toml"


def is_ruling(step: Step) -> bool:
    return step.kind in KINDS and step.ruling_json is not None


def write_gm_section(out: Path, records: Iterable[RulingRecord], *,
                     step_page: Callable[[int], str]) -> list[Path]:
    """Write gm/index.html and one position file per ruling; `step_page` names a step's
    page in the site."""
    folder = out / GM_DIR
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    rows = []
    for r in records:
        path = folder / r.file
        path.write_text(r.position, encoding="utf-8", newline="")
        written.append(path)
        # The ruling closed step r.step; the report opening the next step tells it.
        link = (f'{r.step} (told in <a href="../{step_page(r.step + 1)}">step '
                f"{r.step + 1}</a>)")
        forced = ("<br>confirmed with --force: " + "; ".join(html.escape(w) for w in r.warnings)
                  if r.warnings else "")
        rows.append(f"<tr><td>{link}</td><td>{html.escape(KINDS[r.kind])}</td>"
                    f"<td>{html.escape(r.reason)}{forced}</td><td>{html.escape(r.gm)}</td>"
                    f"<td class='d'>{r.before or '-'}</td><td class='d'>{r.after}</td>"
                    f'<td><a href="{r.file}">{r.file}</a><br>'
                    f"<span class='d'>SHA-256 {file_sha256(r.position)}</span></td></tr>")
    style = ("body{font-family:system-ui,sans-serif;max-width:70em;margin:1em auto;padding:0 1em}"
             "td,th{border:1px solid #ccc;padding:.2em .5em;vertical-align:top}"
             "table{border-collapse:collapse}.d{font-family:monospace;font-size:80%;"
             "word-break:break-all}")
    body = ('<p><a href="../index.html">index</a></p><h1>GM rulings</h1>'
            "<p>Every position the GM gave, as given. The digests are SHA-256 of the state "
            "before and after (canonical JSON); <code>pbem archive verify GAME --archive "
            "DIR</code> checks each file against them.</p>"
            + ("<table id='rulings'><tr><th>Step</th><th>Kind</th><th>Reason</th><th>GM</th>"
               "<th>Before</th><th>After</th><th>Position file</th></tr>" + "".join(rows)
               + "</table>" if rows else "<p>The GM made no ruling in this game.</p>"))
    index = folder / "index.html"
    index.write_text('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
                     f"<title>GM rulings</title><style>{style}</style></head><body>{body}"
                     "</body></html>\n", encoding="utf-8")
    written.append(index)
    return written


def file_sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def check_ruling_files(ruleset: Ruleset, records: Iterable[RulingRecord],
                       directory: Path) -> str | None:
    """The first ruling whose position file in an exported site is missing or does not
    give the state its stored digest names; None when every file holds."""
    folder = directory / GM_DIR
    for r in records:
        path = folder / r.file
        if not path.is_file():
            return f"step {r.step}: the archive has no {GM_DIR}/{r.file}"
        try:
            state = ruleset.load_position(path.read_text(encoding="utf-8"))
        except (ValueError, NotImplementedError) as exc:
            return f"step {r.step}: {GM_DIR}/{r.file} does not load ({exc})"
        if digest(canonical_json(ruleset.dump(state))) != r.after:
            return (f"step {r.step}: {GM_DIR}/{r.file} does not give the state the ruling's "
                    "digest names")
    return None
