"""The replays kept between requests (web.service) are reused only for equal inputs.

Every answer is checked against a replay from scratch by the engine.
"""
from __future__ import annotations

from scorekeeper.engine.hand import HandSetup, replay
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
    r = table.api("PUT", f"/hands/{first}", json={"summary": STOP | {
        "captures": {"B": ["1g", "3g", "8g"]}, "outcome": {"type": "stop", "winner": "B"}}}, headers={"If-Match": "*"})
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
            assert client.post(f"{base}/hands/{hand}/events", json={"seq": 0, "event": event}, headers=key).status_code == 201
            body = client.get(f"{base}/hands/{hand}/events", headers=key).get_json()
            seen.append((hand, body["events"], body["state"]["players"]))
        assert seen[0][0] == seen[1][0]  # the same hand id in both databases
        assert seen[0][1:] != seen[1][1:]
    finally:
        for app in apps:
            app.extensions["sk_engine"].dispose()
