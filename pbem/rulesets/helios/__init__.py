"""Helios (Kallenborn & Prinz, Hans im Glück 2014) as a pbem ruleset, for 2-4 players.

Rules by rulebook chapter: board.py (player board, Sun), actions.py (the three actions,
buildings, sunlight), flow.py (Phase 1 turns and bonus actions), phases.py (set-up,
Phases 2 and 3), scoring.py (final scoring), orders.py (the order language), view.py
(views and pictures), bot.py (random legal orders), game.py (the protocol).
"""

from pbem.rulesets.helios.game import Helios

RULESET = Helios()

__all__ = ["RULESET", "Helios"]
