"""Issue 32: a tap stored from what the process keeps, with no read (PostgreSQL).

Each append's note says the events it stored (``store.note_of``); a process that keeps the
table's rows moves them by it (``service.heard_appended``), so its next tap, or its streams'
document, reads nothing: the table's row kept true by ``LISTEN`` (``pollrows``), its hands and
logs at that very version. The write is a compare-and-set at that version, so a note not yet
heard costs a read, never a wrong answer: a conflict is answered as ever, and a key taken away
never writes.

Two apps on one database stand for two processes; the engine's replays are kept per Python
process (``tables.service``), so "the other process" is made by putting back what this one
kept before the other's tap and handing it the note PostgreSQL delivered.
"""

from __future__ import annotations

import json

import pytest

from scorekeeper.store import rows as store
from scorekeeper.tables import service
from tests.web.test_poll_rows import kept_here, listening, made_table, poll, reads_counted, seen_from, two_apps, until

__all__ = ["two_apps"]  # the fixture, used by name

heard_appended = service.heard_appended  # the real one: tests record the notes instead
A1 = {"type": "capture", "player": "A", "cards": ["1j1"]}
A2 = {"type": "capture", "player": "A", "cards": ["1j2"]}


@pytest.mark.parametrize(
    ("payload", "note"),
    [
        ("tbl:7", store.Note("tbl", 7)),
        ("tbl:7:keys", store.Note("tbl", 7, True)),
        (
            'tbl:9:+3.5.2:[{"type":"go","player":"A"},{"type":"stop","player":"B"}]',
            store.Note(
                "tbl",
                9,
                False,
                store.Appended(3, 5, 2, [{"type": "go", "player": "A"}, {"type": "stop", "player": "B"}]),
            ),
        ),
        ("tbl:9:+3.x.2:[]", store.Note("tbl", 9)),  # a tail it cannot read: the version alone
        ("tbl:9:+3.5:[]", store.Note("tbl", 9)),
        ("tbl:9:+3.5.2:{}", store.Note("tbl", 9)),
        ("tbl:9:+3.5.2:[", store.Note("tbl", 9)),
        ("tbl:x", None),
        ("nothing", None),
    ],
)
def test_a_note_says_the_version_and_an_appends_events(payload, note):
    assert store.note_of(payload) == note


def test_an_append_too_long_for_a_note_says_its_version_alone():
    short = store.appended_tail(1, 2, 3, "[1]")
    assert short == ":+1.2.3:[1]"
    long = "[" + ",".join(["1"] * 4_000) + "]"
    assert store.appended_tail(1, 2, 3, long) == ""
    assert len(f"{'x' * 32}:{2**62}" + store.appended_tail(1, 2, 3, "[" + "1," * 3_900 + "1]")) <= 8_000


def reads_of_rows(monkeypatch) -> list[str]:
    """Every read of a table's row, hands or logs (the poll row's counted apart, ``reads_counted``)."""
    reads: list[str] = []
    for name in ("read_table", "rows_at_one_version", "appended_since", "poll_row"):
        real = getattr(store, name)

        def counting(*args, _real=real, _name=name, **kwargs):
            reads.append(_name)
            return _real(*args, **kwargs)

        monkeypatch.setattr(store, name, counting)
    return reads


def kept_of(key: tuple[int, str]) -> tuple:
    """What this process keeps of a table (its rows, its live hand), to put back (``put_back``)."""
    return service._rows.get(key), service._lives.get(key)


def put_back(key: tuple[int, str], kept: tuple) -> None:
    """``kept`` put back: what a process that did not make the change meanwhile keeps (the apps
    here are one Python process, and each change moves what the process keeps)."""
    for memo, value in zip((service._rows, service._lives), kept, strict=True):
        if value is None:
            memo.pop(key, None)
        else:
            memo.put(key, value)


def another_process_appends(monkeypatch, there_table, hand: int, seq: int, event: dict) -> list[store.Note]:
    """``there_table``'s process appends ``event``; this process kept the table's rows from before
    it (put back) and is handed the note PostgreSQL delivered instead of applying it at once. Every
    note is recorded from then on, not applied: both apps' listeners hear it, and the replays
    they move are one process's here (``heard_appended`` applies one by hand)."""
    key = (service.kept_id(there_table.id), there_table.id)
    before = kept_of(key)
    assert before[0] is not None, "this process keeps the table's rows"
    notes: list[store.Note] = []
    monkeypatch.setattr(service, "heard_appended", notes.append)
    assert there_table.api("POST", f"/hands/{hand}/events", json={"seq": seq, "event": event}).status_code == 201
    put_back(key, before)  # as a process that did not write it keeps them
    until(lambda: any(n.appended is not None and n.appended.start == seq for n in notes), "the append's note")
    return notes


@pytest.mark.postgres
def test_a_tap_after_another_processs_tap_reads_nothing(two_apps, monkeypatch):
    here, there = two_apps
    table, client = kept_here(here)
    hand = table.start_live()
    table.append(hand, [A1])
    assert poll(client, table).status_code == 200  # the row kept at the newest version
    elsewhere = seen_from(there, table)
    for note in another_process_appends(monkeypatch, elsewhere, hand, 1, A2):
        heard_appended(note)
    stored = elsewhere.api("GET", f"/hands/{hand}/events").get_json()
    until(lambda: poll(client, table).get_json()["version"] == stored["version"], "the note heard here")

    reads = reads_of_rows(monkeypatch)
    answer = table.api("POST", f"/hands/{hand}/events", json={"seq": 2, "event": {"type": "end_turn"}})
    assert answer.status_code == 201, answer.get_json()
    assert reads == [], "a tap with the rows kept at the table's version read them"
    body = answer.get_json()
    assert (body["seq"], body["version"]) == (3, stored["version"] + 1)
    assert (
        elsewhere.api("GET", f"/hands/{hand}/events").get_json()["events"]
        == body["events"]
        == [*stored["events"], body["events"][-1]]
    )


@pytest.mark.postgres
def test_without_the_note_the_tap_reads_and_is_stored_as_ever(two_apps, monkeypatch):
    """The rows kept a version behind (the other process's note not used): the tap is stored
    after a read, at the right place."""
    here, there = two_apps
    table, client = kept_here(here)
    hand = table.start_live()
    table.append(hand, [A1])
    elsewhere = seen_from(there, table)
    another_process_appends(monkeypatch, elsewhere, hand, 1, A2)  # its note dropped
    key = (service.kept_id(table.id), table.id)
    behind = kept_of(key)
    stored = elsewhere.api("GET", f"/hands/{hand}/events").get_json()
    put_back(key, behind)  # the other process's read above is not this one's
    until(lambda: poll(client, table).get_json()["version"] == stored["version"], "the note heard here")
    reads = reads_of_rows(monkeypatch)
    answer = table.api("POST", f"/hands/{hand}/events", json={"seq": 2, "event": {"type": "end_turn"}})
    assert answer.status_code == 201, answer.get_json()
    assert reads, "the rows kept were a version behind: read"
    assert answer.get_json()["events"][:2] == [A1, A2]


def deaf(monkeypatch, app) -> None:
    """``app``'s process hears no note from now on (a note on its way, not yet heard)."""
    monkeypatch.setattr(app.extensions["sk_poll_rows"], "hear", lambda note: None)
    monkeypatch.setattr(service, "heard_appended", lambda note: None)


@pytest.mark.postgres
def test_a_tap_on_a_state_kept_behind_is_a_conflict_as_ever(two_apps, monkeypatch):
    """This process has not heard the other's tap: its kept row and rows say the log is one event
    long; a phone that saw the same taps the same seq. The compare-and-set stores nothing and the
    read path answers the conflict with the log as stored."""
    here, there = two_apps
    table, client = kept_here(here)
    hand = table.start_live()
    table.append(hand, [A1])
    assert poll(client, table).status_code == 200
    listening(here)
    deaf(monkeypatch, here)
    elsewhere = seen_from(there, table)
    key = (service.kept_id(table.id), table.id)
    before = kept_of(key)
    elsewhere.append(hand, [A2], start=1)
    put_back(key, before)
    answer = table.api("POST", f"/hands/{hand}/events", json={"seq": 1, "event": {"type": "end_turn"}})
    assert answer.status_code == 409
    body = answer.get_json()
    assert body["errors"][0]["code"] == "conflict"
    assert body["events"] == [A1, A2]
    assert elsewhere.api("GET", f"/hands/{hand}/events").get_json()["events"] == [A1, A2]


@pytest.mark.postgres
def test_a_key_taken_away_never_appends_by_the_kept_row(two_apps, monkeypatch):
    """The edit key rotated by another process whose note this one has not heard: this process
    still keeps the old row and the rows at its version, yet the old key stores nothing (the
    rotation moved the version: the compare-and-set fails, and the read path refuses the key)."""
    here, there = two_apps
    table, client = kept_here(here)
    hand = table.start_live()
    table.append(hand, [A1])
    assert poll(client, table).status_code == 200
    listening(here)
    deaf(monkeypatch, here)
    elsewhere = seen_from(there, table)
    rotated = elsewhere.api("POST", "/keys", json={"rotate": "edit"})
    assert rotated.status_code == 200, rotated.get_json()
    new_key = rotated.get_json()["edit_key"]
    kept = here.extensions["sk_poll_rows"].kept(table.id)
    now = elsewhere.api("GET", "", key=new_key).get_json()["version"]
    assert kept is not None and kept.version < now, "the rotation is not heard here"
    answer = table.api("POST", f"/hands/{hand}/events", json={"seq": 1, "event": A2})
    assert answer.status_code in (401, 403), answer.get_json()
    assert elsewhere.api("GET", f"/hands/{hand}/events", key=new_key).get_json()["events"] == [A1]


@pytest.mark.postgres
def test_a_streams_document_of_another_processs_tap_reads_nothing(two_apps, monkeypatch):
    """The push streams of this process send the other process's tap from the rows its note
    moved: the document the API answers, and nothing read for it."""
    here, there = two_apps
    table, _client = kept_here(here)
    hand = table.start_live()
    table.append(hand, [A1])
    watcher = here.extensions["sk_push"]
    follower = watcher.follow(table.id, table.edit_key)
    try:
        watcher.note(here.extensions["sk_poll_rows"].get(table.id))
        elsewhere = seen_from(there, table)
        for note in another_process_appends(monkeypatch, elsewhere, hand, 1, A2):
            heard_appended(note)
            watcher.changed(note.public_id, note.version)
        reads = reads_of_rows(monkeypatch)
        version, text = watcher.delta(table.id, follower.version)
        assert reads == [], "the stream's document read the table"
        stored = elsewhere.api("GET", f"/hands/{hand}/events").get_json()
        sent = json.loads(text)
        assert version == sent["version"] == stored["version"]
        assert (sent["events"], sent["state"], sent["seq"]) == (stored["events"], stored["state"], 2)
    finally:
        watcher.leave(follower)


@pytest.mark.postgres
def test_a_phone_behind_the_log_is_answered_the_conflict_without_a_load(two_apps, monkeypatch):
    """The phone taps at a seq the log has passed: the conflict with the log as stored, from the
    state kept here once one small read says the table is still at its version."""
    here, _there = two_apps
    table, client = kept_here(here)
    hand = table.start_live()
    table.append(hand, [A1, A2])
    assert poll(client, table).status_code == 200
    reads = reads_of_rows(monkeypatch)
    polled = reads_counted(monkeypatch, here)
    answer = table.api("POST", f"/hands/{hand}/events", json={"seq": 1, "event": {"type": "end_turn"}})
    assert answer.status_code == 409
    body = answer.get_json()
    assert (body["errors"][0]["code"], body["errors"][0]["path"]) == ("conflict", "seq")
    assert (body["events"], body["seq"]) == ([A1, A2], 2)
    assert reads == [] and polled == [table.id], "one small read, no load"


@pytest.mark.postgres
def test_a_phone_ahead_of_the_state_kept_here_is_stored(two_apps, monkeypatch):
    """This process has not heard the other's tap; the phone has: its tap at the log's true length
    is not answered as a conflict from the state kept a version behind, but stored."""
    here, there = two_apps
    table, client = kept_here(here)
    hand = table.start_live()
    table.append(hand, [A1])
    assert poll(client, table).status_code == 200
    listening(here)
    deaf(monkeypatch, here)
    elsewhere = seen_from(there, table)
    key = (service.kept_id(table.id), table.id)
    before = kept_of(key)
    elsewhere.append(hand, [A2], start=1)
    put_back(key, before)
    answer = table.api("POST", f"/hands/{hand}/events", json={"seq": 2, "event": {"type": "end_turn"}})
    assert answer.status_code == 201, answer.get_json()
    assert answer.get_json()["events"][:2] == [A1, A2]


@pytest.mark.postgres
def test_a_stream_only_process_sends_another_processs_tap_without_a_read(two_apps, monkeypatch):
    """A process that only streams the table (its first document read from the hand's kept
    snapshot, no rows loaded) moves that hand by the next append's note: nothing read."""
    here, there = two_apps
    elsewhere = seen_from(there, made_table(there))
    hand = elsewhere.start_live()
    elsewhere.append(hand, [A1])
    service.forget()  # this process has loaded nothing of the table
    watcher = here.extensions["sk_push"]
    follower = watcher.follow(elsewhere.id, elsewhere.edit_key)
    try:
        watcher.note(here.extensions["sk_poll_rows"].get(elsewhere.id))
        first, _text = watcher.delta(elsewhere.id, 1)
        assert not service.knows(here.extensions["sk_poll_rows"].get(elsewhere.id)), "no rows loaded here"
        kept = (service._hands.get(hand), dict(service._lives))
        notes: list[store.Note] = []
        monkeypatch.setattr(service, "heard_appended", notes.append)
        elsewhere.append(hand, [A2], start=1)
        service.forget()  # what the other process's own write kept is not this one's
        service._hands.put(hand, kept[0])
        service._lives.update(kept[1])
        until(lambda: any(n.appended is not None and n.appended.start == 1 for n in notes), "the append's note")
        for note in notes:
            heard_appended(note)
            watcher.changed(note.public_id, note.version)
        reads = reads_of_rows(monkeypatch)
        version, text = watcher.delta(elsewhere.id, first + 1)
        assert reads == [], "the stream's document read the table"
        stored = elsewhere.api("GET", f"/hands/{hand}/events").get_json()
        sent = json.loads(text)
        assert version == sent["version"] == stored["version"] == first + 1
        assert (sent["events"], sent["state"], sent["seq"]) == (stored["events"], stored["state"], 2)
    finally:
        watcher.leave(follower)
