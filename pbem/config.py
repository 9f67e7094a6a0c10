"""Configuration: `pbem.toml` (or `--config`), overridden by environment variables.

Contract (DESIGN section 8): PBEM_DB (SQLAlchemy URL), PBEM_ADDRESS (the address players
send orders to), PBEM_SMTP (relay URL), PBEM_IMAP (mailbox URL to poll), PBEM_MAILDIR (where
outgoing mail goes when no relay is set). TOML keys are the same names in lower case
without the prefix (`db`, `address`, `smtp`, `imap`, `maildir`), plus `templates` (an
override folder), `spool` (the order spool, default `orders`), `listen` (host:port of the
built-in SMTP listener), `inbox` (a maildir to poll), `gm` (the GM's address for notices),
`max_mail_bytes`, `submission_cap`, `reminder_hours`, `poll_seconds`, `secret_key` (seals
the games' seeds and token secrets, so they live outside the database), `docs_url`. Every
key can be set with `PBEM_<KEY>` too. docs/gm-guide.md has the table (a test keeps the two
in step).

Relative paths (`db` as `sqlite:///relative/path`, `maildir`, `spool`, `templates`,
`inbox`) in a config file, and the defaults when a config file is read, are relative to
the config file's folder, not to the current folder: an MTA pipe or cron job that runs
`pbem --config /srv/pbem/pbem.toml` from elsewhere uses the same files as the GM. Without
a config file, and in environment variables, they are relative to the current folder.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path

from pbem.store.quick import DEFAULT_URL


@dataclass
class Settings:
    db: str = DEFAULT_URL
    address: str = "orders@pbem.localhost"
    smtp: str | None = None
    imap: str | None = None
    maildir: str = "mail/outbox"
    templates: str | None = None
    spool: str = "orders"
    listen: str = "127.0.0.1:2525"  # the built-in SMTP listener of `pbem serve`
    inbox: str | None = None  # a maildir to poll for incoming mail (`pbem mail poll`)
    gm: str = "gm@pbem.localhost"  # where notices to the GM go
    max_mail_bytes: int = 2_000_000
    submission_cap: int = 20  # order mails per sender per step
    reminder_hours: float = 24.0
    poll_seconds: int = 60
    secret_key: str | None = None  # seals seeds and token secrets; keep it out of the database
    docs_url: str | None = None  # where players read the docs (else the welcome mail attaches them)


PATH_KEYS = ("maildir", "spool", "templates", "inbox")  # plus `db` when it is a SQLite file


def load_settings(config: Path | None = None, *, environ: dict[str, str] | None = None) -> Settings:
    env = os.environ if environ is None else environ
    settings = Settings()
    path = config or Path("pbem.toml")
    if config is not None and not path.exists():
        raise FileNotFoundError(f"config file {path} does not exist")
    if path.exists():
        with path.open("rb") as stream:
            data = tomllib.load(stream)
        known = {f.name for f in fields(Settings)}
        for key, value in data.items():
            if key not in known:
                raise ValueError(f"{path}: unknown setting {key!r}; known: {', '.join(sorted(known))}")
            setattr(settings, key, value)
        _anchor(settings, path.resolve().parent)
    for f in fields(Settings):
        value = env.get(f"PBEM_{f.name.upper()}")
        if value:
            default = getattr(Settings, f.name, None)
            setattr(settings, f.name, type(default)(value)
                    if isinstance(default, int | float) else value)
    return settings


def _anchor(settings: Settings, base: Path) -> None:
    """Make the relative paths of `settings` relative to `base` (the config file's folder)."""
    for key in PATH_KEYS:
        value = getattr(settings, key)
        if value and not Path(value).expanduser().is_absolute():
            setattr(settings, key, str(base / value))
    prefix = "sqlite:///"
    if settings.db.startswith(prefix):
        file = settings.db.removeprefix(prefix)
        if file and not file.startswith(":memory:") and not Path(file).is_absolute():
            settings.db = prefix + str(base / file)
