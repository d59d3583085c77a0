"""The table page's body kept per version (issue 23, item 6): rendered once, the same bytes as a
render, each phone's own CSRF token in its forms, a new render at each change."""

from __future__ import annotations

import re

import pytest
from flask import template_rendered

from scorekeeper.web.tables import pagecache

from .conftest import STOP_A, Table


@pytest.fixture
def renders(csrf_app):
    seen: list[str] = []

    def note(_app, template=None, **_extra):
        seen.append(template.name)

    pagecache.clear()
    template_rendered.connect(note, csrf_app)
    yield lambda: seen.count("table/_body.html")
    template_rendered.disconnect(note, csrf_app)


def _table(app) -> Table:
    client = app.test_client()
    token_page = client.get("/new")
    token = re.search(rb'name="csrf_token" (?:type="hidden" )?value="([^"]+)"', token_page.data)
    r = client.post("/api/v1/tables", json={"players": ["A", "B", "C"], "first_dealer": "A"})
    assert r.status_code == 201 and token
    t = Table(client, r.get_json())
    t.enter()
    return t


def _token(html: bytes) -> bytes:
    return re.search(rb'name="csrf_token" value="([^"]+)"', html).group(1)


def test_the_body_is_rendered_once_per_version_and_view(csrf_app, renders):
    t = _table(csrf_app)
    t.add_summary(STOP_A)
    first = t.client.get(t.url)
    assert first.status_code == 200 and renders() == 1
    again = t.client.get(t.url)
    # kept: the same bytes but the phone's CSRF token, which is signed with the second it was made
    # (two requests astride a second's tick differ there: this failed about one run in four)
    assert _untokened(again.data) == _untokened(first.data) and renders() == 1
    partial = t.client.get(t.url, headers={"X-Partial": "1"})
    assert partial.status_code == 200 and renders() == 1 and partial.data in again.data
    other = csrf_app.test_client()  # another editor's phone: the same body, its own token
    other.get(f"/j/{t.id}/{t.edit_key}")
    theirs = other.get(t.url)
    assert renders() == 1 and _token(theirs.data) != _token(first.data)
    assert b"\x00" not in theirs.data
    # Its token is its own: the start form in the kept body takes it.
    start = re.search(rb'<form method="post" action="(/t/[^"]+/hands)">', theirs.data).group(1).decode()
    r = other.post(start, data={"csrf_token": _token(theirs.data).decode(), "count": "1"})
    assert r.status_code in (302, 303), r.data[:300]
    assert renders() == 1
    after = t.client.get(t.url)  # the version moved: rendered again
    assert renders() == 2 and after.data != first.data


def _untokened(body: bytes) -> bytes:
    return re.sub(rb'(name="csrf_token" value=|name="csrf-token" content=)"[^"]+"', rb'\1""', body)


@pytest.mark.parametrize("variant", ["viewer", "korean", "gloss"])
def test_each_view_of_the_body_is_its_own(csrf_app, renders, variant):
    t = _table(csrf_app)
    t.add_summary(STOP_A)
    editor_en = t.client.get(t.url, headers={"Accept-Language": "en"})
    phone = csrf_app.test_client()
    phone.get(f"/j/{t.id}/{t.view_key if variant == 'viewer' else t.edit_key}")
    headers = {"Accept-Language": "ko" if variant != "viewer" else "en"}
    if variant == "gloss":
        phone.get("/gloss/on?next=/")
    page = phone.get(t.url, headers=headers)
    assert renders() == 2 and page.data != editor_en.data
    pagecache.clear()
    fresh = phone.get(t.url, headers=headers)
    strip = re.compile(rb'name="csrf_token" value="[^"]+"')
    assert strip.sub(b"", fresh.data) == strip.sub(b"", page.data)  # the kept body is a render's bytes


def test_the_api_table_answer_is_kept_per_version(app, make_table):
    from scorekeeper.web.server import answers

    t = make_table()
    t.add_summary(STOP_A)
    first = t.api("GET")
    kept = answers.get_table(type("Row", (), {"id": None, "public_id": t.id, "version": 0}))
    assert kept is None  # keyed by the table's own row
    again = t.api("GET", key=t.view_key)
    assert again.data == first.data and again.mimetype == "application/json"
    t.add_summary(STOP_A)
    after = t.api("GET").get_json()
    assert len(after["hands"]) == 2 and after["version"] == first.get_json()["version"] + 1
