"""Database faults answer a coded "try again", never a 500 (issue 23, item 4).

Real faults, injected where the database would raise them: SQLite's file full (``max_page_count``
caps it as a full disk would), SQLite read-only (``query_only``: what read-only files answer), and
PostgreSQL connections killed server-side (``pg_terminate_backend``) inside the pool's ten idle
seconds, so the first use of each fails. Each answers 503 with ``Retry-After`` (507 when the disk
is full), coded, in JSON for the API and as a page in the page's language, and nothing is stored.
"""

from __future__ import annotations

import pytest
from sqlalchemy import event, text

from .test_tables import table_form

NEW = {"players": ["A", "B", "C"], "first_dealer": "A"}


def _pragma_on_connect(app, pragma: str) -> None:
    """Every connection the app opens from now on runs ``pragma`` first."""
    engine = app.extensions["sk_engine"]
    engine.dispose()

    @event.listens_for(engine, "connect")
    def _run(dbapi_connection, _record):
        dbapi_connection.execute(pragma)


def _tables(app) -> int:
    with app.extensions["sk_engine"].connect() as conn:
        return conn.execute(text("select count(*) from sk_tables")).scalar_one()


def _coded(r, status: int, code: str, json_body: bool = True) -> None:
    assert r.status_code == status, r.data[:300]
    assert int(r.headers["Retry-After"]) >= 1
    assert r.headers.get("X-Content-Type-Options") == "nosniff"  # the app's answer, not the server's
    if json_body:
        assert r.get_json()["errors"][0]["code"] == code
    else:
        assert r.mimetype == "text/html" and f'data-code="{code}"'.encode() in r.data


def test_a_full_disk_answers_507(sqlite_app):
    app, client = sqlite_app, sqlite_app.test_client()
    with app.extensions["sk_engine"].connect() as conn:
        pages = conn.execute(text("pragma page_count")).scalar_one()
    _pragma_on_connect(app, f"pragma max_page_count = {pages}")
    answers = [client.post("/api/v1/tables", json=NEW | {"name": f"table {i}"}) for i in range(60)]
    assert {r.status_code for r in answers} <= {201, 507}
    full = [r for r in answers if r.status_code == 507]
    assert full, "the file never filled up"
    _coded(full[0], 507, "storage_full")
    stored = _tables(app)
    assert stored == sum(r.status_code == 201 for r in answers)  # what was refused left nothing
    page = client.post("/new", data=table_form(), headers={"Accept-Language": "ko"})
    _coded(page, 507, "storage_full", json_body=False)
    assert "저장 공간".encode() in page.data
    assert client.get("/healthz").status_code == 200
    assert _tables(app) == stored


def test_a_read_only_database_answers_503(sqlite_app, make_table):
    app, client = sqlite_app, sqlite_app.test_client()
    r = client.post("/api/v1/tables", json=NEW)
    key = {"X-Table-Key": r.get_json()["edit_key"]}
    path = f"/api/v1/tables/{r.get_json()['id']}"
    _pragma_on_connect(app, "pragma query_only = 1")
    _coded(client.post("/api/v1/tables", json=NEW), 503, "unavailable")
    _coded(client.post(f"{path}/hands", json={"log": {}}, headers=key), 503, "unavailable")
    page = client.post("/new", data=table_form(), headers={"Accept-Language": "en"})
    _coded(page, 503, "unavailable", json_body=False)
    assert b"try again" in page.data
    assert client.get(path, headers=key).status_code == 200  # reads still answer
    assert _tables(app) == 1


@pytest.mark.postgres
def test_killed_postgresql_connections_answer_503_then_serve(pg_schema_url, tmp_path):
    import psycopg

    from tests.conftest import PG_URL, make_app

    app = make_app(pg_schema_url, tmp_path)
    client = app.test_client()
    r = client.post("/api/v1/tables", json=NEW)
    key = {"X-Table-Key": r.get_json()["edit_key"]}
    path = f"/api/v1/tables/{r.get_json()['id']}"
    engine = app.extensions["sk_engine"]
    for method, url, kwargs in [("GET", path, {"headers": key}), ("POST", "/api/v1/tables", {"json": NEW})]:
        assert client.open(url, method=method, **kwargs).status_code in (200, 201)
        # Only this app's own connections: the pool's, idle now (other tests share the server).
        pids = [rec.dbapi_connection.info.backend_pid for rec in list(engine.pool._pool.queue)]
        assert pids
        with psycopg.connect(PG_URL.replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as conn:
            for pid in pids:
                conn.execute("select pg_terminate_backend(%s)", (pid,))
        answer = client.open(url, method=method, **kwargs)
        if answer.status_code >= 500:
            _coded(answer, 503, "unavailable")
        else:
            assert answer.status_code in (200, 201)
        again = client.open(url, method=method, **kwargs)
        assert again.status_code in (200, 201), again.data[:300]
    engine.dispose()


def test_a_failed_rollback_at_teardown_leaves_the_answer(sqlite_app, monkeypatch):
    """The teardown's rollback on a dead connection raised after the answer was made, and the
    client got the server's bare HTML 500 instead (``database._close_session``)."""
    from sqlalchemy.exc import OperationalError
    from sqlalchemy.orm import Session

    def dead(self):
        raise OperationalError("ROLLBACK", {}, Exception("server closed the connection unexpectedly"))

    client = sqlite_app.test_client()
    monkeypatch.setattr(Session, "close", dead)
    r = client.post("/api/v1/tables", json=NEW)
    assert r.status_code == 201 and r.get_json()["ok"] is True
    monkeypatch.undo()
    assert _tables(sqlite_app) == 1
