"""The one exception services raise for a user-facing refusal."""


class ServiceError(Exception):
    """A user-facing refusal: the message is the one line the user sees."""
