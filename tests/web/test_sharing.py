"""Issue 13: share links and QR codes use an address other phones can reach, or the page warns."""

from __future__ import annotations

import pytest

from scorekeeper.web.server.run import join_hint
from scorekeeper.web.views import sharing


@pytest.fixture
def app(sqlite_app):
    return sqlite_app


@pytest.mark.parametrize(
    ("host_url", "public", "lan", "answers", "expect"),
    [
        ("http://127.0.0.1:5000/", None, None, False, ("http://127.0.0.1:5000/", True)),
        ("http://localhost:5000/", None, "192.168.0.7", False, ("http://localhost:5000/", True)),  # bound to loopback
        ("http://127.0.0.1:5000/", None, "192.168.0.7", True, ("http://192.168.0.7:5000/", False)),
        ("http://[::1]:5000/", None, "10.0.0.2", True, ("http://10.0.0.2:5000/", False)),
        ("http://192.168.0.7:5000/", None, None, False, ("http://192.168.0.7:5000/", False)),
        ("http://127.0.0.1:5000/", "https://gostop.example/", None, False, ("https://gostop.example/", False)),
    ],
    ids=["loopback-alone", "lan-not-listening", "lan-listening", "ipv6-loopback", "opened-on-lan", "public-url"],
)
def test_share_base(monkeypatch, host_url, public, lan, answers, expect):
    monkeypatch.setattr(sharing, "lan_address", lambda: lan)
    monkeypatch.setattr(sharing, "_answers", lambda address, port: answers)
    assert sharing.share_base(host_url, public) == expect


def test_loopback_page_warns_and_public_url_is_used(app, make_table, client):
    t = make_table()
    t.enter()
    html = client.get(t.url, base_url="http://localhost").get_data(as_text=True)
    assert 'class="refusal" role="note"' in html and "scorekeeper serve --host 0.0.0.0" in html
    app.config["PUBLIC_URL"] = "https://gostop.example"
    html = client.get(t.url, base_url="http://localhost").get_data(as_text=True)
    assert 'role="note"' not in html
    assert f"https://gostop.example/j/{t.id}/{t.view_key}" in html


def test_serve_says_how_phones_join():
    assert "--host 0.0.0.0" in join_hint("127.0.0.1") and join_hint("0.0.0.0") is None
