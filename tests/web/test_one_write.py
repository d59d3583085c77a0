"""Every write goes through ``scorekeeper.tables`` (one function each: lock, check, write, answer),
and a tap that stores two events stores both or neither."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scorekeeper.engine.errors import EngineError
from scorekeeper.engine.live import hand as hand_engine

from .conftest import STOP_A

PARTIAL = {"X-Partial": "1"}
WEB = Path(__file__).resolve().parents[2] / "scorekeeper" / "web"
STORE_WRITERS = re.compile(
    r"\bstore\.(add_hand|update_hand|delete_hand|append_event|append_built|drop_last_event|drop_event"
    r"|replace_last_event|create_table|update_config|import_table|rotate_secrets"
    r"|insert_\w+|add_events|delete_\w+|lock_table|touch)\("
)


def test_no_module_of_web_calls_the_stores_writers():
    """The views and the API translate the table layer's answers; none of them writes rows itself."""
    found = [
        f"{path.relative_to(WEB)}:{n}: {line.strip()}"
        for path in sorted(WEB.rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if STORE_WRITERS.search(line)
    ]
    assert found == []


def test_end_turn_with_go_is_stored_whole_or_not_at_all(table, client, monkeypatch):
    """End turn with its go is one write: when the go is refused, the end of turn is not stored alone."""
    hand = table.start_live()
    table.append(hand, [{"type": "capture", "player": "A", "cards": ["1g", "3g", "8g"]}])
    real = hand_engine.apply

    def refusing_go(state, event):
        if event.get("type") == "go":
            raise EngineError("bad_event", "No go now (the test's engine).", "type")
        return real(state, event)

    monkeypatch.setattr(hand_engine, "apply", refusing_go)
    r = client.post(
        f"{table.url}/hands/{hand}/events",
        headers=PARTIAL,
        data={"seq": 1, "type": "end_turn", "player": "A", "then": "go"},
    )
    assert r.status_code == 422
    monkeypatch.undo()
    log = table.api("GET", f"/hands/{hand}/events").get_json()["events"]
    assert [e["type"] for e in log] == ["capture"]


@pytest.mark.parametrize("then", ["go", "stop"])
def test_end_turn_with_its_answer_moves_the_log_by_two(table, client, then):
    hand = table.start_live()
    table.append(hand, [{"type": "capture", "player": "A", "cards": ["1g", "3g", "8g"]}])
    before = table.api("GET", "/version").get_json()["version"]
    r = client.post(
        f"{table.url}/hands/{hand}/events",
        headers=PARTIAL,
        data={"seq": 1, "type": "end_turn", "player": "A", "then": then},
    )
    assert r.status_code == 200
    log = table.api("GET", f"/hands/{hand}/events").get_json()["events"]
    assert [e["type"] for e in log] == ["capture", "end_turn", then]
    assert table.api("GET", "/version").get_json()["version"] > before


A_CAPTURE = {"type": "capture", "player": "A", "cards": ["1g", "3g", "8g"]}
# Each refused write (on a table with one quick-entry hand, then a live hand with A's capture):
# its kind, its code, and what it carries.
REFUSED_WRITES = {
    "an append at a stale seq": (
        lambda w, s, db, live, past: w.append_event(db, s, live, 0, {"type": "end_turn"}),
        "conflict",
        "conflict",
        {"current": 1},
    ),
    "an append to a finished hand": (
        lambda w, s, db, live, past: w.append_event(db, s, past, 0, A_CAPTURE),
        "not_live",
        "hand_over",
        {},
    ),
    "an event the engine refuses": (
        lambda w, s, db, live, past: w.append_event(db, s, live, 1, {"type": "stop", "player": "B"}),
        "refused",
        None,
        {},
    ),
    "a seat's tap at a stale seq": (
        lambda w, s, db, live, past: w.seat_tap_event(db, s, live, A_CAPTURE, expected_seq=0),
        "conflict",
        "conflict",
        {"current": 1},
    ),
    "an undo of an empty log": (
        lambda w, s, db, live, past: w.undo(db, s, s.hand(live), 0),
        "refused",
        "nothing_to_undo",
        {},
    ),
    "an undo of a hand not the last": (
        lambda w, s, db, live, past: w.undo(db, s, s.hand(past), 1),
        "not_live",
        "not_last_hand",
        {},
    ),
    "an undo at a stale seq": (
        lambda w, s, db, live, past: w.undo(db, s, s.hand(live), 2),
        "conflict",
        "conflict",
        {"current": 1},
    ),
    "a take-back of a player with no event": (
        lambda w, s, db, live, past: w.take_back_own(db, s, s.hand(live), "B"),
        "refused",
        "nothing_to_undo",
        {},
    ),
    "a take-back seen at another index": (
        lambda w, s, db, live, past: w.take_back_own(db, s, s.hand(live), "A", at=3),
        "conflict",
        "conflict",
        {"current": 1},
    ),
    "a take-back of a hand not the last": (
        lambda w, s, db, live, past: w.take_back_own(db, s, s.hand(past), "A"),
        "not_live",
        "not_last_hand",
        {},
    ),
    "an edit of a changed hand": (
        lambda w, s, db, live, past: w.edit_hand(db, s, s.hand(past), STOP_B, expected_version="old"),
        "stale",
        "conflict",
        {"current": 2},
    ),
    "a hand added to a changed table": (
        lambda w, s, db, live, past: w.add_hand(db, s, "summary", STOP_B, expected_count=1),
        "conflict",
        "conflict",
        {"current": 2},
    ),
    "a hand added while one is live": (
        lambda w, s, db, live, past: w.add_hand(db, s, "summary", STOP_B),
        "refused",
        None,
        {},
    ),
    "a delete of a changed hand": (
        lambda w, s, db, live, past: w.delete_hand(db, s, s.hand(past), "old"),
        "stale",
        "conflict",
        {},
    ),
}
STOP_B = {"captures": {"B": ["1g", "3g", "8g"]}, "outcome": {"type": "stop", "winner": "B"}}


@pytest.mark.parametrize("case", list(REFUSED_WRITES))
def test_a_refused_write_has_one_kind_and_stores_nothing(app, client, make_table, case):
    """Every write of ``tables.writes`` refuses with one ``WriteRefused``: its kind (how the web
    answers it), its code and path; the table's version and rows stay as they were."""
    from scorekeeper.store import rows as store
    from scorekeeper.tables import service, writes
    from scorekeeper.tables.refusals import WriteRefused
    from scorekeeper.web.server.database import db

    write, kind, code, carried = REFUSED_WRITES[case]
    t = make_table()
    past = t.add_summary(STOP_A)
    live = t.start_live()
    t.append(live, [A_CAPTURE])
    before = t.state()
    with app.test_request_context():
        state = service.load(db(), store.get_table(db(), t.id))
        with pytest.raises(WriteRefused) as refused:
            write(writes, state, db(), live, past)
        err = refused.value
        if kind == "stale":  # the hand as it is now (read again in the request's session)
            assert err.hand.id == past and store.hand_version(err.hand) == store.hand_version(state.hand(past))
    assert err.kind == kind
    assert err.code == (code or err.code) and err.errors and set(err.errors[0]) >= {"code", "message", "path"}
    for name, value in carried.items():
        assert getattr(err, name) == value
    assert t.state() == before
    assert t.api("GET", f"/hands/{live}/events").get_json()["seq"] == 1
