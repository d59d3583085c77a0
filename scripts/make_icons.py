"""Render the app icons (PNG) from static/icon.svg with Debian's Chromium.

    python scripts/make_icons.py

Writes icon-192.png, icon-512.png (the SVG as drawn, transparent corners) and
icon-maskable-512.png (the art inside the maskable safe zone on a full-bleed
background) next to the SVG. The PNGs are committed; run this after changing the SVG.
"""

from __future__ import annotations

import base64
import os
from pathlib import Path

from playwright.sync_api import sync_playwright

STATIC = Path(__file__).resolve().parents[1] / "static"
CHROMIUM = os.environ.get("SCOREKEEPER_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
BACKGROUND = "#2a2420"  # the SVG's own background and the manifest's theme colour


def page_for(svg: str, size: int, maskable: bool) -> str:
    src = "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()
    # Maskable: launchers crop to a circle of 80% of the side; the art shrinks into it.
    art = int(size * 0.8) if maskable else size
    bg = BACKGROUND if maskable else "transparent"
    return (
        f"<html><body style='margin:0;background:{bg}'>"
        f"<div style='width:{size}px;height:{size}px;display:flex;align-items:center;justify-content:center'>"
        f"<img src='{src}' width='{art}' height='{art}'></div></body></html>"
    )


def main() -> None:
    svg = (STATIC / "icon.svg").read_text()
    outputs = {"icon-192.png": (192, False), "icon-512.png": (512, False), "icon-maskable-512.png": (512, True)}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for name, (size, maskable) in outputs.items():
            page = browser.new_page(viewport={"width": size, "height": size}, device_scale_factor=1)
            page.set_content(page_for(svg, size, maskable))
            page.wait_for_function("() => document.images[0].complete")
            page.screenshot(path=str(STATIC / name), omit_background=not maskable)
            page.close()
            print(STATIC / name)
        browser.close()


if __name__ == "__main__":
    main()
