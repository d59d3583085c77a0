"""Every JSON body the app reads, parsed strictly: finite numbers, shallow nesting.

Python's ``json`` accepts ``NaN``, ``Infinity`` and ``1e400`` (→ inf), none of which is JSON:
stored on SQLite they made a table's events and export unreadable elsewhere, and PostgreSQL
refused them with a 500. A body nested thousands deep raised ``RecursionError`` (a 500)
before any view ran. Both are refused here, at the door, with a coded error; the app's JSON
provider (``web.security``) uses the same parser, so Flask-WTF reading a JSON body gets the same answer.
"""

from __future__ import annotations

import json
import math
from typing import Any, NoReturn

from .refusals import CodedRefusal

# A table's export, the deepest document the app takes, nests 7 deep (hands → log → events → cards).
MAX_DEPTH = 32


class JSONRefused(CodedRefusal):
    """A body that is not JSON the app takes: a ``ValueError`` (as Werkzeug expects) with its code."""


def _no_constant(name: str) -> NoReturn:
    raise JSONRefused("non_finite_number", f"{name} is not a JSON number: numbers must be finite.")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JSONRefused("non_finite_number", f"{text} is too large: numbers must be finite.")
    return value


def _depth_at_most(doc: object, limit: int) -> bool:
    """Whether ``doc`` nests no deeper than ``limit`` (walked without recursion)."""
    stack: list[tuple[object, int]] = [(doc, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (dict, list)):
            if depth > limit:
                return False
            stack.extend((v, depth + 1) for v in (value.values() if isinstance(value, dict) else value))
    return True


def loads(data: str | bytes) -> Any:
    """The JSON value of ``data`` (UTF-8, a BOM allowed), or ``JSONRefused``."""
    try:
        text = data.decode("utf-8-sig") if isinstance(data, (bytes, bytearray)) else data
        doc = json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except JSONRefused:
        raise
    except RecursionError:
        raise JSONRefused("json_too_deep", f"The JSON nests too deeply (at most {MAX_DEPTH} levels).") from None
    except (UnicodeDecodeError, ValueError) as err:
        raise JSONRefused("invalid_json", f"Not valid JSON: {err}") from None
    if not _depth_at_most(doc, MAX_DEPTH):
        raise JSONRefused("json_too_deep", f"The JSON nests too deeply (at most {MAX_DEPTH} levels).")
    return doc
