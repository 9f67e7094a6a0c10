"""Rules by rulebook chapter; each module imports only the ones below it (queries, life, cards, reactions, markers, combat, movement, resources, casting, diplomacy, setup, turn)."""
