"""A table, its hands and a live hand's log as the API answers them (and its push stream sends them).

Built as they always were, byte for byte; the tests validate them against the API's models
(``web.api.models``), from which the OpenAPI document's schemas are generated.
"""

from __future__ import annotations

from typing import Any

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
    live = state.live_of(hand.id)
    events = live.events if live else state.logs.get(hand.id, [])
    return events_document(hand.id, events, live.state.to_json() if live else None, state.table.version)


def events_document(hand_id: int, events: list, view: dict | None, version: int) -> dict:
    """The events document of a hand: its log, its live view (None once over) and the version."""
    return {"ok": True, "hand": hand_id, "seq": len(events), "events": events, "state": view, "version": version}
