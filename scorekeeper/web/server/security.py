"""CSRF on every form, response headers that allow no inline script, cookies, access by secret.

Cookies are HttpOnly and SameSite=Lax, and Secure whenever the request came over HTTPS
(or always, with ``SESSION_COOKIE_SECURE``); an HTTPS response carries HSTS. Behind
``TRUSTED_PROXIES`` reverse proxies, their ``X-Forwarded-*`` headers say whether it did;
without that setting they are ignored, gunicorn's own belief in them included. With
``TRUSTED_HOSTS`` set, a request for any other host is refused (``bad_host``), so no link
is ever built from a ``Host`` header an attacker chose.

A table is reached by its public id plus one of two secrets: the edit secret or
the read-only one. A phone that opened a share link keeps the secret in its
signed session cookie; API clients send it in ``X-Table-Key``. Secrets are
compared in constant time (``store.tables.access_level``).
"""

from __future__ import annotations

from typing import Any

from flask import Flask, current_app, has_request_context, request, session
from flask.json.provider import DefaultJSONProvider
from flask.sessions import SecureCookieSessionInterface
from flask_wtf.csrf import CSRFProtect
from werkzeug.middleware.proxy_fix import ProxyFix

from ...store.rows import EDIT, VIEW, access_level
from ...tables import jsonbody

csrf = CSRFProtect()
KEY_HEADER = "X-Table-Key"

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


HSTS = "max-age=31536000"  # a year; not includeSubDomains: the app may live on someone else's domain

# Endpoints whose body may be larger than MAX_CONTENT_LENGTH: a table's export coming back.
LARGE_BODY = frozenset({"tables.import_table", "api.import_table"})
GROUP_BODY = frozenset({"groups.import_group", "api.import_group"})  # every evening of a group


class _SessionInterface(SecureCookieSessionInterface):
    def get_cookie_secure(self, app: Flask) -> bool:
        return super().get_cookie_secure(app) or (has_request_context() and request.is_secure)

    def should_set_cookie(self, app: Flask, session) -> bool:
        if session.modified:
            return True
        if (
            request.endpoint in KEEP_COOKIE
            or request.endpoint == "static"
            or request.headers.get("X-Partial")
            or request.path.startswith("/api/")
        ):
            return False
        # The browser says what a request is for: only a page opened (a navigation) refreshes the
        # cookie; the service worker's fetches of the app shell at install come from an old page.
        mode = request.headers.get("Sec-Fetch-Mode")
        if mode and mode != "navigate":
            return False
        return super().should_set_cookie(app, session)
        return super().should_set_cookie(app, session)

    def open_session(self, app: Flask, request):
        # No cookie (an API client, a phone's first visit): the new empty session Flask would
        # give, without first building the signing serializer it would not use.
        if app.secret_key and not request.cookies.get(self.get_cookie_name(app)):
            return self.session_class()
        return super().open_session(app, request)


# Requests a page makes by itself (its push stream, version polls, partial refreshes, the API,
# the static files, whatever is not a navigation):
# a refreshed cookie in their answer, which may arrive after a tap's answer set a new one (a seat
# taken, a key remembered), would put the old session back. They leave an unchanged session's
# cookie alone; a page opened refreshes it, as before.
KEEP_COOKIE = frozenset({"push.stream", "api.stream", "tables.version"})


def cookie_secure() -> bool:
    """Whether a cookie set now should be Secure (for cookies other than the session's)."""
    return bool(current_app.config["SESSION_COOKIE_SECURE"] or request.is_secure)


class _SchemeOfTheSocket:
    """The request's scheme is the one of the connection the server accepted.

    Gunicorn sets ``wsgi.url_scheme`` to https when ``X-Forwarded-Proto`` (or ``-Ssl``,
    ``-Protocol``) says so and the peer is in its ``forwarded_allow_ips``, 127.0.0.1 by
    default: anyone on this machine, or a proxy passing the header on, decided. Here the
    scheme is reset to what gunicorn's socket is (TLS or not); ``ProxyFix`` inside then
    believes the header only from ``TRUSTED_PROXIES``.
    """

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        sock = environ.get("gunicorn.socket")
        if sock is not None:
            environ["wsgi.url_scheme"] = "https" if hasattr(sock, "cipher") else "http"
        return self.app(environ, start_response)


def trusted_hosts(setting) -> list[str] | None:
    """``TRUSTED_HOSTS`` as Flask takes it: a list, from a list or a comma-separated string."""
    if not setting:
        return None
    if isinstance(setting, str):
        setting = setting.split(",")
    return [h.strip() for h in setting if h.strip()] or None


def init_app(app: Flask) -> None:
    proxies = int(app.config.get("TRUSTED_PROXIES") or 0)
    if proxies:
        # Flask's documented way to wrap its WSGI app in middleware (mypy sees a method replaced).
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies, x_port=proxies
        )
    app.wsgi_app = _SchemeOfTheSocket(app.wsgi_app)  # type: ignore[method-assign]
    app.config["TRUSTED_HOSTS"] = trusted_hosts(app.config.get("TRUSTED_HOSTS"))
    app.session_interface = _SessionInterface()
    app.json = StrictJSONProvider(app)
    app.before_request(_body_limit)  # before CSRFProtect's, which reads the form
    csrf.init_app(app)
    app.after_request(_headers)


def _body_limit() -> None:
    if request.endpoint in LARGE_BODY:
        request.max_content_length = current_app.config["IMPORT_MAX_CONTENT_LENGTH"]
    elif request.endpoint in GROUP_BODY:
        request.max_content_length = current_app.config["GROUP_IMPORT_MAX_CONTENT_LENGTH"]


# Added to every response that has not set them itself. Share links carry secrets in their
# path: never pass a URL on as a referrer.
DEFAULT_HEADERS = (
    ("Content-Security-Policy", CSP),
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "no-referrer"),
)


def default_headers(path: str, secure: bool) -> list[tuple[str, str]]:
    """The headers every answer to ``path`` carries unless it set them itself (also what the
    fast path sends, ``web/server/fastpath.py``)."""
    headers = list(DEFAULT_HEADERS)
    if secure:
        headers.append(("Strict-Transport-Security", HSTS))
    # Every answer a secret may have opened: a table's, a group's (its page, share.txt, group.json,
    # ledger.csv, the picture), the API's; a share link's is never kept at all.
    if path.startswith(("/t/", "/j/", "/api/", "/g/", "/gj/")):
        headers.append(("Cache-Control", "no-store" if path.startswith(("/j/", "/gj/")) else "private, no-cache"))
    return headers


def _headers(response):
    # What ``Headers.setdefault`` does, with the names present looked up once: its miss raises
    # and builds an exception each time, a tenth of a version poll's time in the app.
    h = response.headers
    present = {name.lower() for name, _value in h}  # a Headers iterates (name, value) pairs
    for name, value in default_headers(request.path, request.is_secure):
        if name.lower() not in present:
            h.add(name, value)
    return response


def remember_key(public_id: str, key: str) -> None:
    """Keep ``key`` for ``public_id`` on this phone (its own cookie, ``keyring``)."""
    from ..access import keyring

    keyring.remember(keyring.TABLE, public_id, key)
    session.permanent = True


def presented_key(public_id: str) -> str | None:
    """The secret this request presents for a table: header first, then session."""
    header = request.headers.get(KEY_HEADER)
    if header:
        return header
    from ..access import keyring

    return keyring.secret_of(keyring.TABLE, public_id)


def level_for(table) -> str | None:
    return access_level(table, presented_key(table.public_id))


__all__ = ["EDIT", "KEY_HEADER", "VIEW", "csrf", "level_for", "presented_key", "remember_key"]


class StrictJSONProvider(DefaultJSONProvider):
    """Flask's JSON provider, reading with ``jsonbody.loads`` (``request.get_json`` and Flask-WTF)."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return jsonbody.loads(s)
