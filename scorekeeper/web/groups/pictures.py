"""The share picture kept per version, and drawn off the path that serves taps.

A picture is named by a digest of everything drawn on it (``etag``): a request whose
``If-None-Match`` names it is answered 304 without drawing, and a picture drawn once is kept (the
newest ``KEEP`` of this process) for every phone and chat preview that asks for it again. Fifty
previews fetched at once are one drawing: the others wait for it.

Which picture a request wants is known from the group's versions alone (``answer``: the group's
own version, its evenings' table versions, the evening asked for and the language), a read of a
few numbers: only a version not seen yet loads the group's state (about 18 ms of CPU for a large
group, on the path that serves taps) to find what it shows, once however many ask for it. How
many picture requests a process serves at once is ``gate.py``'s.

Drawing holds the CPU for tens of milliseconds (issue 29: 255 ms each, and 50 at once moved
another table's poll to p95 1.3 s). It runs in a drawing process of this process's own
(``scorekeeper/drawer.py``): drawn on a thread here, it still held this process's GIL, and another table's
poll waited (p95 260 ms on SQLite). At most one picture of this process is drawn at a time. A
drawing function the child cannot import by name (a test's stand-in) is drawn on a thread here,
as is every picture where no process can be started.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ... import drawer
from ...store.groupversions import GroupVersions

KEEP = 64  # pictures kept by a process: about 80 KB each
FORMAT = "2"  # bumped when the drawing changes: every digest then changes
WAIT = 30.0  # seconds a request waits for the same version being built by another

_kept: OrderedDict[str, bytes] = OrderedDict()
_drawing: dict[str, threading.Event] = {}
_tags: OrderedDict[Hashable, str] = OrderedDict()  # versions → the digest of what they show
_building: dict[Hashable, threading.Event] = {}
_lock = threading.Lock()
_pool: Any = None
_drawer: drawer.Drawer | None = None
_in_process = False  # no drawing process could be started: drawn on the thread
draws = 0  # pictures drawn by this process (the tests count them)


def etag(*inputs: object) -> str:
    """The digest of what a picture shows: equal inputs, one picture."""
    text = json.dumps([FORMAT, *inputs], ensure_ascii=False, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _off_path(fn: Callable[..., bytes], *args: object) -> bytes:
    """``fn(*args)`` in the drawing process (else on the drawing thread), this greenlet or thread
    waiting for it; ``Busy`` when the drawing process did not answer in time."""
    global _drawer, _in_process
    ref = drawer.by_reference(fn)
    if ref is not None and not _in_process:
        with _lock:
            if _drawer is None:  # made at the first picture: after gevent patched threading
                _drawer = drawer.Drawer()
            mine = _drawer
        try:
            return mine.call(ref, args)
        except drawer.CannotStart as err:
            logging.getLogger(__name__).warning("%s: pictures are drawn in this process", err)
            _in_process = True
        except drawer.Stuck as err:
            raise Busy() from err
    return _on_thread(fn, *args)


def _on_thread(fn: Callable[..., bytes], *args: object) -> bytes:
    """``fn(*args)`` on the drawing thread, this greenlet or thread waiting for it."""
    global _pool
    if _pool is None:
        try:
            from gevent import monkey

            patched = monkey.is_module_patched("threading")
        except ImportError:  # pragma: no cover - gevent is a dependency of the server
            patched = False
        if patched:  # pragma: no cover - only under the gevent server (tests/web/test_server*.py)
            from gevent.threadpool import ThreadPool

            _pool = ThreadPool(1)
        else:
            _pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sk-picture")
    if isinstance(_pool, ThreadPoolExecutor):
        return _pool.submit(fn, *args).result()
    return _pool.apply(fn, args)  # pragma: no cover - gevent's pool


def kept_or_drawn(tag: str, draw: Callable[..., bytes], *args: object) -> bytes:
    """The picture named ``tag``: kept, or being drawn (waited for), or drawn now off the path."""
    global draws
    while True:
        with _lock:
            png = _kept.get(tag)
            if png is not None:
                _kept.move_to_end(tag)
                return png
            waiting = _drawing.get(tag)
            if waiting is None:
                _drawing[tag] = mine = threading.Event()
                break
        waiting.wait(30)
    try:
        png = _off_path(draw, *args)
        with _lock:
            draws += 1
            _kept[tag] = png
            while len(_kept) > KEEP:
                _kept.popitem(last=False)
        return png
    finally:
        with _lock:
            _drawing.pop(tag, None)
        mine.set()


def versions_of(group: GroupVersions, evening: str | None, lang: str) -> tuple | None:
    """What a group's picture is kept by (``answer``'s ``versions``): the group's versions and its
    evenings', the evening shown (None: the standings) and the language; None when ``evening`` is
    not one of the group's. ``share_png`` and the fast path (``fastpicture.py``) both ask here, so
    the fast path finds what the route kept."""
    if evening is not None and evening not in {public for public, _version in group.evenings}:
        return None
    return (group.public_id, group.version, group.evenings, evening, lang)


def kept(versions: Hashable, held: Callable[[str], bool]) -> tuple[str, bytes | None] | None:
    """What ``answer`` gives for ``versions`` without reading or drawing anything: the digest
    and the kept PNG (None when ``held``), or None when this process does not keep it (the fast
    path's question, ``fastpicture.py``)."""
    with _lock:
        return _kept_locked(versions, held)


def _kept_locked(versions: Hashable, held: Callable[[str], bool]) -> tuple[str, bytes | None] | None:
    tag = _tags.get(versions)
    if tag is None:
        return None
    if held(tag):
        return tag, None
    png = _kept.get(tag)
    if png is None:
        return None
    _kept.move_to_end(tag)
    _tags.move_to_end(versions)
    return tag, png


class Busy(Exception):
    """The same version has been built by another request for ``WAIT`` seconds: ask again later."""


def answer(
    versions: Hashable, inputs: Callable[[], tuple], held: Callable[[str], bool], draw: Callable[..., bytes]
) -> tuple[str, bytes | None]:
    """The picture of ``versions``: its digest and its PNG, or None for the PNG when ``held(tag)``
    (the asker holds it already: a 304).

    A version seen before is answered from what this process keeps, without ``inputs``; a new
    one calls ``inputs()`` (``draw``'s arguments, read from the group's state) once, however
    many requests ask for it at once, and draws it if it was not kept.
    """
    while True:
        with _lock:
            found = _kept_locked(versions, held)
            if found is not None:
                return found
            waiting = _building.get(versions)
            if waiting is None:
                _building[versions] = mine = threading.Event()
                break
        if not waiting.wait(WAIT):
            raise Busy()
    try:
        args = inputs()
        tag = etag(*args)
        with _lock:
            _tags[versions] = tag
            _tags.move_to_end(versions)
            while len(_tags) > 4 * KEEP:
                _tags.popitem(last=False)
        if held(tag):
            return tag, None
        return tag, kept_or_drawn(tag, draw, *args)
    finally:
        with _lock:
            _building.pop(versions, None)
        mine.set()
