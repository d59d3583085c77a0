"""Issue 9: the offline queue (static/js/queue.js and queue-core.js) keeps no copy of the engine's rules or of the log's words.

It applies the rules and writes the lines from what the live page carries (#live-data and the
region); these tests hold that data to the engine (the source) and the script to having no copy.
"""

from __future__ import annotations

import html as htmllib
import json
import re
from pathlib import Path

import pytest

from scorekeeper.engine.live.hand import EVENTS, META_FIELDS, HandSetup
from scorekeeper.web.hands import eventlines

STATIC = Path(__file__).resolve().parents[2] / "static"
# A quoted event type (anywhere: code or comment): a list like ["end_turn", "go", "stop"] or a test
# like e.type === "go" is the script deciding what an event does, which the engine already says.
QUOTED_TYPE = re.compile(r"""(["'])(""" + "|".join(sorted(EVENTS, key=len, reverse=True)) + r")\1")


def hard_coded(source: str) -> set[str]:
    return {m.group(2) for m in QUOTED_TYPE.finditer(source)}


def live_data(html: str) -> dict:
    block = re.search(r'<script type="application/json" id="live-data">(.*?)</script>', html, re.S).group(1)
    return json.loads(htmllib.unescape(block))


def page(client, t, hand: int, lang: str = "en") -> str:
    client.get(f"/lang/{lang}?next=/")
    return client.get(f"{t.url}/hands/{hand}").get_data(as_text=True)


def test_the_scanner_sees_a_rule_written_in_the_script():
    assert hard_coded('var TURN_ENDS = ["end_turn", "go", "stop"];') == {"end_turn", "go", "stop"}
    assert hard_coded("if (e.type === 'four_on_table') {}") == {"four_on_table"}
    assert hard_coded('b.className = "btn " + t; // go or stop, as cfg.turn.answers says') == set()


@pytest.mark.parametrize("script", sorted(str(p.relative_to(STATIC)) for p in STATIC.rglob("*.js")))
def test_no_script_hard_codes_what_an_event_does(script):
    """Which events end a turn or the hand, which answer go/stop, how one is worded: the page's data says."""
    assert hard_coded((STATIC / script).read_text(encoding="utf-8")) == set()


def test_the_page_carries_the_engines_turn_rules(make_table, client):
    t = make_table(first_dealer="B")  # B deals: the order starts at B
    t.enter()
    hand = t.start_live()
    rules = live_data(page(client, t, hand))["turn"]
    setup = HandSetup.from_json(t.api("GET", f"/hands/{hand}").get_json()["state"]["setup"])
    assert rules["next"] == setup.after == {"B": "C", "C": "A", "A": "B"}
    assert rules["passes"] == [k for k, kind in EVENTS.items() if kind.passes_turn]
    assert rules["asks"] == [k for k, kind in EVENTS.items() if kind.asks_decision]
    assert rules["answers"] == [k for k, kind in EVENTS.items() if kind.while_deciding]
    assert rules["ends"] == [k for k, kind in EVENTS.items() if kind.ends_hand]
    assert set(rules["ignored"]) == META_FIELDS - {"type"}
    # What the offline overlay did by hand before, now the engine's word for it.
    assert set(rules["passes"]) == {"end_turn", "go"} and rules["asks"] == ["end_turn"]
    assert set(rules["answers"]) == {"go", "stop"}
    assert set(rules["ends"]) == {"stop", "nagari", "chongtong", "four_on_table"}


def test_the_rules_that_do_not_change_in_a_hand_stay_out_of_a_taps_answer(table, client):
    hand = table.start_live()
    r = client.post(
        f"{table.url}/hands/{hand}/events",
        headers={"X-Partial": "1"},
        data={"seq": 0, "type": "capture", "player": "A", "cards": "1g"},
    )
    assert r.status_code == 200 and 'id="region"' in r.get_data(as_text=True)
    assert 'id="live-data"' not in r.get_data(as_text=True)


LOG = [
    {"type": "capture", "player": "A", "cards": ["1g", "5r"]},
    {"type": "take_junk", "player": "A", "reason": "sseul"},
    {"type": "shake", "player": "A", "month": 7},
    {"type": "ppuk", "player": "A", "month": 11},
    {"type": "ppuk", "player": "A"},
    {"type": "mission", "multiplier": 2},
    {"type": "oe_myeon", "player": "B", "last_card": True},
    {"type": "end_turn", "player": "A"},
    {"type": "bomb", "player": "B", "month": 9},
    {"type": "end_turn"},
    {"type": "showdown_offer", "player": "C"},
    {"type": "showdown_refuse", "player": "A"},
    {"type": "end_turn", "player": "C"},
]


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_page_carries_the_words_of_the_servers_own_log(make_table, client, lang):
    """Filled with the page's templates and tables, each event reads as the log the server shows."""
    t = make_table(rules={"preset": "korean-common", "options": {"missions": True}})
    t.enter()
    hand = t.start_live()
    t.append(hand, LOG)
    html = page(client, t, hand, lang)
    cfg = live_data(html)
    assert set(cfg["lines"]["types"]) == set(EVENTS) | {eventlines.ANY_TYPE}
    ledger = re.search(r'<ol class="ledger"[^>]*>(.*?)</ol>', html, re.S).group(1)
    shown = [htmllib.unescape(li) for li in re.findall(r"<li>(.*?)</li>", ledger, re.S)][::-1]
    assert shown == [eventlines.write(e, cfg["lines"], cfg) for e in LOG]
    assert not [line for line in shown if re.search(r"\b(1g|5r)\b", line)]  # cards by name
    assert ("7월 흔들기" if lang == "ko" else "shake of month 7") in shown[2]


def test_go_or_stop_is_offered_offline_as_the_engine_would_ask(table, client):
    """data-may-decide is the engine's eligible(): the target at first, more than the last go's score after."""
    hand = table.start_live()
    table.append(hand, [{"type": "capture", "player": "A", "cards": ["1g", "3g", "8g"]}])
    html = page(client, table, hand)
    assert re.findall(r'data-player="(\w)" data-may-decide', html) == ["A"]
    table.append(hand, [{"type": "end_turn", "player": "A"}, {"type": "go", "player": "A"}], start=1)
    html = page(client, table, hand)
    assert "data-may-decide" not in html  # A said go at 3: the next go or stop needs 4
