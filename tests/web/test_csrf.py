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
    assert (
        client.post(
            "/api/v1/score", json={"players": ["A", "B"], "captures": {}, "outcome": {"type": "nagari"}}
        ).status_code
        == 200
    )


def test_every_form_refuses_a_post_without_the_token(csrf_app, client):
    """Walks the url map: every POST outside the API, and every API write riding on the cookie,
    without the token is a coded 400 and changes nothing. A new form cannot forget CSRF."""
    from .walk import MUTATING, Scene, build, counts, rows_of, rules

    def make_table(**_):
        from .conftest import Table

        created = client.post("/api/v1/tables", json={"players": ["A", "B", "C"], "first_dealer": "A"}).get_json()
        return Table(client, created)

    scene = Scene.make(make_table)
    scene.table.enter()
    walked = 0
    for rule in rules(csrf_app, MUTATING):
        if rule.endpoint in (
            "api.score",
            "api.create_table",
            "api.import_table",
            "api.create_group",
            "api.import_group",
        ):
            continue  # no secret, no cookie: nothing for a forged request to ride on
        if rule.endpoint in (
            "api.add_group_payment",
            "api.void_group_payment",
            "api.remove_group_evening",
            "api.set_group_player",
            "api.new_group_keys",
        ):
            continue  # a group's cookie: test_group_web forges it
        for hand in (scene.summary_hand, scene.live_hand):
            url = build(csrf_app, rule, scene.values(hand))
            before = counts(csrf_app), rows_of(csrf_app, scene.table.id)
            r = client.open(
                url,
                method=sorted(rule.methods & MUTATING)[0],
                data={"seq": "1", "type": "nagari", "count": "2", "confirm": "y", "code": "x.y"},
            )
            assert r.status_code == 400, (rule.rule, r.status_code)
            assert (b'data-code="csrf"' in r.data) or r.get_json()["errors"][0]["code"] == "csrf", rule.rule
            assert (counts(csrf_app), rows_of(csrf_app, scene.table.id)) == before, rule.rule
        walked += 1
    assert walked >= 12
