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
from playwright.sync_api import expect

STOP_A = {"captures": {"A": ["1g", "3g", "8g"]}, "outcome": {"type": "stop", "winner": "A"}}


def _api(base: str, method: str, path: str, body=None, key=None):
    req = urllib.request.Request(
        base + "/api/v1" + path,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json"} | ({"X-Table-Key": key} if key else {}),
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


BRIGHTS = ("1g", "3g", "8g")


def take_brights(page, winner: str, seat: int):
    """Quick entry (issue 13): tap the winner, then each card once in the one picker; the card
    leaves A's pile for the winner's."""
    page.locator(f"label.winner-pick:has(input[value={winner}])").click()
    for code in BRIGHTS:
        page.locator(f".one-picker [data-code='{code}']").click()
        expect(page.locator(f"input[name='entries-{seat}-cards'][value='{code}']")).to_be_checked()
        expect(page.locator(f"input[name='entries-0-cards'][value='{code}']")).not_to_be_checked()


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
    # The first phone: B won with the three brights (one tap a card moves it from A to B).
    take_brights(first, "B", seat=1)
    first.locator("button[value=save]").click()
    expect(first.locator("h1")).to_contain_text("result")
    # The second phone, still on the hand as it was: C won.
    take_brights(second, "C", seat=2)
    second.locator("button[value=save]").click()
    expect(second.locator("[data-code=conflict]")).to_contain_text("stored now: stop · B")
    expect(second.locator("input[name=winner][value=C]")).to_be_checked()  # the entry is still there
    for code in BRIGHTS:
        expect(second.locator(f"input[name='entries-2-cards'][value='{code}']")).to_be_checked()
        expect(second.locator(f".one-picker [data-code='{code}'] .owner")).to_have_text("C")
    assert (
        _api(live_server, "GET", f"/tables/{made['id']}/hands/{hand}", key=made["edit_key"])["summary"]["outcome"][
            "winner"
        ]
        == "B"
    )  # the first phone's edit stands
    second.locator("button[value=save]").click()  # now on purpose
    expect(second.locator("h1")).to_contain_text("result")
    assert (
        _api(live_server, "GET", f"/tables/{made['id']}/hands/{hand}", key=made["edit_key"])["summary"]["outcome"][
            "winner"
        ]
        == "C"
    )
