"""Every player on their own phone: seats, and the turn passing by itself (web/access/seats.py)."""

from __future__ import annotations

import threading

import pytest

from .conftest import seq_of

PARTIAL = {"X-Partial": "1"}
THREE_BRIGHTS = {"type": "capture", "player": "A", "cards": ["1g", "3g", "8g"]}  # A may go or stop


def log_of(table, hand) -> list[dict]:
    return table.api("GET", f"/hands/{hand}/events").get_json()["events"]


def seated(app, table, name: str):
    """Another phone at the table, bound to ``name``'s seat by its seat link."""
    phone = app.test_client()
    r = phone.get(f"/j/{table.id}/{table.edit_key}?seat={name}")
    assert r.status_code == 302
    return phone


def tap(phone, table, hand, seq=0, **fields):
    return phone.post(f"{table.url}/hands/{hand}/events", data={"seq": seq} | fields, headers=PARTIAL)


def end(p):
    return {"type": "end_turn", "player": p}


def cap(p, *cards):
    return {"type": "capture", "player": p, "cards": list(cards)}


def test_the_table_page_offers_a_seat_per_player_and_seat_links(table, client):
    html = client.get(table.url).get_data(as_text=True)
    for name in "ABC":
        assert f'data-seat="{name}"' in html and f"?seat={name}" in html
    r = client.post(f"{table.url}/seat", data={"seat": "B"})
    assert r.status_code == 303
    hand = table.start_live()
    page = client.get(f"{table.url}/hands/{hand}").get_data(as_text=True)
    assert 'data-seat="B"' in page and "scores n3 seated" in page and "score p1 me" in page.replace(" on-turn", "")
    client.post(f"{table.url}/seat", data={"seat": ""})
    assert 'data-seat=""' in client.get(f"{table.url}/hands/{hand}").get_data(as_text=True)


@pytest.mark.parametrize(
    "query, seat",
    [
        pytest.param("?seat=B", "B", id="edit-link-with-a-seat"),
        pytest.param("?seat=Z", "", id="not-a-player"),
        pytest.param("", "", id="no-seat"),
    ],
)
def test_a_seat_link_binds_the_phone(app, table, query, seat):
    hand = table.start_live()
    phone = app.test_client()
    phone.get(f"/j/{table.id}/{table.edit_key}{query}")
    assert f'data-seat="{seat}"' in phone.get(f"{table.url}/hands/{hand}").get_data(as_text=True)


def test_a_read_only_link_takes_no_seat(app, table):
    hand = table.start_live()
    phone = app.test_client()
    phone.get(f"/j/{table.id}/{table.view_key}?seat=B")
    assert 'data-seat="B"' not in phone.get(f"{table.url}/hands/{hand}").get_data(as_text=True)
    assert phone.post(f"{table.url}/seat", data={"seat": "B"}).status_code == 403


def test_a_bad_seat_is_refused_and_changes_nothing(app, table, client):
    client.post(f"{table.url}/seat", data={"seat": "B"})
    r = client.post(f"{table.url}/seat", data={"seat": "Nobody"}, follow_redirects=True)
    assert r.status_code == 200
    hand = table.start_live()
    assert 'data-seat="B"' in client.get(f"{table.url}/hands/{hand}").get_data(as_text=True)


def test_the_next_players_tap_ends_the_turn_before(app, table):
    hand = table.start_live()
    table.append(hand, [cap("A", "1j1")])
    b = seated(app, table, "B")
    r = tap(b, table, hand, 1, type="capture", player="B", cards="2j1")
    assert r.status_code == 200
    assert log_of(table, hand) == [cap("A", "1j1"), end("A"), cap("B", "2j1")]


def test_a_tap_for_the_seat_on_turn_passes_nothing(app, table):
    hand = table.start_live()
    a = seated(app, table, "A")
    assert tap(a, table, hand, 0, type="capture", player="A", cards="1j1").status_code == 200
    assert log_of(table, hand) == [cap("A", "1j1")]


def test_without_a_seat_the_one_phone_table_works_as_before(table, client):
    hand = table.start_live()
    assert tap(client, table, hand, 0, type="capture", player="B", cards="2j1").status_code == 200
    assert log_of(table, hand) == [cap("B", "2j1")]  # no turn passed: the phone's End turn does it


def test_a_tap_waits_for_the_go_or_stop_and_lands_after_it(app, table):
    hand = table.start_live()
    table.append(hand, [THREE_BRIGHTS])
    b = seated(app, table, "B")
    r = tap(b, table, hand, 1, type="capture", player="B", cards="2j1")
    html = r.get_data(as_text=True)
    assert r.status_code == 409 and 'id="held"' in html and "A의 고/스톱을 기다립니다" in html
    assert log_of(table, hand) == [THREE_BRIGHTS, end("A")]  # A is asked now; B's tap is not stored
    # Sent again before the answer: it still waits, nothing more is stored.
    r = b.post(
        f"/api/v1/tables/{table.id}/hands/{hand}/events",
        json={"seq": 2, "event": cap("B", "2j1")},
        headers={"X-Table-Key": table.edit_key},
    )
    assert r.status_code == 409 and r.get_json()["errors"][0]["code"] == "waiting_decision"
    assert len(log_of(table, hand)) == 2
    table.append(hand, [{"type": "go", "player": "A"}], start=2)
    r = b.post(
        f"/api/v1/tables/{table.id}/hands/{hand}/events",
        json={"seq": 3, "event": cap("B", "2j1")},
        headers={"X-Table-Key": table.edit_key},
    )
    assert r.status_code == 201
    assert log_of(table, hand) == [THREE_BRIGHTS, end("A"), {"type": "go", "player": "A"}, cap("B", "2j1")]


def test_a_tap_from_further_ahead_asks_before_passing_the_turns_between(app, table):
    hand = table.start_live()
    c = seated(app, table, "C")
    r = tap(c, table, hand, 0, type="capture", player="C", cards="1j1")
    html = r.get_data(as_text=True)
    assert r.status_code == 409 and "data-skip-yes" in html and 'name="skip" value="1"' in html
    assert "A, B" in html and log_of(table, hand) == []
    r = tap(c, table, hand, 0, type="capture", player="C", cards="1j1", skip="1")
    assert r.status_code == 200
    assert log_of(table, hand) == [end("A"), end("B"), cap("C", "1j1")]


def test_a_seat_tap_on_a_stale_page_lands_after_the_other_phones_taps(app, table):
    hand = table.start_live()
    b = seated(app, table, "B")
    table.append(hand, [cap("A", "1j1"), cap("A", "1j2")])
    assert tap(b, table, hand, 0, type="capture", player="B", cards="2j1").status_code == 200
    assert log_of(table, hand)[-2:] == [end("A"), cap("B", "2j1")]


def test_a_seat_tap_that_the_engine_refuses_stores_nothing(app, table):
    hand = table.start_live()
    table.append(hand, [cap("A", "2j1")])
    b = seated(app, table, "B")
    r = tap(b, table, hand, 1, type="capture", player="B", cards="2j1")
    assert r.status_code == 422 and log_of(table, hand) == [cap("A", "2j1")]


def test_the_api_asks_to_confirm_a_skip_and_takes_it(app, table):
    hand = table.start_live()
    c = seated(app, table, "C")
    url = f"/api/v1/tables/{table.id}/hands/{hand}/events"
    key = {"X-Table-Key": table.edit_key}  # the phone's own key: its session is the seat
    r = c.post(url, json={"seq": 0, "event": cap("C", "1j1")}, headers=key)
    assert r.status_code == 422 and r.get_json()["errors"][0]["code"] == "skip_turns"
    assert c.post(url, json={"seq": 0, "event": cap("C", "1j1"), "skip": True}, headers=key).status_code == 201
    assert log_of(table, hand) == [end("A"), end("B"), cap("C", "1j1")]


def test_concurrent_seat_taps_all_land_in_one_order(app, table):
    """Two seats tap at once on pages of the same version: both are stored, each once, the
    turn passing once, in the order the store's lock gave them."""
    hand = table.start_live()
    table.append(hand, [cap("A", "1j1")])
    a, b = seated(app, table, "A"), seated(app, table, "B")
    page = a.get(f"{table.url}/hands/{hand}").get_data()
    seq = seq_of(page)
    answers: list[int] = []
    go = threading.Barrier(2)

    def send(phone, **fields):
        go.wait()
        answers.append(tap(phone, table, hand, seq, **fields).status_code)

    threads = [
        threading.Thread(target=send, args=(a,), kwargs={"type": "capture", "player": "A", "cards": "1j2"}),
        threading.Thread(target=send, args=(b,), kwargs={"type": "capture", "player": "B", "cards": "2j1"}),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    log = log_of(table, hand)
    assert sorted(answers) == [200, 200]
    assert cap("A", "1j2") in log and cap("B", "2j1") in log and log.count(end("A")) == 1
    assert log.index(cap("B", "2j1")) == log.index(end("A")) + 1


def test_a_late_tap_stays_its_players_and_ends_no_turn(app, table):
    hand = table.start_live()
    a, b = seated(app, table, "A"), seated(app, table, "B")
    assert tap(a, table, hand, 0, type="capture", player="A", cards="1j1").status_code == 200
    assert tap(b, table, hand, 1, type="capture", player="B", cards="2j1").status_code == 200
    # A's phone still showed A's turn (seq 1) when it tapped: no confirmation, no turn passed.
    assert tap(a, table, hand, 1, type="capture", player="A", cards="1j2").status_code == 200
    assert log_of(table, hand) == [cap("A", "1j1"), end("A"), cap("B", "2j1"), cap("A", "1j2")]


def test_a_seat_phone_is_led_into_the_hand_that_starts(app, table, client):
    client.post(f"{table.url}/seat", data={"seat": "B"})
    assert "data-follow" not in client.get(table.url).get_data(as_text=True)
    hand = table.start_live()
    assert f'data-follow="/t/{table.id}/hands/{hand}"' in client.get(table.url).get_data(as_text=True)
    client.post(f"{table.url}/seat", data={"seat": ""})
    assert "data-follow" not in client.get(table.url).get_data(as_text=True)


@pytest.mark.parametrize(
    "path, headers",
    [
        ("/version", {}),
        ("/stream", {}),
        ("", PARTIAL),
        ("", {"Sec-Fetch-Mode": "cors"}),
        ("/rules", {"Sec-Fetch-Mode": "no-cors"}),
    ],
)
def test_the_pages_own_requests_leave_the_session_cookie_alone(table, client, path, headers):
    """A push stream's (or a refresh's) answer arriving after "I am B" must not put the session
    without the seat back."""
    client.get(table.url)  # the page itself (it may set the session's CSRF token)
    r = client.get(f"{table.url}{path}", buffered=False, headers=headers)
    assert "Set-Cookie" not in r.headers
    r.close()
    assert "Set-Cookie" in client.post(f"{table.url}/seat", data={"seat": "B"}).headers


def test_the_table_page_kept_for_one_phone_is_not_another_phones_seat(app, table):
    """The table page's body is kept per version (a heavy table renders once), but a seated phone's
    page follows its table into the live hand and marks its seat: another phone at the same version
    must not get that copy, nor the seated phone the unseated one's."""
    hand = table.start_live()
    plain = app.test_client()
    plain.get(f"/j/{table.id}/{table.edit_key}")
    first = plain.get(table.url).get_data(as_text=True)  # kept now, unseated
    bea = seated(app, table, "B")
    page = bea.get(table.url).get_data(as_text=True)
    assert f"/hands/{hand}" in page.split('id="region"')[1].split(">")[0]  # data-follow: into the hand
    assert (
        'class="btn primary" translate="no">' in page.split('data-seat="B"')[1][:60]
        or 'data-seat="B" class="btn primary"' in page
    )
    again = plain.get(table.url).get_data(as_text=True)
    assert "data-follow" not in again.split('id="region"')[1].split(">")[0]
    assert "data-follow" not in first.split('id="region"')[1].split(">")[0]
