"""Macht & Ohnmacht (Power & Weakness), Andreas Steding, MOD Games 2007: two players,
knights and mages in 5th-century Britain, alternating magic and steel cycles.

Rulebook: shared/seeds/000_a441e0a95575b086.txt (Hungarian fan translation, the
authority); spec: shared/rules/000-macht-und-ohnmacht.md. The layout (each module
imports only modules before it in this list): data, state, board, orders,
rules/standing, rules/actions, effects, rules/take, rules/play, rules/cycle, bot, phases,
view, position, ruleset.
"""

from .ruleset import MachtUndOhnmacht

RULESET = MachtUndOhnmacht()

__all__ = ["RULESET", "MachtUndOhnmacht"]
