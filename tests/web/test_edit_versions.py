"""Lost updates on edits (issue 10, item 2): an edit or delete carries the version it was made against.

Two phones open the same finished hand; both change it. Before, both were acknowledged and the
first edit silently disappeared. Now the API's ``ETag``/``If-Match`` and the edit form's hidden
``version`` make the second a 409 carrying the hand as it now is, and nothing is lost.
"""

from __future__ import annotations

import re

import pytest

from .conftest import STOP_A
from .walk import rows_of

NAGARI = STOP_A | {"outcome": {"type": "nagari"}}
B_WINS = {"captures": {"B": ["1g", "3g", "8g"]}, "outcome": {"type": "stop", "winner": "B"}}
QUICK = {
    "outcome": "stop",
    "winner": "A",
    "entries-0-cards": ["1g", "3g", "8g"],
    "entries-0-junk": "0",
    "entries-1-junk": "0",
    "entries-2-junk": "0",
    "mission": "1",
}


def _etag(t, hand: int) -> str:
    r = t.api("GET", f"/hands/{hand}")
    assert r.status_code == 200 and r.headers["ETag"].startswith('"')
    return r.headers["ETag"]


def test_a_stale_put_is_a_409_with_the_current_hand(app, make_table):
    t = make_table()
    hand = t.add_summary(STOP_A)
    seen = _etag(t, hand)  # both phones read the hand
    first = t.api("PUT", f"/hands/{hand}", json={"summary": NAGARI}, headers={"If-Match": seen})
    assert first.status_code == 200 and first.headers["ETag"] not in (seen, None)
    before = rows_of(app, t.id)
    second = t.api("PUT", f"/hands/{hand}", json={"summary": B_WINS}, headers={"If-Match": seen})
    assert second.status_code == 409
    body = second.get_json()
    assert body["ok"] is False and body["errors"][0]["code"] == "conflict"
    assert body["hand"]["summary"]["outcome"] == {"type": "nagari"}  # the first phone's edit, kept
    assert second.headers["ETag"] == first.headers["ETag"] == f'"{body["hand"]["etag"]}"'
    assert rows_of(app, t.id) == before
    # Made against the current version, the second phone's edit goes through.
    again = t.api("PUT", f"/hands/{hand}", json={"summary": B_WINS}, headers={"If-Match": second.headers["ETag"]})
    assert again.status_code == 200 and t.state()["balances"] == {"A": -6, "B": 12, "C": -6}


def test_a_stale_delete_is_a_409_and_deletes_nothing(app, make_table):
    t = make_table()
    hand = t.add_summary(STOP_A)
    seen = _etag(t, hand)
    assert t.api("PUT", f"/hands/{hand}", json={"summary": NAGARI}, headers={"If-Match": seen}).status_code == 200
    before = rows_of(app, t.id)
    r = t.api("DELETE", f"/hands/{hand}", headers={"If-Match": seen})
    assert r.status_code == 409 and r.get_json()["hand"]["summary"]["outcome"] == {"type": "nagari"}
    assert rows_of(app, t.id) == before
    assert t.api("DELETE", f"/hands/{hand}", headers={"If-Match": r.headers["ETag"]}).status_code == 200
    assert t.state()["hands"] == []


@pytest.mark.parametrize("method", ["PUT", "DELETE"])
def test_an_edit_without_if_match_is_a_428(app, make_table, method):
    t = make_table()
    hand = t.add_summary(STOP_A)
    before = rows_of(app, t.id)
    r = t.api(method, f"/hands/{hand}", json={"summary": NAGARI})
    assert r.status_code == 428 and r.get_json()["errors"][0]["code"] == "precondition_required"
    assert rows_of(app, t.id) == before


def test_if_match_takes_a_list_and_a_star(app, make_table):
    t = make_table()
    hand = t.add_summary(STOP_A)
    current = _etag(t, hand)
    r = t.api("PUT", f"/hands/{hand}", json={"summary": NAGARI}, headers={"If-Match": f'"0123", {current}'})
    assert r.status_code == 200
    nagari = r.headers["ETag"]
    assert t.api("PUT", f"/hands/{hand}", json={"summary": B_WINS}, headers={"If-Match": "*"}).status_code == 200
    assert t.api("PUT", f"/hands/{hand}", json={"summary": STOP_A}, headers={"If-Match": nagari}).status_code == 409


def test_many_races_lose_no_edit(app, make_table):
    """50 rounds of two phones editing one hand from the same version: exactly one wins each round."""
    t = make_table()
    hand = t.add_summary(STOP_A)
    for round_ in range(50):
        seen = _etag(t, hand)
        mine = STOP_A | {"junk": {"B": round_ % 9}}
        theirs = STOP_A | {"junk": {"C": round_ % 9 + 1}}
        a = t.api("PUT", f"/hands/{hand}", json={"summary": mine}, headers={"If-Match": seen})
        b = t.api("PUT", f"/hands/{hand}", json={"summary": theirs}, headers={"If-Match": seen})
        assert (a.status_code, b.status_code) == (200, 409), round_
        assert t.api("GET", f"/hands/{hand}").get_json()["summary"]["junk"] == mine["junk"]


def _version(html: bytes) -> str:
    found = re.search(rb'name="version"[^>]*value="([^"]*)"|value="([^"]*)"[^>]*name="version"', html)
    assert found, "no version field"
    return (found.group(1) or found.group(2)).decode()


def test_a_stale_edit_form_shows_the_conflict_and_keeps_the_entry(app, table, client):
    hand = table.add_summary(STOP_A)
    page = client.get(f"{table.url}/hands/{hand}/edit")
    version = _version(page.data)
    assert version == _etag(table, hand).strip('"')
    # Another phone changes the hand meanwhile.
    assert (
        table.api(
            "PUT", f"/hands/{hand}", json={"summary": NAGARI}, headers={"If-Match": _etag(table, hand)}
        ).status_code
        == 200
    )
    before = rows_of(app, table.id)
    mine = QUICK | {
        "winner": "C",
        "entries-0-cards": [],
        "entries-2-cards": ["1g", "3g", "8g"],
        "action": "save",
        "version": version,
    }
    r = client.post(f"{table.url}/hands/{hand}/edit", data=mine)
    assert r.status_code == 409 and b'data-code="conflict"' in r.data
    assert (
        re.search(
            rb'name="entries-2-cards"[^>]*value="1g" checked|value="1g" checked[^>]*name="entries-2-cards"', r.data
        )
        or b'value="1g" checked' in r.data
    )  # the phone's entry is still on screen
    assert rows_of(app, table.id) == before
    # The page now carries the current version: saving again is a deliberate overwrite.
    assert _version(r.data) == _etag(table, hand).strip('"')
    again = client.post(f"{table.url}/hands/{hand}/edit", data=mine | {"version": _version(r.data)})
    assert again.status_code == 303 and table.state()["balances"] == {"A": -6, "B": -6, "C": 12}


def test_a_stale_delete_form_deletes_nothing(app, table, client):
    hand = table.add_summary(STOP_A)
    page = client.get(f"{table.url}/hands/{hand}")
    version = _version(page.data)
    assert (
        table.api(
            "PUT", f"/hands/{hand}", json={"summary": NAGARI}, headers={"If-Match": _etag(table, hand)}
        ).status_code
        == 200
    )
    before = rows_of(app, table.id)
    r = client.post(f"{table.url}/hands/{hand}/delete", data={"confirm": "y", "version": version})
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/hands/{hand}")
    assert rows_of(app, table.id) == before
    shown = client.get(r.headers["Location"])
    from scorekeeper.web.catalogue.messages import MESSAGES

    assert MESSAGES["delete_stale"][0] in shown.get_data(as_text=True)
    current = _version(shown.data)
    r = client.post(f"{table.url}/hands/{hand}/delete", data={"confirm": "y", "version": current})
    assert r.status_code == 303 and table.state()["hands"] == []


def test_appends_and_new_hands_stay_safe(make_table):
    """Kept as it was: a new hand against a stale count and an event against a stale seq are 409s."""
    t = make_table()
    t.add_summary(STOP_A, count=0)
    assert t.api("POST", "/hands", json={"summary": STOP_A, "count": 0}).status_code == 409
    live = t.start_live(count=1)
    t.append(live, [{"type": "capture", "player": "B", "cards": ["1j1"]}])
    r = t.api(
        "POST", f"/hands/{live}/events", json={"seq": 0, "event": {"type": "capture", "player": "B", "cards": ["2j1"]}}
    )
    assert r.status_code == 409


@pytest.mark.parametrize("lang, now", [("ko", "나가리"), ("en", "nagari")])
def test_a_stale_edit_names_the_stored_outcome_in_the_phones_language(table, client, lang, now):
    """Issue 13: the conflict says what is stored now in words, never the engine's id in Korean mode."""
    hand = table.add_summary(STOP_A)
    version = _version(client.get(f"{table.url}/hands/{hand}/edit").data)
    assert (
        table.api(
            "PUT",
            f"/hands/{hand}",
            json={"summary": {**STOP_A, "outcome": {"type": "nagari"}}},
            headers={"If-Match": _etag(table, hand)},
        ).status_code
        == 200
    )
    client.set_cookie("lang", lang)
    r = client.post(f"{table.url}/hands/{hand}/edit", data=QUICK | {"action": "save", "version": version})
    assert r.status_code == 409
    said = re.search(r'data-code="conflict"[^>]*>(.*?)</', r.get_data(as_text=True), re.S).group(1)
    assert now in said and (lang == "en" or "nagari" not in said), said


# What the document says If-Match may be, and what the route does with it: a header the schema
# calls valid is read as versions (200 or 409, never 428); one it calls invalid is a 428 that
# changes nothing. Before, the document allowed any non-empty string and the route answered 428
# to whatever was not a quoted tag (schemathesis: "schema-valid request rejected").
IF_MATCH_CASES = [
    ('"0123"', True),
    ('"0123", "4567"', True),
    ('"0123","4567"', True),
    ("*", True),
    ('""', True),
    ("0123", False),
    ('W/"0123"', False),
    ("o()yu6|Z3\t{", False),
    ('"01"23"', False),
    ("* ", False),
    ('"0123",', False),
    (" ", False),
    ('"é"', False),
]


@pytest.mark.parametrize("header, valid", IF_MATCH_CASES)
def test_if_match_is_taken_exactly_when_the_document_says_it_is_valid(app, make_table, header, valid):
    from scorekeeper.web.api.openapi import document

    op = document()["paths"]["/tables/{table}/hands/{hand}"]["put"]
    schema = next(p["schema"] for p in op["parameters"] if p["name"] == "If-Match")
    assert (re.search(schema["pattern"], header) is not None) is valid
    t = make_table()
    hand = t.add_summary(STOP_A)
    before = rows_of(app, t.id)
    r = t.api("PUT", f"/hands/{hand}", json={"summary": NAGARI}, headers={"If-Match": header})
    if valid:
        assert r.status_code in (200, 409)
    else:
        assert r.status_code == 428 and r.get_json()["errors"][0]["code"] == "precondition_required"
        assert rows_of(app, t.id) == before


@pytest.mark.parametrize("coding", ["br", "gzip"])
def test_an_etag_from_a_compressed_get_edits(app, make_table, coding):
    """Issue 23, item 2: Flask-Compress tags a compressed answer's ETag with its coding
    (``"…:br"``); a client that accepts compression (every browser, ``curl --compressed``,
    python-requests) sends that tag back, and its edit is the same hand's, not someone else's."""
    t = make_table()
    hand = t.add_summary(STOP_A)
    got = t.api("GET", f"/hands/{hand}", headers={"Accept-Encoding": coding})
    assert got.headers.get("Content-Encoding") == coding  # the answer was compressed
    seen = got.headers["ETag"]
    r = t.api("PUT", f"/hands/{hand}", json={"summary": NAGARI}, headers={"If-Match": seen})
    assert r.status_code == 200, r.get_json()
    again = t.api("GET", f"/hands/{hand}", headers={"Accept-Encoding": coding}).headers["ETag"]
    assert t.api("DELETE", f"/hands/{hand}", headers={"If-Match": again}).status_code == 200
    assert t.state()["hands"] == []


def test_a_compressed_stale_etag_is_still_a_409(app, make_table):
    t = make_table()
    hand = t.add_summary(STOP_A)
    seen = t.api("GET", f"/hands/{hand}", headers={"Accept-Encoding": "br"}).headers["ETag"]
    first = t.api("PUT", f"/hands/{hand}", json={"summary": NAGARI}, headers={"If-Match": seen})
    assert first.status_code == 200
    r = t.api("PUT", f"/hands/{hand}", json={"summary": B_WINS}, headers={"If-Match": seen})
    assert r.status_code == 409
    # Only the codings the server sends are taken off: another suffix names no version of ours.
    current = first.headers["ETag"].strip('"')
    assert (
        t.api("PUT", f"/hands/{hand}", json={"summary": B_WINS}, headers={"If-Match": f'"{current}:xz"'}).status_code
        == 409
    )
