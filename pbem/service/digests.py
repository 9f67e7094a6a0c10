"""Notices that are batched rather than sent one per event, queued by every tick:

- wrong passwords for a seat: one digest to the seat's registered address per step,
  listing every attempt since the last digest (attempts after it wait for the next step);
- bounces: one notice to the GM per tick, listing every bounce since the last notice.

What was told is remembered as an audit row (`badpw-digest`, `bounce-digest`) that records
the last audit id it covered, so a digest is never repeated and nothing is skipped.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

from sqlmodel import Session, col, select

from pbem.config import Settings
from pbem.core.i18n import _, render
from pbem.service.games import audit, seat_row
from pbem.service.language import translator_of
from pbem.service.limits import WRONG_PASSWORDS_PER_DAY
from pbem.service.outbox import notify_gm, queue
from pbem.store.models import Audit, Game

WINDOW = timedelta(days=14)  # attempts older than this are not reported any more


def _detail(row: Audit) -> dict[str, Any]:
    return json.loads(row.detail or "{}")


def _recent(session: Session, action: str, now: datetime) -> list[Audit]:
    return list(session.exec(select(Audit).where(Audit.action == action,
                                                 Audit.at > now - WINDOW).order_by(col(Audit.id))))


def queue_password_digests(session: Session, settings: Settings, *, now: datetime,
                           only: tuple[Game | None, str | None] | None = None) -> int:
    """Queue the digests that are due (`only`: for one game and seat)."""
    attempts = _recent(session, "wrong-password", now)
    if only is not None:
        game_id = only[0].id if only[0] is not None else None
        attempts = [r for r in attempts if r.game_id == game_id
                    and _detail(r).get("seat") == only[1]]
    if not attempts:
        return 0
    told: dict[tuple[int | None, str], list[dict[str, Any]]] = {}
    for row in _recent(session, "badpw-digest", now):
        told.setdefault((row.game_id, _detail(row)["seat"]), []).append(_detail(row))
    pending: dict[tuple[int | None, str], list[Audit]] = {}
    for row in attempts:
        key = (row.game_id, _detail(row).get("seat", ""))
        upto = max((d["upto"] for d in told.get(key, [])), default=0)
        if row.id is not None and row.id > upto:
            pending.setdefault(key, []).append(row)
    queued = 0
    for (game_id, seat), rows in pending.items():
        game = session.get(Game, game_id) if game_id is not None else None
        holder = seat_row(session, game, seat) if game is not None else None
        if game is None or holder is None:
            continue
        if any(d.get("step") == game.step and d.get("generation") == game.generation
               for d in told.get((game_id, seat), [])):
            continue  # one digest per step: these wait for the next one
        senders: dict[str, int] = {}
        for row in rows:
            senders[row.actor] = senders.get(row.actor, 0) + 1
        t = translator_of(game, holder.seat)
        since = f"{rows[0].at:%Y-%m-%d %H:%M %Z}"
        who = ", ".join(f"{a} ({n})" for a, n in sorted(senders.items()))
        queue(session, settings, kind="notice", to=holder.email, game=game, seat=holder.seat,
              subject=render(_("[{game}] {n} order file(s) with a wrong password",
                               game=game.name, n=len(rows)), t),
              text=render(_("{n} order file(s) for your seat {seat} in {game} came with a wrong "
                            "password since {since} and were refused. From: {senders}.\n"
                            "If it was you, check your password, or answer your latest report: "
                            "its reply address needs none. If not, tell the GM. After {max} "
                            "wrong passwords in 24 hours, passwords for your seat are refused "
                            "for a while; reply addresses still work. You get at most one such "
                            "notice a step.", n=len(rows), seat=holder.seat, game=game.name,
                            since=since, senders=who, max=WRONG_PASSWORDS_PER_DAY), t) + "\n",
              now=now, key=("badpw", game.name, game.generation, game.step, holder.seat,
                            holder.id))
        audit(session, game, "badpw-digest", now=now, actor="tick", seat=holder.seat,
              upto=max(r.id or 0 for r in rows), step=game.step, generation=game.generation,
              count=len(rows))
        queued += 1
    return queued


def queue_bounce_digest(session: Session, settings: Settings, *, now: datetime) -> int:
    last = session.exec(select(Audit).where(Audit.action == "bounce-digest")
                        .order_by(col(Audit.id).desc())).first()
    upto = _detail(last)["upto"] if last is not None else 0
    rows = [r for r in _recent(session, "bounce", now) if (r.id or 0) > upto]
    if not rows:
        return 0
    lines = []
    for row in rows:
        d = _detail(row)
        game = session.get(Game, row.game_id) if row.game_id is not None else None
        lines.append(f"  {game.name if game else '?'}: a {d.get('kind', 'mail')} to "
                     f"{d.get('recipient')} ({d.get('seat')}) bounced")
    notify_gm(session, settings, None, f"pbem: {len(rows)} mail(s) bounced",
              "These mails to players bounced (each seat may get one extra extension for the "
              "step; `pbem mail outbox GAME` shows the counts):\n" + "\n".join(lines) + "\n",
              now=now, key=("bounces", rows[0].id, rows[-1].id))
    audit(session, None, "bounce-digest", now=now, actor="tick", upto=rows[-1].id, count=len(rows))
    return len(rows)
