"""The journeys of issue 4 in Chromium at 390×844: what a person at the table does."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

NAMES = ("Mina", "Jun", "Hana")


def create_table(page, base: str, names=NAMES, shot=None, title: str = "") -> str:
    page.goto(base + "/lang/en?next=/new")
    for i, name in enumerate(names):
        page.fill(f"#players-{i}", name)
    if title:
        page.fill("#title", title)
    if shot:
        shot(page, "01-new-table")
    page.locator("button:has-text('Create the table')").first.click()
    expect(page.locator("h1")).to_contain_text(title or names[0])
    script_ready(page)
    return page.url


def script_ready(page):
    """The page's script (ES modules, run before the load event) has started: a tap before then is
    the plain form post, which works online but is not what a test of the script means to try."""
    page.wait_for_load_state("load")


def choose_player(page, player: str):
    """Captures are the player on turn's; another player is one tap on their score."""
    if page.locator(".scores .score.actor").get_attribute("data-player") != player:
        page.locator(f".scores [data-player='{player}'] button.chip").click()
        expect(page.locator(".scores .score.actor")).to_have_attribute("data-player", player)


def tap_cards(page, player: str, cards):
    choose_player(page, player)
    for code in cards:
        page.locator(f".picker [data-card='{code}']").click()


def capture(page, player: str, cards):
    """One tap a card; each shows taken at once and is confirmed by the server."""
    log = []
    page.on("requestfinished", lambda r: log.append((r.method, r.url[-40:], (r.post_data or "")[-120:])))
    tap_cards(page, player, cards)
    for code in cards:
        card = page.locator(f".picker [data-card='{code}']")
        try:
            expect(card).to_be_disabled(timeout=3000)
        except AssertionError:
            print(
                "DEBUG",
                code,
                log,
                page.evaluate("() => JSON.stringify(localStorage)"),
                page.locator("#region").inner_text()[:800],
            )
            raise
        expect(card).to_be_disabled()
        expect(card).not_to_have_class(re.compile(r"\bpend\b"))
        expect(card.locator(".owner")).to_have_text(player)


def seq(page) -> str:
    return page.locator("#region").get_attribute("data-seq")


def end_turn(page):
    before = seq(page)
    page.locator(".turn-actions [data-end-turn]").click()
    expect(page.locator("#region")).not_to_have_attribute("data-seq", before)


def say(page, what: str):
    """Go or stop: on the End turn bar of a player at the target, or the engine's prompt."""
    before = seq(page)
    bar = page.locator(f".turn-actions [data-decide='{what}']")
    (bar if bar.count() else page.locator(f".prompt button.{what}")).click()
    expect(page.locator("#region")).not_to_have_attribute("data-seq", before)


def points(page, player: str):
    return page.locator(f".scores [data-player='{player}'] [data-points]")


def other_event(page, kind: str, *, stored: bool = False, **selects):
    """An event of the More sheet; stored: wait, as end_turn and say do, until the server has it
    (the log's length moves), so that the next tap is made on the state after it."""
    before = seq(page)
    form = page.locator(f"form.event-form:has(input[name=type][value={kind}])")
    if page.locator("details#more-events").get_attribute("open") is None:
        page.locator("details#more-events > summary").click()
    for name, value in selects.items():
        form.locator(f"select[name={name}]").select_option(str(value))
    form.locator("button[type=submit]").click()
    if stored:
        expect(page.locator("#region")).not_to_have_attribute("data-seq", before)


def start_live(page):
    page.locator("button:has-text('Play a hand live'), a:has-text('Play a hand live')").first.click()
    expect(page.locator("#region .turn-bar")).to_be_visible()
    script_ready(page)


def payment(page, payer: str, payee: str):
    return page.locator(f".pay[data-payment='{payer}-{payee}'] .amount")


def test_live_hand_with_go_and_pi_bak(page, live_server, shot):
    table_url = create_table(page, live_server, shot=shot)
    shot(page, "02-table-empty")
    start_live(page)
    shot(page, "03-live-start")
    capture(page, "Mina", ["1g", "3g", "8g", "1j1", "1j2", "2j1", "2j2", "3j1", "3j2", "4j1", "4j2", "5j1", "5j2"])
    expect(points(page, "Mina")).to_have_text("4")
    # At the target, End turn is Go or Stop: one tap ends the turn and answers.
    expect(page.locator(".turn-actions [data-end-turn]")).to_be_hidden()
    expect(page.locator(".turn-actions [data-decide=go]")).to_have_text("Mina: Go")
    shot(page, "04-go-or-stop", full_page=False)
    say(page, "go")
    capture(page, "Jun", ["6j1", "6j2", "7j1", "7j2", "8j1"])
    end_turn(page)
    capture(page, "Hana", ["9j1"])
    end_turn(page)
    capture(page, "Mina", ["11g"])
    shot(page, "05-live-piles")
    say(page, "stop")
    expect(page.locator("h1")).to_contain_text("Hand 1: result")
    expect(payment(page, "Jun", "Mina")).to_contain_text("12 points · ₩1,200")
    expect(payment(page, "Hana", "Mina")).to_contain_text("24 points · ₩2,400")
    expect(page.locator(".pay[data-payment='Hana-Mina'] .trail")).to_contain_text("피박 pi-bak")
    expect(page.locator(".pay[data-payment='Hana-Mina'] .trail")).to_contain_text("go bonus")
    shot(page, "06-result")
    page.goto(table_url)
    expect(page.locator(".standings")).to_contain_text("+36")
    expect(page.locator(".chart polyline")).to_have_count(3)
    shot(page, "07-table-after-hand")


def test_quick_entry(page, live_server, shot):
    create_table(page, live_server)
    page.locator("a:has-text('Quick entry')").click()
    page.locator("label.winner-pick:has(input[value=Jun])").click()  # Jun wins, and takes the cards tapped next
    for code in ["1r", "2r", "3r", "6r", "9r", "10r"]:
        page.locator(f".one-picker [data-code='{code}']").click()
    page.locator("section.qp[data-name=Mina] .chips.junk label:has(input[value='4'])").click()
    page.locator("section.qp[data-name=Hana] .chips.junk label:has(input[value='7'])").click()
    # 홍단 3 + 청단 3 + six ribbons 2 = 8: previewed by the engine before saving
    expect(page.locator("#preview")).to_contain_text("Hana → Jun 8 points", timeout=5000)
    shot(page, "08-quick-entry")
    page.locator("button[value=save]").click()
    expect(page.locator("h1")).to_contain_text("result")
    expect(payment(page, "Mina", "Jun")).to_contain_text("8 points · ₩800")
    expect(payment(page, "Hana", "Jun")).to_contain_text("8 points · ₩800")
    expect(page.locator("body")).to_contain_text("Next dealer: Jun")


def test_nagari_then_doubled(page, live_server, shot):
    create_table(page, live_server)
    start_live(page)
    other_event(page, "nagari")
    expect(page.locator("h1")).to_contain_text("result")
    expect(page.locator("body")).to_contain_text("Nagari")
    page.locator("a:has-text('Back to the table')").first.click()
    expect(page.locator("#region")).to_contain_text("Nagari carry ×2")
    start_live(page)
    capture(page, "Mina", ["1g", "3g", "8g"])
    say(page, "stop")
    expect(payment(page, "Jun", "Mina")).to_contain_text("12")  # 3 × gwang-bak 2 × nagari 2
    expect(page.locator(".pay[data-payment='Jun-Mina'] .trail")).to_contain_text("×2")
    shot(page, "09-doubled-after-nagari")


def test_gwangpalli_four_players(page, live_server, shot):
    create_table(page, live_server, names=("Mina", "Jun", "Hana", "Soo"))
    page.locator("a:has-text('Play a hand live')").click()
    page.locator("label:has(input[name=c1][value=play])").click()
    page.locator("label:has(input[name=c2][value=play])").click()
    page.locator("button:has-text('Choose')").click()
    expect(page.locator("form.box[method=post]")).to_contain_text("Playing")
    for code in ["1g", "11jd"]:
        page.locator(f"label.hc:has(input[name='sitters-0-cards'][value='{code}'])").click()
    shot(page, "10-gwangpalli-seating")
    page.locator("button:has-text('Start the hand')").click()
    expect(page.locator(".scores .score")).to_have_count(3)
    # The sitter's shown cards are out of play, and the sitter's pay shows during the hand.
    expect(page.locator(".picker [data-card='1g']")).to_have_class(re.compile(r"\bshown\b"))
    expect(page.locator(".picker [data-card='1g']")).to_be_disabled()
    expect(page.locator("#region .claims")).to_contain_text("광팔기 Soo")
    end_turn(page)  # Mina, the dealer, plays first
    expect(page.locator("#region .turn-bar")).to_contain_text("Jun's turn")
    capture(page, "Jun", ["3g", "8g", "11g"])
    say(page, "stop")
    expect(page.locator(".pay[data-payment='Jun-Soo']")).to_contain_text("4")
    expect(page.locator(".pay[data-payment='Hana-Soo']")).to_contain_text("광팔기")
    shot(page, "11-gwangpalli-result")


def test_undo(page, live_server):
    create_table(page, live_server)
    start_live(page)
    capture(page, "Mina", ["1g"])
    page.locator(".turn-actions button:has-text('Undo')").click()
    expect(page.locator(".picker [data-card='1g']")).to_be_enabled()
    expect(page.locator("#toast")).to_contain_text("Undone")
    expect(points(page, "Mina")).to_have_text("0")


def test_second_phone_follows_and_viewer_is_refused(new_context, live_server, shot):
    host = new_context().new_page()
    table_url = create_table(host, live_server)
    view_link = host.locator("p.code").nth(1).inner_text()
    start_live(host)
    hand_url = host.url

    friend = new_context().new_page()  # a second phone with the edit link would do the same
    viewer = new_context(locale="ko-KR").new_page()
    viewer.goto(view_link)
    expect(viewer.locator("h1")).to_contain_text("Mina")
    viewer.goto(hand_url)
    expect(viewer.locator("button[data-card]")).to_have_count(0)  # cards to look at, not to tap
    expect(viewer.locator("span[data-card]")).to_have_count(50)

    capture(host, "Jun", ["2a", "4a", "8a"])
    expect(points(viewer, "Jun")).to_have_text("5", timeout=2000)
    expect(viewer.locator("span[data-card='2a'] .owner")).to_have_text("Jun")
    shot(viewer, "12-viewer-follows-ko")

    token = re.search(r'name="csrf_token" value="([^"]+)"', viewer.content())
    token = token.group(1) if token else viewer.evaluate("() => ''")
    if not token:
        viewer.goto(table_url)
        token = viewer.locator("input[name=csrf_token]").first.get_attribute("value")
    r = viewer.request.post(
        hand_url + "/events", form={"csrf_token": token, "seq": "1", "type": "nagari"}, max_redirects=0
    )
    assert r.status == 403
    viewer.goto(hand_url)
    expect(points(viewer, "Jun")).to_have_text("5")
    friend.close()


@pytest.mark.parametrize(
    ("locale", "words"), [("ko-KR", ("새 방 만들기", "English")), ("en-US", ("Start a table", "한국어"))]
)
def test_korean_and_english(new_context, live_server, shot, locale, words):
    page = new_context(locale=locale).new_page()
    page.goto(live_server + "/")
    expect(page.locator("body")).to_contain_text(words[0])
    shot(page, f"00-home-{locale}")
    page.locator("a.lang").click()
    expect(page.locator("a.lang")).not_to_have_text(words[1])


def test_page_fits_the_phone(page, live_server):
    create_table(page, live_server)
    start_live(page)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390
    # Everything a turn needs is on one screen: nothing to scroll at 390×844.
    assert page.evaluate("() => document.scrollingElement.scrollHeight") <= 844
    small = page.evaluate("""() => [...document.querySelectorAll('button, a.btn, label.hc')]
        .filter(e => e.offsetParent && e.checkVisibility() && (e.getBoundingClientRect().height < 44 || e.getBoundingClientRect().width < 34))
        .map(e => e.outerHTML.slice(0, 60))""")
    assert small == []


def test_rules_sheet_follows_preset(page, live_server, shot):
    page.goto(live_server + "/lang/ko?next=/new")
    page.locator("details.rules > summary").click()
    expect(page.locator(".opt.changed")).to_have_count(0)
    page.select_option("select[name=preset]", "ogb-matgo")
    expect(page.locator("#opt_chongtong")).to_have_value("50")
    expect(page.locator(".opt.changed")).to_have_count(0)
    page.fill("#opt_five_brights", "20")
    expect(page.locator(".opt.changed")).to_have_count(1)
    expect(page.locator(".opt.changed")).to_contain_text("오광")
    shot(page, "13-rules-sheet-ko", full_page=False)


def test_an_event_confirms_itself_and_the_sheet_closes(page, live_server):
    create_table(page, live_server)
    start_live(page)
    other_event(page, "take_junk", player="Jun", reason="sseul")
    expect(page.locator("#toast")).to_contain_text("Jun: 쓸 sseul")
    expect(page.locator("#region .turn-bar .last")).to_have_text("Jun: 쓸 sseul")
    expect(page.locator("details#more-events")).not_to_have_attribute("open", "")
    page.locator(".events [data-junk=ttadak]").click()  # the frequent ones: one tap, for the player on turn
    expect(page.locator("#toast")).to_contain_text("Mina: 따닥 ttadak")
    page.locator("#piles > summary").click()
    expect(page.locator("#log")).to_contain_text("Jun: junk taken · 쓸 sseul")


def test_a_second_phone_starting_the_same_hand_is_let_in(new_context, live_server):
    host = new_context().new_page()
    table_url = create_table(host, live_server)
    link = host.locator("p.code").nth(0).inner_text()
    # Its page has not caught up yet: no poll, no push (and no service worker fetching past the route).
    friend = new_context(service_workers="block").new_page()
    friend.route(re.compile(r"/(version|stream)$"), lambda route: route.abort())
    friend.goto(link)
    friend.goto(live_server + "/lang/en?next=" + table_url.split(live_server, 1)[1])
    start = "button:has-text('Play a hand live'), a:has-text('Play a hand live')"
    host.locator(start).first.click()
    expect(host.locator("#region[data-live]")).to_have_count(1)
    friend.locator(start).first.click()  # a moment later, the same hand
    expect(friend.locator(".flash.ok")).to_contain_text("Another phone has started this hand")
    assert friend.url == host.url


def test_the_scripted_hand_by_tapping_only(page, live_server):
    """Issue 12: the realistic hand costs one tap a card, a turn end, an event: no scrolling."""
    import json
    import urllib.request

    from benchmarks.scripted_hand import PLAYERS, PRESET, essentials
    from benchmarks.taps import Meter, play_one_tap

    body = json.dumps({"players": PLAYERS, "first_dealer": PLAYERS[0], "rules": {"preset": PRESET}}).encode()
    request = urllib.request.Request(live_server + "/api/v1/tables", body, {"Content-Type": "application/json"})
    created = json.load(urllib.request.urlopen(request, timeout=5))
    page.goto(created["edit_link"])
    page.goto(f"{live_server}/lang/en?next=/t/{created['id']}/hands/new")
    meter = Meter(page)
    meter.tap(page.locator("button:has-text('Start the hand')"))
    play_one_tap(page, meter)
    expect(page.locator("h1")).to_contain_text("result")
    assert meter.taps == sum(essentials().values()) == 64
    assert meter.max_scroll == 0
    expect(page.locator(".pay[data-payment='Mina-Jun'] .trail")).to_contain_text("피박 pi-bak")
