"""The API's shapes, written once (issue 9): the document's schemas are the models', every success
answer names one, and every success answer the API gives validates against its model.

The answers are serialised as they always were (the bytes are the contract); these tests hold the
models to them, so a key added, dropped or retyped on either side fails here (the models forbid
keys they do not name).
"""

from __future__ import annotations

import json

import pytest

from scorekeeper.engine.errors import EngineError
from scorekeeper.tables import transfer
from scorekeeper.tables.records import HandRecord
from scorekeeper.web.api import models
from scorekeeper.web.api.openapi import document

from .conftest import GO_PIBAK, STOP_A, Table

DOC = document()


def _responses():
    for path, ops in DOC["paths"].items():
        for method, op in ops.items():
            if method != "parameters":
                for status, response in op["responses"].items():
                    yield method, path, status, response


def _model_of(method: str, path: str, status: int) -> type:
    schema = DOC["paths"][path][method]["responses"][str(status)]["content"]["application/json"]["schema"]
    return getattr(models, schema["$ref"].rsplit("/", 1)[1])


def test_every_response_names_a_schema_none_any():
    """10 of 13 success answers were ``Any`` (``{}``): the fuzzing checked nothing of them."""
    schemas = DOC["components"]["schemas"]
    assert "Any" not in schemas
    seen = 0
    streams = []
    for method, path, status, response in _responses():
        if "text/event-stream" in response.get("content", {}):
            # The push stream: each event's data is JSON text (an events answer), described by SSE_EVENT.
            streams.append(path)
            assert response["content"]["text/event-stream"]["schema"]["properties"]["data"]["type"] == "string"
            continue
        ref = response["content"]["application/json"]["schema"]["$ref"]
        name = ref.removeprefix("#/components/schemas/")
        assert name in schemas and schemas[name] not in ({}, {"type": "object"}), (method, path, status, name)
        if status.startswith("2"):
            seen += 1
            assert name != "Error" and schemas[name].get("properties"), (method, path, status)
            assert schemas[name].get("additionalProperties") is False, (method, path, name)  # no key unnamed
    assert seen == 25  # 15 of the tables, 10 of the groups
    assert streams == ["/tables/{table}/stream"]


def test_the_document_schemas_are_the_models():
    """Generated, never written by hand: each component is its model's schema."""
    assert DOC["components"]["schemas"] == models.components()
    for name in (
        "Summary",
        "SeriesConfig",
        "SeriesExport",
        "NewHand",
        "ReplaceHand",
        "Append",
        "Undo",
        "Error",
        "HandRecord",
        "TableView",
        "Hand",
        "Events",
    ):
        assert name in DOC["components"]["schemas"], name
    # OpenAPI 3.0 has no null type and no const: the models' optional and constant fields are written for it.
    text = json.dumps(DOC["components"]["schemas"])
    assert '"const"' not in text and '{"type": "null"}' not in text and '"title"' not in text


def test_the_export_record_is_the_shared_model():
    """The export's hand record in the document is ``records.HandRecord``, which the import reads with."""
    hands = DOC["components"]["schemas"]["SeriesExport"]["properties"]["hands"]
    assert hands["items"] == {"$ref": "#/components/schemas/HandRecord"}
    assert transfer.EXPORT_DOOR.model is HandRecord


class _Checked:
    """An API client whose every success answer is validated against the model the document names."""

    def __init__(self, client):
        self.client = client
        self.checked: set[tuple[str, str, int]] = set()

    def __call__(
        self,
        method: str,
        template: str,
        table: Table | None = None,
        hand: int | None = None,
        key: str | None = None,
        template_as: str | None = None,
        **kwargs,
    ):
        url = "/api/v1" + template.replace("{table}", table.id if table else "").replace("{hand}", str(hand))
        template = template_as or template
        headers = kwargs.pop("headers", {})
        if table is not None:
            headers = {"X-Table-Key": key or table.edit_key} | headers
        r = self.client.open(url, method=method.upper(), headers=headers, **kwargs)
        assert 200 <= r.status_code < 300, (method, url, r.status_code, r.get_json())
        model = _model_of(method, template, r.status_code)
        model.model_validate(r.get_json())  # raises on a key unnamed, missing or of another type
        self.checked.add((method, template, r.status_code))
        return r


@pytest.fixture
def api(client):
    return _Checked(client)


def _create(api, **config) -> Table:
    body = {"players": ["A", "B", "C"], "first_dealer": "A"} | config
    return Table(api.client, api("post", "/tables", json=body).get_json())


def test_every_success_answer_validates_against_its_model(api):
    t = _create(api)
    api("get", "/tables/{table}", t)
    api("get", "/tables/{table}/version", t)
    api("get", "/tables/{table}/hands", t)
    summary = api("post", "/tables/{table}/hands", t, json={"summary": STOP_A, "count": 0}).get_json()["id"]
    tag = api("get", "/tables/{table}/hands/{hand}", t, summary).headers["ETag"]
    nagari = STOP_A | {"outcome": {"type": "nagari"}}
    api("put", "/tables/{table}/hands/{hand}", t, summary, json={"summary": nagari}, headers={"If-Match": tag})
    live = api("post", "/tables/{table}/hands", t, json={"log": {}}).get_json()["id"]
    api("get", "/tables/{table}/hands/{hand}", t, live)  # live: its log and state
    for seq, event in enumerate(GO_PIBAK[:3]):
        api("post", "/tables/{table}/hands/{hand}/events", t, live, json={"seq": seq, "event": event})
    api("post", "/tables/{table}/hands/{hand}/undo", t, live, json={"seq": 3})
    api("get", "/tables/{table}/hands/{hand}/events", t, live)
    for seq, event in enumerate(GO_PIBAK[2:], 2):
        api("post", "/tables/{table}/hands/{hand}/events", t, live, json={"seq": seq, "event": event})
    api("get", "/tables/{table}/hands/{hand}", t, live)  # over: its result, no state
    api("get", "/tables/{table}/hands/{hand}/events", t, live)
    api("get", "/tables/{table}", t, key=t.view_key)  # a ledger, balances, settle-up
    api("get", "/tables/{table}/hands", t)
    t.enter()  # the export is the phone's page: it rides on the session
    export = api.client.get(f"/t/{t.id}/export.json")
    copy = Table(
        api.client, api("post", "/tables/import", data=export.data, content_type="application/json").get_json()
    )
    api("get", "/tables/{table}", copy)
    tag = api("get", "/tables/{table}/hands/{hand}", t, summary).headers["ETag"]
    api("delete", "/tables/{table}/hands/{hand}", t, summary, headers={"If-Match": tag})
    # The engine contract: a result with notes, and warnings for a field it ignores.
    api("post", "/score", json={"players": ["A", "B"], "outcome": {"type": "nagari"}, "extra": 1})
    api("post", "/score", json={"players": ["A", "B", "C"]} | STOP_A)
    api("post", "/tables/{table}/keys", copy, json={"rotate": "view"})  # new secrets: the table's links and keys
    # A group (issue 19): created, an evening of it with a hand, read, a payment recorded twice by key.
    g = api("post", "/groups", json={"name": "모임", "players": ["A", "B", "C"]}).get_json()
    evening = Table(
        api.client,
        api(
            "post",
            "/tables",
            json={"group": g["id"], "players": ["A", "B", "C"]},
            headers={"X-Group-Key": g["edit_key"]},
        ).get_json(),
    )
    api("post", "/tables/{table}/hands", evening, json={"summary": STOP_A})
    group_url = "/groups/" + g["id"]
    key = {"X-Group-Key": g["edit_key"]}
    api("get", group_url, headers=key, template_as="/groups/{group}")
    body = {"from": "B", "to": "A", "points": 1, "key": "k"}
    api("post", group_url + "/payments", json=body, headers=key, template_as="/groups/{group}/payments")
    api("post", group_url + "/payments", json=body, headers=key, template_as="/groups/{group}/payments")
    # Issue 28: a payment voided, a pay link, the histories, an empty evening removed.
    paid = api(
        "post",
        group_url + "/payments",
        json={"from": "B", "to": "A", "points": 1},
        headers=key,
        template_as="/groups/{group}/payments",
    ).get_json()["payment"]["id"]
    api("post", f"{group_url}/payments/{paid}/void", headers=key, template_as="/groups/{group}/payments/{payment}/void")
    link = {"pay_link": "https://toss.me/aa"}
    api("put", group_url + "/players/A", json=link, headers=key, template_as="/groups/{group}/players/{name}")
    api("get", group_url + "/history", headers=key, template_as="/groups/{group}/history")
    api("get", "/tables/{table}/history", evening)
    empty = api(
        "post", "/tables", json={"group": g["id"], "players": ["A", "B", "C"]}, headers={"X-Group-Key": g["edit_key"]}
    ).get_json()["id"]
    api("delete", f"{group_url}/evenings/{empty}", headers=key, template_as="/groups/{group}/evenings/{table}")
    new = api("post", group_url + "/keys", json={"rotate": "view"}, headers=key, template_as="/groups/{group}/keys")
    g["view_key"] = new.get_json()["view_key"]
    api.client.get(f"/gj/{g['id']}/{g['view_key']}")
    export = api.client.get(f"/g/{g['id']}/group.json")
    api("post", "/groups/import", data=export.data, content_type="application/json")
    # The push stream's events carry the events answer itself (test_push holds them equal to it).
    successes = {
        (m, p, int(s))
        for m, p, s, r in _responses()
        if s.startswith("2") and "application/json" in r.get("content", {})
    }
    assert api.checked == successes


def test_a_table_with_a_draw_and_four_players_validates(api, client):
    """The keys present only sometimes: the draw, who sat out (``sitting``), choices and shown."""
    draw = {"time": "night", "cards": {"A": "2a", "B": "9a", "C": "11g"}}
    t = _create(api, first_dealer=None, draw=draw)
    assert "draw" in api("get", "/tables/{table}", t).get_json()
    four = _create(api, players=["A", "B", "C", "D"])
    four.enter()
    r = client.post(
        f"{four.url}/hands?c1=play&c2=play&chosen=1", data={"count": "0", "sitters-0-cards": ["1g", "11jd"]}
    )
    assert r.status_code == 303
    live = int(r.headers["Location"].rsplit("/", 1)[1])
    api("post", "/tables/{table}/hands/{hand}/events", four, live, json={"seq": 0, "event": {"type": "nagari"}})
    hands = api("get", "/tables/{table}/hands", four).get_json()["hands"]
    assert "choices" in hands[0] and "shown" in hands[0] and "sitting" in hands[0]["deal"]
    api("get", "/tables/{table}/hands/{hand}", four, live)
    api("get", "/tables/{table}", four)


@pytest.mark.parametrize(
    "answer, model",
    [
        ({"ok": True, "hand": 1, "seq": 0, "events": [], "state": None, "version": 1, "new": 1}, models.Events),
        ({"ok": True, "hand": 1, "seq": 0, "events": [], "version": 1}, models.Events),
        ({"ok": True, "hand": "1", "seq": 0, "events": [], "state": None, "version": 1}, models.Events),
        ({"ok": False}, models.Deleted),
    ],
    ids=["a-key-unnamed", "a-key-missing", "a-key-retyped", "ok-false"],
)
def test_a_drift_from_the_model_is_caught(answer, model):
    with pytest.raises(ValueError):
        model.model_validate(answer)


# -- one reading of the hand record, each door's refusals as they were -------------------------------

COUNT = "count is the number of hands the client has seen."


@pytest.mark.parametrize(
    "body, refusal",
    [
        ({"summary": STOP_A, "zz": 1, "aa": 2}, ("bad_hand_record", "Unknown field 'aa' in the hand.", "aa")),
        ({"summary": STOP_A, "log": {}, "zz": 1}, ("bad_hand_record", "Unknown field 'zz' in the hand.", "zz")),
        ({"summary": STOP_A, "log": {}}, ("bad_hand_record", 'A hand is {"summary": {...}} or {"log": {}}.', "")),
        ({"choices": {}}, ("bad_hand_record", 'A hand is {"summary": {...}} or {"log": {}}.', "")),
        ({"summary": [], "count": -1}, ("bad_summary", "A hand summary is a JSON object.", "summary")),
        (
            {"log": {"events": [{}]}},
            ("bad_hand_record", "A live hand starts empty: append its events one by one.", "log"),
        ),
        ({"log": {"x": 1}}, ("bad_hand_record", "A live hand starts empty: append its events one by one.", "log")),
        ({"log": {}, "count": True}, ("bad_value", COUNT, "count")),
        ({"log": {}, "count": 1.0, "shown": 1}, ("bad_value", COUNT, "count")),
        ({"log": {}, "shown": None, "choices": []}, ("bad_value", "choices is an object keyed by player.", "choices")),
        ({"log": {}, "shown": None}, ("bad_value", "shown is an object keyed by player.", "shown")),
    ],
)
def test_the_new_hands_refusals(body, refusal):
    with pytest.raises(EngineError) as err:
        models.read_new_hand(body)
    assert err.value.errors == [dict(zip(("code", "message", "path"), refusal, strict=True))]


def test_the_new_hand_read():
    row = models.read_new_hand({"log": {"events": []}, "choices": {}, "shown": {"A": ["1g"]}, "count": 3})
    assert (row.kind, row.summary, row.seating, row.events, row.count) == ("log", None, {"shown": {"A": ["1g"]}}, [], 3)
    row = models.read_new_hand({"summary": STOP_A})
    assert (row.kind, row.summary, row.seating, row.count) == ("summary", STOP_A, None, None)


RECORD = 'A hand record is {"summary": {...}} or {"log": {"events": [...]}}.'
LOG = 'A live hand is {"log": {"events": [{...}, ...]}}.'


@pytest.mark.parametrize(
    "record, refusal",
    [
        ("B won", ("bad_hand_record", RECORD, "hands[2]")),
        ({"summary": {}, "log": {"events": []}, "zz": 1}, ("bad_hand_record", RECORD, "hands[2]")),
        (
            {"log": {"events": []}, "zz": 1, "choices": 5},
            ("bad_hand_record", "Unknown field 'zz' in the hand record.", "hands[2].zz"),
        ),
        (
            {"summary": 1, "shown": "x"},
            ("bad_hand_record", "choices and shown are objects keyed by player.", "hands[2]"),
        ),
        ({"summary": 1}, ("bad_summary", "A hand summary is a JSON object.", "hands[2].summary")),
        ({"log": {}}, ("bad_hand_record", LOG, "hands[2].log")),
        ({"log": {"events": [1]}}, ("bad_hand_record", LOG, "hands[2].log")),
        ({"log": {"events": [], "note": "x"}}, ("bad_hand_record", LOG, "hands[2].log")),
        ({"log": {"events": [{}] * 100_001}}, ("bad_hand_record", LOG, "hands[2].log")),
    ],
)
def test_the_imports_refusals(record, refusal):
    with pytest.raises(EngineError) as err:
        transfer._row(record, "hands[2]")
    assert err.value.errors == [dict(zip(("code", "message", "path"), refusal, strict=True))]


def test_an_exports_empty_seating_reads_as_none():
    """An export's falsy choices/shown (null, [], "") have always read as none; the API's refuses them."""
    row = transfer._row({"summary": STOP_A, "choices": None, "shown": []}, "hands[0]")
    assert row == {"kind": "summary", "summary": STOP_A, "seating": None, "events": []}
    with pytest.raises(EngineError):
        models.read_new_hand({"summary": STOP_A, "choices": None})


@pytest.mark.parametrize(
    "body, code, path",
    [
        ({"event": {}}, "bad_value", "seq"),
        ({"seq": -1, "event": 5}, "bad_value", "seq"),
        ({"seq": False, "event": {}}, "bad_value", "seq"),
        ({"seq": 0}, "bad_event", "event"),
        ({"seq": 0, "event": []}, "bad_event", "event"),
    ],
)
def test_an_appends_refusals(body, code, path):
    with pytest.raises(EngineError) as err:
        models.read_append(body)
    assert (err.value.code, err.value.errors[0]["path"]) == (code, path)
    assert models.read_undo({"seq": 2, "event": "anything"}).seq == 2
