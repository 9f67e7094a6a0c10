"""The rules of Macht & Ohnmacht by rulebook chapter, each module importing only downward:
standing (decisions and their defaults) <- actions (A-D) <- auction (A: lightning tiles),
play (D: serpent window, seize and retreat) <- cycle (set-up, cycle start and end)."""
