"""Which of the tables a process follows have moved past the versions it knows (SQLite's watcher).

The push watcher asks every ``PUSH_CHECK_MS`` about every table its streams follow. Asked as
``public_id IN (…)`` with each table's name, a thousand tables cost a statement compiled for a
thousand parameters, a thousand lookups in a text index and a thousand rows back to Python,
thirteen times a second (an eighth of a worker's CPU at 1,000 tables). Here the tables go as one
JSON object of their row ids and the versions known, and SQLite answers only those that moved:
lookups by row id, and the rows that moved since the last look (a few, or none).
"""

from __future__ import annotations

import json

from sqlalchemy.engine import Connection

from .models import Table

_MOVED = (
    f"SELECT t.public_id, t.version FROM json_each(?) AS known "
    f"JOIN {Table.__tablename__} AS t ON t.id = CAST(known.key AS INTEGER) WHERE t.version > known.value"
)


def moved_versions(conn: Connection, known: dict[int, int]) -> dict[str, int]:
    """The tables of ``known`` (row id → the version known) now past it: public id → version."""
    if not known:
        return {}
    return dict(conn.exec_driver_sql(_MOVED, (json.dumps(known),)).all())
