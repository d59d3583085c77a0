"""The go/stop question on seated phones (issue 28): its buttons on the asked player's phone; the
others show who is deciding, and answer for them only once asked."""

from __future__ import annotations

import pytest

PARTIAL = {"X-Partial": "1"}
THREE_BRIGHTS = {"type": "capture", "player": "A", "cards": ["1g", "3g", "8g"]}
GO_A = {"type": "go", "player": "A"}


def seated(app, table, name: str):
    phone = app.test_client()
    assert phone.get(f"/j/{table.id}/{table.edit_key}?seat={name}").status_code == 302
    return phone


def log_of(table, hand) -> list[dict]:
    return table.api("GET", f"/hands/{hand}/events").get_json()["events"]


def asked(table):
    """A hand where A has just been asked go or stop."""
    hand = table.start_live()
    table.append(hand, [THREE_BRIGHTS, {"type": "end_turn", "player": "A"}])
    return hand


def test_the_asked_players_phone_has_the_buttons_the_others_show_who_is_deciding(app, table):
    hand = asked(table)
    a, b = seated(app, table, "A"), seated(app, table, "B")
    mine = a.get(f"{table.url}/hands/{hand}").get_data(as_text=True)
    assert "A: 고 또는 스톱?" in mine and "data-answer-for" not in mine and "for_them" not in mine
    theirs = b.get(f"{table.url}/hands/{hand}").get_data(as_text=True)
    assert "A: 고/스톱을 정하는 중" in theirs and "data-answer-for" in theirs
    assert 'name="for_them" value="1"' in theirs  # the buttons only behind "answer for A", which asks
    assert "A: 고 또는 스톱?" not in theirs


@pytest.mark.parametrize(
    "fields",
    [
        pytest.param({"type": "go", "player": "A"}, id="go"),
        pytest.param({"type": "stop", "player": "A"}, id="stop"),
    ],
)
def test_another_seats_answer_is_refused_unless_asked_first(app, table, fields):
    hand = asked(table)
    b = seated(app, table, "B")
    r = b.post(f"{table.url}/hands/{hand}/events", data={"seq": 2} | fields, headers=PARTIAL)
    assert r.status_code == 409 and "A의 고/스톱은 A의 폰이 답합니다" in r.get_data(as_text=True)
    assert len(log_of(table, hand)) == 2
    r = b.post(f"{table.url}/hands/{hand}/events", data={"seq": 2, "for_them": "1"} | fields, headers=PARTIAL)
    assert r.status_code == 200 and log_of(table, hand)[-1] == fields


def test_a_seated_phones_end_turn_with_go_for_another_player_is_asked_first(app, table):
    hand = table.start_live()
    table.append(hand, [THREE_BRIGHTS])
    b = seated(app, table, "B")
    page = b.get(f"{table.url}/hands/{hand}").get_data(as_text=True)
    assert 'data-decide="go"' not in page  # A's turn: A's own phone says go or stop with its End turn
    r = b.post(
        f"{table.url}/hands/{hand}/events",
        data={"seq": 1, "type": "end_turn", "player": "A", "then": "go"},
        headers=PARTIAL,
    )
    assert r.status_code == 409 and log_of(table, hand) == [THREE_BRIGHTS]


def test_the_asked_player_and_the_one_phone_table_answer_as_before(app, table, client):
    hand = asked(table)
    a = seated(app, table, "A")
    assert a.post(f"{table.url}/hands/{hand}/events", data={"seq": 2} | GO_A, headers=PARTIAL).status_code == 200
    assert table.api("POST", f"/hands/{hand}/undo", json={"seq": 3}).status_code == 200
    table.enter()  # a phone with no seat: one phone for everyone answers for whoever is asked
    assert client.post(f"{table.url}/hands/{hand}/events", data={"seq": 2} | GO_A, headers=PARTIAL).status_code == 200
    assert log_of(table, hand)[-1] == GO_A


def api_append(phone, table, hand, body):
    return phone.post(
        f"/api/v1/tables/{table.id}/hands/{hand}/events", json=body, headers={"X-Table-Key": table.edit_key}
    )


def test_the_api_answers_for_another_seat_only_with_for_them(app, table):
    hand = asked(table)
    b = seated(app, table, "B")
    r = api_append(b, table, hand, {"seq": 2, "event": GO_A})
    assert r.status_code == 409 and r.get_json()["errors"][0]["code"] == "not_your_answer"
    assert r.get_json()["seq"] == 2  # the log as it is, as a conflict carries it
    r = api_append(b, table, hand, {"seq": 2, "event": GO_A, "for_them": "yes"})
    assert r.status_code == 422 and r.get_json()["errors"][0] == {
        "code": "bad_value",
        "message": r.get_json()["errors"][0]["message"],
        "path": "for_them",
    }
    assert len(log_of(table, hand)) == 2
    assert api_append(b, table, hand, {"seq": 2, "event": GO_A, "for_them": True}).status_code == 201
    assert log_of(table, hand)[-1] == GO_A
