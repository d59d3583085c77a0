"""The queries of groups (모임): the group, its players, payments, evenings and their kept facts.

A write here runs in the transaction its caller (``tables.groups``) began as a writer, locked and
commits: ``lock_group`` serialises the group's writers (SQLite takes its write lock at BEGIN,
PostgreSQL locks the group's row), so two phones recording payments are served one after the
other and the second is checked against the first. Only the evenings' facts, a cache, are kept
in a transaction of their own.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import Text, bindparam, delete, insert, select, type_coerce, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from ..engine.summary.contract import loads
from .models import EveningFacts, Group, GroupPayment, GroupPlayer, Hand, Table, utcnow
from .rows import CONTROL, PUBLIC_ID, deleted, new_secret, renewed

log = logging.getLogger(__name__)

# One colour a player, in the order they join: the page's own (.p0 … .p6 in app.css), so that
# the picture shared and the page show each player alike.
COLOURS = ("#1c7ed6", "#e67700", "#2b8a3e", "#862e9c", "#c2255c", "#0b7285", "#5c3d2e")

_GROUP = select(Group).where(Group.public_id == bindparam("public_id"))
_LOCK = select(Group.version).where(Group.id == bindparam("group_id")).with_for_update()
_TOUCH = update(Group).where(Group.id == bindparam("group_id")).values(version=Group.version + 1)


def colour_for(position: int) -> str:
    return COLOURS[position % len(COLOURS)]


def get_group(session: Session, public_id: str) -> Group | None:
    if not isinstance(public_id, str) or not PUBLIC_ID.fullmatch(public_id):
        return None
    return session.scalar(_GROUP, {"public_id": public_id})


def group_by_id(session: Session, group_id: int | None) -> Group | None:
    return session.get(Group, group_id) if group_id is not None else None


def recent_groups(session: Session, public_ids: list[str]) -> list[Group]:
    ids = [p for p in public_ids if isinstance(p, str) and PUBLIC_ID.fullmatch(p)][:50]
    if not ids:
        return []
    return list(session.scalars(select(Group).where(Group.public_id.in_(ids))))


def players(session: Session, group: Group) -> list[GroupPlayer]:
    return list(
        session.scalars(select(GroupPlayer).where(GroupPlayer.group_id == group.id).order_by(GroupPlayer.position))
    )


def evenings(session: Session, group: Group) -> list[Table]:
    """The group's tables, oldest first."""
    return list(session.scalars(select(Table).where(Table.group_id == group.id).order_by(Table.created_at, Table.id)))


def empty_evenings(session: Session, group: Group) -> set[str]:
    """The public ids of the group's tables with no hand (an evening started by mistake)."""
    has_hand = select(Hand.id).where(Hand.table_id == Table.id).exists()
    return set(session.scalars(select(Table.public_id).where(Table.group_id == group.id, ~has_hand)))


def payments(session: Session, group: Group) -> list[GroupPayment]:
    return list(
        session.scalars(select(GroupPayment).where(GroupPayment.group_id == group.id).order_by(GroupPayment.id))
    )


def lock_group(session: Session, group: Group) -> int:
    """Lock ``group`` in the write transaction begun: serialised against its other writers; its version now."""
    return session.connection().execute(_LOCK, {"group_id": group.id}).scalar_one()


def renew_secrets(session: Session, group: Group, which: str) -> tuple[str, str]:
    """New edit and/or read-only secret for ``group`` (``which``: edit, view or both), as a
    table's (``rows.rotate_secrets``). Every check compares the stored secrets, so the old ones
    open nothing: pages, API, share links, the picture, phones' sessions."""
    assert which in ("edit", "view", "both"), which
    edit, view = renewed(
        *session.connection().execute(select(Group.edit_secret, Group.view_secret).where(Group.id == group.id)).one(),
        which,
    )
    session.connection().execute(update(Group).where(Group.id == group.id).values(edit_secret=edit, view_secret=view))
    touch(session, group)
    set_committed_value(group, "edit_secret", edit)
    set_committed_value(group, "view_secret", view)
    return edit, view


def touch(session: Session, group: Group) -> None:
    session.connection().execute(_TOUCH, {"group_id": group.id})


def add_players(session: Session, group: Group, names: list[str]) -> list[str]:
    """Add the ``names`` not yet in the group; those added."""
    known = {p.name for p in players(session, group)}
    start = len(known)
    new = [n for n in dict.fromkeys(names) if n not in known]
    session.add_all(
        [
            GroupPlayer(group_id=group.id, name=n, colour=colour_for(start + i), position=start + i)
            for i, n in enumerate(new)
        ]
    )
    if new:
        touch(session, group)
    return new


def join_table(session: Session, group: Group, table: Table, newcomers: list[str]) -> None:
    """Make ``table`` an evening of ``group``; its players not yet in the group join it."""
    add_players(session, group, newcomers)
    session.execute(update(Table).where(Table.id == table.id).values(group_id=group.id))
    touch(session, group)


def remove_evening(session: Session, group: Group, table: Table) -> bool:
    """Delete ``table``, an evening of ``group`` with no hands. False (nothing changed) when it has a hand by now."""
    if session.scalar(select(Hand.id).where(Hand.table_id == table.id).limit(1)) is not None:
        return False
    session.execute(delete(EveningFacts).where(EveningFacts.table_id == table.id))
    session.execute(delete(Table).where(Table.id == table.id, Table.group_id == group.id))
    deleted(session, table)
    touch(session, group)
    return True


def payment_of(session: Session, group: Group, payment_id: int) -> GroupPayment | None:
    return session.scalar(select(GroupPayment).where(GroupPayment.group_id == group.id, GroupPayment.id == payment_id))


def void_payment(session: Session, group: Group, payment: GroupPayment) -> bool:
    """Void ``payment`` (read after ``lock_group``); False (nothing written) when voided already."""
    if payment.voided_at is not None:
        return False
    payment.voided_at = utcnow()
    touch(session, group)
    return True


def set_pay_link(session: Session, group: Group, name: str, link: str | None) -> bool:
    """A player's pay link (None: none). False: no such player."""
    player = session.scalar(select(GroupPlayer).where(GroupPlayer.group_id == group.id, GroupPlayer.name == name))
    if player is None:
        return False
    player.pay_link = link
    touch(session, group)
    return True


def set_settings(session: Session, group: Group, settings: dict[str, Any]) -> None:
    """What the group's next evening starts from."""
    session.execute(update(Group).where(Group.id == group.id).values(settings=settings))
    touch(session, group)


def recorded(session: Session, group: Group, key: str) -> GroupPayment | None:
    """The group's payment recorded with ``key``, or None."""
    return session.scalar(select(GroupPayment).where(GroupPayment.group_id == group.id, GroupPayment.key == key))


def add_payment(session: Session, group: Group, payer: str, payee: str, points: int, key: str | None) -> GroupPayment:
    """Record a payment (the caller checked it), flushed: a ``key`` recorded already raises
    ``IntegrityError`` here (one transfer marked paid on two phones is recorded once, whichever
    writer is first)."""
    payment = GroupPayment(group_id=group.id, payer=payer, payee=payee, points=points, key=key, created_at=utcnow())
    session.add(payment)
    touch(session, group)
    session.flush()  # its id, for the history's entry
    return payment


# -- each evening's facts, kept with its table's version -----------------------------------------


class KeptFacts(NamedTuple):
    """An evening's facts as kept (their JSON), with the table's version they were computed at."""

    version: int
    facts: dict[str, Any]


def kept_facts(session: Session, table_ids: list[int]) -> dict[int, KeptFacts]:
    """The facts kept for these tables, with the version each was kept at.

    Read as text and parsed by orjson (``contract.loads``): the standard library's parser took
    a third of a 200-evening group's page. PostgreSQL's driver hands JSON over parsed already.
    """
    if not table_ids:
        return {}
    rows = session.execute(
        select(EveningFacts.table_id, EveningFacts.version, type_coerce(EveningFacts.facts, Text)).where(
            EveningFacts.table_id.in_(table_ids)
        )
    )
    return {
        tid: KeptFacts(version, loads(facts) if isinstance(facts, str | bytes) else facts)
        for tid, version, facts in rows
    }


def keep_facts(engine: Engine, table_id: int, version: int, facts: dict[str, Any]) -> None:
    """Keep an evening's facts at ``version``, in a transaction of its own (a view computed them).

    It is a cache: a failure (another phone kept them first, the database busy) is let go.
    """
    try:
        with engine.begin() as conn:
            conn.execute(delete(EveningFacts).where(EveningFacts.table_id == table_id))
            conn.execute(insert(EveningFacts).values(table_id=table_id, version=version, facts=facts))
    except (IntegrityError, OperationalError) as err:
        log.info("evening facts of table %s not kept: %s", table_id, err)


def insert_group(
    session: Session,
    name: str,
    settings: dict[str, Any],
    roster: list[tuple[str, str]],
    pay_links: list[str | None] | None = None,
) -> Group:
    """A new group (fresh id and secrets) with its roster (``(name, colour)``), flushed, not committed:
    an import adds its evenings and payments, checks them, then commits or rolls back."""
    edit, view = new_secret(), new_secret()
    while view == edit:  # pragma: no cover - 128 random bits each
        view = new_secret()
    group = Group(
        public_id=new_secret(9),
        edit_secret=edit,
        view_secret=view,
        name=CONTROL.sub("", name)[:120],
        settings=settings,
        version=1,
    )
    session.add(group)
    session.flush()
    links = pay_links or []
    session.add_all(
        [
            GroupPlayer(group_id=group.id, name=n, colour=c, position=i, pay_link=links[i] if i < len(links) else None)
            for i, (n, c) in enumerate(roster)
        ]
    )
    return group


class NewPayment(NamedTuple):
    """A payment of a group being imported: its key and date when known, and its void."""

    payer: str
    payee: str
    points: int
    key: str | None = None
    created_at: datetime | None = None
    voided_at: datetime | None = None


def insert_payments(session: Session, group: Group, pays: list[NewPayment]) -> None:
    """Payments of a group being imported; not committed."""
    session.add_all(
        [
            GroupPayment(
                group_id=group.id,
                payer=p.payer,
                payee=p.payee,
                points=p.points,
                key=p.key,
                created_at=p.created_at or utcnow(),
                voided_at=p.voided_at,
            )
            for p in pays
        ]
    )
