"""The home page: the tables and groups this phone holds a key for, joining by code, importing.

Shown by the home blueprint, and by the tables' one when an import is refused (the page again,
with the refusal's coded errors under its form), so it is shared here rather than in either.
"""

from __future__ import annotations

from flask import render_template

from ...store import rows as store
from ..access import keyring
from ..access.groups import known_groups
from ..server.database import db
from .tableforms import ImportForm, JoinForm


def page(import_form: ImportForm | None = None, import_errors: list[dict] | None = None) -> str:
    """The home page; an import refused shows its coded errors."""
    keys = keyring.kept(keyring.TABLE)
    found = {t.public_id: t for t in store.recent_tables(db(), list(keys))}
    recent = [found[p] for p in reversed(list(keys)) if p in found and store.access_level(found[p], keys[p])]
    return render_template(
        "home.html",
        recent=recent,
        join_form=JoinForm(),
        import_form=import_form or ImportForm(),
        import_errors=import_errors or [],
        groups=known_groups(),
    )
