"""A group (모임): create it, open it by link, its page, a new evening from it, payments, sharing."""

from flask import Blueprint

bp = Blueprint("groups", __name__)

from . import money, routes  # noqa: E402,F401  (the views register themselves on bp)
