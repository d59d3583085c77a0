"""The blueprints of the app."""
from __future__ import annotations

from flask import Flask


def init_app(app: Flask) -> None:
    from . import api, hands, home, push, pwa, rulesdoc, tables

    app.register_blueprint(home.bp)
    app.register_blueprint(tables.bp)
    app.register_blueprint(hands.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(pwa.bp)
    app.register_blueprint(rulesdoc.bp)
    push.init_app(app)
