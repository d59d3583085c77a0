"""Who changed what: the entries of a table's and a group's history, as the writers note them.

Each writer notes its change in its own transaction (``note``), so an entry exists exactly when
its change does. ``by`` is the phone's seat at the table when it holds one, else "phone" (a
page, or the pages' scripts riding on the phone's cookie) or "api" (a key sent in a header).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Required, TypedDict, cast

from sqlalchemy.orm import Session

from ..engine.model import RulesDoc
from ..store import history as store
from ..store.models import Group, HistoryEntry, JSONObject, Table

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
_who: ContextVar[Callable[[Table | None], str] | None] = ContextVar("history_who", default=None)


def acting(who: Callable[[Table | None], str]) -> None:
    """The front end says, for the request at hand, who is making its changes (``who(table)``:
    a seat's name, "phone" or "api"); it lasts the request's context. Unset, a change is "api"'s."""
    _who.set(who)


def actor(table: Table | None = None) -> str:
    """Who is making this change, as the front end said (``acting``)."""
    who = _who.get()
    return who(table)[:MAX_BY] if who is not None else "api"


def note(session: Session, kind: str, data: JSONObject, table: Table | None = None, group: Group | None = None) -> None:
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


class Change(TypedDict):
    """A player whose standing a change moved (a history entry's ``changes``)."""

    player: str
    before: int
    after: int


def changes(before: Mapping[str, int], after: Mapping[str, int]) -> list[Change]:
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


# A payment as a group's history tells of it.
PaymentBrief = TypedDict("PaymentBrief", {"id": int, "from": str, "to": str, "points": int})


class EntryJSON(TypedDict, total=False):
    """A history entry as the API answers it and the pages read it: when, what, who, and what the
    writer noted of its change (the keys of its kind)."""

    at: Required[str]
    kind: Required[str]
    by: Required[str]
    table: str  # the table's public id: an entry of a table
    name: str  # group_created, group_imported
    players: list[str]  # group_created, evening_added
    payment: PaymentBrief  # payment_recorded, payment_voided
    date: str  # evening_added, evening_removed
    player: str  # pay_link_set
    pay_link: str | None
    rules: RulesDoc  # rules_set
    which: str  # keys_rotated: edit, view or both
    hand: int  # hand_added, hand_edited, hand_deleted, hand_finished
    hand_kind: str  # hand_added: summary or log
    changes: list[Change]  # the players whose standing the change moved


def entry_json(entry: HistoryEntry) -> EntryJSON:
    # The entry's data is what its writer noted (``note``): the keys of its kind.
    return cast(EntryJSON, {"at": iso(entry.at), "kind": entry.kind, "by": entry.by, **entry.data})


def of_table(session: Session, table: Table) -> list[EntryJSON]:
    return [entry_json(e) for e in store.of_table(session, table.id)]


def of_group(session: Session, group: Group) -> list[EntryJSON]:
    return [entry_json(e) for e in store.of_group(session, group.id)]
