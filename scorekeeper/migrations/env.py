"""Alembic environment: run with the connection the app hands over, or a URL."""

from __future__ import annotations

from alembic import context
from sqlalchemy import pool

from scorekeeper.store.db import make_engine
from scorekeeper.store.models import Base

config = context.config
target_metadata = Base.metadata


def run_migrations_offline() -> None:
    context.configure(
        url=config.get_main_option("sqlalchemy.url"),
        target_metadata=target_metadata,
        literal_binds=True,
        render_as_batch=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is None:
        url = config.get_main_option("sqlalchemy.url")
        assert url, "alembic.ini or the caller names the database (sqlalchemy.url)"
        engine = make_engine(url)
        engine.pool = pool.NullPool(engine.pool._creator)
        with engine.connect() as connection:
            _run(connection)
        return
    _run(connection)


def _run(connection) -> None:
    # render_as_batch: SQLite alters tables by copying them.
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
