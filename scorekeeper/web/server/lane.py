"""Work that can wait for a quiet moment: a push stream's open, behind the taps.

After a restart every phone's stream opens at once (3,000 for 1,000 tables), and each open is a
read of its table's row (the key's check) and a first event, a document to build and send. In a
gevent worker requests run one after another between their waits: a tap that arrives behind a
thousand opens waits for all of them, a second and more, and on PostgreSQL once more at each of
its round trips, while the phones opening their streams already show the table. So a stream's
open waits here, before it reads anything, until the worker's loop has nothing else to do, one
stream at a time: a tap that arrives meanwhile runs first, and the opens fill the gaps between
taps. The change a phone would have missed meanwhile is not lost: the first event is built when
it is sent, from the newest version.

No starvation: on a worker that has no quiet moment, every ``TRICKLE_S`` a share of the waiting
streams is let go, oldest first (one in ``TRICKLE_SHARE``, at least one): 3,000 waiting drain in a
second or two, a few at a time. (A deadline for each let every stream that waited it go at the
same moment, the burst again, later; one stream a trickle left the last waiting 15 s, its phone
blind to the taps all that time.) Outside gevent (the tests' client, threads) nothing waits.

A trickle's streams run one after the other only until ``TRICKLE_WORK_S`` of work is spent, then
the loop turns. Let go together, 75 first events when 1,500 waited filled the worker's run queue
for 50 ms at each trickle, and a tap's new connection waited in the listening socket's queue
until the loop turned (measured from the phone's send to the accept, issue 32). The worker takes
several waiting connections a turn (``serving.ACCEPTS_A_TURN``): once taken, the lane puts the
taps first.
"""

from __future__ import annotations

import time
from collections import deque

TRICKLE_S = 0.004  # a busy worker's streams: a trickle at least this often
TRICKLE_SHARE = 20  # of the waiting streams, one in this many is let go at each trickle
TRICKLE_WORK_S = 0.004  # the most a trickle's streams run before the loop turns


def _gevent_serving() -> bool:
    """Whether this process serves under gevent (``serving.py``'s workers patch the socket)."""
    try:
        from gevent import monkey
    except ImportError:  # pragma: no cover - gevent is a dependency of the served app
        return False
    return bool(monkey.is_module_patched("socket"))


class IdleLane:
    """Greenlets waiting for the loop to be idle, let go one at a time, oldest first."""

    def __init__(self, trickle_s: float = TRICKLE_S, enabled: bool | None = None):
        self.trickle_s = trickle_s
        self._enabled = enabled
        self._waiting: deque = deque()
        self._runner = None

    @property
    def enabled(self) -> bool:
        if self._enabled is None:
            self._enabled = _gevent_serving()
        return self._enabled

    def wait(self) -> None:
        """Return at the loop's next quiet moment that is this caller's turn (at the latest when
        the trickle comes to it)."""
        if not self.enabled:
            return
        from gevent.event import Event

        turn = Event()
        self._waiting.append(turn)
        self._ensure_runner()
        # No timer of its own (a burst's 1,500 were a twenty-fifth of the worker's time): the
        # runner lets every waiting stream go when it ends, however it ends (``_run``).
        turn.wait()

    def _ensure_runner(self) -> None:
        if self._runner is None or self._runner.dead:
            import gevent

            self._runner = gevent.spawn(self._run)

    def _run(self) -> None:
        try:
            self._let_go_in_turn()
        finally:  # killed (the worker shutting down) or failed: nobody waits for a runner gone
            while self._waiting:
                self._waiting.popleft().set()

    def _let_go_in_turn(self) -> None:
        import gevent

        while self._waiting:
            # Idle: no socket, timer or other greenlet of the loop pending. The one let go runs
            # before the loop is idle again, so the next waits until its work ends or waits on
            # the network or the database (a quiet moment of the CPU all the same).
            gevent.get_hub().loop.update_now()  # the loop's clock, stale after a busy turn
            quiet = False
            with gevent.Timeout(self.trickle_s, False):
                gevent.idle()
                quiet = True
            # A quiet moment lets one go; the trickle lets go a share of those waiting, so a long
            # queue drains in a second or two on a worker that is never quiet, in small batches.
            if quiet:
                self._waiting.popleft().set()
                gevent.sleep(0)
            else:
                self._trickle()

    def _trickle(self) -> None:
        """A share of the waiting streams, one at a time, each run to its first wait (its first
        event sent) before the next is let go, until ``TRICKLE_WORK_S`` is spent."""
        import gevent

        ends = time.perf_counter() + TRICKLE_WORK_S
        for _ in range(1 + len(self._waiting) // TRICKLE_SHARE):
            if not self._waiting:
                return
            self._waiting.popleft().set()
            gevent.sleep(0)  # behind the one let go: it runs first
            if time.perf_counter() >= ends:
                return
