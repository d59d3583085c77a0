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


def stop(proc: subprocess.Popen) -> str:
    proc.send_signal(signal.SIGTERM)
    try:
        out, _ = proc.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
    return out or ""


def test_scorekeeper_serve(env):
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper.cli", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
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
