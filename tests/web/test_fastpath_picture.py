"""A group's kept share picture answered by the fast path (issue 29) exactly as Flask answers it.

Fifty chat previews asking for a kept picture each cost a request through Flask in the workers
that also answer another table's poll; the fast path answers the plain ones (no cookie, the key
right for the group, the picture kept for the versions ``share_png`` would compute) before Flask.
Each request here is sent with and without the fast path (as ``test_fastpath``'s are, but with
no cookie jar: a refusal's page may set a session cookie, which the next request would send):
status, headers and bytes must be the same, and each case says whether the fast path answered.
"""

from __future__ import annotations

from functools import partial

import pytest

from scorekeeper.web import close_app
from scorekeeper.web.groups import pictures
from tests.conftest import make_app
from tests.web.conftest import BRIGHTS, group_with_an_evening
from tests.web.test_fastpath import _both as fastpath_both
from tests.web.test_fastpath import _same, spied  # noqa: F401  (spied: a fixture)
from tests.web.test_share_picture import hold_drawings


@pytest.fixture
def grp(database_url, tmp_path):
    app = make_app(database_url, tmp_path, RATELIMIT_ENABLED=True)
    client = app.test_client()
    g = group_with_an_evening(client)
    g["app"], g["client"] = app, client
    g["url"] = f"/g/{g['id']}/share.png"
    yield g
    close_app(app)


# No cookie jar: a refusal's page may set a session cookie, which the next request would send.
_both = partial(fastpath_both, cookies=False)


def _alike(fast, slow, answered: bool) -> None:
    """What the fast path answered must be Flask's to the byte; what it left to Flask is Flask's
    both times (a refusal's page carries a new CSRF token each time: status and headers only)."""
    if answered:
        _same(fast, slow)
        return

    def heads(r):
        return sorted((k, v) for k, v in r.headers.items() if k not in ("Date", "Set-Cookie"))

    assert (fast.status_code, heads(fast)) == (slow.status_code, heads(slow))


def _kept(grp, query: str, headers: dict | None = None) -> None:
    """The picture asked once through Flask, which draws and keeps it."""
    grp["app"].config["FAST_PATH"] = False
    try:
        r = grp["app"].test_client(use_cookies=False).get(f"{grp['url']}?{query}", headers=headers or {})
        assert r.status_code == 200 and r.mimetype == "image/png"
    finally:
        grp["app"].config["FAST_PATH"] = True


def test_a_kept_picture_answers_as_flask_does(grp, spied):
    app, url, table = grp["app"], grp["url"], grp["table"]["id"]
    view, edit = grp["view_key"], grp["edit_key"]
    _kept(grp, f"key={view}&v=1")
    _kept(grp, f"key={view}&evening={table}")
    tag = app.test_client(use_cookies=False).get(f"{url}?key={view}").headers["ETag"]
    cases = [  # (query, headers, over https, the fast path answers)
        (f"key={view}&v=abc", {}, False, True),  # the og:image address
        (f"key={view}", {}, False, True),
        (f"key={edit}", {}, False, True),
        (f"v=1&key={view}", {"Accept-Encoding": "gzip, br"}, False, True),
        (f"key={view}", {}, True, True),  # HSTS
        (f"key={view}&evening={table}", {}, False, True),
        ("", {"X-Group-Key": view}, False, True),  # the API's form: the key in its header
        (f"key={view}", {"If-None-Match": tag}, False, True),  # 304
        (f"key={view}", {"If-None-Match": f'"other", {tag}'}, False, True),
        (f"key={view}", {"If-None-Match": "*"}, False, True),
        (f"key={view}", {"If-None-Match": f"W/{tag}"}, False, True),  # weak: not held, 200
        (f"key={view}", {"If-None-Match": '"other"'}, False, True),
        (f"key={view}", {"Accept-Language": "ko-KR,ko;q=0.9"}, False, True),
        (f"key={view}", {"Range": "bytes=0-3"}, False, False),
        (f"key={view}", {"If-Modified-Since": "Wed, 21 Oct 2015 07:28:00 GMT"}, False, False),
        (f"key={view}&key=wrong", {}, False, False),  # twice: left to Flask
        (f"key={view}&all=1", {}, False, False),  # a name share_png does not read: left to Flask
        (f"key={view}&evening=nosuchtable", {}, False, False),  # 404
        (f"key={view}&evening=", {}, False, True),  # empty: the group's picture, as Flask reads it
        ("key=", {}, False, False),  # 401
        ("key=wrong", {}, False, False),  # 401, counted by Flask
        ("", {}, False, False),
        (f"key={grp['table']['view_key']}", {}, False, False),  # a table's key never opens its group
    ]
    for query, headers, https, fast_answers in cases:
        (fast, answered), (slow, _) = _both(app, spied, f"{url}?{query}" if query else url, headers, https)
        assert answered is fast_answers, (query, headers)
        _alike(fast, slow, answered)
        if fast_answers:
            assert fast.status_code in (200, 304), (query, headers)
    # A cookie (a session may hold a key; Flask may set a new one): Flask's, from a fresh jar each time.
    cookied = []
    for on in (True, False):
        app.config["FAST_PATH"] = on
        client = app.test_client()
        client.set_cookie("session", "x")
        cookied.append(client.get(f"{url}?key={view}"))
        assert spied["answered"] is False
    app.config["FAST_PATH"] = True
    _alike(*cookied, answered=False)


@pytest.mark.parametrize("language", ["en", "en-US,en;q=0.9", "ko", "fr", ""])
def test_each_language_is_answered_with_its_own_kept_picture(grp, spied, language):
    """The language is part of the versions the picture is kept by, picked as ``current_lang``
    picks it without a cookie: English asked before it is kept goes to Flask, which draws it."""
    app, url, view = grp["app"], grp["url"], grp["view_key"]
    headers = {"Accept-Language": language} if language else {}
    _kept(grp, f"key={view}", {"Accept-Language": "ko"})
    english = language.startswith("en")
    (fast, answered), (slow, _) = _both(app, spied, f"{url}?key={view}", headers)
    assert answered is not english  # not kept in English yet: Flask drew it
    _same(fast, slow)
    (fast, answered), (slow, _) = _both(app, spied, f"{url}?key={view}", headers)
    assert answered
    _same(fast, slow)
    korean = app.test_client(use_cookies=False).get(f"{url}?key={view}", headers={"Accept-Language": "ko"})
    assert (fast.data == korean.data) is not english


def test_a_picture_not_kept_goes_to_flask_which_keeps_it(grp, spied):
    app, url, view = grp["app"], grp["url"], grp["view_key"]
    pictures._kept.clear()
    pictures._tags.clear()
    client = app.test_client(use_cookies=False)
    first = client.get(f"{url}?key={view}")
    assert spied["answered"] is False and first.status_code == 200
    second = client.get(f"{url}?key={view}")
    assert spied["answered"] is True and second.data == first.data
    # Known by its versions but no longer kept (pushed out by newer pictures): Flask draws it again.
    pictures._kept.clear()
    third = client.get(f"{url}?key={view}")
    assert spied["answered"] is False and third.data == first.data


def test_a_change_is_never_answered_with_the_picture_before_it(grp, spied):
    app, url, view = grp["app"], grp["url"], grp["view_key"]
    client = app.test_client(use_cookies=False)
    before = client.get(f"{url}?key={view}")
    assert client.get(f"{url}?key={view}").data == before.data and spied["answered"]
    r = grp["client"].post(
        f"/api/v1/groups/{grp['id']}/payments",
        json={"from": "민수", "to": "지영", "points": 1},
        headers={"X-Group-Key": grp["edit_key"]},
    )
    assert r.status_code == 201
    paid = client.get(f"{url}?key={view}", headers={"If-None-Match": before.headers["ETag"]})
    assert spied["answered"] is False and paid.status_code == 200 and paid.headers["ETag"] != before.headers["ETag"]
    t = grp["table"]
    grp["client"].post(
        f"/api/v1/tables/{t['id']}/hands", json={"summary": BRIGHTS}, headers={"X-Table-Key": t["edit_key"]}
    )
    played = client.get(f"{url}?key={view}")
    assert spied["answered"] is False and played.headers["ETag"] not in (paid.headers["ETag"], before.headers["ETag"])


def test_a_rotated_key_falls_through_and_flask_refuses_it(grp, spied):
    app, url, old = grp["app"], grp["url"], grp["view_key"]
    _kept(grp, f"key={old}")
    assert _both(app, spied, f"{url}?key={old}", {})[0][1] is True
    r = grp["client"].post(
        f"/api/v1/groups/{grp['id']}/keys", json={"rotate": "view"}, headers={"X-Group-Key": grp["edit_key"]}
    )
    assert r.status_code == 200
    new = r.get_json()["view_key"]
    (fast, answered), (slow, _) = _both(app, spied, f"{url}?key={old}", {})
    assert not answered and fast.status_code == 401
    _alike(fast, slow, answered)
    _kept(grp, f"key={new}")
    (fast, answered), (slow, _) = _both(app, spied, f"{url}?key={new}", {})
    assert answered and fast.status_code == 200
    _same(fast, slow)


def test_a_spent_guessing_budget_holds_back_the_picture_too(grp, spied):
    app, url, view = grp["app"], grp["url"], grp["view_key"]
    _kept(grp, f"key={view}")
    app.config["RATELIMIT_GUESS"] = "3/minute"
    client = app.test_client(use_cookies=False)
    for _ in range(3):
        assert client.get(f"{url}?key=wrong").status_code == 401
    (fast, answered), (slow, _) = _both(app, spied, f"{url}?key={view}", {})
    assert not answered and fast.status_code == 429
    _alike(fast, slow, answered)


def test_an_untrusted_host_goes_to_flask(database_url, tmp_path, spied):
    app = make_app(database_url, tmp_path, TRUSTED_HOSTS="scores.example")
    try:
        host = {"Host": "scores.example"}
        g = app.test_client().post("/api/v1/groups", json={"name": "g", "players": ["A", "B"]}, headers=host)
        g = g.get_json()
        url = f"/g/{g['id']}/share.png?key={g['view_key']}"
        assert app.test_client(use_cookies=False).get(url, headers=host).status_code == 200
        for name, fast_answers, status in (("scores.example", True, 200), ("evil.example", False, 400)):
            (fast, answered), (slow, _) = _both(app, spied, url, {"Host": name})
            assert answered is fast_answers and fast.status_code == status
            _alike(fast, slow, answered)
    finally:
        close_app(app)


def test_a_kept_picture_still_takes_its_turn_at_the_picture_gate(grp, spied, monkeypatch):
    """Answered before Flask, a kept picture still waits for a slot of ``groups/gate.py``: fifty
    answered at once, each yielding at its database read, put another table's poll behind them
    all (picture_load.py on PostgreSQL: poll p50 2 → 33 ms with the fast path outside the gate)."""
    from collections import OrderedDict
    from concurrent.futures import ThreadPoolExecutor

    app, url, view = grp["app"], grp["url"], grp["view_key"]
    monkeypatch.setattr(pictures, "_kept", OrderedDict())  # the evening's is drawn: not kept by another test
    _kept(grp, f"key={view}")
    app.config.update(PICTURE_SLOTS=1, PICTURE_QUEUE=0)
    started, release = hold_drawings(monkeypatch)

    def fetch(query):
        return app.test_client(use_cookies=False).get(f"{url}?{query}")

    with ThreadPoolExecutor(1) as pool:
        drawing = pool.submit(fetch, f"key={view}&evening={grp['table']['id']}")  # not kept: drawn
        assert started.wait(20)
        spied["answered"] = None
        refused = fetch(f"key={view}")
        release.set()
        assert refused.status_code == 503 and spied["answered"] is None  # the gate answered first
        assert drawing.result().status_code == 200
    kept = fetch(f"key={view}")
    assert kept.status_code == 200 and spied["answered"] is True
