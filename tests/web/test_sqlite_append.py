"""On SQLite an append at the version its request loaded is one write on the driver's connection
(``store.oneshot``): the rows it stores are those the locked write stored, a table moved meanwhile
takes the locked write (which answers as it always did), and a fault stores nothing and answers
as before."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import event, text

from scorekeeper.store import oneshot
from scorekeeper.store.snapshots import KEEP_SQL
from tests.web.test_append_round_trips import A_JUNK, a_moved_table_takes_the_locked_write
from tests.web.test_db_faults import _pragma_on_connect


@pytest.fixture
def sqlite_table(sqlite_app):
    from tests.web.conftest import Table

    client = sqlite_app.test_client()
    r = client.post("/api/v1/tables", json={"players": ["A", "B", "C"], "first_dealer": "A"})
    table = Table(client, r.get_json())
    table.enter()
    return table


def _rows(app, sql: str) -> list[tuple]:
    with app.extensions["sk_engine"].connect() as conn:
        return [tuple(row) for row in conn.execute(text(sql)).all()]


def _statements(app, request) -> list[str]:
    """The statements SQLAlchemy ran while ``request()`` ran (the one write runs its own past it)."""
    seen: list[str] = []
    engine = app.extensions["sk_engine"]

    def note(_conn, _cursor, statement, *_args):
        seen.append(statement.split()[0].upper())

    event.listen(engine, "before_cursor_execute", note)
    try:
        request()
    finally:
        event.remove(engine, "before_cursor_execute", note)
    return seen


def test_the_one_write_stores_what_the_locked_write_stored(sqlite_app, sqlite_table, monkeypatch):
    hand = sqlite_table.start_live()
    # The locked write (as before), then the one write: rows of the same form.
    monkeypatch.setattr(oneshot, "supported", lambda session: False)
    locked = _statements(sqlite_app, lambda: sqlite_table.append(hand, A_JUNK[:1]))
    assert {"UPDATE", "INSERT"} <= set(locked)
    monkeypatch.undo()
    one = _statements(sqlite_app, lambda: sqlite_table.append(hand, A_JUNK[1:2], 1))
    assert set(one) <= {"SELECT", "BEGIN"}, one  # the write itself went past SQLAlchemy
    events = _rows(
        sqlite_app,
        "select seq, event, version, typeof(created_at), length(created_at) from sk_events "
        f"where hand_id = {hand} order by seq",
    )
    assert [e[0] for e in events] == [0, 1]
    body = sqlite_table.api("GET", f"/hands/{hand}/events").get_json()
    assert body["events"] == A_JUNK[:2] and body["seq"] == 2
    (first, second) = events
    assert second[2] == first[2] + 1 == body["version"]  # each event marked with the version it made
    assert first[3:] == second[3:]  # the time stored as the same text
    for (stored,) in _rows(sqlite_app, f"select event from sk_events where hand_id = {hand}"):
        assert stored == json.dumps(json.loads(stored))  # the JSON as SQLAlchemy writes it, both ways
    [(version, seq)] = _rows(sqlite_app, f"select version, seq from sk_hand_states where hand_id = {hand}")
    assert (version, seq) == (body["version"], 2)  # the kept state, with the version it made


def test_a_table_moved_meanwhile_takes_the_locked_write(sqlite_app, sqlite_table, monkeypatch, tmp_path):
    """Another phone's tap lands between this request's load and its write: the write stores
    nothing and the locked write answers the conflict with the log as stored, as before."""
    a_moved_table_takes_the_locked_write(sqlite_app, sqlite_table, monkeypatch, tmp_path)


def test_a_fault_inside_the_one_write_stores_nothing_and_answers_503(sqlite_app, sqlite_table, monkeypatch):
    """The kept state's statement fails after the event's: neither is stored, and the answer is
    the coded "try again" every database fault answers."""
    hand = sqlite_table.start_live()
    sqlite_table.append(hand, A_JUNK[:1])
    version = sqlite_table.state()["version"]
    monkeypatch.setattr(oneshot, "_SQLITE_KEEP", "INSERT INTO no_such_table VALUES (:hand_id)")
    r = sqlite_table.api("POST", f"/hands/{hand}/events", json={"seq": 1, "event": A_JUNK[1]})
    assert r.status_code == 503 and r.get_json()["errors"][0]["code"] == "unavailable"
    assert int(r.headers["Retry-After"]) >= 1
    monkeypatch.undo()
    body = sqlite_table.api("GET", f"/hands/{hand}/events").get_json()
    assert body["events"] == A_JUNK[:1] and body["version"] == version
    assert sqlite_table.append(hand, A_JUNK[1:2], 1).status_code == 201  # the connection serves on


def test_an_append_to_a_read_only_database_answers_503(sqlite_app, sqlite_table):
    hand = sqlite_table.start_live()
    sqlite_table.append(hand, A_JUNK[:1])
    _pragma_on_connect(sqlite_app, "pragma query_only = 1")
    r = sqlite_table.api("POST", f"/hands/{hand}/events", json={"seq": 1, "event": A_JUNK[1]})
    assert r.status_code == 503 and r.get_json()["errors"][0]["code"] == "unavailable"
    assert sqlite_table.api("GET", f"/hands/{hand}/events").get_json()["events"] == A_JUNK[:1]


def test_an_append_to_a_full_disk_answers_507_and_stores_nothing(sqlite_app, sqlite_table, monkeypatch):
    """The disk fills up inside the one write (its kept state made too big for the room left):
    the event before it is not stored either, and the answer is the coded 507."""
    hand = sqlite_table.start_live()
    sqlite_table.append(hand, A_JUNK[:1])
    with sqlite_app.extensions["sk_engine"].connect() as conn:
        pages = conn.execute(text("pragma page_count")).scalar_one()
    _pragma_on_connect(sqlite_app, f"pragma max_page_count = {pages + 8}")
    monkeypatch.setattr(oneshot, "_SQLITE_KEEP", KEEP_SQL.replace(", :state)", ", zeroblob(1000000))"))
    r = sqlite_table.api("POST", f"/hands/{hand}/events", json={"seq": 1, "event": A_JUNK[1]})
    assert r.status_code == 507 and r.get_json()["errors"][0]["code"] == "storage_full"
    monkeypatch.undo()
    assert sqlite_table.api("GET", f"/hands/{hand}/events").get_json()["events"] == A_JUNK[:1]
