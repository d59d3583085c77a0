"""Each table's poll row (its id, secrets and version) kept by the process on PostgreSQL, kept
true by ``LISTEN``.

Three requests in four that a busy server answers are a version poll (issue 32), and on
PostgreSQL each was a round trip for the same small row: the driver's send and its cooperative
wait under gevent, the server's backend waking, on the two cores the app shares with it. A kept
row answers the poll (``fastpath.py``), a refresh's key check and a stream's open
(``faststream.py``) with no round trip. SQLite keeps nothing here: its read is of a file in
the same process, cheaper than the bookkeeping.

A row is kept only while it can be known true: every change of a table moves its version and
notifies inside the writing transaction (``store.touch``, an append's one statement, a rotation
of its keys, an evening removed), so:
- at each note heard (by this listener, or the push watcher's, whichever first) a table's row
  moves to the note's version, or is dropped if the note says its keys were rotated or the
  table deleted; the writing process moves it (an append alone) or drops it at its own commit
  too, before it answers (a phone that tapped, or rotated a key, and then polls this process is
  never told the old). Each listener hears a transaction's notes in commit order, so no row is
  moved past a rotation;
- a row read is kept only if no note of a newer version was heard meanwhile, and only if the
  listener listened since before the read began (a read racing a change keeps nothing stale);
- the listening connection lost, everything kept is dropped and nothing is kept until it
  listens again; no one asking for ``IDLE_S``, the listener stops and drops all;
- a row is kept ``KEEP_S`` at most after the read that last confirmed it, whatever was heard: a
  change made past the app (by hand in ``psql``) sends no note, and is seen by the next read.
  The listener confirms every kept row with one read every ``REFRESH_S`` (``_confirm``), on its
  own connection: each row read again on its own as it aged past ``KEEP_S`` was a round trip for
  every tap once a thousand tables were kept (issue 32).
Another process's change reaches this one's polls as soon as its note is heard (a millisecond
on a quiet server): a poll a moment earlier would have answered the same.
"""

from __future__ import annotations

import logging
import os
import threading
import time

from flask import Flask
from sqlalchemy import Engine, event

from ...store import rows as store
from ...tables import service

log = logging.getLogger(__name__)

IDLE_S = 60.0  # no one asked for a row this long: stop listening, keep nothing
KEEP_S = 10.0  # a row not confirmed by a read this long is read again (a note missed by a link gone quiet)
REFRESH_S = 4.0  # the listener confirms every kept row this often, in one read (a round missed stays in KEEP_S)
CONFIRM_MOST = 1_000  # rows confirmed by one statement
MOST = 50_000  # rows (and versions heard) kept at most; past it, all dropped and kept anew
RETRY_S = 1.0  # after a lost connection, wait this long before listening again
GONE = 2**62  # the version heard of a deleted table: past any row read


_CONFIRM = (
    f"SELECT id, public_id, edit_secret, view_secret, version FROM {store.Table.__tablename__}"
    " WHERE public_id = ANY(%s)"
)


class PollRows:
    """The poll rows one process keeps (one per app and process: ``app.extensions["sk_poll_rows"]``)."""

    def __init__(self, engine: Engine, idle_s: float = IDLE_S):
        self.engine, self.idle_s = engine, idle_s
        self.keeps = engine.dialect.name == "postgresql"
        self._lock = threading.Lock()
        self._rows: dict[str, tuple[store.PollRow, float]] = {}
        self._heard: dict[str, int] = {}
        # Moves each time the listener starts or stops listening: a read begun under another
        # generation is not kept.
        self._generation = 0
        self._listening = False
        self._running: int | None = None  # the pid whose listener runs (a forked worker starts its own)
        self._listener: object | None = None  # the running listener's token: an old one's end changes nothing
        self._asked = time.monotonic()

    def get(self, public_id: str) -> store.PollRow | None:
        """``public_id``'s poll row, kept or read (``store.poll_row_bare``); None if no such table."""
        if not self.keeps:
            return store.poll_row_bare(self.engine, public_id)
        now = time.monotonic()
        self._asked = now
        kept = self._fresh(public_id, now)
        if kept is not None:
            return kept
        self._ensure_listening()
        with self._lock:
            generation, listening = self._generation, self._listening
        row = store.poll_row_bare(self.engine, public_id)
        if row is not None and listening:
            self._keep(row, generation, now)
        return row

    def kept(self, public_id: str) -> store.PollRow | None:
        """``public_id``'s row if this process keeps it, else None (nothing read): for a caller
        that holds a connection already and reads on it when nothing is kept."""
        return self._fresh(public_id, time.monotonic()) if self.keeps else None

    def _fresh(self, public_id: str, now: float) -> store.PollRow | None:
        """The row kept for ``public_id``, if kept less than ``KEEP_S`` before ``now``."""
        kept = self._rows.get(public_id)
        return kept[0] if kept is not None and now - kept[1] < KEEP_S else None

    def _keep(self, row: store.PollRow, generation: int, read_at: float) -> None:
        with self._lock:
            if not self._listening or generation != self._generation:
                return
            if self._heard.get(row.public_id, 0) > row.version:
                return  # changed since the read: the next poll reads it again
            if len(self._rows) >= MOST:
                self._rows.clear()
            self._rows[row.public_id] = (row, read_at)

    def heard(self, public_id: str, version: int, keys: bool = True) -> None:
        """``public_id`` moved to ``version`` (0: it was deleted). ``keys``: its keys may have
        changed with it, and its row is dropped; else the row kept (if any) moves to ``version``
        with the keys it had (a note says whether a change rotated them: ``store.touch``)."""
        version = version or GONE  # no read made before the deletion is kept
        with self._lock:
            kept = self._rows.get(public_id)
            if kept is not None and (keys or version >= GONE):
                del self._rows[public_id]
            elif kept is not None and version > kept[0].version:
                self._rows[public_id] = (kept[0]._replace(version=version), kept[1])
            # A version the kept row has already: the same note heard by the other listener (each
            # hears every note), or an older one heard late; the row is as true as it was.
            if version > self._heard.get(public_id, 0):
                if len(self._heard) >= MOST:  # forgetting what was heard would keep a stale read
                    self._drop_all()
                self._heard[public_id] = version

    def hear(self, note: store.Note) -> None:
        """A note heard (by this process's listener or the push watcher's): the row kept moves or
        goes (``heard``), and an append's events move the rows the process keeps of the table
        (``service.heard_appended``), so that its next load of the table reads nothing."""
        self.heard(note.public_id, note.version, note.keys)
        service.heard_appended(note)

    def _drop_all(self) -> None:
        """Under the lock: nothing kept, and no read begun before this is kept."""
        self._rows.clear()
        self._heard.clear()
        self._generation += 1

    # -- the listener: a thread (a greenlet under gevent) while rows are asked for ----------------
    def stop(self) -> None:
        """Listen no more and keep nothing, from now on: the app is closing, and its database may
        go next (``close_app``). Rows asked for later are read each time."""
        with self._lock:
            self.keeps = False
            self._running = self._listener = None
            self._listening = False
            self._drop_all()

    def _ensure_listening(self) -> None:
        with self._lock:
            if self._running == os.getpid():
                return
            self._running = os.getpid()
            self._listener = token = object()
            self._listening = False  # a forked process inherits its parent's rows, not its listener
            self._drop_all()
        threading.Thread(target=self._listen_while_asked, args=(token,), name="sk-poll-rows", daemon=True).start()

    def _asked_lately(self, token: object) -> bool:
        """Whether listener ``token`` goes on: it is the running one and rows were asked for lately."""
        with self._lock:
            if self._listener is token and time.monotonic() - self._asked > self.idle_s:
                self._running = self._listener = None
            return self._listener is token

    def _listen_while_asked(self, token: object) -> None:
        while self._asked_lately(token):
            failed = False
            try:
                self._listen(token)
            except Exception:  # the database went away: keep nothing until listening again
                failed = self._asked_lately(token)  # stopped meanwhile: its database may be gone by design
                if failed:
                    log.warning("poll rows: listening failed; retrying", exc_info=True)
            finally:  # at once, not after the pause: a row kept meanwhile would miss its notes
                with self._lock:
                    if self._listener is token or self._listener is None:
                        self._listening = False
                        self._drop_all()
            if failed:
                time.sleep(RETRY_S)

    def _listen(self, token: object) -> None:
        import psycopg

        url = self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        # Named, so that ``pg_stat_activity`` says what the connection is, and whose.
        name = f"scorekeeper poll rows {os.getpid()}"
        with psycopg.connect(url, autocommit=True, application_name=name) as conn:
            conn.execute(f"LISTEN {store.NOTIFY_CHANNEL}")
            with self._lock:  # every change committed from now on is heard
                if self._listener is not token:
                    return
                self._drop_all()
                self._listening = True
            confirmed = time.monotonic()
            while self._asked_lately(token):
                for note in conn.notifies(timeout=min(1.0, REFRESH_S)):
                    heard = store.note_of(note.payload)
                    if heard is not None:
                        self.hear(heard)
                if time.monotonic() - confirmed >= REFRESH_S:
                    confirmed = time.monotonic()
                    self._confirm(conn)

    def _confirm(self, conn) -> None:
        """Every kept row read again on the listening connection, ``CONFIRM_MOST`` a statement,
        and kept from the read's start: the rule of ``_keep`` (no note of a newer version heard
        since: that note moved or dropped the row already), a row gone is dropped."""
        with self._lock:
            public_ids, generation = list(self._rows), self._generation
        for start in range(0, len(public_ids), CONFIRM_MOST):
            chunk = public_ids[start : start + CONFIRM_MOST]
            read_at = time.monotonic()
            found = {row[1]: store.PollRow(*row) for row in conn.execute(_CONFIRM, (chunk,)).fetchall()}
            with self._lock:
                if not self._listening or generation != self._generation:
                    return
                for public_id in chunk:
                    row = found.get(public_id)
                    if row is None:
                        self._rows.pop(public_id, None)  # deleted past the app
                    elif self._heard.get(public_id, 0) <= row.version:
                        self._rows[public_id] = (row, read_at)


def init_app(app: Flask) -> None:
    # The tests make an app each, and a listener left for a minute by each held PostgreSQL's
    # connections (37 in 12 s of them): theirs stop at once.
    app.config.setdefault("POLL_ROWS_IDLE_S", IDLE_S)
    rows = PollRows(app.extensions["sk_engine"], app.config["POLL_ROWS_IDLE_S"])
    app.extensions["sk_poll_rows"] = rows

    def committed(session) -> None:
        # Read, not taken: the push watcher's hook (after this one) takes the same note. An
        # append alone (``oneshot``) keeps the table's keys: its row moves to the new version.
        appends = session.info.pop(store.APPENDS, ())
        for public_id, version in session.info.get(store.TOUCHED, {}).items():
            rows.heard(public_id, version, keys=public_id not in appends)

    maker = app.extensions["sk_sessionmaker"]
    event.listen(maker, "after_commit", committed, insert=True)
    event.listen(maker, "after_rollback", lambda session: session.info.pop(store.APPENDS, None))
