"""What an outside attack found (issue 10): each test names the attack it replays."""
from __future__ import annotations

import pytest


@pytest.fixture
def web(sqlite_app):
    """A phone on the app over a SQLite file (these faults are the same on PostgreSQL)."""
    return sqlite_app.test_client()

# -- 1. open redirect through the language switch ------------------------------------------------

REDIRECT_ATTACKS = [
    "/%09/evil.example",          # the tab is dropped by browsers: //evil.example
    "/%0a/x",                     # a newline in the Location header (was a 500)
    "/%0d%0a/x",
    "/%0d/evil.example",
    "//evil.example",
    "/\\evil.example",
    "/%5cevil.example",
    "https://evil.example/",
    "http:/evil.example",
    "%20//evil.example",
    "/%20/evil.example",
    "/%E3%80%80/evil.example",    # an ideographic space
    "/%00/evil.example",
    "javascript:alert(1)",
    "",
]


@pytest.mark.parametrize("lang", ["en", "ko", "xx"])
@pytest.mark.parametrize("target", REDIRECT_ATTACKS)
def test_language_switch_never_redirects_off_site(web, lang, target):
    r = web.get(f"/lang/{lang}?next={target}")
    assert r.status_code == 302
    assert r.headers["Location"] == "/"


@pytest.mark.parametrize("target", ["/", "/t/abc", "/t/abc/rules?x=1", "/new?preset=pagat"])
def test_language_switch_goes_back_to_same_site_paths(web, target):
    r = web.get("/lang/en", query_string={"next": target})
    assert r.status_code == 302 and r.headers["Location"] == target
