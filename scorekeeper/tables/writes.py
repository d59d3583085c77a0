"""Every change of a table, one function each: lock it, check the change through the engine,
write it, answer the new state; or raise one ``refusals.WriteRefused`` and store nothing.

The HTML views and the API only translate these answers (a page, a flash, a status and JSON):
neither locks, checks or writes rows itself, so a rule of what may be stored holds on both.
Each function is one transaction (``store.lock_table`` … ``store.commit``); a refusal at any
point rolls it back.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from typing import NamedTuple

from sqlalchemy.orm import Session

from ..engine.errors import EngineError
from ..engine.live import hand as hand_engine
from ..engine.live.hand import HandSetup, HandState
from ..engine.live.takeback import own_last, take_back
from ..engine.live.turns import ended_since, seat_tap
from ..engine.model import SetupJSON
from ..engine.series import config_from
from ..engine.series.ending import end_early
from ..store import oneshot, snapshots
from ..store import rows as store
from ..store.models import Hand, JSONObject, Log, Table
from . import history, service, transfer
from .refusals import WEB_ERROR_CODES, Conflict, NotLive, Refused, Stale, WriteRefused
from .service import Live, TableState

__all__ = [
    "KEEP",
    "WriteRefused",
    "add_hand",
    "append_event",
    "append_live",
    "configure",
    "create_table",
    "delete_hand",
    "edit_hand",
    "end_series",
    "import_table",
    "replace_last_event",
    "rotate_keys",
    "seat_tap_event",
    "take_back_own",
    "undo",
]

Event = JSONObject  # an event of a live hand, as stored and as the engine reads it


class _Keep:
    """``edit_hand``'s default: this part of the hand stays as it is."""


KEEP = _Keep()
EVENT_FIRST = "Someone else added an event first."
HAND_CHANGED = "Someone else changed the hand first."


@contextmanager
def _writing(session: Session, table: Table) -> Iterator[Table]:
    """The write on ``table``: locked (its version read again); any refusal rolls it back, an engine
    refusal raised as ``Refused``."""
    store.lock_table(session, table)
    try:
        yield table
    except EngineError as err:
        session.rollback()
        raise Refused.of(err) from None
    except BaseException:
        session.rollback()
        raise


def _commit(session: Session, recount: Callable[[], Conflict]) -> None:
    """``store.commit``; a collision with another writer is the ``Conflict`` ``recount()`` makes."""
    try:
        store.commit(session)
    except store.Collision:
        raise recount() from None


def _live(state: TableState, hand_id: int) -> Live:
    """The live hand when it is this one; else ``NotLive`` (finished, or not the hand being played)."""
    live = state.live_of(hand_id)
    if live is None:
        raise NotLive("hand_over", "This hand is not being played: no more events.")
    return live


# -- tables ------------------------------------------------------------------------------------


def create_table(session: Session, title: str, config: JSONObject) -> Table:
    """A new table with fresh secrets, its settings checked by the engine; committed."""
    try:
        config_from(config)
    except EngineError as err:
        raise Refused.of(err) from None
    return store.create_table(session, title, config)


def import_table(session: Session, doc: object) -> Table:
    """A new table (new id and secrets) from a table's export: its hands and live logs replayed as
    a change of hands is (``service.replay_rows``); nothing stored when refused. A group's export
    is refused with ``group_file``, naming the import that takes it."""
    if isinstance(doc, dict) and isinstance(doc.get("group"), dict) and "evenings" in doc:
        raise Refused([{"code": "group_file", "message": WEB_ERROR_CODES["group_file"], "path": ""}])
    try:
        title, settings, rows = transfer.read_document(doc)
        table, hands, logs = store.insert_table(session, title, settings, rows)
        try:
            service.replay_rows(table, hands, logs)
        except BaseException:
            session.rollback()
            raise
    except EngineError as err:
        raise Refused.of(err) from None
    store.commit(session)
    return table


def configure(session: Session, table: Table, title: str, config: JSONObject) -> None:
    """A table's new title and settings, checked by the engine."""
    try:
        config_from(config)
    except EngineError as err:
        raise Refused.of(err) from None
    store.update_config(session, table, title, config)


def end_series(session: Session, state: TableState, expected_count: str | None) -> None:
    """End the series early (its settle-up then final), if its hands are still ``expected_count``."""
    if expected_count != str(len(state.hands)):
        raise Conflict("The table has changed: a hand was added or removed.", len(state.hands), "count")
    try:
        config = end_early(state.table.config, state.series, hand_in_play=state.live is not None)
    except EngineError as err:
        raise Refused.of(err) from None
    configure(session, state.table, state.table.title, config)


def rotate_keys(session: Session, table: Table, which: str) -> tuple[str, str]:
    """New edit and/or read-only secret (``which``: edit, view or both): the new (edit, view)."""
    return store.rotate_secrets(
        session, table, which, note=lambda: history.note(session, "keys_rotated", {"which": which}, table=table)
    )


def _standing(session: Session, state: TableState, loaded: int, table: Table, rows: list[Hand]) -> dict[str, int]:
    """The table's balances before a change of its rows: the loaded series' when no other writer
    moved the table since it was loaded, else the rows read under the lock replayed."""
    if table.version == loaded and not state.problem:
        return dict(state.series.balances)
    logs = store.events_by_hand(session, [h.id for h in rows if h.kind == "log"])
    return dict(service.replay(table, rows, logs).series.balances)


# -- hand records ------------------------------------------------------------------------------


def add_hand(
    session: Session,
    state: TableState,
    kind: str,
    summary: JSONObject | None,
    seating: JSONObject | None = None,
    expected_count: int | None = None,
) -> Hand:
    """Append a hand record (a quick-entry summary, or a live hand started: ``kind`` "log"), if the
    table still has ``expected_count`` hands; the series with it must replay. The new row."""
    loaded = state.table.version
    with _writing(session, state.table) as table:
        existing = store.hands(session, table)
        if expected_count is not None and expected_count != len(existing):
            raise Conflict("The table has changed: a hand was added or removed.", len(existing), "count")
        hand = store.new_hand(table, existing, kind, summary, seating)
        after = service.check_rows(session, table, [*existing, hand])
        store.save_hand(session, table, hand)
        # A live hand started moves no one's standing (its end does, tap by tap): no replay for it.
        moved = (
            history.changes(_standing(session, state, loaded, table, existing), after.series.balances)
            if kind == "summary"
            else []
        )
        history.note(
            session, "hand_added", {"hand": len(existing) + 1, "hand_kind": kind, "changes": moved}, table=table
        )
        _commit(
            session,
            recount=lambda: Conflict("Someone else added a hand first.", len(store.hands(session, table)), "count"),
        )
    return hand


def _current(records: list[Hand], hand: Hand, expected_version: str | Collection[str] | None) -> Hand:
    """The hand as stored now, read under the write lock; deleted, a ``Conflict``; changed since
    ``expected_version`` (one or several, ``*``: any), ``Stale``."""
    target = next((h for h in records if h.id == hand.id), None)
    if target is None:
        raise Conflict("That hand was deleted meanwhile.", len(records))
    if expected_version is not None and expected_version != "*":
        allowed = {expected_version} if isinstance(expected_version, str) else expected_version
        if store.hand_version(target) not in allowed:
            raise Stale(target, len(records))
    return target


def edit_hand(
    session: Session,
    state: TableState,
    hand: Hand,
    summary: JSONObject | _Keep | None = KEEP,
    seating: JSONObject | _Keep | None = KEEP,
    expected_version: str | Collection[str] | None = None,
) -> Hand:
    """Change a hand record's summary or seating (its events stay); the series after it must replay.

    ``expected_version`` is the ``store.hand_version`` the edit was made against: when the hand
    has changed since, ``Stale`` carries it as it is now.
    """
    loaded = state.table.version
    with _writing(session, state.table) as table:
        records = store.hands(session, table, fresh=True)
        target = _current(records, hand, expected_version)
        before = _standing(session, state, loaded, table, records)
        if not isinstance(summary, _Keep):
            target.summary = summary
        if not isinstance(seating, _Keep):
            target.seating = seating
        after = service.check_rows(session, table, records)
        store.save_hand(session, table, target)
        history.note(
            session,
            "hand_edited",
            {"hand": records.index(target) + 1, "changes": history.changes(before, after.series.balances)},
            table=table,
        )
        _commit(session, recount=lambda: Conflict("Someone else added a hand first.", len(store.hands(session, table))))
    return target


def delete_hand(
    session: Session, state: TableState, hand: Hand, expected_version: str | Collection[str] | None = None
) -> None:
    """Delete a hand and its log, if the series without it replays; ``expected_version`` as for
    ``edit_hand``."""
    try:
        after = service.replay_rows(state.table, state.without(hand.id), state.logs)
    except EngineError as err:
        raise Refused.of(err) from None
    number = next((i + 1 for i, h in enumerate(state.hands) if h.id == hand.id), 0)
    with _writing(session, state.table) as table:
        if expected_version is not None:
            _current(store.hands(session, table, fresh=True), hand, expected_version)
        store.delete_hand(session, table, hand)
        moved = history.changes(dict(state.series.balances), dict(after.series.balances))
        history.note(session, "hand_deleted", {"hand": number, "changes": moved}, table=table)
        store.commit(session)


# -- a live hand's log -------------------------------------------------------------------------


def _log(session: Session, state: TableState, live: Live, loaded: int) -> list[Event]:
    """The live hand's log under the write lock: the one loaded when the table's version is still
    the one it was loaded at (every change moves it), else read again."""
    return live.events if state.table.version == loaded else store.events(session, live.hand)


def _after(live: Live, log: list[Event], state: HandState | None, events: list[Event]) -> HandState:
    """The hand once its log is ``events``: ``state`` (the hand after ``log``) with the one event
    more applied, or else (any other log, or a refusal, for its path) the log replayed whole."""
    if state is not None and len(events) == len(log) + 1 and events[:-1] == log:
        try:
            return hand_engine.apply(state, events[-1])
        except EngineError:
            pass
    return hand_engine.replay(HandSetup.from_json(live.setup), events)


def _keep(session: Session, table: Table, live: Live, seq: int, state: HandState) -> None:
    """Store the hand's state after its ``seq`` events with the table's new version, in the same
    write: the next process to open it reads it instead of replaying the log. Any later change
    of the table moves its version past it (``service._read_kept``)."""
    if not state.over:  # a finished hand is the series' to count, never read as live
        setup, kept = service.snapshot_of(live.setup, state)
        snapshots.keep(session.connection(), live.hand.id, table.version, seq, setup, kept)


def append_event(
    session: Session, state: TableState, hand_id: int, seq: int, event: Event, then: str | None = None
) -> TableState:
    """Store ``event`` as number ``seq`` of the live hand's log (another length: ``Conflict``).

    ``then`` ("go" or "stop") with an end of turn is the player's answer said in the same tap,
    stored with it when the engine asks that player, in the same transaction: both or neither.
    """
    live = _live(state, hand_id)
    loaded = state.table.version
    if oneshot.supported(session) and seq == len(live.events):
        done = _append_at(session, state, live, event, then)
        if done is not None:
            return done
    with _writing(session, state.table) as table:
        log = _log(session, state, live, loaded)
        if seq != len(log):
            raise Conflict(EVENT_FIRST, len(log), "seq")
        known = live.state if log is live.events or log == live.events else None
        new = [event]
        now = _after(live, log, known, log + new)
        if event.get("type") == "end_turn" and then in ("go", "stop") and now.must_decide == event.get("player"):
            answer = {"type": then, "player": event["player"]}
            now = _after(live, log + new, now, [*log, *new, answer])
            new.append(answer)
        store.add_events(session, table, live.hand, len(log), new, version_each=True)
        _keep(session, table, live, len(log) + len(new), now)
        if now.over:
            _note_hand_end(session, state, loaded, table, live)
        _commit(session, recount=lambda: Conflict(EVENT_FIRST, store.event_count(session, live.hand), "seq"))
    return service.appended(session, state, log + new, now)


class AppendedLive(NamedTuple):
    """A tap stored by ``append_live``: the table's new version, the hand's log and state."""

    version: int
    events: Log
    state: HandState


def append_live(
    session: Session, row: store.PollRow, live: service.LiveKept, seq: int, event: Event
) -> AppendedLive | None:
    """``append_event`` for the live hand alone (``service.live_for_tap``: no table's state read,
    no series): stored only by the compare-and-set at ``row``'s version, else None and nothing
    stored, for the caller to load the table and answer as ever: a table moved meanwhile, an
    event the engine refuses there, a hand's last event (the history notes it), another length."""
    checked = _one_write(live.state, live.setup, event, None) if seq == len(live.events) else None
    if checked is None or not oneshot.supported(session):
        return None
    new, now, kept = checked
    try:
        version = oneshot.append_at(session, row, live.hand_id, row.version, seq, new, kept)
    except store.Collision:
        return None
    if version is None:
        return None
    events = live.events + new
    service.tapped(row, live, events, now, version)
    return AppendedLive(version, events, now)


def _note_hand_end(session: Session, state: TableState, loaded: int, table: Table, live: Live) -> None:
    """A live hand's last event moves the standings: the history names who moved, before and
    after, in the event's transaction (its events are stored: the replay under the lock sees them)."""
    rows = store.hands(session, table)
    before = _standing(session, state, loaded, table, [h for h in rows if h.id != live.hand.id])
    after = service.check_rows(session, table, rows).series.balances
    number = next(i for i, h in enumerate(rows, 1) if h.id == live.hand.id)
    history.note(session, "hand_finished", {"hand": number, "changes": history.changes(before, after)}, table=table)


def _append_at(session: Session, state: TableState, live: Live, event: Event, then: str | None) -> TableState | None:
    """``append_event`` in one statement (``store.oneshot``): the event checked against the state
    loaded, stored only if the table is still at the version it was loaded at. None when the
    engine refuses it there or the table has moved (nothing stored): the locked path then
    answers, as it always did, against the log as stored."""
    checked = _one_write(live.state, live.setup, event, then)
    if checked is None:
        return None
    new, now, kept = checked
    try:
        stored = oneshot.append_at(session, state.table, live.hand.id, state.table.version, len(live.events), new, kept)
    except store.Collision:
        raise Conflict(EVENT_FIRST, store.event_count(session, live.hand), "seq") from None
    if stored is None:
        return None
    return service.appended(session, state, live.events + new, now)


def _one_write(
    state: HandState, setup: SetupJSON, event: Event, then: str | None
) -> tuple[Log, HandState, tuple[str, str]] | None:
    """What a tap stored in one write (``oneshot``) stores after ``state``: its events (the event,
    and go or stop said with an end of turn when the engine asks that player), the state after
    them and that state as kept; None when the engine refuses them or they end the hand (its end
    is noted in the history, ``_note_hand_end``: the locked path writes it)."""
    try:
        now = hand_engine.apply(state, event)
        new = [event]
        if event.get("type") == "end_turn" and then in ("go", "stop") and now.must_decide == event.get("player"):
            answer = {"type": then, "player": event["player"]}
            now = hand_engine.apply(now, answer)
            new.append(answer)
    except EngineError:
        return None
    if now.over:
        return None
    return new, now, service.snapshot_of(setup, now)


def seat_tap_event(
    session: Session,
    state: TableState,
    hand_id: int,
    event: Event,
    skip: bool = False,
    expected_seq: int | None = None,
    seen: int | None = None,
) -> tuple[TableState, str | None]:
    """A seat phone's tap (``engine.live.turns.seat_tap``): the turn ends it passes, then the tap,
    stored after whatever the other phones stored first (its player's capture does not depend on
    the log the phone saw). Answers the new state and who must first say go or stop, when the tap
    waits for that answer (then only the turn ends before it are stored).

    ``skip``: the tap may end more than one turn (else refused ``skip_turns``). ``expected_seq``
    (the API's offline queue): a log of another length is a ``Conflict``. ``seen``: the log length
    the phone saw when tapped; if its player's turn ended since, the tap is late and passes nothing.
    """
    live = _live(state, hand_id)
    loaded = state.table.version
    with _writing(session, state.table) as table:
        log = _log(session, state, live, loaded)
        if expected_seq is not None and expected_seq != len(log):
            raise Conflict(EVENT_FIRST, len(log), "seq")
        now = (
            live.state
            if log is live.events or log == live.events
            else hand_engine.replay(HandSetup.from_json(live.setup), log)
        )
        late = seen is not None and ended_since(log, seen, event.get("player", ""))
        tap = seat_tap(now, event, skip, late)
        if tap.waiting is not None:
            new, after = list(tap.passes), tap.state
        else:
            new, after = [*tap.passes, event], hand_engine.apply(tap.state, event)
        if not new:
            session.rollback()
            return state, tap.waiting
        store.add_events(session, table, live.hand, len(log), new)
        _keep(session, table, live, len(log) + len(new), after)
        if after.over:
            _note_hand_end(session, state, loaded, table, live)
        _commit(session, recount=lambda: Conflict(EVENT_FIRST, store.event_count(session, live.hand), "seq"))
    return service.appended(session, state, log + new, after), tap.waiting


def replace_last_event(session: Session, state: TableState, hand_id: int, seq: int, event: Event) -> None:
    """Put ``event`` in place of the log's last event if the log is still ``seq`` long: a choice said
    right after the event (which junk a giver handed over), undone and tapped again in one write."""
    live = _live(state, hand_id)
    with _writing(session, state.table) as table:
        log = store.events(session, live.hand)
        if seq != len(log) or not log:
            raise Conflict(HAND_CHANGED, len(log), "seq")
        _after(live, log, None, [*log[:-1], event])
        store.replace_last_event(session, table, live.hand, len(log) - 1, event)
        store.commit(session)


def undo(session: Session, state: TableState, hand: Hand, seq: int) -> int:
    """Remove the last event of the last hand (a finished one opens again) if its log is still ``seq``
    long; the new length."""
    last = service.last_log_setup(state)
    if last is None or last[0].id != hand.id:
        raise NotLive("not_last_hand", "Only the last hand's log can be undone.")
    if seq == 0:
        raise Refused([{"code": "nothing_to_undo", "message": "The log is empty: nothing to undo.", "path": "seq"}])
    with _writing(session, state.table) as table:
        log = store.events(session, hand)
        if seq != len(log):
            raise Conflict(HAND_CHANGED, len(log), "seq")
        store.drop_last_event(session, table, hand, len(log) - 1)
        store.commit(session)
    return len(log) - 1


def take_back_own(
    session: Session, state: TableState, hand: Hand, player: str, at: int | None = None
) -> tuple[int, Event]:
    """Remove ``player``'s last event of the last hand's log, wherever it stands (a seated phone's
    undo, ``engine.live.takeback``): refused when the log without it does not replay, and a
    ``Conflict`` when that event is no longer at ``at``, the index the phone saw it at (another
    phone of the same player recorded since, or took it back first). The events of the other
    players after it do not matter to the check: the replay does. Answers (index, the event)."""
    last = service.last_log_setup(state)
    if last is None or last[0].id != hand.id:
        raise NotLive("not_last_hand", "Only the last hand's log can be undone.")
    with _writing(session, state.table) as table:
        log = store.events(session, hand)
        index = own_last(log, player)
        if index is None:
            raise Refused(
                [{"code": "nothing_to_undo", "message": f"The log holds no event of {player}.", "path": "player"}]
            )
        if at is not None and at != index:
            raise Conflict(HAND_CHANGED, len(log), "at")
        take_back(HandSetup.from_json(last[1]), log, index)
        store.drop_event(session, table, hand, index, log[index + 1 :])
        store.commit(session)
    return index, log[index]
