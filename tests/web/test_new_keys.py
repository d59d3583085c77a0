"""New secrets for a table (issue 23, item 9): a link pasted in the wrong chat, or a phone lost.

The table page and ``POST /api/v1/tables/<id>/keys`` replace the edit and/or read-only secret in
place; the old ones then open nothing anywhere: pages, share links and codes, the API, the fast
path, a phone's session cookie (which holds the secret) and a push stream already open.
"""

from __future__ import annotations

import threading
import time

import pytest

from .test_push import events_of
from .walk import rows_of


def _rotate_on_the_page(t, which: str):
    r = t.client.post(f"/t/{t.id}/keys", data={"which": which, "confirm": "y"})
    assert r.status_code == 303, r.data[:300]
    return r


def _phone(app, t, key: str):
    phone = app.test_client()
    assert phone.get(f"/j/{t.id}/{key}").status_code == 302
    assert phone.get(t.url).status_code == 200
    return phone


@pytest.mark.parametrize("which", ["edit", "view", "both"])
def test_new_keys_from_the_page_refuse_the_old_ones_everywhere(app, table, which):
    old_edit, old_view = table.edit_key, table.view_key
    editor, viewer = _phone(app, table, old_edit), _phone(app, table, old_view)
    _rotate_on_the_page(table, which)
    assert table.client.get(table.url).status_code == 200  # this phone keeps the table
    page = table.client.get(table.url).get_data(as_text=True)
    state = table.api("GET")  # the old edit key in the header
    rotated = {"edit": which in ("edit", "both"), "view": which in ("view", "both")}
    bare = app.test_client(use_cookies=False)
    for kind, old, phone in (("edit", old_edit, editor), ("view", old_view, viewer)):
        if not rotated[kind]:
            assert phone.get(table.url).status_code == 200 and old in page
            continue
        assert old not in page
        assert phone.get(table.url).status_code == 401  # the session's copy opens nothing
        assert phone.get(f"/t/{table.id}/stream").status_code == 401
        assert app.test_client().get(f"/j/{table.id}/{old}").status_code == 404
        for _ in range(2):  # through Flask, then what the fast path would answer
            assert bare.get(f"/api/v1/tables/{table.id}/version", headers={"X-Table-Key": old}).status_code == 401
        assert bare.get(f"/api/v1/tables/{table.id}", headers={"X-Table-Key": old}).status_code == 401
        assert bare.get(f"/api/v1/tables/{table.id}/stream", headers={"X-Table-Key": old}).status_code == 401
    if rotated["edit"]:
        assert state.status_code == 401
    assert table.client.post(f"/t/{table.id}/keys", data={"which": "edit", "confirm": "y"}).status_code == 303


def test_new_keys_through_the_api(app, make_table):
    t = make_table()
    before = rows_of(app, t.id)
    assert t.api("POST", "/keys", key=t.view_key, json={"rotate": "both"}).status_code == 403
    assert t.api("POST", "/keys", json={"rotate": "all"}).status_code == 400
    assert t.api("POST", "/keys", key="made-up", json={}).status_code == 401
    assert rows_of(app, t.id) == before
    r = t.api("POST", "/keys", json={"rotate": "view"})
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert body["edit_key"] == t.edit_key and body["view_key"] != t.view_key
    assert body["view_link"].endswith(f"/j/{t.id}/{body['view_key']}")
    assert t.api("GET", key=t.view_key).status_code == 401
    assert t.api("GET", key=body["view_key"]).status_code == 200
    r = t.api("POST", "/keys", json={})  # both, by default
    new = r.get_json()
    assert r.status_code == 200 and new["edit_key"] not in (t.edit_key, body["edit_key"])
    assert t.api("GET").status_code == 401
    assert t.api("POST", "/hands", key=new["edit_key"], json={"log": {}}).status_code == 201


def test_the_page_form_needs_its_confirmation(app, table):
    before = rows_of(app, table.id)
    r = table.client.post(f"/t/{table.id}/keys", data={"which": "both"})
    assert r.status_code == 303 and rows_of(app, table.id) == before
    assert table.client.get(table.url).status_code == 200
    viewer = _phone(app, table, table.view_key)
    assert viewer.post(f"/t/{table.id}/keys", data={"which": "both", "confirm": "y"}).status_code == 403


@pytest.mark.parametrize("path", ["/t/{id}/stream", "/api/v1/tables/{id}/stream"])
def test_an_open_stream_ends_when_its_key_is_replaced(app, table, path):
    app.config["PUSH_STREAM_SECONDS"] = 8
    follower = app.test_client()
    old = table.view_key
    result: dict = {}

    def read():
        started = time.monotonic()
        result["body"] = follower.get(path.format(id=table.id), headers={"X-Table-Key": old}).get_data(as_text=True)
        result["took"] = time.monotonic() - started

    reader = threading.Thread(target=read)
    reader.start()
    time.sleep(0.3)
    table.api("POST", "/keys", json={"rotate": "view"})
    reader.join(10)
    assert result["took"] < 4, result  # ended at the change, not at the stream's end
    assert len(events_of(result["body"])) == 1  # the version it opened at, nothing after
