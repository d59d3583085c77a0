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
