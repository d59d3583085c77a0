"""Benchmark: the scripted three-player hand of issue 12, played by tapping in Chromium at 390×844.

Usage: ``python benchmarks/taps.py [--seats] [--out FILE]``. It starts the app on a loopback port (a fresh
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

With ``--seats`` every player has their own phone (one browser context each, seated by "I am
…" on the table page): ``taps`` counts all phones from "Start the hand" to the result, with
``taps_per_phone``, ``end_turn_taps``, ``seat_taps`` (taking the seats, once an evening, apart),
``lost`` (scripted events missing from the stored log) and ``log_as_one_phone`` (the stored log,
each run of one player's captures as one, is the one-phone log).

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

from benchmarks.scripted_hand import PLAYERS, PRESET, TURNS, essentials

CHROMIUM = os.environ.get("SCOREKEEPER_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
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
            self.bytes.append(sum(r.sizes()["responseBodySize"] for r in self._finished if "/version" not in r.url))

    def settled(self):
        """The server's answer is on the page: nothing on its way, nothing queued."""
        self.page.wait_for_function(
            "() => !document.documentElement.classList.contains('busy')"
            " && !document.querySelector('.pending-count')"
            " && !document.querySelector('[data-pending]')"
        )

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

    app = create_app(
        {"DATABASE_URL": f"sqlite:///{db}", "SECRET_KEY": "bench", "POLL_INTERVAL_MS": 1500, "RATELIMIT_ENABLED": False}
    )
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

        body = json.dumps(
            {"name": "taps", "players": PLAYERS, "first_dealer": PLAYERS[0], "rules": {"preset": PRESET}}
        ).encode()
        req = urllib.request.Request(base + "/api/v1/tables", body, {"Content-Type": "application/json"})
        created = json.load(urllib.request.urlopen(req))
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            context = browser.new_context(
                viewport=viewport or PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, locale="ko-KR"
            )
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


# -- every player on their own phone (--seats) ----------------------------------------------------
SEATED = (
    "() => { const r = document.getElementById('region');"
    " return r && !document.documentElement.classList.contains('busy')"
    " && !document.querySelector('.pending-count') && !document.querySelector('.queue'); }"
)


def _stored(base: str, created: dict, hand: int) -> list[dict]:
    import urllib.request

    req = urllib.request.Request(
        f"{base}/api/v1/tables/{created['id']}/hands/{hand}/events", headers={"X-Table-Key": created["edit_key"]}
    )
    return json.load(urllib.request.urlopen(req))["events"]


def play_seats(pages: dict, meters: dict, stored) -> int:
    """Each player's phone taps its own captures and events; nobody taps End turn after a turn
    with captures. A phone taps once its page shows the log as stored (its push or poll has
    come), as a player looks at their phone when their turn comes. Answers the End turn taps."""
    end_turns = 0
    for player, steps in TURNS:
        page, m = pages[player], meters[player]
        if not steps:
            continue  # an empty turn: the next player's tap passes it (asked about first)
        n = len(stored())
        page.wait_for_function(f"() => document.getElementById('region').dataset.seq === '{n}'", timeout=15_000)
        for kind, value in steps:
            if kind == "cards":
                for code in value:
                    m.tap(page.locator(f".picker [data-card='{code}']"), talks=True, confirmed=m.settled)
                    if page.locator("[data-skip-yes]").count():  # the turns between are asked about
                        m.tap(page.locator("[data-skip-yes]"), talks=True)
            elif kind in ("shake", "bomb"):
                m.tap(page.locator(f"#ev-{kind} > summary"))
                m.tap(page.locator(f"#ev-{kind} button[name=month][value='{value}']"), talks=True)
            elif kind == "junk":
                m.tap(page.locator(f".events button[data-junk='{value}']"), talks=True)
            else:
                m.tap(page.locator(f".turn-actions button[data-decide='{kind}']"), talks=True)
        m.end_turn()
    return end_turns


def _merged(log: list[dict]) -> list[dict]:
    """A log with each run of one player's captures as one capture (the one-phone log's shape)."""
    out: list[dict] = []
    for e in log:
        if out and e["type"] == "capture" and out[-1]["type"] == "capture" and out[-1]["player"] == e["player"]:
            out[-1] = out[-1] | {"cards": out[-1]["cards"] + e["cards"]}
        else:
            out.append(dict(e))
    return out


def run_seats(viewport: dict | None = None) -> dict:
    """The scripted hand with one seat-bound browser context per player."""
    import urllib.request

    from playwright.sync_api import sync_playwright

    from benchmarks.scripted_hand import events as one_phone_log

    tmp = Path(tempfile.mkdtemp(prefix="taps-seats-"))
    server, base = serve(tmp / "taps.db")
    try:
        body = json.dumps(
            {"name": "taps", "players": PLAYERS, "first_dealer": PLAYERS[0], "rules": {"preset": PRESET}}
        ).encode()
        req = urllib.request.Request(base + "/api/v1/tables", body, {"Content-Type": "application/json"})
        created = json.load(urllib.request.urlopen(req))
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            pages, meters, seat_taps = {}, {}, 0
            for name in PLAYERS:
                context = browser.new_context(
                    viewport=viewport or PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, locale="ko-KR"
                )
                context.set_default_timeout(15_000)
                page = context.new_page()
                page.goto(created["edit_link"])  # the edit link, shared once an evening
                with page.expect_navigation():
                    page.locator(f"#seats button[data-seat='{name}']").click()  # "I am Mina"
                seat_taps += 1
                if not page.locator(f"#seats button.primary[data-seat='{name}']").count():
                    raise RuntimeError(f"{name}'s phone did not take its seat")
                pages[name], meters[name] = page, Meter(page)
            dealer = pages[PLAYERS[0]]
            meters[PLAYERS[0]].tap(dealer.locator("form[method=post] button[type=submit].primary:not([data-seat])"))
            dealer.wait_for_selector("#region[data-live]")
            hand = int(dealer.url.rstrip("/").rsplit("/", 1)[-1])
            for name in PLAYERS[1:]:  # the seated phones follow their table into the hand
                pages[name].wait_for_url(f"**/hands/{hand}", timeout=15_000)
                pages[name].wait_for_selector("#region[data-live]")
            end_turns = play_seats(pages, meters, lambda: _stored(base, created, hand))
            for page in pages.values():
                page.wait_for_selector(".pay", timeout=15_000)
            log = _stored(base, created, hand)
            browser.close()
    finally:
        server.shutdown()
    expected, got = one_phone_log(), _merged(log)
    missing = [e for e in expected if e not in got]
    acknowledged = sum(len(m.times) for m in meters.values())
    times = [t for m in meters.values() for t in m.times]
    sizes = [b for m in meters.values() for b in m.bytes]
    return {
        "screen": "seats",
        "viewport": "{width}x{height}".format(**(viewport or PHONE)),
        "phones": len(PLAYERS),
        "taps": sum(m.taps for m in meters.values()),
        "taps_per_phone": {name: m.taps for name, m in meters.items()},
        "end_turn_taps": end_turns,
        "seat_taps": seat_taps,
        **essentials(),
        "max_scroll_in_turn": round(max(m.max_scroll for m in meters.values())),
        "acknowledged_taps": acknowledged,
        "lost": len(missing),
        "log_as_one_phone": got == expected,
        "bytes_a_tap": {"median": int(statistics.median(sizes)), "max": max(sizes), "taps": len(sizes)},
        "tap_to_confirmed_ms": {"median": round(statistics.median(times)), "max": round(max(times))},
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, CPython {platform.python_version()}",
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="also write the JSON to this file")
    parser.add_argument("--viewport", default="390x844", help="WIDTHxHEIGHT in CSS px (default 390x844)")
    parser.add_argument("--seats", action="store_true", help="one seat-bound browser context per player")
    args = parser.parse_args()
    width, height = (int(v) for v in args.viewport.split("x"))
    result = (run_seats if args.seats else run)({"width": width, "height": height})
    text = json.dumps(result, indent=1)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
