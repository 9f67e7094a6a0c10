"""pbem: a play-by-email turn processor for board games and wargames."""

__version__ = "0.1.0"
