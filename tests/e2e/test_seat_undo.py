"""A seated phone acts for its own player (issue 28), in the browser, in Korean and English:
its ↶ takes back its own player's last event and says which; another player's only after a
question naming it; the go/stop buttons on the asked player's phone, the others showing who is
deciding. The question and the waiting state are kept as screenshots (390×844) in /tmp/shots28a.
"""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

from .test_seats import make_table, seat_phones, start, stored

SHOTS = Path("/tmp/shots28a")
PLAYERS = ("민수", "현우", "지영")
WORDS = {
    "ko-KR": {"undone": "되돌림: 민수: ", "ask": "다른 사람의 기록입니다", "deciding": "민수: 고/스톱을 정하는 중"},
    "en-US": {"undone": "Undone: 민수: ", "ask": "another player's record", "deciding": "민수 is deciding: go or stop"},
}


def append(base: str, created: dict, hand: int, seq: int, event: dict) -> None:
    body = json.dumps({"seq": seq, "event": event}).encode()
    request = urllib.request.Request(
        f"{base}/api/v1/tables/{created['id']}/hands/{hand}/events",
        body,
        {"Content-Type": "application/json", "X-Table-Key": created["edit_key"]},
    )
    urllib.request.urlopen(request, timeout=5)


def owner(page, code: str):
    return page.locator(f".picker [data-card='{code}'] .owner")


def shot(page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


@pytest.mark.parametrize("locale", ["ko-KR", "en-US"])
def test_a_seated_undo_takes_back_its_players_card_and_asks_before_anothers(new_context, live_server, locale):
    words = WORDS[locale]
    created = make_table(live_server, PLAYERS, "korean-common")
    phones = seat_phones(new_context, live_server, created, PLAYERS, locale=locale)
    hand = start(phones, "민수")
    minsu, hyunwoo, jiyoung = (phones[p] for p in PLAYERS)
    minsu.locator(".picker [data-card='1j1']").click()
    expect(owner(minsu, "1j1")).to_have_text("민수")
    minsu.locator(".picker [data-card='9a']").click()  # the mistake
    expect(owner(hyunwoo, "9a")).to_have_text("민수")
    hyunwoo.locator(".picker [data-card='6j1']").click()  # 민수's turn ends before it
    expect(owner(minsu, "6j1")).to_have_text("현우")
    minsu.locator(".turn-actions button.undo").click()
    expect(minsu.locator("[data-last-line]")).to_contain_text(words["undone"])
    shot(minsu, f"seated-undo-said-{locale[:2]}")
    expect(owner(minsu, "9a")).to_have_text("")
    expect(owner(minsu, "6j1")).to_have_text("현우")  # 현우's card stays
    assert [e.get("cards") for e in stored(live_server, created, hand)] == [["1j1"], None, ["6j1"]]

    # 지영 has recorded nothing: the table's last event (현우's) is asked about, naming it.
    expect(jiyoung.locator(".turn-actions button.undo")).to_be_hidden()
    jiyoung.locator("#piles > summary").click()
    jiyoung.locator("[data-takeback-last] button").click()
    question = jiyoung.locator("[data-takeback]")
    expect(question).to_contain_text(words["ask"])
    expect(question).to_contain_text("현우")
    shot(jiyoung, f"seated-undo-question-{locale[:2]}")
    assert len(stored(live_server, created, hand)) == 3  # asked: nothing taken back yet
    jiyoung.locator("[data-takeback-yes]").click()
    expect(owner(jiyoung, "6j1")).to_have_text("")
    assert [e.get("cards") for e in stored(live_server, created, hand)] == [["1j1"], None]


@pytest.mark.parametrize("locale", ["ko-KR", "en-US"])
def test_only_the_asked_players_phone_answers_go_or_stop(new_context, live_server, locale):
    words = WORDS[locale]
    created = make_table(live_server, PLAYERS, "pagat")
    phones = seat_phones(new_context, live_server, created, PLAYERS, locale=locale)
    hand = start(phones, "민수")
    minsu, hyunwoo = phones["민수"], phones["현우"]
    for code in ("1g", "3g", "8g"):  # 민수 reaches the target
        minsu.locator(f".picker [data-card='{code}']").click()
        expect(owner(minsu, code)).to_have_text("민수")
    expect(minsu.locator("#region")).to_have_attribute("data-seq", "3")  # stored, not only shown taken
    append(live_server, created, hand, 3, {"type": "end_turn", "player": "민수"})  # 민수 is asked
    expect(minsu.locator(".prompt button.go")).to_be_visible()
    prompt = hyunwoo.locator(".prompt.deciding")
    expect(prompt).to_contain_text(words["deciding"])
    expect(hyunwoo.locator(".prompt button.go")).to_be_hidden()  # behind "answer for 민수"
    shot(hyunwoo, f"seated-go-stop-waiting-{locale[:2]}")
    hyunwoo.locator("[data-answer-for]").click()
    expect(hyunwoo.locator(".prompt button.go")).to_be_visible()
    shot(hyunwoo, f"seated-go-stop-answer-for-{locale[:2]}")
    hyunwoo.locator(".prompt button.go").click()
    expect(hyunwoo.locator(".prompt")).to_have_count(0)
    assert stored(live_server, created, hand)[-1] == {"type": "go", "player": "민수"}
    expect(minsu.locator(".prompt")).to_have_count(0)
    expect(minsu.locator(".score.me .tag.go")).to_have_text(re.compile("1"))
