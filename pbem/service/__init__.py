"""Services: what a GM, a player's mail or the scheduler asks of pbem.

They join the pure engine (`pbem.core`) to the database (`pbem.store`); every function
takes a session and an explicit `now`. The CLI, the mail layer and the scheduler call them.
"""
