"""The table version each appended event made (sk_events.version).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""
import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Nullable, no default: events stored before it simply never count as appends since.
    with op.batch_alter_table("sk_events") as batch:
        batch.add_column(sa.Column("version", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("sk_events") as batch:
        batch.drop_column("version")
