"""Where each catalog's messages are, and the update a translator runs after changing the
code: `python -m pbem.locale.catalogs` (from a source checkout).

It extracts every domain's messages (`_()`, `n_()` in Python, `_()` in the Jinja
templates), writes each template `<domain>.pot`, and updates every language's `.po`: new
messages come in empty (a test fails until they are translated), messages the code no longer
has are dropped, and a new message that another catalog of the language already translates
starts with that translation.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po, write_po

from pbem.locale import DOMAIN, HERE, LANGUAGES, SOURCE, catalog_path, template_path

ROOT = HERE.parents[1]  # the source checkout
KEYWORDS = {**DEFAULT_KEYWORDS, "n_": (1, 2)}
JINJA = {"extensions": "jinja2.ext.i18n", "trim_blocks": "true", "lstrip_blocks": "true"}
WIDTH = 100

# Where a domain's messages are: (folder under the checkout, [(glob, method)]).
Source = tuple[str, list[tuple[str, str]]]


def games() -> list[str]:
    """The ruleset ids of the games in the checkout (each package under pbem/rulesets)."""
    return sorted(p.name.replace("_", "-") for p in (ROOT / "pbem" / "rulesets").iterdir()
                  if (p / "__init__.py").is_file())


def sources(domain: str) -> list[Source]:
    if domain == DOMAIN:
        return [("pbem", [("rulesets/**", "ignore"), ("**.py", "python")]),
                ("templates/mail", [("**.j2", "jinja2")])]
    return [(f"pbem/rulesets/{domain.replace('-', '_')}", [("**.py", "python")]),
            (f"templates/{domain}", [("**.j2", "jinja2")])]


def domains() -> list[str]:
    return [DOMAIN, *games()]


def extract(domain: str) -> Catalog:
    """The domain's messages as the code and its templates have them now."""
    catalog = Catalog(domain=domain)
    for folder, method_map in sources(domain):
        if not (ROOT / folder).is_dir():
            continue
        options = {glob: JINJA for glob, method in method_map if method == "jinja2"}
        for _path, _line, msg, comments, context in extract_from_dir(
                str(ROOT / folder), method_map, options, keywords=KEYWORDS):
            catalog.add(msg, None, auto_comments=comments, context=context)
    return catalog


def ids(catalog: Catalog) -> set[str]:
    """The message ids (a plural's singular) of a catalog."""
    return {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id}


def read(path: Path, lang: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=lang)


def update() -> list[str]:
    """Write every template and update every language's catalogs; what was done, a line each."""
    done = []
    templates = {d: extract(d) for d in domains()}
    for domain, template in templates.items():
        _write(template_path(domain), template, omit_header=True)
        done.append(f"{template_path(domain).name}: {len(ids(template))} messages")
    for lang in LANGUAGES:
        if lang == SOURCE:
            continue
        known = _known(lang)  # before any catalog of the language changes
        for domain, template in templates.items():
            path = catalog_path(lang, domain)
            catalog = read(path, lang) if path.is_file() else Catalog(locale=lang, domain=domain)
            catalog.update(template, no_fuzzy_matching=True)
            for m in catalog:
                if m.id and not _translated(m.string) and m.id in known:
                    m.string = known[m.id]
            path.parent.mkdir(parents=True, exist_ok=True)
            _write(path, catalog, ignore_obsolete=True)
            empty = sum(1 for m in catalog if m.id and not _translated(m.string))
            done.append(f"{lang}/{path.name}: {len(ids(catalog))} messages, {empty} to translate")
    return done


def _write(path: Path, catalog: Catalog, **options: bool) -> None:
    """Write a catalog unless only its dates would change (so that an update touches only
    the catalogs whose messages changed)."""
    buf = io.BytesIO()
    write_po(buf, catalog, no_location=True, sort_output=True, width=WIDTH, **options)
    new = buf.getvalue()
    if path.is_file() and _undated(path.read_bytes()) == _undated(new):
        return
    path.write_bytes(new)


def _undated(po: bytes) -> bytes:
    return re.sub(rb'^"(POT-Creation|PO-Revision)-Date: [^"]*"\n', b"", po, flags=re.M)


def _known(lang: str) -> dict[Any, Any]:
    """Every translation the language's catalogs hold now, by message id."""
    known: dict[Any, Any] = {}
    for path in sorted((HERE / lang / "LC_MESSAGES").glob("*.po")):
        for m in read(path, lang):
            if m.id and _translated(m.string) and not m.fuzzy:
                known.setdefault(m.id, m.string)
    return known


def _translated(string: object) -> bool:
    return bool(string) and (isinstance(string, str) or all(string))  # type: ignore[arg-type]


if __name__ == "__main__":
    for line in update():
        print(line)
