"""The API push stream's plain open, answered before Flask (``web/server/faststream.py``): exactly
as Flask answers it, or left to Flask, which refuses as it always did (issue 32: 3,000 streams
opening at once after a restart held the taps among them up to a second).

Each open is made twice, with the fast path and without it: status, headers and the stream's
bytes must be the same. Each case also says whether the fast path must have answered it.
"""

from __future__ import annotations

import pytest

from scorekeeper.web import close_app
from scorekeeper.web.server.faststream import FastStream
from tests.conftest import make_app
from tests.web.conftest import Table
from tests.web.test_fastpath import _both, spy_on

JUNK = [{"type": "capture", "player": "A", "cards": [c]} for c in ("1j1", "1j2", "2j1", "2j2", "3j1", "3j2")]


@pytest.fixture
def spied(monkeypatch):
    """Whether the fast path answered the last open."""
    return spy_on(monkeypatch, FastStream)


def _new_table(app) -> Table:
    return Table(
        app.test_client(),
        app.test_client()
        .post("/api/v1/tables", json={"name": "t", "players": ["A", "B", "C"], "first_dealer": "A"})
        .get_json(),
    )


@pytest.fixture
def setting(database_url, tmp_path):
    # Streams that end after their first event: each answer's bytes compared whole, no heartbeat
    # sent or not as the clock goes.
    app = make_app(database_url, tmp_path, RATELIMIT_ENABLED=True, PUSH_STREAM_SECONDS=0)
    yield app, _new_table(app)
    close_app(app)


def _path(table: Table) -> str:
    return f"/api/v1/tables/{table.id}/stream"


def _same(fast, slow) -> None:
    assert fast.status_code == slow.status_code
    assert list(fast.headers.items()) == list(slow.headers.items())  # in Flask's order too
    assert fast.data == slow.data


def _idle(app) -> None:
    """No stream held: every budget given back, nothing followed."""
    watcher = app.extensions["sk_push"]
    assert watcher._by_address == {} and watcher.followed() == []


def test_a_plain_open_answers_as_flask_does(setting, spied):
    app, table = setting
    cases = [  # (headers, over https)
        ({"X-Table-Key": table.view_key, "Accept": "text/event-stream"}, False),
        ({"X-Table-Key": table.edit_key}, False),
        ({"X-Table-Key": table.view_key, "Accept-Encoding": "gzip, br", "Accept-Language": "ko"}, False),
        ({"X-Table-Key": table.view_key, "Last-Event-ID": "3"}, False),
        ({"X-Table-Key": table.view_key}, True),  # HSTS
    ]
    for stage in ("no hand", "a live hand"):
        if stage == "a live hand":
            table.append(table.start_live(), JUNK[:3])
        for headers, https in cases:
            (fast, answered), (slow, _) = _both(app, spied, _path(table), headers, https)
            assert answered, (stage, headers)
            _same(fast, slow)
            assert fast.status_code == 200 and fast.data.startswith(b"retry: 1000\nid: ")
    assert b'"events"' in fast.data  # the live hand's document, as Flask sends it
    _idle(app)


@pytest.mark.parametrize("path", ["/api/v1/tables/{id}/stream", "/t/{id}/stream"])
@pytest.mark.parametrize("fast", [True, False])
def test_the_retry_line_and_the_first_event_are_one_write(setting, spied, path, fast):
    """One send instead of two for each stream opened (gevent's send was a tenth of the workers'
    time in the burst of opens); the client reads the same text."""
    app, table = setting
    app.config["FAST_PATH"] = fast
    app.config["PUSH_STREAM_SECONDS"] = 5
    r = app.test_client().get(path.format(id=table.id), headers={"X-Table-Key": table.view_key}, buffered=False)
    try:
        assert r.status_code == 200
        first = next(iter(r.response))
        version = table.api("GET", "/version").get_json()["version"]
        assert first.startswith(b"retry: 1000\nid: %d\ndata: " % version) and first.endswith(b"\n\n")
        assert first.count(b"\n\n") == 1
    finally:
        r.close()
    _idle(app)


def test_what_is_not_plain_goes_to_flask(setting, spied):
    app, table = setting
    path = _path(table)
    cases = [  # (path, headers): each answered by Flask alone
        (path + "?x=1", {"X-Table-Key": table.view_key}),
        (path, {"X-Table-Key": table.view_key, "Cookie": "session=x"}),  # a session may hold a key
        (path, {}),  # 401
        (path, {"X-Table-Key": "wrong"}),  # 401, counted by Flask
        ("/api/v1/tables/nosuchtable/stream", {"X-Table-Key": table.view_key}),  # 404
        (path + "/", {"X-Table-Key": table.view_key}),
        ("/api/v1/tables/" + "x" * 40 + "/stream", {"X-Table-Key": table.view_key}),
    ]
    for where, headers in cases:
        (fast, answered), (slow, _) = _both(app, spied, where, headers)
        assert not answered, (where, headers)
        _same(fast, slow)
    _idle(app)


def test_a_wrong_key_is_refused_and_counted_by_flask(setting, spied):
    """Guessing keys through the fast path costs the guessing budget as through Flask; once spent,
    even the right key is left to Flask, which answers the 429."""
    app, table = setting
    app.config["RATELIMIT_GUESS"] = "3/minute"
    client = app.test_client()
    for _ in range(3):
        assert client.get(_path(table), headers={"X-Table-Key": "wrong"}).status_code == 401
        assert spied["answered"] is False
    (fast, answered), (slow, _) = _both(app, spied, _path(table), {"X-Table-Key": table.view_key})
    assert not answered and fast.status_code == 429
    _same(fast, slow)
    _idle(app)


def test_a_rotated_key_is_refused_by_flask(setting, spied):
    app, table = setting
    old_view = table.view_key
    rotated = table.api("POST", "/keys", json={"rotate": "both"})
    assert rotated.status_code == 200
    (fast, answered), (slow, _) = _both(app, spied, _path(table), {"X-Table-Key": old_view})
    assert not answered and fast.status_code == 401
    _same(fast, slow)
    (fast, answered), (slow, _) = _both(app, spied, _path(table), {"X-Table-Key": rotated.get_json()["view_key"]})
    assert answered and fast.status_code == 200
    _same(fast, slow)
    _idle(app)


@pytest.mark.parametrize(
    "budget, opens",
    [
        ("PUSH_STREAMS_PER_TABLE", [("10.0.0.1", 0), ("10.0.0.2", 0), ("10.0.0.3", 0)]),
        ("PUSH_STREAMS_PER_ADDRESS", [("10.0.0.1", 0), ("10.0.0.1", 1), ("10.0.0.1", 2)]),
        ("PUSH_STREAMS_TOTAL", [("10.0.0.1", 0), ("10.0.0.2", 1), ("10.0.0.3", 2)]),
    ],
)
def test_a_full_budget_goes_to_flask_which_answers_429(setting, spied, budget, opens):
    """The same budgets as Flask's (``Watcher.admit``): two streams held, the third is Flask's 429."""
    app, table = setting
    app.config[budget] = 2
    app.config["PUSH_STREAM_SECONDS"] = 60
    tables = [table, _new_table(app), _new_table(app)]
    client = app.test_client()

    def open_(address, which):
        t = tables[which]
        return client.get(
            _path(t),
            headers={"X-Table-Key": t.view_key},
            environ_base={"REMOTE_ADDR": address},
            buffered=False,
        )

    held = []
    try:
        for address, which in opens[:2]:
            held.append(open_(address, which))
            assert spied["answered"] is True and held[-1].status_code == 200
        address, which = opens[2]
        refused = open_(address, which)
        assert spied["answered"] is False
        assert refused.status_code == 429 and refused.get_json()["errors"][0]["code"] == "rate_limited"
        assert refused.headers["Retry-After"] == "30"
        app.config["FAST_PATH"] = False
        slow = open_(address, which)
        assert slow.status_code == 429 and list(slow.headers.items()) == list(refused.headers.items())
        assert slow.get_data() == refused.get_data()
    finally:
        app.config["FAST_PATH"] = True
        for r in held:
            r.close()
    _idle(app)
    again = open_(*opens[2])  # closed streams give their room back
    assert spied["answered"] is True and again.status_code == 200
    again.close()
    _idle(app)


def test_the_budgets_are_given_back_however_the_stream_ends(setting, spied):
    app, table = setting
    client = app.test_client()
    headers = {"X-Table-Key": table.view_key}
    # Read to its end (PUSH_STREAM_SECONDS).
    r = client.get(_path(table), headers=headers)
    assert spied["answered"] is True and r.status_code == 200 and r.data.startswith(b"retry: ")
    _idle(app)
    # Closed before its body was started (the phone gone at once).
    app.config["PUSH_STREAM_SECONDS"] = 60
    r = client.get(_path(table), headers=headers, buffered=False)
    assert spied["answered"] is True
    assert app.extensions["sk_push"]._by_address != {}
    r.close()
    _idle(app)
    # Closed after its first event.
    r = client.get(_path(table), headers=headers, buffered=False)
    assert next(iter(r.response)).startswith(b"retry: ")
    r.close()
    _idle(app)


def test_a_fast_stream_hears_each_change_and_ends_when_its_key_is_replaced(setting, spied):
    """The stream's machinery is the same as Flask's: each change is sent, and a stream opened with
    a key since rotated ends at the next change."""
    app, table = setting
    app.config["PUSH_STREAM_SECONDS"] = 5
    hand = table.start_live()
    r = app.test_client().get(_path(table), headers={"X-Table-Key": table.view_key}, buffered=False)
    assert spied["answered"] is True
    body = iter(r.response)
    try:
        next(body)
        table.append(hand, JUNK[:1])
        change = next(body)
        assert change.startswith(b"id: ") and b'"seq":1' in change
        assert table.api("POST", "/keys", json={"rotate": "both"}).status_code == 200
        assert list(body) == []  # ended, nothing more sent
    finally:
        r.close()
    _idle(app)
