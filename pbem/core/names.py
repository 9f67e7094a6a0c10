"""Case- and accent-insensitive names with "did you mean" suggestions.

`fold("Gömör") == fold("gomor") == "gomor"`. A `NameIndex` maps every alias of a thing
(English and Hungarian names, short forms) to its ASCII id.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable, Mapping
from functools import lru_cache

from pbem.core.i18n import Msg, _

# Hungarian double-acute and other letters NFKD does not fully strip for us.
_EXTRA = str.maketrans({"ß": "ss", "ø": "o", "Ø": "o", "æ": "ae", "Æ": "ae", "đ": "d", "ł": "l"})


@lru_cache(maxsize=8192)  # order parsing folds the same few words again and again
def fold(text: str) -> str:
    """Lower-case, accent-free, single-spaced, with '_' and '-' read as spaces."""
    text = unicodedata.normalize("NFKD", text.translate(_EXTRA))
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    text = text.replace("_", " ").replace("-", " ")
    return " ".join(text.split())


class UnknownName(ValueError):
    """A name that matches nothing; the message carries a suggestion when one is close."""


class NameIndex:
    def __init__(self, aliases: Mapping[str, Iterable[str]], *, what: str = _("name")) -> None:
        self.what = what
        self._by_key: dict[str, str] = {}
        for ident, names in aliases.items():
            for name in [ident, *names]:
                key = fold(name)
                other = self._by_key.get(key)
                if other is not None and other != ident:
                    raise ValueError(f"alias {name!r} names both {other!r} and {ident!r}")
                self._by_key[key] = ident

    def __contains__(self, text: str) -> bool:
        return fold(text) in self._by_key

    def get(self, text: str) -> str | None:
        return self._by_key.get(fold(text))

    def lookup(self, text: str) -> str:
        """The id for `text`, or UnknownName('unknown region "Gomr"; did you mean "gomor"?')."""
        ident = self.get(text)
        if ident is not None:
            return ident
        raise UnknownName(_('unknown {what} "{text}"{suggestion}', what=self.what, text=text,
                            suggestion=self.suggest(text)))

    def suggest(self, text: str) -> str:
        close = difflib.get_close_matches(fold(text), list(self._by_key), n=1, cutoff=0.6)
        return _('; did you mean "{name}"?', name=self._by_key[close[0]]) if close else Msg("")
