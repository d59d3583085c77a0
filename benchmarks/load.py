"""Benchmark: the table app under gunicorn with many tables, against a bare Flask "hello".

Usage: ``python benchmarks/load.py [--db sqlite|postgres|both] [--tables 300] [--model push|poll] [--short]``.

For each database the app is started under gunicorn on a free loopback port with the
configuration of ``scorekeeper serve`` (``scorekeeper/web/server/serving.py``: gevent workers,
``SCOREKEEPER_WORKERS``, 2 by default; ``--server gthread`` for the model before it), then:

1. *Seed*: ``--tables`` tables are created through the API, each with 0–4 finished hands and a
   live hand already 0–50 events into a 60-event hand (the events are written straight into
   the store: replaying them one by one over HTTP would take longer than the run). Then the
   server is restarted: the paced phase begins as after a restart over a played evening, every
   phone's stream opening at once on processes that keep nothing.
2. *Paced* (``--duration`` s): each table has ``--phones`` phones, each with its own keep-alive
   connection. ``--model push`` (the web page's way since issue 11): each phone also holds the
   table's API push stream open (``GET /api/v1/tables/<id>/stream``), which carries each change
   of the live hand itself (a phone fetches only when it announces a version alone).
   ``--model poll`` (the fallback, and the only way before): each phone polls the table's
   version every 1–2 s (the web page polls every 1.5 s) and fetches the live hand when it moved.
   Any phone may tap in the next event, one every ``--event-every`` s a table on average, with
   the seq it last saw: now and then two phones of a table tap at once and one gets a conflict.
   A push phone taps only once its stream has shown it the hand (as a page's buttons come with
   its state); a stream that lags after that still leaves the phone tapping on what it shows.
   When a hand ends, the phone starts the next one. This reports throughput and p50/p95/p99
   latency per kind of request, and the *update latency*: from a tap's acknowledgement to each
   other phone of the table showing it, and how long each phone waited for its stream's first
   document (and when the last came: the length of the opening burst).
   Then each of poll and append alone, back to back (``--cost-seconds``): the server CPU of one.
3. *Saturated* (``--saturate`` s): ``--connections`` connections send the same mix (the poll
   model's proportions of polls, refreshes and appends: the fallback path) back to back, no think
   time: the most the app serves.

Then a bare Flask app answering "hello" is run under the same gunicorn configuration and
saturated the same way: the ceiling. The ratio of the saturated mix to the ceiling is printed.
The load generator is one asyncio process on the same machine; its CPU share is printed, as
on a 2-core machine it competes with the server. ``--json FILE`` writes every figure.
PostgreSQL: ``TEST_DATABASE_URL`` or 127.0.0.1:5432, database ``test``, user ``postgres``;
each run uses a fresh schema, dropped afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import platform
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from datetime import date

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PG_URL = os.environ.get("TEST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
PLAYERS = ["A", "B", "C"]
KINDS = ("poll", "refresh", "append", "conflict", "new_hand", "stream", "hello")
# The saturated mix when the paced phase pushes (it then polls nothing): the proportions of
# the poll model's paced run at 300 tables (BENCHMARKS.md), i.e. the fallback path.
POLL_MODEL_WEIGHTS = {"poll": 0.754, "refresh": 0.172, "append": 0.074}
KEEPALIVE_REUSE = 1.8  # a phone's connection idle this long is closed (``main`` sets it)
# Saturating connections are reopened after this many requests: gunicorn's workers race to
# accept, and a few long-lived connections can all land on one worker, leaving a core idle
# (a hello ceiling of 2,000 req/s one run and 3,800 the next).
SATURATED_REUSE = 20


def hello_app():
    """The ceiling: the least a Flask app under this gunicorn configuration can do."""
    from flask import Flask

    app = Flask("hello")
    app.add_url_rule("/", "hello", lambda: "hello")
    return app


# -- the server --------------------------------------------------------------------------------


def gunicorn_command(spec: str, port: int) -> list[str]:
    """``gunicorn spec`` with the configuration of ``scorekeeper serve`` and the Procfile
    (``scorekeeper/web/server/serving.py``), or ``--server gthread``: the model served before it."""
    if SERVER == "gthread":
        model = [
            "--worker-class",
            "gthread",
            "--threads",
            os.environ.get("SCOREKEEPER_THREADS", "4"),
            "--workers",
            os.environ.get("SCOREKEEPER_WORKERS", "2"),
            "--timeout",
            "30",
            "--graceful-timeout",
            "5",
            "--log-level",
            "warning",
            "--error-logfile",
            "-",
        ]
    else:
        model = ["-c", "python:scorekeeper.web.server.serving"]
    return [
        sys.executable,
        "-m",
        "gunicorn",
        spec,
        "--bind",
        f"127.0.0.1:{port}",
        *model,
        "--pythonpath",
        f"{SOURCE},{HERE}",
    ]


SERVER = "gevent"
SOURCE = ROOT  # the source tree the server runs (picture_load.py's --source: main's, for a before)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Gunicorn:
    """A gunicorn in a process group of its own, stopped with its workers."""

    def __init__(self, spec: str, env: dict[str, str], log_path: str):
        self.port = free_port()
        self.log_path = log_path
        with open(log_path, "ab") as log:
            self.proc = subprocess.Popen(
                gunicorn_command(spec, self.port),
                env=os.environ | env,
                cwd=SOURCE,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )

    def wait_ready(self, path: str, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"gunicorn exited with {self.proc.returncode}:\n{self.log_tail()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                    s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
                    if s.recv(12).startswith(b"HTTP/1.1 200"):
                        return
            except OSError:
                pass
            time.sleep(0.1)
        self.stop()
        raise SystemExit(f"gunicorn did not answer within {timeout} s:\n{self.log_tail()}")

    def cpu_seconds(self) -> float:
        """CPU time of the master, its workers and their children (the share picture's drawing
        processes) so far: every process of the session the master leads."""
        ticks = os.sysconf("SC_CLK_TCK")
        total = 0
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[3]) == self.proc.pid:  # fields[3]: the session (start_new_session)
                total += int(fields[11]) + int(fields[12])  # utime, stime
        return total / ticks

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)

    def log_tail(self, lines: int = 30) -> str:
        with open(self.log_path, encoding="utf-8", errors="replace") as f:
            return "".join(f.readlines()[-lines:])


# -- a small HTTP/1.1 keep-alive client ----------------------------------------------------------


class Conn:
    """One phone's connection: HTTP/1.1 keep-alive, reopened when the server may have closed it."""

    def __init__(self, port: int, reuse: int | None = None):
        self.port, self.reuse = port, reuse
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.last_used = 0.0
        self.reopened = 0
        self.used = 0
        self.connect_s = 0.0  # the time spent connecting, within the request under way

    async def _open(self) -> None:
        self.close()
        start = time.perf_counter()
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        self.connect_s += time.perf_counter() - start
        self.reopened += 1
        self.used = 0

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def request(
        self,
        method: str,
        path: str,
        body: dict | None = None,
        key: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, bytes]:
        payload = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {len(payload)}\r\n"
        if key:
            head += f"X-Table-Key: {key}\r\n"
        for name, value in (headers or {}).items():
            head += f"{name}: {value}\r\n"
        if body is not None:
            head += "Content-Type: application/json\r\n"
        message = head.encode() + b"\r\n" + payload
        for attempt in (1, 2):
            if (
                self.writer is None
                or time.monotonic() - self.last_used > KEEPALIVE_REUSE
                or (self.reuse and self.used >= self.reuse)
            ):
                await self._open()
            self.used += 1
            try:
                self.writer.write(message)
                answer = await self._read()
                self.last_used = time.monotonic()
                return answer
            except (ConnectionError, asyncio.IncompleteReadError):
                # Closed by the server between two requests. Sending an append again is safe:
                # if the first one was stored, the same seq now answers a conflict.
                self.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def _read(self) -> tuple[int, bytes]:
        line = await self.reader.readline()
        if not line:
            raise ConnectionResetError("closed by the server")
        status = int(line.split()[1])
        length, chunked, close = 0, False, False
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            name, value = name.strip().lower(), value.strip().lower()
            if name == "content-length":
                length = int(value)
            elif name == "transfer-encoding" and "chunked" in value:
                chunked = True
            elif name == "connection" and value == "close":
                close = True
        if chunked:
            data = b""
            while True:
                size = int((await self.reader.readline()).split(b";")[0], 16)
                chunk = await self.reader.readexactly(size + 2)
                if size == 0:
                    break
                data += chunk[:-2]
        else:
            data = await self.reader.readexactly(length)
        if close:
            self.close()
        return status, data


class StreamRefused(ConnectionError):
    """The server answered the stream's request with something else than 200 (a 429 past a
    budget, a 503): counted apart from a connection refused or cut."""

    def __init__(self, status_line: bytes):
        parts = status_line.split()
        self.status = parts[1].decode("latin-1") if len(parts) > 1 else "none"
        super().__init__(f"stream refused: {status_line!r}")


class Stream:
    """One phone's push stream (``GET /api/v1/tables/<id>/stream``): the changes it announces (the
    last hand's events document, or the version alone), as they come."""

    def __init__(self, port: int, t: TableSim):
        self.port, self.t = port, t
        self.writer: asyncio.StreamWriter | None = None
        self.asked = 0.0  # when the stream was asked for (``time.monotonic``)

    async def changes(self):
        self.asked = time.monotonic()
        reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        self.writer.write(
            f"GET {self.t.path('/stream')} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"X-Table-Key: {self.t.key}\r\nAccept: text/event-stream\r\n\r\n".encode()
        )
        status = await reader.readline()
        if not status.startswith(b"HTTP/1.1 200"):
            raise StreamRefused(status)
        while (await reader.readline()) not in (b"\r\n", b""):
            pass  # headers: gunicorn streams it chunked
        text = ""
        while True:
            size_line = await reader.readline()
            if not size_line:
                return
            size = int(size_line.split(b";")[0], 16)
            if size == 0:
                return
            text += (await reader.readexactly(size + 2))[:-2].decode()
            while "\n\n" in text:
                block, text = text.split("\n\n", 1)
                for line in block.splitlines():
                    if line.startswith("data: "):
                        yield json.loads(line[6:])

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


# -- what the phones do ------------------------------------------------------------------------


@dataclass
class TableSim:
    """A table as the simulation knows it: ids, secret, the live hand, the seq last seen."""

    id: str
    key: str
    hand: int
    seq: int = 0
    version: int = 0
    hands: int = 1

    def path(self, tail: str = "") -> str:
        return f"/api/v1/tables/{self.id}{tail}"


@dataclass
class Stats:
    latencies: dict[str, list[float]] = field(default_factory=lambda: {k: [] for k in KINDS})
    errors: dict[str, int] = field(default_factory=dict)
    # The update latency: when a tap was acknowledged, and when each other phone showed it.
    acked: dict[tuple[str, int], tuple[float, int]] = field(default_factory=dict)
    shown: dict[tuple[str, int, int], float] = field(default_factory=dict)
    streams_opened: int = 0
    # Taps that waited for the phone's first sight of the hand (its stream's first document).
    held: int = 0
    answered: list[tuple[float, float]] = field(default_factory=list)  # (when answered, seconds taken)
    # Each stream's first document: (when it came, seconds from asking for the stream). After a
    # restart every phone opens its stream at once; how long the last one waits is the burst's length.
    first_documents: list[tuple[float, float]] = field(default_factory=list)
    # The connects inside requests (a new connection: the first, or after the keep-alive ran out):
    # a request's time includes its wait to be accepted.
    connects: list[float] = field(default_factory=list)

    def ack(self, table: str, version: int, phone: int) -> None:
        self.acked[(table, version)] = (time.perf_counter(), phone)

    def show(self, table: str, before: int, now: int, phone: int) -> None:
        """Phone ``phone`` shows table ``table`` at version ``now`` (it showed ``before``)."""
        at = time.perf_counter()
        for version in range(before + 1, now + 1):
            self.shown.setdefault((table, version, phone), at)

    def update_latency(self) -> dict | None:
        """From a tap's acknowledgement to each other phone showing it (0 when it was shown first)."""
        xs = [
            max(0.0, seen - self.acked[(table, version)][0])
            for (table, version, phone), seen in self.shown.items()
            if (table, version) in self.acked and self.acked[(table, version)][1] != phone
        ]
        return figures(xs, 1.0) if xs else None

    def add(self, kind: str, seconds: float) -> None:
        self.latencies[kind].append(seconds)
        if kind != "stream":
            self.answered.append((time.monotonic(), seconds))

    def slow_by_bin(self, t0: float, seconds: float, width: float = 2.0, over: float = 0.1) -> list[int]:
        """Requests slower than ``over`` s in each ``width``-second bin from ``t0``: when the
        slow ones came (the paced phase's first seconds open every stream at once)."""
        bins = [0] * max(1, int(-(-seconds // width)))
        for at, took in self.answered:
            if took > over:
                bins[min(len(bins) - 1, max(0, int((at - took - t0) // width)))] += 1
        return bins

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1

    def summary(self, seconds: float) -> dict:
        out = {}
        every: list[float] = []
        for kind, xs in self.latencies.items():
            if xs:
                out[kind] = figures(xs, seconds)
                if kind != "stream":  # an announcement received, not a request answered
                    every += xs
        out["all"] = figures(every, seconds) if every else None
        return out


def figures(xs: list[float], seconds: float) -> dict:
    xs = sorted(xs)

    def pct(q: float) -> float:
        return round(xs[min(len(xs) - 1, int(q * len(xs)))] * 1000, 2)

    return {
        "count": len(xs),
        "per_s": round(len(xs) / seconds, 1),
        "p50_ms": pct(0.50),
        "p95_ms": pct(0.95),
        "p99_ms": pct(0.99),
        "max_ms": round(xs[-1] * 1000, 2),
    }


class Mix:
    """The requests of a phone at a table, each timed and checked."""

    def __init__(self, script: list[dict], stats: Stats):
        self.script, self.stats = script, stats

    async def _timed(self, conn: Conn, kind: str, method: str, path: str, body=None, key=None):
        start = time.perf_counter()
        conn.connect_s = 0.0
        try:
            status, data = await conn.request(method, path, body, key)
        except (OSError, asyncio.IncompleteReadError, ValueError) as err:
            self.stats.error(f"{kind}: {type(err).__name__}")
            return None, None
        elapsed = time.perf_counter() - start
        if conn.connect_s:
            self.stats.connects.append(conn.connect_s)
        return status, (data, elapsed)

    async def poll(self, conn: Conn, t: TableSim) -> int | None:
        """The table's version."""
        status, answer = await self._timed(conn, "poll", "GET", t.path("/version"), key=t.key)
        if status != 200:
            return self._unexpected("poll", status, answer)
        data, elapsed = answer
        self.stats.add("poll", elapsed)
        return json.loads(data)["version"]

    def pushed(self, t: TableSim, seen: dict, change: dict, phone: int) -> bool:
        """Take a change the stream carried (the hand's log and state): True when it was the hand
        this phone follows, so no fetch is needed."""
        if change.get("hand") != t.hand or "seq" not in change:
            return False
        self.stats.show(t.id, seen["version"], change["version"], phone)
        seen.update(seq=change["seq"], version=change["version"])
        return True

    async def refresh(self, conn: Conn, t: TableSim, seen: dict, phone: int | None = None) -> None:
        status, answer = await self._timed(conn, "refresh", "GET", t.path(f"/hands/{t.hand}/events"), key=t.key)
        if status != 200:
            return self._unexpected("refresh", status, answer)
        data, elapsed = answer
        self.stats.add("refresh", elapsed)
        body = json.loads(data)
        if phone is not None:
            self.stats.show(t.id, seen["version"], body["version"], phone)
        seen.update(seq=body["seq"], version=body["version"])

    async def append(self, conn: Conn, t: TableSim, seen: dict, phone: int | None = None) -> None:
        """Tap in the hand's next event as this phone sees it; start a new hand after the last."""
        seq, hand = seen["seq"], t.hand
        if seq >= len(self.script):
            return await self.new_hand(conn, t, seen)
        body = {"seq": seq, "event": self.script[seq]}
        status, answer = await self._timed(conn, "append", "POST", t.path(f"/hands/{hand}/events"), body, t.key)
        if status not in (201, 409):
            return self._unexpected("append", status, answer)
        data, elapsed = answer
        reply = json.loads(data)
        if status == 409 and reply["errors"][0]["code"] not in ("conflict", "hand_over"):
            return self._unexpected("append", status, answer)
        self.stats.add("append" if status == 201 else "conflict", elapsed)
        if status == 201 and phone is not None:
            self.stats.ack(t.id, reply["version"], phone)
        if hand == t.hand:
            if phone is not None:
                self.stats.show(t.id, seen["version"], reply["version"], phone)
            seen.update(seq=reply["seq"], version=reply["version"])
            t.seq, t.version = max(t.seq, reply["seq"]), max(t.version, reply["version"])

    async def new_hand(self, conn: Conn, t: TableSim, seen: dict) -> None:
        status, answer = await self._timed(
            conn, "new_hand", "POST", t.path("/hands"), {"log": {}, "count": t.hands}, t.key
        )
        if status not in (201, 409):
            return self._unexpected("new_hand", status, answer)
        data, elapsed = answer
        self.stats.add("new_hand" if status == 201 else "conflict", elapsed)
        if status == 201:
            t.hand, t.hands, t.seq = json.loads(data)["id"], t.hands + 1, 0
            seen.update(seq=0, version=0)

    def _unexpected(self, kind: str, status: int | None, answer) -> None:
        if status is not None:
            detail = answer[0][:120].decode("utf-8", "replace") if answer else ""
            self.stats.error(f"{kind}: HTTP {status} {detail}")


def on_current_hand(t: TableSim, seen: dict) -> None:
    """The phone turns to the table's hand when another phone started the next one."""
    if t.hand != seen["hand"]:
        seen.update(seq=0, hand=t.hand)


async def paced_phone(mix: Mix, port: int, t: TableSim, stop_at: float, tap_chance: float, phone: int) -> int:
    """The poll model: poll every 1–2 s; refresh when the version moved; now and then tap in an event."""
    conn, seen = Conn(port), {"seq": 0, "version": t.version, "hand": t.hand}
    await asyncio.sleep(random.uniform(0, 2))  # phones do not start in step
    try:
        while time.monotonic() < stop_at:
            on_current_hand(t, seen)
            version = await mix.poll(conn, t)
            if version is not None and version != seen["version"]:
                await mix.refresh(conn, t, seen, phone)
            if random.random() < tap_chance:
                await mix.append(conn, t, seen, phone)
            await asyncio.sleep(random.uniform(1.0, 2.0))
    finally:
        conn.close()
    return conn.reopened


async def shown_in_time(shown: asyncio.Event, stop_at: float, stats: Stats) -> bool:
    """Whether the phone has been shown the hand, waiting for it (the player waits for the page)
    until the run ends; a tap that waited is counted."""
    if shown.is_set():
        return True
    stats.held += 1
    try:
        await asyncio.wait_for(shown.wait(), timeout=max(0.0, stop_at - time.monotonic()))
    except TimeoutError:
        return False
    return True


async def push_phone(mix: Mix, port: int, t: TableSim, stop_at: float, tap_chance: float, phone: int) -> int:
    """The push model: a stream open all along, which carries each change of the live hand (a
    refresh only when it announces a version alone: another hand, or none live), and the same
    taps as the poll model's phone (one request connection, used by one task at a time)."""
    conn, seen = Conn(port), {"seq": 0, "version": t.version, "hand": t.hand}
    busy = asyncio.Lock()
    # A phone taps on a hand it has been shown: the page's tap buttons come with its state. Until
    # the stream's first document, this phone has seen no log, and a tap would carry a length it
    # never saw (a conflict no player could make).
    shown = asyncio.Event()

    async def follow() -> None:
        await asyncio.sleep(random.uniform(0, 2))  # phones do not open the page in step
        while time.monotonic() < stop_at:
            stream = Stream(port, t)
            mix.stats.streams_opened += 1  # more than one a phone: a stream ended early and reconnected
            first = True
            try:
                async for change in stream.changes():
                    mix.stats.add("stream", 0.0)
                    if first:
                        first, now = False, time.monotonic()
                        mix.stats.first_documents.append((now, now - stream.asked))
                    if change["version"] > seen["version"]:
                        async with busy:
                            on_current_hand(t, seen)
                            if change["version"] > seen["version"] and not mix.pushed(t, seen, change, phone):
                                await mix.refresh(conn, t, seen, phone)
                    shown.set()
            except (OSError, asyncio.IncompleteReadError, ValueError) as err:
                refused = f" {err.status}" if isinstance(err, StreamRefused) else ""
                mix.stats.error(f"stream: {type(err).__name__}{refused}")
                await asyncio.sleep(1.0)  # EventSource's retry
            finally:
                stream.close()

    async def tap() -> None:
        await asyncio.sleep(random.uniform(0, 2))
        while time.monotonic() < stop_at:
            await asyncio.sleep(random.uniform(1.0, 2.0))
            if random.random() < tap_chance:
                if not await shown_in_time(shown, stop_at, mix.stats):
                    return
                async with busy:
                    on_current_hand(t, seen)
                    await mix.append(conn, t, seen, phone)

    follower = asyncio.ensure_future(follow())
    try:
        await tap()
    finally:
        follower.cancel()
        await asyncio.gather(follower, return_exceptions=True)
        conn.close()
    return conn.reopened


async def saturating_client(
    mix: Mix, port: int, tables: list[TableSim], weights: dict[str, float], stop_at: float
) -> None:
    """Requests back to back, kinds drawn in the paced mix's proportions."""
    conn = Conn(port, SATURATED_REUSE)
    kinds, cum = list(weights), list(weights.values())
    try:
        while time.monotonic() < stop_at:
            t = random.choice(tables)
            kind = random.choices(kinds, cum)[0]
            seen = {"seq": t.seq, "version": t.version}
            if kind == "poll":
                await mix.poll(conn, t)
            elif kind == "refresh":
                await mix.refresh(conn, t, seen)
            else:
                await mix.append(conn, t, seen)
    finally:
        conn.close()


async def saturating_hello(stats: Stats, port: int, stop_at: float) -> None:
    conn = Conn(port, SATURATED_REUSE)
    try:
        while time.monotonic() < stop_at:
            start = time.perf_counter()
            try:
                status, _ = await conn.request("GET", "/")
            except (OSError, asyncio.IncompleteReadError) as err:
                stats.error(f"hello: {type(err).__name__}")
                continue
            if status == 200:
                stats.add("hello", time.perf_counter() - start)
            else:
                stats.error(f"hello: HTTP {status}")
    finally:
        conn.close()


# -- seeding -----------------------------------------------------------------------------------


def summary_won_by_a() -> dict:
    return {"captures": {"A": ["1g", "3g", "8g"]}, "outcome": {"type": "stop", "winner": "A"}}


async def seed_tables(port: int, count: int, rng: random.Random) -> list[TableSim]:
    """Tables made through the API: 0–4 finished hands (A wins and keeps dealing), a live hand."""
    tables: list[TableSim] = []

    async def make(indices: list[int]) -> None:
        conn = Conn(port)
        try:
            for i in indices:
                status, data = await conn.request(
                    "POST", "/api/v1/tables", {"name": f"load {i}", "players": PLAYERS, "first_dealer": "A"}
                )
                assert status == 201, data
                created = json.loads(data)
                t = TableSim(created["id"], created["edit_key"], 0)
                for _ in range(rng.randint(0, 4)):
                    status, data = await conn.request("POST", t.path("/hands"), {"summary": summary_won_by_a()}, t.key)
                    assert status == 201, data
                    t.hands += 1
                status, data = await conn.request("POST", t.path("/hands"), {"log": {}}, t.key)
                assert status == 201, data
                t.hand = json.loads(data)["id"]
                tables.append(t)
        finally:
            conn.close()

    await asyncio.gather(*(make(list(range(i, count, 4))) for i in range(4)))
    return tables


def seed_events(
    database_url: str, tables: list[TableSim], script: list[dict], rng: random.Random, kept_states: bool = True
) -> None:
    """Put each live hand 0–50 events along, as the API would have stored them, in one transaction."""
    from sqlalchemy import insert, update

    from scorekeeper.store.db import make_engine
    from scorekeeper.store.models import Event, Table, utcnow

    engine = make_engine(database_url)
    try:
        with engine.begin() as conn:
            for t in tables:
                n = rng.randint(0, 50)
                if n:
                    conn.execute(
                        insert(Event),
                        [{"hand_id": t.hand, "seq": s, "event": script[s], "created_at": utcnow()} for s in range(n)],
                    )
                    conn.execute(update(Table).where(Table.public_id == t.id).values(version=Table.version + n))
                t.seq = n
        if kept_states:
            keep_states(engine, tables)
    finally:
        engine.dispose()


def keep_states(engine, tables: list[TableSim]) -> None:
    """Each live hand's state kept with its table's version, as the appends that made its log
    would have stored it (``store.snapshots``): a server restarted over a played evening finds
    them. Left out with ``--no-kept-states`` (a database from before they were kept), and by
    code that does not keep them."""
    try:
        from scorekeeper.store import snapshots
    except ImportError:  # the code before the kept states: nothing to keep
        return
    from sqlalchemy.orm import Session

    from scorekeeper.store import rows
    from scorekeeper.tables import service

    with Session(engine) as session:
        for t in tables:
            table = rows.get_table(session, t.id)
            state = service.load(session, table)
            if state.live is not None and state.live.events:
                setup, kept = service.snapshot_of(state.live.setup, state.live.state)
                snapshots.keep(session.connection(), state.live.hand.id, table.version, state.live.seq, setup, kept)
        session.commit()


# -- the phases --------------------------------------------------------------------------------


def weights_of(paced: dict) -> dict[str, float]:
    """The saturated mix: the paced phase's poll : refresh : append proportions."""
    taps = sum(paced[k]["count"] for k in ("append", "conflict", "new_hand") if k in paced)
    return {"poll": paced["poll"]["count"], "refresh": paced.get("refresh", {"count": 0})["count"], "append": taps}


async def run_app(args, db: str, database_url: str, script: list[dict], workdir: str, hello: Gunicorn) -> dict:
    # The tables would come from a hundred phones; from one loopback address the app would
    # (rightly) refuse most of them, so its budget for creating tables is raised, and so is the
    # number of push streams one address may hold (every phone here is 127.0.0.1). Every other
    # setting, the rate limiter's work on each request included, is the app's own.
    env = {
        "DATABASE_URL": database_url,
        "SECRET_KEY": "load-benchmark",
        "SCOREKEEPER_RATELIMIT_CREATE": "100000/hour",
        "SCOREKEEPER_PUSH_STREAMS_PER_ADDRESS": "1000000",
    }
    log = os.path.join(workdir, f"gunicorn-{db}.log")

    def start_server() -> Gunicorn:  # the same app, settings and log before and after the restart
        return Gunicorn("scorekeeper.web:create_app()", env, log)

    server = start_server()
    try:
        server.wait_ready("/api/v1/openapi.json")
        rng = random.Random(args.seed)
        start = time.monotonic()
        tables = await seed_tables(server.port, args.tables, rng)
        seed_events(database_url, tables, script, rng, not args.no_kept_states)
        seeded = time.monotonic() - start
        # The evening played, then the server restarted: every phone's stream opens at once on
        # processes that keep nothing. Not restarted, the workers kept the rows of the tables
        # they had just made, at the versions before the seeded events (written past them), and
        # caught each up by replaying those events: an open that no server meets, neither after
        # a restart nor after an evening whose every tap it stored.
        restart = time.monotonic()
        server.stop()
        server = start_server()
        server.wait_ready("/api/v1/openapi.json")
        restarted = time.monotonic() - restart
        stats = Stats()
        mix = Mix(script, stats)
        tap_chance = 1.5 / (args.event_every * args.phones)  # a tick is 1.5 s on average
        cpu0, client0, t0 = server.cpu_seconds(), time.process_time(), time.monotonic()
        stop_at = t0 + args.duration
        phone_of = push_phone if args.model == "push" else paced_phone
        # The server's CPU second by second: the opening burst (every stream opening at once, as
        # after a restart) against the steady taps after it.
        cpu_by_s: list[float] = []

        async def sample() -> None:
            last = cpu0
            while time.monotonic() < stop_at:
                await asyncio.sleep(1.0)
                now = server.cpu_seconds()
                cpu_by_s.append(round(now - last, 2))
                last = now

        # The load generator's own lag: how late its loop wakes a 10 ms sleep, the most in each
        # 2-second bin. One process holds every phone: while it reads 3,000 first events its taps'
        # answers wait in its loop too, and a request's time as measured here includes that wait.
        lag_by_2s = [0.0] * max(1, int(-(-args.duration // 2)))

        async def lag() -> None:
            while time.monotonic() < stop_at:
                asked = time.monotonic()
                await asyncio.sleep(0.01)
                woke = time.monotonic()
                at = min(len(lag_by_2s) - 1, int((asked - t0) // 2))
                lag_by_2s[at] = max(lag_by_2s[at], round(1000 * (woke - asked - 0.01), 1))

        sampler = asyncio.ensure_future(sample())
        lagging = asyncio.ensure_future(lag())
        generator_gc_off()
        reopened = await asyncio.gather(
            *(
                phone_of(mix, server.port, t, stop_at, tap_chance, i * args.phones + p)
                for i, t in enumerate(tables)
                for p in range(args.phones)
            )
        )
        wall = time.monotonic() - t0
        sampler.cancel()
        lagging.cancel()
        generator_gc_on()
        paced = stats.summary(args.duration)
        paced_cpu = {
            "server_cpu_s": round(server.cpu_seconds() - cpu0, 2),
            "client_cpu_share": round((time.process_time() - client0) / wall, 2),
            # Request connections opened: a phone idle longer than the server's keep-alive
            # (5 s) opens a new one for its next request. Streams: one a phone unless they end.
            "reconnects": sum(reopened),
            "streams_opened": stats.streams_opened,
            "first_taps_held": stats.held,
            "errors": stats.errors,
            "loadavg": os.getloadavg()[0],
            "slow_by_2s": stats.slow_by_bin(t0, args.duration),
            "server_cpu_by_s": cpu_by_s,
            "client_lag_max_ms_by_2s": lag_by_2s,
            "connects": figures(stats.connects, args.duration) if stats.connects else None,
            "taps": sum(paced[k]["count"] for k in ("append", "conflict", "new_hand") if k in paced),
        }
        # A stream's first document: how long a phone waited for it, and when the last came.
        firsts = stats.first_documents
        paced_cpu["first_documents"] = figures([took for _at, took in firsts], args.duration) if firsts else None
        paced_cpu["last_first_document_s"] = round(max(at for at, _took in firsts) - t0, 2) if firsts else None
        taps_ok = sum(paced[k]["count"] for k in ("append", "new_hand") if k in paced)
        paced_cpu["cpu_ms_a_tap"] = round(1000 * paced_cpu["server_cpu_s"] / taps_ok, 2) if taps_ok else None
        update = stats.update_latency()

        # What one request of a kind costs the server: that kind alone, back to back.
        costs = {}
        for kind in ("poll", "append"):
            mix.stats = Stats()
            run = await saturate(
                server,
                args,
                mix.stats,
                lambda stop_at, kind=kind: [
                    saturating_client(mix, server.port, tables, {kind: 1.0}, stop_at) for _ in range(args.connections)
                ],
                seconds=args.cost_seconds,
            )
            served = run["summary"]["all"]["count"]
            costs[kind] = {
                "count": served,
                "server_cpu_s": run["info"]["server_cpu_s"],
                "cpu_ms": round(1000 * run["info"]["server_cpu_s"] / served, 3) if served else None,
            }

        # The mix and the ceiling take turns, so that a neighbour's burst on a shared machine
        # falls on both alike; the best round of each is kept.
        weights = weights_of(paced) if args.model == "poll" else POLL_MODEL_WEIGHTS
        mixes, hellos = [], []
        for _ in range(args.rounds):
            mix.stats = Stats()
            mixes.append(
                await saturate(
                    server,
                    args,
                    mix.stats,
                    lambda stop_at: [
                        saturating_client(mix, server.port, tables, weights, stop_at) for _ in range(args.connections)
                    ],
                )
            )
            hello_stats = Stats()
            hellos.append(
                await saturate(
                    hello,
                    args,
                    hello_stats,
                    lambda stop_at, stats=hello_stats: [
                        saturating_hello(stats, hello.port, stop_at) for _ in range(args.connections)
                    ],
                )
            )
        best = max(mixes, key=lambda r: r["summary"]["all"]["per_s"])
        ceiling = max(hellos, key=lambda r: r["summary"]["all"]["per_s"])
        return {
            "db": db,
            "tables": args.tables,
            "phones": args.phones,
            "seed_s": round(seeded, 1),
            "restart_s": round(restarted, 2),
            "model": args.model,
            "server": SERVER,
            "update": update,
            "costs": costs,
            "paced": paced,
            "paced_info": paced_cpu,
            "weights": weights,
            "saturated": best["summary"],
            "saturated_info": best["info"],
            "hello": ceiling["summary"],
            "hello_info": ceiling["info"],
            "rounds": {
                "mix_per_s": [r["summary"]["all"]["per_s"] for r in mixes],
                "hello_per_s": [r["summary"]["all"]["per_s"] for r in hellos],
            },
            "ratio": round(best["summary"]["all"]["per_s"] / ceiling["summary"]["all"]["per_s"], 3),
        }
    finally:
        server.stop()


def generator_gc_off() -> None:
    """This process's garbage collector out of a timed phase: what it holds is frozen (never
    scanned again) and nothing is collected until the phase ends. Its pauses were the load
    generator's, not the server's, yet counted in every request waiting meanwhile: in a
    1,000-table run, seven full collections of up to 441 ms in the opening burst's first 6 s and a
    100-ms one every 2 s after it (gc.callbacks, 2026-11-28), 4 s of a 30-s paced phase."""
    gc.collect()
    gc.freeze()
    gc.disable()


def generator_gc_on() -> None:
    gc.enable()
    gc.unfreeze()
    gc.collect()


async def saturate(server: Gunicorn, args, stats: Stats, clients, seconds: float | None = None) -> dict:
    """Run ``clients(stop_at)`` for ``--saturate`` seconds: their figures and the CPU they took."""
    generator_gc_off()
    cpu0, client0, t0 = server.cpu_seconds(), time.process_time(), time.monotonic()
    await asyncio.gather(*clients(t0 + (seconds or args.saturate)))
    wall = time.monotonic() - t0
    generator_gc_on()
    return {
        "summary": stats.summary(wall),
        "info": {
            "server_cpu_s": round(server.cpu_seconds() - cpu0, 2),
            "client_cpu_share": round((time.process_time() - client0) / wall, 2),
            "errors": stats.errors,
        },
    }


# -- databases ---------------------------------------------------------------------------------


def postgres_unreachable() -> str | None:
    try:
        import psycopg

        with psycopg.connect(PG_URL.replace("postgresql+psycopg://", "postgresql://"), connect_timeout=3) as conn:
            conn.execute("select 1")
    except Exception as err:  # any failure to connect means: skip PostgreSQL
        return f"{type(err).__name__}: {err}".strip()
    return None


class PostgresSchema:
    """A fresh schema for one run, dropped afterwards."""

    def __enter__(self) -> str:
        import psycopg

        self.raw = PG_URL.replace("postgresql+psycopg://", "postgresql://")
        self.schema = f"sk_load_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.raw, autocommit=True) as conn:
            conn.execute(f'create schema "{self.schema}"')
        sep = "&" if "?" in PG_URL else "?"
        return f"{PG_URL}{sep}options=-csearch_path%3D{self.schema}"

    def __exit__(self, *_exc) -> None:
        import psycopg

        with psycopg.connect(self.raw, autocommit=True) as conn:
            conn.execute(f'drop schema "{self.schema}" cascade')


# -- the report --------------------------------------------------------------------------------


def table_lines(summary: dict) -> list[str]:
    lines = [f"    {'kind':10} {'count':>7} {'req/s':>8} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'max ms':>8}"]
    for kind in (*KINDS, "all"):
        f = summary.get(kind)
        if f:
            lines.append(
                f"    {kind:10} {f['count']:>7} {f['per_s']:>8} {f['p50_ms']:>8} {f['p95_ms']:>8} "
                f"{f['p99_ms']:>8} {f['max_ms']:>8}"
            )
    return lines


def report(results: dict) -> None:
    m, a = results["machine"], results["args"]
    served = (
        f"gunicorn gthread {m['workers']} workers × {m['threads']} threads"
        if a["server"] == "gthread"
        else f"gunicorn gevent {m['workers']} workers (scorekeeper/web/server/serving.py)"
    )
    print(
        f"load: {m['date']}  {m['machine']}, {m['cores']} cores, CPython {m['python']}; "
        f"{served}; {m['connections']} connections saturating; "
        f"load average {m['loadavg_before'][0]:.2f} before, {m['loadavg_after'][0]:.2f} after"
    )
    for run in results["runs"]:
        info = run["paced_info"]
        print(f"\n{run['db']}: {run['tables']} tables × {run['phones']} phones (seeded in {run['seed_s']} s)")
        how = "each phone follows a push stream" if run["model"] == "push" else "polls every 1–2 s"
        print(
            f"  paced, {a['duration']} s: {how}, an event every ~{a['event_every']} s a table  "
            f"(server CPU {info['server_cpu_s']} s, client CPU {info['client_cpu_share']:.0%}, "
            f"request connections opened {info['reconnects']}, streams opened {info.get('streams_opened', 0)}, "
            f"taps held until the hand was shown {info.get('first_taps_held', '–')}, "
            f"load average {info['loadavg']:.2f})"
        )
        print("\n".join(table_lines(run["paced"])))
        if "slow_by_2s" in info:
            print(f"  requests over 100 ms, by 2-second bin from the start: {info['slow_by_2s']}")
        if "client_lag_max_ms_by_2s" in info:
            print(
                f"  the load generator's loop late by at most (ms), by 2-second bin: {info['client_lag_max_ms_by_2s']}"
            )
        if info.get("connects"):
            k = info["connects"]
            print(
                f"  connects within those requests: {k['count']}, p50 {k['p50_ms']} ms, p95 {k['p95_ms']} ms, "
                f"p99 {k['p99_ms']} ms, max {k['max_ms']} ms"
            )
        if info.get("first_documents"):
            k = info["first_documents"]
            print(
                f"  a stream's first document: {k['count']}, p50 {k['p50_ms']} ms, p95 {k['p95_ms']} ms, "
                f"p99 {k['p99_ms']} ms, max {k['max_ms']} ms from asking; the last {info['last_first_document_s']} s "
                "after the start"
            )
        if "server_cpu_by_s" in info:
            print(
                f"  server CPU by second from the start: {info['server_cpu_by_s']}; "
                f"{info['cpu_ms_a_tap']} ms of server CPU per tap stored, all in ({info['taps']} taps tried)"
            )
        u = run["update"]
        if u:
            print(
                f"  update latency, a tap acknowledged → another phone shows it: {u['count']} sightings, "
                f"p50 {u['p50_ms']} ms, p95 {u['p95_ms']} ms, p99 {u['p99_ms']} ms, max {u['max_ms']} ms"
            )
        c = run["costs"]
        print(
            f"  server CPU, each kind alone back to back for {a['cost_seconds']} s: "
            f"{c['poll']['cpu_ms']} ms a poll ({c['poll']['count']}), "
            f"{c['append']['cpu_ms']} ms an append ({c['append']['count']})"
        )
        for name, key in (("saturated, the same mix back to back", "saturated"), ("hello ceiling", "hello")):
            info = run[f"{key}_info"]
            print(
                f"  {name}, best of {a['rounds']} × {a['saturate']} s (server CPU {info['server_cpu_s']} s, "
                f"client CPU {info['client_cpu_share']:.0%})"
            )
            print("\n".join(table_lines(run[key])))
        for phase in ("paced_info", "saturated_info", "hello_info"):
            if run[phase]["errors"]:
                print(f"  errors ({phase.split('_')[0]}): {run[phase]['errors']}")
        print(f"  rounds: mix {run['rounds']['mix_per_s']} req/s, hello {run['rounds']['hello_per_s']} req/s")
    print()
    for run in results["runs"]:
        worst = max((f["p99_ms"] for k, f in run["paced"].items() if k not in ("all", "stream")), default=None)
        print(
            f"{run['db']}: saturated mix {run['saturated']['all']['per_s']} req/s / hello "
            f"{run['hello']['all']['per_s']} req/s = {run['ratio']:.2f} (goal ≥ 0.5); "
            f"paced p99 {(run['paced']['all'] or {}).get('p99_ms')} ms, worst kind p99 "
            f"{worst} ms, appends p99 {run['paced'].get('append', {}).get('p99_ms')} ms (goal < 50 ms); "
            f"update p95 {(run['update'] or {}).get('p95_ms')} ms (goal < 300 ms); "
            f"CPU {run['costs']['append']['cpu_ms']} ms an append (goal ≤ 2), "
            f"{run['costs']['poll']['cpu_ms']} ms a poll (goal ≤ 0.5)"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--phones", type=int, default=3, help="phones following each table")
    parser.add_argument(
        "--event-every", type=float, default=5.0, metavar="S", help="seconds between two events of a table, on average"
    )
    parser.add_argument("--duration", type=float, default=30.0, metavar="S", help="the paced phase")
    parser.add_argument("--saturate", type=float, default=10.0, metavar="S", help="each saturated phase")
    parser.add_argument("--rounds", type=int, default=2, help="saturated rounds, mix and hello taking turns")
    parser.add_argument("--connections", type=int, default=16, help="connections of the saturated phases")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument(
        "--model",
        choices=["push", "poll"],
        default="push",
        help="push: each phone follows its table's stream; poll: every 1–2 s (the fallback)",
    )
    parser.add_argument(
        "--server",
        choices=["gevent", "gthread"],
        default="gevent",
        help="gevent: scorekeeper serve's configuration; gthread: the one before it",
    )
    parser.add_argument(
        "--cost-seconds",
        type=float,
        default=5.0,
        metavar="S",
        help="each of the runs that measure the server CPU of one poll and of one append",
    )
    parser.add_argument(
        "--no-kept-states",
        action="store_true",
        help="seed the live hands without their kept states (a database from before they were kept)",
    )
    parser.add_argument("--short", action="store_true", help="a few seconds, for CI: 10 tables, 3 s + 2 × 2 s")
    parser.add_argument("--json", metavar="FILE", help="write the figures as JSON")
    parser.add_argument("--logs", metavar="DIR", help="keep the servers' logs (and the SQLite file) in DIR")
    args = parser.parse_args(argv)
    # Stopped from outside: unwind, so the servers are stopped and the PostgreSQL schema dropped.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if args.short:
        args.tables, args.duration, args.saturate, args.rounds = min(args.tables, 10), 3.0, 2.0, 1
        # Taps often enough that 3 s of 10 tables surely make some that other phones see (at one
        # every 5 s a table, a run could end with none seen: no update latency to report).
        args.event_every = min(args.event_every, 1.0)
        args.cost_seconds = 1.0
    global SERVER, KEEPALIVE_REUSE
    SERVER = args.server
    sys.path.insert(0, ROOT)
    from scorekeeper.web.server import serving

    # Gunicorn's keep-alive (2 s), or serving.py's, less a margin: a phone idle longer reconnects.
    KEEPALIVE_REUSE = 1.8 if SERVER == "gthread" else serving.keepalive - 0.5
    from hand import sixty_events

    script = sixty_events()
    dbs = ["sqlite", "postgres"] if args.db == "both" else [args.db]
    if "postgres" in dbs:
        reason = postgres_unreachable()
        if reason:
            if args.db == "postgres":
                print(f"PostgreSQL not reachable at {PG_URL}: {reason}", file=sys.stderr)
                return 1
            print(f"skipping PostgreSQL, not reachable at {PG_URL}: {reason}", file=sys.stderr)
            dbs.remove("postgres")

    results = {
        "machine": {
            "date": str(date.today()),
            "machine": platform.machine(),
            "cores": os.cpu_count(),
            "python": platform.python_version(),
            "workers": int(os.environ.get("SCOREKEEPER_WORKERS", "2")),
            "threads": int(os.environ.get("SCOREKEEPER_THREADS", "4")),
            "connections": args.connections,
            "loadavg_before": os.getloadavg(),
        },
        "args": vars(args),
        "runs": [],
    }
    if args.logs:
        os.makedirs(args.logs, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="sk-load-") as tmp:
        workdir = args.logs or tmp
        hello = Gunicorn("load:hello_app()", {}, os.path.join(workdir, "gunicorn-hello.log"))
        try:
            hello.wait_ready("/")
            for db in dbs:
                if db == "sqlite":
                    url = f"sqlite:///{os.path.join(workdir, 'load.db')}"
                    results["runs"].append(asyncio.run(run_app(args, db, url, script, workdir, hello)))
                else:
                    with PostgresSchema() as url:
                        results["runs"].append(asyncio.run(run_app(args, db, url, script, workdir, hello)))
        finally:
            hello.stop()
    results["machine"]["loadavg_after"] = os.getloadavg()
    if args.json:  # first: a report that fails loses no figures
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
    report(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
