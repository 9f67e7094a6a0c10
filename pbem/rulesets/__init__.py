"""The hosted games, one package each. The registry finds every package that exports
`RULESET`, so adding a game touches no shared file.

Extra rulesets (e.g. a test fixture) can be registered with `register`.
"""

from __future__ import annotations

import importlib
import pkgutil

from pbem.core.ruleset import Ruleset

_extra: dict[str, Ruleset] = {}
_found: dict[str, Ruleset] | None = None


def _discover() -> dict[str, Ruleset]:
    global _found
    if _found is None:
        found: dict[str, Ruleset] = {}
        for mod in pkgutil.iter_modules(__path__):
            if not mod.ispkg:
                continue
            package = importlib.import_module(f"{__name__}.{mod.name}")
            ruleset = getattr(package, "RULESET", None)
            if isinstance(ruleset, Ruleset):
                found[ruleset.id] = ruleset
        _found = found
    return _found


def register(ruleset: Ruleset) -> None:
    _extra[ruleset.id] = ruleset


def all_rulesets() -> dict[str, Ruleset]:
    return {**_discover(), **_extra}


def get(ruleset_id: str) -> Ruleset:
    rulesets = all_rulesets()
    if ruleset_id not in rulesets:
        raise KeyError(f"unknown ruleset {ruleset_id!r}; hosted: " + ", ".join(sorted(rulesets)))
    return rulesets[ruleset_id]
