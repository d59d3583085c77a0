"""What a phone downloads: the first table page and the live hand page stay under 100 KB compressed."""
from __future__ import annotations

import gzip
import re

from .conftest import GO_PIBAK

BUDGET = 100 * 1024


def page_weight(client, path: str) -> dict[str, int]:
    """Gzip-compressed bytes of a page and every stylesheet, script and image it loads."""
    html = client.get(path).data
    sizes = {path: len(gzip.compress(html, 9))}
    for asset in re.findall(rb'(?:href|src)="(/static/[^"]+)"', html):
        with client.get(asset.decode()) as response:
            sizes[asset.decode()] = len(gzip.compress(response.data, 9))
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
