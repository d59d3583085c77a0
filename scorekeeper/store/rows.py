"""The few queries of the web layer: tables, hand records, event logs.

Writers call ``begin_write`` first, then ``lock_table``: SQLite takes its write
lock at BEGIN, PostgreSQL locks the table's row, so two phones changing one
table are served one after the other and the loser sees the winner's change.
What a write checks (the engine's answer, a stale version) is ``tables.writes``'s:
the row writers here store what they are given, in the write the caller began.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from collections.abc import Callable
from datetime import datetime
from functools import lru_cache
from typing import Any, NamedTuple

from sqlalchemy import bindparam, delete, func, insert, select, text, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, make_transient_to_detached
from sqlalchemy.orm.attributes import set_committed_value

from . import snapshots
from .db import AUTOCOMMIT, begin_write
from .models import Event, Hand, JSONObject, Log, Logs, Table, utcnow

EDIT, VIEW = "edit", "view"

# The statements of every request, built once: building and keying a statement costs
# SQLAlchemy more than SQLite takes to run it, and phones poll these all evening.
_TABLE = select(Table).where(Table.public_id == bindparam("public_id"))
_TABLE_ROW = select(*Table.__table__.columns).where(Table.__table__.c.public_id == bindparam("public_id"))
_POLL = select(Table.id, Table.public_id, Table.edit_secret, Table.view_secret, Table.version).where(
    Table.public_id == bindparam("public_id")
)
_RETITLE = (
    update(Table).where(Table.id == bindparam("table_id")).values(title=bindparam("title"), config=bindparam("config"))
)
# The version and the secrets, read again under the lock: after the write, the writer's table holds
# the secrets as of the version it made (``push.offer`` hands them to the streams' check).
_LOCK = (
    select(Table.version, Table.edit_secret, Table.view_secret)
    .where(Table.id == bindparam("table_id"))
    .with_for_update()
)
_HANDS = select(Hand).where(Hand.table_id == bindparam("table_id")).order_by(Hand.position)
# Under the write lock: what another writer committed meanwhile, not this session's copies.
_HANDS_FRESH = _HANDS.execution_options(populate_existing=True)
_EVENTS = select(Event.event).where(Event.hand_id == bindparam("hand_id")).order_by(Event.seq)
_TOUCH = (
    update(Table)
    .where(Table.id == bindparam("table_id"))
    .values(version=Table.version + 1, updated_at=bindparam("now"))
    .returning(Table.version)
)
_ADD_EVENT = insert(Event).values(
    hand_id=bindparam("of_hand"),
    seq=bindparam("at_seq"),
    event=bindparam("the_event"),
    version=bindparam("made_version"),
    created_at=bindparam("now"),
)
_APPENDED_SINCE = (
    select(Event.version, Event.seq, Event.event)
    .where(
        Event.hand_id == bindparam("hand_id"), Event.version > bindparam("after"), Event.version <= bindparam("upto")
    )
    .order_by(Event.version)
)
_HAND_CHANGED = update(Hand).where(Hand.id == bindparam("hand_id")).values(updated_at=bindparam("now"))
_VERSIONS = select(Table.public_id, Table.version).where(Table.public_id.in_(bindparam("public_ids", expanding=True)))
_EVENTS_OF = (
    select(Event.hand_id, Event.event)
    .where(Event.hand_id.in_(bindparam("hand_ids", expanding=True)))
    .order_by(Event.hand_id, Event.seq)
)
PUBLIC_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class Collision(Exception):
    """Another writer stored the same row first (a unique key): nothing of this transaction is stored."""


def hand_version(hand: Hand) -> str:
    """The version of a hand record: a digest of what an edit changes (its summary and seating).

    It is computed, not stored, so it needs no column and no migration, and it is the same on
    every server; two phones that saw the same record hold the same version.
    """
    content = json.dumps([hand.kind, hand.summary, hand.seating], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(content.encode()).hexdigest()[:20]


def new_secret(nbytes: int = 16) -> str:
    return secrets.token_urlsafe(nbytes)


def create_table(session: Session, title: str, config: JSONObject) -> Table:
    """A new table with a fresh public id and two different secrets; committed."""
    edit, view = new_secret(), new_secret()
    while view == edit:  # pragma: no cover - 128 random bits each
        view = new_secret()
    title = CONTROL.sub("", title)[:120]
    table = Table(public_id=new_secret(9), edit_secret=edit, view_secret=view, title=title, config=config)
    session.add(table)
    session.commit()
    return table


def insert_table(
    session: Session,
    title: str,
    config: JSONObject,
    records: list[JSONObject],
    group_id: int | None = None,
    when: datetime | None = None,
) -> tuple[Table, list[Hand], Logs]:
    """A new table (fresh id and secrets) holding ``records``: hand rows and their event logs,
    flushed, not committed (the caller checks them, then ``commit`` or rolls back). An evening of
    a group's import names its group and the day it was played (``when``).

    Each record is ``{"kind", "summary", "seating", "events"}``. Answers the table, its rows and logs.
    """
    edit, view = new_secret(), new_secret()
    table = Table(
        public_id=new_secret(9),
        edit_secret=edit,
        view_secret=view,
        title=CONTROL.sub("", title)[:120],
        config=config,
        group_id=group_id,
        **({"created_at": when} if when else {}),
    )
    session.add(table)
    session.flush()
    rows = [
        Hand(table_id=table.id, position=i, kind=r["kind"], summary=r["summary"], seating=r["seating"])
        for i, r in enumerate(records)
    ]
    session.add_all(rows)
    session.flush()
    logs = {row.id: list(r["events"]) for row, r in zip(rows, records, strict=True) if row.kind == "log"}
    session.add_all(
        [Event(hand_id=hand_id, seq=i, event=e) for hand_id, log in logs.items() for i, e in enumerate(log)]
    )
    return table, rows, logs


def get_table(session: Session, public_id: str) -> Table | None:
    if not isinstance(public_id, str) or not PUBLIC_ID.fullmatch(public_id):
        return None
    return session.scalar(_TABLE, {"public_id": public_id})


def read_table(conn: Connection, public_id: str) -> Table | None:
    """The table for a request that only reads it, or None: its row on ``conn``, made a detached
    object (as if loaded and then let go by a session) without the ORM's query and identity map
    (a third of what a page's or a fetch's access check cost). Writers use ``get_table``."""
    if not isinstance(public_id, str) or not PUBLIC_ID.fullmatch(public_id):
        return None
    row = conn.execute(_TABLE_ROW, {"public_id": public_id}).first()
    if row is None:
        return None
    table = Table(**row._asdict())
    make_transient_to_detached(table)
    return table


def poll_row(session: Session | Connection, public_id: str):
    """What a poll needs of a table (its id, secrets and version) as a row, or None."""
    if not isinstance(public_id, str) or not PUBLIC_ID.fullmatch(public_id):
        return None
    return session.execute(_POLL, {"public_id": public_id}).first()


class PollRow(NamedTuple):
    id: int
    public_id: str
    edit_secret: str
    view_secret: str
    version: int


def poll_row_bare(engine: Engine, public_id: str) -> PollRow | None:
    """``poll_row`` on a pooled DB-API connection, past SQLAlchemy's execution machinery (half
    of what a poll cost on the fast path, ``web/server/fastpath.py``): the same statement, compiled
    once for the engine's dialect, as its own transaction (autocommit)."""
    if not isinstance(public_id, str) or not PUBLIC_ID.fullmatch(public_id):
        return None
    rows = bare_rows(engine, _POLL, {"public_id": public_id}, many=False)
    return PollRow(*rows[0]) if rows else None


def still_at(engine: Engine, table: Table | PollRow, key: str | None) -> bool:
    """Whether the table is at ``table``'s version and ``key`` opens it as it opens ``table``, read
    now (one small read, past what a process keeps): an answer made from a state kept at that
    version is then the read path's own."""
    row = poll_row_bare(engine, table.public_id)
    return row is not None and row.version == table.version and access_level(row, key) == access_level(table, key)


def bare_rows(engine: Engine, statement: Any, named: dict[str, Any], many: bool = True) -> list[tuple]:
    """``statement``'s rows (the first only, unless ``many``) on a pooled DB-API connection, past
    SQLAlchemy's execution machinery; for statements whose columns need no conversion by it
    (strings and integers): compiled once for the engine's dialect, run as its own transaction."""
    sql, names = _bare(statement, engine.dialect)
    params = named if names is None else [named[name] for name in names]
    raw = engine.raw_connection()
    try:
        dbapi: Any = raw.driver_connection
        # SQLite's connections are in autocommit already (``db.make_engine``); a PostgreSQL one
        # is for this statement, then as the pool lends it (the pool only undoes its own changes).
        bare = engine.dialect.name == "postgresql" and not dbapi.autocommit
        if bare:
            dbapi.autocommit = True
        try:
            cursor = dbapi.cursor()
            try:
                cursor.execute(sql, params)
                if many:
                    return [tuple(row) for row in cursor.fetchall()]
                row = cursor.fetchone()
                return [] if row is None else [tuple(row)]
            finally:
                cursor.close()
        finally:
            if bare and not dbapi.closed:
                dbapi.autocommit = False
    finally:
        raw.close()


@lru_cache(maxsize=16)
def _bare(statement: Any, dialect) -> tuple[str, tuple[str, ...] | None]:
    compiled = statement.compile(dialect=dialect)
    names = compiled.positiontup
    return str(compiled), None if names is None else tuple(names)


def versions(conn: Session | Connection, public_ids: list[str]) -> dict[str, int]:
    """The versions of several tables in one query (what the push streams watch)."""
    if not public_ids:
        return {}
    return {public_id: version for public_id, version in conn.execute(_VERSIONS, {"public_ids": list(public_ids)})}


def access_level(table: Table | PollRow, key: str | None) -> str | None:
    """``edit`` or ``view`` for a secret of ``table``, compared in constant time; else None."""
    if not key or not isinstance(key, str):
        return None
    given = key.encode("utf-8", "replace")
    # Both comparisons always run, so the timing tells nothing about which matched.
    is_edit = hmac.compare_digest(given, table.edit_secret.encode())
    is_view = hmac.compare_digest(given, table.view_secret.encode())
    return EDIT if is_edit else VIEW if is_view else None


def lock_table(session: Session, table: Table) -> Table:
    """Start a write on ``table``: serialise it against other writers; its version read again."""
    if not _in_write_transaction(session):
        if session.in_transaction():
            session.commit()  # end the reads of this request; objects stay loaded (expire_on_commit off)
        begin_write(session)
    # Only the version and the secrets are read again (the row's lock on PostgreSQL): every
    # change moves the version, so writers compare it with what they loaded; title and config
    # are not parsed again. The secrets as of that version: once the write is stored, the table
    # holds those of the version it made (no one changes a locked row meanwhile). The table may
    # be a row read without the ORM (``read_table``): writers change it with statements of their
    # own (``touch``, ``update_config``), never through the session.
    version, edit, view = session.connection().execute(_LOCK, {"table_id": table.id}).one()
    set_committed_value(table, "version", version)
    set_committed_value(table, "edit_secret", edit)
    set_committed_value(table, "view_secret", view)
    return table


def _in_write_transaction(session: Session) -> bool:
    """Whether the session's reads already run in a transaction that may go on to write.

    PostgreSQL, a writer's session (not the autocommit reader's): under READ COMMITTED each
    statement sees what was committed before it and the row lock below waits for the newest
    version, so the reads' transaction simply goes on: a COMMIT and a BEGIN fewer, two round
    trips of an append's dozen. SQLite must end its read transaction and take the write lock at
    BEGIN IMMEDIATE (a read transaction cannot safely become a writer under WAL).
    """
    bind = session.get_bind()
    if not session.in_transaction() or bind.dialect.name != "postgresql":
        return False
    return session.connection().get_execution_options().get("isolation_level") != AUTOCOMMIT


TOUCHED = "sk_touched"  # session.info: {public_id: version} of the tables this transaction changed
APPENDS = "sk_appends"  # session.info: the public ids of those whose change was an append alone
NOTIFY_CHANNEL = "scorekeeper_tables"
KEYS_ROTATED = "keys"  # a note's third part when the change rotated the table's keys
_TOUCH_NOTIFY = text(
    "WITH moved AS (UPDATE sk_tables SET version = version + 1, updated_at = :now "
    "WHERE id = :table_id RETURNING version) "
    "SELECT version FROM moved, pg_notify(:channel, :prefix || version || :suffix)"
)


class Appended(NamedTuple):
    """What an append's note says it stored: events ``start …`` of the table's hand ``hand_id``,
    each moving the version by one, the last to the note's version."""

    table_id: int
    hand_id: int
    start: int
    events: list


class Note(NamedTuple):
    """A note as ``touch`` or an append sends it: the table's id, its version, whether its keys
    were rotated with it, and for an append short enough to say them, the events it stored."""

    public_id: str
    version: int
    keys: bool = False
    appended: Appended | None = None


# A note's payload is at most 8,000 bytes (PostgreSQL's limit): an append whose events would make
# it longer says only its version, and a process that keeps the table reads what changed.
NOTE_MOST = 7_900


def appended_tail(table_id: int, hand_id: int, start: int, events_json: str) -> str:
    """What an append's note says after its version: ``:+table.hand.start:`` and its events'
    JSON (as stored), or nothing when too long for a note."""
    tail = f":+{table_id}.{hand_id}.{start}:{events_json}"
    return tail if len(tail) <= NOTE_MOST - 64 else ""


def note_of(payload: str) -> Note | None:
    """A note as ``touch`` or an append sends it; None for anything else."""
    public_id, _, rest = payload.partition(":")
    version, _, what = rest.partition(":")
    if not version.isdigit():
        return None
    if not what.startswith("+"):
        return Note(public_id, int(version), what == KEYS_ROTATED)
    where, _, events = what[1:].partition(":")
    try:
        table_id, hand_id, start = (int(part) for part in where.split("."))
        stored = json.loads(events)
    except ValueError:
        return Note(public_id, int(version))  # the version alone is still true
    if not isinstance(stored, list):
        return Note(public_id, int(version))
    return Note(public_id, int(version), False, Appended(table_id, hand_id, start, stored))


def touch(session: Session, table: Table, keys: bool = False) -> int:
    """Count a change of ``table``: its version moves on; the new version.

    The version is noted in ``session.info`` for the push streams of this process
    (``web/push.py``, on commit); on PostgreSQL a NOTIFY, delivered at commit, tells
    the other processes and servers (``keys``: the note says the table's keys were rotated with
    it: what a process keeps of them is dropped). A rollback delivers neither. The statements run on
    the session's connection, past the ORM's bookkeeping (a third of an append's cost).
    """
    conn = session.connection()
    params = {"table_id": table.id, "now": utcnow()}
    if conn.dialect.name == "postgresql":  # the version moved and announced in one round trip
        suffix = f":{KEYS_ROTATED}" if keys else ""
        note = {"channel": NOTIFY_CHANNEL, "prefix": f"{table.public_id}:", "suffix": suffix}
        version = conn.execute(_TOUCH_NOTIFY, params | note).scalar_one()
    else:
        version = conn.execute(_TOUCH, params).scalar_one()
    set_committed_value(table, "version", version)
    session.info.setdefault(TOUCHED, {})[table.public_id] = version
    return version


_GONE_NOTIFY = text("SELECT pg_notify(:channel, :prefix || '0')")


def deleted(session: Session, table: Table) -> None:
    """Count ``table``'s deletion as a change to version 0, noted and announced as ``touch``
    does: what a process keeps of the table (``web/server/pollrows.py``) is dropped at commit."""
    conn = session.connection()
    if conn.dialect.name == "postgresql":
        conn.execute(_GONE_NOTIFY, {"channel": NOTIFY_CHANNEL, "prefix": f"{table.public_id}:"})
    session.info.setdefault(TOUCHED, {})[table.public_id] = 0


_NEW_SECRETS = (
    update(Table)
    .where(Table.id == bindparam("table_id"))
    .values(edit_secret=bindparam("edit"), view_secret=bindparam("view"))
)
ROTATABLE = ("edit", "view", "both")


def renewed(edit: str, view: str, which: str) -> tuple[str, str]:
    """The (edit, view) secrets with ``which`` (edit, view or both) made anew, the two kept
    different from each other: a table's and a group's rotation alike."""
    while True:
        if which in ("edit", "both"):
            edit = new_secret()
        if which in ("view", "both"):
            view = new_secret()
        if edit != view:
            return edit, view


def rotate_secrets(
    session: Session, table: Table, which: str, note: Callable[[], None] | None = None
) -> tuple[str, str]:
    """New edit and/or read-only secret for ``table`` (``which``: edit, view or both), in place in
    its columns; committed. The old ones then open nothing: every check (pages, API, fast path,
    a phone's session, a push stream woken by the version this moves) compares the stored
    secrets. The two are kept different from each other."""
    assert which in ROTATABLE, which
    table = lock_table(session, table)
    row = session.connection().execute(_POLL, {"public_id": table.public_id}).one()
    edit, view = renewed(row.edit_secret, row.view_secret, which)
    session.connection().execute(_NEW_SECRETS, {"table_id": table.id, "edit": edit, "view": view})
    touch(session, table, keys=True)
    if note is not None:  # the history's entry, in the same transaction
        note()
    session.commit()
    set_committed_value(table, "edit_secret", edit)
    set_committed_value(table, "view_secret", view)
    return edit, view


def update_config(session: Session, table: Table, title: str, config: JSONObject) -> None:
    table = lock_table(session, table)
    session.connection().execute(_RETITLE, {"table_id": table.id, "title": title, "config": config})
    set_committed_value(table, "title", title)
    set_committed_value(table, "config", config)
    touch(session, table)
    session.commit()


def hands(session: Session, table: Table, fresh: bool = False) -> list[Hand]:
    return list(session.scalars(_HANDS_FRESH if fresh else _HANDS, {"table_id": table.id}))


def new_hand(
    table: Table, existing: list[Hand], kind: str, summary: JSONObject | None, seating: JSONObject | None
) -> Hand:
    """A hand row after ``existing`` (not yet in the session: ``save_hand`` adds it)."""
    position = (existing[-1].position + 1) if existing else 0
    return Hand(table_id=table.id, position=position, kind=kind, summary=summary, seating=seating)


def save_hand(session: Session, table: Table, hand: Hand) -> None:
    """Store a new or changed hand row in the write begun by ``lock_table``; the table's version moves."""
    hand.updated_at = utcnow()
    session.add(hand)
    touch(session, table)


def delete_hand(session: Session, table: Table, hand: Hand) -> None:
    """Delete a hand row and its log in the write begun by ``lock_table``; the table's version moves."""
    session.execute(delete(Event).where(Event.hand_id == hand.id))
    session.execute(delete(Hand).where(Hand.id == hand.id, Hand.table_id == table.id))
    touch(session, table)


def commit(session: Session) -> None:
    """End a write; ``Collision`` (nothing stored) when another writer took the same row first."""
    try:
        session.commit()
    except IntegrityError:
        session.rollback()
        raise Collision from None


def events(session: Session, hand: Hand) -> Log:
    return list(session.scalars(_EVENTS, {"hand_id": hand.id}))


def event_count(session: Session, hand: Hand) -> int:
    return session.scalar(select(func.count()).select_from(Event).where(Event.hand_id == hand.id)) or 0


def add_events(session: Session, table: Table, hand: Hand, start: int, new: Log, version_each: bool = False) -> None:
    """Store ``new`` as events ``start …`` of the hand's log, in the write begun by ``lock_table``.

    The table's version moves once, and each row is marked with it; with ``version_each``, once per
    event, each marked with its own (as separate appends would be: ``appended_since`` then catches
    up on them as appends rather than reading the log again).
    """
    now = utcnow()
    conn = session.connection()
    version = None
    for i, event in enumerate(new):
        if version is None or version_each:
            version = touch(session, table)
        conn.execute(
            _ADD_EVENT,
            {"of_hand": hand.id, "at_seq": start + i, "the_event": event, "made_version": version, "now": now},
        )
    conn.execute(_HAND_CHANGED, {"hand_id": hand.id, "now": now})


def replace_last_event(session: Session, table: Table, hand: Hand, seq: int, event: JSONObject) -> None:
    """Put ``event`` in place of event ``seq``, the log's last, in the write begun by ``lock_table``.

    The new row carries no version of its own (not an append: a process that kept the log reads
    it all again, ``appended_since``).
    """
    now = utcnow()
    touch(session, table)
    session.execute(delete(Event).where(Event.hand_id == hand.id, Event.seq == seq))
    session.connection().execute(
        _ADD_EVENT, {"of_hand": hand.id, "at_seq": seq, "the_event": event, "made_version": None, "now": now}
    )
    session.connection().execute(_HAND_CHANGED, {"hand_id": hand.id, "now": now})


def drop_last_event(session: Session, table: Table, hand: Hand, seq: int) -> None:
    """Remove event ``seq``, the log's last (undo), in the write begun by ``lock_table``."""
    session.execute(delete(Event).where(Event.hand_id == hand.id, Event.seq == seq))
    touch(session, table)


def drop_event(session: Session, table: Table, hand: Hand, seq: int, later: Log) -> None:
    """Remove event ``seq`` from the middle of the log (a player's own take-back), in the write begun
    by ``lock_table``: the ``later`` events move one place up.

    They are stored again rather than renumbered in place (a row at a time would collide with
    ``uq_event_seq`` on the way), without versions of their own, as a replaced log's are: a
    process that kept the log reads it all again (``appended_since``).
    """
    now = utcnow()
    session.execute(delete(Event).where(Event.hand_id == hand.id, Event.seq >= seq))
    conn = session.connection()
    for i, event in enumerate(later):
        conn.execute(
            _ADD_EVENT, {"of_hand": hand.id, "at_seq": seq + i, "the_event": event, "made_version": None, "now": now}
        )
    conn.execute(_HAND_CHANGED, {"hand_id": hand.id, "now": now})
    touch(session, table)


def recent_tables(session: Session, public_ids: list[str]) -> list[Table]:
    ids = [p for p in public_ids if isinstance(p, str) and PUBLIC_ID.fullmatch(p)][:50]
    if not ids:
        return []
    return list(session.scalars(select(Table).where(Table.public_id.in_(ids))))


def appended_since(conn: Connection, hand_id: int, known_version: int, known_length: int, version: int) -> Log | None:
    """The events appended to the hand's log after ``known_version``, up to ``version``, when
    every change of the table between them was such an append; else None (read it all again).

    Each change moves the table's version by one, and only an append stores an event marked
    with the version it made: versions ``known_version + 1 … version`` all found, in order, at
    seqs ``known_length …``, prove that nothing else happened meanwhile (an undo, an edit, a
    hand added, a rename: each is a version with no event of its own).
    """
    # On a connection (the session's, or a stream's load's own): a select of columns needs none
    # of the ORM's execution (a fifth of what a stream's load of another process's tap cost).
    params = {"hand_id": hand_id, "after": known_version, "upto": version}
    rows = conn.execute(_APPENDED_SINCE, params).all()
    if len(rows) != version - known_version:
        return None
    for i, row in enumerate(rows):
        if row.version != known_version + 1 + i or row.seq != known_length + i:
            return None
    return [row.event for row in rows]


_VERSION_OF = select(Table.version).where(Table.id == bindparam("table_id"))


def rows_at_one_version(
    session: Session, table: Table, kept_needed: Callable[[int], bool] = lambda _hand_id: True
) -> tuple[list[Hand], Logs, snapshots.Kept | None]:
    """The table's hand rows and logs, and its version set to the one they were read at.

    The version labels every answer made from them: a phone waits for the next one. SQLite
    reads a request's statements in one transaction (one snapshot). PostgreSQL gave each
    statement its own (autocommit reads, READ COMMITTED writes): a tap committed between
    the table's row and its logs made an answer whose version was older than its log, so
    the phone applied that tap twice. There the three reads share a REPEATABLE READ
    snapshot, taken only when a table's rows are read whole, on the connection the reader
    already holds: a second one from the pool, for every stream opening at once, ran the pool
    dry (each held one and waited for another). A writer reads in its own transaction, under
    the table's lock: no tap commits between its reads.

    The third answer is the last hand's kept state (``snapshots``), read in the same snapshot,
    when the last hand is a log that has one and ``kept_needed(its id)``: a caller that has the
    hand's replay already (a stream's first document read it) reads one statement fewer.
    """
    conn = session.connection()
    if conn.dialect.name == "sqlite" or conn.get_execution_options().get("isolation_level") != AUTOCOMMIT:
        found = hands(session, table)
        return found, events_by_hand(session, [h.id for h in found if h.kind == "log"]), _kept(conn, found, kept_needed)
    conn.exec_driver_sql("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
    try:
        version = conn.execute(_VERSION_OF, {"table_id": table.id}).scalar()
        found = hands(session, table)
        logs = events_by_hand(session, [h.id for h in found if h.kind == "log"])
        kept = _kept(conn, found, kept_needed)
    finally:
        conn.exec_driver_sql("ROLLBACK")  # it only read
    if version is not None:
        set_committed_value(table, "version", version)
    return found, logs, kept


def _kept(conn: Connection, found: list[Hand], needed: Callable[[int], bool]) -> snapshots.Kept | None:
    last = found[-1] if found else None
    return snapshots.of_hand(conn, last.id) if last is not None and last.kind == "log" and needed(last.id) else None


def events_by_hand(session: Session, hand_ids: list[int]) -> Logs:
    """The logs of several hands in one query."""
    out: Logs = {h: [] for h in hand_ids}
    if not hand_ids:
        return out
    rows = session.execute(_EVENTS_OF, {"hand_ids": list(hand_ids)})
    for hand_id, event in rows:
        out[hand_id].append(event)
    return out
