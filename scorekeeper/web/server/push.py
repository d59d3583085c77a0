"""Push: phones following a table learn of each change as it is stored (Server-Sent Events).

``GET /t/<id>/stream`` (the table's key, as for its page) answers ``text/event-stream``: at
once an event with the table's current version, then one each time the version moves. The
event's ``id`` is the version, so a phone that reconnects (``EventSource`` does by itself,
sending ``Last-Event-ID``) is told at once where the table is now; the phone then fetches
what changed with the page's partial request, as a poll would. Nothing is missed: a
version is a count of every change, and the phone always fetches the newest state.

``GET /api/v1/tables/<id>/stream`` is the same stream for API clients, with the change itself:
each event's data is what ``GET …/hands/<hand>/events`` answers for the table's last hand
(the same payload as a tap's answer: log, state, seq, version), or only the version when the
last hand is not a live log. A following phone then needs no fetch after each tap: before,
every change cost each other phone of the table a request that loaded and replayed the table.
The payload is built once per process and version (the appending request hands over the one
it answered; another process loads the table once for all its streams of that table).

One ``Watcher`` per process feeds every stream of that process, so the database sees one
question per process, never one per phone:
- a change committed by this process wakes its streams at once (``store.touch`` notes it in
  the session; the session's ``after_commit`` hands it over);
- PostgreSQL: the other processes and servers hear it through ``LISTEN``/``NOTIFY``
  (``store.touch`` notifies inside the writing transaction, delivered at commit);
- SQLite (one machine, no server to listen to): one query every ``PUSH_CHECK_MS`` for the
  versions of all the tables this process has streams for.
Under the gevent workers (``serving.py``) a stream is a greenlet waiting on an event, not a
thread; the watcher is a greenlet too. A stream ends after ``PUSH_STREAM_SECONDS`` and the
phone reconnects: no connection outlives a worker's restart for long.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import select
import socket
import threading
import time
from collections.abc import Callable, Generator, Iterator

from flask import Blueprint, Flask, Response, current_app, request
from sqlalchemy import Engine, event
from werkzeug.exceptions import TooManyRequests

from ...store import rows as store
from ...store.moved import moved_versions
from ...tables import service
from ..access.tables import open_poll_row
from ..views.tablejson import events_document_json, events_json_text
from .lane import IdleLane
from .security import presented_key
from .serving import connections

log = logging.getLogger(__name__)
bp = Blueprint("push", __name__)

HEARTBEAT_S = 15.0  # a comment line now and then: proxies and phones see the stream alive
# How often the process looks (no wait, one poll for all its streams) whether their phones have
# closed them: a stream opened and dropped at once held its connection, one of the worker's,
# until the next heartbeat; a flood of them left no connection for anyone else.
GONE_CHECK_S = 2.0
# Streams one worker process holds open, by three budgets (each a coded 429 past it, the page
# then polls):
# - per table (``PUSH_STREAMS_PER_TABLE``): a table's phones, one stream each, with room for
#   watchers and reconnects; a flood of one table's streams takes no more;
# - per client address (``PUSH_STREAMS_PER_ADDRESS``): high, for carrier-grade NAT (Korean mobile
#   carriers, a 경로당's Wi-Fi put hundreds of phones behind one address; 20 pushed 460 of 500
#   streams from one address to polling), yet bounded;
# - in all (``PUSH_STREAMS_TOTAL``, default three quarters of ``SCOREKEEPER_CONNECTIONS``): a
#   stream is one of the worker's connections, and the rest are kept for taps and polls.
STREAMS_PER_TABLE = 30
STREAMS_PER_ADDRESS = 400
RETRY_MS = 1000  # how soon EventSource reconnects after the stream ends or breaks
PG_SAFETY_CHECK_S = 5.0
DELTA_RETRY_S = 0.05  # on PostgreSQL, a full check now and then besides the notifications
# A stream's open (its read, its first event) waits for a quiet moment of its worker: taps first
# (``lane.py``).
FIRST_EVENTS = IdleLane()
# A table deleted meanwhile: its streams are told version 0, nothing more to say.
_GONE = (0, json.dumps({"version": 0}))
_PG_VERSIONS = f"SELECT public_id, version FROM {store.Table.__tablename__} WHERE public_id = ANY(%s)"


class Follower:
    """One stream's view of its table: the newest version heard, and a bell."""

    __slots__ = ("bell", "key", "left", "public_id", "sock", "version")

    def __init__(self, public_id: str, key: str | None = None, sock=None):
        self.public_id, self.version, self.bell = public_id, 0, threading.Event()
        self.key = key  # the secret the stream was opened with: checked again at each change
        self.sock = sock  # the phone's connection, when known (under gunicorn)
        self.left = False  # its phone closed it: the stream ends at its next wake

    def let_go(self) -> None:
        """Its phone has gone: wake the stream to end."""
        self.left = True
        self.bell.set()

    def hear(self, version: int) -> None:
        if version > self.version:
            self.version = version
            self.bell.set()


class Watcher:
    """The versions of the tables this process streams, learnt once for all their phones."""

    def __init__(self, engine: Engine, check_s: float, app: Flask | None = None):
        self.engine, self.check_s, self.app = engine, check_s, app
        self.postgres = engine.dialect.name == "postgresql"
        self._followers: dict[str, set[Follower]] = {}
        self._lock = threading.Lock()
        self._running: int | None = None  # the pid whose watcher runs
        self._sweeping: int | None = None  # the pid whose sweeper runs
        self._closed = False  # the app is closing: nothing more starts, what runs ends (``stop``)
        # The newest change of each followed table as API streams send it: (version, JSON text).
        self._deltas: dict[str, tuple[int, str]] = {}
        self._building: dict[str, threading.Lock] = {}  # one load per table at a time
        # The secrets of each followed table as of a version (its poll row): a stream opened with
        # a secret since replaced (``store.rotate_secrets``, which moves the version) ends.
        self._secrets: dict[str, store.PollRow] = {}
        # Streams open in this process: per table ("t:<id>"), per client address ("a:<address>"), in
        # all ("*").
        self._by_address: dict[str, int] = {}
        # Followed tables past their first load here: their later loads read the table's small
        # row again, where the first used the one its stream's open read (``note``).
        self._opened: set[str] = set()
        # What SQLite's check asks about: each followed table's row id (noted as its streams open)
        # and the newest version heard of it.
        self._row_ids: dict[str, int] = {}
        self._heard: dict[str, int] = {}

    # -- how many streams a table, an address and the process hold ---------------------------------
    def admit(self, budgets: list[tuple[str, int]]) -> bool:
        """Count one more stream against each ``(name, most)`` budget, unless one is full."""
        with self._lock:
            if any(self._by_address.get(name, 0) >= most for name, most in budgets):
                return False
            for name, _most in budgets:
                self._by_address[name] = self._by_address.get(name, 0) + 1
            return True

    def release(self, names: list[str]) -> None:
        with self._lock:
            for name in names:
                held = self._by_address.get(name, 0) - 1
                if held > 0:
                    self._by_address[name] = held
                else:
                    self._by_address.pop(name, None)

    # -- streams come and go --------------------------------------------------------------------
    def follow(self, public_id: str, key: str | None = None, sock=None) -> Follower:
        follower = Follower(public_id, key, sock)
        with self._lock:
            self._followers.setdefault(public_id, set()).add(follower)
        self._ensure_running()
        if sock is not None:
            self._ensure_sweeping()
        return follower

    def leave(self, follower: Follower) -> None:
        with self._lock:
            group = self._followers.get(follower.public_id)
            if group is not None:
                group.discard(follower)
                if not group:
                    del self._followers[follower.public_id]
                    self._deltas.pop(follower.public_id, None)
                    self._building.pop(follower.public_id, None)
                    self._secrets.pop(follower.public_id, None)
                    self._opened.discard(follower.public_id)
                    self._row_ids.pop(follower.public_id, None)
                    self._heard.pop(follower.public_id, None)

    def followed(self) -> list[str]:
        with self._lock:
            return list(self._followers)

    def _keep_secrets(self, table: store.Table | store.PollRow) -> None:
        """The secrets of a followed table as of its version (under the lock)."""
        known = self._secrets.get(table.public_id)
        if known is None or known.version < table.version:
            self._secrets[table.public_id] = store.PollRow(
                table.id, table.public_id, table.edit_secret, table.view_secret, table.version
            )

    def note(self, row: store.PollRow) -> None:
        """A stream of ``row``'s table was opened with this row (its id, secrets and version):
        the check asks by row id, and the row's secrets are those of its version."""
        with self._lock:
            if row.public_id not in self._followers:
                return
            self._row_ids[row.public_id] = row.id
            self._heard[row.public_id] = max(self._heard.get(row.public_id, 0), row.version)
            self._keep_secrets(row)

    # -- news -----------------------------------------------------------------------------------
    def changed(self, public_id: str, version: int) -> None:
        """``public_id`` is now at ``version`` (or later): ring its streams."""
        with self._lock:
            group = list(self._followers.get(public_id, ()))
            if group and version > self._heard.get(public_id, 0):
                self._heard[public_id] = version
        for follower in group:
            follower.hear(version)

    # -- the change itself, for API streams ------------------------------------------------------
    def offer(
        self, public_id: str, version: int, answer: bytes, table: store.Table | store.PollRow | None = None
    ) -> None:
        """A request that just changed ``public_id`` answered ``answer`` (an events document of
        the table's last hand at ``version``, JSON): the streams of this process send it as it is.

        ``table``: the writer's row, its secrets those of ``version`` (a write reads them again
        with the version under its lock, or stores only at the version its request read them
        at): the streams' check of their secrets then reads nothing either."""
        with self._lock:
            if public_id not in self._followers:
                return
            known = self._deltas.get(public_id)
            if known is None or known[0] < version:
                self._deltas[public_id] = (version, answer.decode().strip())
            if table is not None and table.version == version:
                self._keep_secrets(table)

    def admits(self, follower: Follower) -> bool:
        """Whether the follower's secret still opens its table at the version it heard: one read
        of the table's row per table and version in this process, shared by its streams."""
        with self._lock:
            building = self._building.setdefault(follower.public_id, threading.Lock())
        with building:
            row = self._secrets.get(follower.public_id)
            if row is None or row.version < follower.version:
                row = self._kept_row(follower.public_id)
            if row is None or row.version < follower.version:
                # Read where the process keeps rows (PostgreSQL): kept, the notes of the taps
                # that follow move it, where a read of its own was one round trip for every tap
                # of another process (issue 32).
                rows = self._poll_rows()
                row = rows.get(follower.public_id) if rows is not None and rows.keeps else None
                if row is None or row.version < follower.version:  # a version no note told of
                    with self.engine.connect() as conn:
                        found = store.poll_row(conn, follower.public_id)
                    if found is None:  # deleted
                        return False
                    row = store.PollRow(*found)
                with self._lock:
                    if follower.public_id in self._followers:
                        self._secrets[follower.public_id] = row
        return store.access_level(row, follower.key) is not None

    def delta(self, public_id: str, version: int) -> tuple[int, str]:
        """The change of ``public_id`` at ``version`` or later, as (its version, JSON text).

        Offered by this process's writer, or loaded here once for every stream of the table:
        the streams that wake for the same change wait for the first one's load.
        """
        with self._lock:
            building = self._building.setdefault(public_id, threading.Lock())
        with building:
            known = self._deltas.get(public_id)
            if known is not None and known[0] >= version:
                return known
            found = self._load(public_id, version)
            with self._lock:
                known = self._deltas.get(public_id)
                if public_id in self._followers and (known is None or known[0] < found[0]):
                    self._deltas[public_id] = found
            return found

    def _load(self, public_id: str, version: int = 0) -> tuple[int, str]:
        """The events document of the table's last hand (a log), else its version alone: made,
        cheapest first, from the rows this process keeps at the newest version heard (another
        process's append moves them by its note: nothing read, ``service.kept_state``); read from
        the kept state (where this process keeps none of the table's rows:
        after a restart, or a table whose taps are all another process's), from the rows this
        process keeps (only what changed since) or the kept state after all; loaded whole only
        when none of them has it (a hand with no kept state: just begun, or an undo)."""
        assert self.app is not None, "a watcher that builds changes needs its app"
        known = self._kept_state(public_id, version)
        if known is not None:
            return self._document(known)
        live = self._kept_live(public_id, version)
        if live is not None:
            return live
        with self.app.app_context():
            reader = self.app.extensions["sk_reader"]
            with reader.connect() as conn:  # on a connection, no session
                caught_up = self._caught_up(conn, public_id, version)
                if caught_up is not None:
                    return caught_up
                tried, found = self._from_kept_state(conn, public_id, version)
                if found is not None:
                    return found
                table = store.read_table(conn, public_id)
                if table is None:  # deleted meanwhile: nothing more to say
                    return _GONE
                self._keep_row_secrets(table)
                state = service.load_known(conn, table)
                # Not only appended since the rows kept here (another process began the hand or
                # undid a tap), or the table moved since the kept state was tried: the kept state
                # of this version, a read, where loading the table read its rows and replayed its
                # series, a quarter of the workers' time after a restart (issue 32).
                kept = service.kept_live_hand(conn, table) if state is None and tried != table.version else None
            if state is not None:
                return self._document(state)
            if kept is not None:
                return table.version, events_document_json(kept[0], kept[1], kept[2].to_json(), table.version)
            with self.app.extensions["sk_sessionmaker"](bind=reader) as session:
                table = store.read_table(session.connection(), public_id)
                if table is None:  # deleted meanwhile: nothing more to say
                    return _GONE
                self._keep_row_secrets(table)
                return self._document(service.load(session, table))

    def _kept_state(self, public_id: str, version: int) -> service.TableState | None:
        """The table's state at the newest version this process heard of (at least ``version``)
        from the rows it keeps, else None. Heard by the listener after the note's events moved
        the rows (``pollrows.PollRows.hear``), so rows at that version are the stored ones; their
        row's secrets are those of the version, kept for the streams' check."""
        with self._lock:
            heard = max(version, self._heard.get(public_id, 0))
            table_id = self._row_ids.get(public_id)
        state = service.kept_state(table_id, public_id, heard) if table_id is not None else None
        if state is not None:
            self._keep_row_secrets(state.table)
        return state

    def _kept_live(self, public_id: str, version: int) -> tuple[int, str] | None:
        """The document of the live hand this process read from its snapshot, as moved since by
        every append's note, at the newest version heard (at least ``version``); else None. Its
        secrets are those the stream's check holds for that version, or it reads them."""
        with self._lock:
            heard = max(version, self._heard.get(public_id, 0))
            table_id = self._row_ids.get(public_id)
        live = service.kept_live(table_id, public_id, heard) if table_id is not None else None
        if live is None:
            return None
        return heard, events_document_json(live.hand_id, live.events, live.state.to_json(), heard)

    def _caught_up(self, conn, public_id: str, version: int) -> tuple[int, str] | None:
        """The document at the newest version heard (at least ``version``) from what this process
        keeps of the table, its rows or its live hand, and the events appended since, else None:
        one small read, not the table's row (SQLite's taps in another process, which the version
        check heard of with no note; on PostgreSQL a note too long to carry its events). The
        events since prove that nothing but appends changed: the secrets kept are the version's."""
        with self._lock:
            heard = max(version, self._heard.get(public_id, 0))
            table_id = self._row_ids.get(public_id)
        if table_id is None:
            return None
        state = service.caught_up_state(conn, table_id, public_id, heard)
        if state is not None:
            self._keep_row_secrets(state.table)
            return self._document(state)
        live = service.caught_up_live(conn, table_id, public_id, heard)
        if live is None:
            return None
        return heard, events_document_json(live.hand_id, live.events, live.state.to_json(), heard)

    def _from_kept_state(self, conn, public_id: str, version: int = 0) -> tuple[int | None, tuple[int, str] | None]:
        """(the version the kept state was tried at, else None; the document read from it, else
        None), from the table's small row (id, secrets, version: the whole row's settings are not
        needed) and, where this process keeps the table's rows, those rows caught up by the events
        appended since (another process's taps on SQLite, which sends no note: one read); where it
        keeps none (every stream opening at once after a restart), the live hand's state as its
        last append stored it, a read instead of a replay of the series and the log."""
        # A process's first document of the table: the small row the stream's open read
        # (``note``) unless older than the change asked for; else read here. A row at its version
        # either way; an older one than the kept state's finds no match, and ``_load`` goes on.
        row = None
        with self._lock:
            if public_id not in self._opened:
                row = self._secrets.get(public_id)
        if row is None or row.version < version:
            row = self._kept_row(public_id)
        if row is None:
            found = store.poll_row(conn, public_id)
            if found is None:  # deleted meanwhile: nothing more to say
                return None, _GONE
            row = store.PollRow(*found)
        known = service.knows(row)
        state = service.caught_up_state(conn, row.id, public_id, row.version) if known else None
        # Else the live hand kept here at the row's version (moved by this process's taps), or read
        # from its snapshot.
        kept = (
            None
            if known
            else (service.caught_up_live(conn, row.id, public_id, row.version) or service.kept_live_hand(conn, row))
        )
        with self._lock:
            if public_id in self._followers:
                self._opened.add(public_id)
                if kept is not None or state is not None:  # the secrets of the version the document is at
                    self._keep_secrets(row)
        if state is not None:
            return row.version, self._document(state)
        if kept is None:
            return (None if known else row.version), None
        hand_id, events, hand_state = kept
        return row.version, (row.version, events_document_json(hand_id, events, hand_state.to_json(), row.version))

    def _kept_row(self, public_id: str) -> store.PollRow | None:
        """The table's row as this process keeps it (PostgreSQL, ``pollrows``), else None: true
        as of every change heard, so no older than the version a stream was rung for."""
        rows = self._poll_rows()
        return rows.kept(public_id) if rows is not None else None

    def _poll_rows(self):
        """The app's kept rows (``pollrows.PollRows``), if this watcher has an app."""
        return self.app.extensions.get("sk_poll_rows") if self.app is not None else None

    def _keep_row_secrets(self, table: store.Table) -> None:
        """The row read whole, so its secrets are those of its version: the streams' check of
        their secrets needs no read of its own (nor after a writer's, ``offer``)."""
        with self._lock:
            if table.public_id in self._followers:
                self._keep_secrets(table)

    @staticmethod
    def _document(state: service.TableState) -> tuple[int, str]:
        """(version, the events document of the table's last hand, else its version alone)."""
        version = state.table.version
        last = state.hands[-1] if state.hands else None
        if last is None or last.kind != "log":
            return version, json.dumps({"version": version})
        # The log's text written once per hand and process, then only each tap's events.
        return version, events_json_text(state, last)

    def check(self, listening=None) -> None:
        """Ask the database for the versions of every followed table (one query); on
        PostgreSQL on the listening connection, which the watcher alone owns."""
        ids = self.followed()
        if not ids:
            return
        if listening is not None:
            found = dict(listening.execute(_PG_VERSIONS, (ids,)).fetchall())
        else:
            with self._lock:  # by row id, only what moved past the version heard; by name the rest
                known = {self._row_ids[i]: self._heard.get(i, 0) for i in ids if i in self._row_ids}
                unknown = [i for i in ids if i not in self._row_ids]
            with self.engine.connect() as conn:
                found = moved_versions(conn, known)
                if unknown:
                    found.update(store.versions(conn, unknown))
        for public_id, version in found.items():
            self.changed(public_id, version)

    # -- phones gone: one look for all the streams of the process, every GONE_CHECK_S -------------
    def sweep(self) -> None:
        """Let go the streams whose phones have closed them. One poll for all: each quiet
        stream waking every GONE_CHECK_S to look at its own socket cost a worker holding a
        thousand tables' streams 750 wakes a second (issue 32)."""
        with self._lock:
            watched = [f for group in self._followers.values() for f in group if f.sock is not None and not f.left]
        looking, by_fd = _system_poll(), {}
        for follower in watched:
            try:
                fd = follower.sock.fileno()
                looking.register(fd, select.POLLIN | select.POLLHUP | select.POLLERR)
            except (OSError, ValueError):  # closed meanwhile
                follower.let_go()
                continue
            by_fd[fd] = follower
        for fd, _flags in looking.poll(0) if by_fd else ():
            follower = by_fd[fd]
            if gone(follower.sock):
                follower.let_go()

    def stop(self) -> None:
        """Watch and sweep no more: the app is closing, and its database may go next (``close_app``).
        The threads end at their next wake, and say nothing of a database gone meanwhile."""
        with self._lock:
            self._closed = True
            self._running = self._sweeping = None

    def _ensure_sweeping(self) -> None:
        with self._lock:
            if self._closed or self._sweeping == os.getpid():
                return
            self._sweeping = os.getpid()
        threading.Thread(target=self._sweep_while_followed, name="sk-push-sweeper", daemon=True).start()

    def _sweep_while_followed(self) -> None:
        while True:
            time.sleep(GONE_CHECK_S)
            with self._lock:
                if self._closed or not self._followers:
                    self._sweeping = None
                    return
            try:
                self.sweep()
            except Exception:  # never let the streams go unwatched for a fault of one look
                log.warning("push sweeper: look failed", exc_info=True)

    # -- the watching greenlet (a thread without gevent), only while someone follows -------------
    def _ensure_running(self) -> None:
        with self._lock:
            if self._closed or self._running == os.getpid():
                return
            self._running = os.getpid()  # a forked worker starts its own
        run = self._listen if self.postgres else self._poll
        threading.Thread(target=self._watch, args=(run,), name="sk-push-watcher", daemon=True).start()

    def _still_needed(self) -> bool:
        """False, and the watcher stops, once no stream follows anything."""
        with self._lock:
            if self._closed or not self._followers:
                self._running = None
            return self._running is not None

    def _watch(self, run) -> None:
        while self._still_needed():
            try:
                run()
            except Exception:  # the database went away: try again, streams keep their phones
                if self._still_needed():  # not once closed: its database may be gone by design
                    log.warning("push watcher: database check failed; retrying", exc_info=True)
                    time.sleep(1.0)

    def _poll(self) -> None:
        while self._still_needed():
            time.sleep(self.check_s)
            self.check()

    def _listen(self) -> None:
        import psycopg

        url = self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        # Named, as the poll rows' listener is: ``pg_stat_activity`` says what it is, and whose.
        name = f"scorekeeper push watcher {os.getpid()}"
        with psycopg.connect(url, autocommit=True, application_name=name) as conn:
            conn.execute(f"LISTEN {store.NOTIFY_CHANNEL}")
            self.check(conn)  # whatever happened while not listening
            checked = time.monotonic()
            rows = self._poll_rows()
            while self._still_needed():
                for note in conn.notifies(timeout=1.0):
                    heard = store.note_of(note.payload)
                    if heard is None:
                        continue
                    if rows is not None:  # first: a stream rung for the change reads its table's row there
                        rows.hear(heard)
                    self.changed(heard.public_id, heard.version)
                if time.monotonic() - checked > PG_SAFETY_CHECK_S:
                    self.check(conn)
                    checked = time.monotonic()


def init_app(app: Flask) -> None:
    app.config.setdefault("PUSH_CHECK_MS", 75)
    app.config.setdefault("PUSH_STREAM_SECONDS", 300)
    app.config.setdefault("PUSH_STREAMS_PER_TABLE", STREAMS_PER_TABLE)
    app.config.setdefault("PUSH_STREAMS_PER_ADDRESS", STREAMS_PER_ADDRESS)
    app.config.setdefault("PUSH_STREAMS_TOTAL", connections() * 3 // 4)
    watcher = Watcher(app.extensions["sk_single_reader"], app.config["PUSH_CHECK_MS"] / 1000, app)
    app.extensions["sk_push"] = watcher

    def committed(session) -> None:
        for public_id, version in session.info.pop(store.TOUCHED, {}).items():
            watcher.changed(public_id, version)

    maker = app.extensions["sk_sessionmaker"]
    event.listen(maker, "after_commit", committed)
    event.listen(maker, "after_rollback", lambda session: session.info.pop(store.TOUCHED, None))
    app.register_blueprint(bp)

    @app.errorhandler(TooManyStreams)
    def _too_many(err: TooManyStreams):
        from ..catalogue.i18n import gettext as _
        from .errors import error_response

        response = app.make_response(error_response(429, "rate_limited", _("err_rate")))
        response.headers["Retry-After"] = str(err.retry_after_s)
        sock = request.environ.get("gunicorn.socket")
        if sock is not None:  # no keep-alive for a flood: the connection is the worker's to give
            response.call_on_close(lambda: _hang_up(sock))
        return response


def _hang_up(sock) -> None:
    """End the connection once this answer is sent: reading nothing more from it, gunicorn
    closes it at once instead of keeping it alive for the client's next request."""
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RD)


def _event(version: int, data: str | None = None) -> str:
    return f"id: {version}\ndata: {data or json.dumps({'version': version})}\n\n"


def _system_poll():
    """The system's ``poll``, not gevent's: a look that does not wait needs no hub. gevent's
    builds a watcher per socket and goes through the hub even for no wait, 20 times the cost;
    a worker holding a thousand tables' streams looks 750 times a second (issue 32)."""
    try:
        from gevent import monkey
    except ImportError:  # pragma: no cover - gevent is how the app is served
        return select.poll()
    return monkey.get_original("select", "poll")()


def gone(sock) -> bool:
    """Whether the phone at the other end of ``sock`` has closed it (its page or app is gone).

    A stream learns it only when a write fails, at the next change or heartbeat; before loading
    a change for it, one look (no wait) at the socket: readable with nothing to read is the end.
    """
    if sock is None:
        return False
    try:
        # poll, not select: select cannot look at a socket numbered past 1,024, and a worker
        # holding a thousand tables' streams has many.
        looking = _system_poll()
        looking.register(sock, select.POLLIN | select.POLLHUP | select.POLLERR)
        return bool(looking.poll(0)) and sock.recv(1, socket.MSG_PEEK) == b""
    except (OSError, ValueError):  # closed or broken meanwhile
        return True


def _stream(watcher: Watcher, follower: Follower, seconds: float, changes: bool = False, sock=None) -> Iterator[str]:
    """The events of one stream: the version (``changes``: the change itself) now and at each move."""
    sent = 0
    ends = time.monotonic() + seconds
    # Sent with the first event, one write instead of two (each a send of the worker's: a tenth
    # of its time while 3,000 streams opened at once, issue 32); the phone reads the same text.
    head = f"retry: {RETRY_MS}\n"
    try:
        while True:
            if follower.version > sent:
                step = _next_event(watcher, follower, changes, sent, sock)
                if step is None:  # its phone gone, or its secret replaced: no more
                    if head:
                        yield head
                    return
                if step is _TOO_EARLY:  # read before the change was visible: again soon
                    time.sleep(DELTA_RETRY_S)
                    continue
                sent, text = step
                yield head + text
                head = ""
            if head:  # no event to send at once: the retry line alone, as before
                yield head
                head = ""
            if ends - time.monotonic() <= 0:
                return
            # Until a change, the heartbeat, or the sweeper finding its phone gone (``Watcher.sweep``).
            rang = follower.bell.wait(max(0.0, min(time.monotonic() + HEARTBEAT_S, ends) - time.monotonic()))
            if follower.left:  # the phone closed it: free the connection now
                return
            if not rang:
                yield ": still here\n\n"
            follower.bell.clear()
    finally:
        watcher.leave(follower)


# What ``_next_event`` answers for a change read before it was visible (compared by identity).
_TOO_EARLY: tuple[int, str] = (-1, "")


def _next_event(watcher: Watcher, follower: Follower, changes: bool, sent: int, sock) -> tuple[int, str] | None:
    """The next event of a stream that is behind its table: ``(version, text)``, ``_TOO_EARLY``
    when the change was read before it was visible, or None when the stream ends (a change would
    be loaded for nobody, or the stream's secret was replaced)."""
    if changes and sent and gone(sock):
        return None
    # The change first: its load reads the table's secrets with it, so the check below needs no
    # read of its own.
    change = watcher.delta(follower.public_id, follower.version) if changes else None
    if change is not None and change[0] < follower.version:
        return _TOO_EARLY
    if sent and not watcher.admits(follower):
        return None
    if change is None:
        return follower.version, _event(follower.version)
    return change[0], _event(change[0], change[1])


@bp.get("/t/<public_id>/stream")
def stream(public_id: str):
    """The table's version now and at each change, as Server-Sent Events."""
    return stream_response(public_id)


def stream_response(public_id: str, changes: bool = False) -> Response:
    """The stream of ``public_id`` for this request (its key checked): versions, or the
    changes themselves (``changes``, the API's stream)."""
    opened = open_stream(
        current_app,
        public_id,
        presented_key(public_id),
        request.remote_addr,
        request.environ.get("gunicorn.socket"),
        lambda: open_poll_row(public_id),
        changes,
    )
    assert opened is not None  # open_poll_row refuses by raising
    body, closed = opened
    response = Response(body, mimetype="text/event-stream", headers=STREAM_HEADERS)
    response.call_on_close(closed)  # also when the body never started
    return response


# Besides its content type: what a stream's answer says (``web/server/faststream.py`` sends the same).
STREAM_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}


def open_stream(
    app: Flask, public_id: str, key: str | None, address: str | None, sock, read_row, changes: bool
) -> tuple[Generator[str, None, None], Callable[[], None]] | None:
    """A stream of ``public_id`` opened for ``key`` from ``address``: its body, and what to call
    when its connection closes (the stream let go, its budgets given back), or None when
    ``read_row`` (the table's poll row, if ``key`` opens it) answers None: nothing is held then.

    ``TooManyStreams`` when a budget is full. Used by the view (``stream_response``) and by the
    fast path (``web/server/faststream.py``): one way to open, hold and let go of a stream."""
    watcher: Watcher = app.extensions["sk_push"]
    config = app.config
    budgets = [
        (f"t:{public_id}", int(config["PUSH_STREAMS_PER_TABLE"])),
        (f"a:{address or ''}", int(config["PUSH_STREAMS_PER_ADDRESS"])),
        ("*", int(config["PUSH_STREAMS_TOTAL"])),
    ]
    if not watcher.admit(budgets):
        raise TooManyStreams()
    released = threading.Lock()

    def release() -> None:
        if released.acquire(blocking=False):  # once, whichever of the body's end or the close comes first
            watcher.release([name for name, _most in budgets])

    # Follow first, then read: a change between the two is heard, not lost.
    follower = watcher.follow(public_id, key, sock)
    try:
        # The stream's turn (``lane.py``), before it reads anything: its check of the key and its
        # first event are one turn. Its read before the turn put 3,000 queries before the taps
        # after a restart, and a PostgreSQL tap, a few round trips, waited behind them at each.
        FIRST_EVENTS.wait()
        row = read_row()
    except BaseException:
        watcher.leave(follower)
        release()
        raise
    if row is None:
        watcher.leave(follower)
        release()
        return None
    follower.hear(row.version)
    watcher.note(row)
    body = _released(_stream(watcher, follower, float(config["PUSH_STREAM_SECONDS"]), changes, sock), release)

    def closed() -> None:
        watcher.leave(follower)
        release()

    return body, closed


def _released(body: Iterator[str], release) -> Generator[str, None, None]:
    try:
        yield from body
    finally:
        release()


class TooManyStreams(TooManyRequests):
    """The table, the address or the process holds all the streams its budget allows: the page
    polls instead."""

    retry_after_s = 30


def offer(public_id: str, version: int, answer: bytes, table: store.Table | store.PollRow | None = None) -> None:
    """This request changed ``public_id`` to ``version`` and answers ``answer`` (an events
    document): the API streams of this process send it instead of loading the table again, and
    check their secrets against ``table``'s (``Watcher.offer``)."""
    current_app.extensions["sk_push"].offer(public_id, version, answer, table)
