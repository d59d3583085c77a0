"""What a page shows a person: its visible words, as a reader of one language sees them.

Text of ``<script>``/``<style>``/``<template>`` is not shown; an element marked
``lang`` other than the page's (a Korean card face on an English page, an English
gloss a Korean player asked for) or ``translate="no"`` (a link, a code, a command)
is deliberately in another language and left out. Titles, labels for screen
readers and placeholders are shown words too.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

HIDDEN = {"script", "style", "template", "svg"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
SHOWN_ATTRS = ("title", "aria-label", "placeholder", "alt")

LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'-]+")
HANGUL_WORD = re.compile(r"[\uac00-\ud7a3]+")
# Raw engine codes a person must never read: snake_case ids, card codes, a shake "흔들기 5".
RAW_ID = re.compile(r"\b[a-z]+_[a-z_]+\b")
CARD_CODE = re.compile(r"(?<![\w.])(?:1[0-2]|[1-9])(?:g|a|r|j[12]|jd)(?![\w])")
MONTH_AS_COUNT = re.compile(r"(?:흔들기|폭탄) \d+(?!\d|\s*배)|\b(?:shake|bomb)s? \d")


class _Visible(HTMLParser):
    def __init__(self, page_lang: str):
        super().__init__(convert_charrefs=True)
        self.page_lang = page_lang
        self.stack: list[tuple[str, bool]] = []  # (tag, skipped)
        self.texts: list[str] = []

    def _skipped(self) -> bool:
        return bool(self.stack) and self.stack[-1][1]

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        skip = (
            self._skipped()
            or tag in HIDDEN
            or a.get("translate") == "no"
            or "hidden" in a
            or (a.get("lang") not in (None, self.page_lang) and tag != "html")
        )
        if not skip:
            self.texts.extend(a[k] for k in SHOWN_ATTRS if a.get(k))
            if tag == "input" and a.get("type") in ("submit", "button") and a.get("value"):
                self.texts.append(a["value"])
        if tag not in VOID:
            self.stack.append((tag, skip))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        if not self._skipped() and data.strip():
            self.texts.append(data.strip())


def visible_text(html: str, lang: str) -> str:
    parser = _Visible(lang)
    parser.feed(html)
    return "\n".join(parser.texts)


def problems(html: str, lang: str, names=(), latin_ok=frozenset(), hangul_ok=frozenset()) -> list[str]:
    """The words of ``html`` a reader of ``lang`` did not ask for, and raw codes."""
    text = visible_text(html, lang)
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    found = [f"raw id {m}" for m in RAW_ID.findall(text)]
    found += [f"card code {m}" for m in CARD_CODE.findall(text)]
    found += [f"month as a count: {m.group(0)!r}" for m in MONTH_AS_COUNT.finditer(text)]
    if lang == "ko":
        found += [f"English {w!r}" for w in LATIN_WORD.findall(text) if w not in latin_ok]
    else:
        found += [f"Korean {w!r}" for w in HANGUL_WORD.findall(text) if w not in hangul_ok]
    return found
