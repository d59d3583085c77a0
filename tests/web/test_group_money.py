"""Issue 28, the group's part: rules for a group, payments voided (never deleted), an empty evening
removed, the history of every change, pay links, and the export keeping all of it.

Each test runs on SQLite and on PostgreSQL (the ``database_url`` fixture).
"""

from __future__ import annotations

from datetime import datetime

import pytest

from scorekeeper.web.api import models

from .conftest import STOP_A
from .walk import csrf_header

KO = {"Accept-Language": "ko"}
EN = {"Accept-Language": "en"}


def new_group(client, headers=None, **extra):
    body = {"name": "토요일", "players": ["A", "B", "C"], "chip_value": 100} | extra
    r = client.post("/api/v1/groups", json=body, headers=headers or {})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def gkey(grp, which="edit_key"):
    return {"X-Group-Key": grp[which]}


def evening(client, grp, players=("A", "B", "C")):
    r = client.post(
        "/api/v1/tables",
        json={"group": grp["id"], "players": list(players), "first_dealer": players[0]},
        headers=gkey(grp),
    )
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def add_hand(client, table, summary=STOP_A):
    r = client.post(
        f"/api/v1/tables/{table['id']}/hands", json={"summary": summary}, headers={"X-Table-Key": table["edit_key"]}
    )
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def group_doc(client, grp):
    r = client.get(f"/api/v1/groups/{grp['id']}", headers=gkey(grp, "view_key"))
    assert r.status_code == 200
    return models.GroupView.model_validate(r.get_json()) and r.get_json()


def history(client, grp=None, table=None):
    if grp is not None:
        r = client.get(f"/api/v1/groups/{grp['id']}/history", headers=gkey(grp, "view_key"))
    else:
        r = client.get(f"/api/v1/tables/{table['id']}/history", headers={"X-Table-Key": table["view_key"]})
    assert r.status_code == 200, r.get_json()
    models.History.model_validate(r.get_json())
    return r.get_json()["history"]


def pay(client, grp, payer, payee, points):
    r = client.post(
        f"/api/v1/groups/{grp['id']}/payments", json={"from": payer, "to": payee, "points": points}, headers=gkey(grp)
    )
    assert r.status_code == 201, r.get_json()
    return r.get_json()["payment"]


# -- rules for a group ----------------------------------------------------------------------------


@pytest.mark.parametrize(("headers", "preset"), [(KO, "korean-common"), (EN, "pagat")])
def test_a_new_group_plays_the_phones_language_default(client, headers, preset):
    grp = new_group(client, headers)
    table = evening(client, grp)
    doc = client.get(f"/api/v1/tables/{table['id']}", headers={"X-Table-Key": table["view_key"]}).get_json()
    assert doc["rules"]["preset"] == preset


def test_rules_given_to_a_new_group_are_kept(client):
    grp = new_group(client, KO, rules={"preset": "ogb-matgo", "options": {}})
    table = evening(client, grp)
    doc = client.get(f"/api/v1/tables/{table['id']}", headers={"X-Table-Key": table["view_key"]}).get_json()
    assert doc["rules"]["preset"] == "ogb-matgo"


# -- payments voided, never deleted -----------------------------------------------------------------


def test_a_voided_payment_stays_listed_and_leaves_what_is_owed(client):
    grp = new_group(client)
    add_hand(client, evening(client, grp))
    owed_before = group_doc(client, grp)["owed"]
    t = owed_before[0]
    payment = pay(client, grp, t["from"], t["to"], t["points"])
    assert group_doc(client, grp)["owed"] != owed_before
    url = f"/api/v1/groups/{grp['id']}/payments/{payment['id']}/void"
    r = client.post(url, headers=gkey(grp))
    assert r.status_code == 200 and r.get_json()["voided_now"] is True, r.get_json()
    doc = group_doc(client, grp)
    assert [p["voided"] for p in doc["payments"]] == [True]
    assert doc["owed"] == owed_before
    version = doc["version"]
    again = client.post(url, headers=gkey(grp))  # voiding again changes nothing
    assert again.status_code == 200 and again.get_json()["voided_now"] is False
    assert group_doc(client, grp)["version"] == version
    assert [e["kind"] for e in history(client, grp)].count("payment_voided") == 1


def test_voiding_needs_the_edit_key_and_a_payment_of_the_group(client):
    grp, other = new_group(client), new_group(client)
    add_hand(client, evening(client, grp))
    t = group_doc(client, grp)["owed"][0]
    payment = pay(client, grp, t["from"], t["to"], t["points"])
    url = f"/api/v1/groups/{grp['id']}/payments/{payment['id']}/void"
    assert client.post(url, headers=gkey(grp, "view_key")).status_code == 403
    assert client.post(url).status_code == 401
    assert client.post(f"/api/v1/groups/{grp['id']}/payments/999999/void", headers=gkey(grp)).status_code == 404
    assert (
        client.post(f"/api/v1/groups/{other['id']}/payments/{payment['id']}/void", headers=gkey(other)).status_code
        == 404
    )
    assert group_doc(client, grp)["payments"][0]["voided"] is False


def test_the_same_transfer_marked_paid_after_a_void_is_a_new_payment(client, app):
    """보냈어요, voided, then 보냈어요 again on the same transfer: recorded anew (the voided one is
    not found by the key and taken for it)."""
    import re

    grp = new_group(client)
    add_hand(client, evening(client, grp))
    phone = app.test_client()
    phone.get(f"/gj/{grp['id']}/{grp['edit_key']}")

    def sent_it():
        html = phone.get(f"/g/{grp['id']}").get_data(as_text=True)
        fields = re.search(
            r'name="from" value="([^"]+)".*?name="to" value="([^"]+)".*?name="points" value="(\d+)".*?'
            r'name="key" value="([^"]+)"',
            html,
            re.S,
        ).groups()
        assert (
            phone.post(f"/g/{grp['id']}/paid", data=dict(zip(("from", "to", "points", "key"), fields))).status_code
            == 303
        )
        return fields

    first = sent_it()
    paid = group_doc(client, grp)["payments"][0]
    client.post(f"/api/v1/groups/{grp['id']}/payments/{paid['id']}/void", headers=gkey(grp))
    again = sent_it()
    assert again[:3] == first[:3]  # the same transfer, owed again
    doc = group_doc(client, grp)
    assert [p["voided"] for p in doc["payments"]] == [True, False]
    assert [t for t in doc["owed"] if (t["from"], t["to"]) == first[:2]] == []


# -- an empty evening removed ---------------------------------------------------------------------


def test_an_empty_evening_is_removed_and_one_with_hands_is_kept(client):
    grp = new_group(client)
    full, empty = evening(client, grp), None
    add_hand(client, full)
    empty = evening(client, grp)
    assert (
        client.delete(f"/api/v1/groups/{grp['id']}/evenings/{empty['id']}", headers=gkey(grp, "view_key")).status_code
        == 403
    )
    r = client.delete(f"/api/v1/groups/{grp['id']}/evenings/{full['id']}", headers=gkey(grp))
    assert r.status_code == 409 and r.get_json()["errors"][0]["code"] == "evening_has_hands"
    r = client.delete(f"/api/v1/groups/{grp['id']}/evenings/{empty['id']}", headers=gkey(grp))
    assert r.status_code == 200, r.get_json()
    assert [t["id"] for t in group_doc(client, grp)["tables"]] == [full["id"]]
    assert client.get(f"/api/v1/tables/{empty['id']}", headers={"X-Table-Key": empty["edit_key"]}).status_code == 404
    assert client.delete(f"/api/v1/groups/{grp['id']}/evenings/{empty['id']}", headers=gkey(grp)).status_code == 404
    removed = [e for e in history(client, grp) if e["kind"] == "evening_removed"]
    assert [e["table"] for e in removed] == [empty["id"]]


# -- history -------------------------------------------------------------------------------------


def test_history_after_every_kind_of_change(client):
    grp = new_group(client)
    table = evening(client, grp)
    added = add_hand(client, table)
    # an edit that moves the standings: B wins instead of A
    b_wins = {"captures": {"B": ["1g", "3g", "8g"]}, "outcome": {"type": "stop", "winner": "B"}}
    tag = client.get(
        f"/api/v1/tables/{table['id']}/hands/{added['id']}", headers={"X-Table-Key": table["view_key"]}
    ).headers["ETag"]
    r = client.put(
        f"/api/v1/tables/{table['id']}/hands/{added['id']}",
        json={"summary": b_wins},
        headers={"X-Table-Key": table["edit_key"], "If-Match": tag},
    )
    assert r.status_code == 200, r.get_json()
    second = add_hand(client, table)
    tag = client.get(
        f"/api/v1/tables/{table['id']}/hands/{second['id']}", headers={"X-Table-Key": table["view_key"]}
    ).headers["ETag"]
    assert (
        client.delete(
            f"/api/v1/tables/{table['id']}/hands/{second['id']}",
            headers={"X-Table-Key": table["edit_key"], "If-Match": tag},
        ).status_code
        == 200
    )
    t = group_doc(client, grp)["owed"][0]
    payment = pay(client, grp, t["from"], t["to"], t["points"])
    client.post(f"/api/v1/groups/{grp['id']}/payments/{payment['id']}/void", headers=gkey(grp))
    empty = evening(client, grp)
    client.delete(f"/api/v1/groups/{grp['id']}/evenings/{empty['id']}", headers=gkey(grp))
    r = client.put(f"/api/v1/groups/{grp['id']}/players/B", json={"pay_link": "https://toss.me/bee"}, headers=gkey(grp))
    assert r.status_code == 200, r.get_json()
    r = client.post(
        f"/api/v1/tables/{table['id']}/keys", json={"rotate": "view"}, headers={"X-Table-Key": table["edit_key"]}
    )
    assert r.status_code == 200
    table["view_key"] = r.get_json()["view_key"]

    entries = history(client, grp)
    kinds = [e["kind"] for e in entries]
    assert kinds == [
        "group_created",
        "evening_added",
        "hand_added",
        "hand_edited",
        "hand_added",
        "hand_deleted",
        "payment_recorded",
        "payment_voided",
        "evening_added",
        "evening_removed",
        "pay_link_set",
        "keys_rotated",
    ]
    ats = [datetime.fromisoformat(e["at"]) for e in entries]
    assert all(a.tzinfo is not None for a in ats) and ats == sorted(ats)
    assert {e["by"] for e in entries} == {"api"}
    edited = entries[3]
    assert edited["table"] == table["id"] and edited["hand"] == 1
    moved = {c["player"]: (c["before"], c["after"]) for c in edited["changes"]}
    assert moved["A"][0] > 0 and moved["A"][1] < 0 and moved["B"][1] > 0 and moved["B"][0] < 0
    deleted = entries[5]
    assert deleted["hand"] == 2 and deleted["changes"]
    assert entries[6]["payment"] == {"id": payment["id"], "from": t["from"], "to": t["to"], "points": t["points"]}
    assert entries[10] == entries[10] | {"player": "B", "pay_link": "https://toss.me/bee"}
    assert entries[11]["which"] == "view"
    # the table's own history: its hands and keys, nothing of the group's
    assert [e["kind"] for e in history(client, table=table)] == [
        "hand_added",
        "hand_edited",
        "hand_added",
        "hand_deleted",
        "keys_rotated",
    ]


def test_a_refused_change_leaves_no_history(client):
    grp = new_group(client)
    table = evening(client, grp)
    before = history(client, grp)
    bad = {"captures": {"A": ["1g", "1g"]}, "outcome": {"type": "stop", "winner": "A"}}
    r = client.post(
        f"/api/v1/tables/{table['id']}/hands", json={"summary": bad}, headers={"X-Table-Key": table["edit_key"]}
    )
    assert r.status_code == 422
    r = client.post(
        f"/api/v1/groups/{grp['id']}/payments", json={"from": "A", "to": "B", "points": 5}, headers=gkey(grp)
    )
    assert r.status_code == 422
    assert history(client, grp) == before


def test_history_needs_a_key(client):
    grp = new_group(client)
    table = evening(client, grp)
    assert client.get(f"/api/v1/groups/{grp['id']}/history").status_code == 401
    assert client.get(f"/api/v1/tables/{table['id']}/history").status_code == 401
    assert (
        client.get(f"/api/v1/groups/{grp['id']}/history", headers={"X-Group-Key": table["view_key"]}).status_code == 401
    )


# -- pay links -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "link",
    [
        "http://toss.me/bee",
        "https://toss.me.evil.example/bee",
        "https://evil.example/toss.me/bee",
        "https://user@toss.me/bee",
        "https://toss.me:8443/bee",
        "https://toss.me/",
        "https://toss.me/bee?amount=1",
        "javascript:alert(1)",
        "https://qr.kakaopay.com/",
        "https://kakaopay.com/abc",
        "https://toss.me/be e",
        "https://toss.me/bee\n",
        "x" * 300,
        42,
        ["https://toss.me/bee"],
    ],
)
def test_a_pay_link_other_than_toss_or_kakaopay_is_refused(client, link):
    grp = new_group(client)
    r = client.put(f"/api/v1/groups/{grp['id']}/players/B", json={"pay_link": link}, headers=gkey(grp))
    assert r.status_code == 422 and r.get_json()["errors"][0]["code"] in ("bad_pay_link", "bad_value"), r.get_json()
    assert group_doc(client, grp)["pay_links"] == {}


def test_the_owed_line_opens_the_pay_link_with_the_amount(client):
    grp = new_group(client)
    add_hand(client, evening(client, grp))
    t = group_doc(client, grp)["owed"][0]
    r = client.put(
        f"/api/v1/groups/{grp['id']}/players/{t['to']}", json={"pay_link": "https://TOSS.me/bee/"}, headers=gkey(grp)
    )
    assert r.status_code == 200 and r.get_json()["pay_link"] == "https://toss.me/bee"
    owed = group_doc(client, grp)["owed"]  # read with the read-only key
    assert owed[0]["pay_link"] == f"https://toss.me/bee/{int(t['money'])}"
    r = client.put(
        f"/api/v1/groups/{grp['id']}/players/{t['to']}",
        json={"pay_link": "https://qr.kakaopay.com/Ej8abc123"},
        headers=gkey(grp),
    )
    assert group_doc(client, grp)["owed"][0]["pay_link"] == "https://qr.kakaopay.com/Ej8abc123"
    r = client.put(f"/api/v1/groups/{grp['id']}/players/{t['to']}", json={"pay_link": None}, headers=gkey(grp))
    assert "pay_link" not in group_doc(client, grp)["owed"][0]
    assert (
        client.put(f"/api/v1/groups/{grp['id']}/players/Nobody", json={"pay_link": None}, headers=gkey(grp)).status_code
        == 404
    )
    assert (
        client.put(
            f"/api/v1/groups/{grp['id']}/players/A", json={"pay_link": None}, headers=gkey(grp, "view_key")
        ).status_code
        == 403
    )


# -- export and import keep it all -------------------------------------------------------------------


def test_export_and_import_keep_payments_dates_keys_voids_links_and_history(client):
    grp = new_group(client)
    table = evening(client, grp)
    add_hand(client, table)
    t = group_doc(client, grp)["owed"][0]
    r = client.post(
        f"/api/v1/groups/{grp['id']}/payments",
        json={"from": t["from"], "to": t["to"], "points": 1, "key": "k1"},
        headers=gkey(grp),
    )
    p1 = r.get_json()["payment"]
    p2 = pay(client, grp, t["from"], t["to"], 2)
    client.post(f"/api/v1/groups/{grp['id']}/payments/{p2['id']}/void", headers=gkey(grp))
    client.put(f"/api/v1/groups/{grp['id']}/players/B", json={"pay_link": "https://toss.me/bee"}, headers=gkey(grp))
    client.get(f"/g/{grp['id']}", headers=gkey(grp))  # nothing
    with client.session_transaction() as s:
        s["group_keys"] = {grp["id"]: grp["view_key"]}
    export = client.get(f"/g/{grp['id']}/group.json").get_json()
    assert [(p["key"], p["voided_at"] is not None) for p in export["payments"]] == [("k1", False), (None, True)]
    assert export["payments"][0]["at"] == p1["at"]
    r = client.post("/api/v1/groups/import", json=export)
    assert r.status_code == 201, r.get_json()
    new = r.get_json()
    doc = group_doc(client, new)
    assert [(p["key"], p["voided"], p["at"]) for p in doc["payments"]] == [
        ("k1", False, p1["at"]),
        (None, True, p2["at"]),
    ]
    assert doc["pay_links"] == {"B": "https://toss.me/bee"}
    old_history = history(client, grp)
    new_history = history(client, new)
    assert [e["kind"] for e in new_history] == [e["kind"] for e in old_history] + ["group_imported"]
    assert [e["at"] for e in new_history[:-1]] == [e["at"] for e in old_history]
    new_table = doc["tables"][0]["id"]
    assert {e.get("table") for e in new_history if e.get("table")} == {new_table}


@pytest.mark.parametrize(
    ("where", "value"),
    [
        (
            "payments",
            [{"from": "A", "to": "B", "points": 1, "key": "k"}, {"from": "A", "to": "B", "points": 1, "key": "k"}],
        ),
        ("payments", [{"from": "A", "to": "B", "points": 1, "at": "yesterday"}]),
        ("history", [{"at": "2026-01-01T00:00:00+00:00", "kind": "nonsense", "by": "api"}]),
        ("history", [{"kind": "hand_added", "by": "api"}]),
        ("history", "no"),
    ],
)
def test_an_import_with_bad_new_fields_is_refused_whole(client, where, value):
    doc = {
        "group": {"name": "g", "players": [{"name": "A"}, {"name": "B"}]},
        "evenings": [],
        "payments": [],
        where: value,
    }
    before = client.get("/api/v1/openapi.json").status_code
    r = client.post("/api/v1/groups/import", json=doc)
    assert r.status_code == 422, r.get_json()
    assert before == 200


def test_history_names_the_seat_the_phone_or_the_api(client, app):
    """``by``: the phone's seat at the table when it holds one, else "phone" (the pages and their
    scripts, on the phone's cookie) or "api" (a key in a header)."""
    grp = new_group(client)
    table = evening(client, grp)
    add_hand(client, table)  # a key in a header: "api"
    seated = app.test_client()
    seated.get(f"/j/{table['id']}/{table['edit_key']}")
    with seated.session_transaction() as s:
        s["seats"] = {table["id"]: "B"}
    r = seated.post(f"/api/v1/tables/{table['id']}/hands", json={"summary": STOP_A}, headers=csrf_header(app, seated))
    assert r.status_code == 201, r.get_json()
    unseated = app.test_client()
    unseated.get(f"/j/{table['id']}/{table['edit_key']}")
    r = unseated.post(
        f"/api/v1/tables/{table['id']}/hands", json={"summary": STOP_A}, headers=csrf_header(app, unseated)
    )
    assert r.status_code == 201, r.get_json()
    assert [e["by"] for e in history(client, table=table)] == ["api", "B", "phone"]


def test_a_groups_new_keys_are_in_its_history(client):
    """Issue 28's keys_rotated, for a group's own links (issue 29 made them rotatable): the entry is
    written with the change, by the API and by the page."""
    grp = new_group(client)
    r = client.post(f"/api/v1/groups/{grp['id']}/keys", json={"rotate": "view"}, headers=gkey(grp))
    assert r.status_code == 200, r.get_json()
    grp["view_key"] = r.get_json()["view_key"]
    entries = history(client, grp)
    assert [e["kind"] for e in entries] == ["group_created", "keys_rotated"]
    assert entries[-1]["which"] == "view" and entries[-1]["by"] == "api"


def test_a_live_hands_end_is_in_the_history_with_who_moved(make_table):
    """A live hand moves the standings at its last tap (issue 28: nothing changes without a trace):
    its end is an entry naming the players whose standing moved, before and after."""
    from .conftest import GO_PIBAK, GO_PIBAK_PAYMENTS

    t = make_table()
    hand = t.start_live()
    t.append(hand, GO_PIBAK)
    entries = t.api("GET", "/history", key=t.view_key).get_json()["history"]
    assert [e["kind"] for e in entries] == ["hand_added", "hand_finished"]
    moved = {c["player"]: (c["before"], c["after"]) for c in entries[-1]["changes"]}
    won = sum(GO_PIBAK_PAYMENTS.values())
    assert moved == {"A": (0, won), "B": (0, -GO_PIBAK_PAYMENTS["B", "A"]), "C": (0, -GO_PIBAK_PAYMENTS["C", "A"])}
    assert entries[-1]["hand"] == 1
