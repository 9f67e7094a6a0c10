"""The words of a board picture: a message or a name, in the reader's language, escaped.

A game's `board_svg(view, t)` draws its picture for one reader (the report's): every word
it writes (a legend, a title, a name that comes as a message in the view) goes through
`words(value, t)`. With `t=None` (English) a message is its stored English text, so an
English picture is what it was. Not here: drawing (each game's view.py), compacting and
the PNG (`pbem.reports`).
"""

from __future__ import annotations

from html import escape
from typing import Any

from pbem.core.i18n import Translator, render


def words(value: Any, t: Translator | None) -> str:
    """`value` (a message, a name, a number) as SVG text in `t`'s language, escaped."""
    return escape(render(value, t), quote=False)  # text, not an attribute: quotes stay
