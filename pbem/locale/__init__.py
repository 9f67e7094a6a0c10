"""The message catalogs: every text the platform shows a player, in each language it speaks.

`pbem.pot` is the template extracted from the code and the shared templates
(`pybabel extract -F babel.cfg`, see docs/translating.md); `<lang>/LC_MESSAGES/pbem.po` is
one language's catalog. English is the source language: it needs no catalog.

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


def catalog_path(lang: str) -> Path:
    return HERE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@lru_cache(maxsize=len(LANGUAGES))
def translations(lang: str | None) -> gettext.NullTranslations:
    """The translator of a language (`gettext` and `ngettext`); English, or a language
    without a catalog, gets the null translator (the msgids as they are)."""
    if not lang or lang == SOURCE or lang not in LANGUAGES:
        return gettext.NullTranslations()
    with catalog_path(lang).open("rb") as f:
        catalog = read_po(f, locale=lang, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, catalog)  # fuzzy entries are left out: English for them
    buf.seek(0)
    return gettext.GNUTranslations(buf)


def translator(lang: str | None) -> gettext.NullTranslations | None:
    """As `translations`, but None for English: `pbem.core.i18n.render(msg, None)` is then
    the stored English text, byte for byte."""
    return None if not lang or lang == SOURCE else translations(lang)


def normalise(lang: str | None) -> str:
    """A language code as the catalogs name it ("HU", "hu_HU" -> "hu"); '' if unknown."""
    code = (lang or "").strip().lower().replace("-", "_").split("_")[0]
    return code if code in LANGUAGES else ""
