"""Scheduling: `pbem serve` runs the tick on APScheduler 3.x, with its jobs persisted in
the database, and the built-in SMTP listener for incoming orders."""
