"""The application factory, settings, the store's set-up and migrations."""

from __future__ import annotations

import sqlite3

import pytest
from sqlalchemy import inspect, text

from scorekeeper.store import migrate
from scorekeeper.web import close_app, create_app
from scorekeeper.web.server.run import addresses


def test_factory_testing_flag(app):
    assert app.testing
    other = create_app({"DATABASE_URL": app.config["DATABASE_URL"], "SECRET_KEY": "x"})
    assert other.testing is False
    close_app(other)


def test_migrated_on_first_start(app):
    engine = app.extensions["sk_engine"]
    assert {"sk_tables", "sk_hands", "sk_events"} <= set(inspect(engine).get_table_names())
    assert migrate.current_revision(engine) == migrate.head_revision(engine)


def test_db_upgrade_command(runner):
    result = runner.invoke(args=["db-upgrade"])
    assert result.exit_code == 0, result.output
    assert "at revision 0007" in result.output
    result = runner.invoke(args=["db-revision"])
    assert "current 0007 head 0007" in result.output


def test_no_auto_migrate_then_explicit(tmp_path):
    url = f"sqlite:///{tmp_path / 'x.db'}"
    app = create_app({"DATABASE_URL": url, "AUTO_MIGRATE": False, "SECRET_KEY": "k"})
    engine = app.extensions["sk_engine"]
    assert migrate.current_revision(engine) is None
    assert app.test_cli_runner().invoke(args=["db-upgrade"]).exit_code == 0
    assert migrate.current_revision(engine) == "0007"
    engine.dispose()


def test_sqlite_wal_and_foreign_keys(sqlite_app):
    engine = sqlite_app.extensions["sk_engine"]
    with engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert conn.execute(text("PRAGMA foreign_keys")).scalar() == 1


def test_default_database_in_instance_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("SECRET_KEY", raising=False)
    from flask import Flask

    monkeypatch.setattr(Flask, "auto_find_instance_path", lambda self: str(tmp_path / "instance"))
    app = create_app()
    db_file = tmp_path / "instance" / "scorekeeper.db"
    assert app.config["DATABASE_URL"] == f"sqlite:///{db_file}"
    assert db_file.exists()
    key_file = tmp_path / "instance" / "secret_key"
    assert key_file.read_text().strip() == app.config["SECRET_KEY"]
    assert len(app.config["SECRET_KEY"]) == 64
    assert oct(key_file.stat().st_mode & 0o777) == "0o600"
    # A second start reuses the key: sessions survive a restart.
    close_app(app)
    again = create_app()
    assert again.config["SECRET_KEY"] == app.config["SECRET_KEY"]
    close_app(again)
    with sqlite3.connect(db_file) as conn:
        assert conn.execute("select version_num from alembic_version").fetchone() == ("0007",)
    conn.close()


def test_settings_from_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'env.db'}")
    monkeypatch.setenv("SECRET_KEY", "from-env")
    monkeypatch.setenv("SCOREKEEPER_POLL_INTERVAL_MS", "900")
    app = create_app()
    assert app.config["SECRET_KEY"] == "from-env"
    assert app.config["POLL_INTERVAL_MS"] == 900
    assert (tmp_path / "env.db").exists()
    close_app(app)


@pytest.mark.parametrize(
    ("url", "driver"),
    [
        pytest.param("postgres://u@h/db", "postgresql+psycopg", id="heroku-style"),
        pytest.param("postgresql://u@h/db", "postgresql+psycopg", id="plain"),
        pytest.param("sqlite:///x.db", "sqlite", id="sqlite"),
    ],
)
def test_database_url_driver(url, driver):
    from scorekeeper.store.db import normalise_url

    assert normalise_url(url).drivername == driver


def test_addresses():
    assert addresses("127.0.0.1", 5000) == ["http://127.0.0.1:5000/"]
    assert addresses("0.0.0.0", 8000)[0] == "http://127.0.0.1:8000/"


def test_health(client):
    assert client.get("/healthz").get_json() == {"ok": True}


def test_procfile():
    from pathlib import Path

    # The same serving model as `scorekeeper serve` (web/server/serving.py); test_server_slow runs it.
    text = (Path(__file__).parents[2] / "Procfile").read_text()
    assert text.strip() == 'web: gunicorn -c python:scorekeeper.web.server.serving "scorekeeper.web:create_app()"'


def test_a_database_of_0001_is_upgraded_and_keeps_its_events(tmp_path):
    """Events stored before 0002 keep their log; they carry no version (never an append since)."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    app = create_app({"DATABASE_URL": url, "AUTO_MIGRATE": False, "SECRET_KEY": "k"})
    engine = app.extensions["sk_engine"]
    migrate.upgrade(engine, "0001")
    with engine.begin() as conn:
        conn.execute(
            text("insert into sk_tables values (1, 'abc', 'e', 'v', 't', '{}', 3, '2025-01-01', '2025-01-01')")
        )
        conn.execute(text("insert into sk_hands values (1, 1, 0, 'log', null, null, '2025-01-01', '2025-01-01')"))
        conn.execute(text("insert into sk_events values (1, 1, 0, '{\"type\": \"end_turn\"}', '2025-01-01')"))
    assert app.test_cli_runner().invoke(args=["db-upgrade"]).exit_code == 0
    assert migrate.current_revision(engine) == "0007"
    with engine.connect() as conn:
        assert conn.execute(text("select hand_id, seq, event, version from sk_events")).one() == (
            1,
            0,
            '{"type": "end_turn"}',
            None,
        )
    engine.dispose()
