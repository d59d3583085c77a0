"""The readability checks themselves (tests/e2e/readable.py): each finds its defect on a small page
made to have it, and finds nothing on the same page made right; the text size really scales
rem-based text and leaves px text alone (which is why px text is a defect)."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright")

from tests.e2e import readable as R

HEAD = "<!doctype html><html lang=en><head><title>t</title><meta name=viewport content='width=device-width'>"


def page_with(page, style: str, body: str):
    page.set_content(f"{HEAD}<style>body{{margin:0}} {style}</style></head><body><main>{body}</main></body></html>")


@pytest.mark.parametrize(("percent", "root"), [(100, 16), (130, 21), (200, 32)])
def test_text_size_scales_rem_not_px(page, percent, root):
    R.set_text_size(page, percent)
    page_with(
        page,
        ".r{font-size:1rem} .e{font-size:.75em} .p{font-size:16px}",
        "<p class=r>r</p><p class=e>e</p><p class=p>p</p>",
    )
    assert R.root_font_size(page) == root
    sizes = page.evaluate("[...document.querySelectorAll('p')].map(p => parseFloat(getComputedStyle(p).fontSize))")
    assert sizes == [root, pytest.approx(root * 0.75, abs=0.01), 16]
    page.goto("data:text/html,<p style='font-size:1rem'>x</p>")  # the setting outlives a navigation
    assert page.evaluate("parseFloat(getComputedStyle(document.querySelector('p')).fontSize)") == root


CASES = [
    # (check, the page with the defect, the same page made right, what the finding says)
    (
        R.clipped_texts,
        "div{width:60px;overflow:hidden;white-space:nowrap}",
        "div{width:60px;overflow-wrap:anywhere}",
        "<div>a long name here</div>",
        "cut off",
    ),
    (
        R.clipped_texts,
        "div{width:60px;overflow:hidden;white-space:nowrap;text-overflow:ellipsis}",
        "div{width:60px}",
        "<div>a long name here</div>",
        "cut to …",
    ),
    (
        R.clipped_texts,
        ".card{width:40px;height:50px} .card span{display:block;white-space:nowrap}",
        ".card{width:40px;min-height:50px} .card span{display:block;overflow-wrap:anywhere}",
        "<div class=card><span>꾀꼬리꾀꼬리</span></div>",
        "spills out",
    ),
    (
        R.clipped_texts,
        "select{width:90px}",
        "select{width:100%}",
        "<label>rule <select><option>고한 사람이 다 냄 (독박)</option></select></label>",
        'shows "고한 사람이 다 냄 (독박)"',
    ),
    (R.wide_elements, ".w{width:500px}", ".w{max-width:100%}", "<div class=w>wide</div>", "spans 0..500"),
    (
        R.wide_elements,
        ".row{display:flex} .row b{flex:none;width:150px}",
        ".row{display:flex;overflow-x:auto} .row b{flex:none;width:150px}",
        "<div class=row><b>1</b><b>2</b><b>3</b></div>",
        "wide",
    ),
    (
        R.unreachable_controls,
        ".bar{position:fixed;left:0;right:0;bottom:0;height:200px;background:#222} button{min-width:44px;min-height:44px}",
        ".bar{position:fixed;left:0;right:0;bottom:0;height:200px;background:#222} main{padding-bottom:220px} button{min-width:44px;min-height:44px}",
        "<div style='height:800px'></div><button>흔들기</button><div class=bar></div>",
        "under something",
    ),
    (
        R.unreachable_controls,
        ".row{display:flex;overflow:hidden;width:200px} button{flex:none;width:120px;min-height:44px}",
        ".row{display:flex;overflow-x:auto;width:200px} button{flex:none;width:120px;min-height:44px}",
        "<div class=row><button>1</button><button>2</button><button>무효</button></div>",
        "무효",
    ),
    (
        R.small_targets,
        "a{display:inline-block;height:19px}",
        "a{display:inline-block;min-height:24px}",
        "<a href=#x>그날 그림</a>",
        "under 24×24",
    ),
    (R.small_text, "p{font-size:.6rem}", "p{font-size:.75rem}", "<p>owner</p>", "9.6 px"),
    # an SVG's text at its drawn size: 13 units in a viewBox drawn at half its width are 6.5 px
    (
        R.small_text,
        "svg{width:170px} text{font-size:13px}",
        "svg{width:340px} text{font-size:13px}",
        "<svg viewBox='0 0 340 100'><text x=10 y=50>+24</text></svg>",
        "6.5 px",
    ),
]


@pytest.mark.parametrize(("check", "bad", "good", "body", "says"), CASES, ids=lambda c: getattr(c, "__name__", None))
def test_each_check_finds_its_defect_and_nothing_on_the_page_made_right(page, check, bad, good, body, says):
    page_with(page, bad, body)
    found = check(page)
    assert any(says in f for f in found), found
    page_with(page, good, body)
    assert check(page) == []


def test_large_targets_where_asked_except_cards(page):
    page_with(
        page,
        "button{min-width:0;min-height:0;padding:0;width:75px;height:36px} .card{width:42px;height:56px}",
        "<button>보냈어요</button><button class=card>1</button>",
    )
    assert R.small_targets(page) == []
    found = R.small_targets(page, large=44, exempt=".card")
    assert len(found) == 1 and "보냈어요" in found[0] and "75×36 (under 44×44)" in found[0], found


def test_a_link_in_a_sentence_is_not_a_target_to_enlarge(page):
    page_with(page, "", "<p>Read <a href=#r>the rules</a> before the first hand, then tap start.</p>")
    assert R.small_targets(page) == []


def test_hidden_things_are_not_checked(page):
    page_with(
        page,
        "div{width:600px;overflow:hidden;white-space:nowrap;font-size:8px}",
        "<details><summary style='min-height:44px'>more</summary><div>hidden until opened</div></details><div hidden>gone</div>",
    )
    assert R.clipped_texts(page) == R.wide_elements(page) == R.small_text(page) == []


def test_axe_reports_serious_and_critical_only(page):
    page.set_content("<!doctype html><html><body><main><select><option>a</option></select></main></body></html>")
    found = R.axe_violations(page)
    assert any(f.startswith("axe select-name (critical)") for f in found), found
    assert any(f.startswith("axe html-has-lang (serious)") for f in found), found
    page_with(page, "", "<label>rule <select><option>a</option></select></label>")
    assert R.axe_violations(page) == []
