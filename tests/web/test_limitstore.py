"""The rate-limit storage in a SQLite file (``limitstore``), through the ``limits`` strategies themselves.

The real-server tests (``test_server_limits``) show the counts shared by two workers; these show
the windows: a moving window lets the oldest entry go after its expiry, fixed windows count and
reset, and two storages on one file (two processes' views) see the same counts.
"""

from __future__ import annotations

import pytest
from limits import parse
from limits.storage import storage_from_string
from limits.strategies import FixedWindowRateLimiter, MovingWindowRateLimiter

from scorekeeper.web.server import limitstore


class Clock:
    def __init__(self):
        self.now = 1_800_000_000.0

    def time(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch):
    c = Clock()
    monkeypatch.setattr(limitstore, "time", c)
    return c


@pytest.fixture
def uri(tmp_path):
    return f"sqlite:///{tmp_path / 'ratelimits.db'}"


def test_the_uri_names_this_storage(uri):
    assert isinstance(storage_from_string(uri), limitstore.SQLiteFileStorage)


def test_moving_window_lets_the_oldest_entry_go(uri, clock):
    limiter, item = MovingWindowRateLimiter(storage_from_string(uri)), parse("3/minute")
    hits = []
    for step in (0, 10, 20, 30, 59, 61, 71):
        clock.now += step - (hits[-1][0] if hits else 0)
        hits.append((step, limiter.hit(item, "198.51.100.1")))
    assert [ok for _, ok in hits] == [True, True, True, False, False, True, True]
    assert limiter.get_window_stats(item, "198.51.100.1").remaining == 0
    assert limiter.hit(item, "198.51.100.2")  # another address counts alone


def test_fixed_window_counts_and_resets(uri, clock):
    limiter, item = FixedWindowRateLimiter(storage_from_string(uri)), parse("2/minute")
    assert [limiter.hit(item, "k") for _ in range(3)] == [True, True, False]
    clock.now += 61
    assert limiter.hit(item, "k")


def test_two_storages_on_one_file_share_the_counts(uri, clock):
    """What two worker processes see: each opens the file itself."""
    one, two = MovingWindowRateLimiter(storage_from_string(uri)), MovingWindowRateLimiter(storage_from_string(uri))
    item = parse("4/minute")
    assert [(one if i % 2 else two).hit(item, "k") for i in range(6)] == [True] * 4 + [False] * 2
    assert storage_from_string(uri).reset() == 4 and one.hit(item, "k")
