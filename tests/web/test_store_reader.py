"""A GET's session reads without a transaction on PostgreSQL; a write still takes one.

(SQLite keeps its read transaction: the web tests cover it on every route.)
"""
from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from scorekeeper.store import tables as store
from scorekeeper.web.database import db


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
        app.extensions["sk_engine"].dispose()


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
