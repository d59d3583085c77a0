"""Database engines and sessions, for SQLite (embedded default) and PostgreSQL."""

from __future__ import annotations

import sqlite3
import time

from sqlalchemy import create_engine, event, exc
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.orm import Session, sessionmaker

# Execution option asking SQLite for a write lock at BEGIN: a read-then-write
# transaction that only upgrades its lock later can fail at once under WAL
# (SQLITE_BUSY_SNAPSHOT) instead of waiting its turn.
IMMEDIATE = "sqlite_begin_immediate"
AUTOCOMMIT = "AUTOCOMMIT"
# Execution option for a connection that runs one SELECT: SQLite then runs it without a BEGIN
# (the statement is its own transaction), one statement instead of BEGIN, SELECT and ROLLBACK.
SINGLE_READ = "sk_single_read"


def normalise_url(url: str | URL) -> URL:
    """Any SQLAlchemy URL; ``postgres://`` and ``postgresql://`` use psycopg 3."""
    text = url if isinstance(url, str) else url.render_as_string(hide_password=False)
    if text.startswith("postgres://"):
        text = "postgresql://" + text[len("postgres://") :]
    parsed = make_url(text)
    if parsed.drivername == "postgresql":
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed


def is_sqlite(engine: Engine) -> bool:
    return engine.dialect.name == "sqlite"


def make_engine(url: str | URL) -> Engine:
    """An engine with WAL mode, foreign keys and a busy timeout on SQLite."""
    parsed = normalise_url(url)
    if parsed.get_backend_name() != "sqlite":
        engine = create_engine(parsed, pool_size=POOL_SIZE, max_overflow=POOL_OVERFLOW)
        _ping_after_idle(engine)
        return engine
    engine = create_engine(parsed, connect_args={"timeout": 15})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record):
        # Let SQLAlchemy emit BEGIN itself (pysqlite's own handling defers it).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        if parsed.database not in (None, "", ":memory:"):
            cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=15000")
        cursor.execute("PRAGMA synchronous=NORMAL")  # durable against process crashes in WAL mode
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn):
        options = conn.get_execution_options()
        if options.get(IMMEDIATE):
            begin_immediate(conn.connection.dbapi_connection)
        elif not options.get(SINGLE_READ):
            conn.exec_driver_sql("BEGIN")

    return engine


# PostgreSQL connections a process keeps. A gevent worker serves many requests at once; with
# five kept, a burst (phones reconnecting after a restart, a busy evening) opened and closed a
# new server connection for each request over five, a fork on the server and a handshake each.
# Every connection it lends is kept: with ten kept and ten more lent in a burst, the ten were
# opened and closed again and again (a twelfth of the workers' time in the 1,000-table run's
# opening burst). Past twenty, a request waits for one given back.
POOL_SIZE, POOL_OVERFLOW = 20, 0
PING_AFTER_IDLE_S = 10.0


def _ping_after_idle(engine: Engine) -> None:
    """Check a pooled PostgreSQL connection before use only when it has idled a while.

    ``pool_pre_ping`` pings at every checkout: a round trip more for each request, a third of
    a poll's. A connection in steady use is known to be alive; one idle for ``PING_AFTER_IDLE_S``
    may have been closed by the server, a restart or a proxy, and is pinged, and replaced when
    dead (``DisconnectionError`` makes the pool open a new one).
    """

    @event.listens_for(engine, "checkin")
    def _checked_in(_dbapi_connection, record):
        record.info["sk_idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _checked_out(dbapi_connection, record, _proxy):
        since = record.info.pop("sk_idle_since", None)
        if since is None or time.monotonic() - since < PING_AFTER_IDLE_S:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except engine.dialect.loaded_dbapi.Error as err:
            raise exc.DisconnectionError(f"idle connection found closed: {err}") from err


LOCK_WAIT_S = 15.0  # as long as the busy timeout above


def begin_immediate(raw) -> None:
    """Take SQLite's write lock, waiting for it in short naps rather than inside SQLite.

    SQLite's busy handler sleeps in C: under the gevent workers (``web/server/serving.py``) that
    stops every request of the worker while another process holds the lock. ``time.sleep``
    is a gevent nap there, so the worker's other requests run meanwhile (and with threads
    it is a sleep like SQLite's own).
    """
    raw.execute("PRAGMA busy_timeout=0")
    try:
        deadline, nap = time.monotonic() + LOCK_WAIT_S, 0.0005
        while True:
            try:
                raw.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as err:
                if "locked" not in str(err) or time.monotonic() > deadline:
                    raise
            time.sleep(nap)
            nap = min(nap * 2, 0.01)
    finally:
        raw.execute("PRAGMA busy_timeout=15000")


def make_sessionmaker(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)


def reader(engine: Engine) -> Engine:
    """``engine`` for requests that only read (GET), sharing its connections.

    On PostgreSQL each of their statements commits by itself: a poll is then one
    round trip instead of BEGIN, SELECT and ROLLBACK, and READ COMMITTED gave each
    statement its own snapshot anyway. SQLite keeps its read transaction: it costs
    no round trip and holds the request's reads to one snapshot.
    """
    return engine if is_sqlite(engine) else engine.execution_options(isolation_level=AUTOCOMMIT)


def single_reader(engine: Engine) -> Engine:
    """``reader(engine)`` for connections that run one SELECT each (a poll, the push watcher's
    check): on SQLite without a BEGIN around it."""
    return reader(engine).execution_options(**{SINGLE_READ: True}) if is_sqlite(engine) else reader(engine)


def begin_write(session: Session) -> None:
    """Start ``session``'s transaction as a writer (SQLite: take the write lock now)."""
    options: dict = {IMMEDIATE: True}
    if session.get_bind().get_execution_options().get("isolation_level") == AUTOCOMMIT:
        options["isolation_level"] = "READ COMMITTED"  # a reader's session writing: a real transaction
    session.connection(execution_options=options)
