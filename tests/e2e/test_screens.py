"""Issue 13 in Chromium at 390×844: quick entry in ten taps, the result, between hands,
ending a series early, a finished series; screenshots of each screen in both languages."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

SHOTS = Path(os.environ.get("SCOREKEEPER_SHOTS", Path(__file__).resolve().parents[2] / "test-artifacts" / "korean"))


class Taps:
    """Every tap the person makes goes through here, so the test can count them."""

    def __init__(self, page):
        self.page, self.count = page, 0

    def __call__(self, selector: str):
        self.page.locator(selector).first.tap()
        self.count += 1


def snap(page, name: str):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def new_table(page, base, names, lang="en", length=None):
    page.goto(f"{base}/lang/{lang}?next=/new")
    for i, name in enumerate(names):
        page.fill(f"#players-{i}", name)
    if length:
        page.locator("details:has(#length) > summary").click()
        page.fill("#length", str(length))
    page.locator("form.stack > button.primary").click()
    expect(page.locator("#standings")).to_be_visible()
    return page.url


def test_new_table_is_names_and_one_tap(new_context, live_server):
    for locale, preset in (("ko-KR", "korean-common"), ("en-US", "pagat")):
        page = new_context(locale=locale).new_page()
        page.goto(live_server + "/new")
        expect(page.locator("#preset")).to_have_value(preset)
        first_create = page.locator("button.primary").first.bounding_box()
        assert page.locator("#preset").bounding_box()["y"] < first_create["y"]
        page.fill("#players-0", "민수")
        page.fill("#players-1", "지영")
        page.locator("button.primary").first.tap()  # the one tap
        expect(page.locator("#standings")).to_contain_text("지영")


def test_typical_hand_in_ten_taps(page, live_server):
    """Winner with 3 brights and 11 junk, one go; a loser with 4 junk; the other with 12g and 7 junk."""
    table = new_table(page, live_server, ("Mina", "Jun", "Hana"))
    page.goto(table.replace("/t/", "/t/") + "/quick")
    tap = Taps(page)
    tap("label.winner-pick:has(input[value=Mina])")
    for code in ("1g", "3g", "8g"):
        tap(f".one-picker [data-code='{code}']")
    tap("section.qp[data-name=Mina] .chips.junk label:has(input[value='11'])")
    tap("section.qp[data-name=Mina] .chips.gos label:has(input[value='1'])")
    tap("section.qp[data-name=Jun] .chips.junk label:has(input[value='4'])")
    tap("section.qp[data-name=Hana] .chips.junk label:has(input[value='7'])")
    tap(".one-picker [data-code='12g']")
    expect(page.locator("#preview")).to_contain_text("Jun → Mina 24 points", timeout=5000)
    expect(page.locator("#preview")).to_contain_text("Hana → Mina 6 points")
    assert page.locator(".quick-foot").is_visible()
    foot = page.locator(".quick-foot").bounding_box()
    assert foot["y"] + foot["height"] <= 844 + 1, "the preview stays in view"
    snap(page, "quick-entry-en")
    tap("button[value=save]")
    assert tap.count <= 10
    expect(page.locator("h1")).to_contain_text("result")
    expect(page.locator(".pay[data-payment='Jun-Mina'] .amount")).to_contain_text("24 points · ₩2,400")
    expect(page.locator(".pay[data-payment='Hana-Mina'] .amount")).to_contain_text("6 points · ₩600")
    # The result opens at its top: who pays whom is on the first screen, the log is not above it.
    assert page.locator("#who-pays").bounding_box()["y"] < 844
    assert page.evaluate("() => window.scrollY") == 0


def test_between_hands_and_ending_early(page, live_server):
    table = new_table(page, live_server, ("Mina", "Jun", "Hana"))
    page.goto(table + "/quick")
    page.locator("label.seg-label, .seg label:has(input[value=nagari])").first.tap()
    expect(page.locator("#preview")).to_contain_text("No payment", timeout=5000)
    page.locator("button[value=save]").tap()
    # Between hands: the next dealer and the nagari carry are stated, the next hand one tap away.
    expect(page.locator("#next-hand")).to_contain_text(
        "Hand 2 · dealer Mina"
    )  # a nagari is a hand; the same dealer deals again
    expect(page.locator("#next-hand")).to_contain_text("nagari ×2")
    page.locator("#next-hand .btn.primary, #next-hand button.primary").first.tap()
    expect(page.locator("h1")).to_contain_text("Quick entry")
    page.locator("label.winner-pick:has(input[value=Jun])").tap()
    for code in ("1g", "3g", "8g"):
        page.locator(f".one-picker [data-code='{code}']").tap()
    expect(page.locator("#preview")).to_contain_text("Mina → Jun", timeout=5000)
    page.locator("button[value=save]").tap()
    expect(page.locator(".pay[data-payment='Mina-Jun'] .trail")).to_contain_text("×2")
    page.goto(table)
    page.locator("#end-series > summary").tap()
    page.locator("#end-series button[type=submit]").tap()  # unconfirmed: nothing ends
    expect(page.locator("#standings h2")).to_have_text("Standings")
    page.locator("#end-series input[name=confirm]").check()
    page.locator("#end-series button[type=submit]").tap()
    expect(page.locator(".series-over")).to_contain_text("Finished after 2 hands")
    # A finished series: settle-up first, final standings, no dealer badge, no new hand.
    order = page.evaluate("() => [...document.querySelectorAll('#region section h2')].map(h => h.textContent)")
    assert order[:2] == ["Final settle-up", "Final standings"], order
    expect(page.locator(".badge.dealer")).to_have_count(0)
    expect(page.locator("a:has-text('Quick entry')")).to_have_count(0)
    expect(page.locator("#end-series")).to_have_count(0)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_screenshots_of_every_screen(new_context, live_server, lang):
    page = new_context(locale="ko-KR" if lang == "ko" else "en-US").new_page()
    names = ("민수", "지영", "현우") if lang == "ko" else ("Mina", "Jun", "Hana")
    page.goto(f"{live_server}/lang/{lang}?next=/")
    snap(page, f"01-home-{lang}")
    page.goto(f"{live_server}/new")
    snap(page, f"02-new-table-{lang}")
    table = new_table(page, live_server, names, lang=lang, length=2)
    snap(page, f"03-table-empty-{lang}")
    page.goto(table + "/quick")
    page.locator(f"label.winner-pick:has(input[value='{names[0]}'])").tap()
    for code in ("1g", "3g", "8g"):
        page.locator(f".one-picker [data-code='{code}']").tap()
    page.locator(f"section.qp[data-name='{names[0]}'] .chips.junk label:has(input[value='11'])").tap()
    page.locator(f"section.qp[data-name='{names[0]}'] .chips.gos label:has(input[value='1'])").tap()
    page.locator(f"section.qp[data-name='{names[1]}'] .chips.junk label:has(input[value='4'])").tap()
    page.locator(f"section.qp[data-name='{names[2]}'] .chips.junk label:has(input[value='7'])").tap()
    page.locator(".one-picker [data-code='12g']").tap()
    expect(page.locator("#preview .pay-line")).to_have_count(2, timeout=5000)
    page.screenshot(path=str(SHOTS / f"04-quick-entry-viewport-{lang}.png"))
    snap(page, f"04-quick-entry-{lang}")
    page.locator("button[value=save]").tap()
    expect(page.locator("#who-pays")).to_be_visible()
    page.screenshot(path=str(SHOTS / f"05-result-viewport-{lang}.png"))
    snap(page, f"05-result-{lang}")
    # Every collapsible row shows that it opens (the QR codes, the log, deleting a hand …).
    marks = page.evaluate("""() => [...document.querySelectorAll('summary')]
        .map(s => getComputedStyle(s, '::before').content)""")
    assert marks and all(m == '"▸"' for m in marks), marks
    page.goto(table + "/rules")
    snap(page, f"06-rules-{lang}")
    page.goto(table)
    snap(page, f"07-table-{lang}")
    page.goto(table)
    page.locator("#end-series > summary").tap()
    page.locator("#end-series input[name=confirm]").check()
    page.locator("#end-series button[type=submit]").tap()
    expect(page.locator(".series-over")).to_be_visible()
    snap(page, f"08-finished-{lang}")
    page.goto(live_server + "/t/nothing-here")
    snap(page, f"09-error-{lang}")


def test_a_live_hand_ends_on_its_result_at_the_top(page, live_server):
    from .test_journeys import capture, say, start_live

    new_table(page, live_server, ("Mina", "Jun", "Hana"))
    start_live(page)
    capture(page, "Mina", ["1g", "3g", "8g"])
    # Three brights reach the target of 3: the End turn bar is Mina's Go or Stop (issue 12),
    # one tap that ends the turn and answers; there is no separate End turn to tap first.
    expect(page.locator(".turn-actions [data-end-turn]")).to_be_hidden()
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    say(page, "stop")
    expect(page.locator("#who-pays")).to_be_visible()
    page.wait_for_function("() => window.scrollY === 0")
    assert page.locator("#who-pays").bounding_box()["y"] < 844


@pytest.mark.parametrize(("lang", "locale"), [("ko", "ko-KR"), ("en", "en-US")])
def test_offline_page_speaks_the_phones_language(new_context, live_server, lang, locale):
    """The service worker's own offline page, built by its offlinePage() with its configuration."""
    import re

    from tests.web.visible import problems

    page = new_context(locale=locale).new_page()
    page.goto(live_server + "/healthz")
    sw = page.request.get(live_server + "/sw.js").text()
    start = sw.index("function offlinePage")
    fn = sw[start : sw.index("\n}\n", start) + 2]
    config = re.search(r"const SK = (\{.*?\});\n", sw).group(1)
    html = page.evaluate(f"""async () => {{ var SK = {config}; var self = {{navigator: {{language: '{locale}'}}}};
        {fn}; return await offlinePage().text(); }}""")
    assert f'<html lang="{lang}">' in html
    assert problems(html, lang) == []
    page.set_content(html.replace('href="/static/', f'href="{live_server}/static/'))
    snap(page, f"10-offline-{lang}")
