"""The game kit: one shape for every game (docs/architecture.md, "How to add a game").

- `grammar`: order types that parse themselves, one tokenizer, one `OrderError`;
- `game`: the `Game` base class with its declared phase table (`Phase`), arrival checks;
- `decide`: one decision mechanism (standing order -> ask -> default) with exact replay;
- `log`: one event API (public/private) and the outcome of every order line;
- `position`: positions as TOML text checked against the declared state shape;
- `effects`: a registry for card and lore effects.

Pure like the rest of core: no I/O, no clock, no global random.
"""

from pbem.core.kit.decide import Ask, Context, NeedDecision, Pause, Question, ReplayDice
from pbem.core.kit.effects import Effects
from pbem.core.kit.game import DECISION, OVER, Game, Lines, Note, Phase, Verdict
from pbem.core.kit.grammar import Grammar, Order, OrderError, Tokens
from pbem.core.kit.log import CHANGED, DONE, NOT_NEEDED, OUTCOME, REFUSED, Log, outcomes
from pbem.core.kit.position import PositionError

__all__ = [
    "Ask", "Context", "NeedDecision", "Pause", "Question", "ReplayDice", "Effects",
    "DECISION", "OVER", "Game", "Lines", "Note", "Phase", "Verdict", "Grammar", "Order",
    "OrderError", "Tokens", "CHANGED", "DONE", "NOT_NEEDED", "OUTCOME", "REFUSED", "Log",
    "outcomes", "PositionError",
]
