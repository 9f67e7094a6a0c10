"""Reports by each player's settings: the files they chose, and digests.

A player with `digest on` gets the reports of steps that do not ask anything of them kept
back (outbox status `held`, due a day after their last mail and never in their quiet hours:
`pbem.mail.player_settings.digest_due`) and sent as one mail, the digest. A report that
asks for their orders, or the game's last one, goes at once, with everything kept back
before it in the same mail. Held reports stay in the outbox as `digested`, for the record.
"""

from __future__ import annotations

import email
import json
import re
from datetime import datetime
from email.policy import default as default_policy
from typing import Any, overload

from sqlmodel import Session, col, select

from pbem.config import Settings
from pbem.core.i18n import _, n_, render
from pbem.locale import translator
from pbem.mail.outbound import Attachment
from pbem.mail.player_settings import digest_due
from pbem.reports.context import report_context
from pbem.reports.png import Picture, board_png
from pbem.reports.render import render_report
from pbem.service import players
from pbem.service.games import seat_row, seats_of
from pbem.service.language import language_of
from pbem.service.outbox import queue
from pbem.store.models import Game, Outbox, Seat

_BODY = re.compile(r"<body[^>]*>(.*)</body>", re.S | re.I)


def report_files(game: Game, row: Seat, ctx: dict[str, Any],
                 picture: Picture | None = None) -> tuple[Attachment, ...]:
    """The files this holder's report carries: the board picture as a PNG beside the HTML
    part that shows it by `cid:` (`ctx["board_picture"]`), and as a file of its own when
    they chose it (or take text only); the view as JSON."""
    board, view = players.attachments_for(game, row)
    out = []
    if picture is not None and "board_picture" in ctx:
        cid = ctx["board_picture"]["cid"]
        out.append(Attachment(picture.data, "image/png", cid, inline=True, content_id=cid))
    if picture is not None and board:
        out.append(Attachment(picture.data, "image/png",
                              f"{game.name}-step{ctx['step']}-board.png"))
    if view:
        out.append(Attachment(json.dumps(ctx["view"], indent=1, sort_keys=True,
                                         ensure_ascii=False).encode(), "application/json",
                              f"{game.name}-step{ctx['step']}-{row.seat}.json"))
    return tuple(out)


def _picture(game: Game, row: Seat, ctx: dict[str, Any]) -> Picture | None:
    """The board as a PNG (the SVG stays in the archive: mail clients do not show SVG);
    an HTML part shows it by `cid:`."""
    picture = board_png(ctx["board_svg"]) if ctx["board_svg"] else None
    if picture is not None and players.settings_of_seat(row).format != "text":
        ctx["board_picture"] = {"cid": f"{game.name}-step{ctx['step']}-{row.seat}-board.png",
                                "width": picture.width, "height": picture.height}
    return picture


def queue_reports(session: Session, settings: Settings, game: Game, *, now: datetime) -> int:
    """Queue the report that opens the game's current step for every active seat, by each
    holder's settings (parts, files, quiet hours, digest). Returns how many were queued."""
    count = 0
    for row in seats_of(session, game):
        lang = language_of(game, row.seat)
        ctx = report_context(session, game.name, seat=row.seat, now=now, lang=lang)
        t = translator(lang, game.ruleset)
        text = render_report(ctx, fmt="text", override=settings.templates, lang=lang)
        picture = _picture(game, row, ctx)
        html = render_report(ctx, fmt="html", override=settings.templates, lang=lang)
        phase = ctx["phase"] or _("report")
        subject = (_("[{game}] step {n} (final): {phase}", game=game.name, n=ctx["step"],
                     phase=phase) if ctx["result"] else
                   _("[{game}] step {n}: {phase}", game=game.name, n=ctx["step"], phase=phase))
        # The player's own turn, or the end: at once, whatever the hour.
        urgent = bool(ctx["result"]) or ctx["prompt"] is not None
        held = _held(session, game, row)
        hold = None
        if players.settings_of_seat(row).digest and not urgent:
            hold = _digest_due(session, game, row, held, now)
        elif held:
            hold = now  # goes out now, inside the digest of what was kept back
        queued = queue(session, settings, kind="report", to=row.email, game=game, seat=row.seat,
                       subject=render(subject, t), text=text, html=html,
                       attachments=report_files(game, row, ctx, picture), now=now,
                       urgent=urgent, hold_until=hold,
                       key=("report", game.name, game.generation, ctx["step"], row.seat, row.id))
        count += queued is not None
        if queued is not None and held and hold == now:
            send_digest(session, settings, game, row, now=now, urgent=urgent)
    return count


def _held(session: Session, game: Game, row: Seat) -> list[Outbox]:
    return list(session.exec(select(Outbox).where(
        Outbox.game_id == game.id, Outbox.seat == row.seat, Outbox.recipient == row.email,
        Outbox.status == "held").order_by(col(Outbox.id))))


def _digest_due(session: Session, game: Game, row: Seat, held: list[Outbox],
                now: datetime) -> datetime:
    last = session.exec(select(Outbox.created_at).where(
        Outbox.game_id == game.id, Outbox.recipient == row.email,
        col(Outbox.kind).in_(("report", "digest")),
        col(Outbox.status).in_(("queued", "sending", "sent")))
        .order_by(col(Outbox.created_at).desc())).first()
    first = min([h.created_at for h in held] + [now])
    return digest_due(_aware(last, now), _aware(first, now), players.zone_for(game, row),
                      players.settings_of_seat(row).quiet)


@overload
def _aware(moment: datetime, like: datetime) -> datetime: ...
@overload
def _aware(moment: None, like: datetime) -> None: ...
def _aware(moment: datetime | None, like: datetime) -> datetime | None:
    """SQLite hands back naive datetimes: they are UTC, as `now` is."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=like.tzinfo)


def flush_due(session: Session, settings: Settings, *, now: datetime) -> list[str]:
    """Send every digest that is due (the tick)."""
    due = session.exec(select(Outbox.game_id, Outbox.seat, Outbox.recipient).where(
        Outbox.status == "held", col(Outbox.next_attempt_at) <= now).distinct()).all()
    lines = []
    for game_id, seat, recipient in due:
        game = session.get(Game, game_id)
        row = seat_row(session, game, seat) if game is not None and seat else None
        if game is None or row is None or row.email != recipient:
            # The seat changed hands since: what was kept for the former holder goes to
            # them as it was, mail by mail.
            for old in session.exec(select(Outbox).where(
                    Outbox.game_id == game_id, Outbox.seat == seat,
                    Outbox.recipient == recipient, Outbox.status == "held")):
                old.status, old.next_attempt_at = "queued", now
                session.add(old)
            continue
        n = send_digest(session, settings, game, row, now=now, urgent=False)
        if n:
            lines.append(f"{game.name}: digest of {n} report(s) to {row.seat}")
    return lines


def _parts(raw: bytes) -> tuple[str | None, str | None, list[Attachment]]:
    msg = email.message_from_bytes(raw, policy=default_policy)
    plain, html = msg.get_body(("plain",)), msg.get_body(("html",))
    files = [Attachment(p.get_content() if isinstance(p.get_content(), bytes)
                        else str(p.get_content()).encode(), p.get_content_type(),
                        p.get_filename() or "file") for p in msg.iter_attachments()]
    # The board picture the HTML part shows by cid: (beside it, not an attachment).
    files += [Attachment(p.get_content(), p.get_content_type(), p.get_filename() or "board.png",
                         inline=True, content_id=p["Content-ID"].strip("<> "))
              for p in msg.walk() if p["Content-ID"] and p.get_content_maintype() == "image"]
    return (plain.get_content() if plain is not None else None,
            html.get_content() if html is not None else None, files)


def send_digest(session: Session, settings: Settings, game: Game, row: Seat, *, now: datetime,
                urgent: bool) -> int:
    """One mail with every report kept back for this holder (the files of the latest);
    returns how many it holds (0: nothing was kept)."""
    held = _held(session, game, row)
    if not held:
        return 0
    texts: list[str] = []
    htmls: list[str] = []
    files: list[Attachment] = []
    for item in held:
        plain, html, files = _parts(item.raw)
        if plain is not None:
            texts.append(f"{'=' * 72}\n{item.subject}\n{'=' * 72}\n{plain}")
        if html is not None:
            found = _BODY.search(html)
            body = found.group(1) if found else html
            if item is not held[-1]:  # only the latest board is carried: the others' go
                body = _CID_IMAGE.sub("", body)
            htmls.append(f"<h1 class=\"digest-item\">{_escape(item.subject)}</h1>\n" + body)
        item.status = "digested"
        session.add(item)
    t = translator(language_of(game, row.seat), game.ruleset)
    head = render(n_("{n} report of {game} since your last mail, oldest first (you chose "
                     "`digest on`: a report that asks for your orders comes at once).",
                     "{n} reports of {game} since your last mail, oldest first (you chose "
                     "`digest on`: a report that asks for your orders comes at once).",
                     len(held), game=game.name), t)
    text = head + "\n\n" + "\n".join(texts) if texts else None
    html = (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{_escape(game.name)}"
            f"</title></head><body>\n<p>{_escape(head)}</p>\n" + "\n<hr>\n".join(htmls)
            + "\n</body></html>\n") if htmls else None
    queue(session, settings, kind="digest", to=row.email, game=game, seat=row.seat,
          subject=render(n_("[{game}] digest: {n} report, up to step {step}, your turn",
                            "[{game}] digest: {n} reports, up to step {step}, your turn",
                            len(held), game=game.name, step=game.step) if urgent else
                         n_("[{game}] digest: {n} report, up to step {step}",
                            "[{game}] digest: {n} reports, up to step {step}",
                            len(held), game=game.name, step=game.step), t),
          text=text or head + "\n", html=html, attachments=tuple(files), now=now, urgent=urgent,
          key=("digest", game.name, game.generation, row.id, held[0].id, held[-1].id))
    return len(held)


_CID_IMAGE = re.compile(r'<img\b[^>]*\bsrc="cid:[^"]*"[^>]*>', re.I)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
