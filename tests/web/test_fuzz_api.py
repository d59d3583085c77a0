"""Every operation of the API fuzzed from its own OpenAPI document (schemathesis, in process).

The document is read from ``/api/v1/openapi.json`` through the app's WSGI interface. Each
operation gets ``EXAMPLES`` schema-conforming cases and ``EXAMPLES`` schema-violating ones,
sent to a real table with its edit key, its read-only key, no key or a made-up one (and to
made-up tables and hands). Whatever comes in: never a 500; the answer conforms to the
document (status, content type, body schema); a refusal is coded and changes no row.
"""
from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance, response_schema_conformance, status_code_conformance,
)

from scorekeeper.engine.errors import ERROR_CODES
from scorekeeper.web.errors import WEB_ERROR_CODES
from scorekeeper.web.openapi import document

from .walk import Scene, counts, rows_of

EXAMPLES = 25  # per operation and generation mode: 13 operations × 2 × 25 = 650 requests, ~20 s
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
OPERATIONS = [(method.upper(), path) for path, ops in document()["paths"].items() for method in ops
              if method != "parameters"]
CODES = set(ERROR_CODES) | set(WEB_ERROR_CODES)


@pytest.fixture
def fuzzed(sqlite_app, make_table):
    """The API's document as schemathesis reads it, and a table with a finished and a live hand."""
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", sqlite_app)
    return schema, Scene.make(make_table)


@pytest.fixture
def make_table(sqlite_app):
    from .conftest import Table

    client = sqlite_app.test_client()

    def make():
        r = client.post("/api/v1/tables", json={"players": ["A", "B", "C"], "first_dealer": "A"})
        return Table(client, r.get_json())

    return lambda **_: make()


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE], ids=["conforming", "violating"])
@pytest.mark.parametrize("method, path", OPERATIONS, ids=[f"{m} {p}" for m, p in OPERATIONS])
def test_api_operation(sqlite_app, fuzzed, method, path, mode):
    schema, scene = fuzzed
    operation = schema[path][method]
    table = scene.table

    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(case=operation.as_strategy(generation_mode=mode),
           target=st.sampled_from(["table", "table", "generated"]),
           hand=st.sampled_from(["summary", "live", "generated"]),
           key=st.sampled_from(["edit", "edit", "view", "none", "made-up"]),
           seq=st.booleans())
    def run(case, target, hand, key, seq):
        if "table" in (case.path_parameters or {}) and target == "table":
            case.path_parameters["table"] = table.id
        if "hand" in (case.path_parameters or {}) and hand != "generated":
            case.path_parameters["hand"] = scene.summary_hand if hand == "summary" else scene.live_hand
        if seq and isinstance(case.body, dict) and "seq" in case.body:  # the log's length: past the conflict check
            case.body["seq"] = len(table.api("GET", f"/hands/{scene.live_hand}/events").get_json().get("events") or [])
        headers = dict(case.headers or {})
        headers.pop("X-Table-Key", None)
        if key != "none":
            headers["X-Table-Key"] = {"edit": table.edit_key, "view": table.view_key}.get(key, "made-up-key")
        # The app compresses what the client accepts; the WSGI client here does not decompress.
        headers["Accept-Encoding"] = "identity"
        case.headers = headers
        before = counts(sqlite_app), rows_of(sqlite_app, table.id)
        response = case.call()
        case.validate_response(response, checks=CHECKS)
        if response.status_code >= 400:
            body = response.json()
            assert body["ok"] is False and {e["code"] for e in body["errors"]} <= CODES, body
            assert (counts(sqlite_app), rows_of(sqlite_app, table.id)) == before, (response.status_code, body)

    run()
