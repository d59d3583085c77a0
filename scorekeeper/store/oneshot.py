"""An append to a live hand's log at the version its request loaded, in one write of few statements.

PostgreSQL: the locked write (``rows.lock_table`` … ``rows.commit``) costs an append about seven
round trips to the server: the row lock, the version with its NOTIFY, the event, the hand's
time, the kept state, the COMMIT. Under gevent each is a cooperative wait the worker's other
requests queue behind. When the writer already knows the log (the table is at the version it
loaded, so its state is the stored one and the engine has accepted the event against it), the
whole write is a compare-and-set: one statement stores the events, moves the version only if it
is still the one loaded, notes the hand changed, keeps the new state and notifies; the COMMIT
goes out with it, in the same message. When the version has moved, the statement changes nothing
and the writer takes the locked path, which answers as it always did (a conflict, a refusal).

SQLite has no round trips to save (the database is in the process), but each statement through
SQLAlchemy's machinery cost ten times what SQLite took to run it (an append's seven statements,
a third of its CPU). The same compare-and-set there is the write lock (``BEGIN IMMEDIATE``, in
naps as ``db.begin_immediate`` takes it), the version moved only if still the one loaded, the
events, the hand's time and the kept state, and the COMMIT, on the driver's connection; a table
moved meanwhile rolls back and takes the locked path the same way.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import exc as sa_exc
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from .db import begin_immediate
from .models import Event, Hand, Log, Table, utcnow
from .rows import APPENDS, NOTIFY_CHANNEL, TOUCHED, Collision, PollRow, appended_tail
from .snapshots import KEEP_SQL

_APPEND = """
WITH moved AS (
    UPDATE sk_tables SET version = version + %(bump)s, updated_at = %(now)s
    WHERE id = %(table_id)s AND version = %(expected)s
    RETURNING version
), added AS (
    INSERT INTO sk_events (hand_id, seq, event, version, created_at)
    SELECT %(hand_id)s, %(start)s + e.n - 1, e.event,
           CASE WHEN %(each)s THEN %(expected)s + e.n ELSE moved.version END, %(now)s
    FROM moved, json_array_elements(%(events)s::json) WITH ORDINALITY AS e(event, n)
), touched AS (
    UPDATE sk_hands SET updated_at = %(now)s FROM moved WHERE sk_hands.id = %(hand_id)s
), kept AS (
    INSERT INTO sk_hand_states (hand_id, version, seq, setup, state)
    SELECT %(hand_id)s, moved.version, %(seq)s, %(setup)s, %(state)s FROM moved WHERE %(keep)s
    ON CONFLICT (hand_id) DO UPDATE SET version = excluded.version, seq = excluded.seq,
        setup = excluded.setup, state = excluded.state
)
SELECT moved.version, pg_notify(%(channel)s, %(prefix)s || moved.version || %(tail)s) FROM moved
"""


# SQLite's statements, each run on the driver's connection.
_SQLITE_MOVE = (
    f"UPDATE {Table.__tablename__} SET version = version + ?, updated_at = ? WHERE id = ? AND version = ? "
    "RETURNING version"
)
_SQLITE_ADD = f"INSERT INTO {Event.__tablename__} (hand_id, seq, event, version, created_at) VALUES (?, ?, ?, ?, ?)"
_SQLITE_HAND = f"UPDATE {Hand.__tablename__} SET updated_at = ? WHERE id = ?"
_SQLITE_KEEP = KEEP_SQL  # named parameters, as sqlite3 takes them too


def supported(session: Session) -> bool:
    return session.get_bind().dialect.name in ("postgresql", "sqlite")


def append_at(
    session: Session,
    table: Table | PollRow,
    hand_id: int,
    expected: int,
    start: int,
    new: Log,
    kept: tuple[str, str] | None,
    version_each: bool = True,
) -> int | None:
    """Store ``new`` as events ``start …`` of the hand's log and commit, if ``table`` is still at
    version ``expected``: the new version. None when it has moved (nothing stored, the session's
    transaction ended): the caller writes the locked way. ``kept``: the new state as
    ``snapshots.keep`` stores it (setup, state), or None. Each event is marked with the version it
    made (``version_each``, as separate appends are) or all with the one version."""
    if session.get_bind().dialect.name == "sqlite":
        return _append_sqlite(session, table, hand_id, expected, start, new, kept, version_each)
    now: datetime = utcnow()
    events = json.dumps(new)
    params = {
        "bump": len(new) if version_each else 1,
        "now": now,
        "table_id": table.id,
        "expected": expected,
        "hand_id": hand_id,
        "start": start,
        "each": version_each,
        "events": events,
        "seq": start + len(new),
        "setup": kept[0] if kept else "",
        "state": kept[1] if kept else "",
        "keep": kept is not None,
        "channel": NOTIFY_CHANNEL,
        "prefix": f"{table.public_id}:",
        # The events themselves, for the processes that keep the table's rows: they move them to
        # the new version without a read (``rows.note_of``); one version an event, so that the
        # note proves nothing else changed between the version before and this one.
        "tail": appended_tail(table.id, hand_id, start, events) if version_each else "",
    }
    import psycopg  # PostgreSQL's driver: only where it is the database

    conn = session.connection()
    dbapi: Any = conn.connection.driver_connection
    # Nothing read in this transaction (a tap stored from what the process keeps, no read at
    # all): its BEGIN goes in the same message too, where psycopg would send it alone first.
    begin = dbapi.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
    try:
        # The statement and its COMMIT in one message (client-side binding: the simple query
        # protocol takes several statements; psycopg quotes each value). A failure stops the
        # message there, nothing committed; the transaction is then rolled back.
        cursor = psycopg.ClientCursor(dbapi)
        try:
            if begin:
                dbapi.autocommit = True  # the message says BEGIN itself
                cursor.execute("BEGIN; " + _APPEND + "; COMMIT", params)
                cursor.nextset()  # past BEGIN's answer, to the statement's
            else:
                cursor.execute(_APPEND + "; COMMIT", params)
            row = cursor.fetchone()
        finally:
            cursor.close()
            if begin and not dbapi.closed:
                if dbapi.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                    dbapi.rollback()  # failed within the message: ended here, as the pool lends it
                dbapi.autocommit = False
    except Exception as err:
        _raise(session, err)
    if row is None:
        session.commit()  # nothing was written: the reads' transaction simply ends
        return None
    version = int(row[0])
    _moved(table, version)
    # For this process's push streams, as ``rows.touch`` notes a change: the session's
    # after_commit hands it over (the connection has nothing left to commit: no round trip).
    session.info.setdefault(TOUCHED, {})[table.public_id] = version
    session.info.setdefault(APPENDS, set()).add(table.public_id)  # an append: the keys stay as they were
    session.commit()
    return version


@lru_cache(maxsize=4)
def _sqlite_values(dialect) -> tuple[Any, Any]:
    """How SQLAlchemy stores a time and a JSON event on this dialect: the same text, read back
    the same way, whichever path wrote the row."""
    columns = Event.__table__.c
    return (
        columns.created_at.type.dialect_impl(dialect).bind_processor(dialect),
        columns.event.type.dialect_impl(dialect).bind_processor(dialect),
    )


def _append_sqlite(
    session: Session,
    table: Table | PollRow,
    hand_id: int,
    expected: int,
    start: int,
    new: Log,
    kept: tuple[str, str] | None,
    version_each: bool,
) -> int | None:
    """``append_at`` on SQLite: the write lock, then the compare-and-set and the rows on the
    driver's connection, committed; None (rolled back, nothing stored) when the table has moved."""
    conn = session.connection()
    raw = conn.connection.driver_connection
    assert isinstance(raw, sqlite3.Connection)  # the SQLite dialect's driver: sqlite3
    stored_time, stored_json = _sqlite_values(conn.dialect)
    now = stored_time(utcnow())
    # Each event marked with the version it made (``version_each``), else all with the one made.
    rows = [
        (hand_id, start + i, stored_json(event), expected + 1 + i if version_each else None, now)
        for i, event in enumerate(new)
    ]
    step = ["BEGIN IMMEDIATE"]  # the statement running, for the fault's report
    try:
        if raw.in_transaction:
            raw.execute("COMMIT")  # the request's reads: a read transaction cannot become the writer
        begin_immediate(raw)
        try:
            version = _write_sqlite(raw, step, table, len(new) if version_each else 1, now, expected, rows, kept)
        except BaseException:
            if raw.in_transaction:
                raw.execute("ROLLBACK")
            raise
    except sqlite3.Error as err:
        session.rollback()
        wrapped = sa_exc.DBAPIError.instance(step[0], None, err, sqlite3.Error)
        if isinstance(wrapped, sa_exc.IntegrityError):
            raise Collision from err
        raise wrapped from err
    except BaseException:
        session.rollback()
        raise
    if version is not None:
        _moved(table, version)
        session.info.setdefault(TOUCHED, {})[table.public_id] = version
    # Stored (or not) already: the session's COMMIT finds no transaction on the connection and
    # only ends its own, handing the change to this process's push streams (its after_commit).
    session.commit()
    return version


def _write_sqlite(
    raw: sqlite3.Connection,
    step: list[str],
    table: Table | PollRow,
    bump: int,
    now: object,
    expected: int,
    rows: list[tuple],
    kept: tuple[str, str] | None,
) -> int | None:
    """The statements of ``_append_sqlite`` under the write lock: the new version, committed, or
    None, rolled back, when the table is no longer at ``expected``."""
    step[0] = _SQLITE_MOVE
    moved = raw.execute(_SQLITE_MOVE, (bump, now, table.id, expected)).fetchall()
    if not moved:
        raw.execute("ROLLBACK")
        return None
    version = int(moved[0][0])
    step[0] = _SQLITE_ADD
    raw.executemany(_SQLITE_ADD, [row if row[3] is not None else (*row[:3], version, row[4]) for row in rows])
    step[0] = _SQLITE_HAND
    raw.execute(_SQLITE_HAND, (now, rows[0][0]))
    if kept is not None:
        step[0] = _SQLITE_KEEP
        setup, state = kept
        raw.execute(
            _SQLITE_KEEP,
            {"hand_id": rows[0][0], "version": version, "seq": rows[-1][1] + 1, "setup": setup, "state": state},
        )
    step[0] = "COMMIT"
    raw.execute("COMMIT")
    return version


def _moved(table: Table | PollRow, version: int) -> None:
    """The writer's row at the version its append made (a table's small row is the caller's to
    replace: a tuple)."""
    if isinstance(table, Table):
        set_committed_value(table, "version", version)


def _raise(session: Session, err: Exception) -> None:
    """The driver's error as SQLAlchemy raises it (the app answers those: a fault is a coded 503,
    a unique key a ``Collision``); the session's transaction is over."""
    import psycopg

    if not isinstance(err, psycopg.Error):
        session.rollback()
        raise err
    wrapped = sa_exc.DBAPIError.instance(_APPEND, None, err, psycopg.Error)
    closed = bool(getattr(session.connection().connection.driver_connection, "closed", False))
    if closed:
        session.invalidate()
    else:
        session.rollback()
    if isinstance(wrapped, sa_exc.IntegrityError):
        raise Collision from err
    raise wrapped from err
