"""Issue 32: a tap stored from the live hand alone (``service.live_for_tap``, ``writes.append_live``).

A plain tap needs the table's row (the key's check and the version) and the live hand's log and
state, not the table's hands, logs and series: after a restart the first tap of a table reads the
hand's kept snapshot (one read) where it loaded the table whole, and each tap after it reads
nothing but the row (SQLite) or nothing at all (PostgreSQL, the row kept true by ``LISTEN``).
Its answer is the read path's, byte for byte; whatever else (a hand's last event, a refusal, a
conflict) is answered as ever.
"""

from __future__ import annotations

import pytest

from scorekeeper.store import rows as store
from scorekeeper.store import snapshots
from scorekeeper.tables import service
from tests.web.test_hand_states import A_JUNK, counted, restart
from tests.web.test_kept_appends import reads_of_rows


def loaded_answer(app, table, hand: int) -> bytes:
    """The hand's events as a process that keeps nothing answers them: the table loaded whole."""
    restart()
    answer = table.api("GET", f"/hands/{hand}/events")
    assert answer.status_code == 200
    return answer.data


def test_the_first_tap_after_a_restart_reads_the_hands_snapshot_not_the_table(app, table, monkeypatch):
    hand = table.start_live()
    table.append(hand, A_JUNK[:3])
    restart()
    reads = reads_of_rows(monkeypatch)
    snapshot_reads = counted(monkeypatch, snapshots, "kept_at")
    answer = table.api("POST", f"/hands/{hand}/events", json={"seq": 3, "event": A_JUNK[3]})
    assert answer.status_code == 201, answer.get_json()
    assert reads == [] and snapshot_reads == [1], "the table's hands and logs were read for a tap"
    # the next tap reads nothing more: the hand kept here moved with the first
    reads.clear()
    snapshot_reads.clear()
    again = table.api("POST", f"/hands/{hand}/events", json={"seq": 4, "event": A_JUNK[4]})
    assert again.status_code == 201, again.get_json()
    assert reads == [] and snapshot_reads == []
    monkeypatch.undo()
    assert again.data == loaded_answer(app, table, hand), "the answer is not the read path's"
    assert again.get_json()["events"] == A_JUNK[:5]


def test_a_tap_answers_the_read_paths_bytes(app, table, monkeypatch):
    """The same taps on two tables, one stored from the live hand, one loaded (the live path
    turned off): the answers are the same but for the hand's id."""
    from scorekeeper.web.api import routes

    made = table.client.post("/api/v1/tables", json={"players": ["A", "B", "C"]}).get_json()
    other = type(table)(table.client, made)
    other.enter()
    hands = [t.start_live() for t in (table, other)]
    live = counted(monkeypatch, routes, "live_for_edit")
    for seq, event in enumerate(A_JUNK[:4]):
        fast = table.api("POST", f"/hands/{hands[0]}/events", json={"seq": seq, "event": event})
        with pytest.MonkeyPatch.context() as m:
            m.setattr(routes, "live_for_edit", lambda public_id, hand_id: None)
            slow = other.api("POST", f"/hands/{hands[1]}/events", json={"seq": seq, "event": event})
        assert (fast.status_code, slow.status_code) == (201, 201)
        assert fast.data.replace(b'"hand":%d' % hands[0], b'"hand":H') == slow.data.replace(
            b'"hand":%d' % hands[1], b'"hand":H'
        )
        assert sorted(fast.headers.items()) == sorted(slow.headers.items())
    assert live, "the live path was not taken"


def test_a_hands_last_event_is_stored_by_the_read_path_with_its_history(app, table, monkeypatch):
    """The tap that ends the hand: not stored from the hand alone (the series counts it and the
    history names the hand's end, in the event's transaction)."""
    from scorekeeper.tables import writes
    from tests.web.conftest import GO_PIBAK

    hand = table.start_live()
    table.append(hand, GO_PIBAK[:-1])
    restart()
    live = counted(monkeypatch, writes, "append_live")
    answer = table.api("POST", f"/hands/{hand}/events", json={"seq": len(GO_PIBAK) - 1, "event": GO_PIBAK[-1]})
    assert answer.status_code == 201, answer.get_json()
    assert live == [1] and answer.get_json()["state"] is None, "the hand is over"
    entries = table.api("GET", "/history", key=table.view_key).get_json()["history"]
    assert [e["kind"] for e in entries] == ["hand_added", "hand_finished"]


def test_a_refused_event_stores_nothing_and_is_answered_as_ever(app, table):
    hand = table.start_live()
    table.append(hand, A_JUNK[:2])
    twice = {"type": "capture", "player": "A", "cards": ["1j1"]}  # a card already captured
    answer = table.api("POST", f"/hands/{hand}/events", json={"seq": 2, "event": twice})
    assert answer.status_code == 422, answer.get_json()
    assert table.api("GET", f"/hands/{hand}/events").get_json()["events"] == A_JUNK[:2]


def test_a_key_that_only_views_never_taps_from_the_kept_hand(app, table):
    hand = table.start_live()
    table.append(hand, A_JUNK[:2])
    answer = table.api("POST", f"/hands/{hand}/events", key=table.view_key, json={"seq": 2, "event": A_JUNK[2]})
    assert answer.status_code == 403, answer.get_json()
    assert table.api("GET", f"/hands/{hand}/events").get_json()["events"] == A_JUNK[:2]


def test_a_tap_on_a_hand_that_is_not_the_live_one_is_refused_as_ever(app, table):
    hand = table.start_live()
    table.append(hand, A_JUNK[:2])
    answer = table.api("POST", f"/hands/{hand + 1000}/events", json={"seq": 2, "event": A_JUNK[2]})
    assert answer.status_code == 404, answer.get_json()


def test_after_an_undo_the_tap_lands_on_the_log_as_stored(app, table):
    """An undo moves the version with no event: the hand kept from before it is not used."""
    hand = table.start_live()
    table.append(hand, A_JUNK[:3])
    assert table.api("POST", f"/hands/{hand}/undo", json={"seq": 3}).status_code == 200
    answer = table.api("POST", f"/hands/{hand}/events", json={"seq": 2, "event": A_JUNK[3]})
    assert answer.status_code == 201, answer.get_json()
    assert answer.get_json()["events"] == [*A_JUNK[:2], A_JUNK[3]]
    restart()
    assert table.api("GET", f"/hands/{hand}/events").get_json()["events"] == [*A_JUNK[:2], A_JUNK[3]]


def test_the_row_kept_answers_a_tap_with_the_store(app, table):
    """Whatever path stored it, the stored log is the answered one (read back by a fresh process)."""
    hand = table.start_live()
    for seq, event in enumerate(A_JUNK[:5]):
        if seq == 2:
            restart()
        assert table.api("POST", f"/hands/{hand}/events", json={"seq": seq, "event": event}).status_code == 201
    restart()
    with app.app_context(), app.extensions["sk_engine"].connect() as conn:
        row = store.PollRow(*store.poll_row(conn, table.id))
        assert service.kept_live_hand(conn, row).events == A_JUNK[:5]


def test_a_tap_is_checked_against_its_versions_log_not_an_older_replay(app, table):
    """The hand's replay memo holds an older log (a read that raced the last tap replayed it):
    the hand kept with the table's version is its own log, and the tap lands after it. (After a
    restart: the process keeps the live hand, not the table's rows.)"""
    from scorekeeper.engine.live.hand import HandSetup, replay

    hand = table.start_live()
    table.append(hand, A_JUNK[:3])
    restart()
    assert table.api("POST", f"/hands/{hand}/events", json={"seq": 3, "event": A_JUNK[3]}).status_code == 201
    newest = service._hands.get(hand)
    older = newest.events[:2]
    service._hands.put(hand, service._HandKept(newest.setup, older, replay(HandSetup.from_json(newest.setup), older)))
    answer = table.api("POST", f"/hands/{hand}/events", json={"seq": 4, "event": A_JUNK[4]})
    assert answer.status_code == 201, answer.get_json()
    assert answer.get_json()["events"] == A_JUNK[:5]
