"""What an outside attack found (issue 10): each test names the attack it replays."""

from __future__ import annotations

import pytest

from scorekeeper.web import close_app


@pytest.fixture
def web(sqlite_app):
    """A phone on the app over a SQLite file (these faults are the same on PostgreSQL)."""
    return sqlite_app.test_client()


# -- 1. open redirect through the language switch ------------------------------------------------


REDIRECT_ATTACKS = [
    "/%09/evil.example",  # the tab is dropped by browsers: //evil.example
    "/%0a/x",  # a newline in the Location header (was a 500)
    "/%0d%0a/x",
    "/%0d/evil.example",
    "//evil.example",
    "/\\evil.example",
    "/%5cevil.example",
    "https://evil.example/",
    "http:/evil.example",
    "%20//evil.example",
    "/%20/evil.example",
    "/%E3%80%80/evil.example",  # an ideographic space
    "/%00/evil.example",
    "javascript:alert(1)",
    "",
]


@pytest.mark.parametrize("lang", ["en", "ko", "xx"])
@pytest.mark.parametrize("target", REDIRECT_ATTACKS)
def test_language_switch_never_redirects_off_site(web, lang, target):
    r = web.get(f"/lang/{lang}?next={target}")
    assert r.status_code == 302
    assert r.headers["Location"] == "/"


@pytest.mark.parametrize("target", ["/", "/t/abc", "/t/abc/rules?x=1", "/new?preset=pagat"])
def test_language_switch_goes_back_to_same_site_paths(web, target):
    r = web.get("/lang/en", query_string={"next": target})
    assert r.status_code == 302 and r.headers["Location"] == target


# -- 5. deeply nested JSON; 6. non-finite numbers --------------------------------------------------

from .walk import counts, rows_of  # noqa: E402

DEEP = "[" * 10_000 + "]" * 10_000
NON_FINITE = ["NaN", "Infinity", "-Infinity", "1e400", "-1e400"]


def _json_doors(t, live: int, done: int) -> list[tuple[str, str]]:
    """Every operation that reads a JSON body: (method, path)."""
    base = f"/api/v1/tables/{t.id}"
    return [
        ("POST", "/api/v1/score"),
        ("POST", "/api/v1/tables"),
        ("POST", "/api/v1/tables/import"),
        ("POST", f"{base}/hands"),
        ("PUT", f"{base}/hands/{done}"),
        ("POST", f"{base}/hands/{live}/events"),
        ("POST", f"{base}/hands/{live}/undo"),
    ]


@pytest.fixture
def played(make_table):
    from .conftest import STOP_A

    t = make_table()
    done = t.add_summary({"players": ["A", "B", "C"]} | STOP_A)
    live = t.start_live()
    t.append(live, [{"type": "capture", "player": "B", "cards": ["1j1"]}])
    return t, live, done


def _refused_with(r, status: set[int], code: str) -> None:
    assert r.status_code in status, (r.status_code, r.data[:300])
    assert r.get_json()["ok"] is False and r.get_json()["errors"][0]["code"] == code, r.get_json()


def test_deeply_nested_json_is_a_coded_400_everywhere(app, played):
    """Depth 10,000 raised RecursionError (a 500) on every JSON endpoint, /api/v1/score included."""
    t, live, done = played
    before = counts(app), rows_of(app, t.id)
    for method, path in _json_doors(t, live, done):
        for body in (DEEP, '{"summary": ' + DEEP + "}", '{"a":' * 5000 + "1" + "}" * 5000):
            r = t.client.open(
                path, method=method, data=body, content_type="application/json", headers={"X-Table-Key": t.edit_key}
            )
            _refused_with(r, {400}, "json_too_deep")
    assert (counts(app), rows_of(app, t.id)) == before


def test_moderately_nested_json_past_the_limit_is_refused_too(app, played):
    """Nesting Python can parse but nobody needs (the engine and the store recurse on it)."""
    t, _live, _done = played
    body = '{"players": ["A", "B"], "draw": {"cards": ' + "[" * 100 + "]" * 100 + "}}"
    _refused_with(t.client.post("/api/v1/tables", data=body, content_type="application/json"), {400}, "json_too_deep")


@pytest.mark.parametrize("number", NON_FINITE)
def test_non_finite_numbers_refused_at_the_door(app, played, number):
    """NaN/Infinity/1e400 were a 500 on PostgreSQL and, on SQLite, stored: the export then not JSON."""
    t, live, done = played
    bodies = {
        "/api/v1/score": '{"players": ["A", "B"], "outcome": {"type": "nagari"}, "chip_value": %s}',
        "/api/v1/tables": '{"players": ["A", "B"], "chip_value": %s}',
        "/api/v1/tables/import": '{"players": ["A", "B"], "chip_value": 1, "note": [%s]}',
        "/hands": '{"summary": {"players": ["A", "B", "C"], "outcome": {"type": "nagari"}, "x": %s}}',
        "/events": '{"seq": 1, "event": {"type": "capture", "player": "C", "cards": ["2j1"], "n": %s}}',
        "/undo": '{"seq": %s}',
    }
    before = counts(app), rows_of(app, t.id)
    for method, path in _json_doors(t, live, done):
        template = next(
            (v for k, v in bodies.items() if path.endswith(k)),
            '{"summary": {"players": ["A", "B", "C"], "outcome": {"type": "nagari"}, "x": %s}}',
        )
        r = t.client.open(
            path,
            method=method,
            data=template % number,
            content_type="application/json",
            headers={"X-Table-Key": t.edit_key, "If-Match": "*"},
        )
        _refused_with(r, {400}, "non_finite_number")
    assert (counts(app), rows_of(app, t.id)) == before
    t.enter()
    export = t.client.get(f"/t/{t.id}/export.json")
    assert export.status_code == 200
    import json

    json.loads(export.data, parse_constant=lambda c: pytest.fail(f"{c} in the export"))


@pytest.mark.parametrize("number", NON_FINITE)
def test_non_finite_numbers_refused_in_an_uploaded_export(app, played, number):
    import io

    t, _live, _done = played
    t.enter()
    before = counts(app)
    upload = f'{{"players": ["A", "B"], "chip_value": {number}}}'.encode()
    r = t.client.post("/import", data={"file": (io.BytesIO(upload), "t.json")})
    assert r.status_code == 422 and b"non_finite_number" in r.data
    assert counts(app) == before


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity", "1e400", "sNaN"])
def test_non_finite_chip_value_in_the_form_is_a_field_error(app, value):
    from .test_tables import table_form

    client = app.test_client()
    before = counts(app)
    r = client.post("/new", data=table_form(chip_value=value))
    assert r.status_code == 422
    assert counts(app) == before


def test_json_posted_to_a_form_endpoint_is_checked_the_same(app, played):
    """Flask-WTF reads a JSON body as form data: deep or non-finite JSON there is a 400, not a 500."""
    t, _live, _done = played
    for body in (DEEP, '{"confirm": NaN}'):
        r = t.client.post("/new", data=body, content_type="application/json", headers={"Accept": "application/json"})
        assert r.status_code == 400, r.status_code


# -- 8. HSTS, proxies and hosts -----------------------------------------------------------------------


def test_hsts_only_over_https(app, make_table):
    t = make_table()
    plain, secure = app.test_client(), app.test_client()
    for path in ("/", f"/t/{t.id}", "/api/v1/openapi.json", "/healthz"):
        assert "Strict-Transport-Security" not in plain.get(path).headers, path
        hsts = secure.get(path, base_url="https://localhost").headers.get("Strict-Transport-Security", "")
        assert hsts.startswith("max-age=") and int(hsts.split("=")[1].split(";")[0]) >= 15_552_000, (path, hsts)


def test_hsts_behind_a_trusted_proxy_only(tmp_path):
    from tests.conftest import make_app

    for proxies, expected in [(0, False), (1, True)]:
        app = make_app(f"sqlite:///{tmp_path / f'h{proxies}.db'}", tmp_path, TRUSTED_PROXIES=proxies)
        r = app.test_client().get("/", headers={"X-Forwarded-Proto": "https"})
        assert ("Strict-Transport-Security" in r.headers) is expected
        close_app(app)


@pytest.mark.parametrize("setting", [["scores.example"], "scores.example, other.example"])
def test_links_only_for_configured_hosts(tmp_path, setting):
    """With TRUSTED_HOSTS set, a request naming another host is a coded 400, and no link is built from it."""
    from tests.conftest import make_app

    app = make_app(f"sqlite:///{tmp_path / 'hosts.db'}", tmp_path, TRUSTED_HOSTS=setting)
    client = app.test_client()
    r = client.post("/api/v1/tables", json={"players": ["A", "B"]}, headers={"Host": "evil.example"})
    assert r.status_code == 400 and r.get_json()["errors"][0]["code"] == "bad_host"
    from scorekeeper.web.catalogue.messages import MESSAGES

    assert r.get_json()["errors"][0]["message"] in MESSAGES["err_bad_host"]
    assert client.get("/", headers={"Host": "evil.example"}).status_code == 400
    made = client.post("/api/v1/tables", json={"players": ["A", "B"]}, headers={"Host": "scores.example"})
    assert made.status_code == 201 and made.get_json()["edit_link"].startswith("http://scores.example/")
    close_app(app)


# -- 7. player names; CSV cells ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "stored"),
    [
        ([" Mina ", "Jun"], ["Mina", "Jun"]),
        (["Jose\u0301", "Jun"], ["Jos\u00e9", "Jun"]),  # NFC
        (["\u200bMina\ufeff", "\u3000Jun"], ["Mina", "Jun"]),  # zero-width and ideographic space trimmed
        (["민아", "준"], ["민아", "준"]),
        (["👨\u200d👩\u200d👧", "Jun"], ["👨\u200d👩\u200d👧", "Jun"]),  # a joiner inside an emoji stays
    ],
)
def test_player_names_are_normalised(web, given, stored):
    r = web.post("/api/v1/tables", json={"players": given})
    assert r.status_code == 201, r.get_json()
    assert (
        web.get(r.get_json()["url"], headers={"X-Table-Key": r.get_json()["view_key"]}).get_json()["players"] == stored
    )


@pytest.mark.parametrize(
    ("players", "code"),
    [
        (["A\u202eB", "Jun"], "bad_player_name"),  # a bidi override turns what follows around
        (["A\u2066B", "Jun"], "bad_player_name"),
        (["A\x07", "Jun"], "bad_player_name"),  # a control character
        (["\u200b\u200b", "Jun"], "bad_player_name"),  # invisible only
        (["\u3164", "Jun"], "bad_player_name"),  # the Hangul filler looks empty
        (["  ", "Jun"], "bad_player_name"),
        (["Jos\u00e9", "Jose\u0301"], "duplicate_player"),  # equal after NFC
        (["Mina", " Mina"], "duplicate_player"),
        (["Mina", "MINA"], "duplicate_player"),
        (["Ｍｉｎａ", "Mina"], "duplicate_player"),  # full-width: the same name to the eye
    ],
)
def test_bad_or_twin_player_names_are_refused(app, players, code):
    from .walk import counts

    client = app.test_client()
    before = counts(app)
    r = client.post("/api/v1/tables", json={"players": players})
    assert r.status_code == 422 and r.get_json()["errors"][0]["code"] == code, r.get_json()
    r = client.post("/api/v1/tables/import", json={"players": players})
    assert r.status_code == 422 and r.get_json()["errors"][0]["code"] == code, r.get_json()
    from .test_tables import table_form

    r = client.post("/new", data=table_form(players=tuple(players)))
    from scorekeeper.web.catalogue.messages import MESSAGES

    # On the form a name that trims to nothing is an empty seat: here one player is left.
    shown = ["players_distinct"] if code == "duplicate_player" else ["player_name_bad", "players_needed"]
    assert r.status_code == 422 and any(MESSAGES[k][0] in r.get_data(as_text=True) for k in shown)
    assert counts(app) == before


def test_the_form_stores_normalised_names(app):
    from .test_tables import table_form

    client = app.test_client()
    r = client.post("/new", data=table_form(players=(" Jose\u0301\u200b", "Jun", "Hana")))
    assert r.status_code == 302
    page = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "Jos\u00e9" in page and "Jose\u0301" not in page


@pytest.mark.parametrize(
    "name", ["=1+2", " =1+2", "\u200b=1+2", "\n=1+2", "\t+1", "\u00a0-1", "\ufeff@SUM(A1)", "\r=1"]
)
def test_csv_cells_never_start_a_formula(name):
    from scorekeeper.web.views.export import _cell

    assert _cell(name).startswith("'"), name


# -- 9. what the API says it does -------------------------------------------------------------------


def test_options_on_import_advertises_only_post(web):
    """``/tables/<id>`` matched "import": OPTIONS advertised GET, and GET answered as for a table id."""
    r = web.open("/api/v1/tables/import", method="OPTIONS")
    assert set(r.headers["Allow"].replace(" ", "").split(",")) == {"POST", "OPTIONS"}
    r = web.get("/api/v1/tables/import")
    assert r.status_code == 405 and r.get_json()["errors"][0]["code"] == "method_not_allowed"


def test_every_documented_operation_is_what_options_advertises(sqlite_app):
    from scorekeeper.web.api.openapi import document

    client = sqlite_app.test_client()
    made = client.post("/api/v1/tables", json={"players": ["A", "B"]}).get_json()
    for path, ops in document()["paths"].items():
        url = "/api/v1" + path.replace("{table}", made["id"]).replace("{hand}", "1").replace("{payment}", "1")
        allowed = set(client.open(url, method="OPTIONS").headers["Allow"].replace(" ", "").split(","))
        documented = {m.upper() for m in ops if m != "parameters"}
        assert allowed - {"OPTIONS", "HEAD"} == documented, (path, allowed, documented)


def _properties(name: str) -> dict:
    from scorekeeper.web.api.openapi import document

    return document()["components"]["schemas"][name]["properties"]


@pytest.mark.parametrize(
    "path, schema",
    [("/api/v1/tables", "SeriesConfig"), ("/api/v1/tables/import", "SeriesExport"), ("/api/v1/score", "Summary")],
)
def test_null_is_taken_only_where_the_document_says_nullable(web, path, schema):
    """``"draw": null`` was taken though the document says object: the server and the document agree now."""
    base = {"players": ["A", "B"]} | ({"outcome": {"type": "nagari"}} if schema == "Summary" else {})
    assert web.post(path, json=base).status_code in (200, 201)
    for name, spec in _properties(schema).items():
        r = web.post(path, json=base | {name: None})
        if spec.get("nullable") or spec == {}:
            assert r.status_code in (200, 201), (name, r.get_json())
        else:
            assert r.status_code == 422, (name, r.status_code)


def test_a_table_name_past_the_documented_length_is_refused_not_cut(web):
    r = web.post("/api/v1/tables", json={"players": ["A", "B"], "name": "x" * 121})
    assert r.status_code == 422 and r.get_json()["errors"][0]["path"] == "name"
    assert web.post("/api/v1/tables", json={"players": ["A", "B"], "name": "x" * 120}).status_code == 201


# -- issue 23, item 9: another site's link does not set this site's cookies ------------------------

CROSS_SITE = [
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site"},
    {"Origin": "https://evil.example"},
    {"Referer": "https://evil.example/page"},
    {"Sec-Fetch-Site": "cross-site", "Referer": "http://localhost/"},
]
SAME_SITE = [
    {},
    {"Sec-Fetch-Site": "same-origin"},
    {"Sec-Fetch-Site": "none"},
    {"Referer": "http://localhost/t/x"},
    {"Origin": "http://localhost"},
]


@pytest.mark.parametrize("path", ["/lang/ko?next=/", "/gloss/on?next=/", "/text/big?next=/"])
@pytest.mark.parametrize("headers", CROSS_SITE)
def test_another_sites_link_sets_no_cookie(web, path, headers):
    r = web.get(path, headers=headers)
    assert r.status_code == 302 and r.headers["Location"] == "/"  # the phone still lands on the page
    assert "Set-Cookie" not in r.headers


@pytest.mark.parametrize(
    "path, cookie", [("/lang/ko?next=/", "lang=ko"), ("/gloss/on?next=/", "=1"), ("/text/big?next=/", "text=big")]
)
@pytest.mark.parametrize("headers", SAME_SITE)
def test_this_sites_own_links_set_the_cookie(web, path, cookie, headers):
    r = web.get(path, headers=headers)
    assert r.status_code == 302 and cookie in r.headers.get("Set-Cookie", "")
