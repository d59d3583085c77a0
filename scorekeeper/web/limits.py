"""Rate limits per client address (Flask-Limiter): creating tables, guessing ids and secrets.

Two app-wide budgets, both counted only when they are spent:

- ``create`` (``RATELIMIT_CREATE``, default 30/hour): each table created by the form, the API
  or an import. Only the creating endpoints are held back when it runs out.
- ``guess`` (``RATELIMIT_GUESS``, default 20/minute): each refused table id, share link, join
  code or API key (a 401 or 404 for a table). When it runs out every page is held back for
  that address: someone trying secrets learns nothing more until the window passes.

An import counts against ``create`` whether it is taken or refused: replaying a refused export
costs the server as much as a taken one. A refusal is a coded 429 (``rate_limited``, HTML or
JSON) with ``Retry-After``. Counts live in ``RATELIMIT_STORAGE_URI``: by default a SQLite file
in the instance folder that every worker process shares (``limitstore``); ``redis://…`` for
several servers. Behind a proxy, set ``TRUSTED_PROXIES`` or every phone shares the proxy's address.
"""
from __future__ import annotations

import time

from flask import Flask, current_app, g, request
from flask_limiter import ApplicationLimit, Limiter
from flask_limiter.errors import RateLimitExceeded
from flask_limiter.util import get_remote_address

from . import limitstore  # noqa: F401 - registers the sqlite:// storage with ``limits``
from .errors import error_response
from .i18n import gettext as _

CREATING = frozenset({"tables.new", "tables.import_table", "api.create_table", "api.import_table"})
IMPORTING = frozenset({"tables.import_table", "api.import_table"})


def created() -> None:
    """Count this request's new table against the client's ``create`` budget."""
    g.sk_created = True


def refused_key() -> None:
    """Count this request against the client's ``guess`` budget: an unknown id or a wrong secret."""
    g.sk_refused = True


def _not_creating() -> bool:
    return request.method != "POST" or request.endpoint not in CREATING


def _spent_creating(_response) -> bool:
    """A table created, or any import (a refused one was replayed as far as its refusal)."""
    return g.get("sk_created", False) or request.endpoint in IMPORTING


def init_app(app: Flask) -> None:
    limiter = Limiter(
        get_remote_address,
        application_limits=[
            ApplicationLimit(limit_provider=lambda: current_app.config["RATELIMIT_CREATE"], scope="create",
                             exempt_when=_not_creating, deduct_when=_spent_creating),
            ApplicationLimit(limit_provider=lambda: current_app.config["RATELIMIT_GUESS"], scope="guess",
                             deduct_when=lambda _r: g.get("sk_refused", False)),
        ],
        storage_uri=app.config["RATELIMIT_STORAGE_URI"],
        strategy=app.config["RATELIMIT_STRATEGY"],
    )
    limiter.init_app(app)
    app.extensions["sk_limiter"] = limiter

    @app.errorhandler(RateLimitExceeded)
    def _limited(_err):
        response = app.make_response(error_response(429, "rate_limited", _("err_rate")))
        spent = limiter.current_limit
        if spent is not None:
            response.headers["Retry-After"] = str(max(1, int(spent.reset_at - time.time())))
        return response
