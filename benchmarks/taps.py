"""Benchmark: the scripted three-player hand of issue 12, played by tapping in Chromium at 390×844.

Usage: ``python benchmarks/taps.py [--out FILE]``. It starts the app on a loopback port (a fresh
SQLite file), creates the table through the API, opens it as a phone would (Debian's Chromium,
390×844, touch) and plays ``benchmarks/scripted_hand.py`` by tapping only. It writes JSON:

- ``taps``: every tap the hand cost, from "Start the hand" to "Stop" (a select counts two: open, choose);
- ``cards``, ``turns``, ``event_taps``: the essential actions of the hand (cards captured, turns
  ended with End turn, events with their month choices and the start);
- ``max_scroll_in_turn``: the largest distance (CSS px) the page had to scroll to reach the
  taps of one turn (0: everything a turn needs is on one screen);
- ``bytes_a_tap``: the bytes that came over the network for each tap that talks to the server
  (response bodies as sent, i.e. compressed when the server compresses): median and max;
- ``tap_to_confirmed_ms``: from the tap to the server's answer shown on the page: median and max.

The screen is recognised: the one-tap screen (``[data-one-tap]``) or the earlier one (pick cards,
then the player's button; events as forms under "More events").
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from benchmarks.scripted_hand import PLAYERS, PRESET, TURNS, essentials  # noqa: E402

CHROMIUM = os.environ.get("SCOREKEEPER_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync"]
PHONE = {"width": 390, "height": 844}


UNCOVER = """el => {
  if (el.closest('.sheet-body, .prompt')) { return; }   // sheets and the prompt are drawn over the page
  const bar = document.querySelector('.turn-actions');
  const hidden = bar && !bar.contains(el) ? bar.getBoundingClientRect().height : 0;
  const r = el.getBoundingClientRect(), bottom = innerHeight - hidden;
  if (r.bottom > bottom) { window.scrollBy(0, r.bottom - bottom); } else if (r.top < 0) { window.scrollBy(0, r.top); }
}"""


class Meter:
    """Counts taps, the scrolling they needed and what each cost on the network."""

    def __init__(self, page):
        self.page = page
        self.taps = 0
        self.turn_scroll = 0.0
        self.max_scroll = 0.0
        self.bytes: list[int] = []
        self.times: list[float] = []
        self._finished: list = []
        page.on("requestfinished", lambda r: self._finished.append(r))

    def tap(self, locator, talks: bool = False, confirmed=None):
        """One tap on ``locator``; ``talks``: it posts, so its bytes and time are measured."""
        locator.wait_for(state="visible")
        before = self.page.evaluate("window.scrollY")
        locator.scroll_into_view_if_needed()
        # A control under the fixed End turn bar is not reachable either: scroll it clear.
        self.page.evaluate(UNCOVER, locator.element_handle())
        self.turn_scroll += abs(self.page.evaluate("window.scrollY") - before)
        self._finished.clear()
        start = time.perf_counter()
        locator.click()
        self.taps += 1
        if talks:
            (confirmed or self.settled)()
            self.times.append((time.perf_counter() - start) * 1000)
            self.page.wait_for_timeout(30)  # the last response's "finished" event
            self.bytes.append(sum(r.sizes()["responseBodySize"] for r in self._finished
                                  if "/version" not in r.url))

    def settled(self):
        """The server's answer is on the page: nothing on its way, nothing queued."""
        self.page.wait_for_function(
            "() => !document.documentElement.classList.contains('busy')"
            " && !document.querySelector('.pending-count')"
            " && !document.querySelector('[data-pending]')")

    def end_turn(self):
        self.max_scroll = max(self.max_scroll, self.turn_scroll)
        self.turn_scroll = 0.0


# -- the earlier screen: pick cards, then the player's button; events as forms ---------------------
def play_legacy(page, m: Meter):
    def more(kind: str, values: dict):
        form = page.locator(f"form.event-form:has(input[name=type][value={kind}])")
        if page.locator("details#more-events").get_attribute("open") is None:
            m.tap(page.locator("details#more-events > summary"))
        for name, value in values.items():
            select = form.locator(f"select[name={name}]")
            if select.input_value() != str(value):
                select.scroll_into_view_if_needed()
                select.select_option(str(value))
                m.taps += 2  # open the list, choose
        m.tap(form.locator("button[type=submit]"), talks=True)

    for player, steps in TURNS:
        decided = None
        for kind, value in steps:
            if kind == "cards":
                for code in value:
                    m.tap(page.locator(f"label.hc:has(input[name=cards][value='{code}'])"))
                m.tap(page.locator(f"form:has(input[name=type][value=capture]) button[value='{player}']"), talks=True)
            elif kind in ("shake", "bomb"):
                more(kind, {"player": player, "month": value})
            elif kind == "junk":
                more("take_junk", {"player": player, "reason": value})
            else:
                decided = kind
        m.tap(page.locator("form:has(input[name=type][value=end_turn]) button"), talks=True)
        if decided:
            m.tap(page.locator(f".prompt button.{decided}"), talks=True)
        m.end_turn()


# -- the one-tap screen ---------------------------------------------------------------------------
def play_one_tap(page, m: Meter):
    for player, steps in TURNS:
        if page.locator(".scores [data-player].on-turn").get_attribute("data-player") != player:
            m.tap(page.locator(f".scores [data-player='{player}'] button"))
        for kind, value in steps:
            if kind == "cards":
                for code in value:
                    m.tap(page.locator(f".picker [data-card='{code}']"), talks=True)
            elif kind in ("shake", "bomb"):
                m.tap(page.locator(f"#ev-{kind} > summary"))
                m.tap(page.locator(f"#ev-{kind} button[name=month][value='{value}']"), talks=True)
            elif kind == "junk":
                m.tap(page.locator(f".events button[data-junk='{value}']"), talks=True)
            else:
                m.tap(page.locator(f".turn-actions button[data-decide='{kind}']"), talks=True)
                break
        else:
            m.tap(page.locator(".turn-actions button[data-end-turn]"), talks=True)
        m.end_turn()


def serve(db: Path):
    from werkzeug.serving import make_server

    from scorekeeper.web import create_app

    app = create_app({"DATABASE_URL": f"sqlite:///{db}", "SECRET_KEY": "bench", "POLL_INTERVAL_MS": 1500,
                      "RATELIMIT_ENABLED": False})
    from werkzeug.serving import WSGIRequestHandler

    class Quiet(WSGIRequestHandler):
        def log_request(self, *args, **kwargs):
            pass

    server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}"


def run(viewport: dict | None = None) -> dict:
    from playwright.sync_api import sync_playwright

    tmp = Path(tempfile.mkdtemp(prefix="taps-"))
    server, base = serve(tmp / "taps.db")
    try:
        import urllib.request
        body = json.dumps({"name": "taps", "players": PLAYERS, "first_dealer": PLAYERS[0],
                           "rules": {"preset": PRESET}}).encode()
        req = urllib.request.Request(base + "/api/v1/tables", body, {"Content-Type": "application/json"})
        created = json.load(urllib.request.urlopen(req))
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            context = browser.new_context(viewport=viewport or PHONE, device_scale_factor=2, is_mobile=True,
                                          has_touch=True,
                                          locale="ko-KR")
            context.set_default_timeout(15_000)
            page = context.new_page()
            page.goto(created["edit_link"])
            page.goto(f"{base}/t/{created['id']}/hands/new")
            m = Meter(page)
            m.tap(page.locator("form[method=post] button[type=submit].primary"))
            page.wait_for_selector("#region")
            one_tap = page.locator("[data-one-tap]").count() > 0
            (play_one_tap if one_tap else play_legacy)(page, m)
            page.wait_for_selector(".pay", timeout=15_000)
            browser.close()
    finally:
        server.shutdown()
    wanted = essentials()
    return {
        "screen": "one-tap" if one_tap else "pick-then-player",
        "viewport": "{width}x{height}".format(**(viewport or PHONE)),
        "taps": m.taps,
        **wanted,
        "essential_taps": sum(wanted.values()),
        "max_scroll_in_turn": round(m.max_scroll),
        "bytes_a_tap": {"median": int(statistics.median(m.bytes)), "max": max(m.bytes), "taps": len(m.bytes)},
        "tap_to_confirmed_ms": {"median": round(statistics.median(m.times)), "max": round(max(m.times))},
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, CPython {platform.python_version()}",
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="also write the JSON to this file")
    parser.add_argument("--viewport", default="390x844", help="WIDTHxHEIGHT in CSS px (default 390x844)")
    args = parser.parse_args()
    width, height = (int(v) for v in args.viewport.split("x"))
    result = run({"width": width, "height": height})
    text = json.dumps(result, indent=1)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
