"""Jinja rendering of reports: shipped templates, optionally overridden by a GM folder.

Lookup order: the override folder (if any), then the shipped `templates/`. An override
template may `{% extends %}` a shipped one of the same name by prefixing it with
`shipped/` (e.g. `{% extends "shipped/mail/report.txt.j2" %}`).

Languages: every environment has Jinja's i18n extension with the catalog of its language
(`pbem.locale`), so templates mark their text with `{% trans %}` or `_("...")`; words that
come as data (an outcome's status) pass the `term` filter. Messages the games and the
service stored as `pbem.core.i18n.Msg` are rendered in the reader's language before the
template sees them.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from jinja2 import (
    BaseLoader,
    ChoiceLoader,
    Environment,
    FileSystemLoader,
    PrefixLoader,
    StrictUndefined,
)

from pbem.core.i18n import Msg, _, render
from pbem.locale import SOURCE, translations, translator

# Words that reach a template as data and pass its `term` filter: listed here so that they
# are in the catalog. An order line's outcome (pbem.core.kit.log.STATUSES):
TERMS = (_("carried out"), _("not needed"), _("changed"), _("refused"))


def shipped_templates() -> Path:
    here = Path(__file__).resolve().parent.parent
    for candidate in (here.parent / "templates", here / "_templates"):
        if (candidate / "mail").is_dir():
            return candidate
    raise FileNotFoundError("the shipped templates folder is missing")


@lru_cache(maxsize=16)
def environment(override: str | None = None, *, html: bool = False,
                lang: str = SOURCE, game: str | None = None) -> Environment:
    shipped = FileSystemLoader(str(shipped_templates()))
    loaders: list[BaseLoader] = [FileSystemLoader(override)] if override else []
    loaders += [shipped, PrefixLoader({"shipped": shipped})]
    env = Environment(loader=ChoiceLoader(loaders), autoescape=html, undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                      extensions=["jinja2.ext.i18n"])
    t = translations(lang, game)
    # The i18n extension adds this method at run time; Environment's types do not know it.
    env.install_gettext_translations(t, newstyle=True)  # type: ignore[attr-defined]
    env.filters["term"] = t.gettext  # a word that comes as data, e.g. an outcome's status
    env.filters["tojson_pretty"] = lambda v: json.dumps(v, indent=2, ensure_ascii=False,
                                                        sort_keys=True)
    return env


def localised(value: Any, lang: str, game: str | None = None) -> Any:
    """`value` with every `Msg` in it rendered in `lang` (English: as stored), `game`'s
    own texts from its catalog."""
    t = translator(lang, game)
    return value if t is None else _localised(value, t)


def _localised(value: Any, t: Any) -> Any:
    if isinstance(value, Msg):
        return render(value, t)
    if isinstance(value, dict):
        return {k: _localised(v, t) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_localised(v, t) for v in value)
    return value


# The context's entries that hold messages: what happened, what is asked, the deadline as
# the reader reads it, and the footer with his settings.
_MESSAGES = ("happened", "prompt", "deadline_text", "player", "phase", "board_text", "result",
             "view", "skeleton", "game")


def render_report(context: dict[str, Any], *, fmt: str = "text",
                  override: str | None = None, lang: str | None = None) -> str:
    """The report in `lang` (a code of `pbem.locale.LANGUAGES`), by default the language
    its context was built for (English when it says none). The board picture is drawn in
    the context's language: asking for another one is a mistake of the caller's."""
    if fmt not in ("text", "html"):
        raise ValueError("format is text or html")
    drawn = context.get("lang") or SOURCE
    lang = lang or drawn
    if lang != drawn and context.get("board_svg"):
        raise ValueError(f"the board picture of this context is drawn in {drawn!r}, not "
                         f"{lang!r}: build the context with lang={lang!r}")
    html = fmt == "html"
    ruleset = context["game"]["ruleset"]
    env = environment(override, html=html, lang=lang, game=ruleset)
    if lang != SOURCE:
        context = {**context, **{key: localised(context.get(key), lang, ruleset)
                                 for key in _MESSAGES if key in context}}
    ext = "html.j2" if html else "txt.j2"
    template = env.select_template([f"{ruleset}/report.{ext}", f"mail/report.{ext}"])
    return template.render(**{**context, "lang": lang})
