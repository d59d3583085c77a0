"""The API push stream's plain open (``GET /api/v1/tables/<id>/stream``), answered before Flask.

After a restart every phone opens its stream again within a second or two: 3,000 opens for a
thousand tables, each ~1 ms of the workers' CPU, held the taps among them up to a second
(issue 32). Through Flask an open costs a request context, the hooks and a response object, a
fifth of it; here it costs the guessing budget's read, the table's row (kept on PostgreSQL,
``pollrows.py``) and the stream itself.

Only the plain case, as ``fastpath.py`` takes it (a GET with the key in its header, no cookie,
no query string, no conditional header, a trusted host, the guessing budget left), with the key
right and the stream budgets admitting it. Everything else, every refusal and every 429
included, goes on to Flask, which answers and counts as it always did. The stream is the
view's own (``push.open_stream``): the same budgets, follower, events and release.
``tests/web/test_fast_stream.py`` holds each answer given here to Flask's for the same request.
"""

from __future__ import annotations

import re

from werkzeug.wsgi import ClosingIterator

from ...store import rows as store
from . import push
from .fastpath import FastPath
from .security import default_headers

_STREAM = re.compile(r"/api/v1/tables/([A-Za-z0-9_-]{1,32})/stream")
_CONTENT_TYPE = ("Content-Type", "text/event-stream; charset=utf-8")
_VARY = ("Vary", "Accept-Encoding")
_EVENT_STREAM = "text/event-stream"


class FastStream(FastPath):
    """WSGI middleware beside ``FastPath`` (inside ``ProxyFix``), sharing its test of the plain case."""

    def _answer(self, environ: dict):  # its body a stream, not bytes
        # Called for every GET (``FastPath.__call__``); its exceptions, a full budget among them,
        # leave the request to Flask, which answers (and refuses) as it does.
        match = _STREAM.fullmatch(environ.get("PATH_INFO", ""))
        if match is None or not self._plain_with_key(environ) or self._compressed():
            return None
        public_id, key = match.group(1), environ["HTTP_X_TABLE_KEY"]
        poll_rows = self.app.extensions["sk_poll_rows"]
        # Made before the stream is opened: nothing between its opening and its answer can fail.
        # As Flask's answer gives them: the response's own, its content type, Flask-Compress's
        # Vary (on every answer), then the defaults it lacks (``security._headers``; its
        # Cache-Control is the stream's).
        secure = environ.get("wsgi.url_scheme") == "https"
        headers = [*push.STREAM_HEADERS.items(), _CONTENT_TYPE, _VARY]
        present = {name for name, _value in headers}
        headers += [h for h in default_headers(environ["PATH_INFO"], secure) if h[0] not in present]

        def read_row():
            row = poll_rows.get(public_id)
            return None if row is None or store.access_level(row, key) is None else row

        opened = push.open_stream(
            self.app, public_id, key, environ.get("REMOTE_ADDR"), environ.get("gunicorn.socket"), read_row, True
        )
        if opened is None:
            return None
        body, closed = opened
        # Closed by the server: the stream's end (its ``finally``), then its follower and budgets
        # let go, also when the body never started.
        return "200 OK", headers, ClosingIterator((text.encode() for text in body), [body.close, closed])

    def _compressed(self) -> bool:
        """Whether Flask-Compress would compress a stream (not as configured: left to Flask if so)."""
        compress = self.app.extensions.get("sk_compress")
        return compress is not None and _EVENT_STREAM in compress.compress_mimetypes_set
