"""Every game's questions, as the kit stores them: asked with messages (so the prompt and
the notices read in the reader's language), and a paused state stored before questions
kept their messages (plain English texts) still loads and plays on exactly the same."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from pbem.core.dice import step_seed
from pbem.core.engine import StepOutcome, canonical_json, process, set_up
from pbem.core.i18n import Msg, render
from pbem.core.kit import Game, Question
from pbem.core.ruleset import GameConfig
from pbem.locale import translator
from pbem.rulesets import all_rulesets

GAMES = sorted(rs.id for rs in all_rulesets().values() if isinstance(rs, Game))


def first_pause(game: Game, seed: int) -> tuple[StepOutcome, bytes] | None:
    """A random playout with decisions asked, up to the first open question."""
    seats = game.seat_ids(game.min_players, game.variants[0].id)
    config = GameConfig(tuple(seats), game.variants[0].id, {"decisions": "ask"})
    master = hashlib.sha256(f"questions:{seed}".encode()).digest()
    rng = random.Random(seed)
    out = set_up(game, config, master)
    for n in range(1, 300):
        if game.questions(out.state):
            return out, step_seed(master, n)
        if not out.awaiting:
            return None
        texts = {s: "".join(f"{x}\n" for x in game.legal_orders(out.state, s, rng))
                 for s in sorted(out.awaiting)}
        out = process(game, out.state_json, texts, seed=step_seed(master, n))
    return None


def plain(state_json: str) -> str:
    """The state as stored before questions kept their messages."""
    state = json.loads(state_json)
    for q in state["pause"]["questions"]:
        assert q.pop("msgs", None), "a question stored without its messages"
    return canonical_json(state)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_paused_state_with_plain_questions_plays_on_the_same(game_id: str) -> None:
    game = all_rulesets()[game_id]
    assert isinstance(game, Game)
    found = next((f for seed in range(20) if (f := first_pause(game, seed))), None)
    assert found is not None, f"{game_id}: no question asked in 20 playouts"
    out, seed = found
    # Asked with messages: the prompt is one, for the report to translate.
    for q in game.questions(out.state):
        assert isinstance(q.text, Msg) and isinstance(q.public or Msg(""), Msg), q.kind
        assert isinstance(game.awaiting(out.state)[q.seat].text, Msg)
    old = plain(out.state_json)
    assert {s: p.text for s, p in game.awaiting(json.loads(old)).items()} == \
        {s: str(p.text) for s, p in out.awaiting.items()}  # English, as stored
    rng = random.Random(1)
    texts = {s: "".join(f"{x}\n" for x in game.legal_orders(out.state, s, rng))
             for s in sorted(out.awaiting)}
    after_old = process(game, old, texts, seed=seed)
    after_new = process(game, out.state_json, texts, seed=seed)
    assert after_old.state_json == after_new.state_json
    assert [e.to_json() for e in after_old.events] == [e.to_json() for e in after_new.events]


# An open question of each game in the form the code before questions kept their messages
# stored it (from its playouts; Kard és Korona's and Macht & Ohnmacht's shortened by hand):
# the messages in the question's data, under the game's own keys.
LEGACY = {
    "battlelore": {
        "data": {"msg": {"public": {"args": {"n": 1, "unit": {"args": {"hex": "24-4", "unit": "S9"}, "id": "{unit} at {hex}"}}, "id": "Your unit {unit} must retreat {n} more hex(es): to which hex?"}, "text": {"args": {"n": 1, "unit": {"args": {"hex": "24-4", "unit": "S9"}, "id": "{unit} at {hex}"}}, "id": "Your unit {unit} must retreat {n} more hex(es): to which hex?"}}},  # noqa: E501
        "default": "ANSWER 23-3", "exhaustive": True, "kind": "retreat",
        "options": ["ANSWER 23-3", "ANSWER 25-3"],
        "public": "Your unit S9 at 24-4 must retreat 1 more hex(es): to which hex?",
        "seat": "south",
        "text": "Your unit S9 at 24-4 must retreat 1 more hex(es): to which hex?"},
    "cherubion": {
        "data": {"msg": {"public": {"id": "whether to answer a damage roll"}, "text": {"args": {"damage": 2, "piece": {"args": {"id": "SA5", "name": {"id": "Psionata"}}, "id": "{name} ({id})"}, "piece2": {"args": {"id": "CH10", "name": {"id": "Zombie"}}, "id": "{name} ({id})"}}, "id": "{piece} rolled {damage} damage against your {piece2}. Play an instant, or PASS."}}},  # noqa: E501
        "default": "PASS", "exhaustive": False, "kind": "DAMAGE",
        "options": ["PLAY n05 BY CH10 ON SA5", "PASS"],
        "public": "whether to answer a damage roll", "seat": "beta",
        "text": "Psionata (SA5) rolled 2 damage against your Zombie (CH10). Play an instant, "
                "or PASS."},
    "kard-es-korona": {
        "data": {"public_msg": {"id": "his next step"}, "text_msg": {"args": {"n": 3}, "id": "Movement, your turn ({n} steps left): send your next step (one MOVE line) or PASS."}},  # noqa: E501
        "default": "PASS", "exhaustive": False, "kind": "move", "options": ["PASS"],
        "public": "his next step", "seat": "erdely",
        "text": "Movement, your turn (3 steps left): send your next step (one MOVE line) or "
                "PASS."},
    "macht-und-ohnmacht": {
        "data": {"line": 1, "texts": {"public": {"args": {"tile": {"id": "Rebellion"}}, "id": "a sealed bid for {tile}"}, "question": {"args": {"have": 8, "ifwin": "", "taker": "orange", "tile": {"id": "Rebellion"}}, "id": "{taker} took {tile}: sealed auction. Bid 0-{have} knights from your reserve{ifwin}. The higher bid pays its units to stock and wins; equal bids: nobody wins or pays."}}},  # noqa: E501
        "default": "BID 0", "exhaustive": False, "kind": "bid", "options": ["BID 0", "BID 1"],
        "public": "a sealed bid for Rebellion", "seat": "white",
        "text": "orange took Rebellion: sealed auction. Bid 0-8 knights from your reserve. The "
                "higher bid pays its units to stock and wins; equal bids: nobody wins or pays."},
}


@pytest.mark.parametrize("game_id", sorted(LEGACY))
def test_a_question_stored_with_its_messages_in_its_data_still_reads_in_hungarian(
        game_id: str) -> None:
    stored = LEGACY[game_id]
    q = Question.from_json(stored)
    hu = translator("hu", game_id)
    for got, english in ((q.text, stored["text"]), (q.public, stored["public"])):
        assert isinstance(got, Msg) and got == english
        assert render(got, hu) != english  # read from the catalog
    prompt = all_rulesets()[game_id].question_prompt({}, q)
    assert render(prompt.text, hu) == render(q.text, hu)
