"""What a phone downloads: the first table page and the live hand page stay under 100 KB compressed.

Measured as the server sends them to a phone that accepts brotli and gzip: the bytes on the wire.
"""

from __future__ import annotations

import posixpath
import re

import pytest

from .conftest import GO_PIBAK

BUDGET = 100 * 1024


PHONE = {"Accept-Encoding": "br, gzip"}
IMPORT = re.compile(r"""^import .*? from ["'](\.{1,2}/[^"']+)["'];""", re.M)


def page_weight(client, path: str) -> dict[str, int]:
    """Bytes sent for a page and every stylesheet, script and image it loads (compressed as served)."""
    page = client.get(path, headers=PHONE)
    assert page.headers.get("Content-Encoding") in ("br", "gzip")
    sizes = {path: len(page.data)}
    assets = re.findall(r'(?:href|src)="(/static/[^"]+)"', client.get(path).get_data(as_text=True))
    while assets:
        asset = assets.pop(0)
        if asset in sizes:
            continue
        with client.get(asset.replace("&amp;", "&"), headers=PHONE) as response:
            if asset.split("?")[0].endswith((".js", ".css", ".svg")):
                assert response.headers.get("Content-Encoding") in ("br", "gzip"), asset
            sizes[asset] = len(response.data)
        if asset.split("?")[0].endswith(".js"):  # an ES module: the modules it imports load too
            source = client.get(asset.replace("&amp;", "&")).get_data(as_text=True)
            folder = asset.split("?")[0].rsplit("/", 1)[0]
            assets += [posixpath.normpath(f"{folder}/{name}") for name in IMPORT.findall(source)]
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


# Issue 23, item 7: a coding with q=0 is refused (RFC 9110 §12.5.3), ``*`` stands for the codings not
# named, and whatever the header says, the answer is one the client accepts.
CODINGS = [
    ("br;q=0", None),
    ("br;q=0, gzip", "gzip"),
    ("br; q=0.0, gzip;q=0.5", "gzip"),
    ("BR;Q=0", None),
    ("gzip;q=0, br;q=0", None),
    ("br;q=0, *", "gzip"),
    ("*;q=0", None),
    ("gzip, br;q=0", "gzip"),
    ("br, gzip", "br"),
    ("gzip;q=0.5, br;q=0.9", "br"),
    ("*", "br"),
    ("identity", None),
    ("", None),
    ("br;q=0.1, identity;q=0.5", None),
    ("br;q=abc", None),
]


@pytest.mark.parametrize("accept, coding", CODINGS)
def test_accept_encoding_qualities_are_honoured(app, table, client, accept, coding):
    hand = table.start_live()
    table.append(hand, [{"type": "capture", "player": "A", "cards": ["1g", "1j1"]}])
    page = client.get(table.url, headers={"Accept-Encoding": accept})
    assert page.status_code == 200 and page.headers.get("Content-Encoding") == coding
    phone = app.test_client(use_cookies=False)  # no cookie: the events come from the fast path once kept
    for _ in range(2):
        r = phone.get(
            f"/api/v1/tables/{table.id}/hands/{hand}/events",
            headers={"Accept-Encoding": accept, "X-Table-Key": table.edit_key},
        )
        assert r.status_code == 200 and r.headers.get("Content-Encoding") == coding
