"""The message catalogs: every text the platform shows a player, in each language it speaks.

Two kinds of catalog (domains), each a template `<domain>.pot` and one `.po` per language in
`<lang>/LC_MESSAGES/`:
- `pbem`: the platform (the code outside the games, the shared templates);
- one per game, named by its ruleset id (`kard-es-korona`): the game's own texts (its
  events, prompts, phases, board, template). A game's words may differ from another game's,
  so each game has its own; its translator falls back to the platform's.
`python -m pbem.locale.catalogs` extracts them all and updates every language
(docs/translating.md). English is the source language: it needs no catalog.

The catalogs are read from the `.po` files at run time (compiled in memory, once per
process), not from compiled `.mo` files: `pip install -e .`, a wheel and a source checkout
then all work with no build step, and a translator's edit shows at the next start.
Reading one catalog costs a few milliseconds.
"""

from __future__ import annotations

import gettext
import io
from functools import lru_cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

DOMAIN = "pbem"
SOURCE = "en"  # the language of the msgids
LANGUAGES = ("en", "hu")  # every language with a complete catalog
HERE = Path(__file__).resolve().parent


def catalog_path(lang: str, domain: str = DOMAIN) -> Path:
    return HERE / lang / "LC_MESSAGES" / f"{domain}.po"


def template_path(domain: str = DOMAIN) -> Path:
    return HERE / f"{domain}.pot"


def _compiled(lang: str, domain: str) -> gettext.GNUTranslations | None:
    path = catalog_path(lang, domain)
    if not path.is_file():
        return None
    with path.open("rb") as f:
        catalog = read_po(f, locale=lang, domain=domain)
    buf = io.BytesIO()
    write_mo(buf, catalog)  # fuzzy entries are left out: English for them
    buf.seek(0)
    return gettext.GNUTranslations(buf)


@lru_cache(maxsize=8 * len(LANGUAGES))
def translations(lang: str | None, game: str | None = None) -> gettext.NullTranslations:
    """The translator of a language (`gettext` and `ngettext`), for `game`'s texts (a
    ruleset id) and the platform's; English, or a language without a catalog, gets the
    null translator (the msgids as they are)."""
    if not lang or lang == SOURCE or lang not in LANGUAGES:
        return gettext.NullTranslations()
    platform = _compiled(lang, DOMAIN) or gettext.NullTranslations()
    own = _compiled(lang, game) if game and game != DOMAIN else None
    if own is None:
        return platform
    own.add_fallback(platform)
    return own


def translator(lang: str | None, game: str | None = None) -> gettext.NullTranslations | None:
    """As `translations`, but None for English: `pbem.core.i18n.render(msg, None)` is then
    the stored English text, byte for byte."""
    return None if not lang or lang == SOURCE else translations(lang, game)


def normalise(lang: str | None) -> str:
    """A language code as the catalogs name it ("HU", "hu_HU" -> "hu"); '' if unknown."""
    code = (lang or "").strip().lower().replace("-", "_").split("_")[0]
    return code if code in LANGUAGES else ""
