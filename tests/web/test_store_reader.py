"""A GET's session reads without a transaction on PostgreSQL; a write still takes one.

(SQLite keeps its read transaction: the web tests cover it on every route.)
"""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from scorekeeper.store import rows as store
from scorekeeper.web import close_app
from scorekeeper.web.server.database import db


def _autocommit(session) -> bool:
    return bool(getattr(session.connection().connection.dbapi_connection, "autocommit", False))


@pytest.mark.postgres
def test_only_a_get_reads_without_a_transaction(pg_schema_url, tmp_path):
    from tests.conftest import make_app

    app = make_app(pg_schema_url, tmp_path)
    try:
        with app.test_request_context("/", method="GET"):
            table = store.create_table(db(), "t", {"players": ["A", "B"]})
            assert store.poll_row(db(), table.public_id).version == 1
            assert _autocommit(db())
        with app.test_request_context("/", method="POST"):
            assert store.poll_row(db(), table.public_id).version == 1
            assert not _autocommit(db())
    finally:
        close_app(app)


@pytest.mark.postgres
def test_a_write_from_a_get_session_still_locks_the_row(pg_schema_url, tmp_path):
    from tests.conftest import make_app

    app = make_app(pg_schema_url, tmp_path)
    engine = app.extensions["sk_engine"]
    try:
        with app.test_request_context("/", method="GET"):
            table = store.create_table(db(), "t", {"players": ["A", "B"]})
            store.lock_table(db(), table)
            assert not _autocommit(db())
            with engine.connect() as other:
                other.execute(text("set lock_timeout = '200ms'"))
                with pytest.raises(OperationalError):
                    other.execute(text("select 1 from sk_tables where id = :i for update"), {"i": table.id})
            db().rollback()
    finally:
        engine.dispose()


@pytest.mark.postgres
def test_a_connection_closed_by_the_server_while_idle_is_replaced(pg_schema_url, tmp_path, monkeypatch):
    """No ping at each checkout (a round trip a request): only a connection idle for a while is
    checked, and one the server closed meanwhile is replaced, not handed to a request."""
    from scorekeeper.store import db as store_db
    from tests.conftest import make_app

    app = make_app(pg_schema_url, tmp_path)
    engine = app.extensions["sk_engine"]
    client = app.test_client()
    try:
        table = client.post("/api/v1/tables", json={"name": "t", "players": ["A", "B"]}).get_json()
        poll = f"/api/v1/tables/{table['id']}/version"
        headers = {"X-Table-Key": table["view_key"]}
        assert client.get(poll, headers=headers).status_code == 200
        pings = []
        real_ping = engine.dialect.do_ping
        monkeypatch.setattr(engine.dialect, "do_ping", lambda c: pings.append(c) or real_ping(c))
        assert client.get(poll, headers=headers).status_code == 200
        assert pings == []  # in steady use: no ping

        monkeypatch.setattr(store_db, "PING_AFTER_IDLE_S", 0.0)
        pooled = engine.pool.checkedin()
        assert pooled >= 1
        import psycopg

        from tests.conftest import PG_URL

        with psycopg.connect(PG_URL.replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as other:
            idle = [
                pid
                for (pid,) in other.execute(  # the app's idle connections
                    "select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() "
                    "and state = 'idle' and query ilike '%sk_tables%' "
                    # not a listener (named), its app's or a closed one's still ending
                    "and application_name not like 'scorekeeper %'"
                )
            ]
            for pid in idle:  # closed by the server (a restart, an idle timeout, a proxy)
                other.execute("select pg_terminate_backend(%s)", (pid,))
            killed = len(idle)
        assert killed == pooled
        for _ in range(3):
            answer = client.get(poll, headers=headers)
            assert answer.status_code == 200 and answer.get_json() == {"version": 1}
        assert pings  # the idle connection was checked, found closed and replaced
    finally:
        engine.dispose()


@pytest.mark.postgres
def test_a_bare_poll_gives_its_connection_back_as_the_pool_lent_it(pg_schema_url, tmp_path):
    """The fast path's poll reads in autocommit; the connection it borrowed must not stay so,
    or the next writer to get it would run without a transaction."""
    from tests.conftest import make_app

    app = make_app(pg_schema_url, tmp_path)
    engine = app.extensions["sk_engine"]
    try:
        created = app.test_client().post("/api/v1/tables", json={"players": ["A", "B"]}).get_json()
        assert store.poll_row_bare(engine, created["id"]).version == 1
        assert store.poll_row_bare(engine, "nosuchtable") is None
        assert engine.pool.checkedin() == 1
        with engine.connect() as conn:
            assert conn.connection.dbapi_connection.autocommit is False
        with app.test_request_context("/", method="POST"):
            assert store.poll_row(db(), created["id"]).version == 1
            assert not _autocommit(db())
    finally:
        engine.dispose()


def test_the_connections_a_burst_opened_are_kept_for_the_next(pg_schema_url):
    """A gevent worker's burst (phones reconnecting after a restart) needs as many PostgreSQL
    connections at once as the pool lends: those past the kept ones were closed as soon as they
    were given back and opened again for the next request, a fork and a handshake on the server
    each time (a twelfth of the workers' time in the 1,000-table run's opening burst, issue 32)."""
    from sqlalchemy import event

    from scorekeeper.store.db import POOL_OVERFLOW, POOL_SIZE, make_engine

    most = POOL_SIZE + POOL_OVERFLOW  # what the pool lends at once
    engine = make_engine(pg_schema_url)
    opened = []
    event.listen(engine, "connect", lambda *_: opened.append(1))
    try:
        for _ in range(3):  # three bursts, each as many connections at once as the pool lends
            held = [engine.raw_connection() for _ in range(most)]
            for conn in held:
                conn.close()
        assert len(opened) == most  # the first burst's, kept for the two after it
        assert engine.pool.checkedin() == most
    finally:
        engine.dispose()
