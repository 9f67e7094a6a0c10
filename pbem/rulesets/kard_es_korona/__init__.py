"""Kard és Korona (Sword and Crown): the provincial lords of Hungary, 1301-1312.

Rulebook: shared/seeds/001_561befb6be5e49a8.txt (Hungarian, 2nd edition); spec:
shared/rules/001-kard-es-korona.md. Basic and advanced games, 2 to 6 players. Layout:
`ruleset.py` (declarations, phase table), `state.py` (the state's shape and glossary),
`data.py` + `data/` (static data), `board.py` (the map), `orders.py` (the order
language), `phases.py` (the steps), `rules/` (one module per rulebook chapter),
`effects.py` (event cards), `view.py`, `bot.py`, `position.py`.
"""

from pbem.rulesets.kard_es_korona.ruleset import KardEsKorona

RULESET = KardEsKorona()

__all__ = ["RULESET", "KardEsKorona"]
