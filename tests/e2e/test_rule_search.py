"""Issue 27: the rules sheet can be searched by typing, in both languages (상한가 sat 2,250 px down a
sheet of ~60 options at 200 %); a choice is a list of radios whose words show whole."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

from tests.e2e import readable as R

SEARCHES = [
    # (page language, typed, the option that must be found)
    ("ko", "상한가", "payment_cap"),
    ("ko", "연뻑", "consecutive_ppuk"),
    ("ko", "payment cap", "payment_cap"),  # the other language's words find it too
    ("en", "Payment cap", "payment_cap"),
    ("en", "연뻑", "consecutive_ppuk"),
    ("en", "ppuk", "consecutive_ppuk"),
]


def visible_options(page) -> list[str]:
    return page.evaluate(
        "() => [...document.querySelectorAll('[data-search]')].filter((r) => r.checkVisibility())"
        ".map((r) => (r.querySelector('[name^=opt_]') || {}).name || r.getAttribute('data-search'))"
    )


@pytest.mark.parametrize(("lang", "typed", "option"), SEARCHES)
def test_typing_finds_an_option_of_the_new_tables_sheet(new_context, live_server, lang, typed, option):
    page = new_context(locale="ko-KR" if lang == "ko" else "en-US").new_page()
    R.set_text_size(page, 200)
    page.goto(f"{live_server}/lang/{lang}?next=/new")
    page.locator("details.rules > summary").click()
    search = page.locator("#rule-search")
    search.fill(typed)
    found = visible_options(page)
    # a handful of rows, the one sought among them (ppuk names the whole chain: 첫뻑, 연뻑, 3연뻑, 삼뻑, the chain)
    assert f"opt_{option}" in found and len(found) <= 5, found
    row = page.locator(f"[data-search]:has([name=opt_{option}])")
    gap = row.bounding_box()["y"] - search.bounding_box()["y"]
    assert 0 < gap < 700, f"the option is {gap} px under the search box"  # one screen, not 2,250 px down
    search.press("Enter")  # searches, never submits the new table
    expect(page).to_have_url(f"{live_server}/new")
    search.fill("")
    assert len(visible_options(page)) > 50


def test_nothing_found_says_so_and_hides_every_group(page, live_server):
    page.goto(f"{live_server}/lang/en?next=/new")
    page.locator("details.rules > summary").click()
    expect(page.locator("[data-rule-none]")).to_be_hidden()
    page.fill("#rule-search", "zzz no such rule")
    expect(page.locator("[data-rule-none]")).to_be_visible()
    assert page.locator("details.rules fieldset[data-rule-group]:visible").count() == 0


def test_a_tables_rules_sheet_is_searched_the_same_way(page, live_server):
    page.goto(f"{live_server}/lang/ko?next=/new")
    page.fill("#players-0", "민수")
    page.fill("#players-1", "지영")
    page.locator("form.stack > button.primary").click()
    expect(page.locator("#standings")).to_be_visible()
    page.goto(page.url.rstrip("/") + "/rules")
    page.fill("#rule-search", "연뻑")
    rows = page.locator("tr[data-search]:visible")
    # 연뻑, 3연뻑 and how the chain pays: the three rows of the ppuk chain, nothing else
    expect(rows).to_have_count(3)
    for i in range(3):
        expect(rows.nth(i)).to_contain_text("연뻑")
    assert page.locator("section[data-rule-group]:visible").count() == 1


def test_a_choice_is_radios_that_follow_the_preset_and_reach_the_table(page, live_server):
    page.goto(f"{live_server}/lang/ko?next=/new")
    page.locator("details.rules > summary").click()
    choice = page.locator("fieldset.opt.choice:has([name=opt_go_bak_three_players])")
    expect(choice.locator("legend")).to_be_visible()
    whole = choice.locator("label:has(input[value=dok_bak])")
    expect(whole).to_contain_text("고한 사람이 다 냄 (독박)")  # whole, on its own line
    assert R.clipped_texts(page) == []
    # a preset sets the radios as it sets every other box, and nothing shows as changed
    page.select_option("select[name=preset]", "pagat")
    page.select_option("select[name=preset]", "korean-common")
    expect(page.locator(".opt.changed")).to_have_count(0)
    before = choice.locator("input:checked").get_attribute("value")
    other = choice.locator(f"input:not([value={before}])").first
    picked = other.get_attribute("value")
    other.check()
    expect(choice).to_have_class("opt choice changed")
    page.fill("#players-0", "민수")
    page.fill("#players-1", "지영")
    page.fill("#players-2", "철수")
    page.locator("form.stack > button.primary").first.click()
    expect(page.locator("#standings")).to_be_visible()
    sheet = page.request.get(page.url.rstrip("/") + "/rules").text()
    changed = re.findall(r'<tr class="changed" data-search="[^"]* ([a-z_0-9]+)">', sheet)
    assert changed == ["go_bak_three_players"], changed  # the radio picked reached the table
    assert picked != before
