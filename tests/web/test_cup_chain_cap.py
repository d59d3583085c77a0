"""The ppuk chain (`ppuk_chain`, `three_consecutive_ppuk`) and the cap per player (`payment_cap_per`)
through the web app: on the new-table form and the rules sheet (both generated from the engine) with
their readings in both languages, Hangame's 49 played live through the event form, 삼연뻑 on the quick
entry, and a capped payment's trail showing the amount before the cap."""

from __future__ import annotations

import pytest

from scorekeeper.engine.rules import CHOICE_LABELS, OPTIONS
from scorekeeper.web.catalogue.messages import MESSAGES

PARTIAL = {"X-Partial": "1"}
NEW_OPTIONS = ("ppuk_chain", "three_consecutive_ppuk", "payment_cap_per")
NEW_CHOICES = ("replace", "each", "share", "player")
HANGAME = {
    "first_turn_ppuk": 7,
    "consecutive_ppuk": 14,
    "three_consecutive_ppuk": 21,
    "ppuk_chain": "each",
    "three_ppuk": 7,
}


def post(client, table, hand, seq, **fields):
    return client.post(f"{table.url}/hands/{hand}/events", data={"seq": seq} | fields, headers=PARTIAL)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_new_options_on_the_new_table_form_and_the_rules_sheet(make_table, client, lang):
    client.get(f"/lang/{lang}")
    words = 0 if lang == "ko" else 1
    html = client.get("/new").get_data(as_text=True)
    for name in NEW_OPTIONS:
        label = OPTIONS[name].metadata[lang]
        assert f'name="opt_{name}"' in html and label.split(" (")[0] in html
    for choice in NEW_CHOICES:
        assert f'value="{choice}"' in html and MESSAGES[f"choice_{choice}"][words] in html
    t = make_table(rules={"preset": "pagat", "options": HANGAME | {"payment_cap": 100, "payment_cap_per": "player"}})
    t.enter()
    sheet = client.get(f"{t.url}/rules").get_data(as_text=True)
    for name in NEW_OPTIONS:
        assert OPTIONS[name].metadata[lang].split(" (")[0] in sheet
    for choice in ("each", "player"):  # the table's values, as the sheet reads them
        assert MESSAGES[f"choice_{choice}"][words] in sheet


def test_the_catalogue_reads_each_new_choice_as_the_engine_does():
    for choice in NEW_CHOICES:
        ko, en = MESSAGES[f"choice_{choice}"]
        assert ko in CHOICE_LABELS[choice] and en.split(" (")[0] in CHOICE_LABELS[choice]


def test_hangames_forty_nine_played_live_through_the_event_form(make_table, client):
    t = make_table(players=("A", "B"), rules={"preset": "pagat", "options": HANGAME})
    t.enter()
    hand = t.start_live()
    taps = [
        {"type": "ppuk", "player": "A"},
        {"type": "end_turn"},
        {"type": "end_turn"},
        {"type": "ppuk", "player": "A"},
        {"type": "end_turn"},
        {"type": "end_turn"},
    ]
    said = {}
    for seq, fields in enumerate(taps):
        r = post(client, t, hand, seq, **fields)
        assert r.status_code == 200, fields
        said[seq] = r.get_data(as_text=True)
    # The log says what each link pays as it happens: 첫뻑 7, then 연뻑 14.
    assert "첫뻑: 나머지가 각자 7점씩" in said[0] and "연뻑: 나머지가 각자 14점씩" in said[3]
    last = post(client, t, hand, len(taps), type="ppuk", player="A")
    assert last.status_code == 200
    body = t.api("GET", f"/hands/{hand}").get_json()
    assert body["result"]["net"] == {"A": 49, "B": -49}
    kinds = sorted((p["kind"], p["points"]) for p in body["result"]["payments"])
    assert kinds == [
        ("consecutive_ppuk", 14),
        ("first_turn_ppuk", 7),
        ("three_consecutive_ppuk", 21),
        ("three_ppuk", 7),
    ]
    page = client.get(f"{t.url}/hands/{hand}").get_data(as_text=True)
    assert "삼연뻑" in page


def test_three_consecutive_ppuk_on_the_quick_entry(make_table, client):
    t = make_table(players=("A", "B"), rules={"preset": "pagat", "options": HANGAME})
    t.enter()
    html = client.get(f"{t.url}/quick").get_data(as_text=True)
    assert 'value="three_consecutive_ppuk"' in html and "삼연뻑" in html
    data = {
        "outcome": "three_ppuk",
        "winner": "A",
        "entries-0-junk": "0",
        "entries-1-junk": "0",
        "entries-0-fixed": ["first_turn_ppuk", "consecutive_ppuk", "three_consecutive_ppuk"],
        "mission": "1",
        "action": "save",
    }
    r = client.post(f"{t.url}/quick", data=data)
    assert r.status_code in (200, 303), r.get_data(as_text=True)[:500]
    hand = t.api("GET", "/hands").get_json()["hands"][-1]["id"]
    assert t.api("GET", f"/hands/{hand}").get_json()["result"]["net"] == {"A": 49, "B": -49}
    plain = make_table()
    plain.enter()
    assert 'value="three_consecutive_ppuk"' not in client.get(f"{plain.url}/quick").get_data(as_text=True)


CAP_TAPS = [
    {"type": "end_turn"},
    {"type": "capture", "player": "B", "cards": ["1r", "2r", "3r"]},
    {"type": "end_turn"},
    {"type": "go", "player": "B"},
    {"type": "end_turn"},
    {
        "type": "capture",
        "player": "A",
        "cards": [
            *["1j1", "1j2", "2j1", "2j2", "3j1", "3j2", "4j1", "4j2", "5j1", "5j2", "6j1", "6j2"],
            *["2a", "4a", "5a", "6a", "7a", "10a", "12a"],
        ],
    },
    {"type": "end_turn"},
    {"type": "stop", "player": "A"},
]  # B, go-bak, owes 24 + 24 = 48 (6 points × pi-bak × meong-dda, each)


@pytest.mark.parametrize(
    ("lang", "shown"),
    [pytest.param("ko", "48 → 20", id="ko"), pytest.param("en", "48 → 20", id="en")],
)
def test_a_capped_payment_shows_the_amount_before_the_cap(make_table, client, lang, shown):
    t = make_table(rules={"preset": "pagat", "options": {"payment_cap": 20, "payment_cap_per": "player"}})
    t.enter()
    client.get(f"/lang/{lang}")
    hand = t.start_live()
    for seq, fields in enumerate(CAP_TAPS):
        assert post(client, t, hand, seq, **fields).status_code == 200, fields
    result = t.api("GET", f"/hands/{hand}").get_json()["result"]
    assert [(p["from"], p["points"]) for p in result["payments"]] == [("B", 20)]
    assert result["payments"][0]["trail"][-1]["before"] == 48
    page = client.get(f"{t.url}/hands/{hand}").get_data(as_text=True)
    cap = page[page.index(MESSAGES["step_payment_cap"][0 if lang == "ko" else 1]) :]
    assert shown in cap[:300]
    csv = client.get(f"{t.url}/export.csv").get_data(as_text=True)
    assert shown in csv
