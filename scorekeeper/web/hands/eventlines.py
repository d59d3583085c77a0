"""How an event reads in the hand's log: one wording, written by the server and by the page's script.

The wording is data built from the message catalogue and the engine's event kinds: for each event
type a list of pieces joined by " · ", each piece a list of alternatives of which the first whose
fields the event has is written ("{month}월 흔들기", else "흔들기"). A placeholder is a field of the
event, written as it is (``{multiplier}``) or through one of the tables (``{cards:cards}`` names
each card). The server fills them here (``describe``); the live page carries the same templates and
tables (``for_page``) so the script (static/js/queue-core.js) writes a tap still waiting on the
phone as the log will say it.

>>> fill("{type:labels} ×{multiplier}", {"type": "mission", "multiplier": 2}, {"labels": {"mission": "미션"}})
'미션 ×2'
>>> fill("{cards:cards}", {"cards": ["1g", "xx"]}, {"cards": {"1g": "송학 광"}})
'송학 광, xx'
>>> fill("{month}월 흔들기", {"type": "shake"}, {}) is None
True
"""

from __future__ import annotations

import re
from typing import TypedDict

from ...engine.facade import CARDS, EVENTS, JUNK_REASONS, MONTHS
from ..catalogue import terms
from ..catalogue.i18n import both, gettext
from ..catalogue.messages import MESSAGES

PLACEHOLDER = re.compile(r"\{(\w+)(?::(\w+))?\}")  # {field} or {field:table}; static/js/queue-core.js reads the same
MONTH_FIRST = {"shake": "shake_of", "bomb": "bomb_of"}  # "5월 흔들기", never "흔들기 · 5월"
ANY_TYPE = "*"  # the pieces of a type the engine does not know: every field it might carry


def _pieces(fields: set[str], month_first: str | None) -> list[list[str]]:
    head = []
    if month_first and "month" in fields:
        head.append(str(gettext(month_first, months="{month}")))  # the month replaces the name
    if "multiplier" in fields:
        head.append("{type:labels} ×{multiplier}")  # "미션 ×2"
    head.append("{type:labels}")
    pieces = [head]
    if "cards" in fields:
        pieces.append(["{cards:cards}"])
    if "month" in fields and not month_first:
        pieces.append(["{month:months}"])
    if "reason" in fields:
        pieces.append(["{reason:junk}"])
    if "players" in fields:
        pieces.append(["{players}"])  # chongtong's holders: "A 1, B 3"
    return pieces


class Words(TypedDict):
    """The wording of log lines: each event type's pieces, how pieces join, and the line around them."""

    types: dict[str, list[list[str]]]
    join: str
    line: list[str]


def templates() -> Words:
    """The pieces of each event type (from the fields the engine lets it carry) and the line around them."""
    types = {t: _pieces(set(k.required) | set(k.optional), MONTH_FIRST.get(t)) for t, k in EVENTS.items()}
    every = {f for k in EVENTS.values() for f in (*k.required, *k.optional)}
    types[ANY_TYPE] = _pieces(every, None)
    return {"types": types, "join": " · ", "line": ["{player}: {pieces}", "{pieces}"]}


def tables() -> dict[str, dict[str, str]]:
    """The words the templates look fields up in, in the phone's language (game terms glossed as asked)."""
    return {
        "labels": {t: both(f"ev_{t}") for t in EVENTS if f"ev_{t}" in MESSAGES},
        "cards": {code: terms.card_name(code) for code in CARDS},
        "months": {str(m): f"{gettext('month_n', n=m)} {terms.month_name(m)}" for m in MONTHS},
        "junk": {r: both(f"junk_{r}") for r in JUNK_REASONS},
    }


def _has(value: object) -> bool:
    return bool(value)  # as queue-core.js's present(): an empty list or object is no value either


def _show(value: object, table: dict[str, str] | None) -> str:
    if isinstance(value, list):
        return ", ".join(_show(v, table) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k} {_show(v, None)}" for k, v in value.items())
    text = str(value)
    return table.get(text, text) if table is not None else text


def fill(template: str, values: dict, lookup: dict[str, dict[str, str]]) -> str | None:
    """``template`` with the event's fields in it, or None when the event lacks one of them."""
    fields = PLACEHOLDER.findall(template)
    if not all(_has(values.get(name)) for name, _ in fields):
        return None
    return PLACEHOLDER.sub(
        lambda m: _show(values[m.group(1)], lookup.get(m.group(2)) if m.group(2) else None), template
    )


def _first(alternatives: list[str], values: dict, lookup: dict) -> str | None:
    return next((text for text in (fill(a, values, lookup) for a in alternatives) if text is not None), None)


def write(event: dict, words: Words, lookup: dict[str, dict[str, str]]) -> str:
    """One log line from the templates and tables (queue-core.js's ``describe`` does the same)."""
    event = {"type": "?", **event}
    pieces = words["types"].get(event["type"], words["types"][ANY_TYPE])
    parts = [p for p in (_first(alts, event, lookup) for alts in pieces) if p is not None]
    return _first(words["line"], {**event, "pieces": words["join"].join(parts)}, lookup) or ""


def describe(event: dict) -> str:
    """One line of the log: who did what, game terms glossed as the phone asks."""
    return write(event, templates(), tables())


def describe_all(events: list[dict]) -> list[str]:
    """The lines of a whole log (the templates and tables built once)."""
    words, lookup = templates(), tables()
    return [write(e, words, lookup) for e in events]


class PageWords(TypedDict):
    """What the live page carries for its script (``for_page``): the templates and the tables they name."""

    lines: Words
    labels: dict[str, str]
    cards: dict[str, str]
    months: dict[str, str]
    junk: dict[str, str]


def for_page() -> PageWords:
    """What the live page carries for its script: the templates and the tables they name."""
    lookup = tables()
    return {
        "lines": templates(),
        "labels": lookup["labels"],
        "cards": lookup["cards"],
        "months": lookup["months"],
        "junk": lookup["junk"],
    }
