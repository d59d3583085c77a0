"""Home, the new-table form, opening a table by link or code, its page, exports, language."""

from __future__ import annotations

import json

import pytest

from scorekeeper.engine.replay import replay_document
from scorekeeper.engine.rules import OPTIONS, PRESETS
from scorekeeper.web.views.newtable import preset_defaults


def table_form(players=("Mina", "Jun", "Hana"), preset="pagat", **extra) -> dict:
    data = {f"players-{i}": p for i, p in enumerate(players)}
    data |= {
        "preset": preset,
        "chip_value": "100",
        "currency": "₩",
        "length": "12",
        "dealer": "0",
        "draw_time": "night",
    }
    for name, value in preset_defaults(preset).items():
        if isinstance(value, bool):
            if value:
                data[name] = "y"
        else:
            data[name] = str(value)
    return data | extra


def test_home(client):
    r = client.get("/")
    assert r.status_code == 200
    assert b'href="/new"' in r.data and b"/join" in r.data


def test_new_form_has_every_option(client):
    html = client.get("/new").get_data(as_text=True)
    for name, spec in OPTIONS.items():
        assert f'name="opt_{name}"' in html, name
        assert spec.metadata["ko"] in html
    assert 'id="preset-data"' in html and "<script>" not in html


def test_new_form_preset_defaults(client):
    html = client.get("/new?preset=ogb-matgo").get_data(as_text=True)
    assert 'name="opt_chongtong" type="number" value="50"' in html or 'value="50"' in html
    assert PRESETS["ogb-matgo"].chongtong == 50


def test_create_table(client, app):
    r = client.post("/new", data=table_form(title="금요일", **{"opt_five_brights": "20"}))
    assert r.status_code == 302
    page = client.get(r.headers["Location"])
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert "금요일" in html and "Mina" in html and "/j/" in html  # share links for the editor
    assert "<svg" in html  # the QR codes


def test_create_table_stores_only_changes(client, app):
    from scorekeeper.store.models import Table

    client.post("/new", data=table_form(**{"opt_five_brights": "20"}))
    with app.app_context():
        from scorekeeper.web.server.database import db

        table = db().query(Table).one()
        assert table.config["rules"] == {"preset": "pagat", "options": {"five_brights": 20}}
        assert table.config["first_dealer"] == "Mina"
        assert table.edit_secret != table.view_secret


@pytest.mark.parametrize(
    ("players", "message"),
    [
        pytest.param(("Solo",), "players_needed", id="one-player"),
        pytest.param(("A", "A"), "players_distinct", id="duplicate"),
    ],
)
def test_create_table_refused(client, app, players, message):
    r = client.post("/new", data=table_form(players=players))
    assert r.status_code == 422
    with app.app_context():
        from scorekeeper.store.models import Table
        from scorekeeper.web.server.database import db

        assert db().query(Table).count() == 0


def test_create_table_bad_option_value(client):
    r = client.post("/new", data=table_form(**{"opt_five_brights": "-3"}))
    assert r.status_code == 422


def test_draw_for_dealer(client):
    data = table_form(
        dealer="draw", draw_time="night", **{"draw_cards-0": "3g", "draw_cards-1": "1j1", "draw_cards-2": "5r"}
    )
    r = client.post("/new", data=data)
    assert r.status_code == 302
    html = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "Jun" in html and "badge dealer" in html


def test_draw_tie_needs_redraw(client):
    data = table_form(dealer="draw", **{"draw_cards-0": "1j1", "draw_cards-1": "1j2", "draw_cards-2": "5r"})
    r = client.post("/new", data=data)
    assert r.status_code == 422
    assert "draw again" in r.get_data(as_text=True)
    data |= {"redraw_cards-0": "2a", "redraw_cards-1": "3r"}
    assert client.post("/new", data=data).status_code == 302


def test_enter_by_link_remembers_key(make_table, client):
    t = make_table()
    assert client.get(t.url).status_code == 401
    r = t.enter(t.view_key)
    assert r.status_code == 302 and r.headers["Location"].endswith(t.url)
    page = client.get(t.url)
    assert (page.status_code == 200 and b"Read-only" in page.data) or "보기 전용".encode() in page.data
    assert t.edit_key.encode() not in page.data  # a read-only viewer never sees the edit secret


def test_enter_bad_key(make_table, client):
    t = make_table()
    assert client.get(f"/j/{t.id}/not-the-key").status_code == 404
    assert client.get("/j/nope/nope").status_code == 404


@pytest.mark.parametrize("form", ["code", "link"])
def test_join_by_code(make_table, client, form):
    t = make_table()
    code = f"{t.id}.{t.view_key}" if form == "code" else f"http://x/j/{t.id}/{t.view_key}"
    r = client.post("/join", data={"code": code})
    assert r.status_code == 303 and r.headers["Location"].endswith(t.url)
    assert client.get(t.url).status_code == 200


def test_join_bad_code(client):
    r = client.post("/join", data={"code": "garbage"}, follow_redirects=True)
    assert r.status_code == 200 and r.request.path == "/"


def test_home_lists_recent(table, client):
    assert table.id.encode() in client.get("/").data


def test_unknown_table(client):
    assert client.get("/t/unknown").status_code == 404
    assert client.get("/t/" + "x" * 200).status_code == 404


def test_version_and_etag(table, client):
    r = client.get(f"{table.url}/version")
    version = r.get_json()["version"]
    assert r.headers["ETag"] == f'"v{version}"'
    assert client.get(f"{table.url}/version", headers={"If-None-Match": r.headers["ETag"]}).status_code == 304
    table.add_summary({"captures": {"A": ["1g", "3g", "8g"]}, "outcome": {"type": "stop", "winner": "A"}})
    assert client.get(f"{table.url}/version").get_json()["version"] > version


def test_table_partial(table, client):
    r = client.get(table.url, headers={"X-Partial": "1"})
    assert r.data.startswith(b'<div id="region"') or b'id="region"' in r.data[:200]
    assert b"<html" not in r.data


def test_rules_sheet(make_table, client):
    t = make_table(rules={"preset": "korean-common", "options": {"godori": 3}})
    t.enter()
    html = client.get(f"{t.url}/rules").get_data(as_text=True)
    assert html.count('class="changed"') == 1
    for spec in OPTIONS.values():  # Korean mode: the Korean label of every option
        assert spec.metadata["ko"] in html
    # the value's label, never the raw choice (issue 13)
    assert "고마다 +1" in html and "plus_one_each" not in html
    client.get("/lang/en")
    html = client.get(f"{t.url}/rules").get_data(as_text=True)
    assert "+1 for every go" in html and "Target score, two players" in html


def test_export_json_replays(table, client):
    table.add_summary({"captures": {"A": ["1g", "3g", "8g"]}, "outcome": {"type": "stop", "winner": "A"}})
    hand = table.start_live()
    table.append(hand, [{"type": "nagari"}])
    r = client.get(f"{table.url}/export.json")
    assert r.status_code == 200 and "attachment" in r.headers["Content-Disposition"]
    replayed = replay_document(json.loads(r.data))
    assert replayed["ok"], replayed
    assert replayed["balances"] == table.state()["balances"]


def test_export_csv(table, client):
    table.add_summary({"captures": {"A": ["1g", "3g", "8g"]}, "outcome": {"type": "stop", "winner": "A"}})
    text = client.get(f"{table.url}/export.csv").get_data(as_text=True)
    assert "판,종류,이유,내는 사람,받는 사람,점수" in text  # the phone's language (issue 13)
    assert "B,A,6,600" in text and "광박 ×2" in text and "gwang_bak" not in text
    client.get("/lang/en")
    text = client.get(f"{table.url}/export.csv").get_data(as_text=True)
    assert "hand,kind,reason,from,to,points" in text and "광박 gwang-bak ×2" in text


def test_export_csv_names_cards_and_reads_as_a_product(make_table, client):
    """Issue 13: "cards shown +3; points a card +2" read as an addition; cards were codes."""
    t = make_table(players=("A", "B", "C", "D"))
    t.enter()
    t.add_summary(
        {"captures": {"A": ["1g", "3g", "8g"]}, "outcome": {"type": "stop", "winner": "A"}},
        choices={"B": "play", "C": "play"},
        shown={"D": {"cards": ["11g", "11jd"]}},
    )
    client.get("/lang/en")
    text = client.get(f"{t.url}/export.csv").get_data(as_text=True)
    row = next(line for line in text.splitlines() if "gwangpalli" in line and ",D," in line)
    assert "2 cards (paulownia bright, paulownia double junk)" in row and "× 2 points" in row, row
    assert "+2" not in row and "11g" not in row


def test_chart_and_settle_up(table, client):
    table.add_summary({"captures": {"A": ["1g", "3g", "8g"]}, "outcome": {"type": "stop", "winner": "A"}})
    html = client.get(table.url).get_data(as_text=True)
    assert 'class="chart"' in html and "<polyline" in html
    assert html.count('class="who') >= 3


def test_forget(table, client):
    assert client.post(f"{table.url}/forget").status_code == 303
    assert client.get(table.url).status_code == 401


@pytest.mark.parametrize(("lang", "word"), [("ko", "새 방 만들기"), ("en", "Start a table")])
def test_language_switch(client, lang, word):
    r = client.get(f"/lang/{lang}?next=/")
    assert r.status_code == 302 and r.headers["Location"] == "/"
    assert word in client.get("/").get_data(as_text=True)


def test_language_from_browser(client):
    assert "Start a table" in client.get("/", headers={"Accept-Language": "en-US"}).get_data(as_text=True)
    assert "새 방 만들기" in client.get("/", headers={"Accept-Language": "ko-KR"}).get_data(as_text=True)


@pytest.mark.parametrize("target", ["//evil.example/", "https://evil.example/", "/\\evil"])
def test_language_switch_stays_here(client, target):
    r = client.get("/lang/en", query_string={"next": target})
    assert r.headers["Location"] == "/"


def test_korean_terms_beside_english(table, client):
    table.add_summary({"captures": {"A": ["1g", "3g", "8g"]}, "outcome": {"type": "stop", "winner": "A"}})
    hand = table.state()["hands"][0]["id"]
    client.get("/lang/en")
    html = client.get(f"{table.url}/hands/{hand}").get_data(as_text=True)
    assert "광박 gwang-bak" in html and "Who pays whom" in html


@pytest.mark.parametrize("live", [False, True])
def test_a_hand_after_31_nagari_is_taken(make_table, live):
    """Issue 23, item 8: every hand after the 31st nagari in a row answered 422 (carry 0 to 30)."""
    t = make_table(length=40)
    for _ in range(31):
        t.add_summary({"outcome": {"type": "nagari"}})
    assert t.state()["next"]["nagari_carry"] == 30
    if live:
        hand = t.start_live()
        assert t.api("GET", f"/hands/{hand}/events").get_json()["state"]["setup"]["nagari_carry"] == 30
    else:
        t.add_summary({"captures": {"A": ["1g", "3g", "8g"]}, "outcome": {"type": "stop", "winner": "A"}})
        assert t.state()["hands"][-1]["deal"]["carry"] == 30
    t.enter()
    assert t.client.get(t.url).status_code == 200
