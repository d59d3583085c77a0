"""Korean and English: the project's own message catalog, the language from a cookie.

``_("key")`` looks a message up in the catalog (``messages.MESSAGES``) in the
phone's language. The language is the ``lang`` cookie, else the browser's
preference, else Korean.

Why our own catalog and not Flask-Babel with ``.po`` files: the app has two
languages and ~400 short messages that are written side by side, so a translator
sees both at once; ``.po`` files would need ``pybabel compile`` (a build step the
README does not have) or shipping compiled ``.mo`` files. What Babel would bring
is kept here in a few lines: plural forms (``"{n} go|{n} gos"``: English picks
one or other, Korean has one form), money per locale (``money_text``) and
thousands separators.

Game terms players use in Korean (광박, 나가리 …) are shown in English mode with
the Korean word (``both``: "광박 gwang-bak"); Korean mode is Korean only, unless
the phone asked for glosses (``gloss`` cookie), when it shows "광박 gwang-bak" too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask, g, request
from markupsafe import Markup, escape
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from .messages import MESSAGES

LANGS = ("ko", "en")
DEFAULT_LANG = "ko"
COOKIE = "lang"
GLOSS_COOKIE = "gloss"
TEXT_COOKIE = "text"  # "big": 큰 글씨, the pages at about 130 % of the phone's own text size
# The keys whose Korean word English mode shows too: the terms a table argues in.
GLOSSED_PREFIXES = ("step_", "line_", "ev_", "junk_", "out_", "dokbak_reason_")
GLOSSED_KEYS = frozenset({"go", "stop", "nagari", "dokbak", "kind_gwangpalli", "sitter_comp"})
# Plain words, not terms; and the words a log line or the result repeats on every line, where
# the gloss doubled them ("Mina: 먹기 capture · pine bright", "Winner Mina 스톱 stop").
NOT_GLOSSED = frozenset({"step_base", "step_per_card", "ev_end_turn", "ev_capture", "out_stop"})


def init_app(app: Flask) -> None:
    from .terms import jinja_helpers

    app.jinja_env.globals.update(
        _=gettext,
        lang=current_lang,
        both=both,
        pts=points_text,
        ngettext=gettext,
        refusal=refusal,
        glossing=glossing,
        ko_word=ko_word,
        big_text=big_text,
        **jinja_helpers(),
    )
    app.jinja_env.policies["json.dumps_kwargs"] = {"ensure_ascii": False, "sort_keys": False}


def current_lang() -> str:
    if "lang" not in g:
        chosen = request.cookies.get(COOKIE)
        if chosen not in LANGS:
            chosen = lang_accepted(request.headers.get("Accept-Language"))
        g.lang = chosen
    return g.lang


def lang_accepted(accept_language: str | None) -> str:
    """The language an ``Accept-Language`` header picks (without a ``lang`` cookie): what
    ``current_lang`` gives, and the fast path's picture (``groups/fastpicture.py``) too."""
    return parse_accept_header(accept_language, LanguageAccept).best_match(LANGS) or DEFAULT_LANG


def glossing() -> bool:
    """Whether this Korean-mode phone asked for the English word beside each game term."""
    return request.cookies.get(GLOSS_COOKIE) == "1"


def big_text() -> bool:
    """Whether this phone asked for 큰 글씨 (Large text)."""
    return request.cookies.get(TEXT_COOKIE) == "big"


def glossed(key: str) -> bool:
    return key in GLOSSED_KEYS or key.startswith(GLOSSED_PREFIXES)


def _plural(text: str, values: dict) -> str:
    """``"one|other"``: English picks by ``n``; a text with no bar has one form (Korean)."""
    if "|" not in text:
        return text
    one, other = text.split("|", 1)
    return one if values.get("n") == 1 else other


def gettext(key: str, **values) -> str:
    """The message ``key`` in the current language, formatted with ``values``."""
    entry = MESSAGES.get(key)
    if entry is None:
        return key
    text = entry[0] if current_lang() == "ko" or not entry[1] else entry[1]
    text = _plural(text, values)
    if values:
        text = text.format(**{k: escape(v) if isinstance(v, str) else _number(v) for k, v in values.items()})
        return Markup(text)
    return text


def _number(value):
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else value


def both(key: str) -> str:
    """A game term: Korean in Korean mode; in English mode "광박 gwang-bak" for the glossed terms."""
    ko, en = MESSAGES[key]
    ko, en = _plural(ko, {}), _plural(en, {})
    if current_lang() == "ko":
        wants_gloss = glossing() and en and en != ko
        return f"{ko} {en}" if wants_gloss else ko
    # Only a single term is glossed ("광박 gwang-bak"); a phrase reads in English alone.
    single = " " not in ko and ":" not in ko
    return f"{ko} {en}" if glossed(key) and single and ko != en and key not in NOT_GLOSSED else en


def ko_word(key: str) -> str:
    """The Korean word of a term whatever the phone's language (a button's big word in English mode)."""
    return _plural(MESSAGES[key][0], {})


def points_text(n) -> str:
    """Points as the table says them: "12점", "12 points"."""
    return gettext("points_n", n=n)


def money_text(value, currency: str) -> str:
    """Money per locale: 1,400원 in Korean, ₩1,400 in English; other currencies lead with their sign."""
    sign = "-" if value < 0 else ""
    amount = f"{abs(value):,}"
    if currency == "pt":
        return f"{sign}{points_text(abs(value))}" if value else points_text(0)
    if currency in ("₩", "KRW"):
        return sign + gettext("won_amount", n=amount)
    return f"{sign}{currency}{amount}"


def refusal(error: Mapping[str, Any]) -> str:
    """An engine refusal in the phone's language: the catalog's words for its code.

    English shows the engine's own sentence (it names the card or player); Korean
    shows the catalog's sentence, or a general one for a code it does not know yet.
    """
    code = error.get("code")
    if current_lang() == "ko":
        entry = MESSAGES.get(f"refuse_{code}") or MESSAGES["refuse_generic"]
        return entry[0]
    return error.get("message") or MESSAGES["refuse_generic"][1]
