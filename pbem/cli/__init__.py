"""The pbem command line (typer)."""
