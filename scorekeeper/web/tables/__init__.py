"""A table (a series of hands): create, show, share, import and export, end (``server/push.py`` streams its changes)."""

from flask import Blueprint

bp = Blueprint("tables", __name__)

from . import routes  # noqa: E402,F401  (the views register themselves on bp)
