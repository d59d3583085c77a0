"""Screenshots of the live hand at 390×844, Korean and English, for looking at (issue 12).

Usage: ``python benchmarks/live_shots.py [OUT_DIR]`` (default ``test-artifacts/live``). Plays the
scripted hand of ``benchmarks/scripted_hand.py`` by tapping, and saves: the start of the hand,
mid-hand with half the deck spent, the go/stop prompt (reached through the engine's prompt, so
it shows as a table would see it), the event sheet, the piles sheet and the result.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import urllib.request
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from benchmarks.scripted_hand import PLAYERS, PRESET, TURNS
from benchmarks.taps import ARGS, CHROMIUM, PHONE, serve


def settle(page):
    page.wait_for_function(
        "() => !document.documentElement.classList.contains('busy') && !document.querySelector('.pending-count')"
    )


def play(page, out: Path, lang: str):
    def shot(name):
        page.wait_for_timeout(150)
        page.screenshot(path=str(out / f"{lang}-{name}.png"))

    shot("1-start")
    taken = 0
    for n, (player, steps) in enumerate(TURNS):
        for kind, value in steps:
            if kind == "cards":
                for code in value:
                    page.locator(f".picker [data-card='{code}']").click()
                    settle(page)
                    taken += 1
            elif kind in ("shake", "bomb"):
                page.locator(f"#ev-{kind} > summary").click()
                if lang and n == 0:
                    shot("4-event-sheet")
                page.locator(f"#ev-{kind} button[name=month][value='{value}']").click()
                settle(page)
            elif kind == "junk":
                page.locator(f".events button[data-junk='{value}']").click()
                settle(page)
            elif kind == "go":
                # Through End turn, as a table that did not tap Go at once: the engine's prompt.
                page.locator(".turn-actions form[data-end-turn-form]").evaluate("f => f.hidden = false")
                page.locator(".turn-actions [data-end-turn]").click()
                settle(page)
                page.locator(".prompt").wait_for()
                shot("3-go-stop-prompt")
                page.locator(".prompt button.go").click()
                settle(page)
                break
            elif kind == "stop":
                page.locator(".turn-actions button[data-decide='stop']").click()
                settle(page)
                break
        else:
            page.locator(".turn-actions button[data-end-turn]").click()
            settle(page)
        if taken >= 24 and not (out / f"{lang}-2-mid-hand.png").exists():
            shot("2-mid-hand")
            page.locator("#piles > summary").click()
            shot("5-piles-sheet")
            page.locator("#piles [data-close-sheet]").click()
    page.wait_for_selector(".pay")
    page.screenshot(path=str(out / f"{lang}-6-result.png"), full_page=True)


def main() -> None:
    from playwright.sync_api import sync_playwright

    out = Path(sys.argv[1] if len(sys.argv) > 1 else "test-artifacts/live")
    out.mkdir(parents=True, exist_ok=True)
    server, base = serve(Path(tempfile.mkdtemp(prefix="shots-")) / "shots.db")
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for lang in ("ko", "en"):
                body = json.dumps(
                    {"name": "", "players": PLAYERS, "first_dealer": PLAYERS[0], "rules": {"preset": PRESET}}
                ).encode()
                req = urllib.request.Request(base + "/api/v1/tables", body, {"Content-Type": "application/json"})
                created = json.load(urllib.request.urlopen(req))
                context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
                context.set_default_timeout(15_000)
                page = context.new_page()
                page.goto(created["edit_link"])
                page.goto(f"{base}/lang/{lang}?next=/t/{created['id']}/hands/new")
                page.locator("form[method=post] button[type=submit].primary").click()
                page.wait_for_selector("#region")
                play(page, out, lang)
                context.close()
            browser.close()
    finally:
        server.shutdown()
    print(out)


if __name__ == "__main__":
    main()
