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
_broken: dict[str, str] = {}  # package name -> why it failed to load


def _discover() -> dict[str, Ruleset]:
    global _found
    if _found is None:
        found: dict[str, Ruleset] = {}
        for mod in pkgutil.iter_modules(__path__):
            if not mod.ispkg:
                continue
            try:
                package = importlib.import_module(f"{__name__}.{mod.name}")
            except Exception as e:  # one broken game must not take the host down
                _broken[mod.name] = f"{type(e).__name__}: {e}"
                continue
            ruleset = getattr(package, "RULESET", None)
            if isinstance(ruleset, Ruleset):
                found[ruleset.id] = ruleset
        _found = found
    return _found


def register(ruleset: Ruleset) -> None:
    _extra[ruleset.id] = ruleset


def all_rulesets() -> dict[str, Ruleset]:
    return {**_discover(), **_extra}


def broken() -> dict[str, str]:
    """Ruleset packages that failed to load, with the reason (shown by `pbem rulesets`)."""
    _discover()
    return dict(_broken)


def get(ruleset_id: str) -> Ruleset:
    rulesets = all_rulesets()
    package = ruleset_id.replace("-", "_")
    if ruleset_id not in rulesets and package in broken():
        raise KeyError(f"ruleset {ruleset_id!r} failed to load: {_broken[package]}")
    if ruleset_id not in rulesets:
        raise KeyError(f"unknown ruleset {ruleset_id!r}; hosted: " + ", ".join(sorted(rulesets)))
    return rulesets[ruleset_id]
