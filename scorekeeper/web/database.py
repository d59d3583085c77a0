"""The store, wired into the app: one engine per app, one session per request."""
from __future__ import annotations

import click
from flask import Flask, current_app, g
from flask.cli import with_appcontext
from sqlalchemy.orm import Session

from ..store import migrate
from ..store.db import make_engine, make_sessionmaker


def init_app(app: Flask) -> None:
    engine = make_engine(app.config["DATABASE_URL"])
    app.extensions["sk_engine"] = engine
    app.extensions["sk_sessionmaker"] = make_sessionmaker(engine)
    if app.config["AUTO_MIGRATE"]:
        migrate.upgrade(engine)
    app.teardown_appcontext(_close_session)
    app.cli.add_command(db_upgrade)
    app.cli.add_command(db_revision)


def db() -> Session:
    """This request's database session."""
    if "sk_db" not in g:
        g.sk_db = current_app.extensions["sk_sessionmaker"]()
    return g.sk_db


def _close_session(_exc) -> None:
    session = g.pop("sk_db", None)
    if session is not None:
        session.close()


@click.command("db-upgrade")
@click.option("--revision", default="head", show_default=True)
@with_appcontext
def db_upgrade(revision: str) -> None:
    """Apply the database migrations."""
    engine = current_app.extensions["sk_engine"]
    at = migrate.upgrade(engine, revision)
    click.echo(f"database {engine.url.render_as_string(hide_password=True)} at revision {at}")


@click.command("db-revision")
@with_appcontext
def db_revision() -> None:
    """Print the database's revision and the newest one shipped."""
    engine = current_app.extensions["sk_engine"]
    click.echo(f"current {migrate.current_revision(engine)} head {migrate.head_revision(engine)}")
