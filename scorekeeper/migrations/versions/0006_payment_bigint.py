"""A group payment's points in 64 bits (sk_group_payments.points BIGINT).

PostgreSQL's INTEGER is 32-bit: a debt of 2**31 points or more (an unlimited table's nagari
doubling reaches it) could not be paid. SQLite's INTEGER is 64-bit already: nothing to do there.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27
"""
import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        op.alter_column("sk_group_payments", "points", type_=sa.BigInteger, existing_nullable=False)


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        op.alter_column("sk_group_payments", "points", type_=sa.Integer, existing_nullable=False)
