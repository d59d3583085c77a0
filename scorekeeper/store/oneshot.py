"""An append to a live hand's log as one statement on PostgreSQL, committed in the same round trip.

The locked write (``rows.lock_table`` … ``rows.commit``) costs an append about seven round trips
to the server: the row lock, the version with its NOTIFY, the event, the hand's time, the kept
state, the COMMIT. Under gevent each is a cooperative wait the worker's other requests queue
behind. When the writer already knows the log (the table is at the version it loaded, so its
state is the stored one and the engine has accepted the event against it), the whole write is
a compare-and-set: one statement stores the events, moves the version only if it is still the
one loaded, notes the hand changed, keeps the new state and notifies; the COMMIT goes out with
it, in the same message. When the version has moved, the statement changes nothing and
the writer takes the locked path, which answers as it always did (a conflict, a refusal).

SQLite has no round trips to save (the database is in the process): it keeps the locked write.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from sqlalchemy import exc as sa_exc
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from .models import Hand, Log, Table, utcnow
from .rows import NOTIFY_CHANNEL, TOUCHED, Collision

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
SELECT moved.version, pg_notify(%(channel)s, %(prefix)s || moved.version) FROM moved
"""


def supported(session: Session) -> bool:
    return session.get_bind().dialect.name == "postgresql"


def append_at(
    session: Session,
    table: Table,
    hand: Hand,
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
    now: datetime = utcnow()
    params = {
        "bump": len(new) if version_each else 1,
        "now": now,
        "table_id": table.id,
        "expected": expected,
        "hand_id": hand.id,
        "start": start,
        "each": version_each,
        "events": json.dumps(new),
        "seq": start + len(new),
        "setup": kept[0] if kept else "",
        "state": kept[1] if kept else "",
        "keep": kept is not None,
        "channel": NOTIFY_CHANNEL,
        "prefix": f"{table.public_id}:",
    }
    import psycopg  # PostgreSQL's driver: only where it is the database

    conn = session.connection()
    dbapi: Any = conn.connection.driver_connection
    try:
        # The statement and its COMMIT in one message (client-side binding: the simple query
        # protocol takes several statements; psycopg quotes each value). A failure stops the
        # message there, nothing committed; the transaction is then rolled back.
        cursor = psycopg.ClientCursor(dbapi)
        try:
            cursor.execute(_APPEND + "; COMMIT", params)
            row = cursor.fetchone()
        finally:
            cursor.close()
    except Exception as err:
        _raise(session, err)
    if row is None:
        session.commit()  # nothing was written: the reads' transaction simply ends
        return None
    version = int(row[0])
    set_committed_value(table, "version", version)
    # For this process's push streams, as ``rows.touch`` notes a change: the session's
    # after_commit hands it over (the connection has nothing left to commit: no round trip).
    session.info.setdefault(TOUCHED, {})[table.public_id] = version
    session.commit()
    return version


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
