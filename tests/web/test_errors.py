"""Error pages answer HTML or JSON as the client asks; bad input is never a 500."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .conftest import STOP_A


def test_404_html_and_json(client):
    r = client.get("/nowhere")
    assert r.status_code == 404 and r.mimetype == "text/html" and b'data-code="not_found"' in r.data
    r = client.get("/nowhere", headers={"Accept": "application/json"})
    assert r.status_code == 404 and r.get_json()["errors"][0]["code"] == "not_found"
    assert client.get("/api/v1/nowhere").get_json()["ok"] is False


def test_405(client):
    r = client.delete("/")
    assert r.status_code == 405 and "GET" in r.headers["Allow"]
    assert client.get("/api/v1/score").get_json()["errors"][0]["code"] == "method_not_allowed"


def test_401_page_offers_join(make_table, client):
    t = make_table()
    r = client.get(t.url)
    assert r.status_code == 401 and b'action="/join"' in r.data


def test_413(client):
    r = client.post("/new", data={"title": "x" * (400 * 1024)})
    assert r.status_code == 413


def test_security_headers(client):
    h = client.get("/").headers
    assert "script-src 'self'" in h["Content-Security-Policy"] and "unsafe-inline" not in h["Content-Security-Policy"]
    assert h["X-Frame-Options"] == "DENY" and h["X-Content-Type-Options"] == "nosniff"
    assert h["Referrer-Policy"] == "no-referrer"


def test_no_inline_script_or_style(table, client):
    hand = table.start_live()
    for path in ["/", "/new", table.url, f"{table.url}/hands/{hand}", f"{table.url}/rules"]:
        html = client.get(path).get_data(as_text=True)
        assert "<script>" not in html and " style=" not in html and "onclick" not in html, path


def test_markup_in_names_is_escaped(make_table, client):
    t = make_table(players=("<b>x</b>", "B", "C"), first_dealer="B", name="<script>alert(1)</script>")
    t.enter()
    t.add_summary({"captures": {"<b>x</b>": ["1g", "3g", "8g"]}, "outcome": {"type": "stop", "winner": "<b>x</b>"}})
    html = client.get(t.url).get_data(as_text=True)
    assert "<b>x</b>" not in html and "&lt;b&gt;x&lt;/b&gt;" in html
    assert "<script>alert" not in html


hostile = st.one_of(st.text(max_size=80), st.integers(-10**12, 10**12).map(str), st.just("<script>"),
                    st.just("-1"), st.just("1e400"), st.just("\x00"))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.dictionaries(st.sampled_from(
    ["seq", "type", "player", "cards", "month", "reason", "last_card", "outcome", "winner", "entries-0-junk",
     "entries-1-cards", "entries-0-gos", "count", "action", "mission", "dokbak_player", "sitters-0-cards"]),
    hostile, max_size=8))
def test_forms_never_500(table, client, data):
    hand = table.state()["live_hand"] or table.start_live()
    for path in [f"/hands/{hand}/events", f"/hands/{hand}/undo", "/quick", "/hands", "/join"]:
        r = client.post(f"{table.url}{path}" if path != "/join" else path, data=data)
        assert r.status_code < 500, (path, data)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=10),
                         lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                         max_leaves=12))
def test_api_never_500(make_table, client, body):
    t = make_table()
    hand = t.start_live()
    for method, path in [("POST", "/hands"), ("POST", f"/hands/{hand}/events"), ("POST", f"/hands/{hand}/undo"),
                         ("PUT", f"/hands/{hand}")]:
        assert t.api(method, path, json=body).status_code < 500, (path, body)
    assert client.post("/api/v1/score", json=body).status_code in (200, 422)
    assert client.post("/api/v1/tables", json=body).status_code in (201, 400, 422)


@pytest.mark.parametrize("path", ["/t/%00", "/j/%ff/%ff", "/t/abc/hands/99999999999999999999"])
def test_odd_paths(client, path):
    assert client.get(path).status_code in (401, 404)
