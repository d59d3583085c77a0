"""What the phone downloads: compressed answers, and static files it never asks for twice.

- HTML, JSON, JavaScript and CSS go out compressed (brotli or gzip, as the phone accepts)
  by Flask-Compress; a live tap's answer is a few kilobytes that compress well.
- Every ``url_for('static', ...)`` carries the digest of the file's content (``?v=…``).
  Asked for with the current digest, a static file is cached for a year as immutable:
  a changed file has a new digest, hence a new URL. Any other request for it (no or an
  old digest) is answered ``no-cache``, so nothing stale is ever kept.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from flask import Flask, current_app, request
from flask_compress import Compress

IMMUTABLE = "public, max-age=31536000, immutable"
COMPRESSED = [
    "text/html",
    "text/css",
    "text/javascript",
    "application/javascript",
    "application/json",
    "application/manifest+json",
    "image/svg+xml",
    "text/plain",
]


def init_app(app: Flask) -> None:
    app.config.setdefault("COMPRESS_MIMETYPES", COMPRESSED)
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    app.config.setdefault("COMPRESS_MIN_SIZE", 256)
    app.config.setdefault("COMPRESS_BR_LEVEL", 5)  # a tap's answer: fast, nearly as small as 11
    app.extensions["sk_compress"] = Compress(app)  # its settings, read by ``fastpath``
    # Outermost: the fast path (inside) chooses its coding from the same header as Flask-Compress.
    app.wsgi_app = AcceptEncoding(app.wsgi_app, app.extensions["sk_compress"].enabled_algorithms)  # type: ignore[method-assign]
    app.url_defaults(_digest_in_static_urls)
    app.after_request(_cache_static)


class AcceptEncoding:
    """``Accept-Encoding`` restated as the codings we send that the client takes, with their weights.

    Flask-Compress chooses among the codings named, weight 0 included: ``br;q=0`` (RFC 9110
    §12.5.3: "not acceptable") got brotli. Here a coding with q=0 (or an unreadable q) is
    dropped, ``*`` stands for the codings the header does not name, and what is left goes on
    as ``br;q=1.0, gzip;q=0.5`` (or ``identity``: none), which Flask-Compress's reading and the
    fast path's both get right.
    """

    def __init__(self, wsgi_app, algorithms: tuple[str, ...]):
        self.wsgi_app, self.algorithms = wsgi_app, algorithms

    def __call__(self, environ: dict, start_response):
        header = environ.get("HTTP_ACCEPT_ENCODING")
        if header is not None:
            environ["HTTP_ACCEPT_ENCODING"] = acceptable(header, self.algorithms)
        return self.wsgi_app(environ, start_response)


def acceptable(header: str, algorithms: tuple[str, ...]) -> str:
    """The codings of ``algorithms`` (and ``identity``) that ``header`` accepts, as ``name;q=w``."""
    weights: dict[str, float] = {}
    for part in header.lower().split(","):
        name, *params = (p.strip() for p in part.split(";"))
        weight: float | None = 1.0
        for param in params:
            key, _, value = param.partition("=")
            if key.strip() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = None
        if name and weight is not None and 0 <= weight <= 1:
            weights.setdefault(name, weight)
    star = weights.get("*", 0.0)
    named = [(name, weights.get(name, star)) for name in algorithms]
    if "identity" in weights:
        named.append(("identity", weights["identity"]))
    return ", ".join(f"{name};q={weight}" for name, weight in named if weight > 0) or "identity"


def digest(filename: str) -> str:
    path = Path(current_app.static_folder or "") / filename
    try:
        stat = path.stat()
    except OSError:
        return ""
    if not path.is_file():
        return ""
    return _digest(str(path), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=64)
def _digest(path: str, _mtime: int, _size: int) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12]


def _digest_in_static_urls(endpoint: str, values: dict) -> None:
    if endpoint == "static" and "filename" in values and "v" not in values:
        version = digest(values["filename"])
        if version:
            values["v"] = version


def _cache_static(response):
    if request.endpoint == "static" and response.status_code == 200:
        filename = (request.view_args or {}).get("filename", "")
        fresh = request.args.get("v") and request.args.get("v") == digest(filename)
        response.headers["Cache-Control"] = IMMUTABLE if fresh else "no-cache"
        if fresh:
            response.headers.pop("Expires", None)
        # send_file streams the file, which Flask-Compress (its hook runs after this one)
        # would compress only with its streaming choice of algorithms. Our static files are
        # small: read them, so they are compressed like any answer (br or gzip).
        response.direct_passthrough = False
        body = response.get_data()
        response.close()  # the file send_file opened
        response.set_data(body)
    return response
