"""How the app is served: one gunicorn configuration for ``scorekeeper serve`` and the Procfile.

Gunicorn's gevent worker: every connection is a greenlet, not a thread. A phone on a bad
Wi-Fi that sends its request one byte at a time (or a slowloris attack) costs a few KB of
memory while it waits, not one of a handful of worker threads; an open push stream
(``web/server/push.py``) costs the same. Requests themselves still run one at a time per worker
between their waits on the network or PostgreSQL (psycopg 3 yields to gevent by itself);
SQLite calls are short and run without yielding, so a write transaction is never
interleaved with another request of the same worker.

The Procfile reads this module as gunicorn's configuration (``-c python:…``); ``serve``
passes the same settings (``options``). Gunicorn's access log stays off: share links carry
secrets in their paths.
"""

from __future__ import annotations

import os

worker_class = "gevent"
workers = int(os.environ.get("SCOREKEEPER_WORKERS", "2"))
# Open connections a worker holds at once, push streams included (each a greenlet). 1,000 tables'
# phones each hold a stream and a keep-alive connection, 3,000 of each, split over the workers as
# unevenly as they connect: at 2,000 a worker's streams (three quarters, ``web/server/push.py``)
# were refused by the hundreds. A connection costs a few KB.
DEFAULT_CONNECTIONS = 4000


def connections() -> int:
    """``SCOREKEEPER_CONNECTIONS`` as it is now (the push streams' budget reads it at app start)."""
    return int(os.environ.get("SCOREKEEPER_CONNECTIONS") or DEFAULT_CONNECTIONS)


worker_connections = connections()
timeout = 30
graceful_timeout = 5
# How long a connection stays open for the phone's next request. A phone at a table taps when its
# player's turn comes round, seconds to half a minute apart: closed after 5 s idle, nearly every
# tap opened a new connection, a handshake more on the phone's network (a TLS one too behind a
# proxy) and on the server an accept, a greenlet and a close: 6 % of the workers' CPU a tap at
# 1,000 tables (issue 32). An idle connection costs a few KB; each phone holds at most one
# beside its stream (``DEFAULT_CONNECTIONS``).
keepalive = 30
accesslog = None
errorlog = "-"
loglevel = "warning"


def raise_file_limit(wanted: int) -> None:
    """Every connection is a file: at a laptop's soft limit of 1,024 files a worker accepts no
    more, whatever ``worker_connections`` says. Raise the soft limit toward ``wanted`` (never past
    the hard limit, never lower); the workers inherit it."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def on_starting(_arbiter) -> None:
    """In the master, before it forks the workers: room for every connection and a margin for
    the database, the logs and the drawing process's pipes."""
    raise_file_limit(worker_connections + 256)


# Connections a worker takes from the listening queue at each turn of its loop. Gunicorn sets one
# when there are several workers (``GeventWorker.run``), so that one worker does not take a whole
# evening's phones while the other idles. But a turn is long while 3,000 streams open after a
# restart, and at one a turn a worker took a connection every 5 ms: each tap (a new connection,
# past keep-alive) waited 0.4–4 s in the queue behind the streams' before the worker even saw it,
# and on PostgreSQL the queue never drained all evening (issue 32: paced p99 2.3–3.9 s at one a
# turn, 0.15 s at 16; SQLite 484 ms at one, 54 ms at 16). At 100 (gevent's own) one worker took
# most of a burst: p99 0.8 s.
ACCEPTS_A_TURN = 16


def _accepting_server_class():
    """gevent's ``StreamServer`` taking ``ACCEPTS_A_TURN`` connections a turn, whatever is set."""
    from gevent.server import StreamServer

    class AcceptingServer(StreamServer):
        @property
        def max_accept(self) -> int:
            return ACCEPTS_A_TURN

        @max_accept.setter
        def max_accept(self, _asked: int) -> None:
            pass  # gunicorn's one a turn for several workers (above)

    return AcceptingServer


def post_worker_init(_worker) -> None:
    """Take ``ACCEPTS_A_TURN`` connections a turn, and keep the collector's pauses short
    (``gcpause``). Runs in each worker before it builds its servers."""
    from gunicorn.workers import ggevent

    from . import gcpause

    ggevent.StreamServer = _accepting_server_class()
    gcpause.install()  # full collections scan only what is new since the last (``gcpause.py``)


NAMES = (
    "worker_class",
    "workers",
    "worker_connections",
    "timeout",
    "graceful_timeout",
    "keepalive",
    "accesslog",
    "errorlog",
    "loglevel",
    "on_starting",
    "post_worker_init",
)


def options() -> dict:
    """The settings above, for gunicorn's ``cfg.set``."""
    return {name: globals()[name] for name in NAMES}


def patch() -> None:
    """Make the standard library cooperative before anything creates a lock or a socket.

    ``scorekeeper serve`` builds the app (and its connection pool) in the master before it
    forks; a pool built from unpatched locks would block a whole worker when it runs dry.
    """
    from gevent import monkey

    if not monkey.is_module_patched("socket"):
        monkey.patch_all()
