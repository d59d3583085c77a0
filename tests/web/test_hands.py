"""Hands through the web forms: live events, refusals, conflicts, undo, quick entry, edit, delete."""

from __future__ import annotations

import re

import pytest

from .conftest import GO_PIBAK, GO_PIBAK_PAYMENTS, STOP_A, seq_of

PARTIAL = {"X-Partial": "1"}


def post_event(client, table, hand, seq, partial=True, **fields):
    return client.post(
        f"{table.url}/hands/{hand}/events", data={"seq": seq} | fields, headers=PARTIAL if partial else {}
    )


def form_fields(event: dict) -> dict:
    out = {k: v for k, v in event.items() if k != "cards"}
    if "cards" in event:
        out["cards"] = event["cards"]
    return out


def test_start_live_hand_form(table, client):
    r = client.post(f"{table.url}/hands", data={"count": "0"})
    assert r.status_code == 303
    page = client.get(r.headers["Location"])
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert html.count('class="hc ') >= 48 and 'name="cards"' in html
    assert ("A" in html and "turn 1 of 7" in html) or "1/7" in html


def test_whole_hand_live_with_go_and_pi_bak(table, client):
    hand = int(client.post(f"{table.url}/hands", data={"count": "0"}).headers["Location"].rsplit("/", 1)[1])
    for seq, event in enumerate(GO_PIBAK):
        r = post_event(client, table, hand, seq, **form_fields(event))
        assert r.status_code == 200, (event, r.get_data(as_text=True)[:500])
        if event["type"] == "end_turn" and event["player"] == "A":
            assert b'class="prompt"' in r.data  # A must say go or stop
    html = client.get(f"{table.url}/hands/{hand}").get_data(as_text=True)
    for (payer, payee), points in GO_PIBAK_PAYMENTS.items():
        assert f'data-payment="{payer}-{payee}"' in html
        assert re.search(rf'data-payment="{payer}-{payee}">\s*<div>.*?<span class="amount">{points}점 · ', html, re.S)
    assert (
        "피박" in html and "광박" in html and "고 보너스" in html and "pi-bak" not in html
    )  # Korean mode: Korean terms
    assert table.state()["balances"] == {"A": 36, "B": -12, "C": -24}


def test_refusal_is_shown_and_nothing_stored(table, client):
    hand = table.start_live()
    r = post_event(client, table, hand, 0, type="stop", player="A")
    assert r.status_code == 422
    assert b'class="refusal"' in r.data
    assert table.api("GET", f"/hands/{hand}/events").get_json()["seq"] == 0


def test_refusal_without_script_flashes(table, client):
    hand = table.start_live()
    r = post_event(client, table, hand, 0, partial=False, type="stop", player="A")
    assert r.status_code == 303
    page = client.get(r.headers["Location"])
    assert b'class="flash error"' in page.data


def test_stale_append_is_a_conflict(table, client):
    hand = table.start_live()
    table.append(hand, GO_PIBAK[:1])
    r = post_event(client, table, hand, 0, type="end_turn", player="A")
    assert r.status_code == 409
    assert seq_of(r.data) == 1  # the refreshed view carries the current log
    assert table.api("GET", f"/hands/{hand}/events").get_json()["seq"] == 1


def test_stale_tap_naming_no_player_is_a_conflict_too(table, client):
    """A phone with no seat, tapping an event that names no player (nagari), against a log that has
    moved: refused as a conflict like any stale append, not stored as a seat's tap (which lands
    wherever the log stands)."""
    hand = table.start_live()
    table.append(hand, GO_PIBAK[:1])
    r = post_event(client, table, hand, 0, type="nagari")
    assert r.status_code == 409
    assert table.api("GET", f"/hands/{hand}/events").get_json()["seq"] == 1


def test_bad_event_form(table, client):
    hand = table.start_live()
    assert post_event(client, table, hand, 0, type="fly", player="A").status_code == 400
    assert post_event(client, table, hand, 0, type="capture", player="A", cards=["99z"]).status_code == 400
    assert (
        client.post(f"{table.url}/hands/{hand}/events", data={"type": "nagari"}, headers=PARTIAL).status_code == 400
    )  # no seq


def test_undo(table, client):
    hand = table.start_live()
    table.append(hand, GO_PIBAK[:2])
    r = client.post(f"{table.url}/hands/{hand}/undo", data={"seq": 2}, headers=PARTIAL)
    assert r.status_code == 200 and seq_of(r.data) == 1
    assert client.post(f"{table.url}/hands/{hand}/undo", data={"seq": 2}, headers=PARTIAL).status_code == 409
    client.post(f"{table.url}/hands/{hand}/undo", data={"seq": 1}, headers=PARTIAL)
    assert client.post(f"{table.url}/hands/{hand}/undo", data={"seq": 0}, headers=PARTIAL).status_code == 422


def test_undo_reopens_a_finished_hand(table, client):
    hand = table.start_live()
    table.append(hand, GO_PIBAK)
    assert table.state()["played"] == 1
    r = client.post(f"{table.url}/hands/{hand}/undo", data={"seq": len(GO_PIBAK)})
    assert r.status_code == 303
    state = table.state()
    assert state["played"] == 0 and state["live_hand"] == hand


def test_only_the_last_hand_undoes(table, client):
    first = table.start_live()
    table.append(first, [{"type": "nagari"}])
    table.add_summary(STOP_A)
    r = client.post(f"{table.url}/hands/{first}/undo", data={"seq": 1}, headers=PARTIAL)
    assert r.status_code == 409


def test_nagari_then_doubled(table, client):
    hand = table.start_live()
    table.append(hand, [{"type": "nagari"}])
    html = client.get(table.url).get_data(as_text=True)
    assert "×2" in html  # the next hand pays the nagari double
    second = table.add_summary(STOP_A)
    page = client.get(f"{table.url}/hands/{second}").get_data(as_text=True)
    assert "나가리" in page
    payments = table.api("GET", f"/hands/{second}").get_json()["result"]["payments"]
    assert {p["points"] for p in payments} == {12}  # 3 × gwang-bak 2 × nagari 2
    assert any(step.get("factor") == 2 and "nagari" in step["id"] for step in payments[0]["trail"])


QUICK = {
    "outcome": "stop",
    "winner": "A",
    "entries-0-junk": "0",
    "entries-1-junk": "5",
    "entries-2-junk": "0",
    "entries-0-cards": ["1g", "3g", "8g"],
    "count": "0",
}


def test_quick_entry_preview_and_save(table, client):
    page = client.get(f"{table.url}/quick")
    assert page.status_code == 200 and b'id="preview"' in page.data
    r = client.post(f"{table.url}/quick", data=QUICK | {"action": "preview"}, headers=PARTIAL)
    assert r.status_code == 200 and b'id="preview"' in r.data and b"<html" not in r.data
    assert b"6" in r.data and "광박".encode() in r.data  # Korean mode: the Korean term alone
    assert table.state()["played"] == 0  # a preview stores nothing
    r = client.post(f"{table.url}/quick", data=QUICK | {"action": "save"})
    assert r.status_code == 303
    assert table.state()["balances"] == {"A": 12, "B": -6, "C": -6}


def test_quick_entry_refused(table, client):
    data = QUICK | {"entries-1-cards": ["1g"], "action": "save"}
    r = client.post(f"{table.url}/quick", data=data)
    assert r.status_code == 422 and b"card_twice" in r.data
    assert table.state()["played"] == 0


def test_quick_entry_stale_count(table, client):
    table.add_summary(STOP_A)
    r = client.post(f"{table.url}/quick", data=QUICK | {"action": "save", "count": "0"})
    assert r.status_code == 422 and b'data-code="conflict"' in r.data  # the entry stays on screen
    assert table.state()["played"] == 1  # nothing doubled


def test_quick_entry_while_live_hand(table, client):
    table.start_live()
    assert client.get(f"{table.url}/quick").status_code == 303


def test_edit_past_hand(table, client):
    hand = table.add_summary(STOP_A)
    table.add_summary({"captures": {"B": ["1g", "3g", "8g"]}, "outcome": {"type": "stop", "winner": "B"}})
    page = client.get(f"{table.url}/hands/{hand}/edit")
    assert page.status_code == 200 and b'value="1g" checked' in page.data
    version = re.search(rb'name="version"[^>]*value="([^"]+)"', page.data).group(1).decode()
    data = QUICK | {
        "winner": "C",
        "entries-0-cards": [],
        "entries-2-cards": ["1g", "3g", "8g"],
        "action": "save",
        "version": version,
    }
    r = client.post(f"{table.url}/hands/{hand}/edit", data=data)
    assert r.status_code == 303, r.get_data(as_text=True)[-800:]
    state = table.state()
    assert state["balances"] == {"A": -12, "B": 6, "C": 6}
    assert state["hands"][1]["deal"]["dealer"] == "C"  # the next dealer follows the edited winner


def test_edit_live_hand_redirects(table, client):
    hand = table.start_live()
    assert client.get(f"{table.url}/hands/{hand}/edit").status_code == 303


def test_delete_hand(table, client):
    hand = table.add_summary(STOP_A)
    assert client.post(f"{table.url}/hands/{hand}/delete").status_code == 303  # not confirmed
    assert table.state()["played"] == 1
    version = (
        re.search(rb'name="version" value="([^"]+)"', client.get(f"{table.url}/hands/{hand}").data).group(1).decode()
    )
    r = client.post(f"{table.url}/hands/{hand}/delete", data={"confirm": "y", "version": version})
    assert r.status_code == 303 and table.state()["played"] == 0


def test_unknown_hand(table, client):
    assert client.get(f"{table.url}/hands/999").status_code == 404


def test_read_only_cannot_change_anything(make_table, client):
    t = make_table()
    hand = t.start_live()
    t.enter(t.view_key)
    for path, data in [
        ("/hands", {"count": "0"}),
        (f"/hands/{hand}/events", {"seq": 0, "type": "nagari"}),
        (f"/hands/{hand}/undo", {"seq": 0}),
        ("/quick", QUICK),
        (f"/hands/{hand}/delete", {"confirm": "y"}),
        (f"/hands/{hand}/edit", QUICK),
    ]:
        assert client.post(f"{t.url}{path}", data=data).status_code == 403, path
    assert client.get(f"{t.url}/hands/new").status_code == 403
    assert t.api("GET", f"/hands/{hand}/events").get_json()["seq"] == 0
    page = client.get(f"{t.url}/hands/{hand}").get_data(as_text=True)
    assert 'name="cards"' not in page  # no picker for a viewer


def test_gwangpalli_hand(make_table, client):
    t = make_table(players=("A", "B", "C", "D"))
    t.enter()
    page = client.get(f"{t.url}/hands/new?mode=live")
    assert page.status_code == 200 and b'name="c1"' in page.data
    chosen = client.get(f"{t.url}/hands/new", query_string={"mode": "live", "chosen": "1", "c1": "play", "c2": "play"})
    assert chosen.status_code == 200 and b'name="sitters-0-cards"' in chosen.data
    r = client.post(f"{t.url}/hands?c1=play&c2=play&chosen=1", data={"count": "0", "sitters-0-cards": ["1g", "11jd"]})
    assert r.status_code == 303, r.headers
    hand = int(r.headers["Location"].rsplit("/", 1)[1])
    t.append(hand, [{"type": "nagari"}])
    state = t.state()
    assert state["hands"][0]["deal"]["sitting"] == {"D": "forced"}
    assert {(e["from"], e["to"], e["points"]) for e in state["ledger"]} == {("B", "D", 4), ("C", "D", 4)}


def test_gwangpalli_bad_choice(make_table, client):
    t = make_table(players=("A", "B", "C", "D"))
    t.enter()
    r = client.get(f"{t.url}/hands/new", query_string={"mode": "live", "chosen": "1", "c1": "sit", "c2": "sit"})
    assert r.status_code == 422 and b'class="refusal"' in r.data


def test_gwangpalli_quick_entry(make_table, client):
    t = make_table(players=("A", "B", "C", "D"))
    t.enter()
    r = client.get(f"{t.url}/hands/new", query_string={"mode": "quick", "chosen": "1", "c1": "play", "c2": "play"})
    assert r.status_code == 302 and "/quick" in r.headers["Location"]
    url = r.headers["Location"]
    page = client.get(url)
    assert page.status_code == 200 and b'name="sitters-0-cards"' in page.data
    data = QUICK | {"sitters-0-cards": ["12g"], "action": "save"}
    data["entries-0-cards"] = ["1g", "3g", "8g"]
    assert client.post(url, data=data).status_code == 303
    ledger = t.state()["ledger"]
    assert not [e for e in ledger if e["kind"] == "gwangpalli"]  # a lone rain bright with four is not paid


@pytest.mark.parametrize("path", ["/hands/1", "/hands/new", "/quick"])
def test_hand_pages_need_access(make_table, client, path):
    t = make_table()
    assert client.get(f"{t.url}{path}").status_code == 401


def test_showdown_offer_asks_the_right_hand_player(table, client):
    """The showdown prompt: answer buttons for the player who must answer, as live appends."""
    hand = int(client.post(f"{table.url}/hands", data={"count": "0"}).headers["Location"].rsplit("/", 1)[1])
    r = post_event(client, table, hand, 0, type="showdown_offer", player="A")
    assert r.status_code == 200, r.get_data(as_text=True)[:500]
    html = client.get(f"{table.url}/hands/{hand}").get_data(as_text=True)
    assert 'name="type" value="showdown_accept"' in html and 'name="type" value="showdown_refuse"' in html
    assert re.search(r'name="player" value="[^"]+"', html.split('value="showdown_accept"')[1])
