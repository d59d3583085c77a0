"""Slow clients against the real server (issue 10, item 3: slowloris).

A phone on a bad Wi-Fi, or an attacker, sends its request body one byte every 3 s. Each such
connection must cost the server no worker: with 50 of them held open, ``/healthz`` still
answers within a second. Run against ``scorekeeper serve`` and against the Procfile's command,
both on SQLite, as deployed.
"""

from __future__ import annotations

import contextlib
import shlex
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.web.test_server import env, free_port, stop, wait_up  # noqa: F401  (env is a fixture)

ROOT = Path(__file__).resolve().parents[2]
SLOW_CONNECTIONS = 50
BYTE_EVERY_S = 3.0
HELD_FOR_S = 10.0
HEALTHZ_WITHIN_S = 1.0


def procfile_command(port: int) -> list[str]:
    """The Procfile's ``web:`` line, with ``$PORT`` set."""
    line = next(text for text in (ROOT / "Procfile").read_text().splitlines() if text.startswith("web:"))
    words = shlex.split(line.removeprefix("web:").replace("$PORT", str(port)).replace("${PORT}", str(port)))
    assert words[0] == "gunicorn", words
    return [sys.executable, "-m", "gunicorn", *words[1:]]


def serve_command(port: int) -> list[str]:
    return [sys.executable, "-m", "scorekeeper.cli", "serve", "--port", str(port)]


class SlowClients:
    """``count`` connections each POSTing a 1 KB body, one byte every ``BYTE_EVERY_S``."""

    def __init__(self, port: int, count: int):
        self.port, self.count = port, count
        self.socks: list[socket.socket] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._drip, daemon=True)

    def __enter__(self) -> SlowClients:
        for _ in range(self.count):
            s = socket.create_connection(("127.0.0.1", self.port), timeout=5)
            s.sendall(
                b"POST /api/v1/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/json\r\nContent-Length: 1024\r\n\r\n{"
            )
            self.socks.append(s)
        self.thread.start()
        return self

    def _drip(self) -> None:
        while not self.stop.wait(BYTE_EVERY_S):
            for s in self.socks:
                with contextlib.suppress(OSError):  # a server may drop a slow client: that is allowed
                    s.sendall(b" ")

    def __exit__(self, *_exc) -> None:
        self.stop.set()
        self.thread.join(5)
        for s in self.socks:
            s.close()


def healthz_seconds(port: int) -> float:
    """Time for one fresh connection to get ``/healthz`` answered (inf when it fails)."""
    start = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=3) as s:
            s.settimeout(3)
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            data = b""
            while b'"ok"' not in data:
                chunk = s.recv(4096)
                if not chunk:
                    break
                data += chunk
    except OSError:
        return float("inf")
    return time.monotonic() - start if data.startswith(b"HTTP/1.1 200") else float("inf")


@pytest.mark.parametrize("command", [serve_command, procfile_command], ids=["serve", "procfile"])
def test_slow_clients_cost_no_worker(env, command):
    port = free_port()
    proc = subprocess.Popen(
        command(port),
        env=env | {"PORT": str(port)},
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        wait_up(f"http://127.0.0.1:{port}/healthz", proc)
        with SlowClients(port, SLOW_CONNECTIONS):
            probes = []
            deadline = time.monotonic() + HELD_FOR_S
            while time.monotonic() < deadline:
                probes.append(healthz_seconds(port))
                time.sleep(0.5)
        slow = [round(p, 2) for p in probes if p >= HEALTHZ_WITHIN_S]
        assert not slow, f"/healthz took ≥ {HEALTHZ_WITHIN_S} s in {len(slow)} of {len(probes)} probes: {slow}"
    finally:
        stop(proc)


def test_a_wait_for_the_sqlite_write_lock_costs_no_worker(env, tmp_path):
    """Another process holds SQLite's write lock (a backup, a migration, the other worker):
    the writes queue for it, and everything else is still served at once."""
    import json
    import sqlite3

    port = free_port()
    proc = subprocess.Popen(
        serve_command(port), env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        wait_up(f"http://127.0.0.1:{port}/healthz", proc)
        created = json.loads(_post(port, "/api/v1/tables", {"players": ["A", "B", "C"]})[1])
        key = created["edit_key"]
        path = env["DATABASE_URL"].removeprefix("sqlite:///")
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        results: list[int] = []
        writers = [
            threading.Thread(
                target=lambda: results.append(
                    _post(
                        port, f"/api/v1/tables/{created['id']}/hands", {"summary": {"outcome": {"type": "nagari"}}}, key
                    )[0]
                )
            )
            for _ in range(6)
        ]
        for w in writers:
            w.start()
        time.sleep(0.5)  # the writes are waiting for the lock, in both workers
        probes = [healthz_seconds(port) for _ in range(6)]
        holder.execute("ROLLBACK")
        holder.close()
        for w in writers:
            w.join(20)
        slow = [round(p, 2) for p in probes if p >= HEALTHZ_WITHIN_S]
        assert not slow, f"/healthz took ≥ {HEALTHZ_WITHIN_S} s while writes waited for the lock: {slow}"
        assert sorted(results) and all(status in (201, 409) for status in results), results
    finally:
        stop(proc)


def _post(port: int, path: str, body: dict, key: str | None = None) -> tuple[int, bytes]:
    import http.client
    import json

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        headers = {"Content-Type": "application/json"} | ({"X-Table-Key": key} if key else {})
        conn.request("POST", path, json.dumps(body), headers)
        r = conn.getresponse()
        return r.status, r.read()
    finally:
        conn.close()
