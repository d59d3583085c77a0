"""The JSON API (``/api/v1``): the engine's scoring, tables and their hands, and the OpenAPI document."""

from flask import Blueprint

bp = Blueprint("api", __name__, url_prefix="/api/v1")

from . import groups, routes  # noqa: E402,F401  (the views register themselves on bp)
