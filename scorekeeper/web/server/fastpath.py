"""The requests repeated most, answered before Flask's machinery: a table's two, a tap, and a kept picture.

A version poll (``GET /api/v1/tables/<id>/version``), and a hand's events (``GET
…/hands/<hand>/events``) when this process keeps the answer at the table's version
(``server/answers.py``) or the live hand it is of (``service.caught_up_live``): what a phone on the
fallback path asks every 1.5 s, most of a busy server's requests. Through Flask each costs a
request context, the hooks, a response object and its header work, three quarters of what the app
spends on a poll; here it costs the guessing budget's read, the table's row (kept in memory on
PostgreSQL, ``pollrows.py``) and the bytes.

Only the plain case is answered here: a GET with the key in its header, no cookie (a session
may hold a key, and Flask would refresh its cookie), no query string, no conditional or range
header, a trusted host, the guessing budget not spent, the key right and, for events, the
answer kept. Everything else, every refusal included, goes on to Flask, which answers as it
always did and counts what it refuses. ``tests/web/test_fastpath.py`` holds each answer given
here to Flask's for the same request: status, headers and bytes.

A phone's tap (``POST …/hands/<hand>/events``), on the same plain requests with a JSON body,
when the live hand this process keeps stores it at once (``_tap``): Flask's machinery around
the route was a tenth of the workers' time at 1,000 tables; a tap behind the log is answered its
conflict here too, as the route answers it from the same live hand. A refusal, a hand's last
event, a seat's tap (it rides on a cookie) go on to Flask, which reads the same body.

A group's share picture that this process keeps (what fifty chat previews ask for at once,
issue 29) is answered here too, by ``groups/fastpicture.py``, on the same plain requests but
for the key (in its query, as the preview's address has it) and ``If-None-Match`` (a 304 there
as in Flask); ``tests/web/test_fastpath_picture.py`` holds those answers to Flask's.
"""

from __future__ import annotations

import io
import re
from typing import Any, cast

from flask import Flask, Response
from flask_compress.flask_compress import _choose_algorithm, _compress_data
from werkzeug.exceptions import SecurityError
from werkzeug.http import http_date
from werkzeug.wsgi import get_host

from ...store import rows as store
from ...tables import jsonbody, service, writes
from ..api import models
from ..groups import fastpicture
from ..views import tablejson
from . import answers
from .errors import refusal_body
from .security import default_headers

_VERSION = re.compile(r"/api/v1/tables/([A-Za-z0-9_-]{1,32})/version")
_EVENTS = re.compile(r"/api/v1/tables/([A-Za-z0-9_-]{1,32})/hands/([1-9][0-9]{0,8})/events")
# Headers that change an answer here: left to Flask.
_NOT_PLAIN = (
    "HTTP_COOKIE",
    "HTTP_RANGE",
    "HTTP_IF_RANGE",
    "HTTP_IF_MATCH",
    "HTTP_IF_MODIFIED_SINCE",
    "HTTP_IF_UNMODIFIED_SINCE",
    "HTTP_IF_NONE_MATCH",  # last: the picture's answer reads it (``_NOT_PLAIN_PICTURE``)
)
_NOT_PLAIN_PICTURE = _NOT_PLAIN[:-1]
_JSON = "application/json"
_METHODS = ("GET", "POST")
_VARY = "Accept-Encoding"
_TAP_VARY = "Accept-Encoding, Cookie"  # the route asks the session for a seat: Flask adds Cookie
# A tap's body is a few hundred bytes; a longer one (up to Flask's limit) is Flask's to read.
_TAP_MAX_BYTES = 4096


class FastPath:
    """WSGI middleware inside ``ProxyFix`` (the client's address is already the real one)."""

    def __init__(self, app: Flask, wsgi_app):
        self.app, self.wsgi_app = app, wsgi_app

    def __call__(self, environ: dict, start_response):
        if environ.get("REQUEST_METHOD") in _METHODS and self.app.config.get("FAST_PATH", True):
            try:
                answer = self._answer(environ)
            except Exception:
                # Flask answers as it always did: a tap stored before the fault is then a
                # conflict with the log that holds it (what a phone's refresh shows), never twice.
                answer = None
            if answer is not None:
                status, headers, body = answer
                start_response(status, headers)
                # Bytes, or an iterable a subclass streams (``faststream.py``).
                return [body] if isinstance(body, bytes) else body
        return self.wsgi_app(environ, start_response)

    def _answer(self, environ: dict) -> tuple[str, list[tuple[str, str]], Any] | None:
        path = environ.get("PATH_INFO", "")
        if environ["REQUEST_METHOD"] == "POST":
            tap = _EVENTS.fullmatch(path)
            return self._tap(environ, tap.group(1), int(tap.group(2))) if tap else None
        if fastpicture.PICTURE.fullmatch(path):
            # A kept share picture (``groups/fastpicture.py``): an If-None-Match naming it is a 304.
            return fastpicture.answer(self.app, environ) if self._plain(environ, _NOT_PLAIN_PICTURE) else None
        poll = _VERSION.fullmatch(path)
        match = poll or _EVENTS.fullmatch(path)
        if match is None or not self._plain_with_key(environ):
            return None
        row = self.app.extensions["sk_poll_rows"].get(match.group(1))
        if row is None or store.access_level(row, environ["HTTP_X_TABLE_KEY"]) is None:
            return None
        if poll is not None:
            answer = self._headers(environ, None), b'{"version":%d}\n' % row.version
        else:
            hand_id = int(match.group(2))
            kept = answers.get(row, hand_id)
            if kept is None:
                kept = self._from_live_hand(row, hand_id)
            if kept is None:
                return None
            answer = self._events(environ, row, hand_id, kept)
        headers, body = answer
        headers.insert(1, ("Content-Length", str(len(body))))
        return "200 OK", headers, body

    def _tap(self, environ: dict, public_id: str, hand_id: int):
        """A plain API tap (``append_event``'s ``_append_from_kept`` without a seat: the key in
        its header, no cookie) stored from the live hand kept here and answered as Flask does, or
        its conflict (``_conflict``); None, nothing stored and the body left for Flask to read, for
        anything else: a key that does not edit, a hand not kept, a refusal, a hand's last event.
        What Flask's machinery around the route cost was a tenth of the workers' time at 1,000
        tables."""
        if _mimetype(environ) != _JSON:
            return None
        try:
            length = int(environ.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return None
        # The header checks first: the guessing budget's is a read (of the limiter's store).
        if not 0 < length <= _TAP_MAX_BYTES or "HTTP_TRANSFER_ENCODING" in environ or not self._plain_with_key(environ):
            return None
        body = environ["wsgi.input"].read(length)
        environ["wsgi.input"] = io.BytesIO(body)  # read again by Flask if it answers instead
        if len(body) != length:
            return None
        row = self.app.extensions["sk_poll_rows"].get(public_id)
        if row is None or store.access_level(row, environ["HTTP_X_TABLE_KEY"]) != store.EDIT:
            return None
        sent = jsonbody.loads(body)  # a refusal raises: Flask's to answer
        if not isinstance(sent, dict):
            return None
        seq, event = models.read_append(sent)
        live = service.live_for_tap(self.app.extensions["sk_reader"], row, hand_id)
        if live is None:
            return None
        if seq != len(live.events):
            return self._conflict(environ, row, hand_id, live)
        session = self.app.extensions["sk_sessionmaker"]()
        try:
            done = writes.append_live(session, row, live, seq, event)
        finally:
            session.close()
        if done is None:
            return None
        at = row._replace(version=done.version)
        answer = self._kept_answer(at, hand_id, done.events, done.state)  # the other phones' next fetch
        self.app.extensions["sk_push"].offer(public_id, at.version, answer, at)
        headers, answer = self._events(environ, at, hand_id, answer, _TAP_VARY)
        headers.insert(1, ("Content-Length", str(len(answer))))
        return "201 CREATED", headers, answer

    def _conflict(self, environ: dict, row, hand_id: int, live):
        """A phone behind the log (or ahead of it): the route's conflict (``_append_from_kept``),
        the current log from the hand kept here, once the table is read to be still at the kept
        row's version; else None, and the read path answers. In a restart's opening burst a phone
        taps on a log its stream has not yet shown it: a few hundred conflicts, each a request
        through Flask that read its body, the row and the hand again (issue 32)."""
        if not store.still_at(self.app.extensions["sk_engine"], row, environ["HTTP_X_TABLE_KEY"]):
            return None
        document = tablejson.events_document(hand_id, live.events, live.state.to_json(), row.version)
        refusal = refusal_body("conflict", writes.EVENT_FIRST, "seq", document)  # as ``api.routes._refused``
        body = cast(Response, self.app.json.response(refusal)).get_data()
        headers = self._headers(environ, None, _TAP_VARY)  # not compressed: Flask-Compress leaves a 409 as is
        headers.insert(1, ("Content-Length", str(len(body))))
        return "409 CONFLICT", headers, body

    def _from_live_hand(self, row, hand_id: int) -> bytes | None:
        """The answer at the row's version from the live hand this process keeps, as Flask's
        route writes it, and kept for the next phone; None for any other hand. The live hand moves
        with every tap this process stores or hears of in a note; where it is older (another
        process's taps on SQLite, which sends no note) the events appended since catch it up, one
        small read that also proves nothing but appends changed. Half of a busy table's refreshes
        follow a tap the other worker stored: through Flask each loaded the table again."""
        live = service.caught_up_live(self.app.extensions["sk_reader"], row.id, row.public_id, row.version)
        if live is None or live.hand_id != hand_id:
            return None
        return self._kept_answer(row, hand_id, live.events, live.state)

    def _kept_answer(self, row, hand_id: int, events: list, state) -> bytes:
        """The hand's events at ``row``'s version as Flask's routes write them (``jsonify``'s
        bytes), kept for the phones that ask next (``answers.keep``)."""
        document = tablejson.events_document(hand_id, events, state.to_json(), row.version)
        body = cast(Response, self.app.json.response(document)).get_data()
        answers.keep(row, hand_id, body)
        return body

    def _plain_with_key(self, environ: dict) -> bool:
        """A table's plain request: the key in its header, no query string, and plain."""
        if not environ.get("HTTP_X_TABLE_KEY") or environ.get("QUERY_STRING"):
            return False
        return self._plain(environ, _NOT_PLAIN)

    def _plain(self, environ: dict, not_plain: tuple[str, ...]) -> bool:
        """Whether the request is a plain one answered here: none of the headers ``not_plain``
        (they change the answer), a trusted host and the guessing budget left."""
        if any(name in environ for name in not_plain):
            return False
        hosts = self.app.config["TRUSTED_HOSTS"]
        if hosts is not None:
            try:
                get_host(environ, hosts)
            except SecurityError:
                return False
        return self._within_budget(environ)

    def _within_budget(self, environ: dict) -> bool:
        """What ``limits.Budgets.check`` asks before any request: is the address's guessing
        budget left? (Spent or not, Flask decides and answers the 429.)"""
        budgets = self.app.extensions.get("sk_limiter")
        return budgets is None or budgets.guess_left(environ.get("REMOTE_ADDR"))

    def _events(self, environ: dict, row, hand_id: int, body: bytes, vary: str = _VARY):
        """The kept answer, compressed as Flask-Compress would (and the compressed bytes kept
        with it: each phone's refresh at that version is then no compression either)."""
        compress = self.app.extensions["sk_compress"]
        algorithm = None
        if len(body) >= self.app.config["COMPRESS_MIN_SIZE"] and _JSON in compress.compress_mimetypes_set:
            algorithm = _choose_algorithm(compress.enabled_algorithms, environ.get("HTTP_ACCEPT_ENCODING", ""))
        if algorithm is None:
            return self._headers(environ, None, vary), body
        packed = answers.get_variant(row, hand_id, algorithm)
        if packed is None:
            packed = _compress_data(self.app, body, algorithm)
            answers.keep_variant(row, hand_id, algorithm, packed)
        return self._headers(environ, algorithm, vary), packed

    @staticmethod
    def _headers(environ: dict, encoding: str | None, vary: str = _VARY) -> list[tuple[str, str]]:
        # In the order Flask's hooks give them (``security._headers``, Flask-Compress).
        headers = [
            ("Content-Type", _JSON),
            ("Vary", vary),
            *default_headers(environ["PATH_INFO"], environ.get("wsgi.url_scheme") == "https"),
        ]
        if encoding is not None:
            headers.append(("Content-Encoding", encoding))
            if environ["REQUEST_METHOD"] == "GET":  # Flask-Compress's ``make_conditional`` dates a GET's
                headers.append(("Date", http_date()))
        return headers


def _mimetype(environ: dict) -> str:
    return environ.get("CONTENT_TYPE", "").partition(";")[0].strip().lower()
