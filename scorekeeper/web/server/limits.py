"""Rate limits per client address: creating tables, guessing ids and secrets.

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

The two budgets are checked with the ``limits`` library directly (keys, storages and strategies
as Flask-Limiter used them, ``RATELIMIT_KEY_PREFIX`` included): Flask-Limiter resolved and sorted
its limits on every request, and parsed their strings again, a sixth of what a version poll cost
the server; here a request costs one read of its address's ``guess`` count (and of ``create``
when it creates), and a count written only when spent.

The budgets fail open: when the counts' store cannot be read or written (Redis down, the counts
file on a full or read-only disk), the request is answered as if no budget were spent, and the
fault is logged (once a minute). The store is a guard, not a dependency: an evening's taps and
polls matter more than counting guesses at 128-bit secrets for the minutes it is down.
"""

from __future__ import annotations

import logging
import time
from functools import lru_cache

from flask import Flask, g, request
from limits import RateLimitItem, parse
from limits.storage import storage_from_string
from limits.strategies import STRATEGIES, RateLimiter
from werkzeug.exceptions import TooManyRequests

from ..catalogue.i18n import gettext as _
from . import limitstore  # noqa: F401 - registers the sqlite:// storage with ``limits``
from .errors import error_response

CREATING = frozenset(
    {
        "tables.new",
        "tables.import_table",
        "api.create_table",
        "api.import_table",
        "api.create_group",
        "api.import_group",
        "groups.new",
        "groups.import_group",
    }
)
# A refused group import was free (35 in a row, then a 201), where a refused 1,000-evening one
# costs seconds of replay: every import counts, a table's or a group's.
IMPORTING = frozenset({"tables.import_table", "api.import_table", "groups.import_group", "api.import_group"})
log = logging.getLogger(__name__)
_FAULT_LOG_EVERY_S = 60.0
_RETRY_STORE_AFTER_S = 5.0


def created() -> None:
    """Count this request's new table against the client's ``create`` budget."""
    g.sk_created = True


def refused_key() -> None:
    """Count this request against the client's ``guess`` budget: an unknown id or a wrong secret."""
    g.sk_refused = True


def _creating() -> bool:
    return request.method == "POST" and request.endpoint in CREATING


def _spent_creating() -> bool:
    """A table created, or any import (a refused one was replayed as far as its refusal)."""
    return g.get("sk_created", False) or request.endpoint in IMPORTING


class Limited(TooManyRequests):
    """A budget ran out: retry after ``reset_at`` (epoch seconds)."""

    def __init__(self, reset_at: float):
        super().__init__()
        self.reset_at = reset_at


@lru_cache(maxsize=32)
def _item(spec: str) -> RateLimitItem:
    return parse(spec)


class Budgets:
    """The ``guess`` budget, checked on every request, and ``create``, on the creating ones;
    each spent after the answer when the request spent it."""

    def __init__(self, app: Flask):
        self.limiter: RateLimiter = STRATEGIES[app.config["RATELIMIT_STRATEGY"]](
            storage_from_string(app.config["RATELIMIT_STORAGE_URI"])
        )
        self.config = app.config  # read at each request: a budget may be changed while serving
        prefix = app.config.get("RATELIMIT_KEY_PREFIX") or ""
        self.prefix: tuple[str, ...] = (prefix,) if prefix else ()

    def _args(self, scope: str, address: str | None) -> tuple[str, ...]:
        return (*self.prefix, address or "127.0.0.1", scope)

    _fault_logged_at = 0.0
    _down_until = 0.0  # the store failed: not asked again before then (a Redis that times out
    # would otherwise hold every request for its timeout)

    def _up(self) -> bool:
        return time.monotonic() >= self._down_until

    def _store_down(self, err: Exception) -> None:
        """The counts' store failed: let the request through (fail open), and say so now and then."""
        now = time.monotonic()
        self._down_until = now + _RETRY_STORE_AFTER_S
        if now - self._fault_logged_at >= _FAULT_LOG_EVERY_S:
            self._fault_logged_at = now
            log.warning("rate-limit store unavailable, limits not applied: %s: %s", type(err).__name__, err)

    def guess_left(self, address: str | None) -> bool:
        """Whether the ``guess`` budget of ``address`` is not spent (what ``check`` asks first)."""
        if not self._up():
            return True
        try:
            return self.limiter.test(_item(self.config["RATELIMIT_GUESS"]), *self._args("guess", address))
        except Exception as err:
            self._store_down(err)
            return True

    def check(self) -> None:
        """Before the request: 429 when a budget it would spend is spent (``guess`` first)."""
        endpoint = request.endpoint
        if not endpoint or endpoint.rsplit(".", 1)[-1] == "static" or not self._up():
            return
        budgets = [("guess", self.config["RATELIMIT_GUESS"], lambda: g.get("sk_refused", False))]
        if _creating():
            budgets.append(("create", self.config["RATELIMIT_CREATE"], _spent_creating))
        # The shorter window first (as Flask-Limiter ordered them); a refusal names the first spent.
        budgets.sort(key=lambda b: _item(b[1]).GRANULARITY.seconds)
        g.sk_budgets = checked = []
        for scope, spec, spent in budgets:
            item, args = _item(spec), self._args(scope, request.remote_addr)
            checked.append((item, args, spent))
            try:
                left = self.limiter.test(item, *args)
                reset_at = None if left else self.limiter.get_window_stats(item, *args).reset_time
            except Exception as err:
                self._store_down(err)
                continue
            if reset_at is not None:
                raise Limited(reset_at)

    def spend(self, response):
        """After the answer: count what this request spent (not at all while the store is down)."""
        for item, args, spent in g.pop("sk_budgets", ()):
            if spent() and self._up():
                try:
                    self.limiter.hit(item, *args)
                except Exception as err:
                    self._store_down(err)
        return response


def init_app(app: Flask) -> None:
    app.config.setdefault("RATELIMIT_ENABLED", True)

    @app.errorhandler(Limited)
    def _limited(err: Limited):
        response = app.make_response(error_response(429, "rate_limited", _("err_rate")))
        response.headers["Retry-After"] = str(max(1, int(err.reset_at - time.time())))
        return response

    if not app.config["RATELIMIT_ENABLED"]:
        return
    budgets = Budgets(app)
    app.extensions["sk_limiter"] = budgets
    app.before_request(budgets.check)
    app.after_request(budgets.spend)
