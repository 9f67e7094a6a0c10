"""players: each seat holder's own settings (time zone, mail format, digest, quiet hours,
away), kept as JSON on the seat row

Revision ID: 0006_players
Revises: 0004_scale
"""

import sqlalchemy as sa
from alembic import op

revision = "0006_players"
down_revision = "0004_scale"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seat", schema=None) as batch_op:
        batch_op.add_column(sa.Column("settings_json", sa.Text(), nullable=False,
                                      server_default="{}"))


def downgrade() -> None:
    op.execute("UPDATE outbox SET status = 'queued' WHERE status = 'held'")
    with op.batch_alter_table("seat", schema=None) as batch_op:
        batch_op.drop_column("settings_json")
