"""The database tables (SQLModel). No game logic here: rows and their columns only.

A game is a chain of steps. A step row holds the state at the moment the step opened as
compact canonical JSON with its digest, so processing step N reads one row (and at most
15 before it, see below) whatever the length of the history. When a step closes the row
gains its orders digest, events and rolls; the next step's row holds the resulting state.
A GM rollback marks later rows `live = False` (kept for history) and opens a new
generation from the chosen step.

The big columns (states, events, rolls, mail) are stored zlib-compressed (`store.types`),
a step's texts against the step before it (`store.steptexts`): the model hands out plain
text and bytes. File hashes are derived from the texts they hash, not stored. The indexes
serve the tick's few queries for what is due, so an idle tick costs the same with 10
games or 10,000.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Protocol

from sqlalchemy import Column, Index, Integer, LargeBinary, Text, UniqueConstraint
from sqlmodel import Field, SQLModel

from pbem.core.dice import file_hash
from pbem.core.engine import canonical_json
from pbem.store import steptexts
from pbem.store.types import Sha256, ZHeaders, ZMail, ZText


class Game(SQLModel, table=True):
    __table_args__ = (Index("ix_game_status_due_at", "status", "due_at"),
                      Index("ix_game_status_deadline", "status", "deadline"))

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(index=True, unique=True)
    ruleset: str
    variant: str
    config_json: str = Field(sa_column=Column(Text, nullable=False))
    master_seed: str  # hex; secret until the game ends
    token_secret: str  # hex; signs reply tokens
    status: str = "open"  # open | paused | finished
    step: int = 0  # number of the live open step (0 while setting up)
    generation: int = 0  # bumped by every rollback
    deadline: datetime | None = None
    deadline_hours: float | None = None  # default duration of a step
    settings_json: str = Field(default="{}", sa_column=Column(Text, nullable=False))
    created_at: datetime
    finished_at: datetime | None = None
    # When the tick must look at the game next: now once something changed (orders in, a new
    # step, a GM action), else its next reminder or deadline (`service.tick.next_look`).
    due_at: datetime | None = None


class Seat(SQLModel, table=True):
    """One player in one seat. Replacing a player closes the row and opens another."""

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    seat: str
    email: str
    password_hash: str
    # Keys this holder's reply tokens (hex, or sealed with the host key): rotated when the
    # seat changes hands or the GM asks, so an old token dies with it.
    holder_secret: str = ""
    active: bool = True
    joined_at: datetime
    left_at: datetime | None = None
    bounces: int = 0
    # The holder's own settings (time zone, mail format, digest, quiet hours, away):
    # `pbem.mail.player_settings`; a new holder starts from the defaults.
    settings_json: str = Field(default="{}", sa_column=Column(Text, nullable=False,
                                                              server_default="{}"))


class Step(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("game_id", "number", "generation"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    number: int
    generation: int = 0
    live: bool = True
    # The state, the prompts awaited ({seat: Prompt}), the orders applied ({seat: text}),
    # the events and the rolls, each stored against the same text of the `base_id` row
    # (`store.steptexts`): read and write them as `state_json`, `awaiting_json`,
    # `applied_json`, `events_json` and `rolls_json`.
    state_z: bytes = Field(default=b"", sa_column=Column("state_json", LargeBinary,
                                                         nullable=False))
    state_digest: str = Field(sa_column=Column(Sha256, nullable=False))
    awaiting_z: bytes = Field(default=b"", sa_column=Column("awaiting_json", LargeBinary,
                                                            nullable=False))
    base_id: int | None = None  # the step row computed before this one; None: stored whole
    chain: int = Field(default=0, sa_column=Column(Integer, nullable=False, server_default="0"))
    phase: str = ""
    round: int = 0
    # SHA-256 of the step seed, printed before orders are sent
    commitment: str = Field(sa_column=Column(Sha256, nullable=False))
    seed: str  # hex step seed; published when `seed_revealed`
    seed_revealed: bool = False
    opened_at: datetime
    deadline: datetime | None = None
    closed_at: datetime | None = None
    orders_digest: str | None = Field(default=None, sa_column=Column(Sha256))
    applied_z: bytes | None = Field(default=None, sa_column=Column("applied_json", LargeBinary))
    defaulted_json: str | None = Field(default=None, sa_column=Column(Text))
    events_z: bytes | None = Field(default=None, sa_column=Column("events_json", LargeBinary))
    rolls_z: bytes | None = Field(default=None, sa_column=Column("rolls_json", LargeBinary))
    result_json: str | None = Field(default=None, sa_column=Column(Text))
    # How the step closed: "play" (the engine, from the orders), "setup" (step 0 from the
    # rules' set-up), "position" (step 0 from a GM's position file), "ruling" (the GM
    # replaced the position; orders carried over), "adjudicated" (the GM resolved the
    # step by a position instead of the engine).
    kind: str = "play"
    # For position, ruling and adjudicated steps: the stated input (position text, reason,
    # GM, digests before and after), so `archive verify` can check around it.
    ruling_json: str | None = Field(default=None, sa_column=Column(Text))

    @property
    def state_json(self) -> str:
        return steptexts.read(self, "state") or ""

    @state_json.setter
    def state_json(self, text: str) -> None:
        steptexts.write(self, "state", text)

    @property
    def awaiting_json(self) -> str:
        return steptexts.read(self, "awaiting") or "{}"

    @awaiting_json.setter
    def awaiting_json(self, text: str) -> None:
        steptexts.write(self, "awaiting", text)

    @property
    def events_json(self) -> str | None:
        return steptexts.read(self, "events")

    @events_json.setter
    def events_json(self, text: str | None) -> None:
        steptexts.write(self, "events", text)

    @property
    def applied_json(self) -> str | None:
        return steptexts.read(self, "applied")

    @applied_json.setter
    def applied_json(self, text: str | None) -> None:
        steptexts.write(self, "applied", text)

    @property
    def rolls_json(self) -> str | None:
        return steptexts.read(self, "rolls")

    @rolls_json.setter
    def rolls_json(self, text: str | None) -> None:
        steptexts.write(self, "rolls", text)

    @property
    def file_hashes_json(self) -> str | None:
        """{seat: SHA-256 of the orders applied}, as the reports print them (derived: the
        texts are stored)."""
        applied = self.applied_json
        if applied is None:
            return None
        return canonical_json({seat: file_hash(text)
                               for seat, text in json.loads(applied).items()})


class Submission(SQLModel, table=True):
    """An order file as received for a step. The latest accepted one per seat counts."""

    id: int | None = Field(default=None, primary_key=True)
    step_id: int = Field(foreign_key="step.id", index=True)
    seat: str
    body: str = Field(sa_column=Column(ZText, nullable=False))  # the order lines only
    echo: str = Field(default="", sa_column=Column(ZText, nullable=False))
    source: str = "file"  # file | cli | mail | spool | gm
    sender: str | None = None
    message_id: str | None = None
    received_at: datetime
    status: str = "accepted"  # accepted | superseded | withdrawn
    wait: bool = False
    # Lines refused on arrival; such a file does not count as "in" for early processing
    # until the player sends a clean file or CONFIRM (so a typo never triggers the step).
    refused: int = 0
    confirmed: bool = False

    @property
    def file_hash(self) -> str:
        """SHA-256 of the order lines, as the receipt prints it (derived from the body)."""
        return file_hash(self.body)


class Audit(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    game_id: int | None = Field(default=None, foreign_key="game.id", index=True)
    at: datetime
    actor: str = "gm"
    action: str
    detail: str = Field(default="", sa_column=Column(Text, nullable=False))


class Outbox(SQLModel, table=True):
    """Every outgoing mail, before it is sent. Sent rows are kept (history, no resend): the
    body until `keep_until` (or the game's archive is exported), the headers and the
    SHA-256 of the mail as sent for good (`service.retention`)."""

    # What is due to go; a game's mail by status (the held reports of a digest, what the
    # export drops); a recipient's latest mail (when the next digest is due): each read
    # costs the same however long the game's history.
    __table_args__ = (Index("ix_outbox_status_next_attempt_at", "status", "next_attempt_at"),
                      Index("ix_outbox_game_id_status", "game_id", "status"),
                      Index("ix_outbox_recipient_created_at", "recipient", "created_at"))

    id: int | None = Field(default=None, primary_key=True)
    game_id: int | None = Field(default=None, foreign_key="game.id")
    kind: str  # report | digest | echo | welcome | notice | reminder | refusal
    seat: str | None = None
    recipient: str
    subject: str
    message_id: str = Field(index=True, unique=True)
    raw: bytes = Field(sa_column=Column(ZMail, nullable=False))  # b"" once expired
    digest: str = Field(default="", sa_column=Column(Sha256, nullable=False))  # of raw as queued
    headers: str = Field(default="", sa_column=Column(ZHeaders, nullable=False))
    keep_until: datetime | None = Field(default=None, index=True)  # None: until exported
    created_at: datetime
    # queued | sending (claimed; `next_attempt_at` is then the end of the lease) | sent | failed
    # | held (a report kept for the player's digest; `next_attempt_at`: when it is due)
    # | digested (sent inside a digest mail, kept for the record)
    status: str = "queued"
    attempts: int = 0
    next_attempt_at: datetime | None = None
    last_error: str | None = None
    sent_at: datetime | None = None


class InboundMessage(SQLModel, table=True):
    """Every received mail, stored raw before it is parsed."""

    id: int | None = Field(default=None, primary_key=True)
    message_id: str = Field(index=True, unique=True)
    received_at: datetime
    source: str  # pipe | maildir | imap | smtp
    raw: bytes = Field(sa_column=Column(ZMail, nullable=False))  # headers only if oversize
    sender: str | None = Field(default=None, index=True)
    kind: str | None = None
    # new | applied | refused | ignored | throttled | quarantined (failed `attempts` times)
    status: str = Field(default="new", index=True)
    reason: str | None = None
    game_id: int | None = None
    attempts: int = 0  # failed attempts to apply it
    size: int = 0  # bytes as received
    # of the mail after its trace fields: tells a reused Message-ID apart
    sha256: str = Field(default="", sa_column=Column(Sha256, nullable=False))


class _Row(Protocol):
    id: int | None


def stored_id(row: _Row) -> int:
    """The id of a row the database has given one (after a flush): what a row that refers
    to it stores."""
    if row.id is None:
        raise ValueError(f"this {type(row).__name__} row is not stored yet: it has no id")
    return row.id
