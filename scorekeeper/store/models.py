"""Tables (series), their hand records and the event logs of live hands."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

# A JSON object as a JSON column keeps it: a table's settings, a hand's summary (the engine's
# contract) and seating, an event of a live hand, a history entry's facts. The engine checks each on
# the way in and reads it back whole; the store neither looks inside nor changes it.
JSONObject = dict[str, Any]
Log = list[JSONObject]  # a live hand's events, oldest first
Logs = dict[int, Log]  # the logs of several hands, by hand id


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    type_annotation_map: ClassVar = {JSONObject: JSON, list[Any]: JSON}


class Table(Base):
    """A series played at one real table, reached by its public id plus a secret."""

    __tablename__ = "sk_tables"

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True)
    edit_secret: Mapped[str] = mapped_column(String(64))
    view_secret: Mapped[str] = mapped_column(String(64))
    title: Mapped[str] = mapped_column(String(120), default="")
    config: Mapped[JSONObject] = mapped_column(JSON)
    # Bumped by every change of the table, its hands or their logs: what phones poll.
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # The group (모임) whose evening this is, if any (migration 0003).
    group_id: Mapped[int | None] = mapped_column(
        ForeignKey("sk_groups.id", ondelete="SET NULL"), nullable=True, index=True, default=None
    )

    hands: Mapped[list[Hand]] = relationship(
        back_populates="table",
        order_by="Hand.position",
        cascade="all, delete-orphan",
        passive_deletes=True,
    )


class Hand(Base):
    """One hand record: a quick-entry summary, or a live hand kept as an event log."""

    __tablename__ = "sk_hands"
    __table_args__ = (
        UniqueConstraint("table_id", "position", name="uq_hand_position"),
        CheckConstraint("kind in ('summary', 'log')", name="ck_hand_kind"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("sk_tables.id", ondelete="CASCADE"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(10))
    # kind "summary": the hand summary of the engine contract (quick entry);
    # kind "log": a live hand, its events in sk_events, its setup from the series.
    summary: Mapped[JSONObject | None] = mapped_column(JSON, nullable=True)
    # Four to seven at the table: {"choices": {player: play|sit}, "shown": {...}}.
    seating: Mapped[JSONObject | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    table: Mapped[Table] = relationship(back_populates="hands")
    events: Mapped[list[Event]] = relationship(
        back_populates="hand",
        order_by="Event.seq",
        cascade="all, delete-orphan",
        passive_deletes=True,
    )


class Event(Base):
    """One event of a live hand; ``seq`` counts from 0 without gaps."""

    __tablename__ = "sk_events"
    __table_args__ = (UniqueConstraint("hand_id", "seq", name="uq_event_seq"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("sk_hands.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    event: Mapped[JSONObject] = mapped_column(JSON)
    # The table's version that appending this event made (``append_event``); NULL for events
    # stored any other way (an imported or replaced log). Lets a process that kept the table's
    # rows at an older version take just the appends since (``store.appended_since``).
    version: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    hand: Mapped[Hand] = relationship(back_populates="events")


class HandSnapshot(Base):
    """A live hand's state as the engine derived it (``engine.live.snapshot``), kept with the
    table's version it was stored at: a hand is read after a restart instead of replayed.

    Written by an append, in the append's transaction; valid only while the table is at that
    version (any other change, an undo, an edit, a new setting, moves the version past it) and the
    log is ``seq`` long. Kept as text, read as it was written (``store.snapshots``).
    """

    __tablename__ = "sk_hand_states"

    hand_id: Mapped[int] = mapped_column(ForeignKey("sk_hands.id", ondelete="CASCADE"), primary_key=True)
    version: Mapped[int] = mapped_column(Integer)
    seq: Mapped[int] = mapped_column(Integer)
    setup: Mapped[str] = mapped_column(Text)  # the hand's setup document (JSON)
    state: Mapped[str] = mapped_column(Text)  # ``snapshot.dump`` (JSON)


class Group(Base):
    """모임 A group that plays evening after evening, reached like a table: public id plus a secret."""

    __tablename__ = "sk_groups"

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True)
    edit_secret: Mapped[str] = mapped_column(String(64))
    view_secret: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(120), default="")
    # What a new evening starts from: {"chip_value", "currency", "rules", "length"}.
    settings: Mapped[JSONObject] = mapped_column(JSON)
    # Bumped by every change of the group itself (a player, a payment, an evening joined).
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class GroupPlayer(Base):
    """A player of a group: one identity across evenings, with a colour."""

    __tablename__ = "sk_group_players"
    __table_args__ = (UniqueConstraint("group_id", "name", name="uq_group_player"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("sk_groups.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    colour: Mapped[str] = mapped_column(String(16))
    position: Mapped[int] = mapped_column(Integer)
    # Where the others send this player money (a Toss or KakaoPay link, ``tables.paylinks``; 0004).
    pay_link: Mapped[str | None] = mapped_column(String(200), nullable=True, default=None)


class GroupPayment(Base):
    """Money handed over between two players: it settles a debt, never changes a result.

    ``key`` makes a payment idempotent: two phones marking the same transfer paid at once send
    the same key, and the second insert meets the unique constraint (recorded once).
    """

    __tablename__ = "sk_group_payments"
    __table_args__ = (UniqueConstraint("group_id", "key", name="uq_group_payment_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("sk_groups.id", ondelete="CASCADE"), index=True)
    payer: Mapped[str] = mapped_column(String(40))
    payee: Mapped[str] = mapped_column(String(40))
    # 64-bit (migration 0004): PostgreSQL's INTEGER refused a debt of 2**31 points or more.
    points: Mapped[int] = mapped_column(BigInteger)
    key: Mapped[str | None] = mapped_column(String(80), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # A payment recorded by mistake is voided, never deleted: it stays listed, out of what is owed (0004).
    voided_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True, default=None)


class HistoryEntry(Base):
    """One change of a group or a table: when, what kind, by whom (a seat, "phone" or "api") and what
    changed (``data``). Written in the same transaction as the change it tells of (migration 0004)."""

    __tablename__ = "sk_history"

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int | None] = mapped_column(
        ForeignKey("sk_groups.id", ondelete="CASCADE"), nullable=True, index=True, default=None
    )
    table_id: Mapped[int | None] = mapped_column(
        ForeignKey("sk_tables.id", ondelete="SET NULL"), nullable=True, index=True, default=None
    )
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    kind: Mapped[str] = mapped_column(String(32))
    by: Mapped[str] = mapped_column(String(40))
    data: Mapped[JSONObject] = mapped_column(JSON)


class EveningFacts(Base):
    """An evening's facts for the group's statistics (``engine.group.evening_facts``), kept with
    the table's version they were computed at: a view reads them instead of replaying every hand."""

    __tablename__ = "sk_evening_facts"

    table_id: Mapped[int] = mapped_column(ForeignKey("sk_tables.id", ondelete="CASCADE"), primary_key=True)
    version: Mapped[int] = mapped_column(Integer)
    facts: Mapped[JSONObject] = mapped_column(JSON)
