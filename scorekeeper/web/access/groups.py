"""Finding a group and checking the secret the request presents for it.

A group has its own two secrets, presented in ``X-Group-Key`` (or kept in the phone's session
by its share link). A table's secrets are never looked at here: a table's key never opens its
group, and a group's read-only key never writes. Refused ids and keys count against the
guessing budget, as a table's do.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import abort, current_app, g, request, session
from werkzeug.exceptions import Forbidden, Unauthorized

from ...store import groups as store
from ...store.models import Group
from ...store.rows import EDIT, access_level
from ...tables import groups
from ..server.database import db
from ..server.limits import refused_key
from . import keyring

GROUP_KEY_HEADER = "X-Group-Key"


def remember_group_key(public_id: str, key: str) -> None:
    keyring.remember(keyring.GROUP, public_id, key)
    session.permanent = True


def keep_group_access(public_id: str, edit: str) -> None:
    """The phone that made new secrets keeps the group: its session holds the new edit secret
    (an API client with the key in its header has its answer instead)."""
    if presented_group_key(public_id) and not request.headers.get(GROUP_KEY_HEADER):
        remember_group_key(public_id, edit)


def forget_group(public_id: str) -> None:
    keyring.forget(keyring.GROUP, public_id)


def known_group_ids() -> list[str]:
    return list(keyring.kept(keyring.GROUP))


def known_groups() -> list[Group]:
    """The groups this phone holds a key for, newest first (the home page lists them)."""
    keys = keyring.kept(keyring.GROUP)
    found = {grp.public_id: grp for grp in store.recent_groups(db(), list(keys))}
    return [found[p] for p in reversed(list(keys)) if p in found and access_level(found[p], keys[p])]  # type: ignore[arg-type]


def presented_group_key(public_id: str, header_only: bool = False) -> str | None:
    header = request.headers.get(GROUP_KEY_HEADER)
    if header or header_only:
        return header
    return keyring.secret_of(keyring.GROUP, public_id)


def open_group(public_id: str, need: str = "view", key: str | None = None, read: Callable = store.get_group) -> Any:
    """The group, if this request may ``need`` (view or edit) it; else 404, 401 or 403. ``read``
    finds it (anything with its secrets: ``groupversions.group_versions`` reads no more)."""
    group = read(db(), public_id)
    if group is None:
        refused_key()
        abort(404)
    level = access_level(group, key if key is not None else presented_group_key(public_id))
    if level is None:
        refused_key()
        raise Unauthorized()
    if need == EDIT and level != EDIT:
        raise Forbidden()
    g.group_level = level
    return group


def group_state(group: Group) -> groups.GroupState:
    """The group as this request reads it; an evening's facts computed now are kept through the
    app's database engine, in a transaction of their own."""
    return groups.load(db(), group, current_app.extensions["sk_engine"])


def can_edit_group() -> bool:
    return g.get("group_level") == EDIT
