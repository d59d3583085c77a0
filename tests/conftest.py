"""Shared fixtures: the app on a real SQLite file, and on PostgreSQL when reachable.

PostgreSQL: 127.0.0.1:5432, database ``test``, user ``postgres`` (trust auth), or
``TEST_DATABASE_URL``. Each test gets a fresh schema, dropped afterwards.
"""

from __future__ import annotations

import os
import uuid

import pytest

PG_URL = os.environ.get("TEST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
_pg_state: dict[str, str | None] = {}


def postgres_unreachable() -> str | None:
    """Why PostgreSQL cannot be used, or None when it can (checked once)."""
    if "reason" not in _pg_state:
        try:
            import psycopg

            url = PG_URL.replace("postgresql+psycopg://", "postgresql://")
            with psycopg.connect(url, connect_timeout=3) as conn:
                conn.execute("select 1")
            _pg_state["reason"] = None
        except Exception as err:  # any failure to connect is a reason to skip
            _pg_state["reason"] = f"PostgreSQL not reachable at {PG_URL}: {type(err).__name__}: {err}".strip()
    return _pg_state["reason"]


@pytest.fixture
def pg_schema_url():
    """A SQLAlchemy URL to a fresh PostgreSQL schema, dropped after the test."""
    reason = postgres_unreachable()
    if reason:
        pytest.skip(reason)
    import psycopg

    schema = f"sk_test_{uuid.uuid4().hex[:12]}"
    raw = PG_URL.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(raw, autocommit=True) as conn:
        conn.execute(f'create schema "{schema}"')
    sep = "&" if "?" in PG_URL else "?"
    yield f"{PG_URL}{sep}options=-csearch_path%3D{schema}"
    # First the apps the test made on it, closed or not: a listener left running on a dropped
    # schema logs its failure every second (``close_app``).
    _close_made_apps()
    with psycopg.connect(raw, autocommit=True) as conn:
        conn.execute(f'drop schema "{schema}" cascade')


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'scorekeeper.db'}"
    return request.getfixturevalue("pg_schema_url")


_made_apps: list = []  # the apps ``make_app`` made in the running test


def _close_made_apps() -> None:
    while _made_apps:
        close_app(_made_apps.pop())


@pytest.fixture(autouse=True)
def _made_apps_forgotten():
    """The next test's list starts empty (an app a wider fixture made is its to close)."""
    yield
    _made_apps.clear()


def close_app(app) -> None:
    from scorekeeper.web import close_app as closing  # the engine's tests never import Flask

    closing(app)


def make_app(database_url: str, tmp_path, **overrides):
    from scorekeeper.web import create_app

    config = {
        "TESTING": True,
        "DATABASE_URL": database_url,
        "SECRET_KEY": "test-secret",
        "WTF_CSRF_ENABLED": False,
        "RATELIMIT_ENABLED": False,  # tests of the limits turn them on
        "RATELIMIT_STORAGE_URI": f"sqlite:///{tmp_path / 'ratelimits.db'}",  # each test counts afresh
        # A PostgreSQL app's kept rows listen while asked (``pollrows``): a test's listener stops
        # a second after its last poll, not a minute, or a hundred tests' held the server's connections.
        "POLL_ROWS_IDLE_S": 1.0,
    } | overrides
    app = create_app(config)
    _made_apps.append(app)
    return app


@pytest.fixture
def app(database_url, tmp_path):
    app = make_app(database_url, tmp_path)
    yield app
    close_app(app)


@pytest.fixture
def sqlite_app(tmp_path):
    """The app on a SQLite file only (tests about the embedded default)."""
    app = make_app(f"sqlite:///{tmp_path / 'scorekeeper.db'}", tmp_path)
    yield app
    close_app(app)


@pytest.fixture
def csrf_app(tmp_path):
    """The app with CSRF checks on, as in production."""
    app = make_app(f"sqlite:///{tmp_path / 'scorekeeper.db'}", tmp_path, WTF_CSRF_ENABLED=True)
    yield app
    close_app(app)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()
