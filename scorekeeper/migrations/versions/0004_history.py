"""What changed, when and by whom (sk_history); payments voided, never deleted; players' pay links.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-27
"""
import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # An entry outlives what it names: an evening removed keeps the group's entries about it
    # (SET NULL), and the entry carries the table's public id in its data anyway.
    op.create_table(
        "sk_history",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("group_id", sa.Integer, sa.ForeignKey("sk_groups.id", ondelete="CASCADE"), nullable=True),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("sk_tables.id", ondelete="SET NULL"), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("by", sa.String(40), nullable=False),
        sa.Column("data", sa.JSON, nullable=False),
    )
    op.create_index("ix_sk_history_group_id", "sk_history", ["group_id"])
    op.create_index("ix_sk_history_table_id", "sk_history", ["table_id"])
    # Nullable columns added in place: existing rows stay as they are (no table rebuilt).
    op.add_column("sk_group_payments", sa.Column("voided_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("sk_group_players", sa.Column("pay_link", sa.String(200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("sk_group_players") as batch:
        batch.drop_column("pay_link")
    with op.batch_alter_table("sk_group_payments") as batch:
        batch.drop_column("voided_at")
    op.drop_index("ix_sk_history_table_id", "sk_history")
    op.drop_index("ix_sk_history_group_id", "sk_history")
    op.drop_table("sk_history")
