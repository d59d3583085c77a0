"""rules.md §13 reading 10 through the table page: end the series early, with a confirmation."""

from __future__ import annotations

import pytest

from .conftest import STOP_A


@pytest.fixture
def app(sqlite_app):
    return sqlite_app


def end(client, t, **data):
    return client.post(f"{t.url}/end", data={"confirm": "y", "count": str(len(t.state()["hands"]))} | data)


def test_end_needs_the_confirmation_and_changes_nothing_without_it(table, client):
    table.add_summary(STOP_A)
    r = client.post(f"{table.url}/end", data={"count": "1"})
    assert r.status_code == 303 and not table.state()["finished"]


def test_end_settles_on_the_hands_played(table, client):
    table.add_summary(STOP_A)
    before = table.state()
    assert end(client, table).status_code == 303
    after = table.state()
    assert after["finished"] and after["balances"] == before["balances"] and after["settle_up"] == before["settle_up"]
    html = client.get(table.url).get_data(as_text=True)
    assert html.index('id="settle"') < html.index('id="standings"')  # the settle-up first
    assert "badge dealer" not in html and f"{table.url}/quick" not in html and 'id="end-series"' not in html
    assert table.api("POST", "/hands", json={"summary": STOP_A}).status_code == 422  # no more hands


def test_a_hand_in_play_is_never_settled_half_way(table, client):
    table.add_summary(STOP_A)
    table.start_live()
    r = end(client, table)
    assert r.status_code == 303 and not table.state()["finished"]
    assert "치던 판이 있습니다" in client.get(table.url).get_data(as_text=True)


def test_a_stale_page_does_not_end(table, client):
    table.add_summary(STOP_A)
    r = client.post(f"{table.url}/end", data={"confirm": "y", "count": "0"})
    assert r.status_code == 303 and not table.state()["finished"]


def test_nothing_played_nothing_to_end(table, client):
    assert 'id="end-series"' not in client.get(table.url).get_data(as_text=True)
    assert end(client, table).status_code == 303 and not table.state()["finished"]
