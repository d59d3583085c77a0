"""What a phone downloads: the first table page and the live hand page stay under 100 KB compressed.

Measured as the server sends them to a phone that accepts brotli and gzip: the bytes on the wire.
"""
from __future__ import annotations

import re

from .conftest import GO_PIBAK

BUDGET = 100 * 1024


PHONE = {"Accept-Encoding": "br, gzip"}


def page_weight(client, path: str) -> dict[str, int]:
    """Bytes sent for a page and every stylesheet, script and image it loads (compressed as served)."""
    page = client.get(path, headers=PHONE)
    assert page.headers.get("Content-Encoding") in ("br", "gzip")
    sizes = {path: len(page.data)}
    for asset in re.findall(r'(?:href|src)="(/static/[^"]+)"', client.get(path).get_data(as_text=True)):
        with client.get(asset.replace("&amp;", "&"), headers=PHONE) as response:
            if asset.split("?")[0].endswith((".js", ".css", ".svg")):
                assert response.headers.get("Content-Encoding") in ("br", "gzip"), asset
            sizes[asset] = len(response.data)
    return sizes


def test_table_page_weight(table, client):
    for _ in range(3):
        table.add_summary({"captures": {"A": ["1g", "3g", "8g"]}, "outcome": {"type": "stop", "winner": "A"}})
    sizes = page_weight(client, table.url)
    print("table page", sizes, sum(sizes.values()))
    assert sum(sizes.values()) < BUDGET


def test_live_hand_page_weight(table, client):
    hand = table.start_live()
    table.append(hand, GO_PIBAK[:7])
    sizes = page_weight(client, f"{table.url}/hands/{hand}")
    print("live hand page", sizes, sum(sizes.values()))
    assert sum(sizes.values()) < BUDGET
