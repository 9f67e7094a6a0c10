"""Size limits that the report-mail tests share (docs/performance.md)."""

MAIL_LIMIT = 60_000  # bytes of one report mail, at any step of any game
