"""Work already done, kept within a bound: the one cache helper of the package.

>>> kept = Bounded(10)
>>> for n in range(12):
...     _ = kept.put(n, n * n)
>>> len(kept) <= 10, kept.get(11), kept.get(0)
(True, 121, None)

A ``Bounded`` is a dict, so reading it is the dict's own ``get`` (the scorer reads one per
combination run, many times a summary); only ``put`` does more. Its entries are work that can be
done again, never data: losing one costs time, not correctness. What an entry stands for must be
in its key, or checked on reading it:

- an object compared by identity (a ``Rules`` in use): key by ``id(obj)`` and keep the object in
  the value, checking ``value[0] is obj`` on reading: an id is reused only once its object is
  gone, and the entry keeps it alive;
- a row that changes (a table): key by what names the row and keep its version in the value,
  checking it against the row the request read.
"""

from __future__ import annotations

import threading
from itertools import islice
from typing import TypeVar

# How many tables' work each kind kept per table holds in a process (the live hand, the rows, the
# replays, the answers, the log's text): well past what one process serves (~300–1,000 busy tables
# a core, BENCHMARKS.md). Sized at exactly what a worker served, one table more let the oldest
# hundred go, whose next taps read them again and let the next hundred go, for as long as it ran.
TABLES_KEPT = 2_500

K = TypeVar("K")
V = TypeVar("V")


class Bounded(dict[K, V]):
    """A dict of at most ``size`` entries: when one more would pass the bound, the oldest tenth
    goes (entries are in the order put; evicting a tenth at once keeps ``put`` cheap)."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size
        self._lock = threading.Lock()  # the app's threads share a process's caches

    def put(self, key: K, value: V) -> V:
        """Keep ``value`` for ``key`` (as the newest entry) and answer it."""
        with self._lock:
            self.pop(key, None)
            if len(self) >= self.size:
                for old in list(islice(self, max(1, self.size // 10))):
                    del self[old]
            self[key] = value
        return value
