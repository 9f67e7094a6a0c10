"""Archives: static HTML export and whole-game verification."""
