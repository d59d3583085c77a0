"""One heavy table of one's own does not starve the others (issue 23, item 6), on the real server.

A 999-hand import made ``GET /t/<id>`` cost 65-157 ms of CPU, and under the gevent worker a
render that long holds every other request of its process: four clients looping on it raised
another table's poll from 3 ms to 80-97 ms median. Now the table's body is kept per version
(``web/tables/pagecache.py``) and a long render yields to the others.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from .test_server import env, free_port, stop, wait_up  # noqa: F401  (env is a fixture)

ROOT = Path(__file__).resolve().parents[2]
HANDS, LOOPERS, SECONDS = 999, 4, 6.0
POLL_MEDIAN_MS = 40.0  # 145 ms before, ~15 ms after, on the shared 2-core test box
# Or, on a slower or busier machine, within this many times the same poll's median with nobody
# looping: a starved poll waited behind whole renders, 3 → 80-97 ms (~30 times) on that box; 5 to
# 19 times now (a 2-core machine half as fast, 2026-11-28, with and without other work running).
POLL_SLOWDOWN = 20.0


def _call(port: int, path: str, body: dict | None = None, headers: dict | None = None) -> tuple[int, bytes]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", data=data, headers={"Content-Type": "application/json"} | (headers or {})
    )
    with urllib.request.urlopen(request, timeout=30) as r:
        return r.status, r.read()


def _heavy(port: int) -> dict:
    stop_ = [
        {"summary": {"captures": {w: ["1g", "3g", "8g"]}, "outcome": {"type": "stop", "winner": w}}} for w in "ABC"
    ]
    hands = [stop_[i % 3] if i % 4 else {"summary": {"outcome": {"type": "nagari"}}} for i in range(HANDS)]
    status, body = _call(
        port,
        "/api/v1/tables/import",
        {"players": ["A", "B", "C"], "first_dealer": "A", "length": HANDS + 1, "hands": hands},
    )
    assert status == 201
    return json.loads(body)


def test_a_heavy_table_does_not_starve_another_tables_poll(env):
    port = free_port()
    env = env | {"SCOREKEEPER_RATELIMIT_CREATE": "1000/hour"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper.cli", "serve", "--port", str(port)],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    stop_looping = threading.Event()
    try:
        wait_up(f"http://127.0.0.1:{port}/healthz", proc)
        heavy = _heavy(port)
        status, body = _call(port, "/api/v1/tables", {"players": ["A", "B", "C"]})
        assert status == 201
        other = json.loads(body)
        page = f"/t/{heavy['id']}"
        # The phone's session: the heavy page as an editor would open it, again and again.
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
        opener.addheaders = [("Accept-Encoding", "br, gzip")]  # as a phone: the page compressed
        opener.open(f"http://127.0.0.1:{port}/j/{heavy['id']}/{heavy['edit_key']}", timeout=30).read()
        renders: list[float] = []

        def loop() -> None:
            while not stop_looping.is_set():
                started = time.monotonic()
                opener.open(f"http://127.0.0.1:{port}{page}", timeout=30).read()
                renders.append(time.monotonic() - started)

        idle = _polls(port, other, 1.0)  # the same poll with nobody looping: this machine's own
        loopers = [threading.Thread(target=loop, daemon=True) for _ in range(LOOPERS)]
        for t in loopers:
            t.start()
        time.sleep(1.0)
        polls = _polls(port, other, SECONDS)
    finally:
        stop_looping.set()
        stop(proc)
    median, alone = statistics.median(polls), statistics.median(idle)
    assert median < max(POLL_MEDIAN_MS, POLL_SLOWDOWN * alone), (
        f"another table's poll: median {median:.1f} ms ({alone:.1f} ms with nobody looping) while "
        f"{LOOPERS} clients looped on a {HANDS}-hand page (page median {statistics.median(renders) * 1000:.0f} ms)"
    )


def _polls(port: int, table: dict, seconds: float) -> list[float]:
    """The table's version polled every 50 ms for ``seconds``: each poll's time, in ms."""
    polls = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        started = time.monotonic()
        status, _ = _call(port, f"/api/v1/tables/{table['id']}/version", headers={"X-Table-Key": table["edit_key"]})
        polls.append((time.monotonic() - started) * 1000)
        assert status == 200
        time.sleep(0.05)
    return polls
