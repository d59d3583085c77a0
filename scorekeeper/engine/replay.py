"""다시 보기 ``scorekeeper replay``: a hand log or a whole series, from one JSON document.

A document with ``events`` is a live hand log (``engine.hand``); a document with
``hands`` is a series (``engine.series``). Either answers a JSON object with
``"ok"``; a refused document answers ``{"ok": false, "errors": [...]}``.
"""

from __future__ import annotations

from typing import Any

from .live.hand import HandReplayJSON, replay_hand_document
from .model import RefusedJSON, SeriesJSON
from .series import replay_series_document


def replay_document(doc: Any) -> HandReplayJSON | SeriesJSON | RefusedJSON:
    """Replay a hand log or a series; never raises on bad input."""
    if isinstance(doc, dict) and "events" in doc:
        return replay_hand_document(doc)
    if isinstance(doc, dict) and "hands" in doc:
        return replay_series_document(doc)
    return _error(
        "bad_replay_document", 'A replay document is a hand log (with "events") or a series (with "hands").', ""
    )


def _error(code: str, message: str, path: str) -> RefusedJSON:
    return {"ok": False, "errors": [{"code": code, "message": message, "path": path}]}
