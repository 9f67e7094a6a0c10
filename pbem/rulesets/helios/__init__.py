"""Helios (Kallenborn & Prinz, Hans im Glück 2014) as a pbem ruleset, for 2-4 players.

Built on the game kit: ruleset.py (declarations, options, the phase table), state.py (the
state's shape and the glossary), data.py + data/*.toml, board.py (player-board geometry),
orders.py (the order language), arrival.py (orders judged on arrival), phases.py (the
steps), rules/ (by rulebook chapter), effects.py (building abilities, character and
bonus-tile scoring), view.py (views and pictures), bot.py (random legal orders),
position.py (position checks).
"""

from pbem.rulesets.helios.ruleset import Helios

RULESET = Helios()

__all__ = ["RULESET", "Helios"]
