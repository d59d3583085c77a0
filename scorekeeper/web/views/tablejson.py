"""A table, its hands and a live hand's log as the API answers them (and its push stream sends them).

Built as they always were, byte for byte; the tests validate them against the API's models
(``web.api.models``), from which the OpenAPI document's schemas are generated.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from ...caching import TABLES_KEPT, Bounded
from ...store.rows import hand_version
from ...tables.service import TableState


def table_json(state: TableState) -> dict:
    out: dict[str, object] = dict(state.series.to_json())
    out.update(
        id=state.table.public_id,
        name=state.table.title,
        version=state.table.version,
        live_hand=state.live.hand.id if state.live else None,
        problem=state.problem,
    )
    out["hands"] = [hand_json(state, h, brief=True) for h in state.hands]
    return out


def hand_json(state: TableState, hand, brief: bool = False) -> dict:
    index = state.hands.index(hand)
    deal = state.series.deals[index] if index < len(state.series.deals) else None
    live = state.live_of(hand.id)
    out: dict[str, Any] = {
        "ok": True,
        "id": hand.id,
        "index": index,
        "kind": hand.kind,
        "live": live is not None,
        "deal": deal.to_json(state.config.chip_value) if deal else None,
        "etag": hand_version(hand),  # the ETag to send back in If-Match with an edit or delete
    }
    if hand.kind == "summary":
        out["summary"] = hand.summary
    if hand.seating:
        out.update(hand.seating)
    if not brief:
        out["result"] = deal.result if deal else None
        if hand.kind == "log":
            out.update(events_json(state, hand))
    return out


def events_json(state: TableState, hand) -> dict:
    return events_document(*_events_parts(state, hand))


def events_json_text(state: TableState, hand) -> str:
    """``events_json`` as the push streams send it: compact JSON text (``events_document_json``)."""
    return events_document_json(*_events_parts(state, hand))


def _events_parts(state: TableState, hand) -> tuple[int, list, dict | None, int]:
    """What a hand's events document holds: its id, its log, its live view (None once over) and
    the table's version."""
    live = state.live_of(hand.id)
    events = live.events if live else state.logs.get(hand.id, [])
    return hand.id, events, live.state.to_json() if live else None, state.table.version


def events_document(hand_id: int, events: list, view: dict | None, version: int) -> dict:
    """The events document of a hand: its log, its live view (None once over) and the version."""
    return {"ok": True, "hand": hand_id, "seq": len(events), "events": events, "state": view, "version": version}


# -- the events document as text, for the push streams ----------------------------------------
# Each tap, every other process's streams of a table send the hand's document again: the whole
# log dumped again for one event more (a tenth of a worker's time with a thousand tables). The
# log's text is kept per hand with the log it was written from, and only the events past it are
# written; it is used only when that log is still the start of this one (compared, not trusted:
# an undo or a replaced event shortens or changes it, another database may have the same id).


class _LogText(NamedTuple):
    events: list  # the log the text was written from (a copy)
    inner: str  # its events' JSON, comma-separated, without the brackets


_log_texts: Bounded[int, _LogText] = Bounded(TABLES_KEPT)  # by hand id: a table's live hand
# ``json.dumps(value, separators=(",", ":"))``, its encoder made once (dumps makes one each call).
_compact = json.JSONEncoder(separators=(",", ":")).encode


def forget() -> None:
    """Forget every log's text, as a process that never wrote one (tests, benchmarks)."""
    _log_texts.clear()


def _events_text(hand_id: int, events: list) -> str:
    """``json.dumps(events, separators=(",", ":"))``: a list is its items' texts joined by commas
    (each part written by one call of the encoder, not one per event)."""
    kept = _log_texts.get(hand_id)
    known = len(kept.events) if kept is not None else 0
    if kept is not None and 0 < known <= len(events) and events[:known] == kept.events:
        if known == len(events):
            return f"[{kept.inner}]"
        inner = f"{kept.inner},{_compact(events[known:])[1:-1]}"
    else:
        inner = _compact(events)[1:-1]
    if events:
        _log_texts.put(hand_id, _LogText(list(events), inner))
    return f"[{inner}]"


def events_document_json(hand_id: int, events: list, view: dict | None, version: int) -> str:
    """``events_document`` as compact JSON text (what ``json.dumps`` with ``(",", ":")`` writes of it,
    byte for byte, the keys in its order), the log's text reused from the hand's shorter log."""
    return (
        f'{{"ok":true,"hand":{hand_id:d},"seq":{len(events)},'
        f'"events":{_events_text(hand_id, events)},"state":{_compact(view)},'
        f'"version":{version:d}}}'
    )
