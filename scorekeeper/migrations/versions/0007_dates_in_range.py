"""Every stored date brought between the years 1900 and 2999 (UTC).

Before issue 29 a group's import took any ISO date for its evenings, payments and history:
0001-01-01T00:00:00+14:00 is in year 0 in UTC and 9999-12-31T23:59:59-14:00 in year 10000.
PostgreSQL keeps both; Python cannot read them back, and every read of such a group answered
500 with no way to delete it. SQLite kept years 1–1899 and 3000–9999, which read back, but the
group's export then carried a date its import refuses. Such a date is moved to the nearest bound
the import takes (1900-01-01 00:00 or 2999-12-31 23:59:59 UTC); nothing else changes.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-27
"""
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

FIRST = datetime(1900, 1, 1, tzinfo=UTC)
LAST = datetime(2999, 12, 31, 23, 59, 59, tzinfo=UTC)
PAST_LAST = datetime(3000, 1, 1, tzinfo=UTC)
DATES = {
    "sk_tables": ("created_at", "updated_at"),
    "sk_hands": ("created_at", "updated_at"),
    "sk_events": ("created_at",),
    "sk_groups": ("created_at",),
    "sk_group_payments": ("created_at", "voided_at"),
    "sk_history": ("at",),
}


def upgrade() -> None:
    bind = op.get_bind()
    for name, columns in DATES.items():
        for column in columns:
            date = sa.column(column, sa.DateTime(timezone=True))
            rows = sa.table(name, date)
            bind.execute(sa.update(rows).where(date < FIRST).values({column: FIRST}))
            bind.execute(sa.update(rows).where(date >= PAST_LAST).values({column: LAST}))


def downgrade() -> None:
    pass  # the dates moved are not put back: none of them could be read or imported
