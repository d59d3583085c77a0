"""CSRF on every form and on cookie-authenticated API writes (the app as in production)."""
from __future__ import annotations

import re

import pytest

from .test_tables import table_form


@pytest.fixture
def client(csrf_app):
    return csrf_app.test_client()



def csrf_from(client, path: str) -> str:
    html = client.get(path).data
    m = re.search(rb'name="csrf_token"[^>]*value="([^"]+)"', html)
    return m.group(1).decode()


def new_table(client) -> str:
    t = csrf_from(client, "/new")
    r = client.post("/new", data=table_form() | {"csrf_token": t})
    assert r.status_code == 302
    return r.headers["Location"]


def test_new_table_needs_token(client):
    r = client.post("/new", data=table_form())
    assert r.status_code == 400 and b'data-code="csrf"' in r.data
    assert new_table(client).startswith("/t/")


@pytest.mark.parametrize(
    "path",
    ["/hands", "/hands/1/events", "/hands/1/undo", "/quick", "/hands/1/delete", "/hands/1/edit", "/forget"],
)
def test_table_forms_need_token(client, path):
    url = new_table(client)
    r = client.post(url + path, data={"seq": 0, "type": "nagari", "count": "0"})
    assert r.status_code == 400, path


def test_join_needs_token(client):
    assert client.post("/join", data={"code": "a.b"}).status_code == 400


def test_live_hand_with_token(client):
    url = new_table(client)
    tok = csrf_from(client, url)
    r = client.post(url + "/hands", data={"csrf_token": tok, "count": "0"})
    assert r.status_code == 303
    hand_url = r.headers["Location"]
    tok = csrf_from(client, hand_url)
    r = client.post(hand_url + "/events", data={"csrf_token": tok, "seq": 0, "type": "nagari"})
    assert r.status_code == 303


def test_api_with_cookie_needs_header(client):
    url = new_table(client)
    public_id = url.rsplit("/", 1)[1]
    api = f"/api/v1/tables/{public_id}/hands"
    r = client.post(api, json={"log": {}})
    assert r.status_code == 400 and r.get_json()["errors"][0]["code"] == "csrf"
    tok = csrf_from(client, url)
    assert client.post(api, json={"log": {}}, headers={"X-CSRFToken": tok}).status_code == 201


def test_api_with_key_needs_no_token(client):
    r = client.post("/api/v1/tables", json={"players": ["A", "B"]})
    assert r.status_code == 201
    body = r.get_json()
    r = client.post(f"/api/v1/tables/{body['id']}/hands", json={"log": {}}, headers={"X-Table-Key": body["edit_key"]})
    assert r.status_code == 201
    assert client.post("/api/v1/score", json={"players": ["A", "B"], "captures": {},
                                              "outcome": {"type": "nagari"}}).status_code == 200
