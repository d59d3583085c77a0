"""A table exported to JSON and imported back: a new table with the same ledger and state."""

from __future__ import annotations

import io
import json

import pytest
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from .conftest import GO_PIBAK, STOP_A
from .walk import counts

NAGARI = {"outcome": {"type": "nagari"}}
OPENING = [
    {"type": "capture", "player": "A", "cards": ["1g", "1j1"]},
    {"type": "end_turn", "player": "A"},
    {"type": "capture", "player": "B", "cards": ["2a"]},
]


def _series(t) -> dict:
    """Everything a table shows, without what belongs to this copy (ids, secrets, version)."""
    doc = t.state()
    assert doc["ok"] and doc["problem"] is None
    logs = {h["index"]: t.api("GET", f"/hands/{h['id']}/events").get_json() for h in doc["hands"] if h["kind"] == "log"}
    for log in logs.values():
        del log["hand"], log["version"]
    doc["live_hand"] = doc["live_hand"] is not None
    for key in ("id", "version"):
        del doc[key]
    for h in doc["hands"]:
        del h["id"]
    return doc | {"logs": logs}


def _played(make_table, **config):
    """A table with a quick entry, a live hand played to its stop (go, pi-bak), a nagari
    and a live hand still being played."""
    t = make_table(**config)
    t.add_summary(STOP_A)
    t.append(t.start_live(), GO_PIBAK)
    t.add_summary(NAGARI)
    t.append(t.start_live(), OPENING)
    t.enter()
    return t


def _import_api(client, export: bytes):
    r = client.post("/api/v1/tables/import", data=export, content_type="application/json")
    assert r.status_code == 201, r.get_json()
    return r.get_json()


@pytest.mark.parametrize(
    "config",
    [
        pytest.param({}, id="three"),
        pytest.param(
            {
                "name": "설날 <b>판</b>",
                "chip_value": 500,
                "currency": "$",
                "length": 6,
                "rules": {"preset": "korean-common", "options": {"pi_bak_three_players": 6, "bomb_doubles": True}},
            },
            id="house-rules",
        ),
        pytest.param(
            {"first_dealer": None, "draw": {"time": "night", "cards": {"A": "2a", "B": "9a", "C": "11g"}}},
            id="dealer-by-draw",
        ),
    ],
)
def test_round_trip_keeps_ledger_state_and_logs(make_table, client, config):
    original = _played(make_table, **config)
    export = client.get(f"{original.url}/export.json").data
    created = _import_api(client, export)
    assert (
        created["id"] != original.id
        and {created["edit_key"], created["view_key"]} & {original.edit_key, original.view_key} == set()
    )
    from .conftest import Table

    copy = Table(client, created)
    assert _series(copy) == _series(original)
    copy.enter()
    assert json.loads(client.get(f"{copy.url}/export.json").data) == json.loads(export)
    assert client.get(f"{copy.url}/export.csv").data == client.get(f"{original.url}/export.csv").data
    # The copy plays on by itself: its live hand takes the next event; the original's does not change.
    live = copy.state()["live_hand"]
    copy.append(live, [{"type": "end_turn", "player": "B"}], start=len(OPENING))
    assert _series(original)["logs"] != _series(copy)["logs"]


def test_round_trip_at_four_with_gwangpalli(make_table, client):
    t = make_table(players=("A", "B", "C", "D"))
    t.enter()
    r = client.post(f"{t.url}/hands?c1=play&c2=play&chosen=1", data={"count": "0", "sitters-0-cards": ["1g", "11jd"]})
    assert r.status_code == 303
    t.append(int(r.headers["Location"].rsplit("/", 1)[1]), [{"type": "nagari"}])
    export = client.get(f"{t.url}/export.json").data
    assert b'"choices"' in export and b'"shown"' in export
    from .conftest import Table

    copy = Table(client, _import_api(client, export))
    assert _series(copy) == _series(t)
    assert {(e["from"], e["to"], e["points"]) for e in copy.state()["ledger"]} == {("B", "D", 4), ("C", "D", 4)}


def test_import_form_on_the_home_page(make_table, client):
    t = _played(make_table)
    export = client.get(f"{t.url}/export.json").data
    page = client.get("/").get_data(as_text=True)
    assert 'action="/import"' in page and 'enctype="multipart/form-data"' in page and 'type="file"' in page
    r = client.post("/import", data={"file": (io.BytesIO(export), "gostop.json")})
    assert r.status_code == 303 and r.headers["Location"].startswith("/t/")
    public_id = r.headers["Location"].rsplit("/", 1)[1]
    assert public_id != t.id
    page = client.get(r.headers["Location"]).get_data(as_text=True)
    assert 'class="flash ok"' in page  # the editor's secret is on this phone: it is the copy's owner
    copy = client.get(f"/api/v1/tables/{public_id}").get_json()
    assert copy["ledger"] == t.state()["ledger"] and copy["settle_up"] == t.state()["settle_up"]


def _export_of(make_table, client) -> dict:
    t = _played(make_table)
    return json.loads(client.get(f"{t.url}/export.json").data)


def _bad(doc: dict) -> list:
    hands = doc["hands"]
    return [
        pytest.param({"players": ["A"]}, "bad_series_players", id="one-player"),
        pytest.param(doc | {"hands": "all"}, "bad_series", id="hands-not-a-list"),
        pytest.param(doc | {"colour": "red"}, "bad_series", id="unknown-field"),
        pytest.param(doc | {"name": ["x"]}, "bad_value", id="name-not-text"),
        pytest.param(doc | {"chip_value": -5}, "bad_value", id="negative-stakes"),
        pytest.param(
            doc | {"hands": [{"summary": {"captures": {"A": ["13g"]}, "outcome": {"type": "stop", "winner": "A"}}}]},
            "unknown_card",
            id="unknown-card",
        ),
        pytest.param(doc | {"hands": [{"log": {"events": [{"type": "teleport"}]}}]}, "bad_event", id="unknown-event"),
        pytest.param(doc | {"hands": [{"summary": NAGARI, "log": {"events": []}}]}, "bad_hand_record", id="both"),
        pytest.param(doc | {"hands": [{"summary": NAGARI, "note": "x"}]}, "bad_hand_record", id="unknown-record-field"),
        pytest.param(doc | {"hands": [{"log": {"events": "x"}}]}, "bad_hand_record", id="events-not-a-list"),
        pytest.param(doc | {"hands": [hands[3], *hands[:3]]}, "hand_not_finished", id="live-hand-not-last"),
        pytest.param(doc | {"length": 2}, "series_finished", id="more-hands-than-the-series"),
        pytest.param(
            doc | {"hands": [*hands[:1], {"summary": STOP_A | {"captures": {"A": ["1g", "1g"]}}}]},
            "card_twice",
            id="second-hand-refused",
        ),
    ]


def test_bad_exports_are_refused_with_codes_and_store_nothing(app, make_table, client):
    good = _export_of(make_table, client)
    before = counts(app)
    for param in _bad(good):
        doc, code = param.values
        r = client.post("/api/v1/tables/import", json=doc)
        assert r.status_code == 422, (param.id, r.get_json())
        assert code in [e["code"] for e in r.get_json()["errors"]], (param.id, r.get_json())
        page = client.post("/import", data={"file": (io.BytesIO(json.dumps(doc).encode()), "x.json")})
        assert page.status_code == 422 and f'data-code="{code}"'.encode() in page.data, param.id
        assert counts(app) == before, param.id


@pytest.mark.parametrize(
    "body, status, code",
    [
        (b"[]", 400, "invalid_json"),
        (b'{"players": [', 400, "invalid_json"),
        (b"\xff\xfe{}", 400, "invalid_json"),
    ],
    ids=["array", "truncated", "invalid-utf8"],
)
def test_import_api_not_json(app, client, body, status, code):
    before = counts(app)
    r = client.post("/api/v1/tables/import", data=body, content_type="application/json")
    assert r.status_code == status and r.get_json()["errors"][0]["code"] == code
    assert counts(app) == before


@pytest.mark.parametrize(
    "upload, code",
    [
        (None, "bad_import"),
        (b"", "bad_series"),
        (b"\xff\xfe\x00{", "bad_series"),
        (b"<html>", "bad_series"),
    ],
    ids=["no-file", "empty", "invalid-utf8", "not-json"],
)
def test_import_form_bad_file(app, client, upload, code):
    before = counts(app)
    data = {} if upload is None else {"file": (io.BytesIO(upload), "x.json")}
    r = client.post("/import", data=data)
    assert r.status_code == 422 and f'data-code="{code}"'.encode() in r.data
    assert counts(app) == before


def test_import_takes_a_larger_body_than_other_requests(app, make_table, client):
    doc = _export_of(make_table, client)
    padded = json.dumps(doc, indent=1).replace("\n", "\n" + " " * 5000).encode()
    assert 600_000 < len(padded) < app.config["IMPORT_MAX_CONTENT_LENGTH"]
    assert client.post("/api/v1/tables/import", data=padded, content_type="application/json").status_code == 201
    assert client.post("/api/v1/tables", data=padded, content_type="application/json").status_code == 413
    before = counts(app)
    huge = padded + b" " * app.config["IMPORT_MAX_CONTENT_LENGTH"]
    r = client.post("/api/v1/tables/import", data=huge, content_type="application/json")
    assert r.status_code == 413 and r.get_json()["errors"][0]["code"] == "too_large"
    boundary, body = encode_multipart({"file": FileStorage(io.BytesIO(huge), "x.json")})
    r = client.post("/import", data=body, content_type=f"multipart/form-data; boundary={boundary}")
    assert r.status_code == 413 and b'data-code="too_large"' in r.data
    assert counts(app) == before
