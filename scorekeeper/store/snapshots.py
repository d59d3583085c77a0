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

from sqlalchemy import Text, and_, bindparam, cast, select, text
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
# The table's last hand with its snapshot, if any; then its log with the table's version, in one
# statement (one snapshot of the database): the version says whether anything moved in between.
_LAST = (
    select(Hand.id, Hand.kind, HandSnapshot.version, HandSnapshot.seq, HandSnapshot.setup, HandSnapshot.state)
    .outerjoin(HandSnapshot, HandSnapshot.hand_id == Hand.id)
    .where(Hand.table_id == bindparam("table_id"))
    .order_by(Hand.position.desc())
    .limit(1)
)
# The events as the text stored (no JSON type's processing of each row): parsed below in one call,
# a thirtieth of the calls a restart's first documents made (every table's log at once).
_LOG_AT = (
    select(Table.version, cast(Event.event, Text))
    .select_from(Table)
    .outerjoin(Event, and_(Event.hand_id == bindparam("hand_id")))
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


class LastHand(NamedTuple):
    id: int
    kind: str
    kept: Kept | None


def last_hand(conn: Connection, table_id: int) -> LastHand | None:
    """The table's last hand row (id, kind) with its snapshot, or None when it has no hand."""
    row = conn.execute(_LAST, {"table_id": table_id}).first()
    if row is None:
        return None
    return LastHand(row[0], row[1], None if row[2] is None else Kept(*row[2:]))


def log_at(conn: Connection, table_id: int, hand_id: int) -> tuple[int | None, Log]:
    """The hand's log and the table's version, read together (None: the table is gone)."""
    rows = conn.execute(_LOG_AT, {"table_id": table_id, "hand_id": hand_id}).all()
    if not rows:
        return None, []
    texts = [event for _, event in rows if event is not None]
    # Each stored text is one JSON value (what the JSON type wrote): joined, they are the list's text.
    return rows[0][0], json.loads(f"[{','.join(texts)}]") if texts else []
