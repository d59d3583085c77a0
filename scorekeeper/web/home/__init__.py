"""The home page: start or join a table, the language, and the app's install files (``pwa``)."""

from flask import Blueprint

bp = Blueprint("home", __name__)

from . import routes  # noqa: E402,F401  (the views register themselves on bp)
