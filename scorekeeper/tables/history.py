"""Who changed what: the entries of a table's and a group's history, as the writers note them.

Each writer notes its change in its own transaction (``note``), so an entry exists exactly when
its change does. ``by`` is the phone's seat at the table when it holds one, else "phone" (a
page, or the pages' scripts riding on the phone's cookie) or "api" (a key sent in a header).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask import has_request_context, request
from sqlalchemy.orm import Session

from ..store import history as store
from ..store.models import Group, HistoryEntry, Table

KINDS = (
    "group_created",
    "group_imported",
    "evening_added",
    "evening_removed",
    "rules_set",
    "payment_recorded",
    "payment_voided",
    "pay_link_set",
    "hand_added",
    "hand_edited",
    "hand_deleted",
    "hand_finished",
    "keys_rotated",
)
MAX_BY = 40


def actor(table: Table | None = None) -> str:
    """Who is making this request's change: the phone's seat at ``table``, "phone" or "api"."""
    if not has_request_context():
        return "api"
    if table is not None:
        from ..web.access.seats import seat_of

        seat = seat_of(table.public_id)
        if seat:
            return seat[:MAX_BY]
    if request.headers.get("X-Table-Key") or request.headers.get("X-Group-Key"):
        return "api"
    # The pages' scripts call the API on the phone's cookie, with its CSRF token; a program does not.
    if request.blueprint == "api" and not request.headers.get("X-CSRFToken"):
        return "api"
    return "phone"


def note(
    session: Session, kind: str, data: dict[str, Any], table: Table | None = None, group: Group | None = None
) -> None:
    """Note a change in the writer's transaction (not committed here)."""
    assert kind in KINDS, kind
    doc = dict(data)
    if table is not None:
        doc = {"table": table.public_id, **doc}
    store.add(
        session,
        kind,
        actor(table),
        doc,
        group_id=group.id if group is not None else (table.group_id if table is not None else None),
        table_id=table.id if table is not None else None,
    )


def changes(before: dict[str, int], after: dict[str, int]) -> list[dict[str, Any]]:
    """The players whose standing moved, with it before and after (a player new or gone counts 0)."""
    names = list(dict.fromkeys([*before, *after]))
    return [
        {"player": p, "before": before.get(p, 0), "after": after.get(p, 0)}
        for p in names
        if before.get(p, 0) != after.get(p, 0)
    ]


def iso(when: datetime) -> str:
    """ISO 8601 with its offset (SQLite hands a stored time back without one: it was UTC)."""
    return (when if when.tzinfo else when.replace(tzinfo=UTC)).isoformat()


def entry_json(entry: HistoryEntry) -> dict[str, Any]:
    return {"at": iso(entry.at), "kind": entry.kind, "by": entry.by, **entry.data}


def of_table(session: Session, table: Table) -> list[dict[str, Any]]:
    return [entry_json(e) for e in store.of_table(session, table.id)]


def of_group(session: Session, group: Group) -> list[dict[str, Any]]:
    return [entry_json(e) for e in store.of_group(session, group.id)]
