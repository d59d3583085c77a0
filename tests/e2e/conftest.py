"""Playwright journeys in Debian's Chromium against the real app on a loopback port.

The app runs in a background thread (werkzeug's server) on a fresh SQLite file.
``playwright install`` is never used: the browser is ``/usr/bin/chromium``.
Screenshots go to ``test-artifacts/`` (git-ignored).
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from scorekeeper.web import close_app

CHROMIUM = os.environ.get("SCOREKEEPER_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PHONE = {"width": 390, "height": 844}


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/e2e/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.e2e)


def _quiet_handler():
    from werkzeug.serving import WSGIRequestHandler

    class Quiet(WSGIRequestHandler):
        def log_request(self, *args, **kwargs):  # share links carry secrets: no request log
            pass

    return Quiet


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    """The app on 127.0.0.1 and a free port, for the whole session."""
    from werkzeug.serving import make_server

    from scorekeeper.web import create_app

    path = tmp_path_factory.mktemp("e2e") / "e2e.db"
    # The rate limits count this session's tables only: the instance's own count outlives the run,
    # and a morning of e2e runs from 127.0.0.1 would otherwise end in 429 at table creation.
    # The whole e2e session makes more tables than a person would in an hour: its own create limit.
    app = create_app(
        {
            "DATABASE_URL": f"sqlite:///{path}",
            "SECRET_KEY": "e2e",
            "POLL_INTERVAL_MS": 700,
            "RATELIMIT_STORAGE_URI": f"sqlite:///{path.parent / 'ratelimits.db'}",
            "RATELIMIT_CREATE": "500/hour",
        }
    )
    server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=_quiet_handler())
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(5)
    close_app(app)


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing: apt-get install -y chromium")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def new_context(browser):
    """Browser contexts at a phone's size; closed after the test."""
    made = []

    def make(locale: str = "en-US", **options):
        context = browser.new_context(
            viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, locale=locale, **options
        )
        context.set_default_timeout(10_000)
        made.append(context)
        return context

    yield make
    for context in made:
        context.close()


@pytest.fixture
def page(new_context):
    return new_context().new_page()


@pytest.fixture
def shot():
    """Save a full-page screenshot to test-artifacts/NAME.png."""
    ARTIFACTS.mkdir(exist_ok=True)

    def take(page, name: str, full_page: bool = True):
        path = ARTIFACTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=full_page)
        return path

    return take
