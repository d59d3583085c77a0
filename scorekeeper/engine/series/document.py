"""A series document (settings and ``hands``) in, its JSON out."""

from __future__ import annotations

from typing import Any

from ..errors import EngineError
from ..model import RefusedJSON, SeriesJSON
from .config import config_from
from .model import Series
from .play import play


def series_from_document(doc: Any) -> Series:
    """A series document (settings and ``hands``) → the series, or a coded error."""
    config = config_from(doc)
    hands = doc.get("hands", [])
    if not isinstance(hands, list):
        raise EngineError("bad_series", "hands lists the hand records in the order played.", "hands")
    return play(config, hands)


def replay_series_document(doc: Any) -> SeriesJSON | RefusedJSON:
    """A series document → its JSON (ledger, balances, settle-up …); never raises on bad input."""
    try:
        return series_from_document(doc).to_json()
    except EngineError as err:
        return {"ok": False, "errors": err.errors}
