"""Issue 31 in Chromium at 390×844: a table set to Hangame's ppuk chain on the new-table form's rules
sheet is paid 7 + 14 + 21 + 7 = 49 for three ppuk on the first three turns, and a table capped per
player shows the capped payment's amount before the cap."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

from .test_journeys import capture, end_turn, other_event, say, script_ready, start_live


def create_table_with(page, base: str, names, **options) -> str:
    """The new-table form, its rules sheet opened and set as a person would: numbers typed, choices picked."""
    page.goto(base + "/lang/en?next=/new")
    for i, name in enumerate(names):
        page.fill(f"#players-{i}", name)
    page.locator("details.rules > summary").click()
    for name, value in options.items():
        choice = page.locator(f"input[type=radio][name=opt_{name}][value='{value}']")
        if choice.count():  # a choice is a row of radios (a select cut its longer words)
            choice.check()
            expect(choice.locator("xpath=ancestor::fieldset[1]")).to_have_class("opt choice changed")
            continue
        field = page.locator(f"#opt_{name}")
        field.fill(str(value))
        expect(field.locator("xpath=ancestor::div[contains(@class, 'opt')]")).to_have_class("opt changed")
    page.locator("button:has-text('Create the table')").first.click()
    expect(page.locator("h1")).to_contain_text(names[0])
    script_ready(page)
    return page.url


def test_hangames_ppuk_chain_pays_forty_nine(page, live_server):
    create_table_with(
        page,
        live_server,
        ("Mina", "Jun"),
        first_turn_ppuk=7,
        consecutive_ppuk=14,
        three_consecutive_ppuk=21,
        ppuk_chain="each",
        three_ppuk=7,
    )
    start_live(page)
    for turn in range(3):
        # Stored before the turn ends: a tap on "End Mina's turn" while the ppuk is on its way is
        # queued behind it, and the next tap on the button (still Mina's until that answer) is a
        # second end of Mina's turn, refused ("It is Jun's turn"), as a double tap is.
        other_event(page, "ppuk", stored=True, player="Mina")
        if turn < 2:
            expect(page.locator("#region")).to_contain_text("ppuk")
            end_turn(page)  # Mina's turn
            end_turn(page)  # Jun's
    expect(page.locator("#who-pays")).to_be_visible()
    pays = page.locator("#who-pays .pay[data-payment='Jun-Mina'] .amount")
    expect(pays).to_have_count(4)
    amounts = sorted(int(text.split()[0]) for text in pays.all_inner_texts())
    assert amounts == [7, 7, 14, 21] and sum(amounts) == 49
    expect(page.locator("#who-pays")).to_contain_text("three consecutive ppuk")


def test_a_payment_capped_per_player_shows_what_it_was_before_the_cap(page, live_server):
    create_table_with(page, live_server, ("Mina", "Jun", "Hana"), payment_cap=20, payment_cap_per="player")
    start_live(page)
    end_turn(page)  # Mina
    capture(page, "Jun", ["1r", "2r", "3r"])
    say(page, "go")
    end_turn(page)  # Hana
    capture(page, "Mina", ["1j1", "1j2", "2j1", "2j2", "3j1", "3j2", "4j1", "4j2", "5j1", "5j2", "6j1", "6j2"])
    capture(page, "Mina", ["2a", "4a", "5a", "6a", "7a", "10a", "12a"])
    say(page, "stop")
    pay = page.locator("#who-pays .pay[data-payment='Jun-Mina']")
    expect(pay.locator(".amount")).to_contain_text("20")
    expect(pay.locator(".trail li").last).to_contain_text("48 → 20")
    expect(page.locator("#who-pays .pay[data-payment='Hana-Mina']")).to_have_count(0)  # Jun paid for both
