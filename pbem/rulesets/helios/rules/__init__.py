"""Helios rules by rulebook chapter. Each module imports only the ones above it:

supply (the general supply, VP, mana, the Sun track) -> economy (resources on tiles,
paying) -> land (preparing land, special spaces) -> sun (moving the Sun, sunlight,
circuits) -> temples -> buildings (city buildings; their abilities in effects.py) ->
actions (one action checked and carried out) -> turns (Phase 1 turns, bonus actions, the
conditional-order layer) -> characters (Phase 2) -> scoring -> rounds (set-up, Phase 3,
the end of a round and of the game).
"""
