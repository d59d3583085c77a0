"""Issue 28 in Chromium at 390×844, in Korean and English: a pay link set and opened from the owed
line (a read-only phone too), 보냈어요's confirmation on screen, a payment voided in two steps, the
history on the group's and the table's page, the next evening's rules sheet. Screenshots of each."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

SHOTS = Path(
    os.environ.get("SCOREKEEPER_MONEY_SHOTS", Path(__file__).resolve().parents[2] / "test-artifacts" / "money")
)
STOP = {"captures": {"지영": ["1g", "3g", "8g"]}, "outcome": {"type": "stop", "winner": "지영"}}
TAP = 44  # px: the smallest target a finger hits reliably


def snap(page, name: str, full_page: bool = False):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page)


def _csrf(page) -> str:
    return page.evaluate("() => (document.querySelector('input[name=csrf_token]') || {}).value || ''")


def _big_enough(locator):
    box = locator.bounding_box()
    assert box and box["width"] >= TAP and box["height"] >= TAP, box


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_pay_link_sent_it_void_and_history(new_context, live_server, lang):
    context = new_context(locale="ko-KR" if lang == "ko" else "en-US")
    page = context.new_page()
    page.goto(f"{live_server}/lang/{lang}?next=/g/new")
    page.fill("#group-name", "토요일" if lang == "ko" else "Saturday")
    page.fill("#group-players", "민수\n지영\n철수")
    page.locator("button.primary").first.tap()
    expect(page.locator("#new-evening")).to_be_visible()
    group_url = page.url.split("#")[0]
    page.locator("#new-evening button.primary").tap()
    page.wait_for_url("**/t/*")
    table_id = page.url.rstrip("/").split("/t/")[1].split("#")[0]
    r = page.request.post(
        f"{live_server}/api/v1/tables/{table_id}/hands", data={"summary": STOP}, headers={"X-CSRFToken": _csrf(page)}
    )
    assert r.status == 201, r.text()
    page.goto(group_url)

    # A pay link for 지영, from the page's form.
    page.select_option("#pay-link-player", "지영")
    page.fill("#pay-link", "https://toss.me/jiyoung")
    page.locator("#pay-links button[type=submit]").tap()
    expect(page.locator("#flash")).to_have_class("flash ok")
    pay = page.locator("#owed a.pay-link").first
    expect(pay).to_have_attribute("href", "https://toss.me/jiyoung/600")
    _big_enough(pay)
    page.locator("#owed").scroll_into_view_if_needed()
    snap(page, f"{lang}-1-owed-pay-link")

    # 보냈어요: the confirmation is on the screen, not above it.
    page.locator("#owed button[data-sent]").first.tap()
    flash = page.locator("#flash")
    expect(flash).to_be_visible()
    box = flash.bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= 844, box
    snap(page, f"{lang}-2-sent-it-confirmation")

    # Voided in two steps: the question, then the answer.
    page.locator("#payments").scroll_into_view_if_needed()
    ask = page.locator("#payments details.confirm > summary").first
    _big_enough(ask)
    ask.tap()
    yes = page.locator("#payments details.confirm button.danger").first
    expect(yes).to_be_visible()
    _big_enough(yes)
    snap(page, f"{lang}-3-void-question")
    yes.tap()
    expect(page.locator("#payments li.voided")).to_have_count(1)
    page.locator("#payments").scroll_into_view_if_needed()
    snap(page, f"{lang}-4-voided")
    page.locator("#history").scroll_into_view_if_needed()
    expect(page.locator("#history li").first).to_contain_text("무효" if lang == "ko" else "voided")
    snap(page, f"{lang}-5-group-history")

    # The next evening's rules: the new table's sheet.
    page.goto(group_url + "/rules")
    expect(page.locator("#preset")).to_be_visible()
    snap(page, f"{lang}-6-rules-sheet")

    # The table's own history.
    page.goto(f"{live_server}/t/{table_id}")
    page.locator("#history").scroll_into_view_if_needed()
    expect(page.locator("#history li")).to_have_count(1)
    snap(page, f"{lang}-7-table-history")

    # A read-only phone: it says so, and the owed line still opens the pay link.
    page.goto(group_url)
    view_link = page.locator("#share .code").last.inner_text()
    viewer = new_context(locale="ko-KR" if lang == "ko" else "en-US").new_page()
    viewer.goto(f"{live_server}/lang/{lang}?next=/")
    viewer.goto(view_link)
    viewer.wait_for_url("**/g/**")
    expect(viewer.locator(".read-only-note")).to_be_visible()
    expect(viewer.locator("#owed a.pay-link").first).to_have_attribute("href", "https://toss.me/jiyoung/600")
    expect(viewer.locator("#owed button[data-sent]")).to_have_count(0)
    snap(viewer, f"{lang}-8-read-only")
