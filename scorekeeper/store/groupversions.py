"""A group's versions, read in one query without loading the group: what its share picture is keyed on.

The group's own version moves with every change of the group (players, payments, settings,
evenings joining or leaving), each evening's table version with every change of that table:
together they name everything the group shows.
"""

from __future__ import annotations

from typing import NamedTuple

from sqlalchemy import bindparam, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from .models import Group, Table
from .rows import PUBLIC_ID, bare_rows


class GroupVersions(NamedTuple):
    id: int
    public_id: str
    edit_secret: str  # with view_secret: what ``rows.access_level`` checks a key against
    view_secret: str
    version: int
    evenings: tuple[tuple[str, int], ...]  # each evening's (table public id, version), oldest first


_READ = (
    select(
        Group.id,
        Group.public_id,
        Group.edit_secret,
        Group.view_secret,
        Group.version,
        Table.public_id.label("evening"),
        Table.version.label("evening_version"),
    )
    .select_from(Group)
    .outerjoin(Table, Table.group_id == Group.id)
    .where(Group.public_id == bindparam("public_id"))
    .order_by(Table.id)
)


def group_versions(session: Session, public_id: str) -> GroupVersions | None:
    """The group's secrets and versions, or None when there is no such group."""
    if not isinstance(public_id, str) or not PUBLIC_ID.fullmatch(public_id):
        return None
    rows = session.connection().execute(_READ, {"public_id": public_id}).all()
    if not rows:
        return None
    return _versions([tuple(r) for r in rows])


def group_versions_bare(engine: Engine, public_id: str) -> GroupVersions | None:
    """``group_versions`` on a pooled DB-API connection, past SQLAlchemy's execution machinery
    (``rows.bare_rows``): what the fast path reads to answer a kept picture (``web/groups/fastpicture.py``)."""
    if not isinstance(public_id, str) or not PUBLIC_ID.fullmatch(public_id):
        return None
    rows = bare_rows(engine, _READ, {"public_id": public_id})
    return _versions(rows) if rows else None


def _versions(rows: list[tuple]) -> GroupVersions:
    """The group's versions from its rows (one an evening, or one with no evening)."""
    id_, public_id, edit_secret, view_secret, version = rows[0][:5]
    evenings = tuple((r[5], r[6]) for r in rows if r[5] is not None)
    return GroupVersions(id_, public_id, edit_secret, view_secret, version, evenings)
