"""One hand of a table: the live hand tap by tap, quick entry after the fact, edit and delete."""

from flask import Blueprint

bp = Blueprint("hands", __name__, url_prefix="/t/<public_id>")

from . import routes  # noqa: E402,F401  (the views register themselves on bp)
