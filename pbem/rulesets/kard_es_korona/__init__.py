"""Kard és Korona (Sword and Crown): the provincial lords of Hungary, 1301-1312.

Rulebook: shared/seeds/001_561befb6be5e49a8.txt (Hungarian, 2nd edition); spec:
shared/rules/001-kard-es-korona.md. Basic and advanced games, 2 to 6 players.
"""

from pbem.rulesets.kard_es_korona.rules import KardEsKorona

RULESET = KardEsKorona()

__all__ = ["RULESET", "KardEsKorona"]
