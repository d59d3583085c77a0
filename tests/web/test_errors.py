"""Error pages answer HTML or JSON as the client asks; bad input is never a 500, is refused
with a code and stores nothing; markup in names stays text on every page and in every export."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


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


def test_413_html_and_json(app, client):
    """Bodies over MAX_CONTENT_LENGTH are refused before anything reads them: a coded 413."""
    from .walk import counts

    before = counts(app)
    big = "x" * (app.config["MAX_CONTENT_LENGTH"] + 1)
    r = client.post("/new", data={"title": big})
    assert r.status_code == 413 and r.mimetype == "text/html" and b'data-code="too_large"' in r.data
    r = client.post("/new", data={"title": big}, headers={"Accept": "application/json"})
    assert r.status_code == 413 and r.get_json()["errors"][0]["code"] == "too_large"
    for path in ("/api/v1/tables", "/api/v1/score"):
        r = client.post(path, data=big, content_type="application/json")
        assert r.status_code == 413 and r.get_json()["errors"][0]["code"] == "too_large", path
    assert counts(app) == before


MARKUP = [
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "<svg/onload=alert(1)>",
    "javascript:alert(1)",
    "{{7*7}}",
    '=HYPERLINK("http://x")',
]
hostile = st.one_of(
    st.text(max_size=80),
    st.integers(-(10**30), 10**30).map(str),
    st.sampled_from(
        [
            *MARKUP,
            "-1",
            "0",
            "1e400",
            "NaN",
            "Infinity",
            "\x00",
            "\ufeff",
            "13g",
            "0j1",
            "1g",
            "A",
            "x" * 3000,
            "",
            " ",
            "true",
            "[]",
            "{}",
            "\ud7ff한글",
            "nagari",
            "stop",
            "save",
        ]
    ),
) | st.lists(st.sampled_from(["1g", "13g", "A", "<b>"]), max_size=4)
# Every form of the app, with the fields it reads (and a few it does not).
FORM_FIELDS = {
    "/new": [
        "title",
        "players-0",
        "players-1",
        "players-2",
        "preset",
        "chip_value",
        "currency",
        "length",
        "dealer",
        "draw_time",
        "draw_cards-0",
        "opt_target_three_players",
        "opt_go_bonus",
        "opt_five_brights",
    ],
    "{t}/quick": [
        "outcome",
        "winner",
        "month",
        "entries-0-cards",
        "entries-0-junk",
        "entries-1-gos",
        "entries-2-shakes",
        "entries-0-bombs",
        "entries-1-fixed",
        "dokbak_player",
        "dokbak_reason",
        "last_go",
        "mission",
        "count",
        "sitters-0-cards",
        "action",
    ],
    "{t}/hands/{summary}/edit": ["outcome", "winner", "entries-0-cards", "entries-1-junk", "mission", "action"],
    "{t}/hands/{live}/events": ["seq", "type", "player", "cards", "month", "reason", "last_card"],
    "{t}/hands/{live}/undo": ["seq"],
    "{t}/hands": ["count", "sitters-0-cards", "sitters-0-shake"],
    "{t}/hands/{summary}/delete": ["confirm"],
    "/join": ["code"],
}
FIXED = {"{t}/quick": {"action": "save"}, "{t}/hands/{summary}/edit": {"action": "save"}}
REFUSAL_SHOWN = (b'data-code="', b'class="errors"', b'class="flash error"', b'class="refusal"')


@pytest.fixture
def scene(make_table):
    from .walk import Scene

    s = Scene.make(make_table)
    s.table.enter()
    return s


IDLE = {"{t}/quick", "{t}/hands"}  # forms for a table with no live hand


@pytest.mark.parametrize("form", sorted(FORM_FIELDS))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_forms_refuse_hostile_input_with_a_code_and_store_nothing(app, make_table, client, form, data):
    """Markup, huge and negative numbers, unknown cards, wrong types in every form: never a 500;
    a refusal says why and stores nothing (what is accepted is shown escaped: see below)."""
    from .walk import Scene, counts, rows_of

    scene = Scene.make(make_table, live=form not in IDLE)
    scene.table.enter()
    fields = data.draw(st.dictionaries(st.sampled_from(FORM_FIELDS[form]), hostile, max_size=8))
    path = form.format(t=scene.table.url, summary=scene.summary_hand, live=scene.live_hand)
    before = counts(app), rows_of(app, scene.table.id)
    r = client.post(path, data=fields | FIXED.get(form, {}), headers={"X-Partial": "1"} if "/hands/" in path else {})
    assert r.status_code < 500, (path, fields)
    if r.status_code >= 400:
        assert (counts(app), rows_of(app, scene.table.id)) == before, (path, fields, r.status_code)
        assert any(mark in r.data for mark in REFUSAL_SHOWN), (path, r.status_code)
    elif form == "/join":
        assert (counts(app), rows_of(app, scene.table.id)) == before


@pytest.mark.parametrize("form", sorted(FORM_FIELDS))
def test_forms_take_invalid_utf8(app, scene, client, form):
    """Bytes that are not UTF-8, urlencoded and as multipart: decoded with replacement, never a 500."""
    from .walk import counts, rows_of

    path = form.format(t=scene.table.url, summary=scene.summary_hand, live=scene.live_hand)
    before = counts(app), rows_of(app, scene.table.id)
    boundary = "b0undary"
    parts = b"".join(
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode() + b"\xff\xfe\xc0\x80\r\n"
        for name in FORM_FIELDS[form]
    )
    for body, content_type in [
        (
            "&".join(f"{name}=%FF%FE%C0%80" for name in FORM_FIELDS[form]).encode() + b"&raw=\xff\xfe",
            "application/x-www-form-urlencoded",
        ),
        (parts + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"),
    ]:
        r = client.post(path, data=body, content_type=content_type, headers={"X-Partial": "1"})
        assert r.status_code < 500
        if r.status_code >= 400:
            assert (counts(app), rows_of(app, scene.table.id)) == before


def test_json_with_invalid_utf8(app, make_table, client):
    from .walk import counts

    t = make_table()
    before = counts(app)
    for path, headers in [
        ("/api/v1/tables", {}),
        (f"/api/v1/tables/{t.id}/hands", {"X-Table-Key": t.edit_key}),
        ("/api/v1/tables/import", {}),
    ]:
        r = client.post(path, data=b'{"players": ["\xff\xfe", "B"]}', content_type="application/json", headers=headers)
        assert r.status_code == 400 and r.get_json()["errors"][0]["code"] == "invalid_json", path
    r = client.post("/api/v1/score", data=b'{"players": ["\xff", "B"]}', content_type="application/json")
    assert r.status_code == 422 and r.get_json()["ok"] is False
    assert counts(app) == before


def test_markup_in_names_and_titles_is_escaped_everywhere(app, client):
    """Hostile player names and a hostile title through every page, partial, export and the API."""
    import csv
    import io
    import json

    from .conftest import Table
    from .test_security import _InlineFinder, _pages
    from .walk import Scene

    names = ["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', '=HYPERLINK("http://x")']
    title = "</title><svg/onload=alert(1)>"
    created = client.post("/api/v1/tables", json={"players": names, "first_dealer": names[0], "name": title})
    t = Table(client, created.get_json())
    a = names[0]
    summary = t.add_summary({"captures": {a: ["1g", "3g", "8g"]}, "outcome": {"type": "stop", "winner": a}})
    live = t.start_live()
    t.append(live, [{"type": "capture", "player": a, "cards": ["1j1"]}])
    scene = Scene(t, summary, live)
    for key in (t.edit_key, t.view_key):
        t.enter(key)
        for url, headers in [*_pages(app, scene), ("/", ())]:
            r = client.get(url, headers=dict(headers))
            r.close()
            if r.mimetype != "text/html":
                continue
            html = r.get_data(as_text=True)
            for raw in [*names[:2], title]:
                assert raw not in html, (url, raw)
            finder = _InlineFinder()
            finder.feed(html)
            assert not finder.found, (url, finder.found)
    t.enter()
    page = client.get(t.url).get_data(as_text=True)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "&#34;&gt;&lt;img src=x onerror=alert(1)&gt;" in page
    home = client.get("/").get_data(as_text=True)
    assert "&lt;/title&gt;&lt;svg/onload=alert(1)&gt;" in home
    export = client.get(f"{t.url}/export.json")
    assert export.mimetype == "application/json" and export.headers["X-Content-Type-Options"] == "nosniff"
    assert b"<" not in export.data and b">" not in export.data
    doc = json.loads(export.data)
    assert doc["players"] == names and doc["name"] == title
    rows = list(csv.reader(io.StringIO(client.get(f"{t.url}/export.csv").get_data(as_text=True).lstrip("\ufeff"))))
    cells = {c for row in rows for c in row}
    assert "'" + names[2] in cells and names[2] not in cells  # no formula for a spreadsheet to run
    assert names[0] in cells  # plain text in a CSV file is the name itself
    api = client.get(f"/api/v1/tables/{t.id}")
    assert api.mimetype == "application/json" and api.get_json()["players"] == names


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    body=st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=10),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
        max_leaves=12,
    )
)
def test_api_never_500(app, make_table, client, body):
    """Arbitrary JSON (the schemathesis fuzz keeps to the document's shapes): a refusal changes nothing."""
    from .walk import rows_of

    t = make_table()
    hand = t.start_live()
    for method, path in [
        ("POST", "/hands"),
        ("POST", f"/hands/{hand}/events"),
        ("POST", f"/hands/{hand}/undo"),
        ("PUT", f"/hands/{hand}"),
    ]:
        before = rows_of(app, t.id)
        r = t.api(method, path, json=body)
        assert r.status_code < 500, (path, body)
        if r.status_code >= 400:
            assert rows_of(app, t.id) == before and r.get_json()["ok"] is False, (path, body)
    assert client.post("/api/v1/score", json=body).status_code in (200, 422)
    assert client.post("/api/v1/tables", json=body).status_code in (201, 400, 422)
    assert client.post("/api/v1/tables/import", json=body).status_code in (201, 400, 422)


@pytest.mark.parametrize("path", ["/t/%00", "/j/%ff/%ff", "/t/abc/hands/99999999999999999999"])
def test_odd_paths(client, path):
    assert client.get(path).status_code in (401, 404)
