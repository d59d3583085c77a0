"""Issue 32 on SQLite: a tap and a stream's document from what the process keeps, another
process's taps read as their events alone.

SQLite sends no note: a process learns that another one appended by the table's version (its
poll row, or the watcher's version check). The rows it keeps at the version before then need only
the events appended since (``store.appended_since``): not the table's whole row, its hands or
its logs. A tap is then stored by the compare-and-set at the version read, so whatever changed
meanwhile stores nothing and the read path answers as it always did: a conflict with the log as
stored, a key taken away refused.

Two apps on one SQLite file stand for two processes; the engine's replays are kept per Python
process (``tables.service``), so "the other process" is made by putting back what this one kept
before the other's tap (``tests/web/test_kept_appends.py`` does the same on PostgreSQL).
"""

from __future__ import annotations

import json

import pytest

from scorekeeper.store import snapshots
from scorekeeper.tables import service
from scorekeeper.web import close_app
from tests.conftest import make_app
from tests.web.test_kept_appends import A1, A2, kept_of, put_back, reads_of_rows
from tests.web.test_poll_rows import made_table, seen_from

END_TURN = {"type": "end_turn"}


@pytest.fixture
def two_sqlite_apps(tmp_path):
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    here = make_app(url, tmp_path)
    there = make_app(url, tmp_path, AUTO_MIGRATE=False)
    yield here, there
    for app in (here, there):
        close_app(app)


def put_back_after(table, do) -> None:
    """``do()`` as another process: this one keeps the table's rows as they were before it."""
    key = (service.kept_id(table.id), table.id)
    before = kept_of(key)
    assert before[0] is not None, "this process keeps the table's rows"
    do()
    put_back(key, before)


def test_a_tap_after_another_processs_tap_reads_its_events_alone(two_sqlite_apps, monkeypatch):
    here, there = two_sqlite_apps
    table = made_table(here)
    hand = table.start_live()
    table.append(hand, [A1])
    elsewhere = seen_from(there, table)
    put_back_after(table, lambda: elsewhere.append(hand, [A2], start=1))
    reads = reads_of_rows(monkeypatch)
    answer = table.api("POST", f"/hands/{hand}/events", json={"seq": 2, "event": END_TURN})
    assert answer.status_code == 201, answer.get_json()
    assert reads == ["appended_since"], "the tap read more than the other process's event"
    stored = elsewhere.api("GET", f"/hands/{hand}/events").get_json()
    body = answer.get_json()
    assert body == stored
    assert (body["events"], body["seq"]) == ([A1, A2, END_TURN], 3)


def test_a_phone_behind_another_processs_tap_is_answered_its_conflict(two_sqlite_apps, monkeypatch):
    """The phone has not seen the other process's tap: the conflict with the log as stored."""
    here, there = two_sqlite_apps
    table = made_table(here)
    hand = table.start_live()
    table.append(hand, [A1])
    elsewhere = seen_from(there, table)
    put_back_after(table, lambda: elsewhere.append(hand, [A2], start=1))
    answer = table.api("POST", f"/hands/{hand}/events", json={"seq": 1, "event": END_TURN})
    assert answer.status_code == 409
    body = answer.get_json()
    assert (body["errors"][0]["code"], body["errors"][0]["path"]) == ("conflict", "seq")
    assert (body["events"], body["seq"]) == ([A1, A2], 2)
    assert elsewhere.api("GET", f"/hands/{hand}/events").get_json()["events"] == [A1, A2]


def test_a_key_taken_away_by_another_process_never_appends(two_sqlite_apps):
    """The edit key rotated by the other process: the rows kept here are a version behind, yet
    the old key stores nothing (the row read says so; the rotation is no append to catch up)."""
    here, there = two_sqlite_apps
    table = made_table(here)
    hand = table.start_live()
    table.append(hand, [A1])
    elsewhere = seen_from(there, table)
    rotated = {}

    def rotate():
        answer = elsewhere.api("POST", "/keys", json={"rotate": "edit"})
        assert answer.status_code == 200, answer.get_json()
        rotated.update(answer.get_json())

    put_back_after(table, rotate)
    answer = table.api("POST", f"/hands/{hand}/events", json={"seq": 1, "event": A2})
    assert answer.status_code in (401, 403), answer.get_json()
    got = elsewhere.api("GET", f"/hands/{hand}/events", key=rotated["edit_key"]).get_json()
    assert got["events"] == [A1]


def test_after_another_processs_undo_the_tap_reads_the_log_again(two_sqlite_apps, monkeypatch):
    """Not only appends followed (an undo, then a tap): the events since cannot say it, and the
    tap reads the log as stored before it is checked and stored."""
    here, there = two_sqlite_apps
    table = made_table(here)
    hand = table.start_live()
    table.append(hand, [A1, A2])
    elsewhere = seen_from(there, table)

    def undo_and_tap():
        undone = elsewhere.api("POST", f"/hands/{hand}/undo", json={"seq": 2})
        assert undone.status_code == 200, undone.get_json()
        elsewhere.append(hand, [END_TURN], start=1)

    put_back_after(table, undo_and_tap)
    reads = reads_of_rows(monkeypatch)
    answer = table.api("POST", f"/hands/{hand}/events", json={"seq": 2, "event": A2})
    assert "appended_since" in reads and len(reads) > 1, "the log was read again"
    stored = elsewhere.api("GET", f"/hands/{hand}/events").get_json()
    if answer.status_code == 201:
        assert stored["events"] == [A1, END_TURN, A2] == answer.get_json()["events"]
    else:  # the engine refuses A2 after the end of A's turn: nothing stored
        assert answer.status_code == 422, answer.get_json()
        assert stored["events"] == [A1, END_TURN]


def test_a_streams_document_of_another_processs_tap_reads_no_table_row(two_sqlite_apps, monkeypatch):
    """The push streams of this process send the other process's tap from the rows kept here and
    the events appended since: the document the API answers, the table's row not read (the
    version the watcher's check found is the one caught up to; the events since prove that
    nothing but appends changed, the secrets kept among it)."""
    here, there = two_sqlite_apps
    table = made_table(here)
    hand = table.start_live()
    table.append(hand, [A1])
    watcher = here.extensions["sk_push"]
    follower = watcher.follow(table.id, table.edit_key)
    try:
        watcher.note(here.extensions["sk_poll_rows"].get(table.id))
        elsewhere = seen_from(there, table)
        put_back_after(table, lambda: elsewhere.append(hand, [A2], start=1))
        stored = elsewhere.api("GET", f"/hands/{hand}/events").get_json()
        watcher.changed(table.id, stored["version"])
        reads = reads_of_rows(monkeypatch)
        assert follower.version == stored["version"], "the stream rung for the change"
        version, text = watcher.delta(table.id, follower.version)
        assert reads == ["appended_since"], "the stream's document read more than the other process's event"
        sent = json.loads(text)
        assert version == sent["version"] == stored["version"]
        assert (sent["events"], sent["state"], sent["seq"]) == (stored["events"], stored["state"], 2)
    finally:
        watcher.leave(follower)


def test_a_stream_only_process_sends_another_processs_tap_from_its_events(two_sqlite_apps, monkeypatch):
    """A process that only streams the table (its first document read from the hand's kept
    snapshot, no rows loaded) moves that hand by the events appended since: not the snapshot and
    the whole log read again for each tap."""
    here, there = two_sqlite_apps
    elsewhere = seen_from(there, made_table(there))
    hand = elsewhere.start_live()
    elsewhere.append(hand, [A1])
    service.forget()  # this process has loaded nothing of the table
    watcher = here.extensions["sk_push"]
    follower = watcher.follow(elsewhere.id, elsewhere.edit_key)
    try:
        watcher.note(here.extensions["sk_poll_rows"].get(elsewhere.id))
        first, _text = watcher.delta(elsewhere.id, 1)
        kept = (service._hands.get(hand), dict(service._lives))
        elsewhere.append(hand, [A2], start=1)
        service.forget()  # what the other process's own write kept is not this one's
        service._hands.put(hand, kept[0])
        service._lives.update(kept[1])
        stored = elsewhere.api("GET", f"/hands/{hand}/events").get_json()
        watcher.changed(elsewhere.id, stored["version"])
        reads = reads_of_rows(monkeypatch)
        real_kept_at = snapshots.kept_at
        monkeypatch.setattr(snapshots, "kept_at", lambda *a: reads.append("kept_at") or real_kept_at(*a))
        version, text = watcher.delta(elsewhere.id, first + 1)
        assert reads == ["appended_since"], "the stream's document read more than the other process's event"
        sent = json.loads(text)
        assert version == sent["version"] == stored["version"] == first + 1
        assert (sent["events"], sent["state"], sent["seq"]) == (stored["events"], stored["state"], 2)
    finally:
        watcher.leave(follower)
