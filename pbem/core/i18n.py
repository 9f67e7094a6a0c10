"""Messages that can be translated: every text a player reads is a `Msg`.

A `Msg` is a `str` (its English text, so code that only needs English just works) that
remembers its message id and arguments, so a report can render it in the reader's
language from a gettext catalog:

    log.public("place", _("{seat} places a {unit} on {region}.", seat=seat,
                          unit=_("mage"), region=name))

Arguments may be messages themselves (translated too) or plain values (names, numbers).
`n_(singular, plural, n, ...)` picks the plural form. A Msg survives JSON (`to_json`,
`from_json`), so stored events can be rendered in any language years later.

Pure: no catalogs are read here; a translator is any object with `gettext` and
`ngettext` (`gettext.NullTranslations` renders English).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol


class Translator(Protocol):
    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...


class Msg(str):
    """English text with its message id, arguments and (for plurals) its count."""

    msgid: str
    plural: str | None
    n: int | None
    args: dict[str, Any]

    def __new__(cls, msgid: str, plural: str | None = None, count: int | None = None,
                **args: Any) -> Msg:
        pattern = msgid if plural is None or count == 1 else plural
        obj = super().__new__(cls, pattern.format(**args) if args or "{" in pattern else pattern)
        obj.msgid, obj.plural, obj.n, obj.args = msgid, plural, count, dict(args)
        return obj

    def render(self, t: Translator | None) -> str:
        """The text in the translator's language (English without one)."""
        if t is None or not self.msgid:  # gettext("") is the catalog's header, not ""
            return str(self)
        if self.plural is not None:
            pattern = t.ngettext(self.msgid, self.plural, self.n if self.n is not None else 1)
        else:
            pattern = t.gettext(self.msgid)
        args = {k: render(v, t) for k, v in self.args.items()}
        try:
            return pattern.format(**args) if args or "{" in pattern else pattern
        except (KeyError, IndexError, ValueError):
            # A broken translation must not cost the player his report: English then.
            return self.msgid.format(**args) if args else self.msgid

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"id": self.msgid}
        if self.plural is not None:
            d["plural"], d["n"] = self.plural, self.n
        if self.args:
            d["args"] = {k: v.to_json() if isinstance(v, Msg) else v for k, v in self.args.items()}
        return d

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Msg:
        args = {k: cls.from_json(v) if isinstance(v, dict) and "id" in v else v
                for k, v in (d.get("args") or {}).items()}
        return cls(d["id"], d.get("plural"), d.get("n"), **args)

    def __reduce__(self) -> Any:  # copies and pickles keep the message
        return (_rebuild, (self.to_json(),))


def _rebuild(d: dict[str, Any]) -> Msg:
    return Msg.from_json(d)


def _(msgid: str, **args: Any) -> Msg:
    """A translatable message (extracted into the catalogs by its name)."""
    return Msg(msgid, **args)


def n_(singular: str, plural: str, n: int, **args: Any) -> Msg:
    """A translatable message with a plural form chosen by `n` (passed as `n` too)."""
    return Msg(singular, plural, n, n=n, **args)  # the count, and `{n}` for the text


def render(value: Any, t: Translator | None) -> str:
    """Any value as text in the translator's language: messages translated, the rest as is."""
    if isinstance(value, Msg):
        return value.render(t)
    return str(value)


def join(items: list[Any], sep: str = ", ") -> Msg:
    """Several messages shown together (a list of names or clauses), each translated."""
    args = {f"i{i}": x for i, x in enumerate(items)}
    return Msg(sep.join(f"{{i{i}}}" for i in range(len(items))), **args) if items else Msg("")


def stored(value: Any) -> dict[str, Any] | None:
    """A message's JSON for storage beside its English text (None for anything else)."""
    return value.to_json() if isinstance(value, Msg) else None


def restored(text: Any, stored_msg: Mapping[str, Any] | None) -> Any:
    """The stored English text back as its message when one was stored with it."""
    return Msg.from_json(stored_msg) if stored_msg else text


def stored_values(data: Mapping[str, Any]) -> dict[str, Any]:
    """The messages among a mapping's values, as JSON by key ({} when there are none)."""
    return {k: v.to_json() for k, v in data.items() if isinstance(v, Msg)}
