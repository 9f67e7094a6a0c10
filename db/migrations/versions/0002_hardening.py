"""hardening: per-holder token secrets, inbound attempts/size/hash, indexes for rate limits

Revision ID: 0002_hardening
Revises: 0005
"""
import secrets

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = '0002_hardening'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.add_column(sa.Column('holder_secret', sqlmodel.sql.sqltypes.AutoString(),
                                      nullable=False, server_default=''))
    # Every existing seat holder gets a secret of its own: the old game-wide tokens die.
    conn = op.get_bind()
    for (seat_id,) in conn.execute(sa.text("SELECT id FROM seat")).fetchall():
        conn.execute(sa.text("UPDATE seat SET holder_secret = :s WHERE id = :i"),
                     {"s": secrets.token_hex(16), "i": seat_id})
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.alter_column('holder_secret', server_default=None)

    with op.batch_alter_table('inboundmessage', schema=None) as batch_op:
        batch_op.add_column(sa.Column('attempts', sa.Integer(), nullable=False,
                                      server_default='0'))
        batch_op.add_column(sa.Column('size', sa.Integer(), nullable=False, server_default='0'))
        batch_op.add_column(sa.Column('sha256', sqlmodel.sql.sqltypes.AutoString(),
                                      nullable=False, server_default=''))
        batch_op.create_index(batch_op.f('ix_inboundmessage_sender'), ['sender'], unique=False)
    with op.batch_alter_table('inboundmessage', schema=None) as batch_op:
        batch_op.alter_column('attempts', server_default=None)
        batch_op.alter_column('size', server_default=None)
        batch_op.alter_column('sha256', server_default=None)

    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_outbox_recipient'), ['recipient'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_outbox_recipient'))
    with op.batch_alter_table('inboundmessage', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_inboundmessage_sender'))
        batch_op.drop_column('sha256')
        batch_op.drop_column('size')
        batch_op.drop_column('attempts')
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.drop_column('holder_secret')
