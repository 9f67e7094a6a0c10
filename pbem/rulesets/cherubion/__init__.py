"""Cherubion (Bihon Tibor, 1996-97): a 2-5 player fantasy skirmish on a hexagonal board of
triangular fields, with collectible card decks. Rulebook: shared/seeds/003_ac4a3b7f5ae333ba
.txt; spec: shared/rules/003-cherubion.md. The ruleset class is in ruleset.py; the state's
shape and glossary in state.py; rules by rulebook chapter in rules/; card effects in
effects.py."""

from pbem.rulesets.cherubion.ruleset import Cherubion

RULESET = Cherubion()

__all__ = ["RULESET", "Cherubion"]
