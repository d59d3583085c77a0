"""A served worker's full garbage collections kept short: what survives one is left out of the next.

After a restart, as every phone comes back, a worker's kept state grows from some 40,000 objects
(what it imported) to nearly 400,000 (each table's rows and logs, its answers, its kept rows), and
CPython's collector scanned all of it each time it had grown by a quarter: two or three pauses of
215–273 ms each per worker within five seconds of the burst, every request of the worker waiting
through them (issue 32; measured with ``gc.callbacks`` in both workers, 2026-11-28).

So each full collection's survivors are frozen (``gc.freeze``): later collections do not scan them,
and only what is newer is scanned. Freezing keeps nothing alive: an object is still freed as soon
as nothing refers to it. Only a cycle among frozen objects that has become garbage waits, so every
``UNFREEZE_S`` the frozen are given back to the collector, and its next full collection finds any
such cycle: one long pause every ten minutes at most, instead of several in a burst.
"""

from __future__ import annotations

import gc
import time

UNFREEZE_S = 600.0


class Freezer:
    """A ``gc.callbacks`` entry: at the end of each full collection, its survivors frozen; every
    ``UNFREEZE_S``, all given back to be scanned by the next."""

    def __init__(self, unfreeze_s: float = UNFREEZE_S):
        self.unfreeze_s = unfreeze_s
        self.since = time.monotonic()

    def __call__(self, phase: str, info: dict) -> None:
        if phase != "stop" or info.get("generation") != 2:
            return
        now = time.monotonic()
        if now - self.since >= self.unfreeze_s:
            gc.unfreeze()  # scanned whole by the next full collection
            self.since = now
        else:
            gc.freeze()


def install(unfreeze_s: float = UNFREEZE_S) -> Freezer:
    """In a served worker, once: what it built before its first request frozen now."""
    gc.collect()
    gc.freeze()
    freezer = Freezer(unfreeze_s)
    gc.callbacks.append(freezer)
    return freezer


def uninstall(freezer: Freezer) -> None:
    gc.callbacks.remove(freezer)
    gc.unfreeze()
