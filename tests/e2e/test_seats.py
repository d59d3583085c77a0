"""Every player on their own phone (issue 20): three seat-bound browser contexts, one hand."""

from __future__ import annotations

import json
import re
import urllib.request

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect


def make_table(base: str, players, preset: str = "pagat") -> dict:
    body = json.dumps({"players": list(players), "first_dealer": players[0], "rules": {"preset": preset}}).encode()
    request = urllib.request.Request(base + "/api/v1/tables", body, {"Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(request, timeout=5))


def stored(base: str, created: dict, hand: int) -> list[dict]:
    request = urllib.request.Request(
        f"{base}/api/v1/tables/{created['id']}/hands/{hand}/events", headers={"X-Table-Key": created["edit_key"]}
    )
    return json.load(urllib.request.urlopen(request, timeout=5))["events"]


def seat_phones(new_context, base: str, created: dict, players, locale="en-US") -> dict:
    """One phone per player, each opened by that player's seat link."""
    phones = {}
    for name in players:
        page = new_context(locale=locale).new_page()
        page.goto(f"{created['edit_link']}?seat={name}")
        expect(page.locator(f"#seats button.primary[data-seat='{name}']")).to_be_visible()
        phones[name] = page
    return phones


def start(phones: dict, dealer: str) -> int:
    page = phones[dealer]
    page.locator("form[method=post] button[type=submit].primary:not([data-seat])").click()
    page.wait_for_selector("#region[data-live]")
    hand = int(page.url.rstrip("/").rsplit("/", 1)[-1])
    for other in phones.values():  # the seated phones follow their table into the hand
        other.wait_for_url(f"**/hands/{hand}")
        other.wait_for_selector("#region[data-live]")
    return hand


def test_the_scripted_hand_on_three_seat_phones_stores_the_one_phone_log(new_context, live_server):
    from benchmarks.scripted_hand import PLAYERS, PRESET
    from benchmarks.scripted_hand import events as one_phone_log
    from benchmarks.taps import Meter, _merged, play_seats

    created = make_table(live_server, PLAYERS, PRESET)
    phones = seat_phones(new_context, live_server, created, PLAYERS)
    meters = {name: Meter(page) for name, page in phones.items()}
    hand = start(phones, PLAYERS[0])
    # Jun's phone shows Jun's own score first and large, the others small.
    expect(phones["Jun"].locator(".scores.seated .score.me")).to_have_attribute("data-player", "Jun")
    end_turns = play_seats(phones, meters, lambda: stored(live_server, created, hand))
    for page in phones.values():
        expect(page.locator("h1")).to_contain_text("result")
    assert _merged(stored(live_server, created, hand)) == one_phone_log()
    taps = {name: m.taps for name, m in meters.items()}
    assert end_turns == 0 and sum(taps.values()) + 1 <= 51 and max(taps.values()) + 1 <= 20, taps
    assert max(m.max_scroll for m in meters.values()) == 0


def test_the_next_players_tap_waits_for_the_go_or_stop_and_lands_after_it(new_context, live_server):
    created = make_table(live_server, ("A", "B", "C"))
    phones = seat_phones(new_context, live_server, created, ("A", "B", "C"))
    hand = start(phones, "A")
    a, b = phones["A"], phones["B"]
    for code in ("1g", "3g", "8g"):  # A reaches the target: the end of A's turn asks go or stop
        a.locator(f".picker [data-card='{code}']").click()
        expect(a.locator(f".picker [data-card='{code}'] .owner")).to_have_text("A")
    expect(b.locator("#region")).to_have_attribute("data-seq", "3", timeout=10_000)
    b.locator(".picker [data-card='2j1']").click()
    expect(b.locator("#queue")).to_contain_text("Waiting for A", timeout=10_000)  # shown as waiting
    expect(a.locator(".prompt button.go")).to_be_visible(timeout=10_000)  # A's phone asks
    assert [e["type"] for e in stored(live_server, created, hand)] == ["capture"] * 3 + ["end_turn"]
    a.locator(".prompt button.go").click()
    card = b.locator(".picker [data-card='2j1']")
    expect(card).not_to_have_class(re.compile(r"\bpend\b"), timeout=10_000)  # confirmed by the server
    expect(card.locator(".owner")).to_have_text("B")
    expect(b.locator("#queue")).to_have_count(0)
    expect(b.locator("#queue-notes")).to_have_count(0)  # no "another phone changed it" for a tap that waited
    log = stored(live_server, created, hand)
    assert log[3:] == [
        {"type": "end_turn", "player": "A"},
        {"type": "go", "player": "A"},
        {"type": "capture", "player": "B", "cards": ["2j1"]},
    ]
