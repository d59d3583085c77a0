"""The group's store (migration 0003): groups, players, payments recorded once, facts kept by version."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError

from scorekeeper.store import groups as store
from scorekeeper.store import migrate
from scorekeeper.store.models import Table
from scorekeeper.tables import groups


def session_of(app):
    return app.extensions["sk_sessionmaker"]()


def new_group(session, name, players):
    return groups.create(session, {"name": name, "players": players})


def test_migration_adds_the_group_tables_and_leaves_tables_rows(app):
    engine = app.extensions["sk_engine"]
    names = set(inspect(engine).get_table_names())
    assert {"sk_groups", "sk_group_players", "sk_group_payments", "sk_evening_facts"} <= names
    assert "group_id" in {c["name"] for c in inspect(engine).get_columns("sk_tables")}
    assert migrate.current_revision(engine) == migrate.head_revision(engine) == "0007"


def test_a_0002_database_keeps_its_tables(database_url):
    """On SQLite and PostgreSQL: a table stored before 0003 is as it was, in no group."""
    from scorekeeper.web import create_app

    app = create_app({"DATABASE_URL": database_url, "AUTO_MIGRATE": False, "SECRET_KEY": "k"})
    engine = app.extensions["sk_engine"]
    migrate.upgrade(engine, "0002")
    with engine.begin() as conn:
        conn.execute(
            text(
                "insert into sk_tables values (1, 'abc', 'e', 'v', 't', '{}', 3, '2025-01-01T00:00:00+00:00', "
                "'2025-01-01T00:00:00+00:00')"
            )
        )
    migrate.upgrade(engine)
    with engine.connect() as conn:
        assert conn.execute(text("select public_id, version, group_id from sk_tables")).one() == ("abc", 3, None)
    from alembic import command  # and back down: the column goes, the row stays

    with engine.begin() as conn:
        cfg = migrate.alembic_config(engine)
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0002")
    assert migrate.current_revision(engine) == "0002"
    with engine.connect() as conn:
        assert conn.execute(text("select public_id, version from sk_tables")).one() == ("abc", 3)
    engine.dispose()


def test_players_get_colours_and_newcomers_join(app):
    s = session_of(app)
    g = new_group(s, "토요일", ["민수", "지영"])
    assert [(p.name, p.position) for p in store.players(s, g)] == [("민수", 0), ("지영", 1)]
    assert len({p.colour for p in store.players(s, g)}) == 2
    store.lock_group(s, g)
    assert store.add_players(s, g, ["지영", "철수"]) == ["철수"]
    s.commit()
    assert [p.name for p in store.players(s, g)] == ["민수", "지영", "철수"]
    s.close()


def test_a_payment_key_is_recorded_once(app):
    s = session_of(app)
    g = new_group(s, "g", ["A", "B"])
    first = store.add_payment(s, g, "A", "B", 5, "k1")
    s.commit()
    with pytest.raises(IntegrityError):
        store.add_payment(s, g, "A", "B", 5, "k1")
    s.rollback()
    assert store.recorded(s, g, "k1").id == first.id
    assert len(store.payments(s, g)) == 1
    s.close()


def test_two_phones_marking_the_same_transfer_at_once_record_it_once(app):
    with session_of(app) as s:
        g = new_group(s, "g", ["A", "B"])
    barrier, results = threading.Barrier(4), []

    def phone():
        with session_of(app) as s:
            state = groups.load(s, store.get_group(s, g.public_id), app.extensions["sk_engine"])
            barrier.wait()
            _payment, new = groups.record_payment(s, state, "A", "B", 5, "same-transfer", beyond=True)
            results.append("new" if new else "dup")

    threads = [threading.Thread(target=phone) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["dup", "dup", "dup", "new"]
    with session_of(app) as s:
        assert len(store.payments(s, g)) == 1


def _stored(app, public_id):
    """What is stored of a group: its version and edit secret, payments, pay links."""
    with session_of(app) as s:
        g = store.get_group(s, public_id)
        pays = [(p.id, p.voided_at) for p in store.payments(s, g)]
        return g.version, g.edit_secret, pays, [p.pay_link for p in store.players(s, g)]


@pytest.mark.parametrize("write", ["payment", "void", "pay_link", "rules", "keys"])
def test_a_group_write_is_stored_with_its_history_entry_or_not_at_all(app, monkeypatch, write):
    """A write of the group and its history's entry are one transaction: when the entry fails,
    the write is not stored either."""
    from scorekeeper.tables import history

    with session_of(app) as s:
        g = new_group(s, "g", ["A", "B"])
        state = groups.load(s, g, app.extensions["sk_engine"])
        paid, _new = groups.record_payment(s, state, "A", "B", 5, beyond=True)
        before = _stored(app, g.public_id)

        def failing(*args, **kwargs):
            raise RuntimeError("the history's entry failed")

        monkeypatch.setattr(history, "note", failing)
        writes = {
            "payment": lambda: groups.record_payment(s, state, "B", "A", 1, beyond=True),
            "void": lambda: groups.void_payment(s, state, paid.id),
            "pay_link": lambda: groups.set_pay_link(s, state, "A", "https://toss.me/a"),
            "rules": lambda: groups.set_rules(s, state, {"preset": "pagat", "options": {}}),
            "keys": lambda: groups.rotate_keys(s, g, "both"),
        }
        with pytest.raises(RuntimeError):
            writes[write]()
        assert _stored(app, state.group.public_id) == before


def test_facts_kept_by_version(app):
    s = session_of(app)
    t = Table(public_id="tbl", edit_secret="e", view_secret="v", title="", config={}, version=4)
    s.add(t)
    s.commit()
    store.keep_facts(app.extensions["sk_engine"], t.id, 4, {"x": 1})
    store.keep_facts(app.extensions["sk_engine"], t.id, 5, {"x": 2})  # replaces the older
    assert store.kept_facts(s, [t.id]) == {t.id: (5, {"x": 2})}
    s.close()


def test_migration_0004_makes_a_payment_64_bit(app):
    """PostgreSQL's payment column was 32-bit (issue 29); SQLite's INTEGER is 64-bit already."""
    engine = app.extensions["sk_engine"]
    points = next(c for c in inspect(engine).get_columns("sk_group_payments") if c["name"] == "points")
    assert "BIG" in str(points["type"]).upper() or engine.dialect.name == "sqlite"
