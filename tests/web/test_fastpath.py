"""The fast path (``web/server/fastpath.py``) answers exactly as Flask does, or leaves the request to it.

Each request is sent twice, once with the fast path and once without it, and the two answers
must be the same: status, headers (the Date's value aside) and body, the compressed bytes
included (gzip's, which carry a time, compared unpacked). Each case also says whether the fast
path must have answered it, so the test fails if the fast path stops answering as much as if
it answers wrongly.
"""

from __future__ import annotations

import gzip
import json

import brotli
import pytest
import sqlalchemy as sa

from scorekeeper.store import models
from scorekeeper.web import close_app
from scorekeeper.web.server.fastpath import FastPath
from tests.conftest import make_app
from tests.web.conftest import Table

JUNK = [
    {"type": "capture", "player": p, "cards": [c]}
    for p, c in (("A", "1j1"), ("A", "1j2"), ("A", "2j1"), ("A", "2j2"), ("A", "3j1"), ("A", "3j2"))
]


def spy_on(monkeypatch, middleware) -> dict:
    """Whether ``middleware`` (a ``FastPath``) answered the last request itself: False when its
    answer raised (a full budget among them), and Flask answered."""
    seen = {"answered": None}
    real = middleware._answer

    def answer(self, environ):
        seen["answered"] = False
        result = real(self, environ)
        seen["answered"] = result is not None
        return result

    monkeypatch.setattr(middleware, "_answer", answer)
    return seen


@pytest.fixture
def spied(monkeypatch):
    """Whether the fast path answered the last request."""
    return spy_on(monkeypatch, FastPath)


def _both(app, spied, path: str, headers: dict, https: bool = False, cookies: bool = True):
    """The request with the fast path, then without it: ``[(answer, answered), …]``.
    ``cookies=False``: no cookie jar (a refusal's page may set a session cookie the next
    request would send)."""
    client = app.test_client(use_cookies=cookies)
    if cookies and "Cookie" in headers:  # the test client sends its own jar's cookies, not a header's
        headers = dict(headers)
        name, _, value = headers.pop("Cookie").partition("=")
        client.set_cookie(name, value)
    answers = []
    for fast in (True, False):
        app.config["FAST_PATH"] = fast
        spied["answered"] = False
        r = client.get(path, headers=headers, base_url="https://localhost" if https else "http://localhost")
        answers.append((r, spied["answered"]))
    app.config["FAST_PATH"] = True
    return answers


def _same(fast, slow) -> None:
    assert fast.status_code == slow.status_code

    def heads(r):
        return sorted((k, "<date>" if k == "Date" else v) for k, v in r.headers.items())

    assert heads(fast) == heads(slow)
    coding = fast.headers.get("Content-Encoding")
    if coding == "gzip":
        assert gzip.decompress(fast.data) == gzip.decompress(slow.data)
    else:
        assert fast.data == slow.data
    if coding == "br":
        assert brotli.decompress(fast.data) == brotli.decompress(slow.data)


@pytest.fixture
def setting(database_url, tmp_path):
    app = make_app(database_url, tmp_path, RATELIMIT_ENABLED=True)
    table = Table(
        app.test_client(),
        app.test_client()
        .post("/api/v1/tables", json={"name": "t", "players": ["A", "B", "C"], "first_dealer": "A"})
        .get_json(),
    )
    hand = table.start_live()
    table.append(hand, JUNK[:4])
    yield app, table, hand
    close_app(app)


ENCODINGS = [
    None,
    "gzip",
    "br",
    "gzip, deflate, br",
    "identity",
    "*",
    "br;q=0",
    "gzip;q=0.5, br;q=0.4",
    "deflate",
    "zstd",
    "BR",
]


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_a_kept_hand_answers_as_flask_does_in_every_encoding(setting, spied, encoding):
    app, table, hand = setting
    path = f"/api/v1/tables/{table.id}/hands/{hand}/events"
    for key in (table.view_key, table.edit_key):
        headers = {"X-Table-Key": key} | ({"Accept-Encoding": encoding} if encoding else {})
        (fast, answered), (slow, _) = _both(app, spied, path, headers)
        assert answered, "the hand's answer was kept by its last append"
        _same(fast, slow)
        assert fast.status_code == 200 and len(fast.data) > 0
    # Asked again: the compressed bytes kept (brotli's are the same bytes again).
    (again, answered), _ = _both(app, spied, path, headers)
    assert answered
    if again.headers.get("Content-Encoding") != "gzip":
        assert again.data == fast.data


def test_a_poll_answers_as_flask_does(setting, spied):
    app, table, _hand = setting
    path = f"/api/v1/tables/{table.id}/version"
    cases = [  # (headers, over https, the fast path answers)
        ({"X-Table-Key": table.view_key}, False, True),
        ({"X-Table-Key": table.edit_key}, False, True),
        ({"X-Table-Key": table.view_key, "Accept-Encoding": "br", "Accept-Language": "ko"}, False, True),
        ({"X-Table-Key": table.view_key}, True, True),  # HSTS
        ({"X-Table-Key": table.view_key, "Cookie": "session=x"}, False, False),
        ({"X-Table-Key": table.view_key, "If-None-Match": '"1"'}, False, False),
        ({"X-Table-Key": table.view_key, "Range": "bytes=0-3"}, False, False),
        ({"X-Table-Key": "wrong"}, False, False),  # 401, counted by Flask
        ({}, False, False),
    ]
    for headers, https, fast_answers in cases:
        (fast, answered), (slow, _) = _both(app, spied, path, headers, https)
        assert answered is fast_answers, headers
        _same(fast, slow)
    version = table.api("GET", "").get_json()["version"]
    assert (
        _both(app, spied, path, {"X-Table-Key": table.view_key})[0][0].get_json()
        == {"version": version}
        != {"version": 1}
    )


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/tables/{id}/version?x=1",
        "/api/v1/tables/nosuchtable/version",
        "/api/v1/tables/{id}/version/",
        "/api/v1/tables/import/version",
        "/api/v1/tables/{id}/hands/0{hand}/events",
        "/api/v1/tables/{id}/hands/999/events",
    ],
)
def test_what_is_not_plain_goes_to_flask(setting, spied, path):
    app, table, hand = setting
    (fast, answered), (slow, _) = _both(
        app, spied, path.format(id=table.id, hand=hand), {"X-Table-Key": table.view_key}
    )
    assert not answered
    _same(fast, slow)


def test_a_hand_not_kept_goes_to_flask_which_keeps_it(setting, spied):
    """Neither its answer nor its live hand kept (a process that has not seen the table)."""
    app, table, hand = setting
    from scorekeeper.tables import service
    from scorekeeper.web.server import answers

    answers._answers.clear()
    service.forget()
    path = f"/api/v1/tables/{table.id}/hands/{hand}/events"
    client = app.test_client()
    first = client.get(path, headers={"X-Table-Key": table.view_key})
    assert spied["answered"] is False and first.status_code == 200
    second = client.get(path, headers={"X-Table-Key": table.view_key})
    assert spied["answered"] is True and second.data == first.data


def test_a_change_is_seen_at_once(setting, spied):
    """No answer outlives its version: an append, an undo and another phone's append each show."""
    app, table, hand = setting
    path = f"/api/v1/tables/{table.id}/hands/{hand}/events"
    client = app.test_client()
    seen = [client.get(path, headers={"X-Table-Key": table.view_key}).get_json()["seq"]]
    table.append(hand, [JUNK[4]], 4)
    seen.append(client.get(path, headers={"X-Table-Key": table.view_key}).get_json()["seq"])
    assert table.api("POST", f"/hands/{hand}/undo", json={"seq": 5}).status_code == 200
    seen.append(client.get(path, headers={"X-Table-Key": table.view_key}).get_json()["seq"])
    assert seen == [4, 5, 4]
    assert client.get(f"/api/v1/tables/{table.id}/version", headers={"X-Table-Key": table.view_key}).get_json() == {
        "version": table.api("GET", "").get_json()["version"]
    }


def test_a_spent_guessing_budget_holds_back_the_fast_path_too(setting, spied):
    app, table, hand = setting
    app.config["RATELIMIT_GUESS"] = "3/minute"
    client = app.test_client()
    for _ in range(3):
        assert client.get(f"/api/v1/tables/{table.id}/version", headers={"X-Table-Key": "wrong"}).status_code == 401
    for path in (f"/api/v1/tables/{table.id}/version", f"/api/v1/tables/{table.id}/hands/{hand}/events"):
        (fast, answered), (slow, _) = _both(app, spied, path, {"X-Table-Key": table.view_key})
        assert not answered and fast.status_code == 429
        _same(fast, slow)


def test_untrusted_hosts_go_to_flask(database_url, tmp_path, spied):
    app = make_app(database_url, tmp_path, TRUSTED_HOSTS="scores.example")
    try:
        created = (
            app.test_client()
            .post("/api/v1/tables", json={"players": ["A", "B"]}, headers={"Host": "scores.example"})
            .get_json()
        )
        path = f"/api/v1/tables/{created['id']}/version"
        for host, fast_answers, status in (("scores.example", True, 200), ("evil.example", False, 400)):
            (fast, answered), (slow, _) = _both(app, spied, path, {"X-Table-Key": created["view_key"], "Host": host})
            assert answered is fast_answers and fast.status_code == status
            _same(fast, slow)
    finally:
        close_app(app)


def _as_if_another_process(change) -> None:
    """``change()`` made as another process makes it: this one keeps the live hand, the rows and
    the answers as they were before it (what it heard of the change, on PostgreSQL, the note
    alone: the fast path reads the events appended since either way)."""
    from scorekeeper.tables import service
    from scorekeeper.web.server import answers

    kept = {name: dict(getattr(service, name)) for name in ("_lives", "_rows", "_hands")}
    change()
    for name, entries in kept.items():
        getattr(service, name).clear()
        getattr(service, name).update(entries)
    answers._answers.clear()


@pytest.mark.parametrize("encoding", [None, "br"])
def test_a_refresh_after_another_process_tap_is_answered_from_the_live_hand_kept_as_flask_does(
    setting, spied, encoding
):
    """Half of a busy table's refreshes follow a tap the other worker stored: the live hand this
    process keeps, moved by the events appended since, answers them (Flask loaded the table)."""
    app, table, hand = setting
    path = f"/api/v1/tables/{table.id}/hands/{hand}/events"
    _as_if_another_process(lambda: table.append(hand, [JUNK[4]], 4))
    headers = {"X-Table-Key": table.view_key} | ({"Accept-Encoding": encoding} if encoding else {})
    (fast, answered), (slow, _) = _both(app, spied, path, headers)
    assert answered, "answered from the live hand kept, caught up by the tap's event"
    _same(fast, slow)
    if encoding is None:
        assert fast.get_json()["seq"] == 5
    (again, answered), _ = _both(app, spied, path, headers)
    assert answered and again.status_code == 200


def test_a_refresh_after_another_process_undo_or_new_hand_goes_to_flask(setting, spied):
    """Only appends are caught up: another process's undo, or a hand it began, is Flask's to load."""
    app, table, hand = setting
    path = f"/api/v1/tables/{table.id}/hands/{hand}/events"
    _as_if_another_process(lambda: table.api("POST", f"/hands/{hand}/undo", json={"seq": 4}))
    (fast, answered), (slow, _) = _both(app, spied, path, {"X-Table-Key": table.view_key})
    assert not answered
    _same(fast, slow)
    assert fast.get_json()["seq"] == 3


# -- a plain API tap -------------------------------------------------------------------------------

NEXT = {"seq": 4, "event": JUNK[4]}
TAP_CASES = [  # (name, what the request changes, the status the fast path answers with; None: Flask's)
    ("plain", {}, 201),
    ("brotli", {"headers": {"Accept-Encoding": "br"}}, 201),
    ("gzip", {"headers": {"Accept-Encoding": "gzip, deflate"}}, 201),
    ("over https", {"https": True}, 201),
    ("a charset said", {"content_type": "application/json; charset=utf-8"}, 201),
    ("skip said", {"body": NEXT | {"skip": True, "saw": 4}}, 201),
    ("the view key", {"key": "view"}, None),
    ("no key", {"key": None}, None),
    ("a wrong key", {"key": "wrong"}, None),
    # A phone behind the log (or ahead of it): the route's conflict from the hand kept here,
    # the current log in it, once the table is read to be still at the kept row's version.
    ("behind the log", {"body": {"seq": 3, "event": JUNK[4]}}, 409),
    ("ahead of the log", {"body": {"seq": 9, "event": JUNK[4]}}, 409),
    ("behind the log, brotli", {"body": {"seq": 0, "event": JUNK[4]}, "headers": {"Accept-Encoding": "br"}}, 409),
    ("behind the log, gzip", {"body": {"seq": 2, "event": JUNK[4]}, "headers": {"Accept-Encoding": "gzip"}}, 409),
    # Behind the log, what the event is is not looked at (the route's order: the seq first).
    ("behind the log, not an event", {"body": {"seq": 3, "event": {"type": "juggle", "player": "A"}}}, 409),
    # The table moved past the row this process keeps (a change by hand sends no note): its
    # conflict is the read path's, as in the route.
    ("behind the log, the table moved", {"body": {"seq": 3, "event": JUNK[4]}, "moved": True}, None),
    ("a card already taken", {"body": {"seq": 4, "event": JUNK[0]}}, None),
    ("not an event", {"body": {"seq": 4, "event": {"type": "juggle", "player": "A"}}}, None),
    ("no seq", {"body": {"event": JUNK[4]}}, None),
    ("a list", {"body": [NEXT]}, None),
    ("not JSON", {"data": b'{"seq": 4, '}, None),
    ("not said to be JSON", {"content_type": "text/plain"}, None),
    ("a cookie", {"headers": {"Cookie": "session=x"}}, None),
    ("a query string", {"query": "?x=1"}, None),
    ("a hand not live", {"hand": 999}, None),
]


def _tap_both(app, spied, table, twin, hand, twin_hand, change: dict):
    """The same tap on ``table`` with the fast path and on ``twin`` (the same table, made the same
    way) without it: ``(fast answer, answered), (Flask's answer, _)``."""
    answers = []
    for fast, t, h in ((True, table, hand), (False, twin, twin_hand)):
        app.config["FAST_PATH"] = fast
        spied["answered"] = False
        key = change.get("key", "edit")
        headers = {"X-Table-Key": {"edit": t.edit_key, "view": t.view_key}.get(key, key)} if key else {}
        path = f"/api/v1/tables/{t.id}/hands/{change.get('hand', h)}/events{change.get('query', '')}"
        data = change.get("data", json.dumps(change.get("body", NEXT)).encode())
        client = app.test_client()
        if change.get("moved"):
            _move_by_hand(app, t.id)
        extra = dict(change.get("headers", {}))
        if "Cookie" in extra:  # the test client sends its own jar's cookies, not a header's
            name, _, value = extra.pop("Cookie").partition("=")
            client.set_cookie(name, value)
        r = client.post(
            path,
            data=data,
            content_type=change.get("content_type", "application/json"),
            headers=headers | extra,
            base_url="https://localhost" if change.get("https") else "http://localhost",
        )
        answers.append((r, spied["answered"]))
    app.config["FAST_PATH"] = True
    return answers


@pytest.mark.parametrize("name, change, fast_status", TAP_CASES, ids=[c[0] for c in TAP_CASES])
def test_a_plain_api_tap_is_stored_and_answered_as_flask_does(setting, spied, name, change, fast_status):
    """A phone's tap (``POST …/events`` with the key in its header) is answered before Flask when
    the live hand kept here stores it at once; anything else is Flask's, which then reads the same
    body. Either way the tap is stored, or refused, as Flask alone does it."""
    app, table, hand = setting
    twin, twin_hand = _twin(app)
    (fast, answered), (slow, _) = _tap_both(app, spied, table, twin, hand, twin_hand, change)
    assert answered is (fast_status is not None), name
    _same_but_the_hand(fast, slow, hand, twin_hand)
    if fast_status is not None:
        assert fast.status_code == fast_status
    app.config["FAST_PATH"] = False
    logs = [t.api("GET", f"/hands/{h}/events").get_json() for t, h in ((table, hand), (twin, twin_hand))]
    app.config["FAST_PATH"] = True
    assert logs[0] | {"hand": 0} == logs[1] | {"hand": 0}
    if fast_status is not None:  # stored once, or (a conflict) nothing stored
        assert logs[0]["seq"] == {201: 5, 409: 4}[fast_status]


def test_a_fast_tap_is_kept_for_the_other_phones_and_seen_at_once(setting, spied):
    """The tap's answer is what the other phones' refresh gets next, from the fast path, and the
    version poll moves with it."""
    app, table, hand = setting
    client = app.test_client()
    path = f"/api/v1/tables/{table.id}/hands/{hand}/events"
    before = client.get(f"/api/v1/tables/{table.id}/version", headers={"X-Table-Key": table.view_key}).get_json()
    tapped = client.post(path, json=NEXT, headers={"X-Table-Key": table.edit_key})
    assert spied["answered"] is True and tapped.status_code == 201
    refreshed = client.get(path, headers={"X-Table-Key": table.view_key})
    assert spied["answered"] is True and refreshed.data == tapped.data
    after = client.get(f"/api/v1/tables/{table.id}/version", headers={"X-Table-Key": table.view_key}).get_json()
    assert after["version"] == tapped.get_json()["version"] > before["version"]


def _move_by_hand(app, public_id: str) -> None:
    """The table's version moved past the app (no note sent, nothing else changed)."""
    with app.extensions["sk_engine"].begin() as conn:
        conn.execute(
            sa.update(models.Table).where(models.Table.public_id == public_id).values(version=models.Table.version + 1)
        )


def _twin(app) -> tuple[Table, int]:
    """A second table made as ``setting`` made its own, with the same events: the same answers
    but for the hand's id (a row's, numbered across tables)."""
    client = app.test_client()
    twin = Table(
        client,
        client.post("/api/v1/tables", json={"name": "t", "players": ["A", "B", "C"], "first_dealer": "A"}).get_json(),
    )
    hand = twin.start_live()
    twin.append(hand, JUNK[:4])
    return twin, hand


def _same_but_the_hand(fast, slow, hand: int, twin_hand: int) -> None:
    """``_same`` for two tables' answers: the same status and headers (but the length, which the
    hand's id may change), and the same document once each names its hand alike."""
    assert fast.status_code == slow.status_code

    def heads(r):
        return sorted((k, "<date>" if k == "Date" else v) for k, v in r.headers.items() if k != "Content-Length")

    assert heads(fast) == heads(slow)
    assert int(fast.headers["Content-Length"]) == len(fast.data)
    coding = fast.headers.get("Content-Encoding")
    unpack = {"gzip": gzip.decompress, "br": brotli.decompress}.get(coding, lambda b: b)
    docs = [unpack(r.data).replace(b'"hand":%d' % h, b'"hand":0') for r, h in ((fast, hand), (slow, twin_hand))]
    assert docs[0] == docs[1]
