"""Helios rules by rulebook chapter. Each module imports only the ones above it in this
list:

seats (who plays when) -> supply (the general supply, VP, mana, the Sun track) -> economy
(resources on tiles, paying) -> land (preparing land, special spaces) -> sun (moving the
Sun, sunlight, circuits) -> temples -> buildings (city buildings; their abilities are in
effects.py) -> actions (one action checked and carried out) -> characters (Phase 2) ->
script (a Phase 1 script read as turns and alternatives) -> turns (Phase 1 turns, bonus
actions, stored turns) -> scoring -> rounds (set-up, Phase 3, the end of a round and of
the game).
"""
