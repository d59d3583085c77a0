"""A phone never shows a version older than one it has received (issue 28), with the network slowed.

B's tap is stored; its answer is slow to come back (held, or 300 ms of latency); meanwhile C's
tap is stored and the push of that newer version reaches B's phone. B's phone must end up showing
C's card, not stay on its own answer's older version until the next event.
"""

from __future__ import annotations

import json
import time
import urllib.request

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

from .test_seats import make_table, seat_phones, start, stored


def version_of(base: str, created: dict, hand: int) -> int:
    request = urllib.request.Request(
        f"{base}/api/v1/tables/{created['id']}/hands/{hand}/events", headers={"X-Table-Key": created["edit_key"]}
    )
    return json.load(urllib.request.urlopen(request, timeout=5))["version"]


def owner(page, code: str):
    return page.locator(f".picker [data-card='{code}'] .owner")


def wait_until(page, check, timeout: float = 5.0) -> None:
    """Wait for ``check()``, letting Playwright run the page's route handlers meanwhile."""
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, "timed out"
        page.wait_for_timeout(20)


def test_a_push_that_arrives_while_the_phones_tap_is_answered_slowly_is_shown(new_context, live_server):
    created = make_table(live_server, ("A", "B", "C"))
    phones = seat_phones(new_context, live_server, created, ("A", "B", "C"))
    hand = start(phones, "A")
    a, b, c = phones["A"], phones["B"], phones["C"]
    a.locator(".picker [data-card='1j1']").click()
    for page in (b, c):
        expect(owner(page, "1j1")).to_have_text("A")
        expect(page.locator("html")).to_have_attribute("data-push", "on")  # the stream tells of changes
    held = []

    def hold(route):
        held.append((route, route.fetch()))  # stored on the server; the answer waits on the way back

    b.route("**/t/*/hands/*/events", hold, times=1)
    b.locator(".picker [data-card='2j1']").click()
    wait_until(b, lambda: len(stored(live_server, created, hand)) == 3 and held)
    c.locator(".picker [data-card='3j1']").click()  # C's tap: a newer version, pushed to B
    wait_until(b, lambda: len(stored(live_server, created, hand)) == 5)
    expect(owner(c, "3j1")).to_have_text("C")
    b.wait_for_timeout(500)  # the push has reached B's phone, whose tap is still on its way
    route, response = held[0]
    route.fulfill(response=response)
    expect(owner(b, "2j1")).to_have_text("B")
    expect(owner(b, "3j1")).to_have_text("C", timeout=3000)  # not left on its own answer's version
    expect(b.locator("#region")).to_have_attribute("data-version", str(version_of(live_server, created, hand)))


def api_append(base: str, created: dict, hand: int, seq: int, event: dict) -> None:
    body = json.dumps({"seq": seq, "event": event}).encode()
    request = urllib.request.Request(
        f"{base}/api/v1/tables/{created['id']}/hands/{hand}/events",
        body,
        {"Content-Type": "application/json", "X-Table-Key": created["edit_key"]},
    )
    urllib.request.urlopen(request, timeout=5)


def test_with_300_ms_of_latency_every_race_ends_on_the_newest_version(new_context, live_server):
    """The issue's measurement: 300 ms of latency on B's phone (Chromium's network emulation); as
    soon as B's tap is stored, another phone's event is stored too (through the API, at once), so
    its push reaches B while B's answer is still on its way. Six rounds, each must end with B's
    phone on the newest version."""
    created = make_table(live_server, ("A", "B", "C"))
    phones = seat_phones(new_context, live_server, created, ("A", "B", "C"))
    hand = start(phones, "A")
    a, b = phones["A"], phones["B"]
    a.locator(".picker [data-card='1j1']").click()
    expect(owner(b, "1j1")).to_have_text("A")
    expect(b.locator("html")).to_have_attribute("data-push", "on")
    cdp = b.context.new_cdp_session(b)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 300, "downloadThroughput": -1, "uploadThroughput": -1},
    )
    rounds = [("2j1", "3j1"), ("4j1", "5j1"), ("6j1", "7j1"), ("8j1", "9j1"), ("10j1", "11j1"), ("2j2", "3j2")]
    for b_card, c_card in rounds:
        count = len(stored(live_server, created, hand))
        b.locator(f".picker [data-card='{b_card}']").click()
        wait_until(b, lambda n=count: len(stored(live_server, created, hand)) > n, timeout=10)
        seq = len(stored(live_server, created, hand))
        api_append(live_server, created, hand, seq, {"type": "capture", "player": "C", "cards": [c_card]})
        expect(owner(b, b_card)).to_have_text("B")
        expect(owner(b, c_card)).to_have_text("C", timeout=3000)
        expect(b.locator("#region")).to_have_attribute("data-version", str(version_of(live_server, created, hand)))
