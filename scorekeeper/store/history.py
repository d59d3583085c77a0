"""The history of changes (sk_history): added in the writer's transaction, read oldest first.

A table's history is its own entries; a group's is its own and those of its evenings' tables
(an evening's hand edited moves the group's debts too).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from .models import HistoryEntry, JSONObject, Table, utcnow

MAX_READ = 2000  # the newest this many, oldest first: a page or an answer never grows without end


def add(
    session: Session,
    kind: str,
    by: str,
    data: JSONObject,
    group_id: int | None = None,
    table_id: int | None = None,
    at: datetime | None = None,
) -> HistoryEntry:
    """An entry in the session's transaction (committed, or rolled back, with the change it tells of)."""
    entry = HistoryEntry(group_id=group_id, table_id=table_id, at=at or utcnow(), kind=kind, by=by, data=data)
    session.add(entry)
    return entry


def _read(session: Session, where) -> list[HistoryEntry]:
    newest = list(session.scalars(select(HistoryEntry).where(where).order_by(HistoryEntry.id.desc()).limit(MAX_READ)))
    return sorted(newest, key=lambda e: (e.at, e.id))


def of_table(session: Session, table_id: int) -> list[HistoryEntry]:
    return _read(session, HistoryEntry.table_id == table_id)


def of_group(session: Session, group_id: int) -> list[HistoryEntry]:
    evenings = select(Table.id).where(Table.group_id == group_id).scalar_subquery()
    return _read(session, or_(HistoryEntry.group_id == group_id, HistoryEntry.table_id.in_(evenings)))
