"""The table page's body (``table/_body.html``) kept per process, for the table's version.

A table of a thousand hands costs 60-150 ms of CPU to render, almost all of it the body: its
hands, ledger and chart. Phones (or one client looping on a heavy table of its own) asked for
the same bytes again at the same version, and under the gevent worker a render that long
holds every other request of the process (another table's poll went from 3 ms to 80-97 ms).

The body depends on the table's stored state (its version: every change moves it), the page's
language and glossing, whether the phone may edit, and the address it is served at; everything
else in it is the same for every phone, except the CSRF token of the forms in it, which is the
session's: kept with a placeholder, put back at each answer. A cache of work, not of data: a
hit is the bytes a render at that version would give. A render that is not kept yields to the
worker's other requests every few hundred pieces (``render_yielding``).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict

from flask import request, stream_template
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup

from ..catalogue.i18n import current_lang, glossing

_MAX_BYTES = 32 * 1024 * 1024  # a heavy body is ~400 KB: some eighty of them
_TOKEN = "\x00sk-csrf\x00"  # never in a page: HTML has no NUL
_YIELD_EVERY = 400  # template pieces between two yields to the worker's other requests

_bodies: OrderedDict[tuple, str] = OrderedDict()
_size = 0
_lock = threading.Lock()


def _key(table, can_edit: bool, seat: str | None) -> tuple:
    return (
        table.id,
        table.public_id,
        table.version,
        current_lang(),
        glossing(),
        can_edit,
        seat,
        request.host_url,
        request.script_root,
    )


def body(table, can_edit: bool, view, seat: str | None = None) -> Markup:
    """The body for this request: kept at the table's version (and the phone's seat), or rendered
    (``view()``) and kept."""
    key = _key(table, can_edit, seat)
    token = generate_csrf()
    kept = _bodies.get(key)
    if kept is None:
        html = render_yielding("table/_body.html", **view())
        kept = html.replace(token, _TOKEN)
        _keep(key, kept)
    return Markup(kept.replace(_TOKEN, token))


def _keep(key: tuple, html: str) -> None:
    global _size
    with _lock:
        if key in _bodies:
            return
        _bodies[key] = html
        _size += len(html)
        while _size > _MAX_BYTES and _bodies:
            _size -= len(_bodies.popitem(last=False)[1])


def render_yielding(template: str, **context) -> str:
    """``render_template``, letting the worker's other requests run between pieces of a long render
    (under gevent ``time.sleep(0)`` is a turn of the hub; elsewhere nothing)."""
    pieces = []
    for i, piece in enumerate(stream_template(template, **context), 1):
        pieces.append(piece)
        if i % _YIELD_EVERY == 0:
            time.sleep(0)
    return "".join(pieces)


def clear() -> None:
    """Forget every kept body (tests)."""
    global _size
    with _lock:
        _bodies.clear()
        _size = 0
