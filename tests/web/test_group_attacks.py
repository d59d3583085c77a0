"""The group under attack (issue 29): huge amounts, hostile imports, a group's own export coming
back, the create budget, caching. Each on SQLite and PostgreSQL (the ``client`` fixture's two
databases): several findings were one database's."""

from __future__ import annotations

import copy
import io
import json

import pytest

from scorekeeper.web import close_app
from tests.conftest import make_app
from tests.web.conftest import group_with_an_evening

HUGE = [10**30, 2**63, 2**63 - 1, 2**53, -(2**63), 2**64]


@pytest.fixture
def grp(client):
    return group_with_an_evening(client)


def read_all(client, grp) -> list[int]:
    """Every read of the group: API, page, share link, picture, text, export, CSV."""
    gid, key = grp["id"], grp["view_key"]
    h = {"X-Group-Key": key}
    return [
        client.get(f"/api/v1/groups/{gid}", headers=h).status_code,
        client.get(f"/gj/{gid}/{key}").status_code,
        client.get(f"/g/{gid}").status_code,
        client.get(f"/g/{gid}/share.png").status_code,
        client.get(f"/g/{gid}/share.txt").status_code,
        client.get(f"/g/{gid}/group.json").status_code,
        client.get(f"/g/{gid}/ledger.csv").status_code,
    ]


def exported(client, grp) -> dict:
    r = client.get(f"/api/v1/groups/{grp['id']}", headers={"X-Group-Key": grp["view_key"]})
    assert r.status_code == 200
    client.get(f"/gj/{grp['id']}/{grp['view_key']}")
    return json.loads(client.get(f"/g/{grp['id']}/group.json").data)


# -- amounts ----------------------------------------------------------------------------------


@pytest.mark.parametrize("points", HUGE)
def test_a_huge_payment_is_refused_with_a_code_never_a_500(client, grp, points):
    """10**30 or 2**63 points with beyond_owed: a coded 422 by the API, a flash by the page's form."""
    r = client.post(
        f"/api/v1/groups/{grp['id']}/payments",
        json={"from": "민수", "to": "지영", "points": points, "beyond_owed": True},
        headers={"X-Group-Key": grp["edit_key"]},
    )
    assert r.status_code == 422, r.data
    assert r.get_json()["errors"][0]["code"] == "bad_payment"
    client.get(f"/gj/{grp['id']}/{grp['edit_key']}")
    page = client.post(
        f"/g/{grp['id']}/paid", data={"from": "민수", "to": "지영", "points": str(points), "beyond_owed": "y"}
    )
    assert page.status_code == 303
    doc = client.get(f"/api/v1/groups/{grp['id']}", headers={"X-Group-Key": grp["view_key"]}).get_json()
    assert doc["payments"] == []
    assert set(read_all(client, grp)) == {200}


def test_a_debt_beyond_32_bits_can_be_paid(client, grp):
    """PostgreSQL's payment column was 32-bit: 2**31 points or more answered 500, even paying
    exactly what is owed (a table of 40 hands, 31 nagari then a win: B owes A 6,442,450,944)."""
    r = client.post(
        "/api/v1/tables",
        json={"group": grp["id"], "players": ["A", "B"], "length": 40},
        headers={"X-Group-Key": grp["edit_key"]},
    )
    t = r.get_json()
    h = {"X-Table-Key": t["edit_key"]}
    for _ in range(31):
        assert (
            client.post(
                f"/api/v1/tables/{t['id']}/hands", json={"summary": {"outcome": {"type": "nagari"}}}, headers=h
            ).status_code
            == 201
        )
    win = {"captures": {"A": ["1g", "3g", "8g", "11g", "12g"]}, "outcome": {"type": "stop", "winner": "A"}}
    assert client.post(f"/api/v1/tables/{t['id']}/hands", json={"summary": win}, headers=h).status_code == 201
    doc = client.get(f"/api/v1/groups/{grp['id']}", headers={"X-Group-Key": grp["view_key"]}).get_json()
    owed = next(o for o in doc["owed"] if o["from"] == "B")
    assert owed["to"] == "A" and owed["points"] >= 2**31
    r = client.post(
        f"/api/v1/groups/{grp['id']}/payments",
        json={"from": "B", "to": "A", "points": owed["points"]},
        headers={"X-Group-Key": grp["edit_key"]},
    )
    assert r.status_code == 201, r.data
    assert r.get_json()["payment"]["points"] == owed["points"]
    doc = client.get(f"/api/v1/groups/{grp['id']}", headers={"X-Group-Key": grp["view_key"]}).get_json()
    assert not [o for o in doc["owed"] if o["from"] == "B"]
    # The page's form too (보냈어요), beyond what is owed, at 2**40.
    client.get(f"/gj/{grp['id']}/{grp['edit_key']}")
    client.post(f"/g/{grp['id']}/paid", data={"from": "B", "to": "A", "points": str(2**40), "beyond_owed": "y"})
    doc = client.get(f"/api/v1/groups/{grp['id']}", headers={"X-Group-Key": grp["view_key"]}).get_json()
    assert doc["payments"][-1]["points"] == 2**40


# -- imports ----------------------------------------------------------------------------------


def _import(client, doc):
    return client.post("/api/v1/groups/import", data=json.dumps(doc), content_type="application/json")


def _page_import(client, doc):
    return client.post("/g/import", data={"file": (io.BytesIO(json.dumps(doc).encode()), "g.json")})


@pytest.mark.parametrize("points", HUGE)
def test_an_import_with_a_huge_payment_is_refused(client, grp, points):
    doc = exported(client, grp)
    doc["payments"] = [{"from": "민수", "to": "지영", "points": points}]
    r = _import(client, doc)
    assert r.status_code == 422 and r.get_json()["errors"][0]["code"] == "bad_payment"
    assert _page_import(client, doc).status_code == 303


@pytest.mark.parametrize(
    "date", ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00", "0001-01-01T00:00:00", "9999-12-31T23:59:59"]
)
def test_an_import_dated_at_the_ends_of_time_is_refused(client, grp, date):
    """PostgreSQL took these (201) and every read of the group answered 500 from then on."""
    doc = exported(client, grp)
    doc["evenings"][0]["date"] = date
    r = _import(client, doc)
    assert r.status_code == 422, r.data
    assert r.get_json()["errors"][0] == r.get_json()["errors"][0] | {"code": "bad_value", "path": "evenings[0].date"}


def test_an_ordinary_old_date_still_imports(client, grp):
    doc = exported(client, grp)
    doc["evenings"][0]["date"] = "1999-03-01T19:00:00+09:00"
    r = _import(client, doc)
    assert r.status_code == 201, r.data
    g = r.get_json()
    assert set(read_all(client, {"id": g["id"], "view_key": g["view_key"]})) == {200}


HOSTILE_NAMES = ["a\u202eb", "\u200b\u200b", "a\u2066b\u2069", "a\x07b", "a\x85b", "\u200b"]


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_an_import_refuses_the_group_names_creation_refuses(client, grp, name):
    assert client.post("/api/v1/groups", json={"name": name, "players": ["A", "B"]}).status_code == 422
    doc = exported(client, grp)
    doc["group"]["name"] = name
    r = _import(client, doc)
    assert r.status_code == 422 and r.get_json()["errors"][0]["path"] == "group.name"


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_an_import_refuses_the_player_names_creation_refuses(client, grp, name):
    assert client.post("/api/v1/groups", json={"name": "x", "players": ["A", name]}).status_code == 422
    doc = exported(client, grp)
    doc["group"]["players"].append({"name": name, "colour": "#1c7ed6"})
    assert _import(client, doc).status_code == 422


@pytest.mark.parametrize("colour", ["nope", "", "#12345", "#1234567", "red", "#ggg000", "url(x)", 5])
def test_an_import_refuses_a_colour_that_is_not_one(client, grp, colour):
    doc = exported(client, grp)
    doc["group"]["players"][0]["colour"] = colour
    r = _import(client, doc)
    assert r.status_code == 422 and r.get_json()["errors"][0]["path"] == "group.players[0].colour"


@pytest.mark.parametrize(
    "where,value",
    [("currency", "\x85"), ("currency", "<b>"), ("evening_name", "a\x85b"), ("evening_name", "a\u202eb")],
)
def test_an_import_refuses_control_characters_in_what_the_picture_shows(client, grp, where, value):
    doc = exported(client, grp)
    if where == "currency":
        doc["group"]["settings"]["currency"] = value
        expected = 201 if value == "<b>" else 422  # markup is only text: drawn and escaped as it is
    else:
        doc["evenings"][0]["name"] = value
        expected = 422
    r = _import(client, doc)
    assert r.status_code == expected, r.data
    if expected == 201:
        g = r.get_json()
        assert set(read_all(client, {"id": g["id"], "view_key": g["view_key"]})) == {200}


def test_a_group_of_56_players_exports_and_imports_back(client):
    """16 newcomers joined through evenings past the 40 that creation allowed: the export came
    back refused. One roster limit now for creation, evenings and imports."""
    first = [f"p{i}" for i in range(40)]
    g = client.post("/api/v1/groups", json={"name": "큰 모임", "players": first}).get_json()
    for start in range(40, 56, 4):
        r = client.post(
            "/api/v1/tables",
            json={"group": g["id"], "players": [f"p{i}" for i in range(start, start + 4)]},
            headers={"X-Group-Key": g["edit_key"]},
        )
        assert r.status_code == 201, r.data
    doc = exported(client, g)
    assert len(doc["group"]["players"]) == 56
    r = _import(client, doc)
    assert r.status_code == 201, r.data
    assert client.post("/api/v1/groups", json={"name": "x", "players": [f"q{i}" for i in range(56)]}).status_code == 201


def test_a_group_is_never_larger_than_its_roster_limit(client):
    from scorekeeper.tables.groups import MAX_GROUP_PLAYERS

    many = [f"p{i}" for i in range(MAX_GROUP_PLAYERS)]
    g = client.post("/api/v1/groups", json={"name": "x", "players": many}).get_json()
    r = client.post(
        "/api/v1/tables", json={"group": g["id"], "players": ["p0", "new"]}, headers={"X-Group-Key": g["edit_key"]}
    )
    assert r.status_code == 422 and r.get_json()["errors"][0]["code"] == "bad_value"
    assert client.post("/api/v1/groups", json={"name": "x", "players": [*many, "new"]}).status_code == 422


def test_a_newcomer_who_reads_like_a_member_is_refused_at_the_evening(client, grp):
    """An evening's newcomer "mina" beside the group's "Mina" made a group whose export was refused."""
    g = client.post("/api/v1/groups", json={"name": "x", "players": ["Mina", "B"]}).get_json()
    r = client.post(
        "/api/v1/tables",
        json={"group": g["id"], "players": ["mina", "B"]},
        headers={"X-Group-Key": g["edit_key"]},
    )
    assert r.status_code == 422 and r.get_json()["errors"][0]["code"] == "duplicate_player"
    # The page's form: the same refusal, flashed; nobody joins.
    client.get(f"/gj/{g['id']}/{g['edit_key']}")
    client.post(f"/g/{g['id']}/evening", data={"came": ["B"], "newcomers": "MINA"})
    doc = client.get(f"/api/v1/groups/{g['id']}", headers={"X-Group-Key": g["view_key"]}).get_json()
    assert doc["players"] == ["Mina", "B"] and doc["tables"] == []
    assert _import(client, exported(client, g)).status_code == 201


def test_a_group_export_always_imports_back(client, grp):
    """Round trip of an ordinary group, payments included: the same figures."""
    client.post(
        f"/api/v1/groups/{grp['id']}/payments",
        json={"from": "민수", "to": "지영", "points": 1},
        headers={"X-Group-Key": grp["edit_key"]},
    )
    doc = exported(client, grp)
    r = _import(client, copy.deepcopy(doc))
    assert r.status_code == 201, r.data
    g = r.get_json()
    again = client.get(f"/api/v1/groups/{g['id']}", headers={"X-Group-Key": g["view_key"]}).get_json()
    first = client.get(f"/api/v1/groups/{grp['id']}", headers={"X-Group-Key": grp["view_key"]}).get_json()
    assert again["balances"] == first["balances"] and again["owed"] == first["owed"]


# -- the create budget --------------------------------------------------------------------------


def test_refused_group_imports_count_against_the_create_budget(tmp_path):
    """35 refused group imports in a row then a 201: a refused import cost nothing, where a
    table's counts."""
    app = make_app(f"sqlite:///{tmp_path / 'l.db'}", tmp_path, RATELIMIT_ENABLED=True, RATELIMIT_CREATE="5/hour")
    client = app.test_client()
    refused = {"group": {"name": "x", "players": [{"name": "A"}]}}
    doors = [lambda: _import(client, refused), lambda: _page_import(client, refused)]
    for i in range(5):
        assert doors[i % 2]().status_code in (422, 303)
    r = client.post("/api/v1/groups", json={"name": "x", "players": ["A", "B"]})
    assert r.status_code == 429 and r.get_json()["errors"][0]["code"] == "rate_limited"
    close_app(app)


# -- caching ----------------------------------------------------------------------------------


def test_every_answer_a_group_secret_opened_is_private_no_cache(client, grp):
    gid = grp["id"]
    client.get(f"/gj/{gid}/{grp['edit_key']}")
    for url in (f"/g/{gid}", f"/g/{gid}?all=1", f"/g/{gid}/share.txt", f"/g/{gid}/group.json", f"/g/{gid}/ledger.csv"):
        r = client.get(url)
        assert r.status_code == 200 and r.headers.get("Cache-Control") == "private, no-cache", url
    reader = client.application.test_client()
    reader.get(f"/gj/{gid}/{grp['view_key']}")
    r = reader.get(f"/g/{gid}")
    assert r.status_code == 200 and r.headers.get("Cache-Control") == "private, no-cache"
    png = reader.get(f"/g/{gid}/share.png")
    assert png.headers.get("Cache-Control") == "private, no-cache"
    assert client.get(f"/gj/{gid}/{grp['view_key']}").headers["Cache-Control"] == "private, no-store"


# -- the group's keys ---------------------------------------------------------------------------


@pytest.mark.parametrize("which", ["edit", "view", "both"])
def test_a_groups_keys_can_be_rotated_and_the_old_ones_open_nothing(client, grp, which):
    """A group link pasted in the wrong chat stayed valid forever (`/keys` was a 404)."""
    gid, old_edit, old_view = grp["id"], grp["edit_key"], grp["view_key"]
    stranger = client.application.test_client()  # a phone that opened the old links
    assert stranger.get(f"/gj/{gid}/{old_view}").status_code == 200
    r = client.post(f"/api/v1/groups/{gid}/keys", json={"rotate": which}, headers={"X-Group-Key": old_edit})
    assert r.status_code == 200, r.data
    new = r.get_json()
    assert (new["edit_key"] != old_edit) == (which in ("edit", "both"))
    assert (new["view_key"] != old_view) == (which in ("view", "both"))
    assert new["edit_key"] != new["view_key"] and new["view_key"] in new["view_link"]
    dead = [k for k, w in ((old_edit, "edit"), (old_view, "view")) if which in (w, "both")]
    for key in dead:
        h = {"X-Group-Key": key}
        assert client.get(f"/api/v1/groups/{gid}", headers=h).status_code == 401
        assert client.get(f"/gj/{gid}/{key}").status_code == 404
        assert client.get(f"/g/{gid}/share.png?key={key}").status_code == 401
        pay = {"from": "민수", "to": "지영", "points": 1}
        assert client.post(f"/api/v1/groups/{gid}/payments", json=pay, headers=h).status_code == 401
    if which in ("view", "both"):  # the phone's session held the old read-only key
        assert stranger.get(f"/g/{gid}").status_code == 401
        assert stranger.get(f"/g/{gid}/share.txt").status_code == 401
    for key in (new["edit_key"], new["view_key"]):
        assert client.get(f"/api/v1/groups/{gid}", headers={"X-Group-Key": key}).status_code == 200
    assert (
        client.post(
            f"/api/v1/groups/{gid}/keys", json={"rotate": which}, headers={"X-Group-Key": new["view_key"]}
        ).status_code
        == 403
    )


def test_a_groups_keys_are_rotated_from_its_page_and_this_phone_keeps_it(client, grp):
    gid = grp["id"]
    client.get(f"/gj/{gid}/{grp['edit_key']}")
    assert 'action="/g/' + gid + '/keys"' in client.get(f"/g/{gid}").get_data(as_text=True)
    assert client.post(f"/g/{gid}/keys", data={"which": "both"}).status_code == 303  # not confirmed
    assert client.get(f"/api/v1/groups/{gid}", headers={"X-Group-Key": grp["edit_key"]}).status_code == 200
    r = client.post(f"/g/{gid}/keys", data={"which": "both", "confirm": "y"})
    assert r.status_code == 303
    assert client.get(f"/api/v1/groups/{gid}", headers={"X-Group-Key": grp["edit_key"]}).status_code == 401
    page = client.get(f"/g/{gid}")
    assert page.status_code == 200 and grp["edit_key"] not in page.get_data(as_text=True)
    assert f'/g/{gid}/keys"' in page.get_data(as_text=True)  # still the editor
    reader = client.application.test_client()
    reader.get(f"/gj/{gid}/{grp['view_key']}")
    assert reader.post(f"/g/{gid}/keys", data={"which": "both", "confirm": "y"}).status_code in (401, 403)


# -- the document and the server ------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/v1/groups", "/api/v1/tables"])
def test_rules_options_null_is_refused_as_the_document_says(client, path):
    """schemathesis found `POST /groups` taking `"rules": {"options": null}`, which the OpenAPI
    document rules out (options is an object)."""
    from scorekeeper.web.api.openapi import document

    rules = document()["components"]["schemas"]["SeriesRules"]["properties"]["options"]
    assert rules.get("type") == "object" and "null" not in str(rules)
    body = {"name": "x", "players": ["A", "B"], "rules": {"options": None}}
    if path.endswith("tables"):
        body.pop("name")
    r = client.post(path, json=body)
    assert r.status_code == 422 and r.get_json()["errors"][0]["path"] == "rules.options"
    assert client.post(path, json=body | {"rules": {"options": {}}}).status_code == 201
