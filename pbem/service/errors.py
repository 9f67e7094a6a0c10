"""The one exception services raise for a user's mistake (kept apart so that the command line
can catch it without importing the services)."""


class ServiceError(Exception):
    """A user-facing refusal: the message is the one line the user sees (a
    `pbem.core.i18n.Msg` where a player may read it: `message` keeps it translatable)."""

    @property
    def message(self) -> str:
        return self.args[0] if self.args and isinstance(self.args[0], str) else str(self)
