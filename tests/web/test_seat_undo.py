"""A seated phone's ↶ takes back its own player's last event (issue 28), on SQLite and PostgreSQL.

The issue's table: 민수 taps 9 국진 by mistake, 현우 taps 6 피 on his own phone (민수's turn ends
before it), 민수 taps ↶. It used to delete 현우's card; it must take back 민수's and say so.
"""

from __future__ import annotations

import threading

import pytest

PARTIAL = {"X-Partial": "1"}
PLAYERS = ("민수", "현우", "지영")


def cap(p, *cards):
    return {"type": "capture", "player": p, "cards": list(cards)}


def end(p):
    return {"type": "end_turn", "player": p}


@pytest.fixture
def hangul(make_table):
    return make_table(PLAYERS)


def seated(app, table, name: str):
    phone = app.test_client()
    assert phone.get(f"/j/{table.id}/{table.edit_key}?seat={name}").status_code == 302
    return phone


def log_of(table, hand) -> list[dict]:
    return table.api("GET", f"/hands/{hand}/events").get_json()["events"]


def tap(phone, table, hand, seq, **fields):
    return phone.post(f"{table.url}/hands/{hand}/events", data={"seq": seq} | fields, headers=PARTIAL)


def undo(phone, table, hand, seq, **fields):
    return phone.post(f"{table.url}/hands/{hand}/undo", data={"seq": seq} | fields, headers=PARTIAL)


def mistake(app, table):
    """민수 takes 1 피 and, by mistake, 9 국진; 현우's phone taps 6 피 (ending 민수's turn)."""
    hand = table.start_live()
    minsu, hyunwoo = seated(app, table, "민수"), seated(app, table, "현우")
    assert tap(minsu, table, hand, 0, type="capture", player="민수", cards="1j1").status_code == 200
    assert tap(minsu, table, hand, 1, type="capture", player="민수", cards="9a").status_code == 200
    assert tap(hyunwoo, table, hand, 2, type="capture", player="현우", cards="6j1").status_code == 200
    assert log_of(table, hand) == [cap("민수", "1j1"), cap("민수", "9a"), end("민수"), cap("현우", "6j1")]
    return hand, minsu, hyunwoo


def test_a_seated_undo_takes_back_its_own_players_last_event_and_names_it(app, hangul):
    hand, minsu, _ = mistake(app, hangul)
    page = minsu.get(f"{hangul.url}/hands/{hand}").get_data(as_text=True)
    assert 'name="at" value="1"' in page  # the phone's ↶ is 민수's 9 국진, not the table's last event
    r = undo(minsu, hangul, hand, 4, at=1)
    assert r.status_code == 200
    assert log_of(hangul, hand) == [cap("민수", "1j1"), end("민수"), cap("현우", "6j1")]
    assert 'data-undone="되돌림: 민수: ' in r.get_data(as_text=True)


def test_another_players_event_is_taken_back_only_after_a_question_naming_it(app, hangul):
    hand, _minsu, hyunwoo = mistake(app, hangul)
    # 현우's phone: the table's last event is 현우's own; 민수's card is asked about first.
    assert undo(hyunwoo, hangul, hand, 4, last="1").status_code == 200  # 현우's own: no question
    assert log_of(hangul, hand)[-1] == end("민수")
    r = undo(hyunwoo, hangul, hand, 3, last="1")
    html = r.get_data(as_text=True)
    assert r.status_code == 409 and "data-takeback-yes" in html and "다른 사람의 기록입니다" in html
    assert 'name="confirm" value="1"' in html and 'name="at" value="2"' in html
    assert len(log_of(hangul, hand)) == 3  # asked, nothing taken back
    r = undo(hyunwoo, hangul, hand, 3, last="1", confirm="1", at="2")
    assert r.status_code == 200 and log_of(hangul, hand) == [cap("민수", "1j1"), cap("민수", "9a")]


def test_a_confirmed_question_about_an_event_no_longer_last_takes_nothing_back(app, hangul):
    hand, _minsu, hyunwoo = mistake(app, hangul)
    # 지영's phone was asked about 현우's 6 피 (index 3); 현우 then took it back himself.
    jiyoung = seated(app, hangul, "지영")
    assert undo(hyunwoo, hangul, hand, 4, at=3).status_code == 200
    r = undo(jiyoung, hangul, hand, 3, last="1", confirm="1", at="3")
    assert r.status_code == 409 and len(log_of(hangul, hand)) == 3


def test_a_seat_with_nothing_recorded_has_nothing_to_undo(app, hangul):
    hand, _, _ = mistake(app, hangul)
    jiyoung = seated(app, hangul, "지영")
    page = jiyoung.get(f"{hangul.url}/hands/{hand}").get_data(as_text=True)
    assert "data-takeback-last" in page  # the table's last event: offered in the piles sheet, asked first
    r = undo(jiyoung, hangul, hand, 4)
    assert r.status_code == 422 and "지영의 기록이 없어" in r.get_data(as_text=True)
    assert len(log_of(hangul, hand)) == 4


def test_a_take_back_that_would_leave_a_later_event_invalid_is_refused_naming_it(app, make_table):
    table = make_table(("A", "B", "C"))
    hand = table.start_live()
    a, b = seated(app, table, "A"), seated(app, table, "B")
    assert tap(a, table, hand, 0, type="capture", player="A", cards=["1g", "3g", "8g"]).status_code == 200
    assert tap(a, table, hand, 1, type="end_turn", player="A", then="go").status_code == 200
    assert tap(b, table, hand, 3, type="capture", player="B", cards="2j1").status_code == 200
    before = log_of(table, hand)
    assert before[2] == {"type": "go", "player": "A"}
    r = undo(a, table, hand, 4, at=2)  # A's go: B's card would come while A must still say go or stop
    html = r.get_data(as_text=True)
    assert r.status_code == 422 and "A: 고을(를) 되돌릴 수 없습니다" in html and "B: " in html, html
    assert log_of(table, hand) == before


def test_a_take_back_seen_at_another_index_is_a_conflict(app, hangul):
    hand, minsu, _ = mistake(app, hangul)
    hangul.append(hand, [cap("민수", "10j1")], start=4)  # another phone records more for 민수 meanwhile
    r = undo(minsu, hangul, hand, 4, at=1)
    assert r.status_code == 409 and len(log_of(hangul, hand)) == 5


def test_two_phones_of_one_seat_taking_back_at_once_take_back_one_event(app, hangul):
    hand, minsu, _ = mistake(app, hangul)
    second = seated(app, hangul, "민수")
    go = threading.Barrier(2)
    answers: list[int] = []

    def send(phone):
        go.wait()
        answers.append(undo(phone, hangul, hand, 4, at=1).status_code)

    threads = [threading.Thread(target=send, args=(p,)) for p in (minsu, second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(answers) == [200, 409]
    assert log_of(hangul, hand) == [cap("민수", "1j1"), end("민수"), cap("현우", "6j1")]


def test_the_one_phone_table_undoes_the_tables_last_event_as_before(hangul, client):
    hand = hangul.start_live()
    hangul.append(hand, [cap("민수", "9a"), end("민수"), cap("현우", "6j1")])
    hangul.enter()
    r = undo(client, hangul, hand, 3)
    assert r.status_code == 200 and log_of(hangul, hand) == [cap("민수", "9a"), end("민수")]


# -- the API: the seat's undo -------------------------------------------------------------------


def api_undo(phone, table, hand, body):
    return phone.post(
        f"/api/v1/tables/{table.id}/hands/{hand}/undo", json=body, headers={"X-Table-Key": table.edit_key}
    )


def test_the_api_undo_of_a_seated_session_is_its_own_players(app, hangul):
    hand, minsu, hyunwoo = mistake(app, hangul)
    r = api_undo(minsu, hangul, hand, {"seq": 4, "at": 1})
    assert r.status_code == 200 and r.get_json()["events"] == [cap("민수", "1j1"), end("민수"), cap("현우", "6j1")]
    r = api_undo(hyunwoo, hangul, hand, {"seq": 3, "player": "민수"})
    assert r.status_code == 409 and r.get_json()["errors"][0]["code"] == "confirm_takeback"
    assert len(log_of(hangul, hand)) == 3
    r = api_undo(hyunwoo, hangul, hand, {"seq": 3, "player": "민수", "confirm": True})
    assert r.status_code == 200 and r.get_json()["events"] == [end("민수"), cap("현우", "6j1")]


@pytest.mark.parametrize(
    "body, status, code",
    [
        pytest.param({"seq": 4, "player": "민수", "at": 0}, 409, "conflict", id="seen-at-another-index"),
        pytest.param({"seq": 4, "player": "지영"}, 422, "nothing_to_undo", id="nothing-of-that-player"),
        pytest.param({"seq": 4, "player": "Nobody"}, 422, "nothing_to_undo", id="not-a-player"),
        pytest.param({"seq": 4, "player": 3}, 422, "bad_value", id="player-not-a-name"),
        pytest.param({"seq": 4, "at": -1}, 422, "bad_value", id="at-negative"),
        pytest.param({"seq": 4, "confirm": "yes"}, 422, "bad_value", id="confirm-not-a-boolean"),
    ],
)
def test_the_api_refuses_a_bad_take_back_with_a_code_and_changes_nothing(app, hangul, body, status, code):
    hand, _, _ = mistake(app, hangul)
    r = hangul.api("POST", f"/hands/{hand}/undo", json=body)
    assert r.status_code == status and r.get_json()["errors"][0]["code"] == code
    assert len(log_of(hangul, hand)) == 4


def test_the_api_takes_back_a_named_players_event_for_an_unseated_client(app, hangul):
    hand, _, _ = mistake(app, hangul)
    r = hangul.api("POST", f"/hands/{hand}/undo", json={"seq": 4, "player": "민수", "at": 1})
    assert r.status_code == 200 and len(r.get_json()["events"]) == 3
