"""A group's share picture, when this process keeps it, answered before Flask (issue 29).

Fifty chat previews asking for a kept picture back to back each went through Flask (a request
context, the hooks, the group's versions read through SQLAlchemy, a response object): about
0.27 ms of CPU a picture in one process, in the workers that also answer another table's poll.
Here (``server/fastpath.py`` asks) the same answer costs the group's versions read on a bare
connection, the key's check and the kept bytes.

Only what ``share_png`` would answer from what it keeps is answered here: the key right for the
group exactly as ``open_group`` checks it (``?key=``, else ``X-Group-Key``), an evening of the
group or none, no query parameter ``share_png`` does not read, and the picture kept for the
versions it would compute (the group's, its evenings', the evening, the language as
``current_lang`` picks it without a cookie); an ``If-None-Match`` naming it is a 304, as there.
The request's plainness (no cookie, no other conditional header, a trusted host, the guessing
budget left) is the fast path's to check. Everything else, refusals included, goes on to Flask.
``tests/web/test_fastpath_picture.py`` holds each answer given here to Flask's for the same request.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qsl

from werkzeug.http import parse_etags

from ...store.groupversions import group_versions_bare
from ...store.rows import access_level
from ..catalogue.i18n import lang_accepted
from ..server.security import default_headers
from . import pictures

PICTURE = re.compile(r"/g/([A-Za-z0-9_-]{1,32})/share\.png")
_READ = frozenset({"key", "v", "evening"})  # what share_png reads (v: the og:image's digest, unread)
_PNG = "image/png"
Answer = tuple[str, list[tuple[str, str]], bytes]


def answer(app: Any, environ: dict) -> Answer | None:
    """The kept picture's answer (status, headers, body) to a plain request, or None for Flask."""
    match = PICTURE.fullmatch(environ.get("PATH_INFO", ""))
    if match is None or _PNG in app.extensions["sk_compress"].compress_mimetypes_set:
        return None
    args = _args(environ.get("QUERY_STRING", ""))
    if args is None:
        return None
    # As share_png's ``open_group``: the query's key, else the header's (a session's: not plain).
    key = args.get("key") or environ.get("HTTP_X_GROUP_KEY")
    if not key:
        return None
    group = group_versions_bare(app.extensions["sk_engine"], match.group(1))
    if group is None or access_level(group, key) is None:  # type: ignore[arg-type]
        return None
    versions = pictures.versions_of(
        group, args.get("evening") or None, lang_accepted(environ.get("HTTP_ACCEPT_LANGUAGE"))
    )
    if versions is None:
        return None
    found = pictures.kept(versions, parse_etags(environ.get("HTTP_IF_NONE_MATCH")).__contains__)
    if found is None:
        return None
    tag, png = found
    # In the order Flask gives them: share_png's, the PNG's, Flask-Compress's Vary, the defaults.
    headers = [("Cache-Control", "private, no-cache"), ("ETag", f'"{tag}"')]
    if png is not None:
        headers += [("Content-Type", _PNG), ("Content-Length", str(len(png)))]
    headers.append(("Vary", "Accept-Encoding"))
    secure = environ.get("wsgi.url_scheme") == "https"
    headers += [h for h in default_headers(environ["PATH_INFO"], secure) if h[0] != "Cache-Control"]
    if png is None:
        return "304 NOT MODIFIED", headers, b""
    return "200 OK", headers, png


def _args(query: str) -> dict[str, str] | None:
    """The query's parameters as Flask's ``request.args`` reads them; None (Flask's to answer)
    for a name share_png does not read or a name given twice."""
    pairs = parse_qsl(query.encode("latin1").decode(), keep_blank_values=True, errors="werkzeug.url_quote")
    args = dict(pairs)
    if len(args) != len(pairs) or not _READ.issuperset(args):
        return None
    return args
