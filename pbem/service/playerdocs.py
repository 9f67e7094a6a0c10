"""The player documentation a welcome mail carries: the player guide and the game's page.

With `docs_url` set (where the GM publishes docs/), the mail links to the pages there;
otherwise it attaches them, read from the checkout's docs/ or the installed package.
"""

from __future__ import annotations

from pathlib import Path

from pbem.core.i18n import Translator, _, render
from pbem.mail.outbound import Attachment


def docs_folder() -> Path | None:
    here = Path(__file__).resolve().parent.parent
    for candidate in (here.parent / "docs", here / "_docs"):
        if (candidate / "player-guide.md").is_file():
            return candidate
    return None


def pages(ruleset_id: str) -> list[tuple[str, str]]:
    """(path under docs/, what it is) of the pages a player of `ruleset_id` needs."""
    return [("player-guide.md", _("how to write and send an order file")),
            (f"rulesets/{ruleset_id}.md", _("this game's order language, decisions and defaults"))]


def for_welcome(ruleset_id: str, docs_url: str | None,
                t: Translator | None = None) -> tuple[str, tuple[Attachment, ...]]:
    """The welcome mail's paragraph about the docs (in the translator's language), and the
    pages to attach."""
    if docs_url:
        base = docs_url.rstrip("/")
        return (render(_("Read these before you write orders:"), t) + "\n"
                + "".join(f"  {base}/{path}  ({render(what, t)})\n"
                          for path, what in pages(ruleset_id)), ())
    folder = docs_folder()
    found = [(path, what) for path, what in pages(ruleset_id)
             if folder is not None and (folder / path).is_file()]
    if not found:
        return "", ()
    text = (render(_("Attached, to read before you write orders:"), t) + "\n"
            + "".join(f"  {Path(path).name}  ({render(what, t)})\n" for path, what in found))
    assert folder is not None
    return text, tuple(Attachment((folder / path).read_bytes(), "text/markdown", Path(path).name)
                       for path, _what in found)
