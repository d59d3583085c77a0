"""The installable app: manifest, icons and service worker as the browser needs them."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path

import pytest

from scorekeeper.web.home import pwa

STATIC = Path(__file__).resolve().parents[2] / "static"


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_manifest(client):
    r = client.get("/manifest.webmanifest")
    assert r.status_code == 200
    assert r.mimetype == "application/manifest+json"
    doc = json.loads(r.data)
    assert doc["name"] == "고스톱 점수판" and doc["lang"] == "ko"  # the phone's language (issue 13)
    assert doc["start_url"] == doc["scope"] == "/"
    assert doc["display"] == "standalone"
    assert re.fullmatch(r"#[0-9a-f]{6}", doc["theme_color"]) and re.fullmatch(r"#[0-9a-f]{6}", doc["background_color"])
    sizes = {}
    for icon in doc["icons"]:
        with client.get(icon["src"]) as got:
            assert got.status_code == 200, icon
            assert got.mimetype == icon["type"]
            if icon["type"] == "image/png":
                sizes[icon["sizes"], icon.get("purpose", "any")] = png_size(got.data)
    assert sizes == {
        ("192x192", "any"): (192, 192),
        ("512x512", "any"): (512, 512),
        ("512x512", "maskable"): (512, 512),
    }


def test_service_worker_is_served_from_the_root(client):
    r = client.get("/sw.js")
    assert r.status_code == 200
    assert r.mimetype == "text/javascript"
    assert r.headers["Service-Worker-Allowed"] == "/"
    assert r.headers["Cache-Control"] == "no-cache"
    script = r.get_data(as_text=True)
    assert pwa.CONFIG_MARK not in script
    config = json.loads(re.search(r"const SK = (\{.*?\});", script).group(1))
    assert re.fullmatch(r"[0-9a-f]{12}", config["version"])
    assert "/manifest.webmanifest" in config["shell"]
    # The shell is cached at the URLs the pages ask for: with each file's content digest.
    page = client.get("/").get_data(as_text=True)
    for asset in re.findall(r'(?:href|src)="(/static/app\.(?:js|css)\?v=[0-9a-f]{12})"', page):
        assert asset in config["shell"]
    assert config["css"] in config["shell"]
    # The script's modules, imported by app.js at plain URLs (no digest): listed so, every one.
    modules = sorted(p.name for p in (STATIC / "js").glob("*.js"))
    assert len(modules) >= 10 and config["modules"] == "/static/js/"
    assert [u for u in config["shell"] if u.startswith("/static/js/")] == [f"/static/js/{m}" for m in modules]
    for url in config["shell"]:
        with client.get(url) as got:
            assert got.status_code == 200, url
    pages = re.compile(config["pages"])
    assert pages.match("/t/AbC-_1/hands/3") and pages.match("/")
    assert not pages.match("/t/AbC-_1") and not pages.match("/t/AbC-_1/hands/3/edit")


def test_cache_version_follows_the_shell(app, tmp_path):
    """Any change to a shell file gives a new cache name, so phones fetch the new shell."""
    for name in ("sw.js", *pwa.SHELL_FILES):
        (tmp_path / name).write_bytes(b"x")
    app.static_folder = str(tmp_path)
    with app.app_context():
        before = pwa.shell_version()
        (tmp_path / "app.css").write_bytes(b"y")
        assert pwa.shell_version() != before


@pytest.mark.parametrize("path", ["/", "/new"])
def test_pages_link_the_manifest_and_the_worker(client, path):
    html = client.get(path).get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert 'data-sw="/sw.js"' in html
    assert '<meta name="theme-color"' in html


def test_live_hand_gives_the_offline_queue_what_it_needs(table, client):
    hand = table.start_live()
    html = client.get(f"{table.url}/hands/{hand}").get_data(as_text=True)
    data = json.loads(re.search(r'<script type="application/json" id="live-data">(.*?)</script>', html).group(1))
    assert data["key"] == f"{table.id}.{hand}"
    assert data["events"] == f"/api/v1/tables/{table.id}/hands/{hand}/events"
    # Korean mode is Korean: no English gloss unless the phone asked for one (issue 13)
    assert data["labels"]["capture"] == "먹기"
    assert data["text"]["pending"] == "대기 중" and data["text"]["not_saved"] == "저장 안 됨"
    assert 'data-seq="0"' in html and 'data-current="A"' in html
    assert "data-undo hidden" in html  # shown by the script when a pending tap can be taken back


def test_a_viewer_gets_no_queue(table, client):
    hand = table.start_live()
    table.enter(table.view_key)
    html = client.get(f"{table.url}/hands/{hand}").get_data(as_text=True)
    assert 'id="live-data"' not in html
