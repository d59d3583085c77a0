"""Issue 22 in Chromium at 390×844: 월약 offered in one tap once the log shows it, and the mission
form asking who completed it."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

from .test_journeys import NAMES, capture, end_turn, seq, start_live


def create_table_with(page, base: str, **options) -> str:
    page.goto(base + "/lang/en?next=/new")
    for i, name in enumerate(NAMES):
        page.fill(f"#players-{i}", name)
    for name in options:  # the option fields sit in folded sections: set them as the form would send
        page.evaluate("(n) => { document.getElementById('opt_' + n).checked = true; }", name)
    page.locator("button:has-text('Create the table')").first.click()
    expect(page.locator("h1")).to_contain_text(NAMES[0])
    return page.url


def test_weol_yak_is_offered_in_one_tap(page, live_server):
    create_table_with(page, live_server, weol_yak=True, missions=True)
    start_live(page)
    mission = page.locator("form.event-form:has(input[name=type][value=mission])")
    expect(mission.locator("select[name=player] option")).to_have_count(1 + len(NAMES))
    end_turn(page)
    expect(page.locator(".weol-yak-offer")).to_have_count(0)
    capture(page, "Jun", ["2a", "2r", "2j1", "2j2"])
    offer = page.locator(".weol-yak-offer button")
    expect(offer).to_be_visible()
    expect(offer).to_contain_text("Jun")
    box = offer.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390 + 1  # on the phone's screen
    before = seq(page)
    offer.tap()  # the one tap
    expect(page.locator("#region")).not_to_have_attribute("data-seq", before)
    expect(page.locator(".weol-yak-offer")).to_have_count(0)
    expect(page.locator("[data-last-line]")).to_contain_text("weol-yak")
