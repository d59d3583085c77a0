"""A live hand's state kept with the table's version (sk_hand_states).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-27
"""
import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A new table only: hands stored before it have no snapshot and are replayed, as before,
    # until their next append writes one.
    op.create_table(
        "sk_hand_states",
        sa.Column("hand_id", sa.Integer, sa.ForeignKey("sk_hands.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("setup", sa.Text, nullable=False),
        sa.Column("state", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("sk_hand_states")
