"""A drawing process of the serving process's own: the share picture is drawn there, not here
(``web/groups/pictures.py``).

Drawing holds the CPU for tens of milliseconds, and on a thread of the serving process it holds
that process's GIL too: the greenlets serving taps and polls waited for it in turns (issue 29:
another table's version poll at p95 260 ms on SQLite while pictures were drawn, 6 ms alone). In
a process of its own the drawing has its own interpreter, and it runs at a lower priority
(``NICE``): on a busy machine the processes serving taps get the cores first.

One drawing process per serving process, started at its first picture (a serving process that
never draws starts none) and again if it died; one picture drawn at a time, the others waiting
on the lock. It is a plain child on pipes: under gevent the pipes are gevent's and the waiting
greenlet yields to the others; elsewhere (tests, ``flask run``) the waiting thread blocks. The
child ends when its stdin closes, that is when the serving process ends, however it ends.

The protocol, each way a length (4 bytes, big-endian) and a pickle: to the child
``(module, qualified name, args)``, a function it imports and calls; back ``(True, result)`` or
``(False, the traceback's text)``. Only this process writes to the child's stdin: nothing from
outside is ever unpickled. This module needs only the standard library: the child starts with it
alone, and imports the drawing's own module (``_bare_import``).
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import importlib
import os
import pickle
import select
import subprocess
import sys
import threading
import traceback
import types
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import IO, Any

NICE = 10  # the child's niceness: taps first when the cores are busy
WAIT = 20.0  # seconds a drawing may take before the child is taken for stuck (ended, started again)
_HEAD = 4


class DrawingFailed(Exception):
    """The drawing raised in the child (its traceback is the message)."""


class Stuck(Exception):
    """The child did not answer within ``WAIT`` seconds, or died twice: it was ended."""


class CannotStart(Exception):
    """No drawing process can be started here (the caller draws in its own process)."""


def by_reference(fn: Callable[..., object]) -> tuple[str, str] | None:
    """``fn``'s module and qualified name, where the child can import it by them (else None: a
    function made at run time, such as a test's stand-in, is called in this process)."""
    module, name = getattr(fn, "__module__", None), getattr(fn, "__qualname__", None)
    if not module or not name or "<" in name:
        return None
    try:
        found = functools.reduce(getattr, name.split("."), importlib.import_module(module))
    except (ImportError, AttributeError):
        return None
    return (module, name) if found is fn else None


class Drawer:
    """The child drawing process of this process, started when first needed."""

    def __init__(self) -> None:
        self._lock = threading.Lock()  # made after gevent patched threading: a greenlet's lock
        self._proc: subprocess.Popen[bytes] | None = None
        self._owner = 0  # the pid that started it: a forked process starts its own
        atexit.register(self.close)

    def close(self) -> None:
        """End the child (at this process's exit; it would end by itself when its stdin closes)."""
        self._end()

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None and self._owner == os.getpid() else None

    def call(self, ref: tuple[str, str], args: tuple) -> Any:
        """``module.name(*args)`` in the child; a child found dead is started again once."""
        request = pickle.dumps((*ref, args), protocol=pickle.HIGHEST_PROTOCOL)
        with self._lock:
            for attempt in (1, 2):
                proc = self._running()
                try:
                    _send(proc.stdin, request)
                    ok, result = pickle.loads(_receive(proc.stdout))
                except (OSError, EOFError, ValueError, pickle.UnpicklingError):
                    self._end()
                    if attempt == 2:
                        raise Stuck("the drawing process ended without an answer") from None
                    continue
                except Stuck:
                    self._end()
                    raise
                if not ok:
                    raise DrawingFailed(result)
                return result
        raise AssertionError("unreachable")  # pragma: no cover

    def _running(self) -> subprocess.Popen[bytes]:
        if self._proc is not None and self._owner == os.getpid() and self._proc.poll() is None:
            return self._proc
        self._end()  # a child that died: its pipes closed, its exit status collected
        paths = (str(ROOT), os.environ.get("PYTHONPATH"))
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in paths if p))
        try:
            self._proc = subprocess.Popen(
                [sys.executable, "-c", "from scorekeeper.drawer import serve; serve()"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                env=env,
                cwd=ROOT,  # ``-c`` puts the working folder first on the path: this tree's scorekeeper
            )
        except OSError as err:
            raise CannotStart(f"the drawing process could not be started: {err}") from None
        self._owner = os.getpid()
        return self._proc

    def _end(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None or self._owner != os.getpid():
            return
        for stream in (proc.stdin, proc.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):  # a kill is not refused
            proc.wait(5)


def _send(stream: IO[bytes] | None, payload: bytes) -> None:
    assert stream is not None
    stream.write(len(payload).to_bytes(_HEAD, "big") + payload)
    stream.flush()


def _read(stream: IO[bytes] | None, n: int) -> bytes:
    assert stream is not None
    chunks, left = [], n
    while left:
        chunk = stream.read(left)
        if not chunk:
            raise EOFError("the drawing process's pipe closed")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _receive(stream: IO[bytes] | None) -> bytes:
    assert stream is not None
    # Wait for the answer's first byte at most WAIT seconds (select is gevent's under gevent: the
    # greenlet yields); the rest follows as the child writes it.
    ready, _w, _x = select.select([stream.fileno()], [], [], WAIT)
    if not ready:
        raise Stuck(f"no picture drawn in {WAIT:.0f} s")
    return _read(stream, int.from_bytes(_read(stream, _HEAD), "big"))


ROOT = Path(__file__).resolve().parents[1]  # the tree holding the scorekeeper package


def _bare_import(module: str) -> ModuleType:
    """``module``, the packages above it in scorekeeper taken as bare folders: their ``__init__``
    build the app (Flask, the store, every view: 2.8 s to import on a busy machine, against 0.2 s
    for ``picture.py`` and Pillow), and the child only draws. A module drawn here must need none
    of its packages' own code, as ``picture.py`` (Pillow and the standard library) does."""
    parts = module.split(".")
    if parts[0] == "scorekeeper" and module not in sys.modules:
        for i in range(2, len(parts)):
            package = ".".join(parts[:i])
            if package not in sys.modules:
                bare = types.ModuleType(package)
                bare.__path__ = [str(ROOT.joinpath(*parts[:i]))]
                sys.modules[package] = bare
    return importlib.import_module(module)


def serve() -> None:
    """The child's loop: a call in, its answer out, until stdin closes."""
    inp, out = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # anything printed goes to the server's log, not into the pipe
    with contextlib.suppress(OSError):  # not allowed here: drawn at the same priority
        os.nice(NICE)
    while True:
        try:
            head = _read(inp, _HEAD)
        except EOFError:
            return
        module, name, args = pickle.loads(_read(inp, int.from_bytes(head, "big")))
        try:
            fn: object = _bare_import(module)
            for part in name.split("."):
                fn = getattr(fn, part)
            if not callable(fn):
                raise TypeError(f"{module}.{name} is not callable")
            answer = (True, fn(*args))
        except Exception:
            answer = (False, traceback.format_exc())
        _send(out, pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL))
