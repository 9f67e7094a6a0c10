"""A whole game in Hungarian, checked for text that reaches a player without a catalog.

`play_in_hungarian(ruleset_id, seats, path)` plays a stored game with bots through the
services (orders in, steps processed) and renders, at every step, each seat's report and
the public one in Hungarian, text and HTML. `Found` then says what went wrong:

- `plain`: a game text that is not a message (`pbem.core.i18n._`) where the report needs
  one: an event, an outcome's reason, a prompt, the phase, the board text, a die's purpose,
  the result's reason. Such a text cannot be translated: it reaches the player in English.
- `leaks`: a message of the platform's or the game's catalog found in English in a
  Hungarian report (the message exists but was not rendered in the reader's language).
- `bare`: words written straight into the game's templates, outside `_()`.
- `picture`: a message of the catalogs found in English among the words of a report's
  board picture (the SVG the game draws for the reader, which the mail carries as a PNG):
  its legends and titles, and single words too (a terrain, a colour), where the catalog's
  Hungarian is another word. `picture_text` holds those words, to look for the game's own.

A game's own test asserts all four are empty and that its Hungarian words are there.
"""

from __future__ import annotations

import html as html_lib
import random
import re
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po
from bots import bot_step
from clock import T0

from pbem.core.i18n import Msg, render
from pbem.core.kit import OrderError
from pbem.core.kit.grammar import Grammar, message_of
from pbem.locale import DOMAIN, catalog_path
from pbem.reports.context import report_context
from pbem.reports.render import render_report
from pbem.service.games import create_game, find_game
from pbem.store.db import connect, migrate, session_scope

ROOT = Path(__file__).resolve().parents[2]
WORDS = re.compile(r"[A-Za-z]{2,}")


@dataclass
class Found:
    plain: list[str] = field(default_factory=list)
    leaks: set[str] = field(default_factory=set)
    bare: list[str] = field(default_factory=list)
    text: str = ""  # every report, text and HTML (tags dropped), for words to look for
    picture: set[str] = field(default_factory=set)
    picture_text: str = ""  # the words of every report's board picture, one a line
    steps: int = 0
    finished: bool = False


def order_error(grammar: Grammar, state: Any, seat: str | None, line: str, t: Any) -> str:
    """The error a game's grammar gives for `line`, rendered with translator `t`."""
    try:
        grammar.parse_line(state, seat, line)
    except OrderError as exc:
        return render(message_of(exc), t)
    raise AssertionError(f"{line} parsed")


def msgids(domain: str, lang: str = "hu") -> list[str]:
    with catalog_path(lang, domain).open("rb") as f:
        return sorted(m.id if isinstance(m.id, str) else m.id[0]
                      for m in read_po(f, locale=lang) if m.id)


def changed_ids(domain: str, lang: str = "hu") -> list[str]:
    """The msgids the language writes otherwise (a name it keeps as it is is not English)."""
    with catalog_path(lang, domain).open("rb") as f:
        return sorted(m.id for m in read_po(f, locale=lang)
                      if m.id and isinstance(m.id, str) and m.string != m.id)


def pattern(msgid: str, *, short: bool = False) -> re.Pattern[str] | None:
    """What a message looks like in English with any values in its placeholders: None for
    a message of fewer than two words (one word may well be a name), unless `short`."""
    prose = re.sub(r"<code>.*?</code>|`[^`]*`", "\x00", msgid)  # commands stay as they are
    parts = re.split(r"%\(\w+\)s|%\(\w+\)d|\{\w+\}|\x00", re.sub(r"<[^>]+>", "", prose))
    words = sum(len(WORDS.findall(p)) for p in parts)
    if words < (1 if short else 2):
        return None
    literal = [re.escape(p) for p in parts]
    while literal and not literal[0].strip():
        literal.pop(0)
    while literal and not literal[-1].strip():
        literal.pop()
    return re.compile(r"[^\n]{0,300}?".join(literal))


def leaks(text: str, ids: list[str], *, ignore: tuple[str, ...] = ()) -> set[str]:
    return {m for m in ids if (p := pattern(m)) is not None and p.search(text)
            and not any(w in m for w in ignore)}


def picture_words(svg: str | None) -> str:
    """The words a board picture shows (its texts and titles), one a line."""
    body = re.sub(r"<style>.*?</style>", "", svg or "", flags=re.S)
    return html_lib.unescape(re.sub(r"<[^>]+>", "\n", body))


def picture_leaks(text: str, ids: list[str], *, ignore: tuple[str, ...] = ()) -> set[str]:
    """Messages left in English among a picture's words: as `leaks`, and each one-word
    message standing as a word of its own (a legend's "forest", a title's "night")."""
    single = {m for m in ids if re.fullmatch(r"[A-Za-z][a-z]+|[A-Z][A-Za-z]+", m)
              and re.search(rf"(?<![\w-]){m}(?![\w-])", text)
              and not any(w in m for w in ignore)}
    return leaks(text, ids, ignore=ignore) | single


def visible_text(report: str, *, html: bool) -> str:
    if not html:
        return report
    body = re.sub(r"<svg.*?</svg>|<style>.*?</style>", "", report, flags=re.S)
    return html_lib.unescape(re.sub(r"<[^>]+>", " ", body))


def plain_texts(ctx: dict[str, Any]) -> list[str]:
    """The game texts of a report's context that are not messages (see the module's doc)."""
    out: list[str] = []

    def need(value: Any, where: str) -> None:
        if value and not isinstance(value, Msg) and WORDS.search(str(value)):
            out.append(f"{where}: {str(value).splitlines()[0][:120]}")

    need(ctx.get("phase"), "phase")
    need(ctx.get("board_text"), "board text")
    if ctx.get("prompt"):
        need(ctx["prompt"]["text"], "prompt")
    if ctx.get("result"):
        need(ctx["result"].get("reason"), "result")
    happened = ctx.get("happened") or {}
    need(happened.get("phase"), "phase (what happened)")
    for text in happened.get("events", ()):
        need(text, "event")
    for o in happened.get("outcomes", ()):
        need(o.get("why"), f"outcome of line {o.get('line')}")
    for r in happened.get("rolls", ()):
        need(r.get("purpose"), "die")
    return out


def bare_template_words(game: str) -> list[str]:
    """Words of the game's templates outside any Jinja tag (so outside `_()`)."""
    out = []
    for path in sorted((ROOT / "templates" / game).glob("*.j2")):
        source = path.read_text(encoding="utf-8")
        bare = re.sub(r"\{#.*?#\}|\{%.*?%\}|\{\{.*?\}\}", " ", source, flags=re.S)
        bare = re.sub(r"<style>.*?</style>|<[^>]+>|&\w+;", " ", bare, flags=re.S)
        out += [f"{path.name}: {w}" for w in WORDS.findall(bare)]
    return out


def play_in_hungarian(ruleset_id: str, seats: dict[str, str], path: Path, *,
                      variant: str | None = None, seed: str = "magyarul", steps: int = 400,
                      options: dict[str, Any] | None = None,
                      every: int = 1, ignore: tuple[str, ...] = ()) -> Found:
    """Play a game with bots, rendering every report in Hungarian (module doc). `ignore`:
    msgids containing these words are not counted as leaks (a word the game's own name
    or a card's shares with a message); say why at the call. `every`: render the reports
    of every k-th step only (the texts of every step are checked all the same)."""
    engine = connect(f"sqlite:///{path}/hu.sqlite")
    migrate(engine)
    ids = msgids(DOMAIN) + msgids(ruleset_id)
    found = Found(bare=bare_template_words(ruleset_id))
    texts: list[str] = []
    pictures: list[str] = []
    with session_scope(engine) as s:
        new = create_game(s, ruleset_id=ruleset_id, name="magyar", seats=seats, seed=seed,
                          variant=variant, options=options, deadline_hours=48, now=T0,
                          settings={"language": "hu"})
    rng = random.Random(seed)
    now = T0
    for _i in range(steps):
        with session_scope(engine) as s:
            finished = find_game(s, "magyar").status == "finished"
            for seat in (None, *sorted(seats)):
                ctx = report_context(s, "magyar", seat=seat, now=now, lang="hu")
                found.plain += plain_texts(ctx)
                pictures.append(picture_words(ctx["board_svg"]))
                for fmt in ("text", "html") if finished or _i % every == 0 else ():
                    texts.append(visible_text(render_report(ctx, fmt=fmt, lang="hu"),
                                              html=fmt == "html"))
        if finished:
            found.finished = True
            break
        now += timedelta(hours=1)
        bot_step(engine, "magyar", new.passwords, rng, now=now)
        found.steps += 1
    engine.dispose()
    found.text = "\n".join(texts)
    found.leaks = leaks(found.text, ids, ignore=ignore)
    found.picture_text = "\n".join(pictures)
    found.picture = picture_leaks(found.picture_text,
                                  changed_ids(DOMAIN) + changed_ids(ruleset_id), ignore=ignore)
    found.plain = sorted(set(found.plain))
    return found
