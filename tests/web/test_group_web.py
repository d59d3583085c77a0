"""The group's pages: who may change what, the one-tap payment, a new evening, adding a table,
sharing (text, picture, Open Graph), exports, the home page's list."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import text

from scorekeeper.web.groups import picture
from tests.web.conftest import group_with_an_evening

from .walk import MUTATING, csrf_header, rules

FORMS = {
    "groups.evening": {"came": ["민수", "지영"], "newcomers": "동수"},
    "groups.paid": {"from": "민수", "to": "지영", "points": "1"},
    "groups.attach": {},
    "groups.forget": {},
    "groups.new_keys": {"which": "both", "confirm": "y"},
}
BODIES = {
    "api.add_group_payment": {"from": "민수", "to": "지영", "points": 1},
    "api.set_group_player": {"pay_link": "https://toss.me/minsu"},
}
FORMS["groups.pay_link"] = {"player": "민수", "pay_link": "https://toss.me/minsu"}


def _rules_form() -> dict:
    """The rules sheet as a phone sends it: a preset and every option (a box left unticked is absent)."""
    from scorekeeper.web.views.newtable import preset_defaults

    values = preset_defaults("ogb-matgo")
    return {"preset": "ogb-matgo"} | {k: ("y" if v is True else str(v)) for k, v in values.items() if v is not False}


FORMS["groups.rules"] = _rules_form()
ANYONE = {"groups.new", "groups.import_group", "groups.forget", "api.create_group", "api.import_group"}


@pytest.fixture
def grp(client):
    return group_with_an_evening(client)


@pytest.fixture
def walked_grp(client, grp):
    """The group with a payment to void and an evening with no hands to remove (issue 28's routes)."""
    g = grp
    r = client.post(
        f"/api/v1/groups/{g['id']}/payments",
        json={"from": "민수", "to": "지영", "points": 1},
        headers={"X-Group-Key": g["edit_key"]},
    )
    g["payment"] = r.get_json()["payment"]["id"]
    g["empty"] = client.post(
        "/api/v1/tables",
        json={"group": g["id"], "players": ["민수", "지영", "철수"]},
        headers={"X-Group-Key": g["edit_key"]},
    ).get_json()
    # The page's routes get their own: the API's voided and removed theirs already.
    r = client.post(
        f"/api/v1/groups/{g['id']}/payments",
        json={"from": "민수", "to": "지영", "points": 1, "beyond_owed": True},
        headers={"X-Group-Key": g["edit_key"]},
    )
    g["page_payment"] = r.get_json()["payment"]["id"]
    g["page_empty"] = client.post(
        "/api/v1/tables",
        json={"group": g["id"], "players": ["민수", "지영", "철수"]},
        headers={"X-Group-Key": g["edit_key"]},
    ).get_json()
    return g


def group_rows(app, public_id: str) -> dict:
    with app.extensions["sk_engine"].connect() as conn:
        gid = conn.execute(text("select id from sk_groups where public_id = :p"), {"p": public_id}).scalar_one()
        return {
            name: [
                tuple(r) for r in conn.execute(text(f"select * from {name} where {col} = :g order by 1"), {"g": gid})
            ]
            for name, col in (
                ("sk_groups", "id"),
                ("sk_group_players", "group_id"),
                ("sk_group_payments", "group_id"),
                ("sk_tables", "group_id"),
            )
        }


def _call(client, rule, grp, headers=None, form=None):
    group_id = grp["id"]
    url = rule.rule.replace("<public_id>", group_id).replace("<group_id:public_id>", group_id)
    page = rule.endpoint.startswith("groups.")
    url = url.replace("<int:payment_id>", str(grp["page_payment" if page else "payment"])).replace("<name>", "민수")
    url = url.replace("<table_id:table>", grp["empty"]["id"]).replace("<table_id>", grp["page_empty"]["id"])
    method = sorted(rule.methods & MUTATING)[0]
    if rule.endpoint.startswith("api."):
        return client.open(url, method=method, json=BODIES.get(rule.endpoint, {}), headers=headers or {})
    return client.open(url, method=method, data=form or FORMS.get(rule.endpoint, {}), headers=headers or {})


def _new_keys(app, grp, rule) -> None:
    """After new secrets (``/keys``), the next calls are made with them."""
    if rule.endpoint.endswith("keys"):
        with app.extensions["sk_engine"].connect() as conn:
            grp["edit_key"], grp["view_key"] = conn.execute(
                text("select edit_secret, view_secret from sk_groups where public_id = :p"), {"p": grp["id"]}
            ).one()


def test_no_group_route_lets_a_viewer_a_stranger_or_a_tables_key_change_it(app, walked_grp):
    grp = walked_grp
    walked = 0
    for rule in rules(app, MUTATING):
        if not (rule.endpoint.startswith("groups.") or "group" in rule.endpoint) or rule.endpoint in ANYONE:
            continue
        before = group_rows(app, grp["id"])
        viewer = app.test_client()
        viewer.get(f"/gj/{grp['id']}/{grp['view_key']}")
        table_editor = app.test_client()
        table_editor.get(f"/j/{grp['table']['id']}/{grp['table']['edit_key']}")
        for who, client, headers, allowed in [
            ("viewer", viewer, csrf_header(app, viewer), {403}),
            ("view key", app.test_client(), {"X-Group-Key": grp["view_key"]}, {403}),
            ("stranger", app.test_client(), None, {401}),
            (
                "table's key",
                app.test_client(),
                {"X-Group-Key": grp["table"]["edit_key"], "X-Table-Key": grp["table"]["edit_key"]},
                {401},
            ),
            ("table's editor", table_editor, csrf_header(app, table_editor), {401}),
        ]:
            r = _call(client, rule, grp, headers)
            assert r.status_code in allowed, (rule.rule, who, r.status_code)
            assert group_rows(app, grp["id"]) == before, (rule.rule, who)
        editor = app.test_client()
        r = _call(editor, rule, grp, {"X-Group-Key": grp["edit_key"]})
        _new_keys(app, grp, rule)
        if rule.endpoint.startswith("groups."):
            editor.get(f"/gj/{grp['id']}/{grp['edit_key']}")
            other = editor.post("/api/v1/tables", json={"players": ["민수", "지영"]}).get_json()
            r = _call(
                editor,
                rule,
                grp,
                csrf_header(app, editor),
                {"code": f"{other['id']}.{other['edit_key']}"} if rule.endpoint == "groups.attach" else None,
            )
        assert r.status_code < 400 and group_rows(app, grp["id"]) != before, (rule.rule, "editor", r.status_code)
        walked += 1
        _new_keys(app, grp, rule)
    assert walked >= 4


def test_a_cookie_riding_write_needs_the_csrf_token(csrf_app):
    client = csrf_app.test_client()
    g = client.post("/api/v1/groups", json={"name": "g", "players": ["A", "B"]}).get_json()
    client.get(f"/gj/{g['id']}/{g['edit_key']}")
    r = client.post(f"/api/v1/groups/{g['id']}/payments", json={"from": "A", "to": "B", "points": 1})
    assert r.status_code == 400 and r.get_json()["errors"][0]["code"] == "csrf"
    assert client.post(f"/g/{g['id']}/paid", data={"from": "A", "to": "B", "points": "1"}).status_code == 400
    # Issue 28's writes ride on the group's cookie too (their endpoints name the group: the API's
    # CSRF check looks for the group's cookie by that name).
    for method, url, body in [
        ("POST", f"/api/v1/groups/{g['id']}/payments/1/void", None),
        ("DELETE", f"/api/v1/groups/{g['id']}/evenings/{g['id']}", None),
        ("PUT", f"/api/v1/groups/{g['id']}/players/A", {"pay_link": "https://toss.me/a"}),
    ]:
        r = client.open(url, method=method, json=body)
        assert r.status_code == 400 and r.get_json()["errors"][0]["code"] == "csrf", (url, r.get_json())


def test_owed_first_and_one_tap_paid_twice_is_recorded_once(client, grp, app):
    client.get(f"/gj/{grp['id']}/{grp['edit_key']}")
    page = client.get(f"/g/{grp['id']}").get_data(as_text=True)
    assert page.index('id="owed"') < page.index('id="new-evening"') < page.index('id="group-ledger"')
    form = re.search(
        r'name="from" value="([^"]+)".*?name="to" value="([^"]+)".*?name="points" value="(\d+)".*?'
        r'name="key" value="([^"]+)"',
        page,
        re.S,
    )
    body = dict(zip(("from", "to", "points", "key"), form.groups(), strict=True))
    assert client.post(f"/g/{grp['id']}/paid", data=body).status_code == 303
    assert client.post(f"/g/{grp['id']}/paid", data=body).status_code == 303  # the second phone
    with app.extensions["sk_engine"].connect() as conn:
        assert conn.execute(text("select count(*) from sk_group_payments")).scalar_one() == 1


def test_a_new_evening_from_the_group(client, grp):
    client.get(f"/gj/{grp['id']}/{grp['edit_key']}")
    r = client.post(f"/g/{grp['id']}/evening", data={"came": ["지영", "민수"], "newcomers": "동수"})
    assert r.status_code == 303 and "/t/" in r.headers["Location"]
    doc = client.get(f"/api/v1/groups/{grp['id']}", headers={"X-Group-Key": grp["view_key"]}).get_json()
    assert "동수" in doc["players"] and len(doc["tables"]) == 2
    table = doc["tables"][-1]
    assert table["players"] == ["민수", "지영", "동수"]  # seated as at the last evening, the newcomer after


def test_an_existing_table_joins_the_group(client, grp):
    client.get(f"/gj/{grp['id']}/{grp['edit_key']}")
    other = client.post("/api/v1/tables", json={"players": ["민수", "영희"]}).get_json()
    client.get(f"/j/{other['id']}/{other['view_key']}")
    r = client.post(f"/g/{grp['id']}/attach", data={"code": f"{other['id']}.{other['view_key']}"})
    assert r.status_code == 303  # a view code is not enough
    r = client.post(f"/g/{grp['id']}/attach", data={"code": f"{other['id']}.{other['edit_key']}"})
    doc = client.get(f"/api/v1/groups/{grp['id']}", headers={"X-Group-Key": grp["view_key"]}).get_json()
    assert [t["id"] for t in doc["tables"]][-1] == other["id"] and "영희" in doc["players"]


def test_sharing_text_picture_and_open_graph(client, grp, monkeypatch):
    client.get(f"/gj/{grp['id']}/{grp['view_key']}")
    page = client.get(f"/g/{grp['id']}").get_data(as_text=True)
    assert 'property="og:title" content="토요일' in page and "og:image" in page and "data-sent" not in page
    txt = client.get(f"/g/{grp['id']}/share.txt").get_data(as_text=True)
    assert "민수 → 지영 600원" in txt
    png = client.get(f"/g/{grp['id']}/share.png")
    assert png.status_code == 200 and png.data[:8] == b"\x89PNG\r\n\x1a\n"
    monkeypatch.setattr(picture, "FONT", picture.FONT.with_name("missing.ttf"))
    monkeypatch.setattr(picture, "FONT_BOLD", picture.FONT.with_name("missing.ttf"))
    picture.font.cache_clear()
    assert client.get(f"/g/{grp['id']}/share.png?v=2").data[:4] == b"\x89PNG"  # a fallback font, no 500
    picture.font.cache_clear()


def test_exports_and_home(client, grp):
    client.get(f"/gj/{grp['id']}/{grp['view_key']}")
    csv = client.get(f"/g/{grp['id']}/ledger.csv").get_data(as_text=True)
    assert csv.startswith("\ufeff") and "민수,지영,6,600" in csv
    assert "토요일" in client.get("/").get_data(as_text=True)
    english = client.get(f"/g/{grp['id']}", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Still owed" in english and "₩600" in english


def test_one_evenings_result_shared(client, grp):
    client.get(f"/gj/{grp['id']}/{grp['view_key']}")
    evening = grp["table"]["id"]
    txt = client.get(f"/g/{grp['id']}/share.txt?evening={evening}").get_data(as_text=True)
    assert "지영 +1,200원" in txt and "민수 → 지영 600원" in txt
    assert client.get(f"/g/{grp['id']}/share.png?evening={evening}").data[:4] == b"\x89PNG"
    assert client.get(f"/g/{grp['id']}/share.png?evening=nosuchtable").status_code == 404


def test_the_page_shows_the_newest_evenings_and_all_on_asking(client, grp, monkeypatch):
    from scorekeeper.web.groups import routes

    monkeypatch.setattr(routes, "LEDGER_ROWS", 1)
    second = client.post(
        "/api/v1/tables",
        json={"group": grp["id"], "players": ["민수", "지영"]},
        headers={"X-Group-Key": grp["edit_key"]},
    ).get_json()
    client.get(f"/gj/{grp['id']}/{grp['view_key']}")
    page = client.get(f"/g/{grp['id']}").get_data(as_text=True)
    assert f"/t/{second['id']}" in page and f'/t/{grp["table"]["id"]}"' not in page and "all=1" in page
    everything = client.get(f"/g/{grp['id']}?all=1").get_data(as_text=True)
    assert f'/t/{grp["table"]["id"]}"' in everything


def test_a_table_links_back_to_its_group(client, grp):
    client.get(f"/j/{grp['table']['id']}/{grp['table']['view_key']}")
    assert f"/g/{grp['id']}" not in client.get(f"/t/{grp['table']['id']}").get_data(as_text=True)
    client.get(f"/gj/{grp['id']}/{grp['view_key']}")
    assert f"/g/{grp['id']}" in client.get(f"/t/{grp['table']['id']}").get_data(as_text=True)


def test_a_groups_secret_never_reaches_a_log():
    from scorekeeper.web.server.redact import redact

    assert redact('"GET /gj/Ab3_x/s3cr3t HTTP/1.1" 302 -') == '"GET /gj/Ab3_x/[redacted] HTTP/1.1" 302 -'
    assert redact("X-Group-Key: s3cr3t") == "X-Group-Key: [redacted]"
    assert redact("GET /g/Ab3/share.png?key=s3cr3t&v=1 HTTP/1.1") == "GET /g/Ab3/share.png?key=[redacted]&v=1 HTTP/1.1"


def test_a_link_preview_gets_the_open_graph_tags_and_picture_without_a_cookie(app, grp):
    bot = app.test_client(use_cookies=False)
    r = bot.get(f"/gj/{grp['id']}/{grp['view_key']}")
    assert r.status_code == 200 and r.headers["Cache-Control"] == "private, no-store"
    page = r.get_data(as_text=True)
    assert (
        'property="og:description" content="지영 +1,200원' in page
        and 'http-equiv="refresh"' not in page
        and "data-go-on" in page
    )
    image = re.search(r'property="og:image" content="([^"]+)"', page).group(1).replace("&amp;", "&")
    assert grp["view_key"] in image and grp["edit_key"] not in page
    assert bot.get(image.removeprefix("http://localhost")).data[:4] == b"\x89PNG"
    assert bot.get(f"/g/{grp['id']}/share.png").status_code == 401  # no key, no picture
    assert bot.get(f"/gj/{grp['id']}/{grp['edit_key']}").status_code == 200  # the edit link works too
    assert bot.get(f"/g/{grp['id']}/share.png?key=wrong").status_code == 401
