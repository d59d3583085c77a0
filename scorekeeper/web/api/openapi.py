"""The API's JSON shapes: request parsing, answers, and the OpenAPI 3 document."""
from __future__ import annotations

from typing import Any

from ...engine.errors import ERROR_CODES, EngineError
from ...engine.facts import OutcomeType
from ...engine.hand import EVENTS
from ...engine.hand_events import JUNK_REASONS, SOURCES
from ...engine.rules import PRESETS
from ...engine.series import MAX_LENGTH, MAX_NAME, MAX_PLAYERS, MIN_PLAYERS
from ...store.tables import hand_version
from ...tables.service import TableState
from ...tables.transfer import MAX_SEQ
from ..errors import WEB_ERROR_CODES


def _int(v: Any, lo: int, hi: int) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


def parse_new_hand(body: dict) -> tuple[str, dict | None, dict | None, int | None]:
    """{"summary": …} or {"log": {}}, with "choices", "shown" and "count" (hands seen)."""
    unknown = sorted(set(body) - {"summary", "log", "choices", "shown", "count"})
    if unknown:
        raise EngineError("bad_hand_record", f"Unknown field {unknown[0]!r} in the hand.", unknown[0])
    if ("summary" in body) == ("log" in body):
        raise EngineError("bad_hand_record", "A hand is {\"summary\": {...}} or {\"log\": {}}.", "")
    if "summary" in body and not isinstance(body["summary"], dict):
        raise EngineError("bad_summary", "A hand summary is a JSON object.", "summary")
    if "log" in body and body["log"] not in ({}, {"events": []}):
        raise EngineError("bad_hand_record", "A live hand starts empty: append its events one by one.", "log")
    count = body.get("count")
    if "count" in body and not _int(count, 0, MAX_SEQ):
        raise EngineError("bad_value", "count is the number of hands the client has seen.", "count")
    # As the document says: present means an object (null is not "none"); an empty one means none.
    for key in ("choices", "shown"):
        if key in body and not isinstance(body[key], dict):
            raise EngineError("bad_value", f"{key} is an object keyed by player.", key)
    seating = {k: body[k] for k in ("choices", "shown") if body.get(k)}
    kind = "summary" if "summary" in body else "log"
    return kind, body.get("summary"), seating or None, count


def parse_append(body: dict, need_event: bool = True) -> tuple[int, dict | None]:
    seq = body.get("seq")
    if not _int(seq, 0, MAX_SEQ):
        raise EngineError("bad_value", "seq is the number of events the client has seen (0, 1, …).", "seq")
    event = body.get("event")
    if need_event and not isinstance(event, dict):
        raise EngineError("bad_event", "event is an object {\"type\": ..., ...}.", "event")
    return seq, event


def table_json(state: TableState) -> dict:
    out = state.series.to_json()
    out.update(id=state.table.public_id, name=state.table.title, version=state.table.version,
               live_hand=state.live.hand.id if state.live else None, problem=state.problem)
    out["hands"] = [hand_json(state, h, brief=True) for h in state.hands]
    return out


def hand_json(state: TableState, hand, brief: bool = False) -> dict:
    index = state.hands.index(hand)
    deal = state.series.deals[index] if index < len(state.series.deals) else None
    live = state.live if state.live and state.live.hand.id == hand.id else None
    out: dict[str, Any] = {
        "ok": True, "id": hand.id, "index": index, "kind": hand.kind, "live": live is not None,
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
    live = state.live if state.live and state.live.hand.id == hand.id else None
    events = live.events if live else state.logs.get(hand.id, [])
    return {"ok": True, "hand": hand.id, "seq": len(events), "events": events,
            "state": live.state.to_json() if live else None, "version": state.table.version}


def _error_schema() -> dict:
    return {"type": "object", "required": ["ok", "errors"], "properties": {
        "ok": {"type": "boolean", "enum": [False]},
        "errors": {"type": "array", "items": {"type": "object", "required": ["code", "message", "path"], "properties": {
            "code": {"type": "string", "enum": sorted(set(ERROR_CODES) | set(WEB_ERROR_CODES))},
            "message": {"type": "string"}, "path": {"type": "string"}}}}}}


def _resp(description: str, schema: str = "Any") -> dict:
    return {"description": description, "content": _json_of(schema)}


def _json_of(schema: str) -> dict:
    return {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}}


ERRORS = {
    "400": _resp("Malformed request (not JSON, missing CSRF token with a cookie).", "Error"),
    "401": _resp("No secret for this table.", "Error"), "403": _resp("The read-only secret cannot write.", "Error"),
    "404": _resp("No such table or hand.", "Error"), "413": _resp("Body too large.", "Error"),
    "429": _resp("Too many tables created, or ids and keys refused, from this address: wait.", "Error"),
    "422": _resp("Refused by the engine: coded errors.", "Error"),
}


def _op(summary: str, ok: dict, body: str | None = None, read_only: bool = True, errors=("401", "404", "429")) -> dict:
    op: dict[str, Any] = {"summary": summary, "responses": ok | {k: ERRORS[k] for k in errors}}
    if body:
        op["requestBody"] = {"required": True, "content": _json_of(body)}
    op["security"] = [{"tableKey": []}]
    return op


STALE = _resp("The hand changed since the ETag sent (or was deleted): the error carries it as it is now, "
              "in `hand`, with its ETag.", "Error")


def _tagged(response: dict, required: bool = True) -> dict:
    """A response carrying the hand's version in ``ETag`` (send it back in ``If-Match``)."""
    return response | {"headers": {"ETag": {"required": required, "description": "The hand's version.",
                                            "schema": {"type": "string", "pattern": '^"[^"]+"$'}}}}


def _versioned(op: dict) -> dict:
    """An edit or delete: it names the version of the hand it was made against."""
    op["parameters"] = [{"name": "If-Match", "in": "header", "required": True,
                         "description": "The hand's ETag, as GET answered it (or `*`: whatever it is now).",
                         "schema": {"type": "string", "minLength": 1}}]
    op["responses"]["428"] = _resp("No If-Match: an edit must say which version it replaces.", "Error")
    return op


def _event_schema() -> dict:
    """One event of a live hand, as ``engine.hand`` checks its shape: one form per type."""
    month = {"type": "integer", "minimum": 1, "maximum": 12}
    fields = {
        "player": {"type": "string"}, "month": month, "last_card": {"type": "boolean"},
        "cards": {"type": "array", "minItems": 1, "items": {"type": "string"}},
        "from": {"type": "string", "enum": sorted(SOURCES)}, "reason": {"type": "string", "enum": list(JUNK_REASONS)},
        "give": {"type": "object"}, "players": {"type": "object", "additionalProperties": month},
        "multiplier": {"type": "integer", "minimum": 2, "maximum": 9},  # a mission
    }
    meta = {"note": {}, "at": {}, "by": {}, "id": {}, "seq": {}}
    forms = []
    for name, kind in EVENTS.items():
        props = ({"type": {"type": "string", "enum": [name]}} | meta
                 | {f: fields[f] for f in kind.required + kind.optional})
        forms.append({"type": "object", "required": ["type", *kind.required], "additionalProperties": False,
                      "properties": props})
    return {"oneOf": forms}


def _summary_schema() -> dict:
    """A hand summary (the engine contract): its shape; the rules of the game are the engine's (422)."""
    obj = {"type": "object", "nullable": True}  # the engine takes null as absent
    name = {"type": "string", "minLength": 1, "maxLength": MAX_NAME}
    return {"type": "object", "required": ["players", "outcome"], "properties": {
        "rules": obj, "players": {"type": "array", "items": name, "minItems": 2, "maxItems": 3, "uniqueItems": True},
        "captures": obj, "junk": obj, "gos": obj, "shakes": obj, "bombs": obj, "fixed": obj, "showdown": obj,
        "outcome": {"type": "object", "required": ["type"], "properties": {
            "type": {"type": "string", "enum": [t.value for t in OutcomeType]}, "winner": name,
            "winners": {"type": "array", "items": name}, "month": {"type": "integer", "minimum": 1, "maximum": 12}}},
        "dokbak": obj, "nagari_carry": {"type": "integer", "minimum": 0, "maximum": 30},
        "dealer": name | {"nullable": True}, "last_go": name | {"nullable": True},
        "mission": {"type": "integer", "nullable": True}, "weol_yak": {},
        "chip_value": {"type": "number", "minimum": 0}}}


def _hand_body(kind: str, record: dict) -> dict:
    """A new hand: a summary (quick entry) or an empty log (live), with seating and the count seen."""
    return {"type": "object", "required": [kind], "additionalProperties": False, "properties": {
        kind: record, "choices": {"type": "object"}, "shown": {"type": "object"},
        "count": {"type": "integer", "minimum": 0, "maximum": MAX_SEQ}}}


# A player's name at a table (``names``): no control or bidi character, something visible in it.
_HIDDEN = "\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069"
PLAYER_NAME = {"type": "string", "minLength": 1, "maxLength": MAX_NAME,
               "pattern": f"^[^{_HIDDEN}]*"
                          f"[^{_HIDDEN}\\s\\u200b-\\u200d\\u2060\\ufeff\\u3164\\u115f\\u1160\\uffa0\\u2800]"
                          f"[^{_HIDDEN}]*$"}


def _series_properties() -> dict:
    """A table's settings, as ``engine.series.config_from`` takes them."""
    return {
        # null is taken as absent wherever the engine takes it so (a name, a note, the rules, the draw).
        "name": {"type": "string", "maxLength": 120, "nullable": True}, "note": {"type": "string", "nullable": True},
        "players": {"type": "array", "minItems": MIN_PLAYERS, "maxItems": MAX_PLAYERS, "uniqueItems": True,
                    "items": PLAYER_NAME},
        "rules": {"type": "object", "additionalProperties": False, "nullable": True, "properties": {
            "preset": {"type": "string", "enum": list(PRESETS)},
            "options": {"type": "object", "description": "House-rule options by name (`scorekeeper rules`)."}}},
        "chip_value": {"type": "number", "minimum": 0, "maximum": 1e9},
        "currency": {"type": "string", "maxLength": 8},
        "length": {"type": "integer", "minimum": 1, "maximum": MAX_LENGTH, "nullable": True},
        "first_dealer": {"type": "string", "nullable": True,
                         "description": "One of the players (default: the draw's, or the first)."},
        "draw": {"type": "object", "additionalProperties": False, "nullable": True, "properties": {
            "time": {"type": "string", "enum": ["night", "day"]}, "cards": {"type": "object"},
            "redraws": {"type": "array", "items": {"type": "object"}}}},
    }


# One event of a push stream, as a client parses it (``data`` is JSON: an events document).
SSE_EVENT = {"type": "object", "required": ["data"], "properties": {
    "id": {"type": "string", "description": "The table's version."},
    "event": {"type": "string"}, "retry": {"type": "integer"},
    "data": {"type": "string", "description": "JSON: what GET …/hands/{hand}/events answers, or {\"version\": n}."}}}


def document() -> dict:
    """The OpenAPI 3 document of this API."""
    table, hand = {"$ref": "#/components/parameters/table"}, {"$ref": "#/components/parameters/hand"}
    write = ("400", "401", "403", "404", "413", "422", "429")
    paths = {
        "/score": {"post": {"summary": "Score one hand summary (the engine contract).", "security": [],
                            "requestBody": {"required": True, "content": _json_of("Summary")},
                            "responses": {"200": _resp("The result.", "Result"), "413": ERRORS["413"],
                                          "429": ERRORS["429"],
                                          "422": _resp("Invalid summary: coded errors.", "Error")}}},
        "/tables": {"post": {"summary": "Create a table (a series).", "security": [],
                             "requestBody": {"required": True, "content": _json_of("SeriesConfig")},
                             "responses": {"201": _resp("Created: id and both secrets.", "Created"),
                                           "400": ERRORS["400"], "413": ERRORS["413"], "422": ERRORS["422"],
                                           "429": ERRORS["429"]}}},
        "/tables/import": {"post": {"summary": "Create a new table (new id and secrets) from a table's export.json.",
                                    "security": [],
                                    "requestBody": {"required": True, "content": _json_of("SeriesExport")},
                                    "responses": {"201": _resp("Created: id and both secrets.", "Created"),
                                                  "400": ERRORS["400"], "413": ERRORS["413"], "422": ERRORS["422"],
                                                  "429": ERRORS["429"]}}},
        "/tables/{table}": {"parameters": [table], "get": _op(
            "The table: series state, ledger, balances, settle-up.", {"200": _resp("The table.")})},
        "/tables/{table}/version": {"parameters": [table], "get": _op(
            "The table's version (poll it).", {"200": _resp("The version.")})},
        "/tables/{table}/stream": {"parameters": [table], "get": _op(
            "Server-Sent Events: the table's last hand as GET …/hands/{hand}/events answers it (its log, "
            "state, seq and version), at once and at each change; only {\"version\"} when the last hand is "
            "not a live log. Each event's id is the version (EventSource resumes with Last-Event-ID).",
            {"200": {"description": "The stream: one event now, one at each change.",
                     "content": {"text/event-stream": {"schema": SSE_EVENT}}}})},
        "/tables/{table}/hands": {
            "parameters": [table],
            "get": _op("The hand records with their deals.", {"200": _resp("The hands.")}),
            "post": _op("Add a quick-entry hand, or start a live one.",
                        {"201": _resp("The hand."), "409": _resp("Stale count.", "Error")},
                        "NewHand", False, write)},
        "/tables/{table}/hands/{hand}": {
            "parameters": [table, hand],
            "get": _op("One hand: record, deal, result, log.", {"200": _tagged(_resp("The hand."))}),
            "put": _versioned(_op("Replace a quick-entry hand (If-Match: its ETag).",
                                  {"200": _tagged(_resp("The hand, with its new ETag.")),
                                   "409": _tagged(STALE, required=False)},
                                  "ReplaceHand", False, write)),
            "delete": _versioned(_op("Delete a hand (If-Match: its ETag).", {"200": _resp("Deleted."), "409": STALE},
                                     None, False, write))},
        "/tables/{table}/hands/{hand}/events": {
            "parameters": [table, hand],
            "get": _op("The live hand's log and state.", {"200": _resp("The log.")}),
            "post": _op("Append one event, as number seq.", {"201": _resp("The log after it."),
                        "409": _resp("Stale seq, or the hand is over: the current log.", "Error")},
                        "Append", False, write)},
        "/tables/{table}/hands/{hand}/undo": {
            "parameters": [table, hand],
            "post": _op("Remove the last event.",
                        {"200": _resp("The log after it."), "409": _resp("Stale seq.", "Error")},
                        "Undo", False, write)},
    }
    obj = {"type": "object"}
    summary = {"$ref": "#/components/schemas/Summary"}
    log = {"type": "object", "additionalProperties": False, "description": "A live hand starts empty.",
           "properties": {"events": {"type": "array", "maxItems": 0}}}
    return {
        "openapi": "3.0.3",
        "info": {"title": "scorekeeper 고스톱 API", "version": "1",
                 "description": "Go-Stop scorekeeping: the engine contract and tables, hands and live events."},
        "servers": [{"url": "/api/v1"}],
        "paths": paths,
        "components": {
            "securitySchemes": {"tableKey": {"type": "apiKey", "in": "header", "name": "X-Table-Key"}},
            "parameters": {
                "table": {"name": "table", "in": "path", "required": True,
                          "schema": {"type": "string", "maxLength": 32}},
                "hand": {"name": "hand", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1}},
            },
            "schemas": {
                "Any": obj,
                "Error": _error_schema(),
                "Summary": _summary_schema(),
                "Result": {"type": "object", "properties": {"ok": {"type": "boolean"}, "scores": obj,
                           "payments": {"type": "array", "items": obj}, "net": obj}},
                "SeriesConfig": {"type": "object", "required": ["players"], "additionalProperties": False,
                                 "properties": _series_properties()},
                "SeriesExport": {"type": "object", "required": ["players"], "additionalProperties": False,
                                 "properties": _series_properties() | {"hands": {"type": "array", "items": {
                                     "type": "object", "additionalProperties": False, "properties": {
                                         "summary": obj, "choices": obj, "shown": obj,
                                         "log": {"type": "object", "additionalProperties": False, "properties": {
                                             "events": {"type": "array", "items": obj}}}}}}}},
                "Created": {"type": "object", "properties": {"id": {"type": "string"}, "edit_key": {"type": "string"},
                            "view_key": {"type": "string"}, "edit_link": {"type": "string"},
                            "view_link": {"type": "string"}}},
                "NewHand": {"oneOf": [_hand_body("summary", summary), _hand_body("log", log)]},
                "ReplaceHand": _hand_body("summary", summary),
                "Append": {"type": "object", "required": ["seq", "event"], "properties": {
                    "seq": {"type": "integer", "minimum": 0, "maximum": MAX_SEQ}, "event": _event_schema()}},
                "Undo": {"type": "object", "required": ["seq"], "properties": {
                    "seq": {"type": "integer", "minimum": 0, "maximum": MAX_SEQ}}},
            },
        },
    }
