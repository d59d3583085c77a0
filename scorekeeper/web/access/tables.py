"""Finding a table and checking the secret the request presents.

Every unknown id and wrong secret is counted against the client's guessing budget
(``limits.refused_key``); a read-only secret asking to edit is not a guess.
"""

from __future__ import annotations

from flask import abort, current_app, g, request
from werkzeug.exceptions import Forbidden, Unauthorized

from ...store import rows as store
from ...store.models import Table
from ...store.rows import PollRow
from ...tables import service
from ..server.database import db
from ..server.limits import refused_key
from ..server.security import EDIT, level_for, presented_key, remember_key


def table_or_404(public_id: str) -> Table:
    table = store.get_table(db(), public_id)
    if table is None:
        refused_key()
        abort(404)
    return table


def open_table(public_id: str, need: str = "view") -> Table:
    """The table, if this request may ``need`` (view or edit) it; else 404, 401 or 403.

    Read from its row in the session's transaction (the same snapshot as the hands read
    next), not through the ORM: a writer locks it and changes it with statements of its own
    (``store.lock_table``), which costs less than loading it into the session.
    """
    table = store.read_table(db().connection(), public_id)
    if table is None:
        refused_key()
        abort(404)
    level = level_for(table)
    if level is None:
        refused_key()
        raise Unauthorized()
    if need == EDIT and level != EDIT:
        raise Forbidden()
    g.table_level = level
    return table


def open_poll_row(public_id: str):
    """A table's id, secrets and version, if this request may view it; else 404 or 401.

    For what phones ask all evening (the version, the push stream): one row on a bare
    connection, no ORM session, no table object.
    """
    row = current_app.extensions["sk_poll_rows"].get(public_id)  # kept on PostgreSQL (``pollrows``)
    if row is None:
        refused_key()
        abort(404)
    if level_for(row) is None:
        refused_key()
        raise Unauthorized()
    return row


def live_for_edit(public_id: str, hand_id: int) -> tuple[PollRow, service.LiveKept] | None:
    """The table's row and its live hand ``hand_id`` from what this process keeps, when this
    request may edit the table by that row; else None, and the caller reads the table
    (``open_table``), which answers every other case with its own checks and counts. The row is
    kept true by ``LISTEN`` on PostgreSQL (``pollrows``: nothing read), read on SQLite (one small
    read, past the ORM); the hand is the one this process keeps, caught up by the events appended
    since (another process's taps), else read from its kept snapshot (``service.live_for_tap``).

    A writer from it stores only if the table is still at the row's version
    (``writes.append_live``): a rotation of the keys moves the version, so a key it took away
    never writes by a row kept from before it, even before this process hears of it."""
    row = current_app.extensions["sk_poll_rows"].get(public_id)
    if row is None or level_for(row) != EDIT:
        return None
    live = service.live_for_tap(current_app.extensions["sk_reader"], row, hand_id)
    if live is None:
        return None
    g.table_level = EDIT
    return row, live


def still_at(public_id: str, table: Table | PollRow) -> bool:
    """Whether the table is at ``table``'s version with its secrets, read now (one small read, past
    what this process keeps): an answer made from a kept state is then the read path's own."""
    return store.still_at(current_app.extensions["sk_engine"], table, presented_key(public_id))


def can_edit() -> bool:
    return g.get("table_level") == EDIT


def keep_access(public_id: str, edit: str) -> None:
    """The phone that made new secrets keeps the table: its session holds the new edit secret
    (an API client with the key in its header has its answer instead)."""
    if presented_key(public_id) and not request.headers.get("X-Table-Key"):
        remember_key(public_id, edit)
