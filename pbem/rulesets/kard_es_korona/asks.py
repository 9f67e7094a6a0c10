"""The decisions' questions as messages. A question is kept in the game state (plain JSON)
while it is open, which keeps its English text only; its message goes with it in the
question's data, so the report and the waiting notice show it in the reader's language."""

from __future__ import annotations

from typing import Any

from pbem.core.i18n import Msg, _
from pbem.core.kit import Question


def asking(question: Msg, public: Msg, **data: Any) -> dict[str, Any]:
    """The keyword arguments of `ctx.decide` / `Ask` for a question and its public part."""
    return {"question": question, "public": public,
            "data": {**data, "text_msg": question.to_json(), "public_msg": public.to_json()}}


def question_text(q: Question) -> str:
    """The question as its message (its stored text for a question asked without one)."""
    stored = q.data.get("text_msg")
    return Msg.from_json(stored) if stored else q.text


def public_text(q: Question) -> str:
    """Who is asked about what, for the other seats."""
    stored = q.data.get("public_msg")
    return Msg.from_json(stored) if stored else (q.public or q.kind)


def waiting(seat: str, what: str) -> Msg:
    return _("Waiting for {seat}: {what}.", seat=seat, what=what)


def needed(text: str) -> Msg:
    return _("Your decision is needed: {text}", text=text)
