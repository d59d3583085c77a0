"""The API's OpenAPI 3 document.

Its schemas are generated from the models (``models.components``); the answers it describes are
built in ``web.views.tablejson`` (tables, hands, logs) and the views, and the tests validate them
against those models.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from ..server.rowids import MAX_ROW_ID
from . import models, preconditions


def _json(model: type[BaseModel]) -> dict:
    """A JSON body of ``model``'s schema (in ``components.schemas`` under the model's name)."""
    return {"application/json": {"schema": {"$ref": models.REF.format(model=model.__name__)}}}


def _resp(description: str, model: type[BaseModel]) -> dict:
    return {"description": description, "content": _json(model)}


def _body(model: type[BaseModel]) -> dict:
    return {"required": True, "content": _json(model)}


E = models.Error
# One event of a push stream, as a client parses it (``data`` is JSON: an events document).
SSE_EVENT = {
    "type": "object",
    "required": ["data"],
    "properties": {
        "id": {"type": "string", "description": "The table's version."},
        "event": {"type": "string"},
        "retry": {"type": "integer"},
        "data": {"type": "string", "description": 'JSON: what GET …/hands/{hand}/events answers, or {"version": n}.'},
    },
}


ERRORS = {
    "400": _resp("Malformed request (not JSON, missing CSRF token with a cookie).", E),
    "401": _resp("No secret for this table or group (a new evening needs the group's edit key).", E),
    "403": _resp("The read-only secret cannot write.", E),
    "404": _resp("No such table, hand or group.", E),
    "413": _resp("Body too large.", E),
    "429": _resp("Too many tables created, or ids and keys refused, from this address: wait.", E),
    "422": _resp("Refused by the engine: coded errors.", E),
}


def _op(summary: str, ok: dict, body: type[BaseModel] | None = None, errors=("401", "404", "429")) -> dict:
    op: dict[str, Any] = {"summary": summary, "responses": ok | {k: ERRORS[k] for k in errors}}
    if body:
        op["requestBody"] = _body(body)
    op["security"] = [{"tableKey": []}]
    return op


def _group_op(summary: str, ok: dict, body: type[BaseModel] | None = None, errors=("401", "404", "429")) -> dict:
    """An operation on a group: its secret in X-Group-Key (a table's key never opens it)."""
    op = _op(summary, ok, body, errors)
    op["security"] = [{"groupKey": []}]
    return op


STALE = _resp(
    "The hand changed since the ETag sent (or was deleted): the error carries it as it is now, "
    "in `hand`, with its ETag.",
    E,
)


def _tagged(response: dict, required: bool = True) -> dict:
    """A response carrying the hand's version in ``ETag`` (send it back in ``If-Match``)."""
    return response | {
        "headers": {
            "ETag": {
                "required": required,
                "description": "The hand's version.",
                "schema": {"type": "string", "pattern": '^"[^"]+"$'},
            }
        }
    }


def _versioned(op: dict) -> dict:
    """An edit or delete: it names the version of the hand it was made against."""
    op["parameters"] = [
        {
            "name": "If-Match",
            "in": "header",
            "required": True,
            "description": preconditions.DESCRIPTION,
            "schema": preconditions.SCHEMA,
        }
    ]
    op["responses"]["428"] = _resp("No If-Match: an edit must say which version it replaces.", E)
    return op


def _creation(summary: str, body: type[BaseModel], errors=("400", "413", "422", "429")) -> dict:
    """Creating a table: no credential needed; the answer holds the new table's secrets."""
    return {
        "post": {
            "summary": summary,
            "security": [],
            "requestBody": _body(body),
            "responses": {"201": _resp("Created: id and both secrets.", models.Created)}
            | {k: ERRORS[k] for k in errors},
        }
    }


PUBLIC_ID = {"type": "string", "pattern": "^(?!import$)[A-Za-z0-9_-]{1,32}$"}
ROW_ID = {"type": "integer", "minimum": 1, "maximum": MAX_ROW_ID}  # a hand's, a payment's: past it, 404


def document() -> dict:
    """The OpenAPI 3 document of this API."""
    table, hand = {"$ref": "#/components/parameters/table"}, {"$ref": "#/components/parameters/hand"}
    group = {"$ref": "#/components/parameters/group"}
    write = ("400", "401", "403", "404", "413", "422", "429")
    m = models
    paths = {
        "/score": {
            "post": {
                "summary": "Score one hand summary (the engine contract).",
                "security": [],
                "requestBody": _body(m.Summary),
                "responses": {
                    "200": _resp("The result.", m.Result),
                    "413": ERRORS["413"],
                    "429": ERRORS["429"],
                    "422": _resp("Invalid summary: coded errors.", E),
                },
            }
        },
        "/tables": _creation(
            "Create a table (a series). With `group` and that group's edit key in X-Group-Key "
            "it is an evening of the group: rules, chip value, currency and length not given come "
            "from its last evening; players not yet in the group join it.",
            m.NewTable,
            ("400", "401", "403", "404", "413", "422", "429"),
        ),
        "/groups": _creation("Create a group (모임): its name, players and what its evenings start from.", m.NewGroup),
        "/groups/import": _creation(
            "Create a new group (new id and secrets, new tables) from a group's export.", m.GroupExport
        ),
        "/groups/{group}": {
            "parameters": [group],
            "get": _group_op(
                "The group: players, evenings, balances, payments, what is still owed, statistics.",
                {"200": _resp("The group.", m.GroupView)},
            ),
        },
        "/groups/{group}/keys": {
            "parameters": [group],
            "post": _group_op(
                "New secrets (a link pasted in the wrong chat, a phone lost): the old edit and/or "
                "read-only secret then opens nothing, anywhere.",
                {"200": _resp("The group's links and both secrets, as now.", m.Created)},
                m.NewKeys,
                write,
            ),
        },
        "/groups/{group}/payments": {
            "parameters": [group],
            "post": _group_op(
                "Record money handed over (edit key only). 200 when its key was recorded already.",
                {
                    "201": _resp("Recorded.", m.PaymentRecorded),
                    "200": _resp("Recorded already (the same key).", m.PaymentRecorded),
                },
                m.NewPayment,
                write,
            ),
        },
        "/groups/{group}/payments/{payment}/void": {
            "parameters": [group, {"$ref": "#/components/parameters/payment"}],
            "post": _group_op(
                "Void a payment recorded by mistake (edit key only): it stays listed with `voided: true`, "
                "out of what is owed. Voiding it again changes nothing.",
                {"200": _resp("Voided (now, or before: `voided_now`).", m.PaymentVoided)},
                None,
                write,
            ),
        },
        "/groups/{group}/evenings/{table}": {
            "parameters": [group, table],
            "delete": _group_op(
                "Remove an evening with no hands (edit key only), such as one started by mistake.",
                {"200": _resp("Removed.", m.Deleted), "409": _resp("The evening has hands: kept.", E)},
                None,
                write,
            ),
        },
        "/groups/{group}/players/{name}": {
            "parameters": [group, {"$ref": "#/components/parameters/player"}],
            "put": _group_op(
                "A player's send-money link (edit key only): an https link of Toss (toss.me) or KakaoPay "
                "(qr.kakaopay.com), or null to remove it. What is owed to that player then carries it.",
                {"200": _resp("The link kept.", m.PayLinkSet)},
                m.PlayerUpdate,
                write,
            ),
        },
        "/groups/{group}/history": {
            "parameters": [group],
            "get": _group_op(
                "What changed in the group and its evenings, oldest first (a read-only key reads it).",
                {"200": _resp("The history.", m.History)},
            ),
        },
        "/tables/{table}/history": {
            "parameters": [table],
            "get": _op(
                "What changed at the table, oldest first: hands added, edited (the players whose standing "
                "moved, before and after), deleted; keys rotated.",
                {"200": _resp("The history.", m.History)},
            ),
        },
        "/tables/import": _creation(
            "Create a new table (new id and secrets) from a table's export.json.", m.SeriesExport
        ),
        "/tables/{table}": {
            "parameters": [table],
            "get": _op(
                "The table: series state, ledger, balances, settle-up.", {"200": _resp("The table.", m.TableView)}
            ),
        },
        "/tables/{table}/keys": {
            "parameters": [table],
            "post": _op(
                "New secrets (a link shared in the wrong place, a phone lost): the old edit and/or "
                "read-only secret then opens nothing, anywhere.",
                {"200": _resp("The table's links and both secrets, as now.", m.Created)},
                m.NewKeys,
                write,
            ),
        },
        "/tables/{table}/version": {
            "parameters": [table],
            "get": _op("The table's version (poll it).", {"200": _resp("The version.", m.Version)}),
        },
        "/tables/{table}/stream": {
            "parameters": [table],
            "get": _op(
                "Server-Sent Events: the table's last hand as GET …/hands/{hand}/events answers it (its log, "
                'state, seq and version), at once and at each change; only {"version"} when the last hand is '
                "not a live log. Each event's id is the version (EventSource resumes with Last-Event-ID).",
                {
                    "200": {
                        "description": "The stream: one event now, one at each change.",
                        "content": {"text/event-stream": {"schema": SSE_EVENT}},
                    }
                },
            ),
        },
        "/tables/{table}/hands": {
            "parameters": [table],
            "get": _op("The hand records with their deals.", {"200": _resp("The hands.", m.Hands)}),
            "post": _op(
                "Add a quick-entry hand, or start a live one.",
                {"201": _resp("The hand.", m.Hand), "409": _resp("Stale count.", E)},
                m.NewHand,
                write,
            ),
        },
        "/tables/{table}/hands/{hand}": {
            "parameters": [table, hand],
            "get": _op("One hand: record, deal, result, log.", {"200": _tagged(_resp("The hand.", m.Hand))}),
            "put": _versioned(
                _op(
                    "Replace a quick-entry hand (If-Match: its ETag).",
                    {
                        "200": _tagged(_resp("The hand, with its new ETag.", m.Hand)),
                        "409": _tagged(STALE, required=False),
                    },
                    m.ReplaceHand,
                    write,
                )
            ),
            "delete": _versioned(
                _op(
                    "Delete a hand (If-Match: its ETag).",
                    {"200": _resp("Deleted.", m.Deleted), "409": STALE},
                    None,
                    write,
                )
            ),
        },
        "/tables/{table}/hands/{hand}/events": {
            "parameters": [table, hand],
            "get": _op("The live hand's log and state.", {"200": _resp("The log.", m.Events)}),
            "post": _op(
                "Append one event, as number seq.",
                {
                    "201": _resp("The log after it.", m.Events),
                    "409": _resp("Stale seq, or the hand is over: the current log.", E),
                },
                m.Append,
                write,
            ),
        },
        "/tables/{table}/hands/{hand}/undo": {
            "parameters": [table, hand],
            "post": _op(
                "Remove the last event, or a player's last event (a seated session: its own).",
                {
                    "200": _resp("The log after it.", m.Events),
                    "409": _resp("Stale seq or at; another player's event not confirmed (confirm_takeback).", E),
                    "422": _resp("Nothing to undo, or a later event would no longer hold (takeback_breaks_log).", E),
                },
                m.Undo,
                write,
            ),
        },
    }
    return {
        "openapi": "3.0.3",
        "info": {
            "title": "scorekeeper 고스톱 API",
            "version": "1",
            "description": "Go-Stop scorekeeping: the engine contract and tables, hands and live events.",
        },
        "servers": [{"url": "/api/v1"}],
        "paths": paths,
        "components": {
            "securitySchemes": {
                "tableKey": {"type": "apiKey", "in": "header", "name": "X-Table-Key"},
                "groupKey": {"type": "apiKey", "in": "header", "name": "X-Group-Key"},
            },
            "parameters": {
                # A table's or group's id (``secrets.token_urlsafe``), never "import": ``/tables/import``
                # and ``/groups/import`` are the imports alone (POST), as the routes' converter has it.
                "table": {"name": "table", "in": "path", "required": True, "schema": PUBLIC_ID},
                "hand": {"name": "hand", "in": "path", "required": True, "schema": ROW_ID},
                "group": {"name": "group", "in": "path", "required": True, "schema": PUBLIC_ID},
                "payment": {"name": "payment", "in": "path", "required": True, "schema": ROW_ID},
                "player": {
                    "name": "name",
                    "in": "path",
                    "required": True,
                    "schema": {"type": "string", "minLength": 1, "maxLength": 40},
                },
            },
            "schemas": models.components(),
        },
    }
