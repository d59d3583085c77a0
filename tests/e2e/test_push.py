"""Push in the real browser against ``scorekeeper serve`` (gevent workers, SQLite), as deployed.

A second phone sees a tap within 300 ms of the tapping phone's acknowledged answer; after a
server restart the phones reconnect by themselves and catch up with every change made
meanwhile, with nothing missed.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

from tests.e2e.test_journeys import capture, create_table, start_live
from tests.web.test_server import free_port, wait_up

ROOT = Path(__file__).resolve().parents[2]
TAP_SEEN_WITHIN_MS = 300
POLL_MS = 1500  # the fallback poll's interval: slower than this means the push did not work


class Served:
    """``scorekeeper serve`` on one port and one SQLite file; killed and started again at will."""

    def __init__(self, tmp_path: Path):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = os.environ | {
            "DATABASE_URL": f"sqlite:///{tmp_path / 'push.db'}",
            "SECRET_KEY": "push-e2e",
            "PYTHONPATH": str(ROOT),
            "SCOREKEEPER_WORKERS": "2",
            # this run's own rate-limit counts, not the instance's (see conftest.live_server)
            "RATELIMIT_STORAGE_URI": f"sqlite:///{tmp_path / 'ratelimits.db'}",
        }
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "scorekeeper.cli", "serve", "--port", str(self.port)],
            env=self.env,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        wait_up(f"{self.base}/healthz", self.proc)

    def kill(self) -> None:
        """Gone at once, streams and all, as in a crash or a hard restart."""
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)


@pytest.fixture
def served(tmp_path):
    server = Served(tmp_path)
    server.start()
    yield server
    server.kill()


def api(served: Served, method: str, path: str, key: str, body: dict | None = None) -> dict:
    req = urllib.request.Request(
        served.base + path,
        method=method,
        headers={"X-Table-Key": key, "Content-Type": "application/json"},
        data=None if body is None else json.dumps(body).encode(),
    )
    with urllib.request.urlopen(req, timeout=5) as r:
        return json.loads(r.read())


def pushed(page) -> None:
    expect(page.locator("html[data-push=on]")).to_have_count(1, timeout=5000)


def watch_changes(page) -> None:
    """Note (Date.now()) when the region first shows a version other than the current one."""
    page.evaluate("""() => {
        window.skSeen = null;
        const start = document.getElementById('region').dataset.version;
        new MutationObserver(() => {
            const r = document.getElementById('region');
            if (window.skSeen === null && r && r.dataset.version !== start) { window.skSeen = Date.now(); }
        }).observe(document.body, {subtree: true, childList: true, attributes: true});
    }""")


def test_second_phone_sees_a_tap_within_300_ms(new_context, served):
    host = new_context().new_page()
    create_table(host, served.base)
    edit_link = host.locator("p.code").nth(0).inner_text()
    start_live(host)
    hand_url = host.url

    friend = new_context().new_page()
    friend.goto(edit_link)
    friend.goto(hand_url)
    pushed(friend)
    pushed(host)

    lags = []
    for player, cards in [("Jun", ["2a"]), ("Jun", ["4a"]), ("Jun", ["8a"]), ("Hana", ["1g"]), ("Mina", ["3g"])]:
        watch_changes(friend)
        host.evaluate(
            "() => { window.skAnswered = null; document.addEventListener('sk:swapped', "
            "() => { window.skAnswered = window.skAnswered || Date.now(); }, {once: true}); }"
        )
        capture(host, player, cards)
        host.wait_for_function("() => window.skAnswered !== null")
        friend.wait_for_function("() => window.skSeen !== null", timeout=5000)
        lags.append(friend.evaluate("() => window.skSeen") - host.evaluate("() => window.skAnswered"))
    # Pushed, not polled: every tap arrives well inside the poll's 1.5 s, and the typical one within
    # 300 ms. (The median, not each tap: a browser test shares the CPU with the server and Chromium;
    # benchmarks/load.py measures the p95 under load.)
    assert max(lags) < POLL_MS, f"a tap reached the second phone only after {max(lags)} ms: {lags}"
    assert sorted(lags)[len(lags) // 2] < TAP_SEEN_WITHIN_MS, f"lags after the answer: {lags} ms"
    expect(friend.locator("#region")).to_have_attribute("data-seq", host.locator("#region").get_attribute("data-seq"))


def test_phones_catch_up_after_a_server_restart(new_context, served):
    host = new_context().new_page()
    create_table(host, served.base)
    edit_link = host.locator("p.code").nth(0).inner_text()
    table_id, key = edit_link.rstrip("/").split("/")[-2:]
    start_live(host)
    hand_id = int(host.url.rstrip("/").split("/")[-1])
    friend = new_context().new_page()
    friend.goto(edit_link)
    friend.goto(host.url)
    pushed(friend)
    capture(host, "Jun", ["2a", "4a", "8a"])
    expect(friend.locator(".score[data-player=Jun] [data-points]")).to_have_text("5")

    served.kill()
    expect(friend.locator("html[data-push=on]")).to_have_count(0, timeout=5000)  # the stream is down
    served.start()
    # Changes the phones did not see happen: made as soon as the server is back.
    state = api(served, "GET", f"/api/v1/tables/{table_id}/hands/{hand_id}/events", key)
    seq = state["seq"]
    for event in (
        {"type": "capture", "player": "Hana", "cards": ["1g"]},
        {"type": "capture", "player": "Hana", "cards": ["3g"]},
    ):
        answer = api(
            served, "POST", f"/api/v1/tables/{table_id}/hands/{hand_id}/events", key, {"seq": seq, "event": event}
        )
        seq = answer["seq"]
    version = answer["version"]

    for phone in (friend, host):
        pushed(phone)  # reconnected by itself
        expect(phone.locator("#region")).to_have_attribute("data-version", str(version), timeout=5000)
        expect(phone.locator("#region")).to_have_attribute("data-seq", str(seq))
        for code in ("1g", "3g"):  # taken: no longer offered in the picker
            expect(phone.locator(f".picker [data-card='{code}']")).to_be_disabled()
    start = time.monotonic()
    capture(friend, "Mina", ["8g"])  # and taps work again, both ways
    expect(host.locator("#region")).to_have_attribute("data-seq", str(seq + 1), timeout=5000)
    assert time.monotonic() - start < 5
