"""On PostgreSQL an append is one statement, committed in the same round trip (``store.oneshot``),
when the table is still at the version the request loaded; otherwise the locked write answers as
it always did. Counted on the wire: psycopg's protocol trace of the request's connection."""

from __future__ import annotations

import os

import psycopg
import pytest
from sqlalchemy import event

from scorekeeper.store import oneshot
from scorekeeper.tables import writes
from scorekeeper.web import close_app
from tests.conftest import make_app

pytestmark = pytest.mark.postgres

A_JUNK = [{"type": "capture", "player": "A", "cards": [c]} for c in ("1j1", "1j2", "2j1", "2j2")]


@pytest.fixture
def pg_app(pg_schema_url, tmp_path):
    app = make_app(pg_schema_url, tmp_path)
    yield app
    close_app(app)


@pytest.fixture
def pg_table(pg_app):
    from tests.web.conftest import Table

    client = pg_app.test_client()
    r = client.post("/api/v1/tables", json={"players": ["A", "B", "C"], "first_dealer": "A"})
    table = Table(client, r.get_json())
    table.enter()
    return table


def round_trips(app, tmp_path, request) -> int:
    """The messages that wait for the server (a Sync or a simple Query) while ``request()`` runs."""
    path = tmp_path / "trace.txt"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    traced = []

    def _checkout(dbapi, _record, _proxy):
        dbapi.pgconn.trace(fd)
        traced.append(dbapi)

    engine = app.extensions["sk_engine"]
    event.listen(engine, "checkout", _checkout)
    try:
        request()
    finally:
        event.remove(engine, "checkout", _checkout)
        for dbapi in traced:
            if not dbapi.closed:
                dbapi.pgconn.untrace()
        os.close(fd)
    sent = [line.split("\t") for line in path.read_text().splitlines() if "\tF\t" in line]
    return sum(1 for fields in sent if fields[3].split(" ")[0] in ("Sync", "Query"))


def test_an_append_is_one_round_trip_after_the_tables_row(pg_app, pg_table, tmp_path, monkeypatch):
    """The read path (nothing kept of the table's row): the row read, then the one write."""
    from scorekeeper.web.api import routes

    monkeypatch.setattr(routes, "live_for_edit", lambda public_id, hand_id: None)
    hand = pg_table.start_live()
    pg_table.append(hand, A_JUNK[:1])
    # BEGIN, the table's row (the key's check), then the append with its COMMIT: three in all
    # (the locked write took eight: BEGIN, row, lock, version, event, hand, state, COMMIT).
    assert round_trips(pg_app, tmp_path, lambda: pg_table.append(hand, A_JUNK[1:2], 1)) == 3
    body = pg_table.api("GET", f"/hands/{hand}/events").get_json()
    assert body["events"] == A_JUNK[:2] and body["seq"] == 2


def test_a_tap_on_a_table_kept_here_is_one_round_trip(pg_app, pg_table, tmp_path):
    """The table's row kept true by LISTEN and its rows at that version (``tests/web/test_kept_appends.py``):
    the tap is the one write, its BEGIN and COMMIT in the same message."""
    from tests.web.test_poll_rows import listening

    hand = pg_table.start_live()
    pg_table.append(hand, A_JUNK[:1])
    rows = pg_app.extensions["sk_poll_rows"]
    rows.get(pg_table.id)
    listening(pg_app)
    assert rows.get(pg_table.id) is not None and rows.kept(pg_table.id) is not None
    assert round_trips(pg_app, tmp_path, lambda: pg_table.append(hand, A_JUNK[1:2], 1)) == 1
    body = pg_table.api("GET", f"/hands/{hand}/events").get_json()
    assert body["events"] == A_JUNK[:2] and body["seq"] == 2


def test_a_table_moved_meanwhile_takes_the_locked_write(pg_app, pg_table, monkeypatch, tmp_path):
    """Another phone's tap lands between this request's load and its write: the statement stores
    nothing and the locked write answers the conflict, as before."""
    a_moved_table_takes_the_locked_write(pg_app, pg_table, monkeypatch, tmp_path)


def a_moved_table_takes_the_locked_write(app, table, monkeypatch, tmp_path) -> None:
    """The one write finds the table moved by another app on the same database: nothing stored,
    the locked write answers (a conflict; a rename alone refuses nothing). Both databases' test."""
    from scorekeeper.store import rows as store

    hand = table.start_live()
    table.append(hand, A_JUNK[:1])
    other = make_app(app.config["DATABASE_URL"], tmp_path, AUTO_MIGRATE=False)
    other_table = type(table)(other.test_client(), {"id": table.id, "edit_key": table.edit_key, "view_key": ""})
    real, calls = oneshot.append_at, []

    def late(*args, **kwargs):
        if not calls:
            calls.append(1)  # the other app's own append goes through here too
            other_table.append(hand, A_JUNK[1:2], 1)
        return real(*args, **kwargs)

    monkeypatch.setattr(oneshot, "append_at", late)
    r = table.api("POST", f"/hands/{hand}/events", json={"seq": 1, "event": A_JUNK[2]})
    assert r.status_code == 409 and r.get_json()["errors"][0]["code"] == "conflict"
    assert r.get_json()["events"] == A_JUNK[:2]
    # a change that leaves the log as it was (a new title) does not refuse the tap
    before = table.api("GET", f"/hands/{hand}/events").get_json()["version"]
    with other.app_context():
        session = other.extensions["sk_sessionmaker"]()
        stored = store.get_table(session, table.id)
        calls.clear()
        monkeypatch.setattr(
            oneshot,
            "append_at",
            lambda *a, **k: (
                calls or (calls.append(1), writes.configure(session, stored, "renamed", dict(stored.config))),
                real(*a, **k),
            )[1],
        )
        r = table.api("POST", f"/hands/{hand}/events", json={"seq": 2, "event": A_JUNK[2]})
        session.close()
    assert r.status_code == 201, r.get_json()
    assert r.get_json()["events"] == A_JUNK[:3] and r.get_json()["version"] == before + 2
    close_app(other)


def test_a_fault_in_the_one_statement_is_a_coded_503_and_stores_nothing(pg_app, pg_table, monkeypatch):
    hand = pg_table.start_live()
    pg_table.append(hand, A_JUNK[:1])

    def broken(self, *args, **kwargs):
        raise psycopg.OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(psycopg.ClientCursor, "execute", broken)
    r = pg_table.api("POST", f"/hands/{hand}/events", json={"seq": 1, "event": A_JUNK[1]})
    assert r.status_code == 503 and r.get_json()["errors"][0]["code"] == "unavailable"
    monkeypatch.undo()
    assert pg_table.api("GET", f"/hands/{hand}/events").get_json()["events"] == A_JUNK[:1]
