"""Issue 19 in Chromium at 390×844: a group created, tonight's table started from it in one tap,
a hand, a transfer of what is owed marked paid with one tap ("보냈어요"); the group page, the new
evening, the statistics and the shared picture screenshotted in Korean and English."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

SHOTS = Path(
    os.environ.get("SCOREKEEPER_GROUP_SHOTS", Path(__file__).resolve().parents[2] / "test-artifacts" / "group")
)
STOP = {
    "captures": {
        "지영": ["1g", "3g", "8g", "11g", "1j1", "1j2", "2j1", "2j2", "3j1", "3j2", "4j1", "4j2", "5j1", "5j2"]
    },
    "gos": {"지영": 1},
    "outcome": {"type": "stop", "winner": "지영"},
}


def snap(page, name: str, full_page: bool = True):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_group_evening_and_a_transfer_marked_paid(new_context, live_server, lang):
    context = new_context(locale="ko-KR" if lang == "ko" else "en-US")
    page = context.new_page()
    page.goto(f"{live_server}/lang/{lang}?next=/")
    page.locator("a[href='/g/new']").tap()
    page.fill("#group-name", "토요일 고스톱" if lang == "ko" else "Saturday Go-Stop")
    page.fill("#group-players", "민수\n지영\n철수\n영희")
    snap(page, f"{lang}-0-new-group", full_page=False)
    page.locator("button.primary").tap()
    expect(page.locator("#new-evening")).to_be_visible()
    group_url = page.url
    snap(page, f"{lang}-1-group-new")

    # Tonight: 영희 and 철수 stay home (a tap each to untick), a newcomer comes; one tap starts the table.
    page.locator("#new-evening input[value='영희']").tap()
    page.locator("#new-evening input[value='철수']").tap()
    page.fill("#newcomers", "동수")
    snap(page, f"{lang}-2-new-evening", full_page=False)
    page.locator("#new-evening button.primary").tap()
    expect(page.locator("#standings")).to_contain_text("동수")
    table_id = page.url.rstrip("/").split("/t/")[1]
    # A hand through the API with the table's edit key (the quick entry is issue 13's journey).
    r = page.request.post(
        f"{live_server}/api/v1/tables/{table_id}/hands", data={"summary": STOP}, headers={"X-CSRFToken": _csrf(page)}
    )
    assert r.status == 201, r.text()

    page.goto(group_url)
    owed = page.locator("#owed li")
    expect(owed.first).to_contain_text("→")
    before = owed.count()
    assert before == 2  # 민수 and 동수 each owe 지영
    snap(page, f"{lang}-3-group-owed")
    owed.first.locator("button[data-sent]").tap()  # one tap: 보냈어요
    expect(page.locator(".flash.ok")).to_be_visible()
    expect(page.locator("#owed li")).to_have_count(before - 1)
    snap(page, f"{lang}-4-after-paid")
    page.locator("#stats details > summary").first.tap()  # the biggest hand's trail
    expect(page.locator("#stats .trail").first).to_be_visible()
    page.locator("#stats").scroll_into_view_if_needed()
    snap(page, f"{lang}-5-stats", full_page=False)
    page.locator("#share-result").scroll_into_view_if_needed()
    snap(page, f"{lang}-6-share", full_page=False)
    picture = page.request.get(group_url + "/share.png")
    assert picture.status == 200 and picture.headers["content-type"] == "image/png"
    (SHOTS / f"{lang}-7-picture.png").write_bytes(picture.body())
    evening = page.request.get(f"{group_url}/share.png?evening={table_id}")
    (SHOTS / f"{lang}-8-evening-picture.png").write_bytes(evening.body())
    expect(page.locator("#share-result button[data-copy]")).to_be_visible()  # where no share sheet is offered
    # The read-only link previews with the title and standings.
    view_link = page.locator("#share .code").last.inner_text()
    viewer = new_context(locale="ko-KR" if lang == "ko" else "en-US").new_page()
    viewer.goto(view_link)
    description = viewer.locator("meta[property='og:description']").get_attribute("content")
    assert description.startswith("지영 +") and ("원" in description) == (lang == "ko"), description
    expect(viewer.locator("button[data-sent]")).to_have_count(0)  # read-only
    home = page.goto(f"{live_server}/")
    assert home.status == 200
    expect(page.locator("#groups-local")).to_contain_text("토요일" if lang == "ko" else "Saturday")
    snap(page, f"{lang}-9-home", full_page=False)


def _csrf(page) -> str:
    return page.evaluate("() => (document.querySelector('input[name=csrf_token]') || {}).value || ''")
