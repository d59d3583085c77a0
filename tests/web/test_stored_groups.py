"""Groups stored before issue 29's checks, read on SQLite and PostgreSQL: an evening, a payment and
a history entry dated outside the years 1900–2999 UTC (an import took 0001-01-01T00:00:00+14:00,
year 0 in UTC: every read of the group answered 500 on PostgreSQL, with no way to delete it), and
a newcomer "mina" who joined beside "Mina". Each is stored straight into the database; then every
surface of the group answers: API, page, share link, picture, text, export, CSV."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import select, text
from sqlalchemy.orm import Session

from scorekeeper.store import migrate
from scorekeeper.store.models import Table
from scorekeeper.web import close_app
from tests.conftest import make_app
from tests.web.conftest import BRIGHTS


def _make_group(client, players: list[str]) -> tuple[dict, dict]:
    g = client.post("/api/v1/groups", json={"name": "토요일", "players": players}).get_json()
    t = client.post(
        "/api/v1/tables", json={"group": g["id"], "players": players[:3]}, headers={"X-Group-Key": g["edit_key"]}
    ).get_json()
    r = client.post(
        f"/api/v1/tables/{t['id']}/hands", json={"summary": BRIGHTS}, headers={"X-Table-Key": t["edit_key"]}
    )
    assert r.status_code == 201, r.get_json()
    r = client.post(
        f"/api/v1/groups/{g['id']}/payments",
        json={"from": players[0], "to": "지영", "points": 1},
        headers={"X-Group-Key": g["edit_key"]},
    )
    assert r.status_code == 201, r.get_json()
    return g, t


def every_read(app, g: dict, evening: str) -> dict[str, int]:
    """Each surface of the group, its status."""
    bot = app.test_client(use_cookies=False)
    phone = app.test_client()
    view = {"X-Group-Key": g["view_key"]}
    share = f"/g/{g['id']}/share.png?key={g['view_key']}"
    answers = {
        "share link": phone.get(f"/gj/{g['id']}/{g['edit_key']}"),
        "api": bot.get(f"/api/v1/groups/{g['id']}", headers=view),
        "api history": bot.get(f"/api/v1/groups/{g['id']}/history", headers=view),
        "page": phone.get(f"/g/{g['id']}"),
        "page, every evening": phone.get(f"/g/{g['id']}?all=1"),
        "rules": phone.get(f"/g/{g['id']}/rules"),
        "picture": bot.get(share),
        "evening's picture": bot.get(f"{share}&evening={evening}"),
        "text": phone.get(f"/g/{g['id']}/share.txt"),
        "evening's text": phone.get(f"/g/{g['id']}/share.txt?evening={evening}"),
        "export": phone.get(f"/g/{g['id']}/group.json"),
        "csv": phone.get(f"/g/{g['id']}/ledger.csv"),
    }
    return {name: r.status_code for name, r in answers.items()}


ALL_READ = {
    name: 200
    for name in (
        "share link",
        "api",
        "api history",
        "page",
        "page, every evening",
        "rules",
        "picture",
        "evening's picture",
        "text",
        "evening's text",
        "export",
        "csv",
    )
}


def _dates_out_of_range(conn, g: dict, t: dict, early: str, late: str) -> None:
    gid = conn.execute(text("select id from sk_groups where public_id = :p"), {"p": g["id"]}).scalar_one()
    conn.execute(text(f"update sk_tables set created_at = {early} where public_id = :p"), {"p": t["id"]})
    conn.execute(
        text(f"update sk_group_payments set created_at = {late}, voided_at = {early} where group_id = :g"), {"g": gid}
    )
    conn.execute(text(f"update sk_history set at = {late} where group_id = :g"), {"g": gid})


# What an import before the check stored: on PostgreSQL years 0 and 10000 in UTC (kept, and
# unreadable by Python); on SQLite, whose dates are text, the years Python reads but the import
# now refuses.
OUT_OF_RANGE = {
    "postgresql": ("'0001-01-01T00:00:00+14:00'::timestamptz", "'9999-12-31T23:59:59-14:00'::timestamptz"),
    "sqlite": ("'0001-01-01 00:00:00.000000'", "'9999-12-31 23:59:59.000000'"),
}


@pytest.fixture
def app_at_0006(database_url, tmp_path):
    """The app on a database at revision 0006, before the dates were brought in range."""
    app = make_app(database_url, tmp_path, AUTO_MIGRATE=False)
    migrate.upgrade(app.extensions["sk_engine"], "0006")
    yield app
    close_app(app)


def test_dates_stored_outside_the_years_an_import_takes_are_brought_inside_them(app_at_0006):
    app = app_at_0006
    engine = app.extensions["sk_engine"]
    g, t = _make_group(app.test_client(), ["민수", "지영", "철수"])
    with engine.begin() as conn:
        _dates_out_of_range(conn, g, t, *OUT_OF_RANGE[engine.dialect.name])
    migrate.upgrade(engine)
    assert every_read(app, g, t["id"]) == ALL_READ
    assert migrate.current_revision(engine) == "0007"
    with engine.connect() as conn:
        dates = conn.execute(text("select created_at from sk_tables where public_id = :p"), {"p": t["id"]}).scalar()
        paid, voided = conn.execute(text("select created_at, voided_at from sk_group_payments")).one()
    assert str(dates).startswith("1900-01-01") and str(paid).startswith("2999-12-31") and str(voided).startswith("1900")
    phone = app.test_client()
    phone.get(f"/gj/{g['id']}/{g['edit_key']}")
    exported = phone.get(f"/g/{g['id']}/group.json").get_data()
    again = app.test_client().post("/api/v1/groups/import", data=exported, content_type="application/json")
    assert again.status_code == 201, again.get_json()  # its export imports back


def test_dates_in_range_are_left_as_they_were(app_at_0006):
    app = app_at_0006
    engine = app.extensions["sk_engine"]
    _make_group(app.test_client(), ["민수", "지영", "철수"])
    query = text("select created_at, updated_at from sk_tables order by id")
    with engine.connect() as conn:
        before = conn.execute(query).all()
    migrate.upgrade(engine)
    with engine.connect() as conn:
        assert conn.execute(query).all() == before


def _lookalike_newcomer(app, client) -> tuple[dict, dict]:
    """A group with "Mina" where "mina" joined an evening, stored as before newcomers were checked."""
    g, _evening = _make_group(client, ["Mina", "지영", "철수"])
    other = client.post("/api/v1/tables", json={"players": ["mina", "지영", "철수"]}).get_json()
    r = client.post(
        f"/api/v1/tables/{other['id']}/hands", json={"summary": BRIGHTS}, headers={"X-Table-Key": other["edit_key"]}
    )
    assert r.status_code == 201, r.get_json()
    engine = app.extensions["sk_engine"]
    with engine.begin() as conn:
        gid = conn.execute(text("select id from sk_groups where public_id = :p"), {"p": g["id"]}).scalar_one()
        conn.execute(
            text("insert into sk_group_players (group_id, name, colour, position) values (:g, 'mina', '#c2255c', 3)"),
            {"g": gid},
        )
        conn.execute(text("update sk_tables set group_id = :g where public_id = :p"), {"g": gid, "p": other["id"]})
        conn.execute(text("update sk_groups set version = version + 1 where id = :g"), {"g": gid})
    return g, other


def test_a_newcomer_stored_beside_one_who_reads_the_same_is_read_everywhere(app):
    """ "mina" joined an evening beside the group's "Mina" before newcomers were checked."""
    client = app.test_client()
    g, other = _lookalike_newcomer(app, client)
    assert every_read(app, g, other["id"]) == ALL_READ
    state = client.get(f"/api/v1/groups/{g['id']}", headers={"X-Group-Key": g["view_key"]}).get_json()
    assert {"Mina", "mina"} <= set(state["players"])  # both kept: each evening's results stay theirs


def _ledger(state: dict) -> dict:
    """What a group's answer says about its people and their money, each evening named by its
    place (an import makes new tables)."""
    ledger = {
        "players": state["players"],
        "colours": state["colours"],
        "balances": state["balances"],
        "owed": state["owed"],
        "stats": state["stats"],
        "evenings": [{k: v for k, v in ev.items() if k != "id"} for ev in state["tables"]],
        "payments": [{k: v for k, v in p.items() if k != "id"} for p in state["payments"]],
    }
    text = json.dumps(ledger, ensure_ascii=False, sort_keys=True)
    for i, ev in enumerate(state["tables"]):
        text = text.replace(json.dumps(ev["id"]), f'"evening {i}"')
    return json.loads(text)


def test_the_export_of_a_group_with_a_stored_look_alike_newcomer_imports_back(app):
    """Issue 29: the export of a group where "mina" joined beside "Mina" (before newcomers were
    checked) was refused on import (422 duplicate_player): a group's export always imports back,
    each of the two with their own evenings and payments."""
    client = app.test_client()
    g, _other = _lookalike_newcomer(app, client)
    r = client.post(
        f"/api/v1/groups/{g['id']}/payments",
        json={"from": "mina", "to": "지영", "points": 2},
        headers={"X-Group-Key": g["edit_key"]},
    )
    assert r.status_code == 201, r.get_json()
    phone = app.test_client()
    phone.get(f"/gj/{g['id']}/{g['edit_key']}")
    exported = phone.get(f"/g/{g['id']}/group.json")
    assert exported.status_code == 200
    again = app.test_client().post("/api/v1/groups/import", data=exported.get_data(), content_type="application/json")
    assert again.status_code == 201, again.get_json()
    copy = again.get_json()
    before = client.get(f"/api/v1/groups/{g['id']}", headers={"X-Group-Key": g["view_key"]}).get_json()
    after = client.get(f"/api/v1/groups/{copy['id']}", headers={"X-Group-Key": copy["view_key"]}).get_json()
    assert {"Mina", "mina"} <= set(after["players"])
    assert [(p["from"], p["points"]) for p in after["payments"]] == [("Mina", 1), ("mina", 2)]
    assert _ledger(after) == _ledger(before)
    # What a person types is still checked: a new evening's newcomer reading like a member, and a
    # new group with two such names, are refused.
    evening = client.post(
        "/api/v1/tables",
        json={"group": copy["id"], "players": ["MINA", "지영", "철수"]},
        headers={"X-Group-Key": copy["edit_key"]},
    )
    assert evening.status_code == 422 and evening.get_json()["errors"][0]["code"] == "duplicate_player"
    made = client.post("/api/v1/groups", json={"name": "모임", "players": ["Mina", "mina"]})
    assert made.status_code == 422 and made.get_json()["errors"][0]["code"] == "duplicate_player"


def test_an_import_still_refuses_the_same_name_twice(app):
    doc = {"group": {"name": "모임", "players": [{"name": "Mina"}, {"name": "지영"}, {"name": "Mina"}]}}
    r = app.test_client().post("/api/v1/groups/import", json=doc)
    assert r.status_code == 422, r.get_json()
    assert [(e["code"], e["path"]) for e in r.get_json()["errors"]] == [("duplicate_player", "group.players[2]")]


def test_an_evening_stored_with_a_bare_preset_name_is_read_and_followed(app):
    """``POST /tables`` took ``"rules": "korean-common"`` (as an import still does: old exports
    hold it), and a group whose evening was stored so answered 500 on its page, its rules page and
    a new evening's page: the next evening's rules were read as an object."""
    client = app.test_client()
    g, _evening = _make_group(client, ["민수", "지영", "철수"])
    doc = {"players": ["민수", "지영", "철수"], "rules": "korean-common", "hands": []}
    old = client.post("/api/v1/tables/import", json=doc)
    assert old.status_code == 201, old.get_json()
    engine = app.extensions["sk_engine"]
    with engine.begin() as conn:
        gid = conn.execute(text("select id from sk_groups where public_id = :p"), {"p": g["id"]}).scalar_one()
        conn.execute(
            text("update sk_tables set group_id = :g where public_id = :p"), {"g": gid, "p": old.get_json()["id"]}
        )
        conn.execute(text("update sk_groups set version = version + 1 where id = :g"), {"g": gid})
    assert every_read(app, g, old.get_json()["id"]) == ALL_READ
    phone = app.test_client()
    phone.get(f"/gj/{g['id']}/{g['edit_key']}")
    assert phone.get(f"/g/{g['id']}/rules").status_code == 200
    nxt = client.post(
        "/api/v1/tables", json={"group": g["id"], "players": ["민수", "지영"]}, headers={"X-Group-Key": g["edit_key"]}
    )
    assert nxt.status_code == 201, nxt.get_json()
    with Session(engine) as session:
        stored = session.scalars(select(Table).where(Table.public_id == nxt.get_json()["id"])).one().config
    assert stored["rules"] == {"preset": "korean-common", "options": {}}  # the next evening's, as an object
