"""Groups (모임): their players, payments, each evening's kept facts, and a table's group.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-25
"""
import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sk_groups",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("public_id", sa.String(32), nullable=False),
        sa.Column("edit_secret", sa.String(64), nullable=False),
        sa.Column("view_secret", sa.String(64), nullable=False),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("settings", sa.JSON, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("public_id", name="uq_sk_groups_public_id"),
    )
    op.create_table(
        "sk_group_players",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("group_id", sa.Integer, sa.ForeignKey("sk_groups.id", ondelete="CASCADE"), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("colour", sa.String(16), nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.UniqueConstraint("group_id", "name", name="uq_group_player"),
    )
    op.create_index("ix_sk_group_players_group_id", "sk_group_players", ["group_id"])
    op.create_table(
        "sk_group_payments",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("group_id", sa.Integer, sa.ForeignKey("sk_groups.id", ondelete="CASCADE"), nullable=False),
        sa.Column("payer", sa.String(40), nullable=False),
        sa.Column("payee", sa.String(40), nullable=False),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("key", sa.String(80), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("group_id", "key", name="uq_group_payment_key"),
    )
    op.create_index("ix_sk_group_payments_group_id", "sk_group_payments", ["group_id"])
    op.create_table(
        "sk_evening_facts",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("sk_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("facts", sa.JSON, nullable=False),
    )
    # A nullable column added: the existing rows of sk_tables stay as they are (no table rebuilt).
    # SQLite adds it as a plain column (it cannot add a constraint to a table in place); on
    # PostgreSQL it references the group.
    if op.get_bind().dialect.name == "postgresql":
        op.add_column("sk_tables", sa.Column("group_id", sa.Integer,
                                             sa.ForeignKey("sk_groups.id", ondelete="SET NULL"), nullable=True))
    else:
        op.add_column("sk_tables", sa.Column("group_id", sa.Integer, nullable=True))
    op.create_index("ix_sk_tables_group_id", "sk_tables", ["group_id"])


def downgrade() -> None:
    op.drop_index("ix_sk_tables_group_id", "sk_tables")
    with op.batch_alter_table("sk_tables") as batch:
        batch.drop_column("group_id")
    op.drop_table("sk_evening_facts")
    op.drop_table("sk_group_payments")
    op.drop_table("sk_group_players")
    op.drop_table("sk_groups")
