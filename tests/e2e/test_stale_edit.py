"""Two phones editing one finished hand in Chromium (issue 10, item 2): the second sees the conflict.

The first save is stored; the second phone's save, made against the hand as it was, is a 409
page that says so, shows the hand as stored now and keeps everything that phone entered; saving
again replaces it on purpose. Nothing is lost silently.
"""
from __future__ import annotations

import json
import urllib.request

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

STOP_A = {"captures": {"A": ["1g", "3g", "8g"]}, "outcome": {"type": "stop", "winner": "A"}}


def _api(base: str, method: str, path: str, body=None, key=None):
    req = urllib.request.Request(base + "/api/v1" + path, method=method,
                                 data=None if body is None else json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"} | ({"X-Table-Key": key} if key else {}))
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def test_a_stale_edit_is_shown_and_nothing_is_lost(new_context, live_server):
    made = _api(live_server, "POST", "/tables", {"players": ["A", "B", "C"], "first_dealer": "A"})
    hand = _api(live_server, "POST", f"/tables/{made['id']}/hands", {"summary": STOP_A}, made["edit_key"])["id"]
    phones = []
    for _ in range(2):
        page = new_context().new_page()
        page.goto(f"{live_server}/lang/en?next=/")
        page.goto(made["edit_link"])
        page.goto(f"{live_server}/t/{made['id']}/hands/{hand}/edit")
        phones.append(page)
    first, second = phones
    # The first phone: B won with the three brights.
    first.locator("label:has(input[name=winner][value=B])").click()
    for code in ["1g", "3g", "8g"]:
        first.locator("section.player").nth(0).locator(f"label.hc:has(input[value='{code}'])").click()
        first.locator("section.player").nth(1).locator(f"label.hc:has(input[value='{code}'])").click()
    first.locator("button[value=save]").click()
    expect(first.locator("h1")).to_contain_text("result")
    # The second phone, still on the hand as it was: C won.
    second.locator("label:has(input[name=winner][value=C])").click()
    for code in ["1g", "3g", "8g"]:
        second.locator("section.player").nth(0).locator(f"label.hc:has(input[value='{code}'])").click()
        second.locator("section.player").nth(2).locator(f"label.hc:has(input[value='{code}'])").click()
    second.locator("button[value=save]").click()
    expect(second.locator("[data-code=conflict]")).to_contain_text("stored now: stop · B")
    expect(second.locator("input[name=winner][value=C]")).to_be_checked()  # the entry is still there
    assert _api(live_server, "GET", f"/tables/{made['id']}/hands/{hand}", key=made["edit_key"])["summary"][
        "outcome"]["winner"] == "B"  # the first phone's edit stands
    second.locator("button[value=save]").click()  # now on purpose
    expect(second.locator("h1")).to_contain_text("result")
    assert _api(live_server, "GET", f"/tables/{made['id']}/hands/{hand}", key=made["edit_key"])["summary"][
        "outcome"]["winner"] == "C"
