"""The live hand's rough edges of issue 20 that the page's HTML shows (the browser ones: tests/e2e)."""

from __future__ import annotations

import re

from .conftest import seq_of  # noqa: F401


def piles_sheet(html: str) -> str:
    return html[html.index('id="piles"') : html.index('id="log"') if 'id="log"' in html else None]


def test_the_piles_count_the_junk_as_the_score_does_and_speak_one_language(table, client):
    """Rough edge 4: 먹은 패 said "피 2" (cards) where the score said 피3 (쌍피 = 2), and in Korean
    mode "삼광 three brights 3"."""
    hand = table.start_live()
    table.append(hand, [{"type": "capture", "player": "A", "cards": ["1g", "3g", "8g", "11jd", "1j1"]}])
    sheet = piles_sheet(client.get(f"{table.url}/hands/{hand}").get_data(as_text=True))
    junk = re.search(r'data-kind="junk"><span class="kind">([^<]*)(<small>[^<]*</small>)?', sheet)
    assert junk.group(1).split() == ["피", "3"] and "2장" in junk.group(2)
    assert "삼광 3" in sheet and "three brights" not in sheet


def test_a_first_turn_ppuk_says_that_it_pays_when_it_is_tapped(table, client):
    """Rough edge 9: a first-turn 뻑 confirmed "지영: 뻑" with no word that it pays 3 from each."""
    hand = table.start_live()
    table.append(hand, [{"type": "ppuk", "player": "A"}])
    html = client.get(f"{table.url}/hands/{hand}").get_data(as_text=True)
    line = re.search(r"data-last-line>([^<]*)<", html).group(1)
    assert "A: 뻑" in line and "첫뻑" in line and "각자 3점씩" in line
    # Not said again with the next event.
    table.append(hand, [{"type": "capture", "player": "A", "cards": ["1j1"]}], start=1)
    html = client.get(f"{table.url}/hands/{hand}").get_data(as_text=True)
    assert "첫뻑" not in re.search(r"data-last-line>([^<]*)<", html).group(1)


PARTIAL = {"X-Partial": "1"}


def give_table(table):
    hand = table.start_live()
    table.append(
        hand,
        [
            {"type": "capture", "player": "B", "cards": ["1j1", "11jd", "1g"]},
            {"type": "capture", "player": "C", "cards": ["2j1"]},
            {"type": "take_junk", "player": "A", "reason": "sseul"},
        ],
    )
    return hand


def test_the_giver_names_the_junk_handed_over_the_cheapest_by_default(table, client):
    """Rough edge 3: the app moved the cheapest junk, so the screen's piles stopped matching."""
    hand = give_table(table)
    page = client.get(f"{table.url}/hands/{hand}").get_data(as_text=True)
    assert 'id="give"' in page and 'data-give-card="11jd"' in page and 'data-give-card="1g"' not in page
    assert re.search(r'value="1j1" data-give-card="1j1" class="[^"]* given"', page)  # the default: the cheapest
    r = client.post(f"{table.url}/hands/{hand}/give", data={"seq": 3, "giver": "B", "card": "11jd"}, headers=PARTIAL)
    assert r.status_code == 200
    log = table.api("GET", f"/hands/{hand}/events").get_json()
    assert len(log["events"]) == 3
    assert log["events"][-1] == {
        "type": "take_junk",
        "player": "A",
        "reason": "sseul",
        "give": {"B": ["11jd"], "C": ["2j1"]},
    }
    players = {p["name"]: p for p in log["state"]["players"]}
    assert "11jd" in players["A"]["captures"]["junk"] and "1j1" in players["B"]["captures"]["junk"]


def test_naming_a_card_that_is_not_junk_or_on_a_stale_page_changes_nothing(table, client):
    hand = give_table(table)
    before = table.api("GET", f"/hands/{hand}/events").get_json()["events"]
    assert (
        client.post(
            f"{table.url}/hands/{hand}/give", data={"seq": 3, "giver": "B", "card": "1g"}, headers=PARTIAL
        ).status_code
        == 422
    )
    assert (
        client.post(
            f"{table.url}/hands/{hand}/give", data={"seq": 2, "giver": "B", "card": "11jd"}, headers=PARTIAL
        ).status_code
        == 409
    )
    assert (
        client.post(
            f"{table.url}/hands/{hand}/give", data={"seq": 3, "giver": "Z", "card": "11jd"}, headers=PARTIAL
        ).status_code
        == 409
    )
    assert table.api("GET", f"/hands/{hand}/events").get_json()["events"] == before


def test_english_mode_card_faces_speak_english(table, client):
    """Rough edge 6: in English mode the faces read 꾀꼬리, 두견새, 홍단, 쌍피."""
    hand = table.start_live()
    client.get("/lang/en?next=/")
    page = client.get(f"{table.url}/hands/{hand}").get_data(as_text=True)
    picker = page[page.index('class="picker"') :]
    marks = re.findall(r'<span class="mk" lang="(\w+)">([^<]*)</span>', picker)
    assert marks and all(lang == "en" for lang, _ in marks)
    words = {w for _, w in marks}
    assert {"Bright", "Bird", "Red", "Double", "Junk"} <= words
    client.get("/lang/ko?next=/")
    page = client.get(f"{table.url}/hands/{hand}").get_data(as_text=True)
    assert '<span class="mk" lang="ko">꾀꼬리</span>' in page


def test_equal_balances_draw_lines_that_stay_apart():
    """Rough edge 10: two equal balances drew one line over the other in the chart."""
    from scorekeeper.web.views.chart import balance_chart

    chart = balance_chart(
        ["A", "B", "C"], {"A": "p0", "B": "p1", "C": "p2"}, [{"A": 10, "B": -5, "C": -5}, {"A": 20, "B": -10, "C": -10}]
    )
    lines = {line.player: line.points for line in chart.lines}
    assert lines["B"] != lines["C"] and len({lines["A"], lines["B"], lines["C"]}) == 3


def test_a_forced_sitters_line_says_who_pays(make_table, client):
    """Rough edge 7: "광팔기 D: 한 사람당 4점" did not say who pays (the players but the dealer)."""
    t = make_table(players=("A", "B", "C", "D"))
    t.enter()
    r = client.post(f"{t.url}/hands?c1=play&c2=play&chosen=1", data={"count": "0", "sitters-0-cards": ["1g", "11jd"]})
    hand = int(r.headers["Location"].rsplit("/", 1)[1])
    page = client.get(f"{t.url}/hands/{hand}").get_data(as_text=True)
    line = re.search(r'<p class="claims">([^<]*)</p>', page).group(1)
    assert "B, C" in line and "A" not in line.replace("광팔기", "") and "4점" in line


def test_a_ppuk_asks_its_month_or_none(table, client):
    """Rough edge 9: a 뻑's month was never asked, so its later 뻑 먹기 could not be tied to it."""
    hand = table.start_live()
    page = client.get(f"{table.url}/hands/{hand}").get_data(as_text=True)
    sheet = page[page.index('id="ev-ppuk"') : page.index('id="ev-shake"')]
    assert sheet.count('name="month"') == 12 and "data-ppuk-no-month" in sheet
    client.post(f"{table.url}/hands/{hand}/events", data={"seq": 0, "type": "ppuk", "player": "A", "month": "3"})
    client.post(f"{table.url}/hands/{hand}/events", data={"seq": 1, "type": "ppuk", "player": "A"})
    events = table.api("GET", f"/hands/{hand}/events").get_json()["events"]
    assert events == [{"type": "ppuk", "player": "A", "month": 3}, {"type": "ppuk", "player": "A"}]
