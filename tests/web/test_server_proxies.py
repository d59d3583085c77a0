"""Forwarded headers on the real server (issue 10, item 8): believed only from configured proxies.

Gunicorn's own default believes ``X-Forwarded-Proto`` from 127.0.0.1 (``forwarded_allow_ips``):
a client on this machine, or any proxy that passes the header on untouched, made the app think
the request was HTTPS. Only ``SCOREKEEPER_TRUSTED_PROXIES`` may make it so.
"""

from __future__ import annotations

import http.client
import json

import pytest

from .test_server import (
    env,  # noqa: F401 - the fixture, reused
    serve,
    stop,
    wait_up,
)

FORWARDED = {
    "X-Forwarded-Proto": "https",
    "X-Forwarded-Ssl": "on",
    "X-Forwarded-Protocol": "ssl",
    "X-Forwarded-Host": "scores.example",
    "Content-Type": "application/json",
}


@pytest.mark.parametrize("proxies", [None, "1"])
def test_forwarded_proto_believed_only_from_trusted_proxies(env, tmp_path, proxies):
    env = env | {"RATELIMIT_STORAGE_URI": f"sqlite:///{tmp_path / 'ratelimits.db'}"}
    if proxies:
        env["SCOREKEEPER_TRUSTED_PROXIES"] = proxies
    proc, port = serve(env)
    try:
        wait_up(f"http://127.0.0.1:{port}/healthz", proc)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("POST", "/api/v1/tables", json.dumps({"players": ["A", "B"]}), FORWARDED)
        r = conn.getresponse()
        made = json.loads(r.read())
        hsts = r.getheader("Strict-Transport-Security")
        conn.request("GET", f"/j/{made['id']}/{made['edit_key']}", headers=FORWARDED)
        entered = conn.getresponse()
        entered.read()
        cookie = entered.getheader("Set-Cookie")
        conn.close()
    finally:
        stop(proc)
    if proxies:
        assert made["edit_link"].startswith("https://scores.example/") and hsts and "Secure" in cookie
    else:
        assert made["edit_link"].startswith(f"http://127.0.0.1:{port}/"), made["edit_link"]
        assert hsts is None and "Secure" not in cookie
