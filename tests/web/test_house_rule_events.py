"""Issue 8 through the web app: the weol-yak and mission events posted by the live-hand form, and the
new house-rule options on the new-table form and the rules sheet (both generated from the engine)."""

from __future__ import annotations

from scorekeeper.engine.rules import CHOICE_LABELS, OPTIONS

PARTIAL = {"X-Partial": "1"}
NEW_OPTIONS = ("meong_bak_five", "shake_bomb_once", "reverse_go", "meong_dda_per_animal", "chongtong_zero_still_wins")


def post(client, table, hand, seq, **fields):
    return client.post(f"{table.url}/hands/{hand}/events", data={"seq": seq} | fields, headers=PARTIAL)


def test_weol_yak_and_mission_posted_through_the_event_form(make_table, client):
    t = make_table(rules={"preset": "pagat", "options": {"weol_yak": True, "missions": True}})
    t.enter()
    hand = t.start_live()
    assert post(client, t, hand, 0, type="mission", multiplier="3").status_code == 200
    assert post(client, t, hand, 1, type="end_turn").status_code == 200  # A
    assert post(client, t, hand, 2, type="capture", player="B", cards=["2a", "2r", "2j1", "2j2"]).status_code == 200
    assert post(client, t, hand, 3, type="weol_yak", player="B").status_code == 200
    events = t.api("GET", f"/hands/{hand}/events").get_json()["events"]
    assert {"type": "mission", "multiplier": 3}.items() <= events[0].items()
    assert {"type": "weol_yak", "player": "B"}.items() <= events[3].items()
    for seq, fields in enumerate(
        [
            {"type": "end_turn"},
            {"type": "end_turn"},
            {"type": "end_turn"},
            {"type": "capture", "player": "B", "cards": ["1r", "1j1", "3r", "3j1"]},
            {"type": "end_turn"},
            {"type": "stop", "player": "B"},
        ],
        start=4,
    ):
        assert post(client, t, hand, seq, **fields).status_code == 200, fields
    result = t.api("GET", f"/hands/{hand}").get_json()["result"]
    assert {(p["from"], p["points"]) for p in result["payments"]} == {("A", 36), ("C", 36)}  # 3 × 4 × 3


def test_weol_yak_refused_through_the_form_changes_nothing(make_table, client):
    t = make_table(rules={"preset": "pagat", "options": {"weol_yak": True}})
    t.enter()
    hand = t.start_live()
    r = post(client, t, hand, 0, type="weol_yak", player="A")
    assert r.status_code == 422 and b'class="refusal"' in r.data
    assert t.api("GET", f"/hands/{hand}/events").get_json()["seq"] == 0


def test_mission_multiplier_out_of_range_is_a_form_error(table, client):
    hand = table.start_live()
    assert post(client, table, hand, 0, type="mission", multiplier="12").status_code == 400
    assert table.api("GET", f"/hands/{hand}/events").get_json()["seq"] == 0


def test_new_options_on_the_new_table_form_and_the_rules_sheet(make_table, client):
    html = client.get("/new").get_data(as_text=True)
    for name in NEW_OPTIONS:
        assert f'name="opt_{name}"' in html and OPTIONS[name].metadata["ko"] in html
    for choice in ("dok_bak_doubled", "times_players"):
        assert f'value="{choice}"' in html and CHOICE_LABELS[choice].split(" · ")[0] in html
    t = make_table(rules={"preset": "pagat", "options": {"reverse_go": 4, "go_bak_three_players": "times_players"}})
    t.enter()
    sheet = client.get(f"{t.url}/rules").get_data(as_text=True)
    assert sheet.count('class="changed"') == 2
    for name in NEW_OPTIONS:
        assert OPTIONS[name].metadata["ko"] in sheet
