"""Issue 22 through the web app: the new options on the new-table form and the rules sheet (both
generated from the engine), and a capped stop shown with its cap step."""
from __future__ import annotations

from scorekeeper.engine.rules import CHOICE_LABELS, OPTIONS

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
    steps = [{"type": "capture", "player": "A", "cards": ["1g", "3g", "8g", "2a", "4a", "5a", "6a", "7a", "10a", "12a"]},
             {"type": "end_turn"}, {"type": "stop", "player": "A"}]
    for seq, fields in enumerate(steps):
        assert post(client, t, hand, seq, **fields).status_code == 200, fields
    result = t.api("GET", f"/hands/{hand}").get_json()["result"]
    assert {(p["from"], p["points"]) for p in result["payments"]} == {("B", 10), ("C", 10)}
    assert result["payments"][0]["trail"][-1]["id"] == "payment_cap"
    page = client.get(f"{t.url}/hands/{hand}").get_data(as_text=True)
    assert "상한가" in page or "payment cap" in page
