"""Finding a table and checking the secret the request presents."""
from __future__ import annotations

from flask import abort, g
from werkzeug.exceptions import Forbidden, Unauthorized

from ..store import tables as store
from ..store.models import Table
from .database import db
from .security import EDIT, level_for


def table_or_404(public_id: str) -> Table:
    table = store.get_table(db(), public_id)
    if table is None:
        abort(404)
    return table


def open_table(public_id: str, need: str = "view") -> Table:
    """The table, if this request may ``need`` (view or edit) it; else 404, 401 or 403."""
    table = table_or_404(public_id)
    level = level_for(table)
    if level is None:
        raise Unauthorized()
    if need == EDIT and level != EDIT:
        raise Forbidden()
    g.table_level = level
    return table


def can_edit() -> bool:
    return g.get("table_level") == EDIT
