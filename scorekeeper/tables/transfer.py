"""A table out and back in: its series document (``export.json``) becomes a new table.

The document is the table's settings plus ``hands``, one record per hand row as
``service.record_of`` writes it: ``{"summary": {...}}`` or ``{"log": {"events": [...]}}``,
with ``choices``/``shown`` when four or more sit at the table. An import
(``writes.import_table``) gets a new id and new secrets; its rows are checked by replaying
them through the engine exactly as the app checks a change of hands, and a refused document
stores nothing.
"""

from __future__ import annotations

from typing import Any

from ..engine.errors import EngineError
from ..engine.series import config_from
from ..store.models import JSONObject
from . import jsonbody, names
from .jsonbody import JSONRefused
from .records import Door, HandRecord, read_record

MAX_HANDS = 1000


def parse_json(data: bytes) -> Any:
    """The JSON of an uploaded export; ``EngineError`` when it is not UTF-8 JSON (bad_series), nests
    too deeply (json_too_deep) or holds a number that is not finite (non_finite_number)."""
    try:
        return jsonbody.loads(data)
    except JSONRefused as err:
        if err.code != "invalid_json":
            raise
        raise EngineError("bad_series", "The file is not a table's JSON export (UTF-8 JSON).", "") from None


def _record_is(_key: str, at: str) -> tuple[str, str, str]:
    return "bad_hand_record", 'A hand record is {"summary": {...}} or {"log": {"events": [...]}}.', at


def _seating_is(_key: str, at: str) -> tuple[str, str, str]:
    return "bad_hand_record", "choices and shown are objects keyed by player.", at


# An export's hand record (``records.HandRecord``), refused as imports always have been: its shape first.
EXPORT_DOOR = Door(
    HandRecord,
    ("shape", "unknown", "choices", "shown", "summary", "log"),
    {
        "shape": _record_is,
        "unknown": lambda key, at: ("bad_hand_record", f"Unknown field {key!r} in the hand record.", f"{at}.{key}"),
        "choices": _seating_is,
        "shown": _seating_is,
        "summary": lambda _key, at: ("bad_summary", "A hand summary is a JSON object.", f"{at}.summary"),
        "log": lambda _key, at: ("bad_hand_record", 'A live hand is {"log": {"events": [{...}, ...]}}.', f"{at}.log"),
    },
    empty_seating_is_none=True,
)


def _row(record: object, path: str) -> JSONObject:
    """One hand record → what a hand row holds; refuses any shape the rows cannot keep."""
    row = read_record(record, EXPORT_DOOR, path)
    return {"kind": row.kind, "summary": row.summary, "seating": row.seating, "events": row.events}


def read_document(doc: object) -> tuple[str, JSONObject, list[JSONObject]]:
    """An export → (title, settings, hand rows); the settings checked by the engine."""
    if not isinstance(doc, dict):
        raise EngineError("bad_series", "A table export is a JSON object.", "")
    hands = doc.get("hands", [])
    if not isinstance(hands, list) or len(hands) > MAX_HANDS:
        raise EngineError("bad_series", f"hands is a list of at most {MAX_HANDS} hand records.", "hands")
    settings = names.normalised_settings({k: v for k, v in doc.items() if k != "hands"})
    config_from(settings)
    return title_of(settings), settings, [_row(r, f"hands[{i}]") for i, r in enumerate(hands)]


def title_of(settings: JSONObject) -> str:
    """The table's name from its settings (absent or null: none), refused when too long."""
    title = settings.get("name")
    if title is None:
        title = ""
    if not isinstance(title, str) or len(title) > 120:
        raise EngineError("bad_value", "name is the table's name, at most 120 characters.", "name")
    # C0 controls are dropped where the title is stored; a C1 control or a bidi override would
    # reach every screen, the CSV and the shared picture as they are.
    if any(c in names.BIDI or "\x7f" <= c <= "\x9f" for c in title):
        raise EngineError("bad_value", "name may not hold control or bidi-override characters.", "name")
    return title
