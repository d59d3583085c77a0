"""The JSON API: the engine contract, tables, hands, events, conflicts, and its OpenAPI document."""

from __future__ import annotations

import pytest

from .conftest import GO_PIBAK, GO_PIBAK_PAYMENTS, STOP_A

SUMMARY = {
    "players": ["A", "B"],
    "captures": {"A": ["1g", "3g", "8g", "2a", "4a", "8a"]},
    "outcome": {"type": "stop", "winner": "A"},
}


def test_score_contract(client):
    r = client.post("/api/v1/score", json=SUMMARY)
    assert r.status_code == 200
    body = r.get_json()
    assert body["ok"] and body["net"] == {"A": 16, "B": -16}
    assert body["payments"][0]["trail"][0]["id"] == "base"


@pytest.mark.parametrize(
    ("body", "code"),
    [
        pytest.param(b"{not json", "invalid_json", id="not-json"),
        pytest.param(b"\xff\xfe", "invalid_json", id="invalid-utf8"),
        pytest.param(b"[]", "bad_summary", id="array"),
        pytest.param(
            b'{"players": ["A"], "captures": {}, "outcome": {"type": "stop", "winner": "A"}}',
            "bad_players",
            id="one-player",
        ),
        pytest.param(
            b'{"players": ["A","B"], "captures": {"A": ["1g","1g"]}, "outcome": {"type": "stop", "winner": "A"}}',
            "card_twice",
            id="card-twice",
        ),
    ],
)
def test_score_refusals(client, body, code):
    r = client.post("/api/v1/score", data=body, content_type="application/json")
    assert r.status_code == 422
    assert r.get_json()["errors"][0]["code"] == code


def test_score_too_large(client):
    r = client.post("/api/v1/score", data=b"x" * (300 * 1024), content_type="application/json")
    assert r.status_code == 413 and r.get_json()["errors"][0]["code"] == "too_large"


def test_create_table(client):
    r = client.post("/api/v1/tables", json={"players": ["A", "B", "C"], "length": 6, "chip_value": 50})
    assert r.status_code == 201
    body = r.get_json()
    assert body["edit_key"] != body["view_key"] and len(body["id"]) >= 12
    got = client.get(f"/api/v1/tables/{body['id']}", headers={"X-Table-Key": body["view_key"]}).get_json()
    assert got["length"] == 6 and got["balances"] == {"A": 0, "B": 0, "C": 0}


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        pytest.param({"players": ["A"]}, 422, "bad_series_players", id="one-player"),
        pytest.param({"players": ["A", "B"], "rules": {"preset": "nope"}}, 422, "unknown_preset", id="preset"),
        pytest.param({"players": ["A", "B"], "surprise": 1}, 422, "bad_series", id="unknown-field"),
        pytest.param([1, 2], 400, "invalid_json", id="array"),
    ],
)
def test_create_table_refused(client, body, status, code):
    r = client.post("/api/v1/tables", json=body)
    assert r.status_code == status and r.get_json()["errors"][0]["code"] == code


def test_access(make_table, client):
    t = make_table()
    assert client.get(f"/api/v1/tables/{t.id}").status_code == 401
    assert t.api("GET", key="wrong").status_code == 401
    assert t.api("GET", key=t.view_key).status_code == 200
    r = t.api("POST", "/hands", key=t.view_key, json={"log": {}})
    assert r.status_code == 403 and r.get_json()["errors"][0]["code"] == "read_only"
    assert client.get("/api/v1/tables/nope", headers={"X-Table-Key": "x"}).status_code == 404


def test_live_hand_over_the_api(make_table):
    t = make_table()
    hand = t.start_live()
    r = t.append(hand, GO_PIBAK)
    body = r.get_json()
    assert body["seq"] == len(GO_PIBAK) and body["state"] is None  # over: no live state
    got = t.api("GET", f"/hands/{hand}").get_json()
    pays = {(p["from"], p["to"]): p["points"] for p in got["result"]["payments"]}
    assert pays == GO_PIBAK_PAYMENTS
    assert got["deal"]["winner"] == "A"


def test_append_conflict_answers_current_log(make_table):
    t = make_table()
    hand = t.start_live()
    t.append(hand, GO_PIBAK[:1])
    r = t.api("POST", f"/hands/{hand}/events", json={"seq": 0, "event": GO_PIBAK[1]})
    assert r.status_code == 409
    body = r.get_json()
    assert body["errors"][0]["code"] == "conflict" and body["seq"] == 1 and body["events"] == GO_PIBAK[:1]


def test_append_refused_by_engine(make_table):
    t = make_table()
    hand = t.start_live()
    r = t.api("POST", f"/hands/{hand}/events", json={"seq": 0, "event": {"type": "stop", "player": "A"}})
    assert r.status_code == 422 and r.get_json()["errors"][0]["code"] == "not_eligible"
    r = t.api(
        "POST", f"/hands/{hand}/events", json={"seq": 0, "event": {"type": "capture", "player": "Z", "cards": ["1g"]}}
    )
    assert r.status_code == 422 and r.get_json()["errors"][0]["code"] == "unknown_player"
    for bad in ({"seq": -1, "event": {"type": "nagari"}}, {"seq": "0", "event": {}}, {"seq": 0, "event": "x"}):
        assert t.api("POST", f"/hands/{hand}/events", json=bad).status_code == 422
    assert t.api("GET", f"/hands/{hand}/events").get_json()["seq"] == 0


def test_append_after_the_end(make_table):
    t = make_table()
    hand = t.start_live()
    t.append(hand, [{"type": "nagari"}])
    r = t.api("POST", f"/hands/{hand}/events", json={"seq": 1, "event": {"type": "nagari"}})
    assert r.status_code == 409


def test_undo(make_table):
    t = make_table()
    hand = t.start_live()
    t.append(hand, GO_PIBAK[:3])
    assert t.api("POST", f"/hands/{hand}/undo", json={"seq": 2}).status_code == 409
    r = t.api("POST", f"/hands/{hand}/undo", json={"seq": 3})
    assert r.status_code == 200 and r.get_json()["events"] == GO_PIBAK[:2]


def test_summary_hands(make_table):
    t = make_table()
    hand = t.add_summary(STOP_A)
    assert t.state()["balances"] == {"A": 12, "B": -6, "C": -6}
    etag = t.api("GET", f"/hands/{hand}").headers["ETag"]
    r = t.api(
        "PUT", f"/hands/{hand}", json={"summary": STOP_A | {"outcome": {"type": "nagari"}}}, headers={"If-Match": etag}
    )
    assert r.status_code == 200
    assert t.state()["balances"] == {"A": 0, "B": 0, "C": 0}
    assert t.api("GET", "/hands").get_json()["hands"][0]["deal"]["outcome"]["type"] == "nagari"
    assert t.api("DELETE", f"/hands/{hand}", headers={"If-Match": r.headers["ETag"]}).status_code == 200
    assert t.state()["hands"] == []


def test_hand_refused_and_stale(make_table):
    t = make_table()
    r = t.api(
        "POST",
        "/hands",
        json={"summary": {"captures": {"A": ["1g", "xx"]}, "outcome": {"type": "stop", "winner": "A"}}},
    )
    assert r.status_code == 422 and r.get_json()["errors"][0]["code"] == "unknown_card"
    t.add_summary(STOP_A)
    r = t.api("POST", "/hands", json={"summary": STOP_A, "count": 0})
    assert r.status_code == 409 and r.get_json()["count"] == 1
    assert t.api("POST", "/hands", json={"summary": STOP_A, "log": {}}).status_code == 422
    assert t.api("POST", "/hands", json={"log": {"events": [{"type": "nagari"}]}}).status_code == 422


def test_no_second_live_hand(make_table):
    t = make_table()
    t.start_live()
    r = t.api("POST", "/hands", json={"log": {}})
    assert r.status_code == 422 and r.get_json()["errors"][0]["code"] == "hand_not_finished"


def test_version(make_table):
    t = make_table()
    v = t.api("GET", "/version").get_json()["version"]
    t.add_summary(STOP_A)
    assert t.api("GET", "/version").get_json()["version"] == v + 1


def test_openapi_describes_every_route(app, client):
    doc = client.get("/api/v1/openapi.json").get_json()
    assert doc["openapi"].startswith("3.")
    documented = {(path, method) for path, ops in doc["paths"].items() for method in ops if method != "parameters"}
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/v1/") or rule.endpoint == "api.openapi_document":
            continue
        path = (
            rule.rule.removeprefix("/api/v1")
            .replace("<table_id:public_id>", "{table}")
            .replace("<int:hand_id>", "{hand}")
            .replace("<group_id:public_id>", "{group}")
            .replace("<int:payment_id>", "{payment}")
            .replace("<table_id:table>", "{table}")
            .replace("<name>", "{name}")
        )
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            assert (path, method.lower()) in documented, (path, method)


def test_concurrent_appends_one_wins(app, make_table):
    """Phones appending the same seq at once: one is stored, the others told; the log stays gap-free."""
    import threading

    t = make_table()
    hand = t.start_live()
    statuses: list[int] = []
    barrier = threading.Barrier(6)

    def phone(n: int):
        client = app.test_client()
        barrier.wait()
        for seq in range(4):
            r = client.post(
                f"/api/v1/tables/{t.id}/hands/{hand}/events",
                headers={"X-Table-Key": t.edit_key},
                json={"seq": seq, "event": {"type": "capture", "player": "A", "cards": [f"{seq + 1}j1"]}},
            )
            statuses.append(r.status_code)

    threads = [threading.Thread(target=phone, args=(n,)) for n in range(6)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert set(statuses) <= {201, 409, 422}
    events = t.api("GET", f"/hands/{hand}/events").get_json()["events"]
    assert statuses.count(201) == len(events) == 4
    assert [e["cards"] for e in events] == [["1j1"], ["2j1"], ["3j1"], ["4j1"]]


def test_a_fetch_answers_the_stored_state_byte_for_byte_whoever_asked_before(app, make_table):
    """Fetches at one version may share one answer (kept per process); any change is seen."""
    t = make_table()
    hand = t.start_live()
    first = t.api("GET", f"/hands/{hand}/events")
    again = t.api("GET", f"/hands/{hand}/events", key=t.view_key)
    assert again.data == first.data and again.mimetype == first.mimetype == "application/json"
    tapped = t.api("POST", f"/hands/{hand}/events", json={"seq": 0, "event": GO_PIBAK[0]})
    after = t.api("GET", f"/hands/{hand}/events")
    assert tapped.status_code == 201 and after.data == tapped.data and after.get_json()["seq"] == 1
    # A change that is not an append (an undo) moves the version: the kept answer is not used.
    assert t.api("POST", f"/hands/{hand}/undo", json={"seq": 1}).status_code == 200
    assert t.api("GET", f"/hands/{hand}/events").data == first.data.replace(
        f'"version":{first.get_json()["version"]}'.encode(), f'"version":{first.get_json()["version"] + 2}'.encode()
    )
    # A wrong key is still refused, kept answer or not.
    assert t.api("GET", f"/hands/{hand}/events", key="wrong").status_code == 401
