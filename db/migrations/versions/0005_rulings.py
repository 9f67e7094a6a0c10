"""GM rulings: how each step closed (kind) and its stated input (ruling_json);
order files with refused lines (refused, confirmed)

Revision ID: 0005
Revises: 0001
"""
from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0005'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('step', schema=None) as batch_op:
        batch_op.add_column(sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(), nullable=False,
                                      server_default='play'))
        batch_op.add_column(sa.Column('ruling_json', sa.Text(), nullable=True))
    op.execute("UPDATE step SET kind = 'setup' WHERE number = 0")
    with op.batch_alter_table('submission', schema=None) as batch_op:
        batch_op.add_column(sa.Column('refused', sa.Integer(), nullable=False,
                                      server_default='0'))
        batch_op.add_column(sa.Column('confirmed', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table('submission', schema=None) as batch_op:
        batch_op.drop_column('confirmed')
        batch_op.drop_column('refused')
    with op.batch_alter_table('step', schema=None) as batch_op:
        batch_op.drop_column('ruling_json')
        batch_op.drop_column('kind')
