"""The store, wired into the app: one engine per app, one session per request."""

from __future__ import annotations

import contextlib
import logging

import click
from flask import Flask, current_app, g, has_request_context, request
from flask.cli import with_appcontext
from sqlalchemy.orm import Session

from ...store import migrate
from ...store.db import make_engine, make_sessionmaker, reader, single_reader

log = logging.getLogger(__name__)


def init_app(app: Flask) -> None:
    engine = make_engine(app.config["DATABASE_URL"])
    app.extensions["sk_engine"] = engine
    app.extensions["sk_sessionmaker"] = make_sessionmaker(engine)
    app.extensions["sk_reader"] = reader(engine)
    app.extensions["sk_single_reader"] = single_reader(engine)
    if app.config["AUTO_MIGRATE"]:
        migrate.upgrade(engine)
    app.teardown_appcontext(_close_session)
    app.cli.add_command(db_upgrade)
    app.cli.add_command(db_revision)


def db() -> Session:
    """This request's database session; a GET's only reads (``store.db.reader``)."""
    if "sk_db" not in g:
        make = current_app.extensions["sk_sessionmaker"]
        reads_only = has_request_context() and request.method in SAFE
        g.sk_db = make(bind=current_app.extensions["sk_reader"]) if reads_only else make()
    return g.sk_db


SAFE = {"GET", "HEAD"}


def reader_engine():
    """The engine for a lone SELECT outside the request's session: a poll needs no ORM session
    (nor, on SQLite, a transaction around its one statement)."""
    return current_app.extensions["sk_single_reader"]


def _close_session(_exc) -> None:
    """End the request's session. Its rollback on a connection the server has closed raises:
    raised here, after the answer was made, it replaced it with the server's bare HTML 500.
    The connection is dropped from the pool instead (a new one is opened for the next request)."""
    session = g.pop("sk_db", None)
    if session is None:
        return
    try:
        session.close()
    except Exception as err:
        log.warning("session close failed, connection discarded: %s: %s", type(err).__name__, err)
        with contextlib.suppress(Exception):
            session.invalidate()


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
