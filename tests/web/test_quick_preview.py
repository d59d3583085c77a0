"""Issue 13: the quick-entry preview is exactly what saving records, for every kind of hand.

The table checks the preview before saving; it once left out 광팔기 compensation (a
five-player hand previewed two payments and saved four) and a nagari's compensation
("No payment", then 12 points moved). Each case previews the hand, saves it, and
compares the previewed transfers with the ledger entries stored for that hand.
"""

from __future__ import annotations

import re

import pytest

PARTIAL = {"X-Partial": "1"}
BRIGHTS = ["1g", "3g", "8g"]
PAY = re.compile(r'data-payment="([^"]+)-([^"]+)" data-points="(\d+)" data-kind="([a-z_]+)"')


@pytest.fixture
def app(sqlite_app):
    return sqlite_app


def entries(i, **fields):
    out = {}
    for key, value in fields.items():
        out[f"entries-{i}-{key}"] = value
    return out


STOP = (
    {"outcome": "stop", "winner": "A"}
    | entries(0, cards=[*BRIGHTS, "2a", "4a", "8a"], gos="1", shakes="5")
    | entries(1, junk="9")
    | entries(2, junk="3")
)
CASES = {
    "stop with go and shake": (3, [], STOP),
    "go-bak dok-bak": (3, [], STOP | entries(1, gos="1", junk="9") | {"dokbak_player": "B", "dokbak_reason": "go_bak"}),
    "fixed first-turn ppuk": (3, [], STOP | entries(2, fixed="first_turn_ppuk", junk="3")),
    "nagari": (3, [], {"outcome": "nagari"}),
    "stop after a nagari (carry)": (3, [{"outcome": "nagari"}], STOP),
    "chongtong": (3, [], {"outcome": "chongtong", "winner": "B", "month": "4"}),
    "three ppuk": (3, [], {"outcome": "three_ppuk", "winner": "C"}),
    "void deal": (3, [], {"outcome": "void_deal"}),
    "two players": (
        2,
        [],
        {"outcome": "stop", "winner": "B"} | entries(1, cards=[*BRIGHTS, "1r", "2r", "3r"], junk="10"),
    ),
    "five players, sitters shown": (
        5,
        [],
        STOP | {"sitters-0-cards": ["11g", "11jd"], "sitters-1-cards": ["12g", "9a"]},
    ),
    "four players, nagari with a sitter shown": (4, [], {"outcome": "nagari", "sitters-0-cards": ["1g", "11jd"]}),
}


def quick_url(client, t, players):
    if players < 4:
        return f"{t.url}/quick"
    r = client.get(f"{t.url}/hands/new", query_string={"mode": "quick", "chosen": "1", "c1": "play", "c2": "play"})
    assert r.status_code == 302, r.data
    return r.headers["Location"]


def previewed(client, url, data):
    r = client.post(url, data=data | {"action": "preview"}, headers=PARTIAL)
    assert r.status_code == 200, r.get_data(as_text=True)
    return sorted((a, b, int(p), k) for a, b, p, k in PAY.findall(r.get_data(as_text=True)))


def saved(t, hand_number_before):
    ledger = t.state()["ledger"]
    return sorted((e["from"], e["to"], e["points"], e["kind"]) for e in ledger if e["index"] == hand_number_before)


@pytest.mark.parametrize("name", list(CASES))
def test_preview_is_what_is_saved(make_table, client, name):
    players, before, data = CASES[name]
    t = make_table(players=tuple("ABCDEFG"[:players]))
    t.enter()
    for earlier in before:
        url = quick_url(client, t, players)
        assert (
            client.post(url, data=earlier | {"action": "save", "count": str(len(t.state()["hands"]))}).status_code
            == 303
        )
    index = len(t.state()["hands"])
    url = quick_url(client, t, players)
    data = data | {"count": str(index)}
    shown = previewed(client, url, data)
    r = client.post(url, data=data | {"action": "save"})
    assert r.status_code == 303, r.get_data(as_text=True)
    assert shown == saved(t, index)
    if name.startswith(("stop", "five", "four", "chongtong", "three", "two", "go-bak", "fixed")):
        assert shown, "a hand that moves points previews them"
