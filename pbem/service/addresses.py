"""A warning when the order address changed after games were set up.

Mail is composed when it is queued: a report's From and its Reply-To (the order address
with the seat's reply token) are fixed then. If `address` changes later, replies to the
reports already sent go to the old address. pbem keeps those mails as they were (they are
what the players got) and says so, once per command, for every game still running.
"""

from __future__ import annotations

from email.parser import BytesHeaderParser
from email.policy import default
from email.utils import parseaddr

from sqlmodel import Session, col, func, select

from pbem.store.models import Game, Outbox


def stale_address_warnings(session: Session, address: str) -> list[str]:
    latest = (select(Game.name, func.max(Outbox.id))
              .join(Outbox, col(Outbox.game_id) == Game.id)
              .where(Game.status != "finished", Outbox.kind == "report")
              .group_by(Game.name).order_by(Game.name))
    warnings = []
    for name, row_id in session.exec(latest):
        row = session.get(Outbox, row_id)
        if row is None:
            continue
        head = BytesHeaderParser(policy=default).parsebytes(row.raw)
        old = parseaddr(str(head.get("From", "")))[1]
        if old and old.lower() != address.lower():
            warnings.append(f"game {name}: its reports went out from {old}, but `address` is "
                            f"now {address}; players' replies to them still go to {old}. Keep "
                            "the old address receiving until the next report, or set "
                            "`address` before creating games.")
    return warnings
