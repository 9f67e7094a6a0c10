"""Macht & Ohnmacht (Power & Weakness), Andreas Steding, MOD Games 2007: two players,
knights and mages in 5th-century Britain, alternating magic and steel cycles.

Rulebook: shared/seeds/000_a441e0a95575b086.txt (Hungarian fan translation, the
authority); spec: shared/rules/000-macht-und-ohnmacht.md. Modules by rulebook chapter:
board (definitions, adjacency, seize count), cycle (set-up, cycle start/end, scoring),
actions (actions A-D and tile effects), decisions (bids, serpent, retreat, effects),
turn (the turn script runner), orders (order language), view, bot, rules (protocol).
"""

from .rules import MachtUndOhnmacht

RULESET = MachtUndOhnmacht()

__all__ = ["RULESET", "MachtUndOhnmacht"]
