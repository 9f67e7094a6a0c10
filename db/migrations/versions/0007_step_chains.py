"""step chains: a step's state, prompts, orders applied, events and rolls stored against
its base step's (`pbem.store.steptexts`); older rows have no base and stay as they are. The
file hashes are no longer stored: they are the SHA-256 of the texts stored beside them (a
step's orders applied, a submission's body). A SHA-256 (a mail's, a step's digests and
commitment) is stored as its 32 bytes. Mail is compressed with the headers' dictionary
(the new rows; the older ones are read as they are). The outbox is indexed by game and
status, and by recipient and time, so that a game's held reports and a recipient's latest
mail cost the same at any length of history

Revision ID: 0007_step_chains
Revises: 0006_players
"""

import hashlib
import json
import zlib

import sqlalchemy as sa
from alembic import op


revision = "0007_step_chains"
down_revision = "0006_players"
branch_labels = None
depends_on = None

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

TEXTS = ("state_json", "awaiting_json", "applied_json", "events_json", "rolls_json")
HASHES = (("outbox", "digest"), ("inboundmessage", "sha256"), ("step", "commitment"),
          ("step", "state_digest"), ("step", "orders_digest"))
MAILS = (("outbox", "raw"), ("inboundmessage", "raw"))


def _hashes_as(binary: bool) -> None:
    """The mails' SHA-256 columns as 32 bytes (`binary`) or as 64 hex digits."""
    conn = op.get_bind()
    for table, col in HASHES:
        if conn.dialect.name == "postgresql":
            op.alter_column(table, col, type_=sa.LargeBinary() if binary else sa.String(),
                            postgresql_using=f"decode({col}, 'hex')" if binary
                            else f"encode({col}, 'hex')")
            continue
        if binary:  # SQLite: the type first, then the values (and back the other way)
            _retype(table, col, sa.LargeBinary())
        for row_id, value in conn.execute(sa.text(f"SELECT id, {col} FROM {table} "
                                                  f"WHERE {col} IS NOT NULL")).fetchall():
            hexed = value.decode("ascii") if isinstance(value, (bytes, memoryview)) and \
                len(value) == 64 else value.hex() if isinstance(value, bytes) else value
            conn.execute(sa.text(f"UPDATE {table} SET {col} = :v WHERE id = :id"),
                         {"id": row_id, "v": bytes.fromhex(hexed) if binary else hexed})
        if not binary:
            _retype(table, col, sa.String())


def _retype(table: str, col: str, type_: sa.types.TypeEngine) -> None:
    with op.batch_alter_table(table, schema=None) as batch_op:
        batch_op.alter_column(col, type_=type_)


def upgrade() -> None:
    with op.batch_alter_table("step", schema=None) as batch_op:
        batch_op.add_column(sa.Column("base_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("chain", sa.Integer(), nullable=False, server_default="0"))
        batch_op.drop_column("file_hashes_json")
    with op.batch_alter_table("submission", schema=None) as batch_op:
        batch_op.drop_column("file_hash")
    _hashes_as(binary=True)
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.drop_index("ix_outbox_game_id")
        batch_op.drop_index("ix_outbox_recipient")
        batch_op.create_index("ix_outbox_game_id_status", ["game_id", "status"])
        batch_op.create_index("ix_outbox_recipient_created_at", ["recipient", "created_at"])


def _sha256(text: bytes) -> str:
    return hashlib.sha256(text).hexdigest()


def downgrade() -> None:
    """Store every text whole again (the older code reads no chains), base first; the file
    hashes again."""
    conn = op.get_bind()
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.drop_index("ix_outbox_recipient_created_at")
        batch_op.drop_index("ix_outbox_game_id_status")
        batch_op.create_index("ix_outbox_recipient", ["recipient"])
        batch_op.create_index("ix_outbox_game_id", ["game_id"])
    _hashes_as(binary=False)
    for table, col in MAILS:  # plain zlib again
        for row_id, value in conn.execute(sa.text(f"SELECT id, {col} FROM {table}")).fetchall():
            value = bytes(value) if value is not None else b""
            if value[:1] == b"\x01":
                unpacker = zlib.decompressobj(zdict=HEADERS_V1)
                plain = unpacker.decompress(value[1:]) + unpacker.flush()
                conn.execute(sa.text(f"UPDATE {table} SET {col} = :v WHERE id = :id"),
                             {"id": row_id, "v": zlib.compress(plain, 6)})
    with op.batch_alter_table("step", schema=None) as batch_op:
        batch_op.add_column(sa.Column("file_hashes_json", sa.Text(), nullable=True))
    with op.batch_alter_table("submission", schema=None) as batch_op:
        batch_op.add_column(sa.Column("file_hash", sa.String(), nullable=False,
                                      server_default=""))
    for sub_id, body in conn.execute(sa.text("SELECT id, body FROM submission")).fetchall():
        conn.execute(sa.text("UPDATE submission SET file_hash = :h WHERE id = :id"),
                     {"id": sub_id, "h": _sha256(zlib.decompress(bytes(body)) if body else b"")})
    with op.batch_alter_table("submission", schema=None) as batch_op:
        batch_op.alter_column("file_hash", server_default=None)
    plain: dict[int, tuple[bytes | None, ...]] = {}
    rows = conn.execute(sa.text(f"SELECT id, base_id, {', '.join(TEXTS)} FROM step "
                                "ORDER BY id")).fetchall()
    for row in rows:
        base = plain.get(row[1]) if row[1] is not None else None
        texts = []
        for i, raw in enumerate(row[2:]):
            if raw is None:
                texts.append(None)
                continue
            zdict = base[i] if base and base[i] else None
            unpacker = zlib.decompressobj(zdict=zdict) if zdict else zlib.decompressobj()
            texts.append(unpacker.decompress(bytes(raw)) + unpacker.flush())
        plain[row[0]] = tuple(texts)
        applied = texts[TEXTS.index("applied_json")]
        if applied is not None:
            hashes = {seat: _sha256(text.encode()) for seat, text in json.loads(applied).items()}
            conn.execute(sa.text("UPDATE step SET file_hashes_json = :h WHERE id = :id"),
                         {"id": row[0], "h": json.dumps(hashes, sort_keys=True,
                                                        separators=(",", ":"), ensure_ascii=False)})
        if row[1] is not None:
            conn.execute(sa.text(f"UPDATE step SET {', '.join(f'{c} = :{c}' for c in TEXTS)} "
                                 "WHERE id = :id"),
                         {"id": row[0], **{c: None if t is None else zlib.compress(t, 6)
                                           for c, t in zip(TEXTS, texts)}})
    with op.batch_alter_table("step", schema=None) as batch_op:
        batch_op.drop_column("chain")
        batch_op.drop_column("base_id")
