"""How many share pictures a process serves at once: the rest wait in a short queue, or come back later.

A worker's greenlets take turns on one core. Fifty chat previews asking for a group's picture
at once each cost a few milliseconds even when the picture is kept (the request, the group's
row and versions, the answer), and a phone's version poll waited behind all of them (issue 29:
p95 4.1 s). Here, before Flask's own work starts, at most ``PICTURE_SLOTS`` (1) picture requests of
a process run at a time and ``PICTURE_QUEUE`` more wait for their turn (waiting costs nothing);
a request beyond those is answered 503 with Retry-After at once: a preview fetched a moment
later beats taps that starve. Every other request goes straight through. A kept picture the
fast path answers (``fastpicture.py``, inside this gate) takes its turn here too: fifty answered
at once, each yielding at its database read, put a poll behind all of them.
"""

from __future__ import annotations

import re
import threading

from flask import Flask

from ..server.security import default_headers

PICTURE = re.compile(r"/g/[A-Za-z0-9_-]{1,32}/share\.png")
RETRY_AFTER = "2"
WAIT = 10.0  # seconds a request waits in the queue before it is told to come back


class PictureGate:
    """WSGI middleware: picture requests served ``PICTURE_SLOTS`` at a time, ``PICTURE_QUEUE`` waiting."""

    def __init__(self, app: Flask, wsgi_app):
        self.app, self.wsgi_app = app, wsgi_app
        self._lock = threading.Lock()
        self._slots: threading.Semaphore | None = None
        self._waiting = 0

    def __call__(self, environ: dict, start_response):
        if not PICTURE.fullmatch(environ.get("PATH_INFO", "")):
            return self.wsgi_app(environ, start_response)
        config = self.app.config
        with self._lock:
            if self._slots is None:  # made at the first picture: the configuration is final by then
                self._slots = threading.Semaphore(config["PICTURE_SLOTS"])
            slots = self._slots
            got = slots.acquire(blocking=False)
            if not got:
                if self._waiting >= config["PICTURE_QUEUE"]:
                    return self._busy(environ, start_response)
                self._waiting += 1
        if not got:
            try:
                got = slots.acquire(timeout=WAIT)
            finally:
                with self._lock:
                    self._waiting -= 1
            if not got:
                return self._busy(environ, start_response)
        try:
            # The answer's bytes are made inside the slot; sending them is the network's time.
            answer = self.wsgi_app(environ, start_response)
            try:
                return [b"".join(answer)]
            finally:
                if hasattr(answer, "close"):
                    answer.close()
        finally:
            slots.release()

    @staticmethod
    def _busy(environ: dict, start_response) -> list[bytes]:
        body = b"Busy drawing pictures: ask again in a moment.\n"
        headers = [
            ("Content-Type", "text/plain; charset=utf-8"),
            ("Content-Length", str(len(body))),
            ("Retry-After", RETRY_AFTER),
            *default_headers(environ.get("PATH_INFO", ""), environ.get("wsgi.url_scheme") == "https"),
        ]
        start_response("503 Service Unavailable", headers)
        return [body]
