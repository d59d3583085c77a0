"""Korean and English: a small message catalog, the language from a cookie.

``_("key")`` looks a message up in the catalog (``messages.MESSAGES``) in the
phone's language; the engine's labels are already bilingual ("피박 pi-bak") and
are shown as they are. The language is the ``lang`` cookie, else the browser's
preference, else Korean.
"""
from __future__ import annotations

from flask import Flask, g, request
from markupsafe import Markup, escape

from .messages import MESSAGES

LANGS = ("ko", "en")
DEFAULT_LANG = "ko"
COOKIE = "lang"


def init_app(app: Flask) -> None:
    app.jinja_env.globals.update(_=gettext, lang=current_lang, both=both)
    app.jinja_env.policies["json.dumps_kwargs"] = {"ensure_ascii": False, "sort_keys": False}


def current_lang() -> str:
    if "lang" not in g:
        chosen = request.cookies.get(COOKIE)
        if chosen not in LANGS:
            chosen = request.accept_languages.best_match(LANGS) or DEFAULT_LANG
        g.lang = chosen
    return g.lang


def gettext(key: str, **values) -> str:
    """The message ``key`` in the current language, formatted with ``values``."""
    entry = MESSAGES.get(key)
    if entry is None:
        return key
    text = entry[0] if current_lang() == "ko" else entry[1]
    if values:
        text = text.format(**{k: escape(v) if isinstance(v, str) else v for k, v in values.items()})
        return Markup(text)
    return text


def both(key: str) -> str:
    """Korean and English together, for terms players argue about: "피박 pi-bak"."""
    ko, en = MESSAGES[key]
    return ko if ko == en else f"{ko} {en}"


def refusal(error: dict) -> str:
    """An engine refusal as a plain message: the catalog's words for its code, else the engine's."""
    key = f"refuse_{error.get('code')}"
    detail = error.get("message") or error.get("code", "")
    if key in MESSAGES and current_lang() == "ko":
        return f"{MESSAGES[key][0]} ({detail})"
    return detail
