"""The rules reference at ``/rules``: ``scorekeeper/docs/rules.md`` as a page a phone can read.

The file is package data (``pyproject.toml``), read through ``importlib.resources`` so that a
wheel install serves it as an editable one does. It is converted once per process: it only
changes with a new release. Heading ids follow GitHub's (``slugify_unicode``), so the
contents' links work both in the repository and here.
"""

from __future__ import annotations

import html
import re
from functools import cache
from importlib import resources

import markdown
from flask import Blueprint, render_template_string
from markdown.extensions.toc import slugify_unicode
from markupsafe import Markup

bp = Blueprint("rulesdoc", __name__)

# A page of the app's frame around the reference; the reference is English with the Korean terms.
PAGE = """{% extends "base.html" %}
{% block title %}{{ _('rules_reference') }} · {{ _('app_name') }}{% endblock %}
{% block content %}
<p class="hint">{{ _('rules_reference_hint') }}</p>
<article class="doc" lang="en">{{ body }}</article>
{% endblock %}"""


def reference_text() -> str:
    return resources.files("scorekeeper").joinpath("docs/rules.md").read_text(encoding="utf-8")


@cache
def reference_html() -> Markup:
    """The reference as HTML: our own file, so its HTML (``<br>`` in table cells) is trusted."""
    body = markdown.markdown(
        reference_text(),
        extensions=["tables", "sane_lists", "toc"],
        extension_configs={"toc": {"slugify": slugify_unicode}},
    )
    return Markup(_scroll_regions(body))


_HEADING_OR_TABLE = re.compile(r"<h[23][^>]*>(.*?)</h[23]>|<table>")
_TAGS = re.compile(r"<[^>]+>")


def _scroll_regions(page: str) -> str:
    """Each table in a region that scrolls sideways on a phone, takes the keyboard's focus (so its
    hidden columns can be reached without a finger: axe-core's scrollable-region-focusable) and
    is named after the section it is in."""
    heading = "Rules reference"

    def wrap(m: re.Match) -> str:
        nonlocal heading
        if m.group(1) is not None:
            heading = html.unescape(_TAGS.sub("", m.group(1))).strip()
            return m.group(0)
        label = html.escape(heading, quote=True)
        return f'<div class="table-scroll" tabindex="0" role="region" aria-label="{label}"><table>'

    return _HEADING_OR_TABLE.sub(wrap, page).replace("</table>", "</table></div>")


@bp.get("/rules")
def show():
    return render_template_string(PAGE, body=reference_html())
