"""Security: no route lets a viewer or a stranger change a table, secrets never reach a log,
headers and cookies on every response, no inline script, no debug mode on a server."""

from __future__ import annotations

import contextlib
import datetime
import json
import logging
import re
import threading
import urllib.request
from html.parser import HTMLParser
from types import SimpleNamespace

import pytest

from scorekeeper.store import rows as store
from scorekeeper.web import close_app

from .conftest import STOP_A
from .walk import MUTATING, Scene, build, csrf_header, rows_of, rules

# Routes that anyone may call: they make something new or touch only the caller's own cookie.
PUBLIC = {
    "tables.new",
    "tables.join",
    "tables.import_table",
    "tables.forget",
    "api.score",
    "api.create_table",
    "api.import_table",
}
# Routes an editor only may call that change the caller's own cookie, no row: "I am 지영".
COOKIE_ONLY = {"tables.take_seat"}

GROUP_ROUTES = {
    "api.create_group",
    "api.import_group",
    "api.get_group",
    "api.add_group_payment",
    "api.void_group_payment",
    "api.remove_group_evening",
    "api.set_group_player",
    "api.new_group_keys",
}

# What an editor would send each route, so that a refusal of the others is the access check's.
FORMS = {
    "hands.start": {"count": "1"},
    "hands.append": {"seq": "1", "type": "nagari"},
    "hands.undo": {"seq": "1"},
    "hands.quick_entry": {"outcome": "nagari", "count": "1", "action": "save"},
    "hands.edit": {"outcome": "nagari", "action": "save", "version": "*"},
    "hands.delete": {"confirm": "y", "version": "*"},
    "tables.end": {"confirm": "y", "count": "1"},
    "hands.correct_shown": {"sitters-0-cards": ["1g", "11jd"]},
    "tables.new_keys": {"which": "both", "confirm": "y"},
    "hands.give": {"seq": "3", "giver": "B", "card": "2j1"},
}
BODIES = {
    "api.add_hand": {"summary": STOP_A, "count": 1},
    "api.replace_hand": {"summary": {"outcome": {"type": "nagari"}}},
    "api.append_event": {"seq": 1, "event": {"type": "nagari"}},
    "api.undo": {"seq": 1},
}
NEEDS_IDLE = {"hands.start", "hands.quick_entry", "api.add_hand", "tables.end"}  # no live hand may be open
ON_SUMMARY = {"hands.edit", "hands.delete", "api.replace_hand", "api.delete_hand"}
WITH_SITTER = {"hands.correct_shown"}  # a hand with a forced sitter (광팔기)
WITH_JUNK = {"hands.give"}  # the live hand's last event moved junk


def _call(client, rule, url, endpoint, headers=None):
    method = sorted(rule.methods & MUTATING)[0]
    if endpoint.startswith("api."):
        return client.open(url, method=method, json=BODIES.get(endpoint, {}), headers=headers or {})
    return client.open(url, method=method, data=FORMS.get(endpoint, {"seq": "0", "count": "0"}), headers=headers or {})


def test_no_route_lets_a_viewer_or_a_stranger_change_a_table(app, make_table):
    """Every rule of the url map taking POST/PUT/PATCH/DELETE, called with the read-only
    secret (cookie and header) and with none: refused, and not one row of the table changes.
    The same call by the editor does change it, so the refusal is the access check's."""
    walked = 0
    for rule in rules(app, MUTATING):
        if rule.endpoint in GROUP_ROUTES or rule.endpoint.startswith("groups."):
            continue  # a group's routes: their own walk by the group's keys (test_group_web)
        scene = Scene.make(
            make_table,
            live=rule.endpoint not in NEEDS_IDLE,
            gwangpalli=rule.endpoint in WITH_SITTER,
            junk=rule.endpoint in WITH_JUNK,
        )
        hand = scene.summary_hand if rule.endpoint in ON_SUMMARY else None
        url = build(app, rule, scene.values(hand))
        before = rows_of(app, scene.table.id)
        viewer, stranger = app.test_client(), app.test_client()
        viewer.get(f"/j/{scene.table.id}/{scene.table.view_key}")
        for who, client, headers in [
            ("viewer", viewer, csrf_header(app, viewer)),
            ("viewer key", stranger, {"X-Table-Key": scene.table.view_key}),
            ("stranger", app.test_client(), None),
            ("wrong key", app.test_client(), {"X-Table-Key": scene.table.view_key[::-1]}),
        ]:
            r = _call(client, rule, url, rule.endpoint, headers)
            if rule.endpoint not in PUBLIC:
                allowed = {403, 404} if who.startswith("viewer") else {401, 403, 404}
                assert r.status_code in allowed, (rule.rule, who, r.status_code)
            assert r.status_code < 500, (rule.rule, who)
            assert rows_of(app, scene.table.id) == before, (rule.rule, who, "changed the table")
        if rule.endpoint not in PUBLIC:
            r = _call(
                scene.table.client, rule, url, rule.endpoint, {"X-Table-Key": scene.table.edit_key, "If-Match": "*"}
            )
            changed = rows_of(app, scene.table.id) != before
            assert r.status_code < 400 and changed != (rule.endpoint in COOKIE_ONLY), (
                rule.rule,
                "editor",
                r.status_code,
            )
        walked += 1
    assert walked >= 15


def test_secrets_are_long_random_and_distinct(app, make_table):
    tables = [make_table() for _ in range(30)]
    secrets = [s for t in tables for s in (t.edit_key, t.view_key)]
    assert len(set(secrets)) == len(secrets) and len({t.id for t in tables}) == len(tables)
    # token_urlsafe(16): 128 random bits in 22 characters of [A-Za-z0-9_-].
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{22,}", s) for s in secrets)
    assert len(set("".join(secrets))) > 50  # the whole alphabet in use, not a counter or a hash of the id


def test_secrets_compared_in_constant_time(make_table, monkeypatch):
    t = make_table()
    row = SimpleNamespace(edit_secret=t.edit_key, view_secret=t.view_key)
    compared = []
    real = store.hmac.compare_digest
    monkeypatch.setattr(store.hmac, "compare_digest", lambda a, b: compared.append((a, b)) or real(a, b))
    for key, level in [(t.edit_key, "edit"), (t.view_key, "view"), (t.edit_key[:-1] + "x", None), ("", None)]:
        compared.clear()
        assert store.access_level(row, key) == level
        assert len(compared) == (2 if key else 0)  # both secrets, whichever matches


# -- logs -------------------------------------------------------------------------------------


def test_dev_server_log_never_holds_a_secret(app, make_table, caplog):
    """Werkzeug's development server logs each request line: share-link secrets are masked."""
    from werkzeug.serving import make_server

    t = make_table()
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_port}"
    try:
        with caplog.at_level(logging.INFO, logger="werkzeug"):
            for key in (t.edit_key, t.view_key, "wrong-guess"):
                with contextlib.suppress(urllib.error.HTTPError):
                    urllib.request.urlopen(f"{base}/j/{t.id}/{key}?x=1", timeout=5)
            req = urllib.request.Request(f"{base}/api/v1/tables/{t.id}", headers={"X-Table-Key": t.edit_key})
            urllib.request.urlopen(req, timeout=5).read()
    finally:
        server.shutdown()
        thread.join(5)
    lines = [r.getMessage() for r in caplog.records if r.name == "werkzeug"]
    text = "\n".join(lines)
    assert f"/j/{t.id}/[redacted]" in text and len([ln for ln in lines if "/j/" in ln]) == 3
    for secret in (t.edit_key, t.view_key, "wrong-guess"):
        assert secret not in text


def test_gunicorn_access_log_never_holds_a_secret(tmp_path):
    """An access log format that names the key header, or a share link's path: masked."""
    from gunicorn.config import Config
    from gunicorn.glogging import Logger

    from scorekeeper.web.server import redact

    redact.install()
    cfg = Config()
    log_path = tmp_path / "access.log"
    cfg.set("accesslog", str(log_path))
    cfg.set("access_log_format", '%(h)s "%(r)s" %(s)s key=%({x-table-key}i)s env=%({http_x_table_key}e)s %(U)s')
    logger = Logger(cfg)
    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": "/j/tbl123/s3cretEditKey",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "PATH_INFO": "/j/tbl123/s3cretEditKey",
        "REMOTE_ADDR": "10.0.0.9",
        "HTTP_X_TABLE_KEY": "s3cretHeader",
    }
    req = SimpleNamespace(headers=[("X-TABLE-KEY", "s3cretHeader")])
    resp = SimpleNamespace(status="302 FOUND", headers=[], sent=0)
    logger.access(resp, req, environ, datetime.timedelta(milliseconds=3))
    for handler in logger.access_log.handlers:
        handler.flush()
    line = log_path.read_text()
    assert "/j/tbl123/[redacted]" in line and "key=[redacted]" in line and "env=[redacted]" in line, line
    assert "s3cret" not in line


@pytest.mark.parametrize(
    "text, expected",
    [
        ('"GET /j/abc/KEY-1_x HTTP/1.1" 302', '"GET /j/abc/[redacted] HTTP/1.1" 302'),
        ("/j/abc/KEY?next=/", "/j/abc/[redacted]?next=/"),
        ("X-Table-Key: KEY", "X-Table-Key: [redacted]"),
        ("{'HTTP_X_TABLE_KEY': 'KEY'}", "{'HTTP_X_TABLE_KEY': '[redacted]'}"),
        ("/t/abc/hands/3 and /join", "/t/abc/hands/3 and /join"),
    ],
    ids=["request-line", "query", "header", "environ", "untouched"],
)
def test_redact(text, expected):
    from scorekeeper.web.server.redact import redact

    assert redact(text) == expected


# -- headers, cookies, debug ---------------------------------------------------------------------


def _pages(app, scene, with_partials=True):
    """(url, headers) of every GET page of the url map, with real arguments, and some error pages."""
    out = []
    for rule in rules(app, frozenset({"GET"})):
        for hand in {scene.summary_hand, scene.live_hand} - {None}:
            url = build(app, rule, scene.values(hand))
            out.append((url, {}))
            if with_partials and rule.endpoint in ("tables.show", "hands.show"):
                out.append((url, {"X-Partial": "1"}))
    return [
        *sorted(set((u, tuple(h.items())) for u, h in out)),
        ("/nowhere", ()),
        ("/api/v1/nowhere", ()),
        ("/t/nosuchtable", ()),
        ("/new?preset=ogb-matgo", ()),
    ]


HEADERS = {"Content-Security-Policy", "X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy"}


def test_security_headers_on_every_response(app, make_table, client):
    scene = Scene.make(make_table)
    scene.table.enter()
    responses = [client.get(url, headers=dict(h)) for url, h in _pages(app, scene)]
    responses += [
        client.post("/new", data={}),
        client.post("/api/v1/score", data=b"x" * (300 * 1024)),
        client.delete("/"),
        client.post(f"{scene.table.url}/hands/{scene.live_hand}/events", data={}),
    ]
    for r in responses:
        r.close()
        assert set(r.headers.keys()) >= HEADERS, (r.request.path, r.status_code)
        assert r.headers["X-Frame-Options"] == "DENY" and r.headers["X-Content-Type-Options"] == "nosniff"
        assert r.headers["Referrer-Policy"] == "no-referrer"
        csp = dict(d.strip().split(" ", 1) for d in r.headers["Content-Security-Policy"].split(";"))
        assert csp["script-src"] == "'self'" and csp["style-src"] == "'self'" and csp["frame-ancestors"] == "'none'"


class _InlineFinder(HTMLParser):
    """Inline script bodies, ``on*=`` handlers, ``style=`` attributes and ``javascript:`` URLs."""

    def __init__(self):
        super().__init__()
        self.found: list[str] = []
        self._in_script = self._data_block = False

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name.startswith("on") or name == "style":
                self.found.append(f"<{tag} {name}=…>")
            if name in ("href", "src", "action", "formaction") and (value or "").strip().lower().startswith(
                "javascript:"
            ):
                self.found.append(f"<{tag} {name}=javascript:…>")
        if tag == "script":
            self._data_block = dict(attrs).get("type") == "application/json"  # data, never run
            if not dict(attrs).get("src") and not self._data_block:
                self.found.append("<script> without src")
            self._in_script = True
        if tag == "style":
            self.found.append("<style> element")

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = False

    def handle_data(self, data):
        if self._in_script and self._data_block:
            json.loads(data)  # a data block holds JSON and nothing else
        elif self._in_script and data.strip():
            self.found.append(f"inline script: {data.strip()[:40]}")


@pytest.mark.parametrize("role", ["edit", "view"])
def test_no_inline_script_or_style_on_any_page(app, make_table, client, role):
    """The CSP allows no inline script or style: every page of the url map is parsed for them."""
    scene = Scene.make(make_table)
    scene.table.enter(scene.table.edit_key if role == "edit" else scene.table.view_key)
    checked = 0
    for url, headers in _pages(app, scene):
        r = client.get(url, headers=dict(headers))
        r.close()
        if r.mimetype != "text/html":
            continue
        finder = _InlineFinder()
        finder.feed(r.get_data(as_text=True))
        assert not finder.found, (url, r.status_code, finder.found)
        checked += 1
    assert checked >= 12


def test_session_cookie_flags_over_http_and_https(app, make_table):
    t = make_table()
    plain = app.test_client()
    r = plain.get(f"/j/{t.id}/{t.edit_key}")
    cookie = r.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie
    secure = app.test_client()
    r = secure.get(f"/j/{t.id}/{t.edit_key}", base_url="https://localhost")
    assert "Secure" in r.headers["Set-Cookie"] and "HttpOnly" in r.headers["Set-Cookie"]
    r = secure.get("/lang/en?next=/", base_url="https://localhost")
    lang = r.headers["Set-Cookie"]
    assert "Secure" in lang and "HttpOnly" in lang and "SameSite=Lax" in lang


def test_forwarded_proto_believed_only_behind_configured_proxies(tmp_path):
    from tests.conftest import make_app

    forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "scores.example", "X-Forwarded-For": "203.0.113.7"}
    for proxies, secure in [(0, False), (1, True)]:
        app = make_app(f"sqlite:///{tmp_path / f'p{proxies}.db'}", tmp_path, TRUSTED_PROXIES=proxies)
        client = app.test_client()
        created = client.post("/api/v1/tables", json={"players": ["A", "B"]}, headers=forwarded).get_json()
        r = client.get(f"/j/{created['id']}/{created['edit_key']}", headers=forwarded)
        assert ("Secure" in r.headers["Set-Cookie"]) is secure
        assert created["edit_link"].startswith("https://scores.example/" if secure else "http://localhost/")
        close_app(app)


@pytest.mark.parametrize("how", ["config", "FLASK_DEBUG", "SCOREKEEPER_DEBUG"])
def test_no_debug_mode_outside_development(tmp_path, monkeypatch, how):
    from scorekeeper.web import create_app

    config = {"DATABASE_URL": f"sqlite:///{tmp_path / 'd.db'}", "SECRET_KEY": "x"}
    if how == "config":
        config["DEBUG"] = True
    else:
        monkeypatch.setenv(how, "1" if how == "FLASK_DEBUG" else "true")
    with pytest.raises(RuntimeError, match="debug mode"):
        create_app(config)
    app = create_app(config | {"DEVELOPMENT": True})
    assert app.debug
    close_app(app)


def test_production_default_is_not_debug(tmp_path, monkeypatch):
    from scorekeeper.web import create_app

    monkeypatch.delenv("FLASK_DEBUG", raising=False)
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'd.db'}", "SECRET_KEY": "x"})
    assert not app.debug and not app.config["DEVELOPMENT"]
    close_app(app)
