"""Pure game machinery: the ruleset protocol, orders, dice, events, the step engine.

Nothing in this package does I/O, reads the clock or uses a global random generator.
"""

from pbem.core.dice import Dice, HmacDice, Roll, ScriptedDice
from pbem.core.events import Event
from pbem.core.orders import OrderLine, Parsed, Prompt
from pbem.core.ruleset import GameConfig, Result, Ruleset

__all__ = [
    "Dice", "HmacDice", "Roll", "ScriptedDice", "Event", "OrderLine", "Parsed", "Prompt",
    "GameConfig", "Result", "Ruleset",
]
