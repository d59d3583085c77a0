"""Issue 32: a table's poll row kept by each process on PostgreSQL, kept true by LISTEN
(``web/server/pollrows.py``): a poll, a refresh's key check and a stream's open with no round
trip, and never an answer older than a change the process has heard of, nor a rotated key
accepted once its change is heard.

Two apps on one database are two processes (or two servers): each keeps its own rows and hears
the other's changes only through PostgreSQL's notes.
"""

from __future__ import annotations

import os
import threading
import time

import pytest
from sqlalchemy import text

from scorekeeper.store import rows as store
from scorekeeper.web import close_app
from tests.conftest import make_app
from tests.web.conftest import Table as TableClient
from tests.web.conftest import group_with_an_empty_evening

pytestmark = pytest.mark.postgres


@pytest.fixture
def two_apps(pg_schema_url, tmp_path):
    # Listening while the tests wait without asking (as a server's does a minute).
    here = make_app(pg_schema_url, tmp_path / "here", POLL_ROWS_IDLE_S=60.0)
    there = make_app(pg_schema_url, tmp_path / "there", POLL_ROWS_IDLE_S=60.0)
    yield here, there
    for app in (here, there):
        close_app(app)


def reads_counted(monkeypatch, app=None) -> list[str]:
    """The ids whose poll row was read from the database (a round trip each), in order; only by
    ``app``'s process when given (the other's writer reads its own)."""
    reads: list[str] = []
    real = store.poll_row_bare

    def counting(engine, public_id):
        if app is None or engine is app.extensions["sk_engine"]:
            reads.append(public_id)
        return real(engine, public_id)

    monkeypatch.setattr(store, "poll_row_bare", counting)
    return reads


def poll(client, table: TableClient, key: str | None = None):
    return client.get(f"/api/v1/tables/{table.id}/version", headers={"X-Table-Key": key or table.edit_key})


def listening(app) -> None:
    """Wait until ``app``'s process listens (rows are kept from then on)."""
    rows = app.extensions["sk_poll_rows"]
    deadline = time.monotonic() + 5
    while not rows._listening:
        assert time.monotonic() < deadline, "the poll rows' listener never listened"
        time.sleep(0.01)


def until(predicate, what: str, seconds: float = 5.0):
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


def made_table(app) -> TableClient:
    client = app.test_client()
    return TableClient(client, client.post("/api/v1/tables", json={"players": ["A", "B", "C"]}).get_json())


def kept_here(app, table: TableClient | None = None) -> tuple[TableClient, object]:
    """A table (made here unless given) whose row ``app``'s process keeps: polled once, the
    listener listening, polled again. The table, and a client of ``app`` to poll with."""
    table = table or made_table(app)
    client = app.test_client()
    assert poll(client, table).status_code == 200
    listening(app)
    assert poll(client, table).status_code == 200
    return table, client


def seen_from(app, table: TableClient) -> TableClient:
    """The same table, through another process's client."""
    keys = {"id": table.id, "edit_key": table.edit_key, "view_key": table.view_key}
    return TableClient(app.test_client(), keys)


def test_a_polled_row_is_read_once_while_nothing_changes(two_apps, monkeypatch):
    here, _there = two_apps
    table = made_table(here)
    client = here.test_client()
    poll(client, table)
    listening(here)
    reads = reads_counted(monkeypatch)
    answers = [poll(client, table) for _ in range(5)]
    assert {a.status_code for a in answers} == {200}
    assert reads == [table.id], "five polls, one read"


def test_a_change_made_here_is_answered_here_at_once(two_apps):
    """The writing process drops its kept row at its own commit, before it answers."""
    here, _there = two_apps
    table, client = kept_here(here)
    before = poll(client, table).get_json()["version"]
    hand = table.start_live()
    table.append(hand, [{"type": "capture", "player": "A", "cards": ["1j1"]}])
    assert poll(client, table).get_json()["version"] == table.api("GET", "").get_json()["version"] > before


def test_a_change_made_by_another_process_is_answered_once_heard(two_apps):
    here, there = two_apps
    table, client = kept_here(here)
    before = poll(client, table).get_json()["version"]
    elsewhere = seen_from(there, table)
    hand = elsewhere.start_live()
    elsewhere.append(hand, [{"type": "capture", "player": "A", "cards": ["1j1"]}])
    stored = elsewhere.api("GET", "").get_json()["version"]
    assert stored > before
    until(lambda: poll(client, table).get_json()["version"] == stored, "the other process's change never answered")


def test_another_processs_tap_moves_the_kept_row_without_a_read(two_apps, monkeypatch):
    """A note that names no rotation moves the kept row to its version: the polls after a tap
    elsewhere read nothing (three phones' polls, one read a table between taps, not one a tap)."""
    here, there = two_apps
    table, client = kept_here(here)
    elsewhere = seen_from(there, table)
    hand = elsewhere.start_live()
    reads = reads_counted(monkeypatch, here)
    elsewhere.append(hand, [{"type": "capture", "player": "A", "cards": ["1j1"]}])
    stored = elsewhere.api("GET", "").get_json()["version"]
    until(lambda: poll(client, table).get_json()["version"] == stored, "the other process's tap never answered")
    assert reads == [], "the kept row was read again after a tap"


def test_a_phone_polling_with_its_cookie_reads_the_kept_row(two_apps, monkeypatch):
    """The page's phones poll through Flask (their key in the session's cookie): the same kept row."""
    here, _there = two_apps
    table = made_table(here)
    assert table.enter().status_code in (200, 302, 303)
    kept_here(here, table)
    reads = reads_counted(monkeypatch)
    plain = [store.poll_row]
    monkeypatch.setattr(store, "poll_row", lambda *a: plain.append(1) or plain[0](*a))
    for _ in range(3):
        r = table.client.get(f"/api/v1/tables/{table.id}/version")
        assert r.status_code == 200 and r.get_json()["version"] >= 1
    assert reads == [] and len(plain) == 1, "a phone's poll with its cookie read the row"


def test_a_key_rotated_by_another_process_opens_nothing_once_heard(two_apps):
    """The attack: a leaked key, rotated on one server, still read the table on another."""
    here, there = two_apps
    table, client = kept_here(here)
    old = table.edit_key
    elsewhere = there.test_client()
    rotated = elsewhere.post(f"/api/v1/tables/{table.id}/keys", json={"rotate": "edit"}, headers={"X-Table-Key": old})
    assert rotated.status_code == 200, rotated.get_data(as_text=True)
    until(lambda: poll(client, table, old).status_code == 401, "the rotated key still opened the table here")
    assert poll(client, table, rotated.get_json()["edit_key"]).status_code == 200


def test_a_row_read_while_a_newer_version_was_heard_is_not_kept(two_apps, monkeypatch):
    """The race: a read that began before a change and ended after its note must not be kept."""
    here, _there = two_apps
    table = made_table(here)
    rows = here.extensions["sk_poll_rows"]
    rows.get(table.id)
    listening(here)
    stale = rows.get(table.id)
    rows.heard(table.id, stale.version)  # nothing kept now
    real = store.poll_row_bare

    def read_then_heard(engine, public_id):
        row = real(engine, public_id)
        rows.heard(public_id, row.version + 1)  # the note of a change committed after the read
        return row

    monkeypatch.setattr(store, "poll_row_bare", read_then_heard)
    rows.get(table.id)
    reads = reads_counted(monkeypatch)
    rows.get(table.id)
    assert reads == [table.id], "the row read before the newer version was kept"


def test_nothing_is_kept_while_the_listener_is_lost(two_apps, monkeypatch):
    """Notes missed while not listening would leave a row stale: all dropped, none kept until
    listening again."""
    import psycopg

    from tests.conftest import PG_URL

    here, _there = two_apps
    table, client = kept_here(here)
    rows = here.extensions["sk_poll_rows"]
    with psycopg.connect(PG_URL.replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as admin:
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s",
            (f"scorekeeper poll rows {os.getpid()}",),
        )
    until(lambda: not rows._listening, "the lost listener was not noticed")
    reads = reads_counted(monkeypatch)
    poll(client, table)
    assert reads == [table.id], "a row kept from before the listener was lost answered"
    listening(here)  # listening again after a pause
    poll(client, table)
    poll(client, table)
    assert len(reads) == 2, "rows are kept again once listening"


def reads_of_both_kinds(monkeypatch, app) -> list[str]:
    """Every read of a poll row by ``app``'s process: its bare reads, and those on a connection
    (a stream's check of its secrets)."""
    reads = reads_counted(monkeypatch, app)
    real = store.poll_row

    mine = {app.extensions[name] for name in ("sk_engine", "sk_reader", "sk_single_reader")}

    def counting(conn, public_id):
        if conn.engine in mine:
            reads.append(public_id)
        return real(conn, public_id)

    monkeypatch.setattr(store, "poll_row", counting)
    return reads


def test_a_note_heard_by_both_listeners_keeps_the_row_the_first_moved(two_apps):
    """Each note reaches a process twice, by the poll rows' listener and the push watcher's: the
    second hearing dropped the row the first had moved, and the next poll read it again (a read
    for every tap, issue 32). A note of a version the kept row has already keeps it."""
    here, _there = two_apps
    table, _client = kept_here(here)
    rows = here.extensions["sk_poll_rows"]
    version = rows.kept(table.id).version
    for _listener in range(2):
        rows.heard(table.id, version + 1, keys=False)
    assert rows.kept(table.id) is not None and rows.kept(table.id).version == version + 1
    rows.heard(table.id, version, keys=False)  # an older note, heard late
    assert rows.kept(table.id).version == version + 1
    rows.heard(table.id, version + 1, keys=True)  # keys rotated: dropped, whatever its version
    assert rows.kept(table.id) is None


def test_kept_rows_are_confirmed_by_one_read_for_all_not_read_again_each(two_apps, monkeypatch):
    """Past ``KEEP_S`` every kept row was read again, one round trip each: with a thousand tables
    a row read for every tap (issue 32). The listener confirms them all with one read instead."""
    from scorekeeper.web.server import pollrows

    monkeypatch.setattr(pollrows, "KEEP_S", 2.0)
    monkeypatch.setattr(pollrows, "REFRESH_S", 0.3, raising=False)  # a round late by 1.4 s still in KEEP_S
    here, _there = two_apps
    tables = [made_table(here) for _ in range(3)]
    client = here.test_client()
    for table in tables:
        kept_here(here, table)
    reads = reads_counted(monkeypatch, here)
    time.sleep(2.5)  # past KEEP_S
    for table in tables:
        assert poll(client, table).status_code == 200
    assert reads == [], "rows kept past KEEP_S were read again one by one"


def test_a_change_made_past_the_app_is_answered_within_a_refresh(two_apps, monkeypatch):
    """A change that sends no note (made by hand in psql) reaches the kept row by the listener's
    read of them all, in ``REFRESH_S``, as it reached it by ``KEEP_S`` before."""
    from scorekeeper.web.server import pollrows

    monkeypatch.setattr(pollrows, "REFRESH_S", 0.3, raising=False)
    here, _there = two_apps
    table, client = kept_here(here)
    before = poll(client, table).get_json()["version"]
    with here.extensions["sk_engine"].begin() as conn:  # no note: as psql would
        conn.exec_driver_sql(
            "UPDATE sk_tables SET version = version + 5, view_secret = 'changed-by-hand' WHERE public_id = %(id)s",
            {"id": table.id},
        )
    until(lambda: poll(client, table).get_json()["version"] == before + 5, "a change made by hand never answered", 3.0)
    assert poll(client, table, table.view_key).status_code == 401, "the view key replaced by hand still opened it"


def test_a_streams_check_after_another_processs_taps_reads_the_row_once(two_apps, monkeypatch):
    """A stream's check of its secret at each change (``Watcher.admits``) read the table's row
    again at each tap of another process, where its rows were not kept: one read a tap (issue 32).
    Its read is kept now, and moved by the notes that follow."""
    here, there = two_apps
    table = made_table(there)
    elsewhere = seen_from(there, table)
    hand = elsewhere.start_live()
    kept_here(here)  # this process listens, and keeps another table's row: not this one's
    watcher = here.extensions["sk_push"]
    follower = watcher.follow(table.id, table.edit_key)
    try:
        reads = reads_of_both_kinds(monkeypatch, here)
        for n in range(3):
            elsewhere.append(hand, [{"type": "capture", "player": "A", "cards": [f"{n + 1}j1"]}], start=n)
            stored = elsewhere.api("GET", "").get_json()["version"]
            until(lambda: follower.version >= stored, "the tap's note was never heard here")
            assert watcher.admits(follower)
        assert reads == [table.id], "a stream's check read the row at each tap"
    finally:
        watcher.leave(follower)


def test_an_evening_removed_by_another_process_is_not_answered_once_heard(two_apps):
    here, there = two_apps
    elsewhere = there.test_client()
    group = group_with_an_empty_evening(elsewhere)
    evening = group["table"]
    table, client = kept_here(here, TableClient(here.test_client(), evening))
    removed = elsewhere.delete(
        f"/api/v1/groups/{group['id']}/evenings/{evening['id']}", headers={"X-Group-Key": group["edit_key"]}
    )
    assert removed.status_code == 200, removed.get_data(as_text=True)
    until(lambda: poll(client, table).status_code == 404, "a removed evening still answered")


def test_sqlite_keeps_nothing(sqlite_app, monkeypatch):
    """SQLite's read is of a file in the process, cheaper than keeping: every poll reads."""
    table = made_table(sqlite_app)
    client = sqlite_app.test_client()
    reads = reads_counted(monkeypatch)
    for _ in range(3):
        assert poll(client, table).status_code == 200
    assert reads == [table.id] * 3


def test_a_closed_app_lets_its_listeners_go_before_its_database_does(pg_schema_url, tmp_path, caplog, monkeypatch):
    """An app closed (``close_app``) stops its listeners at once. A test's schema is dropped at
    its end; a listener left running on it (a minute, as a server's) failed and logged its
    traceback every second through the tests that followed, from a thread of its own, and
    Python 3.11's traceback parses the failing line to underline it: a parse on two threads at
    once corrupts the interpreter's count of nesting (CPython gh-106905), and a test then failed
    with "AST constructor recursion depth mismatch"."""
    from scorekeeper.web.server import pollrows

    monkeypatch.setattr(pollrows, "REFRESH_S", 0.1)  # the listener reads the kept rows often
    here = make_app(pg_schema_url, tmp_path, POLL_ROWS_IDLE_S=60.0)
    table, _client = kept_here(here)
    watcher = here.extensions["sk_push"]
    watcher.follow(table.id)  # a stream that follows it: the push watcher listens too
    until(lambda: watcher._running is not None, "the push watcher never started")
    listeners = [t for t in threading.enumerate() if t.name in ("sk-poll-rows", "sk-push-watcher", "sk-push-sweeper")]
    assert {t.name for t in listeners} >= {"sk-poll-rows", "sk-push-watcher"}

    close_app(here)
    with here.extensions["sk_engine"].begin() as conn:  # what the fixture's end does, in short
        conn.execute(text(f"DROP TABLE {store.Table.__tablename__} CASCADE"))
    for thread in listeners:
        thread.join(timeout=5)
        assert not thread.is_alive(), f"{thread.name} still runs after its app was closed"
    failed = [r for r in caplog.records if "failed" in r.getMessage()]
    assert failed == [], "a listener logged a failure after its app was closed"
