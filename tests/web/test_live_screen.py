"""Issue 12, the live hand at a real table: what one tap costs, what the screen says, on the wire."""

from __future__ import annotations

import gzip
import re

from benchmarks.scripted_hand import PLAYERS, PRESET, events

PARTIAL = {"X-Partial": "1"}
TAP_BUDGET = 4 * 1024  # a typical tap's answer, compressed


def scripted_table(make_table):
    t = make_table(players=tuple(PLAYERS), rules={"preset": PRESET})
    t.enter()
    return t


def test_a_tap_answers_the_changed_region_only_under_4kb_compressed(make_table, client):
    """Wire: the answer to a card tap in the middle of the hand is the region, compressed, ≤ 4 KB."""
    t = scripted_table(make_table)
    hand = t.start_live()
    log = events()
    half = len(log) // 2
    t.append(hand, log[:half])
    card = next(e for e in log[half:] if e["type"] == "capture")["cards"][0]
    player = next(e for e in log[half:] if e["type"] == "capture")["player"]
    r = client.post(
        f"{t.url}/hands/{hand}/events",
        data={"seq": half, "type": "capture", "player": player, "cards": card},
        headers=PARTIAL | {"Accept-Encoding": "gzip"},
    )
    assert r.status_code == 200 and r.headers.get("Content-Encoding") == "gzip"
    html = gzip.decompress(r.data).decode()
    assert 'id="region"' in html and "data-card=" not in html  # the 48 cards stay on the page
    assert f'"{card}": ["{player}"' in html.replace("&#34;", '"')  # the region says who took the card
    print("tap answer", len(r.data), "bytes compressed,", len(html), "uncompressed")
    assert len(r.data) <= TAP_BUDGET


def test_static_assets_are_immutable_under_content_digests_and_compressed(table, client):
    page = client.get(table.url, headers={"Accept-Encoding": "br, gzip"})
    assert page.headers.get("Content-Encoding") in ("br", "gzip")
    html = client.get(table.url).get_data(as_text=True)
    assets = re.findall(r'(?:href|src)="(/static/app\.(?:js|css)\?v=([0-9a-f]{12}))"', html)
    assert {a.split("?")[0] for a, _ in assets} == {"/static/app.js", "/static/app.css"}
    for url, _digest in assets:
        r = client.get(url, headers={"Accept-Encoding": "gzip"})
        assert r.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert r.headers.get("Content-Encoding") == "gzip"
        stale = client.get(url.split("?")[0] + "?v=000000000000")
        assert "immutable" not in stale.headers["Cache-Control"]  # an old digest is never kept


def test_json_answers_are_compressed(table, client):
    hand = table.start_live()
    r = table.api("GET", f"/hands/{hand}/events", headers={"Accept-Encoding": "gzip"})
    assert r.headers.get("Content-Encoding") in (None, "gzip")  # tiny answers may stay plain
    r = table.api("GET", "", headers={"Accept-Encoding": "gzip"})
    assert r.headers.get("Content-Encoding") == "gzip"


def test_one_tap_controls(table, client):
    """Each card is its own button (no second tap to say who); frequent events one tap each."""
    hand = table.start_live()
    html = client.get(f"{table.url}/hands/{hand}").get_data(as_text=True)
    from scorekeeper.engine.cards import DECK

    buttons = set(re.findall(r'<button type="submit" name="cards" value="([^"]+)" data-card=', html))
    assert {c.code for c in DECK} <= buttons  # the 48 (and the bonus cards the rules deal)
    for reason in ("sseul", "ttadak", "chok", "ppuk", "ja_ppuk"):
        assert f'data-junk="{reason}"' in html
    assert 'data-event="ppuk"' in html
    for kind in ("shake", "bomb"):
        sheet = re.search(rf'<details id="ev-{kind}".*?</details>', html, re.S).group(0)
        assert len(re.findall(r'name="month" value="\d+"', sheet)) == 12
    assert 'id="more-events"' in html and 'id="piles"' in html
    assert "data-end-turn" in html


def test_end_of_turn_is_go_or_stop_for_a_player_at_the_target(table, client):
    """The End turn bar of a player who reached the target says Go and Stop: one tap, two events."""
    hand = table.start_live()
    table.append(hand, [{"type": "capture", "player": "A", "cards": ["1g", "3g", "8g"]}])
    html = client.get(f"{table.url}/hands/{hand}").get_data(as_text=True)
    assert 'data-decide="go"' in html and 'data-decide="stop"' in html
    assert re.search(r"<form[^>]*data-end-turn-form[^>]* hidden", html)
    r = client.post(
        f"{table.url}/hands/{hand}/events",
        headers=PARTIAL,
        data={"seq": 1, "type": "end_turn", "player": "A", "then": "go"},
    )
    assert r.status_code == 200
    log = table.api("GET", f"/hands/{hand}/events").get_json()["events"]
    assert [e["type"] for e in log] == ["capture", "end_turn", "go"]


def test_then_is_ignored_when_the_engine_does_not_ask(table, client):
    hand = table.start_live()
    r = client.post(
        f"{table.url}/hands/{hand}/events",
        headers=PARTIAL,
        data={"seq": 0, "type": "end_turn", "player": "A", "then": "stop"},
    )
    assert r.status_code == 200
    assert [e["type"] for e in table.api("GET", f"/hands/{hand}/events").get_json()["events"]] == ["end_turn"]


def test_live_scores_show_the_baks_threatened_and_the_cup(make_table, client):
    """RULES: if the leader stopped now, who pays 피박/광박, who escapes pi-bak, how 9a counts."""
    t = scripted_table(make_table)
    hand = t.start_live()
    log = events()
    t.append(hand, log[:-3])  # Jun (four brights, a go) is about to stop
    html = client.get(f"{t.url}/hands/{hand}").get_data(as_text=True)
    mina = re.search(r'<div class="score [^"]*" data-player="Mina">.*?</div>\s*</div>', html, re.S).group(0)
    hana = re.search(r'<div class="score [^"]*" data-player="Hana">.*?</div>\s*</div>', html, re.S).group(0)
    assert 'data-bak="pi_bak"' in mina and 'data-bak="gwang_bak"' in mina
    assert 'data-bak="gwang_bak"' in hana and 'data-bak="pi_bak"' not in hana
    assert "escapes pi-bak" in hana or "피박 면함" in hana
    assert "9a" in hana or "국진" in hana


def test_a_second_phone_starting_the_same_hand_joins_it(table, client):
    first = client.post(f"{table.url}/hands", data={"count": "0"})
    second = client.post(f"{table.url}/hands", data={"count": "0"})
    assert second.status_code == 303 and second.headers["Location"] == first.headers["Location"]
    page = client.get(second.headers["Location"]).get_data(as_text=True)
    assert "다른 폰이 이 판을 이미 시작했습니다" in page or "Another phone has started this hand" in page


def test_shown_cards_are_distinct_and_cannot_be_captured(make_table, client):
    """rules.md §10: a forced sitter's shown cards are out of play; the sitter's pay shows at once."""
    t = make_table(players=("A", "B", "C", "D"))
    t.enter()
    r = client.post(f"{t.url}/hands?c1=play&c2=play&chosen=1", data={"count": "0", "sitters-0-cards": ["1g", "11jd"]})
    hand = int(r.headers["Location"].rsplit("/", 1)[1])
    html = client.get(f"{t.url}/hands/{hand}").get_data(as_text=True)
    card = re.search(r'<button[^>]*data-card="1g"[^>]*>', html).group(0)
    assert "shown" in card and "disabled" in card and "taken" in card
    assert "광팔기 D" in html  # the sitter's compensation, during the hand
    r = client.post(
        f"{t.url}/hands/{hand}/events",
        headers=PARTIAL,
        data={"seq": 0, "type": "capture", "player": "A", "cards": "1g"},
    )
    assert r.status_code == 422 and b'class="refusal"' in r.data
    assert t.api("GET", f"/hands/{hand}/events").get_json()["seq"] == 0


def test_the_result_says_why_a_loser_escapes_or_pays_pi_bak(make_table, client):
    """RULES: Hana escapes pi-bak with 7 junk, Mina pays it with 4 of 6; the result says so."""
    t = scripted_table(make_table)
    hand = t.start_live()
    t.append(hand, events())
    html = client.get(f"{t.url}/hands/{hand}").get_data(as_text=True)
    mina = re.search(r'data-pi-why="Mina">.*?</span></span>', html, re.S).group(0)
    hana = re.search(r'data-pi-why="Hana">.*?</span></span>', html, re.S).group(0)
    assert "4/6" in mina and ("피박" in mina or "pi-bak" in mina)
    assert "7" in hana and ("면함" in hana or "escapes" in hana)
    assert "국진" in hana or "sake cup" in hana


def test_shown_cards_can_be_corrected_during_the_hand(make_table, client):
    """A sitter's shown cards are corrected after the start; never to a card already captured."""
    t = make_table(players=("A", "B", "C", "D"))
    t.enter()
    r = client.post(f"{t.url}/hands?c1=play&c2=play&chosen=1", data={"count": "0", "sitters-0-cards": ["1g"]})
    hand = int(r.headers["Location"].rsplit("/", 1)[1])
    page = client.get(f"{t.url}/hands/{hand}").get_data(as_text=True)
    assert f'action="/t/{t.id}/hands/{hand}/shown"' in page
    t.append(hand, [{"type": "capture", "player": "A", "cards": ["3g"]}])
    refused = client.post(f"{t.url}/hands/{hand}/shown", data={"sitters-0-cards": ["1g", "3g"]})
    assert refused.status_code == 303
    assert t.api("GET", f"/hands/{hand}").get_json().get("shown") == {"D": {"cards": ["1g"], "shake": False}}
    fixed = client.post(f"{t.url}/hands/{hand}/shown", data={"sitters-0-cards": ["1g", "11jd"]})
    assert fixed.status_code == 303
    html = client.get(f"{t.url}/hands/{hand}").get_data(as_text=True)
    assert "shown" in re.search(r'<button[^>]*data-card="11jd"[^>]*>', html).group(0)
    assert "광팔기 D: 선 말고 치는 B, C가 각자 4점씩" in html or "광팔기 D: 4 pt from each of B, C" in html


def test_the_tables_standings_show_the_sitters_pay_during_the_hand(make_table, client):
    t = make_table(players=("A", "B", "C", "D"))
    t.enter()
    client.post(f"{t.url}/hands?c1=play&c2=play&chosen=1", data={"count": "0", "sitters-0-cards": ["1g", "11jd"]})
    html = client.get(t.url).get_data(as_text=True)
    assert "광팔기 D: 선 말고 치는 B, C가 각자 4점씩" in html or "광팔기 D: 4 pt from each of B, C" in html
