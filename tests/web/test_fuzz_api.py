"""Every operation of the API fuzzed from its own OpenAPI document (schemathesis, in process).

The document is read from ``/api/v1/openapi.json`` through the app's WSGI interface. Each
operation gets ``EXAMPLES`` schema-conforming cases and ``EXAMPLES`` schema-violating ones,
sent to a real table with its edit key, its read-only key, no key or a made-up one (and to
made-up tables and hands), on SQLite and on PostgreSQL. Every check schemathesis has runs
(``--checks all``): never a 500; the answer conforms to the document (status, content type,
headers, body schema); schema-valid data is taken, schema-violating data refused; a credential
is enforced. A refusal is coded and changes no row.
"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import CHECKS, load_all_checks
from schemathesis.config._checks import PositiveDataAcceptanceConfig
from schemathesis.core.parameters import ParameterLocation

from scorekeeper.engine.errors import ERROR_CODES
from scorekeeper.tables.refusals import WEB_ERROR_CODES
from scorekeeper.web.api.openapi import document

from .conftest import STOP_A, group_with_an_empty_evening
from .walk import Scene, counts, rows_of

EXAMPLES = 20  # per operation, generation mode and database: 13 × 2 × 20 × 2 = 1,040 requests, ~60 s
load_all_checks()
ALL_CHECKS = CHECKS.get_all()  # ``--checks all``: conformance, and positive data taken, negative refused
# A schema cannot hold the rules of Go-Stop: a well-formed summary may still be impossible (a card
# captured twice, a stop below the target). The document says so: 422, refused by the engine with a
# code. Every other status schemathesis expects of schema-valid data stays as it is.
POSITIVE_STATUSES = ["2xx", "3xx", "401", "403", "404", "409", "422", "429"]
OPERATIONS = [
    (method.upper(), path) for path, ops in document()["paths"].items() for method in ops if method != "parameters"
]
CODES = set(ERROR_CODES) | set(WEB_ERROR_CODES)
# What the document itself rules out: schema-valid data is never refused with one of these
# (a 422 for it is the rules of the game, never the shape of the request).
SHAPE_CODES = {
    "bad_request",
    "invalid_json",
    "json_too_deep",
    "non_finite_number",
    "precondition_required",
    "bad_summary",
    "bad_event",
    "bad_series",
}


@pytest.fixture
def fuzzed(app, make_table):
    """The API's document as schemathesis reads it, and a table with a finished and a live hand."""
    app.config["PUSH_STREAM_SECONDS"] = 0.2  # a push stream is read to its end: its first events, then it ends
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)
    schema.config.checks.positive_data_acceptance = PositiveDataAcceptanceConfig(expected_statuses=POSITIVE_STATUSES)
    scene = Scene.make(make_table)
    client = app.test_client()
    group = group_with_an_empty_evening(client, "모임", ("A", "B", "C"))
    evening = group.pop("table")  # the scene's group as the API answered it
    client.post(
        f"/api/v1/tables/{evening['id']}/hands", json={"summary": STOP_A}, headers={"X-Table-Key": evening["edit_key"]}
    )
    scene.group = group  # type: ignore[attr-defined]
    return schema, scene


@pytest.fixture
def make_table(app):
    from .conftest import Table

    client = app.test_client()

    def make():
        r = client.post("/api/v1/tables", json={"players": ["A", "B", "C"], "first_dealer": "A"})
        return Table(client, r.get_json())

    return lambda **_: make()


PATH, BODY, HEADER = ParameterLocation.PATH, ParameterLocation.BODY, ParameterLocation.HEADER


def _violates(case, part: ParameterLocation) -> bool:
    """Whether schemathesis made ``part`` of the request the one that breaks the document.

    Which cases are drawn follows the constants of the project's own modules (Hypothesis draws
    from them): a constant changed anywhere brought a case whose violating seq the test mended."""
    component = case.meta.components.get(part) if case.meta is not None else None
    return component is not None and component.mode == GenerationMode.NEGATIVE


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE], ids=["conforming", "violating"])
@pytest.mark.parametrize("method, path", OPERATIONS, ids=[f"{m} {p}" for m, p in OPERATIONS])
def test_api_operation(app, fuzzed, method, path, mode):
    schema, scene = fuzzed
    operation = schema[path][method]
    table = scene.table

    @settings(
        max_examples=EXAMPLES, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck)
    )
    @given(
        case=operation.as_strategy(generation_mode=mode),
        target=st.sampled_from(["table", "table", "generated"]),
        hand=st.sampled_from(["summary", "live", "generated"]),
        key=st.sampled_from(["edit", "edit", "view", "none", "made-up"]),
        seq=st.booleans(),
        current=st.booleans(),
    )
    def run(case, target, hand, key, seq, current):
        # Real ids, seq and ETag put in only where the case does not break the document: put into
        # the part it breaks, they would mend it, and the check that violating data is refused
        # would fail on data the test made valid (a seq of -1 made the log's length, an undo taken).
        path_ok, body_ok, headers_ok = (not _violates(case, part) for part in (PATH, BODY, HEADER))
        if "table" in (case.path_parameters or {}) and target == "table" and path_ok:
            case.path_parameters["table"] = table.id
        group = scene.group
        if "group" in (case.path_parameters or {}) and target == "table" and path_ok:
            case.path_parameters["group"] = group["id"]
        if "hand" in (case.path_parameters or {}) and hand != "generated" and path_ok:
            case.path_parameters["hand"] = scene.summary_hand if hand == "summary" else scene.live_hand
        if seq and body_ok and isinstance(case.body, dict) and "seq" in case.body:  # past the conflict check
            case.body["seq"] = len(table.api("GET", f"/hands/{scene.live_hand}/events").get_json().get("events") or [])
        headers = dict(case.headers or {})
        headers.pop("X-Table-Key", None)
        headers.pop("X-Group-Key", None)
        # The hand's ETag: past the version check.
        if current and headers_ok and "If-Match" in headers and hand != "generated" and path_ok:
            headers["If-Match"] = table.api("GET", f"/hands/{case.path_parameters['hand']}").headers.get("ETag", "x")
        if key != "none" and path.startswith("/groups/{group}"):
            headers["X-Group-Key"] = {"edit": group["edit_key"], "view": group["view_key"]}.get(key, "made-up-key")
        elif key != "none":
            headers["X-Table-Key"] = {"edit": table.edit_key, "view": table.view_key}.get(key, "made-up-key")
        # The app compresses what the client accepts; the WSGI client here does not decompress.
        headers["Accept-Encoding"] = "identity"
        case.headers = headers
        before = counts(app), rows_of(app, table.id)
        response = case.call()
        # The key is the test's own choice, not generated: ignored_auth then probes without it.
        case.validate_response(response, checks=ALL_CHECKS, headers=headers)
        if response.status_code >= 400:
            body = response.json()
            assert body["ok"] is False and {e["code"] for e in body["errors"]} <= CODES, body
            if mode == GenerationMode.POSITIVE:
                assert not {e["code"] for e in body["errors"]} & SHAPE_CODES, (case.body, body)
            assert (counts(app), rows_of(app, table.id)) == before, (response.status_code, body)

    run()


# Every property set to null in a body that is otherwise taken: the document says whether null
# is allowed (``nullable``), and the server must agree. Schemathesis did not generate these where
# a hand-run of it did (issue 29: `POST /groups` took `"rules": {"options": null}`).
NULL_PROBES = {
    "/groups": {"name": "모임", "players": ["A", "B"]},
    "/tables": {"players": ["A", "B"]},
}


def _null_probes(schemas: dict, schema: dict, body: dict):
    """(body with one property null, whether the document allows that null), for each property
    and each property of a referenced object."""
    props = schema.get("properties", {})
    for name, prop in props.items():
        ref = prop.get("$ref") or next((a.get("$ref") for a in prop.get("anyOf", []) if "$ref" in a), None)
        nullable = bool(prop.get("nullable")) or any(a.get("type") == "null" for a in prop.get("anyOf", []))
        yield body | {name: None}, nullable, name
        if ref:
            inner = schemas[ref.rsplit("/", 1)[-1]]
            for sub, sub_prop in inner.get("properties", {}).items():
                if "$ref" in sub_prop or inner.get("type") != "object":
                    continue
                yield body | {name: {sub: None}}, bool(sub_prop.get("nullable")), f"{name}.{sub}"


@pytest.mark.parametrize("path", list(NULL_PROBES))
def test_a_null_is_taken_exactly_where_the_document_allows_it(client, path):
    doc = document()
    schemas = doc["components"]["schemas"]
    ref = doc["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    for body, nullable, name in _null_probes(schemas, schemas[ref.rsplit("/", 1)[-1]], NULL_PROBES[path]):
        if name in NULL_PROBES[path] and not nullable:
            continue  # a required field: refused whatever it is (the shape checks above)
        r = client.post("/api/v1" + path, json=body)
        assert (r.status_code < 300) == nullable, (path, name, r.status_code, r.get_json())


# Ids past what a row holds: schemathesis's own run (``--checks all``, issue 29) voided payment
# 139468164254531613326573568 and got a 500 (SQLite cannot bind it; PostgreSQL's INTEGER ends at 2**31 − 1).
BIG_IDS = [2**31, 2**63, 139468164254531613326573568]


def test_an_id_past_what_a_row_holds_is_not_found(client):
    """Every integer path parameter of the document (a hand, a payment) past 2**31 − 1 is a 404."""
    doc = document()
    group = client.post("/api/v1/groups", json={"name": "모임", "players": ["A", "B"]}).get_json()
    table = client.post("/api/v1/tables", json={"players": ["A", "B"]}).get_json()
    keys = {"X-Group-Key": group["edit_key"], "X-Table-Key": table["edit_key"], "If-Match": "*"}
    probed = 0
    for path, ops in doc["paths"].items():
        if "{hand}" not in path and "{payment}" not in path:
            continue
        for method in (m for m in ops if m != "parameters"):
            for big in BIG_IDS:
                url = "/api/v1" + path.format(table=table["id"], group=group["id"], hand=big, payment=big, name="A")
                r = client.open(url, method=method.upper(), headers=keys, json={} if method != "get" else None)
                assert r.status_code == 404, (method, url, r.status_code, r.get_json())
                probed += 1
    assert probed >= 3 * 7


@pytest.mark.parametrize("path", ["/tables", "/tables/import"])
@pytest.mark.parametrize("rules", [False, 0, "", [], 1.5])
def test_rules_that_are_neither_an_object_nor_null_are_refused(client, path, rules):
    """The document's ``rules`` is ``{preset, options}`` or null: schemathesis's run (``--checks
    all``, issue 29) had ``"rules": false`` and ``"rules": 0`` imported (201) as no rules."""
    r = client.post("/api/v1" + path, json={"players": ["A", "B"], "rules": rules})
    assert r.status_code == 422, r.get_json()
    assert [(e["code"], e["path"]) for e in r.get_json()["errors"]] == [("bad_value", "rules")]


@pytest.mark.parametrize("rules", ["pagat", "korean-common", "nope"])
def test_a_new_tables_rules_as_a_bare_preset_name_are_refused_as_the_document_says(client, rules):
    """The document's ``rules`` is ``{preset, options}`` or null, and ``POST /tables`` took a bare
    preset name (issue 29; a group's evening stored with one broke the group's page). No client
    sends one (the page's form and the tests send an object): refused, as a new group's are."""
    schemas = document()["components"]["schemas"]
    allowed = schemas["NewTable"]["properties"]["rules"]
    assert all(a.get("type") != "string" for a in allowed.get("anyOf", [allowed]))
    group = client.post("/api/v1/groups", json={"name": "모임", "players": ["A", "B"]}).get_json()
    for body, headers in (
        ({"players": ["A", "B"], "rules": rules}, {}),
        ({"group": group["id"], "players": ["A", "B"], "rules": rules}, {"X-Group-Key": group["edit_key"]}),
    ):
        r = client.post("/api/v1/tables", json=body, headers=headers)
        assert r.status_code == 422, r.get_json()
        assert [(e["code"], e["path"]) for e in r.get_json()["errors"]] == [("bad_value", "rules")]
    made = client.post("/api/v1/tables", json={"players": ["A", "B"], "rules": {"preset": "pagat"}})
    assert made.status_code == 201, made.get_json()


def test_an_import_takes_the_bare_preset_name_an_older_table_exports_and_its_document_says_so(client):
    """A table stored when ``POST /tables`` took ``"rules": "pagat"`` exports it so: its export
    imports back, and the document of ``/tables/import`` allows the preset's name."""
    allowed = document()["components"]["schemas"]["SeriesExport"]["properties"]["rules"]["anyOf"]
    assert any(a.get("type") == "string" and "korean-common" in a.get("enum", []) for a in allowed)
    r = client.post("/api/v1/tables/import", json={"players": ["A", "B"], "rules": "korean-common"})
    assert r.status_code == 201, r.get_json()


def test_the_document_bounds_a_group_imports_players_as_the_server_does(client):
    """Schemathesis (``--checks all``, issue 29): an import whose group has no players conformed to
    the document and was refused (422, 2 to 100 players): the document now says so."""
    from scorekeeper.tables.groups import MAX_GROUP_PLAYERS, MIN_PLAYERS

    players = document()["components"]["schemas"]["GroupHead"]["properties"]["players"]
    assert (players.get("minItems"), players.get("maxItems")) == (MIN_PLAYERS, MAX_GROUP_PLAYERS)
    for count in (0, 1, MAX_GROUP_PLAYERS + 1):
        doc = {"group": {"name": "모임", "players": [{"name": f"P{i}"} for i in range(count)]}}
        assert client.post("/api/v1/groups/import", json=doc).status_code == 422, count
