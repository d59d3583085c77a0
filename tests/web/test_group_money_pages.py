"""Issue 28 on the pages: the group page's voiding, removing, pay links, rules and history in both
languages; the smaller findings (the read-only note, 보냈어요's confirmation, the CSV's 방, a group
file given to 방 가져오기, og:description)."""

from __future__ import annotations

import io
import json
import re

import pytest

from .conftest import STOP_A

STOP_B = {"captures": {"B": ["1g", "3g", "8g"]}, "outcome": {"type": "stop", "winner": "B"}}


@pytest.fixture
def grp(client):
    g = client.post("/api/v1/groups", json={"name": "토요일", "players": ["A", "B", "C"]}).get_json()
    t = client.post(
        "/api/v1/tables", json={"group": g["id"], "players": ["A", "B", "C"]}, headers={"X-Group-Key": g["edit_key"]}
    ).get_json()
    r = client.post(f"/api/v1/tables/{t['id']}/hands", json={"summary": STOP_A}, headers={"X-Table-Key": t["edit_key"]})
    assert r.status_code == 201
    g["table"] = t
    return g


def phone(app, grp, which="edit_key", lang="ko"):
    c = app.test_client()
    c.get(f"/lang/{lang}")
    c.get(f"/gj/{grp['id']}/{grp[which]}")
    return c


def page(c, grp) -> str:
    r = c.get(f"/g/{grp['id']}")
    assert r.status_code == 200
    return r.get_data(as_text=True)


def test_a_read_only_group_page_says_so(app, grp):
    assert 'class="read-only-note"' in page(phone(app, grp, "view_key"), grp)
    assert 'class="read-only-note"' not in page(phone(app, grp), grp)


def test_sent_it_lands_on_its_confirmation(app, grp):
    c = phone(app, grp)
    html = page(c, grp)
    m = re.search(
        r'name="from" value="([^"]+)".*?name="to" value="([^"]+)".*?name="points" value="(\d+)".*?name="key" value="([^"]+)"',
        html,
        re.S,
    )
    r = c.post(f"/g/{grp['id']}/paid", data=dict(zip(("from", "to", "points", "key"), m.groups(), strict=True)))
    assert r.status_code == 303 and r.headers["Location"].endswith("#flash")
    assert re.search(r'<p class="flash ok" role="status" id="flash">', page(c, grp))


def test_the_ledger_csv_names_a_table_never_by_its_id(app, grp):
    text = phone(app, grp).get(f"/g/{grp['id']}/ledger.csv").get_data(as_text=True)
    assert grp["table"]["id"] not in text
    assert '"A, B, C"' in text.splitlines()[1]


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_a_group_file_given_to_the_table_import_points_to_the_group_import(app, grp, lang):
    c = phone(app, grp, lang=lang)
    export = c.get(f"/g/{grp['id']}/group.json").get_data()
    r = c.post("/import", data={"file": (io.BytesIO(export), "group.json")}, content_type="multipart/form-data")
    html = r.get_data(as_text=True)
    assert r.status_code == 422
    assert 'data-code="group_file"' in html and 'href="/g/new#import-group"' in html
    assert "여러 판의 기록 모양이 잘못되었습니다" not in html
    api = c.post("/api/v1/tables/import", json=json.loads(export))
    assert api.status_code == 422 and api.get_json()["errors"][0]["code"] == "group_file"


def test_og_description_names_everyone_who_still_owes(app, client):
    """Three evenings, three winners, five who owe: the old preview named the top four balances."""
    g = client.post("/api/v1/groups", json={"name": "g", "players": list("ABCDEFGH")}).get_json()
    for players in (["A", "B", "C"], ["D", "E", "F"], ["G", "H", "B"]):
        t = client.post(
            "/api/v1/tables", json={"group": g["id"], "players": players}, headers={"X-Group-Key": g["edit_key"]}
        ).get_json()
        win = {"captures": {players[0]: ["1g", "3g", "8g"]}, "outcome": {"type": "stop", "winner": players[0]}}
        r = client.post(
            f"/api/v1/tables/{t['id']}/hands", json={"summary": win}, headers={"X-Table-Key": t["edit_key"]}
        )
        assert r.status_code == 201, r.get_json()
    owed = client.get(f"/api/v1/groups/{g['id']}", headers={"X-Group-Key": g["view_key"]}).get_json()["owed"]
    owers = {o["from"] for o in owed}
    assert owers == {"B", "C", "E", "F", "H"}
    html = app.test_client().get(f"/gj/{g['id']}/{g['view_key']}").get_data(as_text=True)
    desc = re.search(r'og:description" content="([^"]*)"', html).group(1)
    debts = desc.split("|", 1)[1]
    assert all(f" {p} " in debts for p in owers), desc


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_a_payment_is_voided_in_two_steps_and_the_history_says_so(app, grp, lang):
    c = phone(app, grp, lang=lang)
    c.post(f"/g/{grp['id']}/paid", data={"from": "B", "to": "A", "points": "6"})
    html = page(c, grp)
    # step one: a question (details), step two: its form
    step = re.search(
        r'<details class="confirm"><summary class="btn small">([^<]+)</summary>\s*<p>([^<]+)</p>\s*<form method="post" action="(/g/[^"]+/payments/(\d+)/void)"',
        html,
    )
    assert step, html[html.index('id="payments"') :][:2000]
    assert step.group(1) == ("무효로 하기" if lang == "ko" else "Void")
    assert c.post(step.group(3)).status_code == 303
    html = page(c, grp)
    assert '<li class="voided">' in html and "/void" not in html.split('id="payments"')[1].split("</section>")[0]
    lines = re.findall(r'<li class="hist-([a-z_]+)"><div><span>([^<]*)</span>', html)
    assert lines[0] == ("payment_voided", "송금 무효: B → A 6점" if lang == "ko" else "Payment voided: B → A 6 pts")
    assert [k for k, _ in lines][-1] == "group_created"


def test_an_empty_evening_is_offered_for_removal_and_one_with_hands_is_not(app, grp):
    c = phone(app, grp)
    empty = c.post(
        "/api/v1/tables",
        json={"group": grp["id"], "players": ["A", "B", "C"]},
        headers={"X-Group-Key": grp["edit_key"]},
    ).get_json()
    html = page(c, grp)
    assert f"/evenings/{empty['id']}/remove" in html and f"/evenings/{grp['table']['id']}/remove" not in html
    assert f"/evenings/{empty['id']}/remove" not in page(phone(app, grp, "view_key"), grp)
    assert c.post(f"/g/{grp['id']}/evenings/{grp['table']['id']}/remove").status_code == 303  # refused, kept
    assert c.post(f"/g/{grp['id']}/evenings/{empty['id']}/remove").status_code == 303
    html = page(c, grp)
    assert empty["id"] not in html and grp["table"]["id"] in html


def test_a_pay_link_set_on_the_page_opens_from_every_phones_owed_line(app, grp):
    c = phone(app, grp)
    c.post(f"/g/{grp['id']}/pay-link", data={"player": "A", "pay_link": "https://evil.example/x"})
    assert "https://evil.example" not in page(c, grp)
    c.post(f"/g/{grp['id']}/pay-link", data={"player": "A", "pay_link": "https://toss.me/aaa"})
    for who in (c, phone(app, grp, "view_key")):
        html = page(who, grp)
        links = re.findall(r'<a class="btn small pay-link" href="([^"]+)"', html)
        assert links == ["https://toss.me/aaa/600", "https://toss.me/aaa/600"], links  # B and C each owe A 600원


def test_the_next_evenings_rules_chosen_on_the_groups_sheet(app, grp):
    from scorekeeper.web.views.newtable import preset_defaults

    c = phone(app, grp)
    sheet = c.get(f"/g/{grp['id']}/rules")
    assert sheet.status_code == 200 and 'id="preset-data"' in sheet.get_data(as_text=True)
    values = preset_defaults("ogb-matgo")
    form = {"preset": "ogb-matgo"} | {k: ("y" if v is True else str(v)) for k, v in values.items() if v is not False}
    assert c.post(f"/g/{grp['id']}/rules", data=form).status_code == 303
    r = c.post(f"/g/{grp['id']}/evening", data={"came": ["A", "B", "C"]})
    table_id = r.headers["Location"].rstrip("/").split("/t/")[1]
    doc = c.get(f"/api/v1/tables/{table_id}", headers={"X-CSRFToken": ""}).get_json()
    assert doc["rules"]["preset"] == "ogb-matgo"
    kinds = [
        e["kind"]
        for e in c.get(f"/api/v1/groups/{grp['id']}/history", headers={"X-Group-Key": grp["view_key"]}).get_json()[
            "history"
        ]
    ]
    assert "rules_set" in kinds and kinds[-1] == "evening_added"


@pytest.mark.parametrize(("lang", "preset"), [("ko", "korean-common"), ("en", "pagat")])
def test_a_group_made_on_the_page_plays_the_phones_language_default(app, lang, preset):
    c = app.test_client()
    c.get(f"/lang/{lang}")
    r = c.post("/g/new", data={"name": "g", "players": "A\nB\nC"})
    gid = r.headers["Location"].rsplit("/", 1)[1]
    r = c.post(f"/g/{gid}/evening", data={"came": ["A", "B", "C"]})
    table_id = r.headers["Location"].rstrip("/").split("/t/")[1]
    assert c.get(f"/api/v1/tables/{table_id}").get_json()["rules"]["preset"] == preset


def test_the_table_page_shows_its_history(app, grp):
    c = app.test_client()
    c.get("/lang/en")
    c.get(f"/j/{grp['table']['id']}/{grp['table']['view_key']}")
    html = c.get(f"/t/{grp['table']['id']}").get_data(as_text=True)
    assert re.findall(r'<li class="hist-([a-z_]+)"><div><span>([^<]*)</span>', html) == [("hand_added", "Hand 1 added")]
