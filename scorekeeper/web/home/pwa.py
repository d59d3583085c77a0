"""The installable app: the web app manifest and the service worker, served from the site root.

The service worker (``static/sw.js``) is served at ``/sw.js`` so that its scope is the
whole site. Its cache name carries a digest of the app shell's files: any change to
them installs a new worker, which fetches the new shell and deletes the old caches.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from flask import Blueprint, Response, current_app, url_for

from ..catalogue.i18n import LANGS, current_lang, gettext
from ..catalogue.messages import MESSAGES

OFFLINE_TEXT = ("app_name", "offline_title", "offline_body", "home")

bp = Blueprint("pwa", __name__)

THEME = "#2a2420"  # the top bar
BACKGROUND = "#f6f3ec"  # the page
# What a phone needs to open the app with no connection (pages are kept as they are visited).
SHELL_FILES = ("app.css", "screens.css", "app.js", "icon.svg", "icon-192.png", "icon-512.png")
ICONS = (
    ("icon.svg", "any", "image/svg+xml"),
    ("icon-192.png", "192x192", "image/png"),
    ("icon-512.png", "512x512", "image/png"),
    ("icon-maskable-512.png", "512x512", "image/png"),
)
CONFIG_MARK = "/*SK_CONFIG*/{}"
# app.js is an ES module: the modules it imports (static/js/) are fetched at their plain URLs
# (a relative import carries no digest), so the shell lists them so, and the worker asks the
# network for them first (see sw.js).
MODULES = "js"


def _static(name: str) -> Path:
    return Path(current_app.static_folder or "") / name


def modules() -> tuple[str, ...]:
    """The script's modules, as paths under static/ (every file of static/js/, so a new one is listed)."""
    return tuple(f"{MODULES}/{path.name}" for path in sorted(_static(MODULES).glob("*.js")))


@bp.app_template_global()
def script_modules() -> list[str]:
    """The modules' URLs as app.js imports them: the pages preload them all at once (no waterfall of imports)."""
    return [url_for("static", filename="") + name for name in modules()]


def shell_version() -> str:
    """A digest of the worker and the shell's files: it changes whenever one of them does."""
    digest = hashlib.sha256()
    for name in ("sw.js", *SHELL_FILES, *modules()):
        digest.update(_static(name).read_bytes())
    return digest.hexdigest()[:12]


@bp.get("/manifest.webmanifest")
def manifest():
    doc = {
        "id": url_for("home.index"),
        "name": gettext("app_name"),
        "short_name": gettext("short_name"),
        "description": gettext("manifest_description"),
        "lang": current_lang(),
        "start_url": url_for("home.index"),
        "scope": url_for("home.index"),
        "display": "standalone",
        "orientation": "portrait",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "icons": [
            {
                "src": url_for("static", filename=name),
                "sizes": sizes,
                "type": kind,
                **({"purpose": "maskable"} if "maskable" in name else {}),
            }
            for name, sizes, kind in ICONS
        ],
    }
    body = json.dumps(doc, ensure_ascii=False, indent=1)
    return Response(
        body,
        mimetype="application/manifest+json",
        headers={"Cache-Control": "no-cache", "Vary": "Cookie, Accept-Language"},
    )


@bp.get("/sw.js")
def service_worker():
    """The worker script with its configuration: cache version, shell URLs, which pages to keep."""
    config = {
        "version": shell_version(),
        "shell": [url_for("static", filename=name) for name in SHELL_FILES]
        + [url_for("pwa.manifest")]
        + [url_for("static", filename="") + name for name in modules()],
        "static": url_for("static", filename=""),
        "modules": url_for("static", filename="") + MODULES + "/",
        "css": url_for("static", filename="app.css"),  # with its digest: the URL the shell cache holds
        "home": url_for("home.index"),
        # Home and live hand pages are kept for an offline reload (never the table page: it shows share links).
        # The offline page's words, from the catalogue: the worker picks the phone's language.
        "text": {lang: {key: MESSAGES[key][i] for key in OFFLINE_TEXT} for i, lang in enumerate(LANGS)},
        "pages": "^" + re.escape(url_for("home.index").rstrip("/")) + r"(/|/t/[A-Za-z0-9_-]+/hands/[0-9]+)$",
    }
    script = _static("sw.js").read_text(encoding="utf-8").replace(CONFIG_MARK, json.dumps(config), 1)
    return Response(
        script,
        mimetype="text/javascript",
        headers={
            "Service-Worker-Allowed": url_for("home.index"),
            # The browser checks for a new worker on every visit; never from a stale HTTP cache.
            "Cache-Control": "no-cache",
        },
    )
