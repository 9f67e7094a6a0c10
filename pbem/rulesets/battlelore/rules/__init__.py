"""BattleLore's rules, one module per rulebook chapter. Each imports only modules listed
before it: common, tokens, cards, movement, losses, landmarks, morale, creatures, council,
(../effects), lore, battle, turn, setup."""
