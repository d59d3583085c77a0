"""Rate limits per address: tables created, and ids, codes and keys refused (a coded 429)."""

from __future__ import annotations

import io
import json

import pytest

from scorekeeper.web import close_app
from tests.conftest import make_app

from .test_tables import table_form

CREATE, GUESS = 5, 6  # small budgets, so the tests reach them quickly


@pytest.fixture
def limited(tmp_path):
    app = make_app(
        f"sqlite:///{tmp_path / 'limits.db'}",
        tmp_path,
        RATELIMIT_ENABLED=True,
        RATELIMIT_CREATE=f"{CREATE}/hour",
        RATELIMIT_GUESS=f"{GUESS}/minute",
    )
    yield app
    close_app(app)


def _coded_429(r, json_body: bool):
    assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
    if json_body:
        assert r.get_json()["errors"][0]["code"] == "rate_limited"
    else:
        assert r.mimetype == "text/html" and b'data-code="rate_limited"' in r.data


def test_creating_tables_shares_one_budget(limited):
    """The form, the API and an import all count; the budget's end is a 429, HTML or JSON."""
    client = limited.test_client()
    made = client.post("/api/v1/tables", json={"players": ["A", "B"]}).get_json()
    client.get(f"/j/{made['id']}/{made['edit_key']}")
    export = client.get(f"/t/{made['id']}/export.json").data
    assert client.post("/new", data=table_form()).status_code == 302
    assert client.post("/import", data={"file": (io.BytesIO(export), "t.json")}).status_code == 303
    assert client.post("/api/v1/tables/import", json=json.loads(export)).status_code == 201
    assert client.post("/new", data=table_form(players=("A", "A"))).status_code == 422  # refused: not counted
    assert client.post("/api/v1/tables", json={"players": ["A", "B"]}).status_code == 201  # the fifth
    _coded_429(client.post("/api/v1/tables", json={"players": ["A", "B"]}), json_body=True)
    _coded_429(client.post("/new", data=table_form()), json_body=False)
    _coded_429(client.post("/api/v1/tables/import", json=json.loads(export)), json_body=True)
    # Reading, playing and other addresses are not held back.
    assert client.get("/new").status_code == 200 and client.get(f"/t/{made['id']}").status_code == 200
    other = limited.test_client()
    assert (
        other.post(
            "/api/v1/tables", json={"players": ["A", "B"]}, environ_base={"REMOTE_ADDR": "192.0.2.8"}
        ).status_code
        == 201
    )


@pytest.mark.parametrize("guess", ["share_link", "join_code", "api_key", "table_id"])
def test_guessing_codes_and_keys_is_limited(limited, guess):
    client = limited.test_client()
    made = client.post("/api/v1/tables", json={"players": ["A", "B"]}).get_json()
    table = made["id"]
    attempts = {
        "share_link": lambda i: client.get(f"/j/{table}/wrong{i}"),
        "join_code": lambda i: client.post("/join", data={"code": f"{table}.wrong{i}"}),
        "api_key": lambda i: client.get(f"/api/v1/tables/{table}", headers={"X-Table-Key": f"wrong{i}"}),
        "table_id": lambda i: client.get(f"/t/nosuch{i}"),
    }[guess]
    for i in range(GUESS):
        assert attempts(i).status_code in (303, 401, 404)
    _coded_429(attempts(GUESS), json_body=guess == "api_key")
    # Now even the right secret waits: guessing must not go on through another door.
    _coded_429(client.get(f"/j/{table}/{made['edit_key']}"), json_body=False)
    _coded_429(client.get(f"/api/v1/tables/{table}/version", headers={"X-Table-Key": made["edit_key"]}), json_body=True)
    assert (
        limited.test_client()
        .get(f"/j/{table}/{made['edit_key']}", environ_base={"REMOTE_ADDR": "192.0.2.9"})
        .status_code
        == 302
    )


def test_right_secrets_never_count(limited):
    client = limited.test_client()
    made = client.post("/api/v1/tables", json={"players": ["A", "B"]}).get_json()
    for _ in range(GUESS * 3):
        assert client.get(f"/j/{made['id']}/{made['view_key']}").status_code == 302
        assert (
            client.get(f"/api/v1/tables/{made['id']}/version", headers={"X-Table-Key": made["edit_key"]}).status_code
            == 200
        )
    # A viewer asking to edit is refused (403) but is not guessing.
    for _ in range(GUESS + 1):
        r = client.post(
            f"/api/v1/tables/{made['id']}/hands", json={"log": {}}, headers={"X-Table-Key": made["view_key"]}
        )
        assert r.status_code == 403


def test_limits_follow_the_client_behind_a_trusted_proxy(tmp_path):
    app = make_app(
        f"sqlite:///{tmp_path / 'p.db'}",
        tmp_path,
        RATELIMIT_ENABLED=True,
        RATELIMIT_GUESS="2/minute",
        TRUSTED_PROXIES=1,
    )
    client = app.test_client()
    for _ in range(2):
        client.get("/t/nosuch", headers={"X-Forwarded-For": "203.0.113.1"})
    assert client.get("/t/nosuch", headers={"X-Forwarded-For": "203.0.113.1"}).status_code == 429
    assert client.get("/t/nosuch", headers={"X-Forwarded-For": "203.0.113.2"}).status_code == 404
    close_app(app)


def test_limits_off_by_config(client):
    for i in range(40):
        assert client.get(f"/t/nosuch{i}").status_code == 404


def test_every_api_operation_documents_the_429():
    from scorekeeper.web.api.openapi import document

    for path, ops in document()["paths"].items():
        for method, op in ops.items():
            if method != "parameters":
                assert op["responses"]["429"]["content"]["application/json"]["schema"] == {
                    "$ref": "#/components/schemas/Error"
                }, (method, path)


def test_refused_imports_count_too(limited):
    """Replaying a refused export costs what a taken one does: every import counts (issue 10, item 4)."""
    client = limited.test_client()
    refused = json.dumps({"players": ["A", "B"], "hands": [{"summary": {"outcome": {"type": "nope"}}}]}).encode()
    for i in range(CREATE):
        doors = [
            lambda: client.post("/import", data={"file": (io.BytesIO(refused), "t.json")}),
            lambda: client.post("/api/v1/tables/import", data=refused, content_type="application/json"),
        ]
        assert doors[i % 2]().status_code == 422
    _coded_429(client.post("/api/v1/tables", json={"players": ["A", "B"]}), json_body=True)


def _broken_store(tmp_path, kind: str, monkeypatch):
    """The counts' store down: Redis not answering, or the counts file on a full disk."""
    if kind == "redis-down":
        return make_app(
            f"sqlite:///{tmp_path / 'db.db'}",
            tmp_path,
            RATELIMIT_ENABLED=True,
            RATELIMIT_STORAGE_URI="redis://127.0.0.1:9/0",
        )  # the discard port: nothing listens
    import sqlite3

    from scorekeeper.web.server.limitstore import SQLiteFileStorage

    def full(*_args, **_kwargs):
        raise sqlite3.OperationalError("database or disk is full")

    for name in ("acquire_entry", "get_moving_window", "incr", "get", "get_expiry"):
        monkeypatch.setattr(SQLiteFileStorage, name, full)
    return make_app(f"sqlite:///{tmp_path / 'db.db'}", tmp_path, RATELIMIT_ENABLED=True)


@pytest.mark.parametrize("kind", ["redis-down", "disk-full"])
def test_the_app_serves_when_the_counts_store_is_down(tmp_path, monkeypatch, kind):
    """Issue 23, item 3: the limits fail open (README, "Rate limits"): with the counts' store
    down every request answered 500, /healthz and the polls included; now each is answered as if
    no budget were spent, and a refused key is still a 401."""
    app = _broken_store(tmp_path, kind, monkeypatch)
    client, bare = app.test_client(), app.test_client(use_cookies=False)
    assert client.get("/healthz").status_code == 200
    r = client.post("/api/v1/tables", json={"players": ["A", "B", "C"]})
    assert r.status_code == 201, r.data
    created = r.get_json()
    key = {"X-Table-Key": created["edit_key"]}
    for _ in range(2):  # through Flask, then (a plain poll) the fast path
        assert bare.get(f"/api/v1/tables/{created['id']}/version", headers=key).status_code == 200
    assert client.get(f"/api/v1/tables/{created['id']}", headers=key).status_code == 200
    wrong = client.get(f"/api/v1/tables/{created['id']}", headers={"X-Table-Key": "nope"})
    assert wrong.status_code == 401 and wrong.get_json()["errors"][0]["code"] == "no_access"
    assert client.get("/").status_code == 200
    close_app(app)
