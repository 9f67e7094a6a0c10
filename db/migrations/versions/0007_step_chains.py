"""step chains: a step's state, prompts and events stored against its base step's
(`pbem.store.steptexts`); older rows have no base and stay as they are

Revision ID: 0007_step_chains
Revises: 0006_players
"""

import zlib

import sqlalchemy as sa
from alembic import op

revision = "0007_step_chains"
down_revision = "0006_players"
branch_labels = None
depends_on = None

TEXTS = ("state_json", "awaiting_json", "events_json")


def upgrade() -> None:
    with op.batch_alter_table("step", schema=None) as batch_op:
        batch_op.add_column(sa.Column("base_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("chain", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    """Store every text whole again (the older code reads no chains), base first."""
    conn = op.get_bind()
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
        if row[1] is not None:
            conn.execute(sa.text("UPDATE step SET state_json = :s, awaiting_json = :a, "
                                 "events_json = :e WHERE id = :id"),
                         {"id": row[0], **{k: None if t is None else zlib.compress(t, 6)
                                           for k, t in zip("sae", texts)}})
    with op.batch_alter_table("step", schema=None) as batch_op:
        batch_op.drop_column("chain")
        batch_op.drop_column("base_id")
