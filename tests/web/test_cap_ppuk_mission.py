"""The cap (상한가), 연뻑, cup counting and whose mission through the web app: the new options on the new-table form and the rules sheet (both
generated from the engine), and a capped stop shown with its cap step."""

from __future__ import annotations

import re

import pytest
from pydantic import ValidationError

from scorekeeper.engine.rules import CHOICE_LABELS, OPTIONS
from scorekeeper.web.api import models
from scorekeeper.web.api.openapi import document

PARTIAL = {"X-Partial": "1"}
NEW_OPTIONS = ("payment_cap", "cup_counting", "consecutive_ppuk")
NEW_CHOICES: tuple[str, ...] = ("times_players_each", "score")


def post(client, table, hand, seq, **fields):
    return client.post(f"{table.url}/hands/{hand}/events", data={"seq": seq} | fields, headers=PARTIAL)


def test_new_options_on_the_new_table_form_and_the_rules_sheet(make_table, client):
    html = client.get("/new").get_data(as_text=True)
    for name in NEW_OPTIONS:
        assert f'name="opt_{name}"' in html and OPTIONS[name].metadata["ko"] in html
    for choice in NEW_CHOICES:
        assert f'value="{choice}"' in html and CHOICE_LABELS[choice].split(" · ")[0] in html
    t = make_table(rules={"preset": "pagat", "options": {"payment_cap": 100}})
    t.enter()
    sheet = client.get(f"{t.url}/rules").get_data(as_text=True)
    assert sheet.count('class="changed"') == 1 and "100" in sheet
    for name in NEW_OPTIONS:
        assert OPTIONS[name].metadata["ko"] in sheet


def test_a_capped_stop_played_live_through_the_event_form(make_table, client):
    t = make_table(rules={"preset": "pagat", "options": {"payment_cap": 10}})
    t.enter()
    hand = t.start_live()
    steps = [
        {"type": "capture", "player": "A", "cards": ["1g", "3g", "8g", "2a", "4a", "5a", "6a", "7a", "10a", "12a"]},
        {"type": "end_turn"},
        {"type": "stop", "player": "A"},
    ]
    for seq, fields in enumerate(steps):
        assert post(client, t, hand, seq, **fields).status_code == 200, fields
    result = t.api("GET", f"/hands/{hand}").get_json()["result"]
    assert {(p["from"], p["points"]) for p in result["payments"]} == {("B", 10), ("C", 10)}
    assert result["payments"][0]["trail"][-1]["id"] == "payment_cap"
    page = client.get(f"{t.url}/hands/{hand}").get_data(as_text=True)
    assert "상한가" in page or "payment cap" in page


# -- a mission belongs to whoever completed it: the live screen and the quick entry ask who -------------

MISSIONS = {"preset": "pagat", "options": {"missions": True}}
HONG_DAN = ["1r", "2r", "3r"]


def test_the_live_mission_form_asks_who_completed_it(make_table, client):
    t = make_table(rules=MISSIONS)
    t.enter()
    hand = t.start_live()
    page = client.get(f"{t.url}/hands/{hand}").get_data(as_text=True)
    form = page[page.index('value="mission"') :]
    form = form[: form.index("</form>")]
    assert 'name="player"' in form and all(f'<option value="{p}">' in form for p in "ABC")
    assert post(client, t, hand, 0, type="mission", multiplier="3", player="B").status_code == 200
    for seq, fields in enumerate(
        [{"type": "capture", "player": "A", "cards": HONG_DAN}, {"type": "end_turn"}, {"type": "stop", "player": "A"}],
        start=1,
    ):
        assert post(client, t, hand, seq, **fields).status_code == 200, fields
    body = t.api("GET", f"/hands/{hand}").get_json()
    assert {"type": "mission", "multiplier": 3, "player": "B"}.items() <= body["events"][0].items()
    assert {(p["from"], p["points"]) for p in body["result"]["payments"]} == {("B", 3), ("C", 3)}  # not ×3
    assert [n["id"] for n in body["result"]["notes"]] == ["mission_other"]


QUICK = {
    "outcome": "stop",
    "winner": "A",
    "entries-0-cards": HONG_DAN,
    "entries-0-junk": "0",
    "entries-1-junk": "0",
    "entries-2-junk": "0",
    "mission": "3",
    "action": "save",
}


def test_the_quick_entry_names_who_completed_the_mission_and_shows_it_again(make_table, client):
    t = make_table(rules=MISSIONS)
    t.enter()
    html = client.get(f"{t.url}/quick").get_data(as_text=True)
    assert 'name="mission_player"' in html
    r = client.post(f"{t.url}/quick", data=QUICK | {"mission_player": "A"})
    assert r.status_code in (200, 303), r.get_data(as_text=True)[:500]
    hands = t.api("GET", "/hands").get_json()["hands"]
    hand = hands[-1]["id"]
    stored = t.api("GET", f"/hands/{hand}").get_json()
    assert stored["summary"]["mission"] == {"multiplier": 3, "player": "A"}
    models.Hand.model_validate(stored)  # the answer's model names the mission's object form
    schema = document()["components"]["schemas"]
    assert "Mission" in str(schema["Summary"]["properties"]["mission"])
    assert set(schema["Mission"]["properties"]) == {"multiplier", "player"}
    with pytest.raises(ValidationError):
        models.Summary.model_validate(
            {
                "players": ["A", "B"],
                "outcome": {"type": "nagari"},
                "mission": {"multiplier": 3, "player": "A", "by": "x"},
            }
        )
    assert {(p["from"], p["points"]) for p in stored["result"]["payments"]} == {("B", 9), ("C", 9)}
    edit = client.get(f"{t.url}/hands/{hand}/edit").get_data(as_text=True)
    assert '<option value="A" selected>' in edit[edit.index('name="mission_player"') :]


# -- 월약 offered in one tap when the log shows it ----------------------------------------------------------


def _offer(html: str) -> str | None:
    at = html.find("weol-yak-offer")
    return None if at < 0 else html[at : html.index("</form>", at)]


def test_weol_yak_is_offered_in_one_tap_when_the_log_shows_it(make_table, client):
    t = make_table(rules={"preset": "pagat", "options": {"weol_yak": True}})
    t.enter()
    hand = t.start_live()
    assert post(client, t, hand, 0, type="end_turn").status_code == 200
    assert _offer(post(client, t, hand, 1, type="end_turn").get_data(as_text=True)) is None  # nothing yet
    region = post(client, t, hand, 2, type="capture", player="C", cards=["2a", "2r", "2j1", "2j2"])
    offer = _offer(region.get_data(as_text=True))
    assert offer and 'name="type" value="weol_yak"' in offer and 'name="player" value="C"' in offer
    assert "월약" in offer or "weol-yak" in offer
    assert _offer(client.get(f"{t.url}/hands/{hand}").get_data(as_text=True))  # the whole page too
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', offer))
    assert fields["seq"] == "3"
    after = client.post(f"{t.url}/hands/{hand}/events", data=fields, headers=PARTIAL)
    assert after.status_code == 200 and _offer(after.get_data(as_text=True)) is None
    events = t.api("GET", f"/hands/{hand}/events").get_json()["events"]
    assert {"type": "weol_yak", "player": "C"}.items() <= events[-1].items()


def test_weol_yak_is_not_offered_when_the_table_does_not_play_it(make_table, client):
    t = make_table()
    t.enter()
    hand = t.start_live()
    post(client, t, hand, 0, type="end_turn")
    post(client, t, hand, 1, type="end_turn")
    region = post(client, t, hand, 2, type="capture", player="C", cards=["2a", "2r", "2j1", "2j2"])
    assert region.status_code == 200 and _offer(region.get_data(as_text=True)) is None


def test_consecutive_ppuk_on_the_quick_entry(make_table, client):
    t = make_table(rules={"preset": "pagat", "options": {"first_turn_ppuk": 7, "consecutive_ppuk": 14}})
    t.enter()
    html = client.get(f"{t.url}/quick").get_data(as_text=True)
    assert 'value="consecutive_ppuk"' in html and "연뻑" in html
    data = QUICK | {"mission": "1", "entries-1-fixed": "consecutive_ppuk"}
    assert client.post(f"{t.url}/quick", data=data).status_code in (200, 303)
    hand = t.api("GET", "/hands").get_json()["hands"][-1]["id"]
    result = t.api("GET", f"/hands/{hand}").get_json()["result"]
    assert sorted((p["from"], p["points"]) for p in result["payments"] if p["kind"] == "consecutive_ppuk") == [
        ("A", 14),
        ("C", 14),
    ]
    plain = make_table()
    plain.enter()
    assert 'value="consecutive_ppuk"' not in client.get(f"{plain.url}/quick").get_data(as_text=True)
