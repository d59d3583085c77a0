"""A live hand's state kept with the table's version (``store.snapshots``): a stream's first
document and a process's first load read it instead of replaying the log, and give the bytes a
replay gives; any change other than an append (an undo, a replaced event, an edited earlier hand,
new settings, a hand deleted) leaves it behind, and the hand is replayed until the next append.

"A fresh process" is one whose kept replays (``service.forget``) are gone, as after a restart.
"""

from __future__ import annotations

import contextlib
import json
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.engine.live import hand as hand_engine
from scorekeeper.engine.live.hand import HandSetup, replay
from scorekeeper.store import rows as store
from scorekeeper.store import snapshots
from scorekeeper.tables import service, writes
from scorekeeper.web import close_app
from scorekeeper.web.server import answers
from scorekeeper.web.views import tablejson
from tests.conftest import make_app
from tests.engine.test_hand_properties import events_for
from tests.web.conftest import STOP_A, Table
from tests.web.test_kept_appends import kept_of, put_back

A_JUNK = [{"type": "capture", "player": "A", "cards": [c]} for c in ("1j1", "1j2", "2j1", "2j2", "3j1")]
TURN = [{"type": "capture", "player": "A", "cards": ["1g", "1j1"]}, {"type": "end_turn"}]


class Replays:
    """Counts the engine's replays of a live hand's log from its start."""

    def __init__(self, monkeypatch):
        self.count = 0
        real = hand_engine.replay

        def counted(setup, events):
            self.count += 1
            return real(setup, events)

        monkeypatch.setattr(hand_engine, "replay", counted)


def restart() -> None:
    """What a process that has never seen the table knows: nothing kept."""
    service.forget()
    answers._answers.clear()
    tablejson.forget()


def counted(monkeypatch, owner, name: str) -> list:
    """The calls of ``owner.name`` from now on, one entry each; the real one still answers."""
    calls: list = []
    real = getattr(owner, name)
    monkeypatch.setattr(owner, name, lambda *a, **k: calls.append(1) or real(*a, **k))
    return calls


@contextlib.contextmanager
def following(app, table: Table):
    """The process's push watcher, one stream of ``table`` followed while inside."""
    watcher = app.extensions["sk_push"]
    follower = watcher.follow(table.id)
    try:
        yield watcher
    finally:
        watcher.leave(follower)


def first_document(app, table: Table) -> str:
    """What an API stream sends first for the table (``Watcher._load``), in a fresh process."""
    restart()
    return app.extensions["sk_push"]._load(table.id)[1]


def replayed_document(app, table: Table, monkeypatch) -> str:
    """The same document made the old way: the series and the log replayed, no snapshot read."""
    restart()
    with monkeypatch.context() as m:
        m.setattr(service, "kept_live_hand", lambda conn, table: None)
        m.setattr(service, "_read_kept", lambda *args: None)
        return app.extensions["sk_push"]._load(table.id)[1]


def reference_document(app, table: Table) -> str:
    """The document as streams built it before their text was spliced: the table loaded, its
    last hand's ``events_json`` dumped whole (the bytes a phone must keep receiving)."""
    with app.app_context(), app.extensions["sk_sessionmaker"](bind=app.extensions["sk_reader"]) as session:
        row = store.read_table(session.connection(), table.id)
        state = service.load(session, row)
        last = state.hands[-1] if state.hands else None
        if last is None or last.kind != "log":
            return json.dumps({"version": row.version})
        return json.dumps(tablejson.events_json(state, last), separators=(",", ":"))


def kept_row(app, hand: int) -> snapshots.Kept | None:
    with app.extensions["sk_engine"].connect() as conn:
        return snapshots.of_hand(conn, hand)


def check_document(text: str) -> dict:
    doc = json.loads(text)
    if doc.get("state") is not None:
        assert doc["state"] == replay(HandSetup.from_json(doc["state"]["setup"]), doc["events"]).to_json()
    return doc


def test_a_stream_opens_on_a_read_not_a_replay(app, table, monkeypatch):
    table.add_summary(STOP_A)
    hand = table.start_live()
    table.append(hand, A_JUNK)
    expected = replayed_document(app, table, monkeypatch)
    replays = Replays(monkeypatch)
    plays = []
    monkeypatch.setattr(service, "_play_series", lambda *a: plays.append(a))  # never asked
    assert first_document(app, table) == expected
    assert replays.count == 0 and plays == []
    assert check_document(expected)["seq"] == 5


def test_a_fresh_processs_first_load_reads_the_kept_state(app, table, monkeypatch):
    hand = table.start_live()
    table.append(hand, A_JUNK[:3])
    body = table.api("GET", f"/hands/{hand}/events").get_data()
    restart()
    replays = Replays(monkeypatch)
    assert table.api("GET", f"/hands/{hand}/events").get_data() == body
    assert replays.count == 0
    # and the next tap is applied to that state, not to a replay
    table.append(hand, A_JUNK[3:4], 3)
    assert replays.count == 0
    assert check_document(first_document(app, table))["seq"] == 4


def test_every_append_keeps_the_state_with_the_new_version(app, table):
    hand = table.start_live()
    for seq, event in enumerate(A_JUNK):
        version = table.append(hand, [event], seq).get_json()["version"]
        kept = kept_row(app, hand)
        assert kept is not None and (kept.version, kept.seq) == (version, seq + 1)


def test_a_seat_phones_tap_keeps_the_state_too(app, table, client):
    hand = table.start_live()
    assert client.post(f"{table.url}/seat", data={"seat": "A"}).status_code < 400
    r = table.api("POST", f"/hands/{hand}/events", json={"seq": 0, "event": TURN[0]})
    assert r.status_code == 201, r.get_json()
    kept = kept_row(app, hand)
    assert kept is not None and (kept.version, kept.seq) == (r.get_json()["version"], 1)


def _undo(app, table, hand):
    assert table.api("POST", f"/hands/{hand}/undo", json={"seq": 5}).status_code == 200


def _replace_last(app, table, hand):
    with app.app_context():
        session = app.extensions["sk_sessionmaker"]()
        state = service.load(session, store.get_table(session, table.id))
        writes.replace_last_event(session, state, hand, 5, {"type": "capture", "player": "B", "cards": ["9j1"]})
        session.close()


def _edit_earlier(app, table, hand, first):
    winner_b = {"captures": {"B": ["1g", "3g", "8g"]}, "outcome": {"type": "stop", "winner": "B"}}
    r = table.api("PUT", f"/hands/{first}", json={"summary": winner_b}, headers={"If-Match": "*"})
    assert r.status_code == 200, r.get_json()


def _settings(app, table, hand):
    with app.app_context():
        session = app.extensions["sk_sessionmaker"]()
        stored = store.get_table(session, table.id)
        writes.configure(session, stored, "renamed", dict(stored.config))
        session.close()


def _delete_and_start_again(app, table, hand):
    assert table.api("DELETE", f"/hands/{hand}", headers={"If-Match": "*"}).status_code == 200
    table.start_live()


@pytest.mark.parametrize(
    "change", [_undo, _replace_last, _edit_earlier, _settings, _delete_and_start_again], ids=lambda f: f.__name__
)
def test_any_change_but_an_append_leaves_the_kept_state_behind(app, table, monkeypatch, change):
    first = table.add_summary(STOP_A)
    hand = table.start_live()
    table.append(hand, A_JUNK)
    if change is _edit_earlier:
        change(app, table, hand, first)
    else:
        change(app, table, hand)
    with app.extensions["sk_engine"].connect() as conn:
        assert service.kept_live_hand(conn, store.read_table(conn, table.id)) is None
    expected = replayed_document(app, table, monkeypatch)
    assert first_document(app, table) == expected
    check_document(expected)
    # and the next append keeps a state that is read again, the same as a replay
    doc = json.loads(expected)
    if doc.get("state") is not None:
        event = {"type": "capture", "player": "C", "cards": ["10j1"]}
        table.append(doc["hand"], [event], doc["seq"])
        expected = replayed_document(app, table, monkeypatch)
        replays = Replays(monkeypatch)
        assert first_document(app, table) == expected
        assert replays.count == 0


def test_a_snapshot_of_other_code_is_replayed(app, table, monkeypatch):
    hand = table.start_live()
    table.append(hand, A_JUNK[:2])
    expected = replayed_document(app, table, monkeypatch)
    monkeypatch.setattr("scorekeeper.engine.live.snapshot.code_version", lambda: "another-engine")
    replays = Replays(monkeypatch)
    assert first_document(app, table) == expected
    assert replays.count == 1


# -- many logs: the kept state against the replay, with undos and taps refused on the way ------

WALK = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def walk_app(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("walk")
    app = make_app(f"sqlite:///{tmp / 'walk.db'}", tmp)
    yield app
    close_app(app)


@WALK
@given(st.data())
def test_random_logs_with_undos_read_as_they_replay(walk_app, data):
    client = walk_app.test_client()
    r = client.post("/api/v1/tables", json={"players": ["A", "B", "C"], "first_dealer": "A"})
    table = Table(client, r.get_json())
    table.enter()
    hand = table.start_live()
    seq = 0
    for _ in range(data.draw(st.integers(1, 40))):
        body = table.api("GET", f"/hands/{hand}/events").get_json()
        if body["state"] is None:
            break
        if seq and data.draw(st.integers(0, 6)) == 0:
            assert table.api("POST", f"/hands/{hand}/undo", json={"seq": seq}).status_code == 200
            seq -= 1
        else:
            state = replay(HandSetup.from_json(body["state"]["setup"]), body["events"])
            r = table.api("POST", f"/hands/{hand}/events", json={"seq": seq, "event": data.draw(events_for(state))})
            assert r.status_code in (201, 422), r.get_json()
            seq = r.get_json()["seq"] if r.status_code == 201 else seq
        # this process's streams after the tap (its log's text kept from the tap before): the same bytes,
        # loaded in a session and, the table past its first load, on a connection
        watcher = walk_app.extensions["sk_push"]
        assert watcher._load(table.id)[1] == reference_document(walk_app, table)
        follower = watcher.follow(table.id)
        try:
            watcher._opened.add(table.id)
            assert watcher._load(table.id)[1] == reference_document(walk_app, table)
        finally:
            watcher.leave(follower)
        if data.draw(st.integers(0, 4)) == 0:  # now and then, a restart here
            with pytest.MonkeyPatch.context() as m:
                expected = replayed_document(walk_app, table, m)
            assert first_document(walk_app, table) == expected
            restart()
            assert expected == reference_document(walk_app, table)
            check_document(expected)
    with pytest.MonkeyPatch.context() as m:
        expected = replayed_document(walk_app, table, m)
    assert first_document(walk_app, table) == expected
    restart()
    assert expected == reference_document(walk_app, table)
    check_document(expected)


def test_a_streams_later_changes_are_read_as_a_load_reads_them(app, table, monkeypatch):
    """The kept state serves a process's first document of a table; the changes after it are
    read as a load reads them (what changed since, not the whole log for the kept state)."""
    hand = table.start_live()
    table.append(hand, A_JUNK[:2])
    with following(app, table) as watcher:
        restart()
        reads = counted(monkeypatch, service, "kept_live_hand")
        first = watcher._load(table.id)[1]
        table.append(hand, A_JUNK[2:3], 2)
        later = watcher._load(table.id)[1]
        assert reads == [1]
        assert json.loads(first)["seq"] == 2 and check_document(later)["seq"] == 3


def test_another_process_s_change_is_read_from_the_kept_state_where_the_rows_are_not_kept(app, table, monkeypatch):
    """A process whose first document of a table came from the kept state (after a restart) keeps
    none of its rows: the table's next change, made by another process, loaded the table whole,
    its series and its log replayed (a quarter of the workers' time after a restart, issue 32).
    It reads the kept state again, and sends the bytes a load gives."""
    hand = table.start_live()
    table.append(hand, A_JUNK[:2])
    with following(app, table) as watcher:
        first = first_document(app, table)
        table.append(hand, A_JUNK[2:4], 2)  # another process's tap: this one keeps nothing of it
        restart()
        expected = reference_document(app, table)
        restart()
        replays = Replays(monkeypatch)
        loads = counted(monkeypatch, store, "rows_at_one_version")
        whole_rows = counted(monkeypatch, store, "read_table")
        later = watcher._load(table.id)[1]
        # Nor the table's whole row, its settings unused here: its small row (a seventh of the
        # workers' time in the opening burst went to reading whole rows).
        assert (loads, replays.count, whole_rows) == ([], 0, [])
        assert later == expected
        assert json.loads(first)["seq"] == 2 and check_document(later)["seq"] == 4


def test_a_change_not_only_appends_is_read_from_the_kept_state_where_the_rows_are_kept(app, table, monkeypatch):
    """This process keeps the table's rows at a version (its own taps); another process then undid
    a tap and appended two: the rows cannot be caught up by the appends alone (the undo's version
    has no event), and a stream's document loaded the table whole. The kept state of its version
    is read instead."""
    hand = table.start_live()
    table.append(hand, A_JUNK[:3])
    with following(app, table) as watcher:
        key = next(k for k in service._rows if k[1] == table.id)
        rows_before = kept_of(key)
        assert table.api("POST", f"/hands/{hand}/undo", json={"seq": 3}).status_code == 200
        table.append(hand, A_JUNK[2:4], 2)  # another process's: this one kept nothing of them
        put_back(key, rows_before)
        loads = counted(monkeypatch, store, "rows_at_one_version")
        later = watcher._load(table.id)[1]
        assert loads == []
        restart()
        assert later == reference_document(app, table)
        assert check_document(later)["seq"] == 4


ODD_EVENTS = [
    {"type": "note", "text": '광팔이 \u00e9 "quoted" \\ back, comma', "n": 1.5, "big": 10**18, "none": None},
    {"nested": {"list": [1, [2, {"x": False}]], "e": 1e-7}, "empty": {}, "also": []},
    {"type": "end_turn"},
]


def test_a_kept_log_read_as_its_stored_text_is_the_log_the_json_type_reads(app, table, make_table):
    """``snapshots.kept_at`` reads the table's version, its last hand's snapshot and log in one
    statement, the events' stored text parsed in one call (not the JSON type's processing of each
    row): the same log, on SQLite and PostgreSQL, whatever the values; the log only while the
    snapshot is of the table's version."""
    from scorekeeper.store.models import Event

    hand = table.start_live()
    table.append(hand, A_JUNK[:2])
    with app.app_context(), app.extensions["sk_sessionmaker"]() as session:
        session.add_all(Event(hand_id=hand, seq=2 + i, event=e) for i, e in enumerate(ODD_EVENTS))
        session.commit()
        row = store.read_table(session.connection(), table.id)
        expected = store.events_by_hand(session, [hand])[hand]
        read = snapshots.kept_at(session.connection(), row.id)
        kept = snapshots.of_hand(session.connection(), hand)
    assert expected == [*A_JUNK[:2], *ODD_EVENTS]
    assert read == (row.version, hand, "log", kept, expected) and kept.version == row.version and kept.seq == 2
    assert json.dumps(read.events) == json.dumps(expected)  # the same types too (1.5 a float, 10**18 an int)
    store_touch(app, table)  # any change but an append: the snapshot is left behind
    empty = make_table()
    with app.extensions["sk_engine"].connect() as conn:
        moved = snapshots.kept_at(conn, row.id)
        assert moved.version > row.version and moved.kept == kept and moved.events == []
        assert snapshots.kept_at(conn, row.id + 1000) is None
        bare = store.read_table(conn, empty.id)
        assert snapshots.kept_at(conn, bare.id) == (bare.version, None, None, None, [])


def store_touch(app, table: Table) -> None:
    """Move the table's version as any change but an append does."""
    from sqlalchemy import update

    from scorekeeper.store.models import Table as TableRow

    with app.extensions["sk_engine"].begin() as conn:
        conn.execute(update(TableRow).where(TableRow.public_id == table.id).values(version=TableRow.version + 1))


def test_a_fresh_processs_first_document_reads_the_small_row_not_the_whole_one(app, table, monkeypatch):
    """After a restart every table's first document at once: its id, secrets and version (what the
    kept state and the streams' secrets need), not the whole row with its settings to parse. The
    secrets kept are those of the version the document is at."""
    hand = table.start_live()
    table.append(hand, A_JUNK[:3])
    restart()
    expected = reference_document(app, table)
    with following(app, table) as watcher:
        restart()
        whole = counted(monkeypatch, store, "read_table")
        version, text = watcher._load(table.id)
        assert text == expected and whole == []
        with app.extensions["sk_engine"].connect() as conn:
            row = store.PollRow(*store.poll_row(conn, table.id))
        assert watcher._secrets[table.id] == row and row.version == version == json.loads(text)["version"]
        # the next change, this process's own tap (it keeps the rows now), is made from the rows
        # kept at the small row's version: the whole row is not read for it either
        table.append(hand, A_JUNK[3:4], 3)
        whole.clear()
        later = watcher._load(table.id)[1]
        assert whole == [] and later == reference_document(app, table)


def test_a_first_document_takes_the_small_row_its_streams_open_read(app, table, monkeypatch):
    """The stream's open read the small row (``Watcher.note``): the document reads no row again;
    one noted at a version the table has since left matches no kept state, and the table is
    loaded as it is now."""
    hand = table.start_live()
    table.append(hand, A_JUNK[:3])
    restart()
    expected = reference_document(app, table)
    with app.extensions["sk_engine"].connect() as conn:
        row = store.PollRow(*store.poll_row(conn, table.id))
    watcher = app.extensions["sk_push"]
    reads = []
    for name in ("read_table", "poll_row"):
        real = getattr(store, name)
        monkeypatch.setattr(store, name, lambda *a, real=real, name=name: reads.append(name) or real(*a))
    follower = watcher.follow(table.id)
    try:
        watcher.note(row)
        restart()
        assert watcher._load(table.id) == (row.version, expected) and reads == []
    finally:
        watcher.leave(follower)
    table.append(hand, A_JUNK[3:4], 3)
    restart()
    expected = reference_document(app, table)
    follower = watcher.follow(table.id)
    try:
        watcher.note(row)  # as if the open read it before the tap
        restart()
        reads.clear()
        assert watcher._load(table.id) == (row.version + 1, expected) and reads == ["read_table"]
    finally:
        watcher.leave(follower)


def test_another_processs_tap_is_loaded_without_a_session(app, table, monkeypatch):
    """A stream's load of a tap made elsewhere, the table's rows kept here at the version before:
    the row and the appended events on one connection (no ORM session to open and close, a
    quarter of that load), the same bytes; anything but appends since: loaded as before."""
    hand = table.start_live()
    table.append(hand, A_JUNK[:2])
    with following(app, table) as watcher:
        watcher._load(table.id)
        real = app.extensions["sk_sessionmaker"]
        sessions = []
        monkeypatch.setitem(app.extensions, "sk_sessionmaker", lambda **kw: sessions.append(1) or real(**kw))
        key = next(k for k in service._rows if k[1] == table.id)
        before = kept_of(key)
        table.append(hand, A_JUNK[2:3], 2)
        put_back(key, before)  # as the other process keeps it: the version before the tap
        expected_version = version_of(app, table)
        sessions.clear()
        version, text = watcher._load(table.id)
        assert sessions == [] and version == expected_version
        assert text == reference_document(app, table)
        store_touch(app, table)  # not an append: the rows read again, in a session
        seen_past_the_app(app, table, expected_version + 1, monkeypatch)
        sessions.clear()
        version, text = watcher._load(table.id)
        assert sessions == [1] and version == expected_version + 1 and text == reference_document(app, table)


def seen_past_the_app(app, table: Table, version: int, monkeypatch) -> None:
    """``store_touch`` sends no note, as a change made past the app: on PostgreSQL the row the
    process keeps (``pollrows``) reaches ``version`` at the listener's next confirmation of them all
    (every ``REFRESH_S``, made short here); until then it answers the version before, by design."""
    from scorekeeper.web.server import pollrows

    rows = app.extensions["sk_poll_rows"]
    if not rows.keeps:
        return
    monkeypatch.setattr(pollrows, "REFRESH_S", 0.2)
    deadline = time.monotonic() + 5
    while (kept := rows.kept(table.id)) is not None and kept.version != version:
        assert time.monotonic() < deadline, "the change made past the app was never confirmed"
        time.sleep(0.02)


def version_of(app, table: Table) -> int:
    with app.extensions["sk_engine"].connect() as conn:
        return store.read_table(conn, table.id).version


def test_a_tap_after_a_streams_first_document_reads_no_snapshot(app, table, monkeypatch):
    """After a restart a process's first document of a table is read from the live hand's kept
    state; its first tap there loads the rows without that state again (one read fewer in the
    opening burst) and goes on from the replay the stream read, replaying nothing from the start."""
    hand = table.start_live()
    table.append(hand, A_JUNK[:2])
    with following(app, table):
        first_document(app, table)
        snapshot_reads = counted(monkeypatch, snapshots, "of_hand")
        replays = Replays(monkeypatch)
        answer = table.append(hand, A_JUNK[2:3], 2)
        assert (snapshot_reads, replays.count) == ([], 0)
        assert answer.get_json()["seq"] == 3
