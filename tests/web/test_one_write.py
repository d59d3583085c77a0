"""Every write goes through ``scorekeeper.tables`` (one function each: lock, check, write, answer),
and a tap that stores two events stores both or neither."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from scorekeeper.engine.errors import EngineError
from scorekeeper.engine.live import hand as hand_engine

PARTIAL = {"X-Partial": "1"}
WEB = Path(__file__).resolve().parents[2] / "scorekeeper" / "web"
STORE_WRITERS = re.compile(r"\bstore\.(add_hand|update_hand|delete_hand|append_event|append_built|drop_last_event"
                           r"|replace_last_event|create_table|update_config|import_table|rotate_secrets"
                           r"|insert_\w+|add_events|delete_\w+|lock_table|touch)\(")


def test_no_module_of_web_calls_the_stores_writers():
    """The views and the API translate the table layer's answers; none of them writes rows itself."""
    found = [f"{path.relative_to(WEB)}:{n}: {line.strip()}"
             for path in sorted(WEB.rglob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if STORE_WRITERS.search(line)]
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
    r = client.post(f"{table.url}/hands/{hand}/events", headers=PARTIAL,
                    data={"seq": 1, "type": "end_turn", "player": "A", "then": "go"})
    assert r.status_code == 422
    monkeypatch.undo()
    log = table.api("GET", f"/hands/{hand}/events").get_json()["events"]
    assert [e["type"] for e in log] == ["capture"]


@pytest.mark.parametrize("then", ["go", "stop"])
def test_end_turn_with_its_answer_moves_the_log_by_two(table, client, then):
    hand = table.start_live()
    table.append(hand, [{"type": "capture", "player": "A", "cards": ["1g", "3g", "8g"]}])
    before = table.api("GET", "/version").get_json()["version"]
    r = client.post(f"{table.url}/hands/{hand}/events", headers=PARTIAL,
                    data={"seq": 1, "type": "end_turn", "player": "A", "then": then})
    assert r.status_code == 200
    log = table.api("GET", f"/hands/{hand}/events").get_json()["events"]
    assert [e["type"] for e in log] == ["capture", "end_turn", then]
    assert table.api("GET", "/version").get_json()["version"] > before
