"""Home: start a table, reopen recent ones, join by code; the language switch."""

from __future__ import annotations

import unicodedata
from urllib.parse import urlsplit

from flask import redirect, request, url_for

from ..catalogue.i18n import COOKIE, GLOSS_COOKIE, LANGS, TEXT_COOKIE
from ..server.security import cookie_secure
from ..views import homepage
from . import bp

# Control and format characters (tab, newline, zero-width, bidi): never part of a path we send back.
UNSAFE = frozenset({"Cc", "Cf", "Zl", "Zp"})


def safe_next(target: str | None) -> str:
    """A path on this site to go back to; anything else goes home.

    Browsers drop tabs and newlines inside a URL and read a backslash as a slash, so
    ``/%09/evil.example`` (a tab) would become ``//evil.example``, another site: any whitespace,
    control character or backslash sends the phone home, as does anything with a scheme
    or a host.
    """
    home = url_for("home.index")
    if not target or not target.startswith("/") or target.startswith("//"):
        return home
    if "\\" in target or any(c.isspace() or unicodedata.category(c) in UNSAFE for c in target):
        return home
    parts = urlsplit(target)
    return home if parts.scheme or parts.netloc else target


@bp.get("/")
def index():
    return homepage.page()


def from_this_site() -> bool:
    """Whether this request was sent from one of this site's own pages (or typed, or bookmarked).

    ``/lang/…`` and ``/gloss/…`` are links (GET) that set a cookie: another site could link or
    redirect a phone there and choose its language. Browsers say where a request comes from in
    ``Sec-Fetch-Site`` (``same-origin``; ``none`` when typed or bookmarked); without it (an older
    browser) an ``Origin`` or ``Referer`` from another host says so. Nothing said: taken.
    """
    fetch_site = request.headers.get("Sec-Fetch-Site")
    if fetch_site is not None:
        return fetch_site in ("same-origin", "none")
    for header in ("Origin", "Referer"):
        value = request.headers.get(header)
        if value:
            parts = urlsplit(value)
            return parts.netloc == request.host and parts.scheme in ("http", "https")
    return True


@bp.get("/lang/<code>")
def switch_lang(code: str):
    response = redirect(safe_next(request.args.get("next")))
    if code in LANGS and from_this_site():
        response.set_cookie(
            COOKIE, code, max_age=60 * 60 * 24 * 365, samesite="Lax", httponly=True, secure=cookie_secure()
        )
    return response


@bp.get("/gloss/<choice>")
def switch_gloss(choice: str):
    """Korean mode with the English word of each game term beside it (광박 gwang-bak), or without."""
    response = redirect(safe_next(request.args.get("next")))
    if not from_this_site():
        return response
    response.set_cookie(
        GLOSS_COOKIE,
        "1" if choice == "on" else "0",
        max_age=60 * 60 * 24 * 365,
        samesite="Lax",
        httponly=True,
        secure=cookie_secure(),
    )
    return response


@bp.get("/text/<size>")
def switch_text(size: str):
    """큰 글씨 (Large text) on or off: one tap, kept on this phone for a year, like its language."""
    response = redirect(safe_next(request.args.get("next")))
    if size in ("big", "normal") and from_this_site():
        response.set_cookie(
            TEXT_COOKIE, size, max_age=60 * 60 * 24 * 365, samesite="Lax", httponly=True, secure=cookie_secure()
        )
    return response


@bp.get("/healthz")
def health():
    return {"ok": True}
