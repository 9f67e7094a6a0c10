"""BattleLore (Days of Wonder, 2006) for play by email: rulebook 004.

Layers: medieval rules (Agincourt 1415), Iron Dwarf and Goblinoid mercenaries,
creatures (Giant Spider), the Lore system and the War Council. See
docs/rulesets/battlelore.md for the order language.
"""

from .ruleset import BattleLore

RULESET = BattleLore()

__all__ = ["RULESET", "BattleLore"]
