"""A live hand's kept state (``models.HandSnapshot``): written by an append, read instead of a
replay while the table is still at the version it was written at.

Nothing here decides whether a snapshot is right: it is stored with the table's version and the
log's length, and ``tables.service`` reads it only when both still hold (every change of a table
moves its version, so an undo, a replaced event, an edit of an earlier hand or new settings each
leave it behind, whatever their kind) and the engine's code that wrote it is this one.
"""

from __future__ import annotations

import json
from typing import NamedTuple

from sqlalchemy import Text, and_, bindparam, case, cast, or_, select, text
from sqlalchemy.engine import Connection

from .models import Event, Hand, HandSnapshot, Log, Table

KEEP_SQL = (
    "INSERT INTO sk_hand_states (hand_id, version, seq, setup, state) "
    "VALUES (:hand_id, :version, :seq, :setup, :state) "
    "ON CONFLICT (hand_id) DO UPDATE SET version = excluded.version, seq = excluded.seq, "
    "setup = excluded.setup, state = excluded.state"
)
_KEEP = text(KEEP_SQL)
_OF_HAND = select(HandSnapshot.version, HandSnapshot.seq, HandSnapshot.setup, HandSnapshot.state).where(
    HandSnapshot.hand_id == bindparam("hand_id")
)
# The table's version, its last hand with its snapshot (if any) and, when that snapshot is of the
# table's version, the hand's log: one statement, one snapshot of the database (a restart's first
# documents, every table at once: one round trip each, not two). The events are read as the text
# stored (no JSON type's processing of each row: parsed in one call below); the snapshot's texts
# only on the first row, not copied into each event's.
_LAST_HAND = (
    select(Hand.id)
    .where(Hand.table_id == Table.id)
    .order_by(Hand.position.desc())
    .limit(1)
    .correlate(Table)
    .scalar_subquery()
)
_FIRST_ROW = or_(Event.seq.is_(None), Event.seq == 0)
_KEPT_AT = (
    select(
        Table.version,
        Hand.id,
        Hand.kind,
        HandSnapshot.version,
        HandSnapshot.seq,
        case((_FIRST_ROW, HandSnapshot.setup)),
        case((_FIRST_ROW, HandSnapshot.state)),
        cast(Event.event, Text),
    )
    .select_from(Table)
    .outerjoin(Hand, Hand.id == _LAST_HAND)
    .outerjoin(HandSnapshot, HandSnapshot.hand_id == Hand.id)
    .outerjoin(Event, and_(Event.hand_id == Hand.id, Hand.kind == "log", HandSnapshot.version == Table.version))
    .where(Table.id == bindparam("table_id"))
    .order_by(Event.seq)
)


class Kept(NamedTuple):
    version: int
    seq: int
    setup: str
    state: str


def keep(conn: Connection, hand_id: int, version: int, seq: int, setup: str, state: str) -> None:
    """Store the hand's state after ``seq`` events, at the table's ``version`` (in the caller's write)."""
    conn.execute(_KEEP, {"hand_id": hand_id, "version": version, "seq": seq, "setup": setup, "state": state})


def of_hand(conn: Connection, hand_id: int) -> Kept | None:
    row = conn.execute(_OF_HAND, {"hand_id": hand_id}).first()
    return None if row is None else Kept(*row)


class KeptAt(NamedTuple):
    """A table's last hand as ``kept_at`` reads it."""

    version: int  # the table's
    hand_id: int | None  # None: the table has no hand
    kind: str | None
    kept: Kept | None  # the last hand's snapshot, if any
    events: Log  # its log, read only when the snapshot is of the table's version (else empty)


def kept_at(conn: Connection, table_id: int) -> KeptAt | None:
    """The table's version with its last hand, that hand's snapshot and (when the snapshot is of
    the table's version) its log, read together; None when the table is gone."""
    rows = conn.execute(_KEPT_AT, {"table_id": table_id}).all()
    if not rows:
        return None
    version, hand_id, kind, kept_version, seq, setup, state, _ = rows[0]
    kept = None if kept_version is None else Kept(kept_version, seq, setup, state)
    texts = [row[7] for row in rows if row[7] is not None]
    # Each stored text is one JSON value (what the JSON type wrote): joined, they are the list's text.
    return KeptAt(version, hand_id, kind, kept, json.loads(f"[{','.join(texts)}]") if texts else [])
