"""A question's texts are messages: stored in the state as messages, asked and announced in
the reader's language by the kit's own notices and prompt; a question stored with plain
texts (before questions kept their messages) still loads and plays on."""

from __future__ import annotations

import gettext
import json
from typing import Any

from pbem.core.dice import ScriptedDice
from pbem.core.engine import canonical_json, process
from pbem.core.i18n import Msg, render
from pbem.core.kit import Context, Question
from pbem.core.orders import Prompt
from pbem.locale import translations

from .duel import Duel
from .test_kit import DUEL, start, step


class Hungarian(gettext.NullTranslations):
    """The duel's own two texts in Hungarian (a test game has no catalog), the platform's
    Hungarian catalog for the rest (the kit's notices)."""

    WORDS = {
        "{seat} hits you {hits} time(s): BLOCK (half the hits, costs 1 hit point) or TAKE?":
            "{seat} {hits} találatot vitt be neked: BLOCK (a találatok fele, 1 életpont) "
            "vagy TAKE?",
        "whether to block {hits} hit(s)": "kivédi-e a(z) {hits} találatot",
    }

    def __init__(self) -> None:
        super().__init__()
        self.add_fallback(translations("hu"))

    def gettext(self, message: str) -> str:
        return self.WORDS.get(message) or super().gettext(message)


HU = Hungarian()
QUESTION_HU = "red 2 találatot vitt be neked: BLOCK (a találatok fele, 1 életpont) vagy TAKE?"


def paused() -> Any:
    """red attacks with two hits; blue is asked whether to block."""
    out = step(start(ask=True), {"red": "ATTACK 2\n"}, [5, 6])
    assert out.state["pause"] is not None
    return out


def test_a_question_with_messages_round_trips_through_json_and_reads_in_hungarian() -> None:
    out = paused()
    stored = json.loads(out.state_json)["pause"]["questions"][0]
    q = Question.from_json(stored)
    assert isinstance(q.text, Msg) and isinstance(q.public, Msg)
    assert q.text == ("red hits you 2 time(s): BLOCK (half the hits, costs 1 hit point) or "
                      "TAKE?")  # the English, as before
    assert stored["text"] == q.text and stored["public"] == "whether to block 2 hit(s)"
    assert q.to_json() == stored  # exactly as stored
    again = Question.from_json(json.loads(json.dumps(q.to_json())))
    assert again == q and again.text.msgid == q.text.msgid and again.text.args == q.text.args
    # The prompt, built from the stored question, and as the step stores it.
    prompt = DUEL.awaiting(json.loads(out.state_json))["blue"]
    assert render(prompt.text, HU) == QUESTION_HU
    assert render(Prompt.from_json(json.loads(json.dumps(prompt.to_json()))).text, HU) \
        == QUESTION_HU
    # The kit's notices, in Hungarian: the asked seat reads its question, the other what.
    asks = [(e.to, render(e.text, HU)) for e in out.events if e.kind == "ask"]
    assert asks == [(("red",), "blue döntésére várunk: kivédi-e a(z) 2 találatot."),
                    (("blue",), f"Döntened kell: {QUESTION_HU}")]


def old_form(state_json: str) -> str:
    """The state as it was stored before questions kept their messages: plain texts."""
    state = json.loads(state_json)
    for q in state["pause"]["questions"]:
        assert q.pop("msgs")
    return canonical_json(state)


def test_a_question_stored_with_plain_texts_loads_and_the_game_plays_on() -> None:
    out = paused()
    old = old_form(out.state_json)
    q = DUEL.questions(json.loads(old))[0]
    assert type(q.text) is str and type(q.public) is str
    assert (q.seat, q.kind, q.default, q.options) == ("blue", "block", "TAKE", ("BLOCK", "TAKE"))
    assert DUEL.awaiting(json.loads(old))["blue"].text == \
        "red hits you 2 time(s): BLOCK (half the hits, costs 1 hit point) or TAKE?"
    # The answer resolves the same way from either form (the resolution runs from the
    # pause's snapshot; the question is only what was asked).
    after_old = process(DUEL, old, {"blue": "BLOCK\n"}, seed=b"x" * 32, dice=ScriptedDice([]))
    after_new = process(DUEL, out.state_json, {"blue": "BLOCK\n"}, seed=b"x" * 32,
                        dice=ScriptedDice([]))
    assert after_old.state["hp"]["blue"] == 8  # 2 hits blocked to 2 (1 + 1)
    assert after_old.state_json == after_new.state_json
    assert [e.to_json() for e in after_old.events] == [e.to_json() for e in after_new.events]


def test_a_question_with_plain_texts_is_stored_as_it_always_was() -> None:
    q = Question("blue", "block", "Block?", "TAKE", ("BLOCK", "TAKE"), True, "whether to block")
    assert q.to_json() == {"seat": "blue", "kind": "block", "text": "Block?", "default": "TAKE",
                           "options": ["BLOCK", "TAKE"], "exhaustive": True,
                           "public": "whether to block", "data": {}}
    assert Question.from_json(q.to_json()) == q


class SealedDuel(Duel):
    """A duel whose block decisions are sealed: not announced, asked in the prompt only."""

    def question_public(self, q: Question) -> str | None:
        return None


def test_a_question_the_game_does_not_announce_gets_no_notice_but_is_asked() -> None:
    out = paused()
    q = DUEL.questions(out.state)[0]
    ctx = Context(state=json.loads(out.state_json), dice=ScriptedDice([]))
    SealedDuel().ask_events(ctx, [q])
    assert ctx.log.events == []
    assert render(SealedDuel().awaiting(out.state)["blue"].text, HU) == QUESTION_HU
