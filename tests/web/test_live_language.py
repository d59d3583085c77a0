"""Issues 12 and 13: the live hand's own lines in one language — the log, the last-event line,
the words the offline queue shows — with cards named, months as months and a mission's multiplier.
"""

from __future__ import annotations

import html as htmllib
import json
import re

import pytest

from scorekeeper.engine.cards import CARDS
from scorekeeper.web.catalogue.messages import MESSAGES

from .visible import CARD_CODE, HANGUL_WORD

# (language, event, what the log says, what the last-event line and its toast say)
LINES = [
    ("ko", {"type": "shake", "player": "A", "month": 5}, "A: 5월 흔들기", "A: 5월 흔들기"),
    ("en", {"type": "shake", "player": "A", "month": 5}, "A: shake of month 5", "A: shake of month 5"),
    ("ko", {"type": "bomb", "player": "A", "month": 10}, "A: 10월 폭탄", "A: 10월 폭탄"),
    ("en", {"type": "bomb", "player": "A", "month": 10}, "A: bomb of month 10", "A: bomb of month 10"),
    (
        "ko",
        {"type": "capture", "player": "A", "cards": ["1g", "5r"]},
        "A: 먹기 · 송학 광, 난초 초단",
        "A: 송학 광, 난초 초단",
    ),
    (
        "en",
        {"type": "capture", "player": "A", "cards": ["1g", "5r"]},
        "A: capture · pine bright (crane), iris red plain ribbon",
        "A: pine bright (crane), iris red plain ribbon",
    ),
    ("ko", {"type": "mission", "multiplier": 2}, "미션 ×2", "미션 ×2"),
    # English says the game's Korean word beside its gloss, on the live line as in the log
    ("en", {"type": "mission", "multiplier": 3}, "mission ×3", "미션 mission ×3"),
]


def live_page(make_table, client, lang: str, event: dict) -> str:
    t = make_table(rules={"preset": "korean-common", "options": {"missions": True}})
    t.enter()
    hand = t.start_live()
    t.append(hand, [event])
    client.get(f"/lang/{lang}?next=/")
    return client.get(f"{t.url}/hands/{hand}").get_data(as_text=True)


def text_of(fragment: str) -> str:
    return htmllib.unescape(re.sub(r"<[^>]+>", "", fragment)).strip()


@pytest.mark.parametrize("lang, event, log, last", LINES, ids=[f"{c[0]}-{c[1]['type']}" for c in LINES])
def test_the_live_hand_names_cards_months_and_multipliers(make_table, client, lang, event, log, last):
    """Cards by name, "5월 흔들기" (never "흔들기 5"), a mission with its multiplier ("미션 ×2")."""
    html = live_page(make_table, client, lang, event)
    lines = [text_of(li) for li in re.findall(r"<ol class=\"ledger\"[^>]*>(.*?)</ol>", html, re.S)[0].split("</li>")]
    assert log in lines[0]
    assert text_of(re.search(r"data-last-line>(.*?)</span>", html, re.S).group(1)) == last


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_offline_queue_gets_its_words_and_card_names_from_the_catalogue(make_table, client, lang):
    """The script shows the queue with these words: every card a name (no code), no word of the other language."""
    html = live_page(make_table, client, lang, {"type": "capture", "player": "A", "cards": ["1g"]})
    cfg = json.loads(
        htmllib.unescape(
            re.search(r'<script type="application/json" id="live-data">(.*?)</script>', html, re.S).group(1)
        )
    )
    names = cfg["cards"]
    assert set(names) == set(CARDS)
    assert [n for n in names.values() if CARD_CODE.search(n) or ("보너스" in n and lang == "en")] == []
    assert names["1g"] == MESSAGES["card_1g"][0 if lang == "ko" else 1]
    if lang == "en":
        assert [n for n in names.values() if HANGUL_WORD.search(n)] == []


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_a_tables_pages_carry_the_words_for_taps_waiting_elsewhere(table, client, lang):
    """The banner the script puts on a table's pages for another hand's pending taps: the catalogue's words."""
    client.get(f"/lang/{lang}?next=/")
    html = client.get(table.url).get_data(as_text=True)
    link = re.search(r'<template id="tpl-waiting">(.*?)</template>', html, re.S).group(1)
    assert f"<a>{MESSAGES['live_waiting'][0 if lang == 'ko' else 1]}</a>" in htmllib.unescape(link)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_a_live_hand_with_a_sitter_speaks_one_language(make_table, client, lang):
    """광팔기 during the hand (shown cards, the sitter's pay, the correction form, a refused capture of a
    shown card) in one language, the card named, never coded."""
    from .test_language import HANGUL_OK, LATIN_OK, NAMES
    from .visible import problems

    t = make_table(players=NAMES)
    t.enter()
    r = client.post(f"{t.url}/hands?c1=play&c2=play&chosen=1", data={"count": "0", "sitters-0-cards": ["1g", "11jd"]})
    hand = int(r.headers["Location"].rsplit("/", 1)[1])
    t.append(hand, [{"type": "shake", "player": NAMES[0], "month": 5}])
    client.get(f"/lang/{lang}?next=/")
    page = client.get(f"{t.url}/hands/{hand}").get_data(as_text=True)
    refused = client.post(
        f"{t.url}/hands/{hand}/events",
        headers={"X-Partial": "1"},
        data={"seq": 1, "type": "capture", "player": NAMES[0], "cards": "1g"},
    )
    assert refused.status_code == 422
    for html in (page, refused.get_data(as_text=True)):
        assert problems(html, lang, names=NAMES, latin_ok=LATIN_OK, hangul_ok=HANGUL_OK) == []
    assert MESSAGES["card_1g"][0 if lang == "ko" else 1] in refused.get_data(as_text=True)
    # Correcting the shown cards to one already captured: refused, the card named.
    t.append(hand, [{"type": "capture", "player": NAMES[0], "cards": ["3g"]}], start=1)
    client.post(f"{t.url}/hands/{hand}/shown", data={"sitters-0-cards": ["1g", "3g"]})
    after = client.get(f"{t.url}/hands/{hand}").get_data(as_text=True)
    assert MESSAGES["card_3g"][0 if lang == "ko" else 1] in after
    assert problems(after, lang, names=NAMES, latin_ok=LATIN_OK, hangul_ok=HANGUL_OK) == []
