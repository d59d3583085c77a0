"""Push streams (``web/push.py``): what a following phone hears, on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
import time

import pytest
from sqlalchemy import text, update

from scorekeeper.store import rows as store
from scorekeeper.store.db import make_engine
from scorekeeper.store.models import Table
from scorekeeper.web import close_app
from tests.web.conftest import GO_PIBAK


def events_of(body: str) -> list[tuple[int, int]]:
    """(id, version) of each event of an SSE body."""
    import json

    out = []
    for block in body.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line and not line.startswith(":"))
        if "data" in fields:
            out.append((int(fields["id"]), json.loads(fields["data"])["version"]))
    return out


@pytest.fixture
def short_streams(app):
    app.config["PUSH_STREAM_SECONDS"] = 0.3
    return app


def version_of(table) -> int:
    return table.state()["version"]


def test_stream_starts_with_the_current_version(short_streams, table):
    r = table.client.get(f"/t/{table.id}/stream")
    assert r.status_code == 200 and r.mimetype == "text/event-stream"
    body = r.get_data(as_text=True)
    assert body.startswith("retry: ")
    assert events_of(body) == [(version_of(table), version_of(table))]


@pytest.mark.parametrize("key, status", [(None, 401), ("wrong-key", 401)])
def test_stream_needs_the_tables_key(short_streams, client, make_table, key, status):
    t = make_table()  # this client never entered it: no key in its session
    headers = {"X-Table-Key": key} if key else {}
    r = client.get(f"/t/{t.id}/stream", headers=headers)
    assert r.status_code == status
    assert short_streams.extensions["sk_push"].followed() == []  # a refused stream follows nothing


def test_stream_of_an_unknown_table_is_404(short_streams, client):
    assert client.get("/t/nosuchtable/stream").status_code == 404
    assert client.get("/t/" + "x" * 500 + "/stream").status_code == 404


def test_view_key_may_follow(short_streams, client, make_table):
    t = make_table()
    r = client.get(f"/t/{t.id}/stream", headers={"X-Table-Key": t.view_key})
    assert r.status_code == 200 and events_of(r.get_data(as_text=True))


def test_a_commit_in_this_process_rings_at_once(app, table):
    """The writer's own process needs no database check: the commit hands the version over."""
    watcher = app.extensions["sk_push"]
    hand = table.start_live()
    follower = watcher.follow(table.id)
    try:
        before = version_of(table)
        table.append(hand, GO_PIBAK[:1])
        assert follower.bell.is_set() and follower.version == before + 1
    finally:
        watcher.leave(follower)
    assert watcher.followed() == []


def test_a_refused_append_rings_nothing(app, table):
    watcher = app.extensions["sk_push"]
    hand = table.start_live()
    follower = watcher.follow(table.id)
    try:
        time.sleep(0.3)  # the watcher's first check has told the follower where the table is
        follower.bell.clear()
        r = table.api("POST", f"/hands/{hand}/events", json={"seq": 0, "event": {"type": "nonsense"}})
        assert r.status_code in (400, 422)
        assert not follower.bell.wait(0.3)
    finally:
        watcher.leave(follower)


def other_process_change(app, public_id: str) -> int:
    """A change written by someone else (another worker or server): its own engine, no session hook."""
    engine = make_engine(app.config["DATABASE_URL"])
    try:
        with engine.begin() as conn:
            conn.execute(update(Table).where(Table.public_id == public_id).values(version=Table.version + 1))
            if engine.dialect.name == "postgresql":
                version = store.versions(conn, [public_id])[public_id]
                conn.execute(
                    text("SELECT pg_notify(:channel, :payload)"),
                    {"channel": store.NOTIFY_CHANNEL, "payload": f"{public_id}:{version}"},
                )
        with engine.connect() as conn:
            return store.versions(conn, [public_id])[public_id]
    finally:
        engine.dispose()


def test_a_change_by_another_process_reaches_the_stream(app, table):
    """SQLite: the watcher's periodic check; PostgreSQL: LISTEN/NOTIFY. Either well within 300 ms."""
    watcher = app.extensions["sk_push"]
    follower = watcher.follow(table.id)
    try:
        time.sleep(0.5)  # the watcher is running (PostgreSQL: listening)
        follower.hear(version_of(table))
        follower.bell.clear()
        version = other_process_change(app, table.id)
        assert follower.bell.wait(2.0), "the change was never heard"
        assert follower.version == version
    finally:
        watcher.leave(follower)


def test_stream_sends_each_change_then_ends(app, table):
    app.config["PUSH_STREAM_SECONDS"] = 1.5
    hand = table.start_live()
    start = version_of(table)
    result = {}

    def read():
        result["body"] = table.client.get(f"/t/{table.id}/stream").get_data(as_text=True)

    reader = threading.Thread(target=read)
    reader.start()
    time.sleep(0.3)
    other = table.client.application.test_client()
    other.get(f"/j/{table.id}/{table.edit_key}")
    for seq, event in enumerate(GO_PIBAK[:3]):
        r = other.post(
            f"/api/v1/tables/{table.id}/hands/{hand}/events",
            json={"seq": seq, "event": event},
            headers={"X-Table-Key": table.edit_key},
        )
        assert r.status_code == 201
        time.sleep(0.1)
    reader.join(5)
    heard = [v for _, v in events_of(result["body"])]
    assert heard[0] == start and heard[-1] == start + 3
    assert heard == sorted(set(heard))  # each version at most once, in order


@pytest.mark.parametrize("tail", ["/version", "/stream"])
def test_what_phones_ask_all_evening_reads_one_small_row(short_streams, table, tail, monkeypatch):
    """The version poll and the stream read the table's id, secrets and version, not the table
    (through SQLAlchemy, or on the driver's connection past it: ``store.poll_row_bare``)."""
    from sqlalchemy import event

    engine = short_streams.extensions["sk_engine"]
    seen: list[str] = []

    def note(_conn, _cursor, statement, *_args):
        if statement.lstrip().upper().startswith("SELECT"):
            seen.append(statement)

    bare = store.poll_row_bare
    monkeypatch.setattr(store, "poll_row_bare", lambda e, i: seen.append(str(store._POLL)) or bare(e, i))
    event.listen(engine, "before_cursor_execute", note)
    try:
        assert table.client.get(f"/t/{table.id}{tail}").status_code == 200
    finally:
        event.remove(engine, "before_cursor_execute", note)
    assert len(seen) == 1, seen
    assert "config" not in seen[0] and "title" not in seen[0], seen[0]


# -- the API's stream: the change itself, so a following phone need not fetch it ----------------


def changes_of(body: str) -> list[tuple[int, dict]]:
    """(id, data) of each event of an SSE body."""
    import json

    out = []
    for block in body.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line and not line.startswith(":"))
        if "data" in fields:
            out.append((int(fields["id"]), json.loads(fields["data"])))
    return out


def test_api_stream_starts_with_the_last_hand_as_its_events_answer(short_streams, table):
    hand = table.start_live()
    table.append(hand, GO_PIBAK[:2])
    r = table.api("GET", "/stream", key=table.view_key)
    assert r.status_code == 200 and r.mimetype == "text/event-stream"
    [(version, data)] = changes_of(r.get_data(as_text=True))
    assert data == table.api("GET", f"/hands/{hand}/events").get_json()
    assert version == data["version"] == version_of(table)


def test_api_stream_without_a_live_log_sends_the_version(short_streams, table):
    assert changes_of(table.api("GET", "/stream").get_data(as_text=True)) == [
        (version_of(table), {"version": version_of(table)})
    ]


@pytest.mark.parametrize("key, status", [(None, 401), ("wrong-key", 401)])
def test_api_stream_needs_the_tables_key(short_streams, client, make_table, key, status):
    t = make_table()
    r = client.get(f"/api/v1/tables/{t.id}/stream", headers={"X-Table-Key": key} if key else {})
    assert r.status_code == status and r.get_json()["errors"][0]["code"] == "no_access"
    assert client.get("/api/v1/tables/nosuchtable/stream").status_code == 404
    assert short_streams.extensions["sk_push"].followed() == []


def test_api_stream_sends_each_tap_as_its_answer(app, table):
    """What the tapping phone was answered is what the other phones hear, in order, nothing missed."""
    app.config["PUSH_STREAM_SECONDS"] = 1.5
    hand = table.start_live()
    start = version_of(table)
    result = {}

    def read():
        result["body"] = table.api("GET", "/stream", key=table.view_key).get_data(as_text=True)

    reader = threading.Thread(target=read)
    reader.start()
    time.sleep(0.3)
    other = table.client.application.test_client()
    answers = []
    for seq, event in enumerate(GO_PIBAK[:3]):
        r = other.post(
            f"/api/v1/tables/{table.id}/hands/{hand}/events",
            json={"seq": seq, "event": event},
            headers={"X-Table-Key": table.edit_key},
        )
        assert r.status_code == 201
        answers.append(r.get_json())
        time.sleep(0.1)
    reader.join(5)
    heard = changes_of(result["body"])
    assert heard[0][0] == start and heard[0][1]["seq"] == 0
    assert [v for v, _ in heard] == sorted({v for v, _ in heard})
    assert [data for _, data in heard[1:]] == answers
    assert all(version == data["version"] for version, data in heard)


def test_api_stream_hears_another_processs_change(app, table):
    """No answer to reuse: the stream's process loads the change itself (once for its streams)."""
    app.config["PUSH_STREAM_SECONDS"] = 1.0
    hand = table.start_live()
    result = {}
    reader = threading.Thread(
        target=lambda: result.update(body=table.api("GET", "/stream", key=table.view_key).get_data(as_text=True))
    )
    reader.start()
    time.sleep(0.3)
    version = other_process_change(app, table.id)
    reader.join(5)
    heard = changes_of(result["body"])
    assert heard[-1][0] == version
    assert heard[-1][1] == table.api("GET", f"/hands/{hand}/events").get_json()


def test_a_stream_knows_when_its_phone_has_gone():
    """Before loading a change for a stream, one look at its socket: a phone that closed it is gone."""
    import socket

    from scorekeeper.web.server.push import gone

    server, phone = socket.socketpair()
    try:
        assert not gone(server)  # open, nothing sent
        phone.sendall(b"x")
        assert not gone(server)  # open, something to read
        server.recv(1)
        phone.close()
        assert gone(server)
    finally:
        server.close()
    assert gone(server)  # closed here: no stream to write to either
    assert not gone(None)  # no socket known (not under gunicorn): streams go on as before


def test_a_stream_past_the_1024th_connection_is_not_taken_for_gone():
    """A worker holding a thousand tables' streams has sockets numbered past 1,024, which
    ``select.select`` cannot look at (it raised, and the stream was ended as gone: at 1,000
    tables every phone reconnected every few seconds, 13,088 streams opened for 3,000 phones)."""
    import socket

    from scorekeeper.web.server.push import gone

    held = [socket.socketpair() for _ in range(540)]  # 1,080 descriptors and more
    try:
        server, phone = held[-1]
        assert server.fileno() > 1024
        assert not gone(server)  # open, nothing sent
        phone.sendall(b"x")
        assert not gone(server)
        server.recv(1)
        phone.close()
        assert gone(server)
    finally:
        for a, b in held:
            a.close()
            b.close()


def test_a_quiet_stream_lets_a_gone_phone_go_before_its_heartbeat(monkeypatch, sqlite_app):
    """Issue 23, item 1: a stream opened and dropped at once held its connection (one of the
    worker's) until its next heartbeat, 15 s later; the process looks at its streams' sockets
    every GONE_CHECK_S (issue 32: in one look for all of them)."""
    import socket

    from scorekeeper.web.server import push

    monkeypatch.setattr(push, "GONE_CHECK_S", 0.1)
    watcher = sqlite_app.extensions["sk_push"]
    server, phone = socket.socketpair()
    follower = watcher.follow("t", sock=server)
    try:
        body = push._stream(watcher, follower, 30.0, sock=server)
        assert next(body).startswith("retry:")
        phone.close()
        started = time.monotonic()
        assert list(body) == []  # ended, nothing more written
        assert time.monotonic() - started < 1.0
    finally:
        server.close()


@pytest.mark.postgres
def test_each_change_is_announced_to_other_servers_with_its_version(pg_schema_url, tmp_path):
    """PostgreSQL: every change's NOTIFY (sent with the version's move, in one statement) names
    the table and the version it made, delivered at commit; a refused change sends none. An
    append's says the events it stored too (``store.note_of``)."""
    import psycopg

    from tests.conftest import PG_URL, make_app
    from tests.web.conftest import Table as TableClient

    app = make_app(pg_schema_url, tmp_path)
    try:
        with psycopg.connect(PG_URL.replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as listener:
            listener.execute(f"LISTEN {store.NOTIFY_CHANNEL}")
            client = app.test_client()
            table = TableClient(client, client.post("/api/v1/tables", json={"players": ["A", "B"]}).get_json())
            hand = table.start_live()
            table.append(hand, [{"type": "capture", "player": "A", "cards": ["1j1"]}])
            assert (
                table.api("POST", f"/hands/{hand}/events", json={"seq": 0, "event": {"type": "end_turn"}}).status_code
                == 409
            )
            heard = [n.payload for n in listener.notifies(timeout=0.5)]
        version = table.api("GET", "").get_json()["version"]
        notes = [store.note_of(payload) for payload in heard]
        assert [(n.public_id, n.version, n.keys) for n in notes] == [
            (table.id, v, False) for v in range(version - 1, version + 1)
        ]
        assert heard[0] == f"{table.id}:{version - 1}"  # the hand begun: its version alone
        appended = notes[1].appended
        assert appended is not None
        assert (appended.hand_id, appended.start, appended.events) == (
            hand,
            0,
            [{"type": "capture", "player": "A", "cards": ["1j1"]}],
        )
    finally:
        close_app(app)


def test_one_look_lets_go_only_the_streams_whose_phones_have_gone(sqlite_app):
    """Issue 32: the sweeper's one poll for all the streams of a process ends those whose phone
    closed the connection, not those still open (with or without something sent to read)."""
    import socket

    watcher = sqlite_app.extensions["sk_push"]
    pairs = [socket.socketpair() for _ in range(3)]
    followers = [watcher.follow("t", sock=server) for server, _phone in pairs]
    try:
        pairs[1][1].sendall(b"x")  # open, something to read
        pairs[2][1].close()  # gone
        watcher.sweep()
        assert [f.left for f in followers] == [False, False, True]
        assert followers[2].bell.is_set() and not followers[0].bell.is_set()
    finally:
        for follower in followers:
            watcher.leave(follower)
        for server, phone in pairs:
            server.close()
            phone.close()


def test_the_watcher_asks_by_row_id_and_hears_only_the_tables_that_moved(sqlite_app):
    """SQLite's check (issue 32): a stream's table, noted by its row id as the stream opens, is
    asked about with the version heard; a change by another process is heard, and a table that
    did not move rings no stream."""
    client = sqlite_app.test_client()
    ids = [client.post("/api/v1/tables", json={"players": ["A", "B"]}).get_json()["id"] for _ in range(2)]
    watcher = sqlite_app.extensions["sk_push"]
    followers = []
    try:
        for public_id in ids:
            follower = watcher.follow(public_id)
            with sqlite_app.extensions["sk_engine"].connect() as conn:
                row = store.PollRow(*store.poll_row(conn, public_id))
            follower.hear(row.version)
            watcher.note(row)
            follower.bell.clear()
            followers.append(follower)
        watcher.check()
        assert not any(f.bell.is_set() for f in followers)  # nothing moved
        version = other_process_change(sqlite_app, ids[0])
        watcher.check()
        assert followers[0].bell.is_set() and followers[0].version == version
        assert not followers[1].bell.is_set()
    finally:
        for follower in followers:
            watcher.leave(follower)


def test_a_writers_own_streams_check_their_secrets_without_a_read(app, table, monkeypatch):
    """The appending request hands its row with its answer: its secrets are those of the version
    it made, so the streams of its process check theirs against them and read nothing."""
    hand = table.start_live()
    watcher = app.extensions["sk_push"]
    follower = watcher.follow(table.id, table.view_key)
    try:
        table.append(hand, GO_PIBAK[:1])
        reads: list[str] = []
        real = store.poll_row
        monkeypatch.setattr(store, "poll_row", lambda *a: reads.append(a[1]) or real(*a))
        r = table.append(hand, GO_PIBAK[1:2], 1)
        assert follower.version == r.get_json()["version"]
        assert watcher.admits(follower) and reads == []
        other_process_change(app, table.id)  # moved by someone else: read again
        follower.hear(follower.version + 1)
        assert watcher.admits(follower) and reads == [table.id]
    finally:
        watcher.leave(follower)


def test_a_write_holds_the_secrets_of_the_version_it_locked(app, table):
    """Keys replaced between a request's load and its write: the lock reads them again with the
    version, so what the writer hands its streams is never a replaced secret."""
    from scorekeeper.tables import writes

    with app.app_context():
        maker = app.extensions["sk_sessionmaker"]
        with maker() as loading, maker() as rotating:
            loaded = store.read_table(loading.connection(), table.id)
            old_view = loaded.view_secret
            _edit, new_view = writes.rotate_keys(rotating, store.get_table(rotating, table.id), "view")
            loading.commit()
            store.lock_table(loading, loaded)
            assert loaded.view_secret == new_view != old_view
            assert loaded.version == version_of(table)
            loading.rollback()
