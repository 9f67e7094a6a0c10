"""The one exception services raise for a user's mistake (kept apart so that the command line
can catch it without importing the services)."""


class ServiceError(Exception):
    """A user-facing refusal: the message is the one line the user sees."""
