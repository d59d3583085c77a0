"""The replays kept between requests (web.service) are reused only for equal inputs.

Every answer is checked against a replay from scratch by the engine.
"""

from __future__ import annotations

import pytest

from scorekeeper.engine.live.hand import HandSetup, replay
from scorekeeper.web import close_app
from tests.conftest import make_app

A_JUNK = [{"type": "capture", "player": "A", "cards": [c]} for c in ("1j1", "1j2", "2j1", "2j2")]
B_JUNK = {"type": "capture", "player": "B", "cards": ["3j1"]}
STOP = {"captures": {"A": ["1g", "3g", "8g"]}, "outcome": {"type": "stop", "winner": "A"}}


def _events(table, hand_id) -> dict:
    body = table.api("GET", f"/hands/{hand_id}/events").get_json()
    state = body["state"]
    assert state == replay(HandSetup.from_json(state["setup"]), body["events"]).to_json()
    return body


def test_a_grown_log_and_a_replaced_event(table):
    hand = table.start_live()
    for seq, event in enumerate(A_JUNK[:3]):
        table.append(hand, [event], seq)
        assert _events(table, hand)["seq"] == seq + 1
    # Undo, then another event in its place: the same length, a different log.
    assert table.api("POST", f"/hands/{hand}/undo", json={"seq": 3}).status_code == 200
    table.append(hand, [B_JUNK], 2)
    assert _events(table, hand)["events"][2] == B_JUNK


def test_an_edited_earlier_hand_changes_the_live_setup(table):
    first = table.add_summary(STOP)
    hand = table.start_live()
    table.append(hand, A_JUNK[:2])
    assert _events(table, hand)["state"]["setup"]["dealer"] == "A"
    r = table.api(
        "PUT",
        f"/hands/{first}",
        json={"summary": STOP | {"captures": {"B": ["1g", "3g", "8g"]}, "outcome": {"type": "stop", "winner": "B"}}},
        headers={"If-Match": "*"},
    )
    assert r.status_code == 200, r.get_json()
    assert _events(table, hand)["state"]["setup"]["dealer"] == "B"


def test_two_databases_with_the_same_ids(tmp_path):
    apps = [make_app(f"sqlite:///{tmp_path / f'{n}.db'}", tmp_path) for n in ("one", "two")]
    try:
        seen = []
        for app, event in zip(apps, (A_JUNK[0], B_JUNK)):
            client = app.test_client()
            created = client.post("/api/v1/tables", json={"players": ["A", "B", "C"]}).get_json()
            key = {"X-Table-Key": created["edit_key"]}
            base = f"/api/v1/tables/{created['id']}"
            hand = client.post(f"{base}/hands", json={"log": {}}, headers=key).get_json()["id"]
            assert (
                client.post(f"{base}/hands/{hand}/events", json={"seq": 0, "event": event}, headers=key).status_code
                == 201
            )
            body = client.get(f"{base}/hands/{hand}/events", headers=key).get_json()
            seen.append((hand, body["events"], body["state"]["players"]))
        assert seen[0][0] == seen[1][0]  # the same hand id in both databases
        assert seen[0][1:] != seen[1][1:]
    finally:
        for app in apps:
            close_app(app)


# -- another process's changes: the rows kept here are caught up, or read again ---------------


def _other_process(app, table_id: str, change) -> None:
    """Run ``change(session, table, live_hand)`` through the store alone, as another worker
    would: this process's kept rows and answers hear nothing of it."""
    from scorekeeper.store import rows as store

    with app.app_context():
        session = app.extensions["sk_sessionmaker"]()
        try:
            table = store.get_table(session, table_id)
            change(session, table, store.hands(session, table)[-1])
        finally:
            session.close()


OTHER_CHANGES = {
    "one append": lambda s, t, h: store_append(s, t, h, [B_JUNK]),
    "three appends": lambda s, t, h: store_append(s, t, h, [B_JUNK, A_JUNK[3], {"type": "end_turn"}]),
    "an undo": lambda s, t, h: store_undo(s, t, h),
    "an undo, then an append": lambda s, t, h: (store_undo(s, t, h), store_append(s, t, h, [B_JUNK])),
    "an append, an undo, an append": lambda s, t, h: (
        store_append(s, t, h, [B_JUNK]),
        store_undo(s, t, h),
        store_append(s, t, h, [A_JUNK[3]]),
    ),
    "the log replaced whole": lambda s, t, h: store_replace_log(s, t, h),
    "a renamed table": lambda s, t, h: store_rename(s, t),
}


def store_append(session, table, hand, events):
    """Each event appended as its own write, unchecked (the store's row writers alone)."""
    from scorekeeper.store import rows as store

    for event in events:
        store.lock_table(session, table)
        store.add_events(session, table, hand, store.event_count(session, hand), [event])
        store.commit(session)


def store_undo(session, table, hand):
    from scorekeeper.store import rows as store

    store.lock_table(session, table)
    store.drop_last_event(session, table, hand, store.event_count(session, hand) - 1)
    store.commit(session)


def store_replace_log(session, table, hand):
    """Every event deleted and stored again, the first one different, the log one longer: what
    an edit of the record would leave (one change of the table's version)."""
    from sqlalchemy import delete

    from scorekeeper.store import rows as store
    from scorekeeper.store.models import Event

    table = store.lock_table(session, table)
    log = store.events(session, hand)
    session.execute(delete(Event).where(Event.hand_id == hand.id))
    session.add_all([Event(hand_id=hand.id, seq=i, event=e) for i, e in enumerate([B_JUNK, *log[1:], A_JUNK[3]])])
    store.touch(session, table)
    session.commit()


def store_rename(session, table):
    from scorekeeper.store import rows as store

    store.update_config(session, table, "renamed", table.config)


@pytest.mark.parametrize("change", list(OTHER_CHANGES))
def test_another_processs_change_is_seen_exactly(app, change):
    """Whatever another process changed, this one answers what a process with nothing kept
    answers; an append (or several) is caught up from the new events alone."""
    from scorekeeper.store import rows as store
    from scorekeeper.tables import service
    from scorekeeper.web.server import answers

    client = app.test_client()
    created = client.post("/api/v1/tables", json={"players": ["A", "B", "C"], "first_dealer": "A"}).get_json()
    from tests.web.conftest import Table

    table = Table(client, created)
    hand = table.start_live()
    table.append(hand, A_JUNK[:3])
    before = _events(table, hand)  # kept here at this version

    _other_process(app, table.id, OTHER_CHANGES[change])
    full_reads = []
    real = store.events_by_hand
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(store, "events_by_hand", lambda *a: full_reads.append(a) or real(*a))
        seen = _events(table, hand)
    service.forget()
    answers._answers.clear()
    fresh = _events(table, hand)
    assert seen == fresh != before
    caught_up = change in ("one append", "three appends")
    assert (full_reads == []) is caught_up, full_reads
    # And a tap here goes on from there.
    r = table.api("POST", f"/hands/{hand}/events", json={"seq": fresh["seq"], "event": {"type": "end_turn"}})
    assert r.status_code in (201, 409), r.get_json()
    if r.status_code == 201:
        service.forget()
        answers._answers.clear()
        assert r.get_json()["state"] == _events(table, hand)["state"]
