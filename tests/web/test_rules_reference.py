"""Issue 9: the rules reference is served by the app, and the rules sheet links to it."""

from __future__ import annotations

import dataclasses
import html
import re

from scorekeeper.engine.rules import Rules


def test_the_reference_page_names_every_option(client):
    r = client.get("/rules")
    assert r.status_code == 200 and r.mimetype == "text/html"
    page = html.unescape(r.get_data(as_text=True))
    assert '<article class="doc" lang="en">' in page
    missing = [
        f.name
        for f in dataclasses.fields(Rules)
        if f.metadata["en"] not in page or f"<code>{f.name}</code>" not in page
    ]
    assert missing == []


def test_the_reference_contents_links_land_on_its_headings(client):
    page = client.get("/rules").get_data(as_text=True)
    ids = set(re.findall(r'<h[1-6] id="([^"]+)"', page))
    links = re.findall(r'href="#([^"]+)"', page)
    assert len(links) >= 14 and [a for a in links if a not in ids] == []


def test_the_reference_frame_speaks_the_phone_language(client):
    client.get("/lang/ko?next=/")
    assert "<title>규칙 설명 · " in client.get("/rules").get_data(as_text=True)
    client.get("/lang/en?next=/")
    assert "<title>Rules reference · " in client.get("/rules").get_data(as_text=True)


def test_the_rules_sheet_links_to_the_reference(table, client):
    page = client.get(f"{table.url}/rules").get_data(as_text=True)
    assert 'href="/rules"' in page


def test_each_wide_table_scrolls_in_a_region_a_keyboard_can_reach(client):
    """axe-core's scrollable-region-focusable (issue 27): a table that scrolls sideways on a phone
    sits in a region that takes the focus and is named after the section it is in."""
    page = client.get("/rules").get_data(as_text=True)
    tables = page.count("<table>")
    regions = re.findall(r'<div class="table-scroll" tabindex="0" role="region" aria-label="([^"]+)"><table>', page)
    assert tables >= 10 and len(regions) == tables
    assert regions[0] == "1. The cards and their codes" and "Scoring (족보)" in regions
