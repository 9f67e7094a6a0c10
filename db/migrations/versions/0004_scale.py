"""scale: compressed history and mail, mail retention, indexes for the tick

States, events, rolls, order texts and mail bodies are stored zlib-compressed; the
outbox keeps each mail's headers and SHA-256 for good and its body until `keep_until`
(or the archive export); the tick finds what is due through indexes (game status + due_at
or deadline, outbox status + next attempt, inbound status, outbox keep_until).

Revision ID: 0004_scale
Revises: 0001
"""

import hashlib
import zlib

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0004_scale"
down_revision = "0002_hardening"
branch_labels = None
depends_on = None

STEP_TEXT = ("state_json", "awaiting_json", "applied_json", "events_json", "rolls_json")
SUBMISSION_TEXT = ("body", "echo")
# pbem.store.types.HEADERS_V1, copied: a migration must not change when the code does.
HEADERS_V1 = (
    b"From: orders@pbem.localhost\nTo: \nSubject: Re: [] step : Round , (final): report\n"
    b"Date: Mon, Tue, Wed, Thu, Fri, Sat, Sun, 01 Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov "
    b"Dec 2026 00:00:00 +0000\nMessage-ID: <report..@pbem.localhost>\n"
    b"In-Reply-To: <thread..@pbem.localhost>\nReferences: <thread..@pbem.localhost>\n"
    b"Reply-To: orders+@pbem.localhost\nList-Id: <.pbem.localhost>\n"
    b"Auto-Submitted: auto-generated\nX-Auto-Response-Suppress: All\nMIME-Version: 1.0\n"
    b'Content-Type: text/plain; charset="utf-8"\nContent-Transfer-Encoding: quoted-printable\n'
    b'Content-Type: multipart/alternative;\n boundary="=_pbem_0123456789abcdef01234567_0"\n')


def _retype(table: str, columns: tuple[str, ...], new: sa.types.TypeEngine,
            old: sa.types.TypeEngine, using: str) -> None:
    with op.batch_alter_table(table) as batch:
        for col in columns:
            batch.alter_column(col, type_=new, existing_type=old,
                               postgresql_using=using.format(col=col))


def _recode(table: str, columns: tuple[str, ...], fn) -> None:  # type: ignore[no-untyped-def]
    """Rewrite every value of `columns` through `fn` (bytes -> bytes), row by row."""
    conn = op.get_bind()
    cols = ", ".join(columns)
    rows = conn.execute(sa.text(f"SELECT id, {cols} FROM {table}")).fetchall()
    sets = ", ".join(f"{c} = :{c}" for c in columns)
    for row in rows:
        values = {c: (None if v is None else fn(_bytes(v))) for c, v in zip(columns, row[1:], strict=True)}
        conn.execute(sa.text(f"UPDATE {table} SET {sets} WHERE id = :id")
                     .bindparams(*(sa.bindparam(c, type_=sa.LargeBinary) for c in columns)),
                     {"id": row[0], **values})


def _bytes(value) -> bytes:  # type: ignore[no-untyped-def]
    # SQLite may hand back text a column kept after its type became BLOB.
    return value.encode("utf-8") if isinstance(value, str) else bytes(value)


def _pack(data: bytes) -> bytes:
    return zlib.compress(data, 6) if data else data


# The record headers a sent mail keeps beside its columns (as pbem.service.retention.RECORD,
# copied: a migration does not import the code it predates).
RECORD = ("from", "date", "in-reply-to")


def _record(head: bytes) -> bytes:
    out, keeping = [], False
    for line in head.decode("ascii", errors="replace").splitlines():
        if line[:1] in (" ", "\t"):
            if keeping:
                out.append(line)
            continue
        keeping = line.split(":", 1)[0].strip().lower() in RECORD
        if keeping:
            out.append(line)
    return "\n".join(out).encode("ascii", errors="replace")


def _pack_headers(head: bytes) -> bytes:
    packer = zlib.compressobj(6, zdict=HEADERS_V1)
    return b"\x01" + packer.compress(_record(head)) + packer.flush()


def upgrade() -> None:
    for table, cols in (("step", STEP_TEXT), ("submission", SUBMISSION_TEXT)):
        _retype(table, cols, sa.LargeBinary(), sa.Text(), "convert_to({col}, 'UTF8')")
        _recode(table, cols, _pack)

    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("digest", sqlmodel.sql.sqltypes.AutoString(), nullable=False,
                                   server_default=""))
        batch.add_column(sa.Column("headers", sa.LargeBinary(), nullable=False,
                                   server_default=""))
        batch.add_column(sa.Column("keep_until", sqlmodel.sql.sqltypes.UTCDateTime(),
                                   nullable=True))
    conn = op.get_bind()
    for row_id, raw in conn.execute(sa.text("SELECT id, raw FROM outbox")).fetchall():
        raw = _bytes(raw)
        head = raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
        conn.execute(sa.text("UPDATE outbox SET raw = :raw, digest = :digest, headers = :headers "
                             "WHERE id = :id").bindparams(sa.bindparam("raw", type_=sa.LargeBinary),
                                                          sa.bindparam("headers", type_=sa.LargeBinary)),
                     {"id": row_id, "raw": _pack(raw), "digest": hashlib.sha256(raw).hexdigest(),
                      "headers": _pack_headers(head)})
    with op.batch_alter_table("outbox") as batch:
        batch.alter_column("digest", server_default=None)
        batch.alter_column("headers", server_default=None)
        batch.create_index("ix_outbox_status_next_attempt_at", ["status", "next_attempt_at"])
        batch.create_index(batch.f("ix_outbox_keep_until"), ["keep_until"])

    _recode("inboundmessage", ("raw",), _pack)
    with op.batch_alter_table("inboundmessage") as batch:
        batch.create_index(batch.f("ix_inboundmessage_status"), ["status"])

    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("due_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))
        batch.create_index("ix_game_status_due_at", ["status", "due_at"])
        batch.create_index("ix_game_status_deadline", ["status", "deadline"])
    # Every open game is looked at by the first tick, which sets its next due time.
    op.execute("UPDATE game SET due_at = created_at WHERE status = 'open'")


def _unpack(data: bytes) -> bytes:
    return zlib.decompress(data) if data else data


def downgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.drop_index("ix_game_status_deadline")
        batch.drop_index("ix_game_status_due_at")
        batch.drop_column("due_at")
    with op.batch_alter_table("inboundmessage") as batch:
        batch.drop_index(batch.f("ix_inboundmessage_status"))
    _recode("inboundmessage", ("raw",), _unpack)
    # An expired mail body (b"") stays empty: what was dropped is gone.
    _recode("outbox", ("raw",), _unpack)
    with op.batch_alter_table("outbox") as batch:
        batch.drop_index(batch.f("ix_outbox_keep_until"))
        batch.drop_index("ix_outbox_status_next_attempt_at")
        batch.drop_column("keep_until")
        batch.drop_column("headers")
        batch.drop_column("digest")
    for table, cols in (("step", STEP_TEXT), ("submission", SUBMISSION_TEXT)):
        _recode(table, cols, _unpack)
        _retype(table, cols, sa.Text(), sa.LargeBinary(), "convert_from({col}, 'UTF8')")
