"""The real servers: ``scorekeeper serve`` and the Procfile's gunicorn, on a fresh database."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_up(url: str, proc: subprocess.Popen, seconds: float = 20) -> bytes:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"server exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                return r.read()
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"{url} did not answer")


@pytest.fixture
def env(tmp_path):
    # Rate-limit counts now outlive a server (a file in the instance folder): each test counts afresh.
    return os.environ | {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'served.db'}",
        "SECRET_KEY": "served",
        "SCOREKEEPER_WORKERS": "2",
        "RATELIMIT_STORAGE_URI": f"sqlite:///{tmp_path / 'ratelimits.db'}",
    }


def serve(env: dict) -> tuple[subprocess.Popen, int]:
    """``scorekeeper serve`` on a free port, its output piped (``stop`` answers it)."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper.cli", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    return proc, port


def stop(proc: subprocess.Popen) -> str:
    proc.send_signal(signal.SIGTERM)
    try:
        out, _ = proc.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
    return out or ""


def test_scorekeeper_serve(env):
    proc, port = serve(env)
    try:
        assert b'"ok":true' in wait_up(f"http://127.0.0.1:{port}/healthz", proc)
        assert "고스톱".encode() in wait_up(f"http://127.0.0.1:{port}/", proc)
    finally:
        out = stop(proc)
    assert f"open      http://127.0.0.1:{port}/" in out


def test_procfile_gunicorn(env):
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-w", "2", "-b", f"127.0.0.1:{port}", "scorekeeper.web:create_app()"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        wait_up(f"http://127.0.0.1:{port}/healthz", proc)
        req = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/v1/tables",
            method="POST",
            data=b'{"players": ["A", "B"]}',
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=5) as r:
            assert r.status == 201
    finally:
        stop(proc)


def _drawers(server: int) -> list[int]:
    """The drawing processes (``scorekeeper.drawer``) whose parent is a worker of ``server``."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmdline = f.read()
            with open(f"/proc/{pid}/stat") as f:
                parent = int(f.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{parent}/stat") as f:
                grandparent = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if b"scorekeeper.drawer" in cmdline and grandparent == server:
            found.append(int(pid))
    return found


def test_the_share_picture_is_drawn_by_a_drawing_process_that_ends_with_its_worker(env):
    """Under the real server (gevent workers) the picture is drawn in a child of the worker
    (issue 29: on a thread it held the worker's GIL), and that child ends with the server."""
    import json

    proc, port = serve(env)
    base = f"http://127.0.0.1:{port}"
    drawers: list[int] = []
    try:
        wait_up(f"{base}/healthz", proc)
        req = urllib.request.Request(
            f"{base}/api/v1/groups",
            method="POST",
            data=json.dumps({"name": "토요일", "players": ["민수", "지영"]}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=10) as r:
            group = json.loads(r.read())
        with urllib.request.urlopen(f"{base}/g/{group['id']}/share.png?key={group['view_key']}", timeout=30) as r:
            assert r.status == 200 and r.read()[:4] == b"\x89PNG"
        drawers = _drawers(proc.pid)
        assert len(drawers) == 1, drawers
    finally:
        stop(proc)
    deadline = time.monotonic() + 10
    while any(os.path.exists(f"/proc/{pid}") and _alive(pid) for pid in drawers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in drawers if os.path.exists(f"/proc/{pid}") and _alive(pid)]


def _alive(pid: int) -> bool:
    """Running (not a zombie waiting for its parent)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
