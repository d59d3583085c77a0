"""Issue 27: home, new table, /rules, new group, the group page, the table page and its rules sheet
at the phone's text size (100 %, 130 %, 200 %) in Korean and English, at 390×844: no text clipped,
nothing wider than the screen, every control reachable, targets and text not too small, and
axe-core finds nothing serious or critical (tests/e2e/readable.py says how each is checked)."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

from tests.e2e import readable as R
from tests.e2e.conftest import PHONE

STOP = {
    "captures": {
        "지영": ["1g", "3g", "8g", "11g", "1j1", "1j2", "2j1", "2j2", "3j1", "3j2", "4j1", "4j2", "5j1", "5j2"]
    },
    "gos": {"지영": 1},
    "outcome": {"type": "stop", "winner": "지영"},
}
LANGS = {"ko": "ko-KR", "en": "en-US"}


@pytest.fixture(scope="module")
def scene(browser, live_server):
    """A group with an evening played (two transfers owed), its table and the links to them."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{live_server}/lang/ko?next=/g/new")
    page.fill("#group-name", "토요일 고스톱")
    page.fill("#group-players", "민수\n지영\n철수\n영희")
    page.locator("button.primary").click()
    expect(page.locator("#new-evening")).to_be_visible()
    group = page.url
    page.locator("#new-evening input[value='영희']").click()
    page.locator("#new-evening button.primary").click()
    expect(page.locator("#standings")).to_be_visible()
    table = page.url.rstrip("/")
    csrf = page.evaluate("() => (document.querySelector('input[name=csrf_token]') || {}).value || ''")
    r = page.request.post(
        f"{live_server}/api/v1/tables/{table.split('/t/')[1]}/hands",
        data={"summary": STOP},
        headers={"X-CSRFToken": csrf},
    )
    assert r.status == 201, r.text()
    state = context.storage_state()  # the edit rights the group and table pages show their buttons with
    context.close()
    return {"group": group, "table": table, "state": state}


def _open_all(page):
    """Every <details> open, so what they hold is checked too."""
    page.evaluate("() => document.querySelectorAll('main details').forEach((d) => { d.open = true; })")


SCREENS = {
    # name: (path from the scene, open the <details>, the 44×44 rule for controls other than cards)
    "home": (lambda s: "/", False, None),
    "new-table": (lambda s: "/new", True, None),
    "rules-doc": (lambda s: "/rules", False, None),
    "new-group": (lambda s: "/g/new", False, None),
    "group": (lambda s: s["group"], False, 44),
    "table-rules": (lambda s: s["table"] + "/rules", False, None),
}


@pytest.mark.parametrize("percent", [100, 130, 200])
@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("screen", list(SCREENS))
def test_screen_is_readable_at_the_phones_text_size(browser, live_server, scene, screen, lang, percent):
    path, open_all, large = SCREENS[screen]
    context = browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, locale=LANGS[lang], storage_state=scene["state"]
    )
    try:
        page = context.new_page()
        page.goto(f"{live_server}/lang/{lang}?next=/")
        R.set_text_size(page, percent)
        url = path(scene)
        page.goto(url if url.startswith("http") else live_server + url)
        if open_all:
            _open_all(page)
        found = R.readable_findings(page, percent=percent, large=large)
        assert found == [], f"{screen} {lang} {percent}%:\n" + "\n".join(found)
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_table_page_has_no_serious_axe_violation(browser, live_server, scene, lang):
    """The table page's sizes are the live screens' helper's; its semantics and contrast are checked here."""
    context = browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, locale=LANGS[lang], storage_state=scene["state"]
    )
    try:
        page = context.new_page()
        page.goto(f"{live_server}/lang/{lang}?next=/")
        page.goto(scene["table"])
        found = R.axe_violations(page)
        assert found == [], "\n".join(found)
    finally:
        context.close()
