"""Jinja rendering of reports: shipped templates, optionally overridden by a GM folder.

Lookup order: the override folder (if any), then the shipped `templates/`. An override
template may `{% extends %}` a shipped one of the same name by prefixing it with
`shipped/` (e.g. `{% extends "shipped/mail/report.txt.j2" %}`).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from jinja2 import ChoiceLoader, Environment, FileSystemLoader, PrefixLoader, StrictUndefined


def shipped_templates() -> Path:
    here = Path(__file__).resolve().parent.parent
    for candidate in (here.parent / "templates", here / "_templates"):
        if (candidate / "mail").is_dir():
            return candidate
    raise FileNotFoundError("the shipped templates folder is missing")


@lru_cache(maxsize=8)
def environment(override: str | None = None, *, html: bool = False) -> Environment:
    shipped = FileSystemLoader(str(shipped_templates()))
    loaders = [FileSystemLoader(override)] if override else []
    loaders += [shipped, PrefixLoader({"shipped": shipped})]
    env = Environment(loader=ChoiceLoader(loaders), autoescape=html, undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters["tojson_pretty"] = lambda v: json.dumps(v, indent=2, ensure_ascii=False,
                                                        sort_keys=True)
    return env


def render_report(context: dict[str, Any], *, fmt: str = "text",
                  override: str | None = None) -> str:
    if fmt not in ("text", "html"):
        raise ValueError("format is text or html")
    html = fmt == "html"
    env = environment(override, html=html)
    ext = "html.j2" if html else "txt.j2"
    ruleset = context["game"]["ruleset"]
    template = env.select_template([f"{ruleset}/report.{ext}", f"mail/report.{ext}"])
    return template.render(**context)
