"""The table app: a Flask application over the engine and the store.

``create_app()`` reads its settings from the environment (see ``config``), opens
the database and applies the migrations on first start. It refuses Flask's debug
mode unless ``DEVELOPMENT`` is set: the debugger runs any code a visitor sends.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from flask import Flask

from .server import config as settings


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app; ``test_config`` overrides the environment's settings."""
    app = Flask(
        __name__, instance_relative_config=True, template_folder=_shipped("templates"), static_folder=_shipped("static")
    )
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_mapping(settings.defaults(app.instance_path))
    app.config.from_prefixed_env("SCOREKEEPER")
    if test_config:
        app.config.from_mapping(test_config)
    if app.debug and not app.config.get("DEVELOPMENT"):
        raise RuntimeError(
            "Flask debug mode is on outside development: unset FLASK_DEBUG/SCOREKEEPER_DEBUG, "
            "or set SCOREKEEPER_DEVELOPMENT=1 on your own machine (never on a server)."
        )
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = settings.instance_secret_key(app.instance_path)

    from . import api, groups, hands, home, tables
    from .access import keyring
    from .catalogue import i18n
    from .groups.gate import PictureGate
    from .home import pwa, rules_page
    from .server import assets, database, errors, fastpath, faststream, limits, pollrows, push, redact, security
    from .server.rowids import RowId

    redact.install()
    app.url_map.converters["int"] = RowId  # before any route: every <int:…> names a row
    database.init_app(app)
    pollrows.init_app(app)  # before push: its hook on each commit runs first
    app.wsgi_app = fastpath.FastPath(app, app.wsgi_app)  # type: ignore[method-assign]  # inside ProxyFix
    app.wsgi_app = faststream.FastStream(app, app.wsgi_app)  # type: ignore[method-assign]  # API streams' opens
    # Outside the fast path: a kept picture answered there still takes its turn (issue 29: fifty
    # answered at once, each yielding at its database read, put another table's poll behind them).
    app.wsgi_app = PictureGate(app, app.wsgi_app)  # type: ignore[method-assign]
    security.init_app(app)
    keyring.init_app(app)  # after security: its cookies are set before the default headers
    app.before_request(_history_by_seat)
    limits.init_app(app)
    i18n.init_app(app)
    errors.init_app(app)
    assets.init_app(app)
    for blueprint in (home.bp, pwa.bp, rules_page.bp, tables.bp, hands.bp, groups.bp, api.bp):
        app.register_blueprint(blueprint)
    push.init_app(app)  # its blueprint, and the watcher that wakes the streams
    _sync_once(app)
    return app


def _history_by_seat() -> None:
    """The history names who made each change: the phone's seat, "phone" or "api" (``seats.actor``)."""
    from ..tables import history
    from .access import seats

    history.acting(seats.actor)


def _sync_once(app: Flask) -> None:
    """Flask asks ``inspect`` whether each hook and view is a coroutine function on every
    request (ten times a version poll); the answer never changes for a function."""
    checked: dict = {}
    ensure_sync = app.ensure_sync

    def cached(func):
        try:
            return checked[func]
        except (KeyError, TypeError):  # TypeError: not hashable, asked each time
            pass
        sync = ensure_sync(func)
        with contextlib.suppress(TypeError):
            checked[func] = sync
        return sync

    app.ensure_sync = cached  # type: ignore[method-assign]


def _shipped(folder: str) -> str:
    """Where ``templates/`` or ``static/`` is: inside the package when installed from a wheel
    (pyproject maps the top-level folders into it), else at the top of the source tree."""
    package = Path(__file__).resolve().parent.parent
    installed = package / folder
    return str(installed if installed.is_dir() else package.parent / folder)


def close_app(app: Flask) -> None:
    """Close ``app``: its listeners stop at their next wake, its connections close. Before its
    database goes (a test's schema dropped at its end), or a listener left running on it logs
    its failure every second from a thread of its own."""
    app.extensions["sk_poll_rows"].stop()
    app.extensions["sk_push"].stop()
    app.extensions["sk_engine"].dispose()
