"""Questions to a seat whose texts stay messages. The kit keeps a question's text and its
public line in the stored state as plain text, so their messages ride along in the
question's data; the ruleset's prompt, view and ask events read them back from there."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.i18n import Msg, restored, stored
from pbem.core.kit import Context, Question


def ask(ctx: Context, seat: str, kind: str, *, question: Msg, public: Msg | str = "",
        data: Mapping[str, Any] | None = None, **kw: Any) -> str:
    """`ctx.decide` with the question's messages kept in its data."""
    msgs = {"text": stored(question), "public": stored(public)}
    return ctx.decide(seat, kind, question=question, public=public,
                      data={**(data or {}), "msg": msgs}, **kw)


def _msg(data: Mapping[str, Any], key: str) -> Any:
    return (data.get("msg") or {}).get(key)


def question_text(q: Question | Mapping[str, Any]) -> str:
    """The question's text, as its message when one was kept."""
    if isinstance(q, Question):
        return restored(q.text, _msg(q.data, "text"))
    return restored(q["text"], _msg(q.get("data") or {}, "text"))


def question_public(q: Question) -> str:
    return restored(q.public, _msg(q.data, "public"))
