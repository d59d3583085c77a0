"""Between the store and the engine: a table's series, replayed on every read.

The series state is never stored: ``load`` turns the hand rows into the series
module's records and replays them; an unfinished live hand (the last record)
is replayed by the hand module on top of the series before it. Nothing here
computes a score or a payment.

The types of a table's deals (``Deal``, ``Seating``) are re-exported: the web reads them here,
with the state that holds them, rather than from the engine.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import Session, make_transient_to_detached

from ..caching import TABLES_KEPT, Bounded
from ..engine import series as series_engine
from ..engine.errors import EngineError
from ..engine.live import hand as hand_engine
from ..engine.live import snapshot as hand_snapshot
from ..engine.live.hand import HandSetup, HandState
from ..engine.model import ResultJSON, SetupJSON
from ..engine.series import Series, SeriesConfig
from ..engine.series.gwangpalli import Seating as Seating
from ..engine.series.gwangpalli import nagari_factor
from ..engine.series.model import Deal as Deal
from ..store import rows as store
from ..store import snapshots
from ..store.models import Hand, JSONObject, Log, Logs, Table


@dataclass
class Live:
    """The live hand being played: its row, setup, log and state."""

    hand: Hand
    index: int
    setup: SetupJSON  # the hand's setup document (``Series.setup``)
    events: Log
    state: HandState

    @property
    def seq(self) -> int:
        return len(self.events)


@dataclass
class TableState:
    table: Table
    config: SeriesConfig
    hands: list[Hand]
    series: Series  # every finished record (all of them when no hand is live)
    live: Live | None = None
    problem: list[dict] | None = None  # a stored record the engine now refuses
    logs: Logs = field(default_factory=dict)

    @property
    def players(self) -> tuple[str, ...]:
        return self.config.players

    def hand(self, hand_id: int) -> Hand | None:
        """The table's hand row with this id, or None."""
        return next((h for h in self.hands if h.id == hand_id), None)

    def live_of(self, hand_id: int) -> Live | None:
        """The live hand when it is this row, else None (the row is finished, or not live)."""
        return self.live if self.live is not None and self.live.hand.id == hand_id else None

    def without(self, hand_id: int) -> list[Hand]:
        """The rows without this one (what deleting it would leave)."""
        return [h for h in self.hands if h.id != hand_id]

    @property
    def can_start(self) -> bool:
        return self.live is None and self.problem is None and not self.series.finished

    def carry_factor(self, carry: int) -> int:
        """What ``carry`` nagari in a row multiply the next hand's payments by, under the table's rules."""
        return nagari_factor(carry, self.config.rules)


def record_of(hand: Hand, events: Log | None) -> JSONObject:
    """A hand row as the series module's record (and an export's: the JSON the engine reads)."""
    record: JSONObject = {"summary": hand.summary} if hand.kind == "summary" else {"log": {"events": events or []}}
    for key in ("choices", "shown"):
        if hand.seating and hand.seating.get(key):
            record[key] = hand.seating[key]
    return record


class _ConfigKept(NamedTuple):
    doc: JSONObject  # the settings document it was checked from (a copy: nobody else's to change)
    config: SeriesConfig


_configs: Bounded[int, _ConfigKept] = Bounded(TABLES_KEPT)  # by table id


def config_of(table: Table) -> SeriesConfig:
    """The table's settings, checked (``config_from``) once per process and document: each load
    checked them again (a twentieth of a stream's load of another process's tap). Reused only
    while the table's document is equal to the one checked; a refused one is checked each time."""
    hit = _configs.get(table.id)
    if hit is not None and hit.doc == table.config:
        return hit.config
    config = series_engine.config_from(table.config)
    _configs.put(table.id, _ConfigKept(copy.deepcopy(table.config), config))
    return config


def replay(table: Table, hands: list[Hand], logs: Logs, kept: snapshots.Kept | None = None) -> TableState:
    """The series of ``hands``; the last one may be a live hand still being played (its state
    read from ``kept``, the stored snapshot, when that is of this very log at this version)."""
    config = config_of(table)
    records = [record_of(h, logs.get(h.id)) for h in hands]
    live = _replay_live(table, config, hands, logs, records, kept)
    if live is not None:
        return live
    try:
        return TableState(table, config, hands, _play_series(table, config, records), logs=logs)
    except EngineError as err:
        index = int(err.errors[0].get("index", len(records) - 1))
        before = series_engine.play(config, records[:index])
        hand = hands[index]
        if index == len(records) - 1 and hand.kind == "log" and err.code == "hand_not_finished":
            choices = (hand.seating or {}).get("choices")
            events = logs.get(hand.id, [])
            try:
                setup = before.setup(choices if before.config.gwangpalli and choices else None)
                state = hand_engine.replay(HandSetup.from_json(setup), events)
            except EngineError as live_err:
                return TableState(table, config, hands, before, problem=live_err.errors, logs=logs)
            return TableState(table, config, hands, before, Live(hand, index, setup, events, state), logs=logs)
        return TableState(table, config, hands, before, problem=err.errors, logs=logs)


# -- replays already done in this process ----------------------------------------------------
# Phones poll and refresh the same tables all evening; each refresh replayed the series and
# the live hand from the start. The engine's answers are pure functions of their inputs and
# never changed, so each is kept with its inputs and reused only when the inputs are equal
# (compared whole, every time: nothing can be stale); a log that grew is replayed on from its
# prefix. It is a cache of work, not a copy of the store: several app servers stay stateless.

# Entries of each kind (series, live hand ~20 KB, rows ~15 KB), each kind a ``Bounded`` of
# ``TABLES_KEPT`` tables: some 40 MB a thousand busy tables in a process.
_MEMO_SIZE = TABLES_KEPT


class _SeriesKept(NamedTuple):
    config: SeriesConfig
    records: list[JSONObject]
    series: Series


class _HandKept(NamedTuple):
    setup: SetupJSON
    events: Log
    state: HandState


class LiveKept(NamedTuple):
    """A live hand as a tap needs it: its id, setup, log and state (``live_for_tap``)."""

    hand_id: int
    setup: SetupJSON
    events: Log
    state: HandState


class _RowsKept(NamedTuple):
    version: int  # the table's, as the rows were read at
    hands: list[Hand]
    logs: Logs
    table: Table  # its row at that version (a copy is lent: ``kept_state``)


_series: Bounded[int, _SeriesKept] = Bounded(_MEMO_SIZE)  # by table id
_hands: Bounded[int, _HandKept] = Bounded(_MEMO_SIZE)  # by hand id
_rows: Bounded[tuple[int, str], _RowsKept] = Bounded(_MEMO_SIZE)  # ``_rows_key``
_ids: Bounded[str, int] = Bounded(_MEMO_SIZE)  # the table id of a public id whose rows are kept
# The live hand as of a table's version, read from its kept snapshot (``kept_live_hand``) and
# moved by the taps since (this process's, another's note or its events read): by ``_rows_key``,
# (that version, the hand). The hand itself, not a pointer into ``_hands``: a replay of an older
# version may replace that one, and a tap stored from it must be the version's own log.
_lives: Bounded[tuple[int, str], tuple[int, LiveKept]] = Bounded(_MEMO_SIZE)


def forget() -> None:
    """Forget every replay kept, as a process that never saw a table (tests, benchmarks)."""
    for kept in (_series, _hands, _rows, _ids, _lives, _configs):
        kept.clear()


def _play_series(table: Table, config: SeriesConfig, records: list[JSONObject]) -> Series:
    """``series_engine.play``, reused while the table's config and records are the same."""
    hit = _series.get(table.id)
    if hit is not None and hit.config == config and hit.records == records:
        return hit.series
    series = series_engine.play(config, records)
    _series.put(table.id, _SeriesKept(config, list(records), series))
    return series


def _replay_hand(
    hand: Hand, setup: SetupJSON, events: Log, kept: snapshots.Kept | None = None, version: int = 0
) -> HandState:
    """``hand_engine.replay``, continued from the last replay of this hand's log when it grew, or
    read from the stored snapshot ``kept`` when it is of this log at the table's ``version``."""
    hit = _hands.get(hand.id)
    state: HandState | None
    if hit is not None and hit.setup == setup and events[: len(hit.events)] == hit.events:
        state = hit.state
        try:
            for event in events[len(hit.events) :]:
                state = hand_engine.apply(state, event)
        except EngineError:
            state = None  # replayed whole below, for the refusal's path
    else:
        state = _read_kept(kept, version, setup, events) if kept is not None else None
    if state is None:
        state = hand_engine.replay(HandSetup.from_json(setup), events)
    _remember_hand(hand, setup, events, state)
    return state


def _read_kept(kept: snapshots.Kept, version: int, setup: SetupJSON, events: Log) -> HandState | None:
    """The state stored with the table's ``version``, when it is still that version's (every change
    moves the version: an undo, a replaced event or an edited hand leave the snapshot behind) and
    is of this log and setup; None otherwise, and the log is replayed."""
    if kept.version != version or kept.seq != len(events):
        return None
    try:
        if json.loads(kept.setup) != setup:
            return None
        return hand_snapshot.restore(HandSetup.from_json(setup), json.loads(kept.state))
    except (ValueError, EngineError):
        return None


def snapshot_of(live_setup: SetupJSON, state: HandState) -> tuple[str, str]:
    """(setup, state) as ``store.snapshots`` keeps them: what ``_read_kept`` reads back."""
    return json.dumps(live_setup, separators=(",", ":")), json.dumps(hand_snapshot.dump(state), separators=(",", ":"))


def _remember_hand(hand: Hand, setup: SetupJSON, events: Log, state: HandState) -> None:
    _remember_hand_id(hand.id, setup, events, state)


def _remember_hand_id(hand_id: int, setup: SetupJSON, events: Log, state: HandState) -> None:
    _hands.put(hand_id, _HandKept(setup, list(events), state))


def _replay_live(
    table: Table,
    config: SeriesConfig,
    hands: list[Hand],
    logs: Logs,
    records: list[JSONObject],
    kept: snapshots.Kept | None = None,
) -> TableState | None:
    """The usual case, a live hand last at a table of two or three: each record replayed once.

    Anything else (a finished or refused hand, seating choices) answers None, for ``replay``
    to find and report as before, which replays the live hand within the series first.
    """
    hand = hands[-1] if hands else None
    if hand is None or hand.kind != "log" or hand.seating or config.gwangpalli:
        return None
    events = logs.get(hand.id, [])
    try:
        before = _play_series(table, config, records[:-1])
        setup = before.setup()
        state = _replay_hand(hand, setup, events, kept, table.version)
    except EngineError:
        return None
    if state.over:
        return None
    return TableState(table, config, hands, before, Live(hand, len(hands) - 1, setup, events, state), logs=logs)


class KeptHand(NamedTuple):
    """A live hand read from its kept snapshot (``kept_live_hand``)."""

    hand_id: int
    events: Log
    state: HandState


def kept_live_hand(conn: Connection, table: Table | store.PollRow) -> KeptHand | None:
    """The table's last hand as (id, log, state) read from its kept snapshot, without the series
    or the log replayed: what a push stream sends first, after a restart for every table at once.

    ``table``: the table's row or its small one (``store.PollRow``: its id and version are all
    this reads). Only when the snapshot was stored at the table's version (``table.version``, as read by the
    caller) and the log read with it is that version's and ``seq`` long: then the hand is live and
    its state is the one the append stored. None in every other case: the caller loads the table.
    """
    last = snapshots.kept_at(conn, table.id)
    if last is None or last.version != table.version or last.hand_id is None or last.kind != "log":
        return None
    kept = last.kept
    if kept is None or kept.version != table.version or len(last.events) != kept.seq:
        return None
    if kept.setup is None or kept.state is None:  # only the first row carries them
        return None
    events = last.events
    try:
        setup = json.loads(kept.setup)
        state = hand_snapshot.restore(HandSetup.from_json(setup), json.loads(kept.state))
    except (ValueError, EngineError):
        return None
    if state is None:
        return None
    # The next load in this process goes on from it (the hand's kept replay), as from a replay.
    _hands.put(last.hand_id, _HandKept(setup, list(events), state))
    _lives.put(_rows_key(table), (table.version, LiveKept(last.hand_id, setup, list(events), state)))
    return KeptHand(last.hand_id, events, state)


def kept_live(table_id: int, public_id: str, version: int) -> KeptHand | None:
    """The table's live hand kept with ``version`` (``_lives``: read from its snapshot, then moved
    by this process's taps and every append's note since, ``heard_appended``), else None: nothing
    read."""
    live = _lives.get((table_id, public_id))
    if live is None or live[0] != version:
        return None
    return KeptHand(live[1].hand_id, live[1].events, live[1].state)


def caught_up_live(source: Engine | Connection, table_id: int, public_id: str, version: int) -> KeptHand | None:
    """``kept_live`` at ``version``, or the live hand kept at an older version with the events
    appended since applied (one read, on ``source``): what another process's taps changed, where
    no note said them (SQLite). None when anything else changed meanwhile, or the hand ended."""
    live = _caught_up_live(source, (table_id, public_id), version)
    return None if live is None else KeptHand(live.hand_id, live.events, live.state)


def _caught_up_live(source: Engine | Connection, key: tuple[int, str], version: int) -> LiveKept | None:
    kept = _lives.get(key)
    if kept is None or kept[0] > version:
        return None
    known_version, live = kept
    if known_version < version:
        hand_id, length = live.hand_id, len(live.events)
        appended = _read(source, lambda conn: store.appended_since(conn, hand_id, known_version, length, version))
        if appended is None:
            return None
        moved = _moved(live, appended)
        if moved is not None:
            _keep_live(key, version, moved)
        return moved
    return live


def _keep_live(key: tuple[int, str], version: int, live: LiveKept) -> None:
    """``live`` kept as the table's live hand at ``version``, and as the hand's replay (a load goes
    on from it)."""
    _lives.put(key, (version, live))
    _remember_hand_id(live.hand_id, live.setup, live.events, live.state)


def _moved(live: LiveKept, appended: Log) -> LiveKept | None:
    """``live`` with the events ``appended`` applied; None if the engine refuses one or the hand
    ends (a finished hand is the series' to count)."""
    state = live.state
    try:
        for event in appended:
            state = hand_engine.apply(state, event)
    except EngineError:
        return None
    return None if state.over else LiveKept(live.hand_id, live.setup, live.events + appended, state)


def _read(source: Engine | Connection, read: Callable[[Connection], Any]) -> Any:
    """``read`` on ``source``: the caller's connection, or one of the engine's for it alone."""
    if isinstance(source, Connection):
        return read(source)
    with source.connect() as conn:
        return read(conn)


def live_for_tap(engine: Engine, row: store.PollRow, hand_id: int) -> LiveKept | None:
    """The table's live hand ``hand_id`` at the version of its row ``row`` (read now, or kept true
    by ``LISTEN``), from what this process keeps: the live hand kept at that version (nothing read:
    this process's last tap, or another's note), else its rows (caught up by the events appended
    since), else the live hand kept at an older version (caught up the same way), else the hand's
    kept snapshot read (one read: the first tap after a restart, where loading the table read its
    hands and logs and replayed its series). None when none of them has it at that version: the
    caller loads the table. A writer from it stores only if the table is still at ``row.version``."""
    key = _rows_key(row)
    kept = _lives.get(key)
    if kept is not None and kept[0] == row.version:  # nothing to read
        return kept[1] if kept[1].hand_id == hand_id else None
    state = caught_up_state(engine, row.id, row.public_id, row.version) if knows(row) else None
    if state is not None:
        live = state.live_of(hand_id)
        return None if live is None else LiveKept(hand_id, live.setup, live.events, live.state)
    found = _caught_up_live(engine, key, row.version)
    if found is None and not knows(row):
        _read(engine, lambda conn: kept_live_hand(conn, row))  # kept here if its snapshot is the version's
        kept = _lives.get(key)
        found = kept[1] if kept is not None and kept[0] == row.version else None
    return found if found is not None and found.hand_id == hand_id else None


def tapped(row: store.PollRow, live: LiveKept, events: Log, state: HandState, version: int) -> None:
    """A tap stored from ``live`` (``live_for_tap``): what this process keeps moves to ``version``
    with it, as ``appended`` moves it for a tap stored from the table's state."""
    key = _rows_key(row)
    _keep_live(key, version, LiveKept(live.hand_id, live.setup, events, state))
    hit = _rows.get(key)
    last = hit.hands[-1] if hit is not None and hit.hands else None
    if hit is not None and hit.version == row.version and last is not None and last.id == live.hand_id:
        _keep_rows(_at_version(hit.table, version), hit.hands, hit.logs | {live.hand_id: events})


def knows(table: Table | store.PollRow) -> bool:
    """Whether this process keeps the table's rows (at any version): a load then reads only what
    changed since (``_caught_up``), cheaper than reading the whole log for the kept state."""
    return _rows_key(table) in _rows


def _rows_key(table: Table | store.PollRow) -> tuple[int, str]:
    # The random public id too: two databases in one process (tests, a restored copy beside
    # the live one) may both have a table 1 at version 7.
    return (table.id, table.public_id)


def load(session: Session, table: Table) -> TableState:
    """The table's state; its hand rows and logs read again only when its version moved.

    Every change of a table moves its version (``store.touch``), so rows read at the same
    version are the stored ones: phones that refresh after each tap cost one row, not the
    table's whole history. The engine still answers from those inputs (``replay``).
    """
    known = _known_rows(table, session.connection)
    if known is not None:
        return replay(table, *known)
    # The live hand's snapshot only where this process has not replayed it (the first tap after a
    # restart finds the one the stream's first document read): ``_replay_hand`` goes on from that.
    hands, logs, kept = store.rows_at_one_version(session, table, lambda hand_id: hand_id not in _hands)
    # Shared with other requests from now on: out of this session, so that its rollback
    # (which expires what it holds) or its close never reaches them, and no other
    # request's read of them goes through this session. Writers query their own rows.
    for hand in hands:
        if hand in session:
            session.expunge(hand)
    _keep_rows(table, hands, logs)
    return replay(table, hands, logs, kept)


def load_known(conn: Connection, table: Table) -> TableState | None:
    """``load`` on a connection, when this process keeps the table's rows at its version or at
    an older one that only appends followed (read on ``conn``, those events alone); None when
    the rows must be read whole (``load``, in a session). A push stream's load of another
    process's tap needs no ORM session (a quarter of that load)."""
    known = _known_rows(table, lambda: conn)
    return None if known is None else replay(table, *known)


def _known_rows(table: Table, connection: Callable[[], Connection]) -> tuple[list[Hand], Logs] | None:
    """The table's rows at its version from what this process keeps, or None."""
    hit = _rows.get(_rows_key(table))
    if hit is not None and hit.version == table.version:
        return hit.hands, hit.logs
    if hit is not None and hit.version < table.version:
        caught_up = _caught_up(connection(), table.version, hit)
        if caught_up is not None:
            _keep_rows(table, *caught_up)
            return caught_up
    return None


def _caught_up(conn: Connection, version: int, hit: _RowsKept) -> tuple[list[Hand], Logs] | None:
    """The rows kept at an older version, with the events appended since to the last hand:
    what another process's taps changed, read as those events alone (a tap's refresh on the
    other worker read every hand and log of the table again). None when anything else changed."""
    known_version, hands, logs = hit.version, hit.hands, hit.logs
    last = hands[-1] if hands else None
    if last is None or last.kind != "log":
        return None
    log = logs.get(last.id, [])
    appended = store.appended_since(conn, last.id, known_version, len(log), version)
    if appended is None:
        return None
    return hands, logs | {last.id: log + appended}


def heard_appended(note: store.Note) -> None:
    """Another process's append, said in its note (``store.note_of``): the rows this process keeps
    of the table move to the note's version with its events, as ``_caught_up`` would have read
    them. Only from the version just before: each event moved the version by one, so the note
    proves that nothing else changed between the two; any other change leaves the rows behind,
    and the next load reads."""
    appended = note.appended
    if appended is None:
        return
    key = (appended.table_id, note.public_id)
    _live_heard(key, note.version, appended)
    hit = _rows.get(key)
    if hit is None or hit.version != note.version - len(appended.events):
        return
    last = hit.hands[-1] if hit.hands else None
    log = hit.logs.get(appended.hand_id, [])
    if last is None or last.id != appended.hand_id or last.kind != "log" or len(log) != appended.start:
        return
    logs = hit.logs | {last.id: log + appended.events}
    _keep_rows(_at_version(hit.table, note.version), hit.hands, logs)


def _live_heard(key: tuple[int, str], version: int, appended: store.Appended) -> None:
    """``heard_appended`` for the live hand read from its snapshot (``_lives``): its state moved
    by the note's events, while the hand goes on (a finished one is the series' to count)."""
    kept = _lives.get(key)
    if kept is None or kept[0] != version - len(appended.events):
        return
    live = kept[1]
    if live.hand_id != appended.hand_id or len(live.events) != appended.start:
        return
    moved = _moved(live, appended.events)
    if moved is not None:
        _keep_live(key, version, moved)


def _keep_rows(table: Table, hands: list[Hand], logs: Logs) -> None:
    _rows.put(_rows_key(table), _RowsKept(table.version, hands, logs, table))
    _ids.put(table.public_id, table.id)


def kept_id(public_id: str) -> int | None:
    """The id of the table ``public_id`` if this process keeps its rows (at some version)."""
    return _ids.get(public_id)


def kept_state(table_id: int, public_id: str, version: int) -> TableState | None:
    """The table's state at ``version`` from what this process keeps alone (its row, hand rows and
    logs at that very version, and the replays), else None: no read at all.

    ``version``: the table's, as the caller knows it to be now (a row read, or kept true by
    ``LISTEN``). A writer must still store only if the table is at it (``oneshot``'s compare and
    set): a note not yet heard leaves this a version behind without its knowing."""
    hit = _rows.get((table_id, public_id))
    if hit is None or hit.version != version:
        return None
    return replay(_at_version(hit.table, version), hit.hands, hit.logs)


def caught_up_state(source: Engine | Connection, table_id: int, public_id: str, version: int) -> TableState | None:
    """``kept_state``, or where this process keeps the table's rows at an older version that only
    appends followed, those rows with the events appended since (one read, on ``source``): what
    another process's taps changed, where no note said them (SQLite sends none; on PostgreSQL a
    note not yet heard). None when anything else changed meanwhile (the caller reads the table).

    ``version``: the table's, as a row read now gives it; a writer from the state still stores
    only if the table is at it."""
    hit = _rows.get((table_id, public_id))
    if hit is None or hit.version > version:
        return None
    if hit.version < version:
        behind = hit
        caught_up = _read(source, lambda conn: _caught_up(conn, version, behind))
        if caught_up is None:
            return None
        hands, logs = caught_up
        _keep_rows(_at_version(hit.table, version), hands, logs)
        hit = _RowsKept(version, hands, logs, hit.table)
    return replay(_at_version(hit.table, version), hit.hands, hit.logs)


def _at_version(table: Table, version: int) -> Table:
    """A detached copy of ``table``'s row at ``version``: each request its own (a writer moves its
    version when it stores)."""
    copy_ = Table(**{column.key: getattr(table, column.key) for column in _TABLE_COLUMNS})
    copy_.version = version
    make_transient_to_detached(copy_)
    return copy_


_TABLE_COLUMNS = tuple(Table.__table__.columns)


def appended(session: Session, state: TableState, events: Log, hand_state: HandState) -> TableState:
    """``state`` once the live hand's stored log is ``events``, leading to ``hand_state``.

    Nothing is replayed again unless the hand has just ended (the series then counts it).
    """
    if hand_state.over or state.live is None:
        return load(session, state.table)
    live = Live(state.live.hand, state.live.index, state.live.setup, events, hand_state)
    _remember_hand(live.hand, live.setup, events, hand_state)
    logs = state.logs | {live.hand.id: events}
    _keep_rows(state.table, state.hands, logs)  # at the version stored with them
    return TableState(state.table, state.config, state.hands, state.series, live, state.problem, logs)


def check_rows(session: Session, table: Table, rows: list[Hand]) -> TableState:
    """Refuse a change of the hand rows that the engine cannot replay.

    The last row may be a live hand still being played: then the series before
    it must allow a next hand with that seating, and its log must replay.
    """
    logs = store.events_by_hand(session, [h.id for h in rows if h.kind == "log" and h.id is not None])
    return replay_rows(table, rows, logs)


def replay_rows(table: Table, rows: list[Hand], logs: Logs) -> TableState:
    state = replay(table, rows, logs)
    if state.problem:
        raise EngineError.many(state.problem)
    if state.live is None and rows and rows[-1].kind == "log" and rows[-1].id is None:
        return state
    if state.live is not None:
        _check_shown(state, rows[-1])
    return state


def _check_shown(state: TableState, row: Hand) -> None:
    from ..engine.series import gwangpalli

    seating = row.seating or {}
    if state.config.gwangpalli and seating.get("choices"):
        assert state.live is not None, "shown cards are checked on the live hand"
        seats = gwangpalli.choose(state.config.players, state.live.setup["dealer"], seating["choices"])
        gwangpalli.claims(seating.get("shown"), seats, len(state.config.players), state.config.rules, "shown")


def preview(state: TableState, record: dict, index: int | None = None) -> tuple[ResultJSON | None, list[dict]]:
    """The engine's result for a record appended (or put at ``index``): (result, errors)."""
    try:
        series = state.series.append(record) if index is None else state.series.replace(index, record)
    except EngineError as err:
        return None, err.errors
    deal = series.deals[-1 if index is None else index]
    return deal.result, []


class LastLog(NamedTuple):
    """The last hand row, a live log, with its setup document."""

    hand: Hand
    setup: SetupJSON


def last_log_setup(state: TableState) -> LastLog | None:
    """The last hand row, when it is a live log (finished or not), with its setup."""
    if state.live is not None:
        return LastLog(state.live.hand, state.live.setup)
    if not state.hands or state.hands[-1].kind != "log" or state.problem:
        return None
    hand = state.hands[-1]
    records = [record_of(h, state.logs.get(h.id)) for h in state.hands[:-1]]
    before = series_engine.play(state.config, records)
    choices = (hand.seating or {}).get("choices")
    return LastLog(hand, before.setup(choices if before.config.gwangpalli and choices else None))
