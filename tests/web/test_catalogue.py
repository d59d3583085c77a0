"""Issue 13: every word a person reads comes from the message catalogue, in both languages.

Templates, the scripts, the service worker and the manifest's module are read as source:
a word written straight into them (Korean or English) is a word only one language gets.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from scorekeeper.web.catalogue.messages import MESSAGES

from .visible import HANGUL_WORD, visible_text

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = sorted((ROOT / "templates").rglob("*.html"))
SCRIPTS = sorted((ROOT / "static").rglob("*.js"))  # the entry points and their modules (static/js/)
# Words that are the same in both languages: file formats, the QR code.
SAME_IN_BOTH = {"CSV", "JSON", "QR"}
JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
WORD = re.compile(r"[A-Za-z]{2,}|[\uac00-\ud7a3]+")
# A script putting a literal string where a person reads it.
SHOWN_BY_SCRIPT = re.compile(
    r"""(?:textContent|innerText|title|placeholder|alert|confirm|prompt)\s*(?:=|\()\s*(["'])((?:(?!\1).)*[A-Za-z가-힣](?:(?!\1).)*)\1"""
)


def _params(paths, base):
    return [pytest.param(p, id=str(p.relative_to(base))) for p in paths]


def template_words(path: Path) -> list[str]:
    source = path.read_text(encoding="utf-8")
    source = re.sub(r"\{%\s*block body_attrs\s*%\}.*?\{%\s*endblock\s*%\}", "", source)  # attributes of <body>
    source = re.sub(r"<(/?)\{\{[^}]*\}\}", r"<\1span", source)  # <{{ tag }}>: an element all the same
    source = JINJA.sub(" ", source)
    text = visible_text(f"<html>{source}</html>", "any")
    return [w for w in WORD.findall(text) if w not in SAME_IN_BOTH]


@pytest.mark.parametrize("path", _params(TEMPLATES, ROOT / "templates"))
def test_templates_write_no_words_of_their_own(path):
    assert template_words(path) == []


@pytest.mark.parametrize("path", _params(SCRIPTS, ROOT / "static"))
def test_scripts_show_no_words_of_their_own(path):
    source = re.sub(r"/\*.*?\*/|//[^\n]*", " ", path.read_text(encoding="utf-8"), flags=re.S)
    assert [m.group(2) for m in SHOWN_BY_SCRIPT.finditer(source)] == []
    literals = re.findall(r"""(["'])((?:(?!\1).)*)\1""", source)
    assert [s for _, s in literals if HANGUL_WORD.search(s)] == []


@pytest.mark.parametrize(
    "module",
    [
        "home/pwa.py",
        "catalogue/i18n.py",
        "hands/quick.py",
        "views/tableview.py",
        "views/export.py",
        "views/joincode.py",
        "views/newtable.py",
        "tables/routes.py",
        "catalogue/terms.py",
        "views/sharing.py",
        "groups/routes.py",
        "groups/picture.py",
        "access/groups.py",
        "api/groups.py",
    ],
)
def test_modules_write_no_korean_of_their_own(module):
    """Korean in a module's strings (not its docstrings) is a word outside the catalogue."""
    tree = ast.parse((ROOT / "scorekeeper" / "web" / module).read_text(encoding="utf-8"))
    docs = {
        id(n.body[0].value)
        for n in ast.walk(tree)
        if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef))
        and n.body
        and isinstance(n.body[0], ast.Expr)
        and isinstance(n.body[0].value, ast.Constant)
    }
    strings = [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs
    ]
    assert [s for s in strings if HANGUL_WORD.search(s)] == []


def test_every_key_has_both_languages():
    # evb_*: the English gloss beside an event button's Korean word (a Korean page shows the word alone)
    missing = [
        k
        for k, (ko, en) in MESSAGES.items()
        if (not ko and not k.startswith("evb_")) or (not en and not k.startswith("refuse_"))
    ]
    assert missing == []


def test_the_check_catches_a_word_written_into_a_template(tmp_path):
    page = tmp_path / "x.html"
    page.write_text(
        '{% if x %}<p>{{ _("ok") }} score</p><span title="점수">{{ n }}</span>{% endif %}', encoding="utf-8"
    )
    assert template_words(page) == ["score", "점수"]
