"""A phone's keys never outgrow what a browser keeps (issue 29): in one session cookie, 24 seated
tables were 4,775 bytes and 30 groups 6,020; past 4,096 a browser drops the cookie that would
hold the newest key, and the phone silently lost the table it had just joined. Each secret now
has its own small cookie; every cookie stays under 4,096 bytes with 40 seated tables and 40
groups, and the phone still opens every one of them, the newest first of all."""

from __future__ import annotations

from http.cookies import SimpleCookie

import pytest

BROWSER_LIMIT = 4096


def _set_cookies(response) -> list[str]:
    return response.headers.getlist("Set-Cookie")


@pytest.fixture
def phone(sqlite_app):
    return sqlite_app.test_client()


def test_40_seated_tables_and_40_groups_fit_and_stay_open(sqlite_app, phone):
    api = sqlite_app.test_client()
    tables, groups = [], []
    biggest = 0
    for i in range(40):
        t = api.post("/api/v1/tables", json={"players": [f"민수{i}", "지영", "철수"]}).get_json()
        tables.append(t)
        for r in (
            phone.get(f"/j/{t['id']}/{t['edit_key']}"),
            phone.post(f"/t/{t['id']}/seat", data={"seat": f"민수{i}"}),
        ):
            for header in _set_cookies(r):
                biggest = max(biggest, len(header.split(";", 1)[0]))
        g = api.post("/api/v1/groups", json={"name": f"모임{i}", "players": ["민수", "지영"]}).get_json()
        groups.append(g)
        for header in _set_cookies(phone.get(f"/gj/{g['id']}/{g['edit_key']}")):
            biggest = max(biggest, len(header.split(";", 1)[0]))
    assert biggest < BROWSER_LIMIT
    jar = SimpleCookie()
    for cookie in phone._cookies.values():
        jar[cookie.key] = cookie.value
        assert len(cookie.key) + 1 + len(cookie.value) < BROWSER_LIMIT, cookie.key
    # Every table and group still opens, with its seat, and the home page lists them all.
    for i, t in enumerate(tables):
        page = phone.get(f"/t/{t['id']}")
        assert page.status_code == 200 and f"민수{i}" in page.get_data(as_text=True), t["id"]
    for g in groups:
        assert phone.get(f"/g/{g['id']}").status_code == 200, g["id"]
    home = phone.get("/").get_data(as_text=True)
    assert all(f"/t/{t['id']}" in home for t in tables[-20:])


def test_past_the_limit_the_oldest_key_is_let_go_never_the_newest(sqlite_app, phone, monkeypatch):
    from scorekeeper.web.access import keyring

    monkeypatch.setattr(keyring, "MAX_KEPT", 3)
    api = sqlite_app.test_client()
    tables = [api.post("/api/v1/tables", json={"players": ["A", "B"]}).get_json() for _ in range(5)]
    for t in tables:
        phone.get(f"/j/{t['id']}/{t['edit_key']}")
    opens = [phone.get(f"/t/{t['id']}").status_code for t in tables]
    assert opens[-3:] == [200, 200, 200] and opens[0] == 401


def test_a_key_kept_in_an_old_session_still_opens_and_moves_out(sqlite_app, phone):
    t = sqlite_app.test_client().post("/api/v1/tables", json={"players": ["A", "B"]}).get_json()
    with phone.session_transaction() as sess:
        sess["keys"] = {t["id"]: t["edit_key"]}
    assert phone.get(f"/t/{t['id']}").status_code == 200
    phone.get(f"/j/{t['id']}/{t['edit_key']}")
    with phone.session_transaction() as sess:
        assert t["id"] not in sess.get("keys", {})
    assert phone.get(f"/t/{t['id']}").status_code == 200


def test_forgetting_drops_the_cookie(sqlite_app, phone):
    api = sqlite_app.test_client()
    t = api.post("/api/v1/tables", json={"players": ["A", "B"]}).get_json()
    g = api.post("/api/v1/groups", json={"name": "x", "players": ["A", "B"]}).get_json()
    phone.get(f"/j/{t['id']}/{t['edit_key']}")
    phone.get(f"/gj/{g['id']}/{g['edit_key']}")
    phone.post(f"/t/{t['id']}/forget")
    phone.post(f"/g/{g['id']}/forget")
    assert phone.get(f"/t/{t['id']}").status_code == 401
    assert phone.get(f"/g/{g['id']}").status_code == 401
