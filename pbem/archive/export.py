"""`pbem archive export`: a static HTML site of a game, browsable without a server.

While the game runs the site shows only public information: the public view of every
step, its public events and dice, and the orders of a closed step once its seed is
revealed (nothing it decided is hidden), as far as the ruleset's `public_orders` allows
(standing orders and sealed secrets still in force stay hidden). After the game ends it adds every seat's view of
every step, every event and roll, every order file and every seed, and the GM section
(`gm.py`: every ruling's position file and a page listing the rulings).

The steps are read once, in order, each page built from its step and the one before:
the export takes time in proportion to the game's length.

The pages are in the game's language (`language_of(game)`), each seat's pages in that
seat's; the headings are catalog messages like the reports'.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from pathlib import Path

from sqlmodel import Session, col, select

from pbem.archive.gm import GM_DIR, RulingRecord, is_ruling, write_gm_section
from pbem.core.engine import load_state
from pbem.core.i18n import Translator, _, render
from pbem.core.ruleset import Ruleset
from pbem.reports.context import build_context, result_of
from pbem.reports.render import render_report
from pbem.service.games import find_game, ruleset_of, seats_of
from pbem.service.language import language_of, translator_of
from pbem.store.models import Step

_STYLE = ("body{font-family:system-ui,sans-serif;max-width:60em;margin:1em auto;padding:0 1em}"
          "td,th{border:1px solid #ccc;padding:.2em .5em}table{border-collapse:collapse}"
          "pre{background:#f6f6f6;padding:.5em;overflow-x:auto}")


# A game's status as the index shows it (the word stored is English).
STATUS = {"open": _("open"), "paused": _("paused"), "finished": _("finished")}
# The archive's own words.
WORDS = {"index": _("index"), "previous": _("previous"), "next": _("next"),
         "orders": _("Orders of this step"), "none": _("(none)"), "views": _("Seats' views:"),
         "closed": _("closed"), "open": _("open"), "commitment": _("(commitment)"),
         "winners": _("Winner(s):"), "gm": _("GM section")}


def _page(title: str, body: str, lang: str = "en") -> str:
    return (f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8"><title>'
            f"{html.escape(title)}</title><style>{_STYLE}</style></head><body>{body}</body></html>\n")


def _orders(ruleset: Ruleset, step: Step, finished: bool,
            t: Translator | None = None) -> list[tuple[str, str]]:
    """Each seat's orders of a closed step: all of them after the game, else what the
    ruleset says may be published (standing orders and sealed secrets stay hidden)."""
    applied = json.loads(step.applied_json or "{}")
    if finished:
        return sorted(applied.items())
    state = load_state(ruleset, step.state_json)
    out = []
    for seat, text in sorted(applied.items()):
        public = ruleset.public_orders(state, seat, ruleset.parse(state, seat, text))
        out.append((seat, render(_("(kept secret until the game ends)"), t) if public is None
                    else "".join(f"{line}\n" for line in public)))
    return out


def step_file(number: int, seat: str | None = None) -> str:
    return f"step-{number:04d}{'-' + seat if seat else ''}.html"


def export_game(session: Session, name: str, out: Path, *, override: str | None = None,
                progress: Callable[[int], None] | None = None) -> list[Path]:
    game = find_game(session, name)
    ruleset = ruleset_of(game)
    finished = game.status == "finished"
    lang, t = language_of(game), translator_of(game)

    def tr(msg: str) -> str:  # a heading in the game's language, escaped
        return html.escape(render(msg, t), quote=False)

    w = {k: tr(v) for k, v in WORDS.items()}
    seats = [s.seat for s in seats_of(session, game)]
    all_seats = {s.seat for s in seats_of(session, game, active_only=False)}
    seat_lang = {seat: language_of(game, seat) for seat in seats}  # looked up once, not per step
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    rows = []
    previous: Step | None = None
    last: Step | None = None
    rulings: list[RulingRecord] = []
    steps = session.exec(select(Step).where(Step.game_id == game.id, Step.live == True)  # noqa: E712
                         .order_by(col(Step.number)).execution_options(yield_per=50))
    for step in steps:
        previous, last = last, step
        if is_ruling(step):
            rulings.append(RulingRecord.of(step))
        if step.number == 0:
            continue
        nav = (f'<p><a href="index.html">{w["index"]}</a>'
               + (f' | <a href="{step_file(step.number - 1)}">{w["previous"]}</a>'
                  if step.number > 1 else "")
               + (f' | <a href="{step_file(step.number + 1)}">{w["next"]}</a>'
                  if step.number < game.step else "") + "</p>")
        ctx = build_context(game, ruleset, all_seats, step, previous, seat=None,
                            everything=finished, lang=lang)
        page = render_report(ctx, fmt="html", override=override, lang=lang)
        extra = nav
        closed_orders = step.closed_at is not None and step.applied_json and (
            finished or step.seed_revealed)
        if closed_orders:
            extra += f"<section id='orders'><h2>{w['orders']}</h2>" + "".join(
                f"<h3>{html.escape(s)}</h3><pre>{html.escape(o) or w['none']}</pre>"
                for s, o in _orders(ruleset, step, finished, t)) + "</section>"
        if finished:
            extra += "<p>" + w["views"] + " " + " ".join(
                f'<a href="{step_file(step.number, s)}">{html.escape(s)}</a>' for s in seats) + "</p>"
            for seat in seats:
                sctx = build_context(game, ruleset, all_seats, step, previous, seat=seat,
                                     lang=seat_lang[seat])
                path = out / step_file(step.number, seat)
                path.write_text(render_report(sctx, fmt="html", override=override,
                                              lang=seat_lang[seat]), encoding="utf-8")
                written.append(path)
        page = page.replace("<body>", "<body>" + nav, 1).replace("</body>", extra + "</body>", 1)
        path = out / step_file(step.number)
        path.write_text(page, encoding="utf-8")
        written.append(path)
        rows.append(f'<tr><td><a href="{step_file(step.number)}">{step.number}</a></td>'
                    f"<td>{tr(ctx['phase'])}</td><td>{step.round}</td>"
                    f"<td>{w['closed'] if step.closed_at else w['open']}</td>"
                    f"<td style='font-family:monospace'>{step.seed if step.seed_revealed else step.commitment[:16] + '... ' + w['commitment']}</td></tr>")
        if progress:
            progress(1)
    result = result_of(last) if last is not None else None
    if finished:  # a position file shows every hidden part
        written += write_gm_section(out, rulings, step_page=step_file)
    status = STATUS.get(game.status, game.status)
    body = (f"<h1>{tr(ruleset.title)}: {html.escape(game.name)}</h1>"
            + "<p>" + tr(_("Status: {status}. Variant: {variant}. Seats: {seats}.", status=status,
                           variant=game.variant, seats=", ".join(seats))) + "</p>"
            + (f"<p id='result'>{w['winners']} "
               f"<b>{html.escape(', '.join(result['winners']))}</b> "
               f"({tr(result.get('reason', ''))})</p>" if result else "")
            + "<table id='steps'><tr>" + "".join(f"<th>{tr(h)}</th>" for h in (
                _("Step"), _("Phase"), _("Round"), _("Status"), _("Seed"))) + "</tr>"
            + "".join(rows) + "</table>"
            + (f"<p id='gm'><a href=\"{GM_DIR}/index.html\">{w['gm']}</a>: "
               + tr(_("{n} ruling(s) and their position files", n=len(rulings))) + "</p>"
               if finished else ""))
    index = out / "index.html"
    index.write_text(_page(render(_("{game} archive", game=game.name), t), body, lang),
                     encoding="utf-8")
    written.append(index)
    return written
