"""A flood of push streams from one address against the real server (issue 23, item 1).

Tables are free to create and a stream lived 300 s with no cap per client: 120 streams from one
client took every connection of a server with ``SCOREKEEPER_CONNECTIONS=50`` and ``/healthz``
timed out; opened and closed at once, they still held their connections until the next
heartbeat. Now a table holds at most ``PUSH_STREAMS_PER_TABLE`` streams per worker (the
rest are a coded 429, and the connection is closed), and a stream whose phone has gone is let go
within ``GONE_CHECK_S``. The flood comes from one address, the others from other addresses
(``X-Forwarded-For`` through one trusted proxy), all on ``scorekeeper serve``.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from pathlib import Path

from .test_server import env, free_port, stop, wait_up  # noqa: F401  (env is a fixture)

ROOT = Path(__file__).resolve().parents[2]
FLOOD = 120
WITHIN_S = 1.0
FLOODER, PHONE = "203.0.113.7", "198.51.100.9"


def _request(port: int, path: str, headers: dict[str, str], method: str = "GET", body: bytes = b"") -> bytes:
    lines = [
        f"{method} {path} HTTP/1.1",
        "Host: 127.0.0.1",
        "Connection: close",
        f"Content-Length: {len(body)}",
        *(f"{k}: {v}" for k, v in headers.items()),
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def _timed(port: int, path: str, headers: dict[str, str], until: bytes) -> float:
    """Seconds for a fresh connection to get ``until`` in a 200 answer (inf when it does not)."""
    start = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=3) as s:
            s.settimeout(3)
            s.sendall(_request(port, path, headers))
            data = b""
            while until not in data:
                chunk = s.recv(4096)
                if not chunk:
                    break
                data += chunk
    except OSError:
        return float("inf")
    return time.monotonic() - start if data.startswith(b"HTTP/1.1 200") and until in data else float("inf")


def _create(port: int, address: str) -> dict:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        body = json.dumps({"players": ["A", "B", "C"]}).encode()
        s.sendall(
            _request(
                port, "/api/v1/tables", {"Content-Type": "application/json", "X-Forwarded-For": address}, "POST", body
            )
        )
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    return json.loads(data.split(b"\r\n\r\n", 1)[1])


def _flood(port: int, table: dict) -> list[socket.socket]:
    """``FLOOD`` streams of one table from one address, held open and never read."""
    socks = []
    request = _request(
        port, f"/api/v1/tables/{table['id']}/stream", {"X-Table-Key": table["view_key"], "X-Forwarded-For": FLOODER}
    ).replace(b"Connection: close", b"Connection: keep-alive")
    for _ in range(FLOOD):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=3)
            s.sendall(request)
            socks.append(s)
        except OSError:
            break
    return socks


def _probes(port: int, other: dict, seconds: float) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {"healthz": [], "poll": [], "stream": []}
    key = {"X-Table-Key": other["edit_key"], "X-Forwarded-For": PHONE}
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        out["healthz"].append(_timed(port, "/healthz", {"X-Forwarded-For": PHONE}, b'"ok"'))
        out["poll"].append(_timed(port, f"/api/v1/tables/{other['id']}/version", key, b'"version"'))
        out["stream"].append(_timed(port, f"/api/v1/tables/{other['id']}/stream", key, b"data: "))
        time.sleep(0.3)
    return out


def _slow(probes: dict[str, list[float]]) -> dict[str, list[float]]:
    return {k: [round(p, 2) for p in v if p >= WITHIN_S] for k, v in probes.items() if any(p >= WITHIN_S for p in v)}


def test_a_stream_flood_from_one_address_leaves_the_others_served(env):
    port = free_port()
    env = env | {
        "SCOREKEEPER_CONNECTIONS": "50",
        "SCOREKEEPER_TRUSTED_PROXIES": "1",
        "SCOREKEEPER_PUSH_STREAM_SECONDS": "30",
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper.cli", "serve", "--port", str(port)],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    socks: list[socket.socket] = []
    try:
        wait_up(f"http://127.0.0.1:{port}/healthz", proc)
        theirs, other = _create(port, FLOODER), _create(port, PHONE)
        socks = _flood(port, theirs)
        time.sleep(0.5)
        held = _probes(port, other, 4.0)
        for s in socks:  # the flood hangs up at once...
            s.close()
        socks = _flood(port, theirs)  # ...and comes again, opened and closed at once
        for s in socks:
            s.close()
        socks = []
        dropped = _probes(port, other, 4.0)
    finally:
        for s in socks:
            s.close()
        stop(proc)
    assert not _slow(held), f"while one address held {FLOOD} streams: {_slow(held)}"
    assert not _slow(dropped), f"after {FLOOD} streams opened and dropped at once: {_slow(dropped)}"


def test_200_streams_from_one_address_all_stream_on_the_real_server(env):
    """Carrier-grade NAT (issue 29): a 20-per-address cap pushed 460 of 500 streams from one
    address to polling. Ten tables' phones, 20 each, all behind one address, all stream."""
    port = free_port()
    env = env | {"SCOREKEEPER_TRUSTED_PROXIES": "1", "SCOREKEEPER_PUSH_STREAM_SECONDS": "30"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper.cli", "serve", "--port", str(port)],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    socks: list[socket.socket] = []
    streaming = 0
    try:
        wait_up(f"http://127.0.0.1:{port}/healthz", proc)
        tables = [_create(port, FLOODER) for _ in range(10)]
        for t in tables:
            request = _request(
                port, f"/api/v1/tables/{t['id']}/stream", {"X-Table-Key": t["view_key"], "X-Forwarded-For": FLOODER}
            )
            for _ in range(20):
                s = socket.create_connection(("127.0.0.1", port), timeout=5)
                s.sendall(request)
                socks.append(s)
        for s in socks:
            data = b""
            while b"data: " not in data:
                chunk = s.recv(4096)
                if not chunk:
                    break
                data += chunk
            streaming += data.startswith(b"HTTP/1.1 200") and b"data: " in data
        probe = _timed(port, "/healthz", {"X-Forwarded-For": PHONE}, b'"ok"')
    finally:
        for s in socks:
            s.close()
        stop(proc)
    assert streaming == 200
    assert probe < WITHIN_S
