"""Tables, hand records and event logs.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""
import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sk_tables",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("public_id", sa.String(32), nullable=False),
        sa.Column("edit_secret", sa.String(64), nullable=False),
        sa.Column("view_secret", sa.String(64), nullable=False),
        sa.Column("title", sa.String(120), nullable=False),
        sa.Column("config", sa.JSON, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("public_id", name="uq_sk_tables_public_id"),
    )
    op.create_table(
        "sk_hands",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("sk_tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("summary", sa.JSON, nullable=True),
        sa.Column("seating", sa.JSON, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("table_id", "position", name="uq_hand_position"),
        sa.CheckConstraint("kind in ('summary', 'log')", name="ck_hand_kind"),
    )
    op.create_index("ix_sk_hands_table_id", "sk_hands", ["table_id"])
    op.create_table(
        "sk_events",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("hand_id", sa.Integer, sa.ForeignKey("sk_hands.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("event", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("hand_id", "seq", name="uq_event_seq"),
    )
    op.create_index("ix_sk_events_hand_id", "sk_events", ["hand_id"])


def downgrade() -> None:
    op.drop_table("sk_events")
    op.drop_table("sk_hands")
    op.drop_table("sk_tables")
