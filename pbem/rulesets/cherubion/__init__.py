"""Cherubion (Bihon Tibor, 1996-97): a 2-5 player fantasy skirmish on a hexagonal board of
triangular fields, with collectible card decks. Rulebook: shared/seeds/003_ac4a3b7f5ae333ba
.txt; spec: shared/rules/003-cherubion.md. The ruleset class is in game.py; rules are split
by rulebook chapter (setup, turn, movement, combat, cards, reactions, life)."""

from pbem.rulesets.cherubion.game import Cherubion

RULESET = Cherubion()

__all__ = ["RULESET", "Cherubion"]
