"""Rate-limit counts in a SQLite file: shared by every worker process on one machine, no server.

``memory://`` counted per process: with gunicorn's 2 workers each address got twice its budget
(and an event-loop worker class changes nothing about that). This is a storage backend for the
``limits`` library (the rate limiter's), registered for ``sqlite:///path`` URIs; the app's default
keeps it in the instance folder, next to the SQLite database and the secret key.

Why a file of its own, not the app's database: a count is written for every refused key, and
on SQLite those writes would queue behind the table writes for the one write lock; on
PostgreSQL every request would add a query to the database server. A local SQLite file costs
a few tens of microseconds per request and needs no setting. Several servers on several
machines share counts through Redis instead (``RATELIMIT_STORAGE_URI=redis://…``).

Only what the app's strategy (``moving-window``) and the rate limiter need is kept: one row per
acquired entry, with the time it expires; expired rows are deleted as new ones are written.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit

from limits.storage import MovingWindowSupport, Storage

SCHEMA = """
create table if not exists entries (key text not null, at real not null, expires real not null);
create index if not exists entries_key_at on entries (key, at);
create index if not exists entries_expires on entries (expires);
create table if not exists counters (key text primary key, value integer not null, expires real not null);
"""


class SQLiteFileStorage(Storage, MovingWindowSupport):
    """``sqlite:///path/to/ratelimits.db``: counts every process on this machine shares."""

    STORAGE_SCHEME = ["sqlite"]  # noqa: RUF012 (limits' Storage declares it an instance attribute)

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **_options):
        super().__init__(uri, wrap_exceptions)
        self.path = urlsplit(uri or "").path or ":memory:"
        # Connections of this process not in use. Not one per thread: under gevent a thread is a
        # greenlet, one per HTTP connection, and opening a connection (WAL, schema) cost more than
        # the request's check; a push stream or a phone back after its keep-alive paid it each time.
        self._idle: list[sqlite3.Connection] = []
        self._pid = os.getpid()
        self._lock = threading.Lock()

    @property
    def base_exceptions(self):
        return sqlite3.Error

    def _open(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=10, isolation_level=None, check_same_thread=False)
        conn.execute("pragma journal_mode=wal")
        conn.execute("pragma synchronous=normal")  # a count lost in a power cut is no harm
        conn.executescript(SCHEMA)
        return conn

    @contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        """A connection of this process's own, for one statement or transaction."""
        with self._lock:
            if self._pid != os.getpid():  # a connection never crosses a fork
                self._idle, self._pid = [], os.getpid()
            conn = self._idle.pop() if self._idle else None
        if conn is None:
            conn = self._open()
        try:
            yield conn
        except BaseException:
            if self.path != ":memory:":  # the only copy of its counts is kept
                conn.close()  # in an unknown state: not given out again
                raise
            self._idle.append(conn)
            raise
        with self._lock:
            if self._pid == os.getpid():
                self._idle.append(conn)

    def _write(self, work):
        """Run ``work(conn, now)`` in one write transaction (serialised across processes)."""
        with self._db() as conn:
            conn.execute("begin immediate")
            try:
                now = time.time()
                conn.execute("delete from entries where expires <= ?", (now,))
                answer = work(conn, now)
            except BaseException:
                conn.execute("rollback")
                raise
            conn.execute("commit")
            return answer

    def _read(self, sql: str, params: tuple):
        with self._db() as conn:
            return conn.execute(sql, params).fetchone()

    # -- the moving window (the app's strategy) -------------------------------------------------

    def acquire_entry(self, key: str, limit: int, expiry: int, amount: int = 1) -> bool:
        if amount > limit:
            return False

        def acquire(conn, now):
            (held,) = conn.execute(
                "select count(*) from entries where key = ? and at > ?", (key, now - expiry)
            ).fetchone()
            if held + amount > limit:
                return False
            conn.executemany(
                "insert into entries (key, at, expires) values (?, ?, ?)", [(key, now, now + expiry)] * amount
            )
            return True

        return self._write(acquire)

    def get_moving_window(self, key: str, limit: int, expiry: int) -> tuple[float, int]:
        now = time.time()
        oldest, held = self._read("select min(at), count(*) from entries where key = ? and at > ?", (key, now - expiry))
        return (oldest if held else now), held

    # -- fixed-window counters (the other strategies' primitives) --------------------------------

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        def add(conn, now):
            conn.execute("delete from counters where key = ? and expires <= ?", (key, now))
            conn.execute(
                "insert into counters (key, value, expires) values (?, ?, ?) "
                "on conflict (key) do update set value = value + excluded.value",
                (key, amount, now + expiry),
            )
            return conn.execute("select value from counters where key = ?", (key,)).fetchone()[0]

        return self._write(add)

    def get(self, key: str) -> int:
        row = self._read("select value from counters where key = ? and expires > ?", (key, time.time()))
        return row[0] if row else 0

    def get_expiry(self, key: str) -> float:
        row = self._read("select expires from counters where key = ?", (key,))
        return row[0] if row else time.time()

    def check(self) -> bool:
        return self._read("select 1", ()) == (1,)

    def reset(self) -> int | None:
        return self._write(
            lambda conn, _now: (
                conn.execute("delete from entries").rowcount + conn.execute("delete from counters").rowcount
            )
        )

    def clear(self, key: str) -> None:
        self._write(
            lambda conn, _now: (
                conn.execute("delete from entries where key = ?", (key,)),
                conn.execute("delete from counters where key = ?", (key,)),
            )
        )
