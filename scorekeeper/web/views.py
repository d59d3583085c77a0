"""The blueprints of the app."""
from __future__ import annotations

from flask import Flask


def init_app(app: Flask) -> None:
    from . import home

    app.register_blueprint(home.bp)
