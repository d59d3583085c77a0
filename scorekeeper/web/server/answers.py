"""The answer of ``GET …/hands/<hand>/events`` kept per process, for the table's version.

A phone that falls back to polling fetches the hand after each change it sees, and so do the
other phones of its table: each fetch loaded the table, replayed the hand and encoded its log
and state again, the same bytes for every phone at that version. Every change of a table moves
its version (``store.touch``), so an answer kept with the version it was made at is the stored
state's as long as the table is still at that version; the appending request keeps its own
answer (the same document). A cache of work, not of data: checked against the table's row read
by the request, as in ``tables.service``.
"""

from __future__ import annotations

from ...caching import TABLES_KEPT, Bounded
from ...store.models import Table
from ...store.rows import PollRow

# (table id, public id, hand) -> (version, answer, {content coding: the answer so encoded});
# a live hand's answer is ~5-10 KB: some 10 MB a thousand tables.
_answers: Bounded[tuple, tuple[int, bytes, dict[str, bytes]]] = Bounded(TABLES_KEPT)


def _key(table: Table | PollRow, hand_id: int) -> tuple:
    # The random public id too: two databases in one process may both have a table 1.
    return (table.id, table.public_id, hand_id)


def get(table: Table | PollRow, hand_id: int) -> bytes | None:
    """The answer kept for ``hand_id`` at the table's current version, or None."""
    hit = _answers.get(_key(table, hand_id))
    return hit[1] if hit is not None and hit[0] == table.version else None


def keep(table: Table | PollRow, hand_id: int, body: bytes) -> None:
    """``body`` answers for ``hand_id`` at the table's version now."""
    _answers.put(_key(table, hand_id), (table.version, body, {}))


def get_variant(table: Table | PollRow, hand_id: int, coding: str) -> bytes | None:
    """The kept answer as ``coding`` (br, gzip) compressed it, if it was kept so (``fastpath``)."""
    hit = _answers.get(_key(table, hand_id))
    return hit[2].get(coding) if hit is not None and hit[0] == table.version else None


def keep_variant(table: Table | PollRow, hand_id: int, coding: str, body: bytes) -> None:
    """Keep the answer for ``hand_id`` at the table's version, compressed as ``coding``."""
    hit = _answers.get(_key(table, hand_id))
    if hit is not None and hit[0] == table.version:
        hit[2][coding] = body


# The table's answer (``GET /api/v1/tables/<id>``), kept the same way: a heavy table (a thousand
# hands, ~1 MB of JSON) cost 40-60 ms of CPU to encode, the same bytes each time at a version.
_tables: Bounded[tuple, tuple[int, bytes]] = Bounded(200)


def get_table(table: Table | PollRow) -> bytes | None:
    hit = _tables.get((table.id, table.public_id))
    return hit[1] if hit is not None and hit[0] == table.version else None


def keep_table(table: Table, body: bytes) -> None:
    _tables.put((table.id, table.public_id), (table.version, body))
