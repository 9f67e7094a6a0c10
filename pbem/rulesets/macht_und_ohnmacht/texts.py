"""A question's texts kept as messages in the kit's pause record.

The pause record is plain JSON in the state, so a question's text and its public line
would reach the report as English strings; their messages ride along in the question's
`data` (under `texts`) and are read back for the prompt and the waiting notices.
Not here: what is asked (rules/take.py, rules/play.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.i18n import Msg
from pbem.core.kit import Question


def with_texts(data: Mapping[str, Any], question: Msg, public: Msg) -> dict[str, Any]:
    """The question's data with its two texts as messages."""
    return {**data, "texts": {"question": question.to_json(), "public": public.to_json()}}


def question_text(q: Question) -> Msg | str:
    texts = q.data.get("texts")
    return Msg.from_json(texts["question"]) if texts else q.text


def public_text(q: Question) -> Msg | str:
    texts = q.data.get("texts")
    return Msg.from_json(texts["public"]) if texts else (q.public or q.kind)
