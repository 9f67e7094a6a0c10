"""Differences between two JSON documents (views or states), one readable line each.

Used to tell each seat what a GM ruling changed in its own view, the public what changed
in the public view, and the GM what changed in the whole state. Pure; no game knowledge.
"""

from __future__ import annotations

import json
from typing import Any

_LIMIT = 80  # longest value shown in full


def flatten(data: Any, prefix: str = "") -> dict[str, Any]:
    """{dotted path: scalar or empty container} for every leaf of `data`."""
    out: dict[str, Any] = {}
    if isinstance(data, dict) and data:
        for k in sorted(data):
            out.update(flatten(data[k], f"{prefix}.{k}" if prefix else str(k)))
    elif isinstance(data, list) and data and not all(
            isinstance(x, str | int | float | bool) or x is None for x in data):
        for i, x in enumerate(data):
            out.update(flatten(x, f"{prefix}[{i}]"))
    else:
        out[prefix or "(all)"] = data
    return out


def _show(v: Any) -> str:
    text = json.dumps(v, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= _LIMIT else text[:_LIMIT - 3] + "..."


def diff_lines(before: Any, after: Any) -> list[str]:
    """'path: old -> new' for every leaf that changed, appeared or went away."""
    a, b = flatten(before), flatten(after)
    lines = []
    for path in sorted(set(a) | set(b)):
        if path not in a:
            lines.append(f"{path}: (none) -> {_show(b[path])}")
        elif path not in b:
            lines.append(f"{path}: {_show(a[path])} -> (none)")
        elif a[path] != b[path] or type(a[path]) is not type(b[path]):
            lines.append(f"{path}: {_show(a[path])} -> {_show(b[path])}")
    return lines
