"""Positions as text: every game's state as a readable TOML file, hidden parts included,
that loads into a state and dumps back identically (what FEN is to chess).

The shape of a state is declared once per game as TypedDicts (its `state.py`); that
declaration checks a position field by field, so a bad position gets a one-line error
naming the field ("position: regions.pow.mage: expected a whole number, got 'two'").
TOML has no null: a field declared `X | None` is left out when it is None
and read back as None when it is missing. Keys are written sorted, so the same state
always gives the same text.

Not here: a game's invariants (piece counts, card conservation): its `position.py`.
"""

from __future__ import annotations

import math
import re
import tomllib
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, Literal, NotRequired, Required, Union, get_args, get_origin

FORMAT = 1

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


class PositionError(ValueError):
    """A position that does not fit its game; the message names the field."""


# --- writing TOML ------------------------------------------------------------------------

def _key(k: str) -> str:
    return k if _BARE.match(k) else _string(k)


def _string(s: str) -> str:
    out = []
    for ch in s:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _scalar(v: Any, path: str) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        text = repr(v)
        return text if any(c in text for c in ".en") else text + ".0"
    if isinstance(v, str):
        return _string(v)
    if v is None:
        raise PositionError(f"position: {path}: nothing (None) cannot be written here")
    raise PositionError(f"position: {path}: {type(v).__name__} is not JSON data")


def _inline(v: Any, path: str) -> str:
    if isinstance(v, dict):
        if not v:
            return "{}"
        return "{ " + ", ".join(f"{_key(k)} = {_inline(x, f'{path}.{k}')}"
                                for k, x in sorted(v.items())) + " }"
    if isinstance(v, list):
        return "[" + ", ".join(_inline(x, f"{path}[{i}]") for i, x in enumerate(v)) + "]"
    return _scalar(v, path)


def _is_table_array(v: Any) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(x, dict) and x for x in v)


def to_toml(data: Mapping[str, Any]) -> str:
    """Deterministic TOML for JSON data: scalars and lists first, then tables, then arrays
    of tables, keys sorted."""
    out: list[str] = []
    _table(dict(data), [], out)
    return "\n".join(out).strip("\n") + "\n"


def _table(d: dict[str, Any], path: list[str], out: list[str]) -> None:
    simple = [(k, v) for k, v in sorted(d.items())
              if not (isinstance(v, dict) and v) and not _is_table_array(v)]
    tables = [(k, v) for k, v in sorted(d.items()) if isinstance(v, dict) and v]
    arrays = [(k, v) for k, v in sorted(d.items()) if _is_table_array(v)]
    dotted = ".".join(path)
    for k, v in simple:
        out.append(f"{_key(k)} = {_inline(v, f'{dotted}.{k}' if dotted else k)}")
    for k, v in tables:
        sub = [*path, _key(k)]
        out.append("")
        out.append(f"[{'.'.join(sub)}]")
        _table(v, sub, out)
    for k, v in arrays:
        sub = [*path, _key(k)]
        for item in v:
            out.append("")
            out.append(f"[[{'.'.join(sub)}]]")
            _table(item, sub, out)


# --- the shape of a state ------------------------------------------------------------------

def _describe(tp: Any) -> str:
    origin = get_origin(tp)
    if tp is type(None):
        return "nothing"
    if origin is Literal:
        return " or ".join(repr(a) for a in get_args(tp))
    if origin in (Union, types.UnionType):
        return " or ".join(_describe(a) for a in get_args(tp))
    if typing.is_typeddict(tp):
        return "a table"
    if origin in (dict, Mapping):
        return "a table"
    if origin in (list, tuple):
        return "a list"
    return getattr(tp, "__name__", str(tp))


def _unwrap(tp: Any) -> Any:
    while get_origin(tp) in (NotRequired, Required):
        tp = get_args(tp)[0]
    return tp


def _required(td: Any, hint: Any) -> bool:
    """Is a TypedDict field required? Read from the evaluated hint, not from
    `__required_keys__`, which postponed annotations (`from __future__ import
    annotations`) leave wrong on Python 3.11."""
    origin = get_origin(hint)
    if origin is NotRequired:
        return False
    if origin is Required:
        return True
    return bool(getattr(td, "__total__", True))


def _optional(tp: Any) -> bool:
    tp = _unwrap(tp)
    return get_origin(tp) in (Union, types.UnionType) and type(None) in get_args(tp)


class Shape:
    """Walks a state against its declared TypedDict, to check it and to map None."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self._hints: dict[Any, dict[str, Any]] = {}

    def hints(self, td: Any) -> dict[str, Any]:
        h = self._hints.get(td)
        if h is None:
            h = typing.get_type_hints(td, include_extras=True)
            if td.__name__ == "Pause" and "snapshot" in h:
                h = {**h, "snapshot": self.root}  # a paused state holds a whole state
            self._hints[td] = h
        return h

    # None out: drop optional TypedDict fields that are None
    def strip(self, tp: Any, v: Any, path: str) -> Any:
        tp = _unwrap(tp)
        if tp is Any:
            return v
        origin = get_origin(tp)
        if origin in (Union, types.UnionType):
            arms = [a for a in get_args(tp) if a is not type(None)]
            for arm in arms:
                if _fits(arm, v):
                    return self.strip(arm, v, path)
            return v
        if typing.is_typeddict(tp) and isinstance(v, dict):
            hints = self.hints(tp)
            out = {}
            for k, x in v.items():
                if (k in hints and x is None and _optional(hints[k])
                        and get_origin(hints[k]) is not NotRequired):
                    continue
                out[k] = self.strip(hints.get(k, Any), x, f"{path}.{k}" if path else k)
            return out
        if origin in (dict, Mapping) and isinstance(v, dict):
            vt = get_args(tp)[1] if get_args(tp) else Any
            return {k: self.strip(vt, x, f"{path}.{k}") for k, x in v.items()}
        if origin in (list, tuple) and isinstance(v, list):
            args = get_args(tp)
            et = args[0] if args else Any
            return [self.strip(et, x, f"{path}[{i}]") for i, x in enumerate(v)]
        return v

    # None in, and the check: returns the state with None restored
    def load(self, tp: Any, v: Any, path: str) -> Any:
        tp = _unwrap(tp)
        if tp is Any:
            return v
        origin = get_origin(tp)
        where = path or "the position"
        if origin is Literal:
            if not any(v == a and type(v) is type(a) for a in get_args(tp)):
                raise PositionError(f"position: {where}: expected {_describe(tp)}, got {v!r}")
            return v
        if origin in (Union, types.UnionType):
            return self._load_union(tp, v, path, where)
        if tp is type(None):
            if v is not None:
                raise PositionError(f"position: {where}: expected nothing, got {_show(v)}")
            return None
        if typing.is_typeddict(tp):
            return self._load_typeddict(tp, v, path, where)
        if origin in (dict, Mapping):
            return self._load_dict(tp, v, path, where)
        if origin in (list, tuple):
            return self._load_list(tp, v, path, where)
        return _load_scalar(tp, v, where)

    def _load_union(self, tp: Any, v: Any, path: str, where: str) -> Any:
        errors = []
        for arm in get_args(tp):
            try:
                return self.load(arm, v, path)
            except PositionError as exc:
                errors.append(str(exc))
        deeper = [e for e in errors if not e.startswith(f"position: {where}: expected")]
        if deeper and _fits_any(tp, v):
            raise PositionError(deeper[0])
        raise PositionError(f"position: {where}: expected {_describe(tp)}, got {_show(v)}")

    def _load_typeddict(self, tp: Any, v: Any, path: str, where: str) -> Any:
        if not isinstance(v, dict):
            raise PositionError(f"position: {where}: expected a table, got {_show(v)}")
        hints = self.hints(tp)
        for k in v:
            if k not in hints:
                raise PositionError(f"position: {path + '.' if path else ''}{k}: unknown "
                                    f"field; {where} has " + ", ".join(sorted(hints)))
        out = {}
        for k, ht in hints.items():
            sub = f"{path}.{k}" if path else k
            if k in v:
                out[k] = self.load(ht, v[k], sub)
            elif _optional(ht) and get_origin(ht) is not NotRequired:
                out[k] = None
            elif _required(tp, ht):
                raise PositionError(f"position: {sub}: missing")
        return out

    def _load_dict(self, tp: Any, v: Any, path: str, where: str) -> Any:
        if not isinstance(v, dict):
            raise PositionError(f"position: {where}: expected a table, got {_show(v)}")
        kt, vt = get_args(tp) if get_args(tp) else (str, Any)
        for k in v:
            if get_origin(kt) is Literal and k not in get_args(kt):
                raise PositionError(f"position: {path}.{k}: unknown key; expected "
                                    f"{_describe(kt)}")
        return {k: self.load(vt, x, f"{path}.{k}") for k, x in v.items()}

    def _load_list(self, tp: Any, v: Any, path: str, where: str) -> Any:
        if not isinstance(v, list):
            raise PositionError(f"position: {where}: expected a list, got {_show(v)}")
        args = get_args(tp)
        if get_origin(tp) is tuple and args and args[-1] is not Ellipsis:
            if len(v) != len(args):
                raise PositionError(f"position: {where}: expected {len(args)} items, "
                                    f"got {len(v)}")
            return [self.load(a, x, f"{path}[{i}]")
                    for i, (a, x) in enumerate(zip(args, v, strict=True))]
        et = args[0] if args else Any
        return [self.load(et, x, f"{path}[{i}]") for i, x in enumerate(v)]


_SCALARS: dict[Any, tuple[Callable[[Any], bool], str]] = {
    bool: (lambda v: isinstance(v, bool), "true or false"),
    int: (lambda v: isinstance(v, int) and not isinstance(v, bool), "a whole number"),
    float: (lambda v: isinstance(v, int | float) and not isinstance(v, bool), "a number"),
    str: (lambda v: isinstance(v, str), "text"),
}


def _load_scalar(tp: Any, v: Any, where: str) -> Any:
    if tp not in _SCALARS:
        raise TypeError(f"position: {where}: cannot check against {tp!r}")  # a schema bug
    fits, what = _SCALARS[tp]
    if not fits(v):
        raise PositionError(f"position: {where}: expected {what}, got {_show(v)}")
    return float(v) if tp is float else v


def _show(v: Any) -> str:
    if isinstance(v, dict):
        return "a table"
    if isinstance(v, list):
        return "a list"
    if v is None:
        return "nothing"
    return repr(v)


def _fits(tp: Any, v: Any) -> bool:
    """Rough: does `v` have the JSON kind of `tp` (to pick a union arm)?"""
    tp = _unwrap(tp)
    origin = get_origin(tp)
    if tp is Any:
        return True
    if typing.is_typeddict(tp) or origin in (dict, Mapping):
        return isinstance(v, dict)
    if origin in (list, tuple):
        return isinstance(v, list)
    if origin is Literal:
        return v in get_args(tp)
    if origin in (Union, types.UnionType):
        return any(_fits(a, v) for a in get_args(tp))
    if tp is type(None):
        return v is None
    if tp is bool:
        return isinstance(v, bool)
    if tp is int:
        return isinstance(v, int) and not isinstance(v, bool)
    if tp is float:
        return isinstance(v, int | float) and not isinstance(v, bool)
    if tp is str:
        return isinstance(v, str)
    return False


def _fits_any(tp: Any, v: Any) -> bool:
    return any(_fits(a, v) for a in get_args(tp) if a is not type(None))


# --- positions -------------------------------------------------------------------------------

def dump(schema: Any, state: Mapping[str, Any], *, ruleset: str, title: str = "") -> str:
    """The position text of `state`."""
    shape = Shape(schema)
    body = shape.strip(schema, dict(state), "")
    if "pbem" in body:
        raise PositionError("position: pbem: the state may not use the key 'pbem'")
    # Dotted keys, so the header stays first and the body's own keys stay top-level.
    head = (f"# {title or ruleset} position (pbem position format {FORMAT}).\n"
            f"pbem.ruleset = {_string(ruleset)}\npbem.format = {FORMAT}\n")
    return head + to_toml(body)


def load(schema: Any, text: str, *, ruleset: str) -> dict[str, Any]:
    """The state of a position text; PositionError (one line, naming the field) if it does
    not fit the game's declared shape."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PositionError(f"position: not valid TOML: {exc}") from None
    head = data.pop("pbem", None)
    if not isinstance(head, dict) or head.get("ruleset") != ruleset:
        got = head.get("ruleset") if isinstance(head, dict) else None
        raise PositionError(f"position: pbem.ruleset: expected {ruleset!r}, got {got!r} "
                            "(the file starts with pbem.ruleset = \"...\")")
    if head.get("format") != FORMAT:
        raise PositionError(f"position: pbem.format: expected {FORMAT}, got "
                            f"{head.get('format')!r}")
    return Shape(schema).load(schema, data, "")
