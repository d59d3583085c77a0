"""Apply the Alembic migrations shipped in ``scorekeeper/migrations``.

Several gunicorn workers may start at once: SQLite migrates under a file lock
beside the database, PostgreSQL under an advisory lock.
"""

from __future__ import annotations

import contextlib
import fcntl
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.engine import Engine

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"
_PG_LOCK_KEY = 0x5C0E_4EE9  # any constant shared by every app server


def alembic_config(engine: Engine) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False).replace("%", "%%"))
    return cfg


def head_revision(engine: Engine) -> str | None:
    return ScriptDirectory.from_config(alembic_config(engine)).get_current_head()


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


@contextlib.contextmanager
def _sqlite_lock(engine: Engine):
    database = engine.url.database
    if not database or database == ":memory:":
        yield
        return
    with open(f"{database}.migrate-lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def upgrade(engine: Engine, revision: str = "head") -> str | None:
    """Bring the schema to ``revision``; return the revision it is at."""
    cfg = alembic_config(engine)
    if engine.dialect.name == "sqlite":
        with _sqlite_lock(engine), engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, revision)
    else:
        with engine.begin() as conn:
            conn.execute(text("select pg_advisory_xact_lock(:k)"), {"k": _PG_LOCK_KEY})
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, revision)
    return current_revision(engine)
