"""Network loss at the table (issue 5), in Chromium at 390×844 with the context set offline.

Taps made offline wait on the phone as "pending" and reach the server in order when the
connection is back; a conflict with another phone's events is resolved by the server's
log and shown, never dropped silently; the service worker reloads the live hand offline.
"""

from __future__ import annotations

import json
import re
import time
import urllib.request

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

from scorekeeper.web.home import pwa

from .test_journeys import choose_player, create_table, other_event, points, start_live


def edit_link(page) -> str:
    return page.locator("p.code").nth(0).inner_text()


def api_events(base: str, hand_url: str, key: str) -> list[dict]:
    """The hand's stored log, read by the API (not through the browser)."""
    public_id, hand = hand_url.split("/t/")[1].split("/hands/")
    request = urllib.request.Request(
        f"{base}/api/v1/tables/{public_id}/hands/{hand}/events", headers={"X-Table-Key": key}
    )
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.load(response)["events"]


def pick(page, player: str, cards):
    """One tap a card (each its own capture), for the player chosen."""
    choose_player(page, player)
    for code in cards:
        page.locator(f".picker [data-card='{code}']").click()


def card(page, code: str):
    return page.locator(f".picker [data-card='{code}']")


def end_turn(page):
    page.locator(".turn-actions [data-end-turn]").click()


def pending(page):
    return page.locator("#queue .queue-head .pending-count")


def stored(page, n: int):
    """The server's answer has come back: the page shows a log of n events."""
    expect(page.locator("#region")).to_have_attribute("data-seq", str(n))


def wait_saved(page):
    expect(page.locator("#queue")).to_have_count(0, timeout=10_000)
    expect(page.locator(".pending-count")).to_have_count(0, timeout=10_000)
    expect(page.locator("#pending")).to_be_hidden()


def said_by_the_queue(page):
    """From now on, every text the pending panel shows is kept in window.queueSaid: a state that
    lasts a second (the retry's wait) can fall between two looks of expect(), which look once a
    second, so a test reads what the panel said rather than what it says at one look."""
    page.evaluate(
        """() => {
        window.queueSaid = [];
        new MutationObserver(() => {
            const q = document.getElementById("queue");
            if (q && queueSaid[queueSaid.length - 1] !== q.textContent) { queueSaid.push(q.textContent); }
        }).observe(document.body, { childList: true, subtree: true, characterData: true });
    }"""
    )


def queue_said(page, text: str):
    page.wait_for_function("text => window.queueSaid.some(said => said.includes(text))", arg=text)


def until(page, script: str, arg=None, timeout: float = 10):
    """Wait until the page's script, which answers a promise (the caches are asynchronous), comes
    true. Not wait_for_function: it does not wait for a promise, which is truthy itself, so it
    returned at once. Looked at again in the browser's time (wait_for_timeout), never time.sleep."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(script, arg):
        assert time.monotonic() < deadline, f"not true in {timeout} s: {script}"
        page.wait_for_timeout(100)


def copy_kept(page, seq: int):
    """The worker's kept copy of this page shows a log of seq events (keep.js writes it half a
    second after the region changes, later when another change comes meanwhile)."""
    until(
        page,
        """seq => caches.open("sk-pages")
            .then(cache => cache.match(location.origin + location.pathname + location.search))
            .then(hit => hit ? hit.text() : "")
            .then(text => {
                const region = new DOMParser().parseFromString(text, "text/html").getElementById("region");
                return !!region && region.dataset.seq === String(seq);
            })""",
        seq,
    )


def worker_ready(page):
    page.wait_for_function(
        "() => navigator.serviceWorker && navigator.serviceWorker.controller !== null", timeout=10_000
    )


def test_taps_offline_wait_and_are_sent_in_order(new_context, live_server, shot):
    context = new_context()
    page = context.new_page()
    table_url = create_table(page, live_server)
    key = edit_link(page).rsplit("/", 1)[1]
    start_live(page)
    hand_url = page.url
    pick(page, "Mina", ["1g", "1j1"])  # online: stored at once
    stored(page, 2)
    expect(card(page, "1g")).to_be_disabled()
    shot(page, "20-live-online", full_page=False)

    context.set_offline(True)
    expect(page.locator("#offline")).to_be_visible()
    pick(page, "Mina", ["3g", "8g"])
    expect(pending(page)).to_have_text("2")
    expect(page.locator(".picker [data-card='3g'].pend")).to_be_visible()
    expect(card(page, "8g")).to_be_disabled()
    expect(points(page, "Mina")).to_have_class(re.compile(r"\bstale\b"))
    end_turn(page)
    expect(pending(page)).to_have_text("3")
    # The turn moves on in the view; the engine settles it when the taps are saved. Mina took
    # cards the server has not scored: whether she is asked is the engine's, so the phone offers it.
    expect(page.locator(".turn-actions [data-end-turn]")).to_have_text("End Jun's turn")
    expect(page.locator(".ask")).to_contain_text("If Mina was asked go or stop:")
    shot(page, "21a-offline-ask-go-stop", full_page=False)
    page.locator(".ask button.go").click()
    expect(pending(page)).to_have_text("4")
    expect(page.locator(".ask")).to_have_count(0)
    pick(page, "Jun", ["2a"])
    expect(pending(page)).to_have_text("5")
    expect(page.locator("#queue")).to_contain_text("pending")
    expect(page.locator("#queue")).to_contain_text("No connection")
    expect(page.locator(".turn-bar a.pending-count")).to_have_text("5 pending")
    page.locator(".turn-bar a.pending-count").click()  # the panel is in the 먹은 패 sheet: the badge opens it
    page.locator("#queue details.pending-list > summary").click()
    expect(page.locator("#queue li.pend")).to_have_count(5)
    page.evaluate("() => window.scrollTo(0, 0)")
    shot(page, "21-offline-pending", full_page=False)
    page.locator("#piles [data-close-sheet]").click()
    # Undo offline takes back the last pending tap, and nothing reached the server.
    page.locator("form[data-undo] button").click()
    expect(pending(page)).to_have_text("4")
    expect(card(page, "2a")).to_be_enabled()
    pick(page, "Jun", ["2a", "2r"])
    expect(pending(page)).to_have_text("6")
    assert len(api_events(live_server, hand_url, key)) == 2

    context.set_offline(False)
    wait_saved(page)
    assert api_events(live_server, hand_url, key) == [
        {"type": "capture", "player": "Mina", "cards": ["1g"]},
        {"type": "capture", "player": "Mina", "cards": ["1j1"]},
        {"type": "capture", "player": "Mina", "cards": ["3g"]},
        {"type": "capture", "player": "Mina", "cards": ["8g"]},
        {"type": "end_turn", "player": "Mina"},
        {"type": "go", "player": "Mina"},
        {"type": "capture", "player": "Jun", "cards": ["2a"]},
        {"type": "capture", "player": "Jun", "cards": ["2r"]},
    ]
    expect(points(page, "Mina")).to_have_text("3")
    expect(page.locator("#region .turn-bar")).to_contain_text("Jun's turn")
    expect(page.locator(".notes")).to_have_count(0)  # nothing refused, no conflict
    page.goto(table_url)


def test_no_go_or_stop_offered_offline_at_0_points(new_context, live_server):
    context = new_context()
    page = context.new_page()
    create_table(page, live_server)
    start_live(page)
    context.set_offline(True)
    end_turn(page)  # Mina took nothing: she cannot have reached the target
    expect(pending(page)).to_have_text("1")
    expect(page.locator(".turn-actions [data-end-turn]")).to_have_text("End Jun's turn")
    expect(page.locator(".ask")).to_have_count(0)


def test_a_pending_tap_reads_as_the_log_will_say_it(new_context, live_server):
    """The queue writes a waiting tap with the server's own line templates: once saved, the log says the same."""
    context = new_context()
    page = context.new_page()
    create_table(page, live_server)
    start_live(page)
    context.set_offline(True)
    pick(page, "Mina", ["1g", "5r"])
    page.locator(".events [data-junk=sseul]").click()
    page.locator("details#ev-shake > summary").click()
    page.locator("details#ev-shake form.months button[value='7']").click()
    expect(pending(page)).to_have_text("4")
    other_event(page, "ppuk", player="Mina", month=11)
    expect(pending(page)).to_have_text("5")
    end_turn(page)
    expect(pending(page)).to_have_text("6")
    waiting = page.evaluate("() => Array.from(document.querySelectorAll('#queue li.pend'), li => li.firstChild.data)")
    assert waiting[0] == "Mina: capture · pine bright (crane)"  # a card by name, never "1g"
    assert "shake of month 7" in waiting[3] and "month 11" in waiting[4]
    context.set_offline(False)
    wait_saved(page)
    logged = page.evaluate("() => Array.from(document.querySelectorAll('#log li'), li => li.textContent)")
    assert logged[::-1] == waiting


def two_phones_on_a_live_hand(new_context, live_server):
    """The host starts a live hand; a friend opens it by the edit link. Returns both, the key, the hand's URL."""
    host_context = new_context()
    host = host_context.new_page()
    create_table(host, live_server)
    link = edit_link(host)
    key = link.rsplit("/", 1)[1]
    start_live(host)
    hand_url = host.url
    friend = new_context().new_page()
    friend.goto(link)
    friend.goto(hand_url)
    return host_context, host, friend, key, hand_url


def test_a_tap_queued_in_a_turn_another_phone_ended_is_refused_and_shown(new_context, live_server):
    host_context, host, friend, key, hand_url = two_phones_on_a_live_hand(new_context, live_server)

    host_context.set_offline(True)
    pick(host, "Mina", ["1g"])  # on the host, during Mina's turn
    expect(pending(host)).to_have_text("1")
    end_turn(friend)  # meanwhile the other phone ends Mina's turn
    stored(friend, 1)

    host_context.set_offline(False)
    wait_saved(host)
    # Stored now, the capture would land in Jun's turn: it is refused, and the phone says why.
    expect(host.locator(".notes li.refused")).to_contain_text("another phone ended that turn meanwhile")
    assert api_events(live_server, hand_url, key) == [{"type": "end_turn", "player": "Mina"}]
    expect(card(host, "1g")).to_be_enabled()


def test_conflict_with_another_phone_is_resolved_and_shown(new_context, live_server, shot):
    host_context, host, friend, key, hand_url = two_phones_on_a_live_hand(new_context, live_server)

    host_context.set_offline(True)
    pick(host, "Mina", ["1g", "3g"])
    end_turn(host)
    expect(pending(host)).to_have_text("3")

    # Meanwhile the other phone, online, gives 1g to Jun.
    pick(friend, "Jun", ["1g"])
    stored(friend, 1)
    expect(friend.locator(".refusal")).to_have_count(0)

    host_context.set_offline(False)
    wait_saved(host)
    notes = host.locator(".notes")
    expect(notes).to_contain_text("Another phone saved first (+1 in the log)")
    expect(notes.locator("li.refused")).to_have_count(1)
    # The card named, never "1g".
    expect(notes.locator("li.refused")).to_contain_text("not saved: Mina: capture · pine bright (crane)")
    shot(host, "22-after-conflict", full_page=False)
    # The server's log wins; of the three taps two were taken, the refused one is on screen.
    assert api_events(live_server, hand_url, key) == [
        {"type": "capture", "player": "Jun", "cards": ["1g"]},
        {"type": "capture", "player": "Mina", "cards": ["3g"]},
        {"type": "end_turn", "player": "Mina"},
    ]
    expect(host.locator(".picker [data-card='1g'].taken .owner")).to_have_text("Jun")
    # The notes stay until the player has read them, across a reload too.
    host.reload()
    expect(host.locator(".notes li.refused")).to_have_count(1)
    host.locator("[data-dismiss-notes]").click()
    expect(host.locator(".notes")).to_have_count(0)
    expect(friend.locator("#region .turn-bar")).to_contain_text("Jun's turn", timeout=5000)


def test_lost_answer_is_not_stored_twice(new_context, live_server):
    """A tap whose answer never came back is in the server's log once, not twice."""
    context = new_context()
    page = context.new_page()
    create_table(page, live_server)
    key = edit_link(page).rsplit("/", 1)[1]
    start_live(page)
    hand_url = page.url
    # The post reaches the server, but the phone loses the answer; the queue sends it again.

    def lose_answer(route):
        route.fetch()
        route.abort("internetdisconnected")

    page.route("**/hands/*/events", lose_answer, times=1)
    # The queue resends at once, as the failed post ends (no retry's backoff: that is for a resend
    # that fails too); within 1.3 s in 30 runs under load, so the context's 10 s is ample.
    with page.expect_response(lambda r: "/api/v1/" in r.url) as resent:
        pick(page, "Mina", ["1g"])
    assert resent.value.status == 409  # sent again at the same seq: the server has it, so it is done
    wait_saved(page)
    assert api_events(live_server, hand_url, key) == [{"type": "capture", "player": "Mina", "cards": ["1g"]}]
    expect(page.locator(".notes")).to_have_count(0)


def test_a_go_whose_post_failed_is_sent_after_its_end_of_turn(new_context, live_server):
    """Go on the End turn bar is one post of two events (the turn's end, then the go). When the
    post fails, both are kept and sent again in that order: the queue put the go first, which the
    server refused, and then dropped both (they had one id), so the turn's end and the go were lost."""
    context = new_context()
    page = context.new_page()
    create_table(page, live_server)
    key = edit_link(page).rsplit("/", 1)[1]
    start_live(page)
    hand_url = page.url
    taken = ["1g", "3g", "8g", "1j1", "1j2", "2j1", "2j2", "3j1", "3j2", "4j1", "4j2", "5j1", "5j2"]
    for n, code in enumerate(taken, 1):
        # One at a time, each stored before the next: the region above the cards grows as Mina
        # scores ("If Mina stopped now"), and a tap made while it does can miss its card (noted).
        pick(page, "Mina", [code])
        stored(page, n)
    expect(points(page, "Mina")).to_have_text("4")  # at the target: End turn is Go or Stop

    page.route("**/t/*/hands/*/events", lambda route: route.abort("internetdisconnected"), times=1)
    page.locator(".turn-actions [data-decide=go]").click()
    stored(page, len(taken) + 2)
    wait_saved(page)
    assert api_events(live_server, hand_url, key)[len(taken) :] == [
        {"type": "end_turn", "player": "Mina"},
        {"type": "go", "player": "Mina"},
    ]
    expect(page.locator(".notes")).to_have_count(0)
    expect(page.locator("#region .turn-bar")).to_contain_text("Jun's turn")


def test_offline_reload_keeps_the_hand_and_the_pending_taps(new_context, live_server, shot):
    context = new_context()
    page = context.new_page()
    create_table(page, live_server)
    worker_ready(page)
    start_live(page)
    page.goto(live_server + "/lang/ko?next=" + page.url.split(live_server, 1)[1])  # the table's language
    pick(page, "Mina", ["1g"])  # online: the kept copy follows the region
    stored(page, 1)
    copy_kept(page, 1)  # not a fixed wait: the copy is written after the last change, not at a time

    context.set_offline(True)
    pick(page, "Mina", ["3g"])
    expect(pending(page)).to_have_text("1")
    page.reload()
    expect(page.locator(".scores [data-player=Mina]")).to_be_visible()
    expect(card(page, "1g")).to_be_disabled()  # the saved tap
    expect(pending(page)).to_have_text("1")  # the pending one
    expect(page.locator(".picker [data-card='3g'].pend")).to_be_visible()
    expect(page.locator("#queue")).to_contain_text("연결이 없습니다")
    page.evaluate("() => window.scrollTo(0, 0)")
    shot(page, "23-offline-reload-ko", full_page=False)
    context.set_offline(False)
    wait_saved(page)
    expect(points(page, "Mina")).to_have_text("0")
    expect(page.locator(".picker [data-card='3g'].taken")).to_be_visible()


def test_taps_waiting_for_another_hand_are_pointed_at(page, live_server):
    """Pending taps of a hand not on screen are never forgotten quietly: the table's pages link to it."""
    table_url = create_table(page, live_server)
    public_id = table_url.rsplit("/", 1)[1]
    page.evaluate(
        "k => localStorage.setItem(k, JSON.stringify([{id: 'x', seq: 0, event: {type: 'nagari'}}]))",
        f"sk.q.{public_id}.7",
    )
    page.reload()
    expect(page.locator("main > p.refusal a")).to_have_attribute("href", f"/t/{public_id}/hands/7")
    expect(page.locator("main > p.refusal")).to_have_text("Taps not sent yet on this phone: open that hand")


def test_taps_while_an_answer_is_slow_or_the_server_fails_are_kept(new_context, live_server):
    context = new_context()
    page = context.new_page()
    create_table(page, live_server)
    key = edit_link(page).rsplit("/", 1)[1]
    start_live(page)
    hand_url = page.url
    held = []
    page.route("**/t/*/hands/*/events", lambda route: held.append(route), times=1)
    pick(page, "Mina", ["1g"])  # its answer is slow to come
    page.wait_for_function("() => document.documentElement.classList.contains('busy')")
    pick(page, "Mina", ["3g"])  # tapped meanwhile: queued behind it, not ignored
    expect(page.locator(".picker [data-card='3g'].pend")).to_be_visible()
    expect(page.locator(".turn-bar .pending-count")).to_contain_text("1")
    held[0].continue_()
    wait_saved(page)
    assert [e["cards"] for e in api_events(live_server, hand_url, key)] == [["1g"], ["3g"]]

    # A server in trouble (503) keeps the tap, which is sent again shortly.
    page.route("**/api/v1/tables/*/hands/*/events", lambda route: route.fulfill(status=503, body="down"), times=1)
    context.set_offline(True)
    pick(page, "Mina", ["8g"])
    said_by_the_queue(page)
    context.set_offline(False)
    queue_said(page, "The server does not answer")  # for the second until it is sent again
    wait_saved(page)
    assert [e["cards"] for e in api_events(live_server, hand_url, key)] == [["1g"], ["3g"], ["8g"]]
    expect(points(page, "Mina")).to_have_text("3")


def test_a_tap_the_database_could_not_store_is_kept_and_sent_again(new_context, live_server):
    """Issue 23, item 4: a tap whose form post answers 503 (the database read-only, a connection
    killed) or 507 (disk full) was stored nowhere; the page reloaded and the tap was gone."""
    context = new_context()
    page = context.new_page()
    create_table(page, live_server)
    key = edit_link(page).rsplit("/", 1)[1]
    start_live(page)
    hand_url = page.url

    def answering(status):
        return lambda route: route.fulfill(
            status=status,
            body="<!doctype html><p data-code='unavailable'>down</p>",
            content_type="text/html",
            headers={"Retry-After": "1"},
        )

    expected: list = []
    for status, code in ((503, "1g"), (507, "3g")):
        page.route("**/t/*/hands/*/events", answering(status), times=1)
        pick(page, "Mina", [code])
        expected.append([code])
        # The queue sends it again at once; the page shows the stored log (data-seq) once it has.
        # Waited for in the browser (expect), never with time.sleep: the route's handler, which
        # answers the tap's post, runs only inside a Playwright call (tests/e2e/test_harness.py).
        expect(page.locator("#region")).to_have_attribute("data-seq", str(len(expected)), timeout=10_000)
        assert [e["cards"] for e in api_events(live_server, hand_url, key)] == expected
        wait_saved(page)


def test_worker_keeps_the_shell_under_its_version_and_drops_old_ones(new_context, live_server, monkeypatch):
    context = new_context()
    page = context.new_page()
    page.goto(live_server + "/")
    worker_ready(page)
    with urllib.request.urlopen(live_server + "/sw.js", timeout=5) as response:
        script = response.read().decode()
    version = json.loads(script.split("const SK = ", 1)[1].split(";\n", 1)[0])["version"]
    page.reload()  # now through the worker, which keeps the page
    until(page, "() => caches.keys().then(k => k.includes('sk-pages'))")
    assert f"sk-shell-{version}" in page.evaluate("() => caches.keys()")
    kept = page.evaluate(
        f"() => caches.open('sk-shell-{version}').then(c => c.keys()).then(k => k.map(r => new URL(r.url).pathname))"
    )
    assert {"/static/app.js", "/static/app.css", "/static/icon-192.png", "/manifest.webmanifest"} <= set(kept)

    # A new version (the shell changed) activates at once and deletes the old shell cache. The
    # server (in this process) serves the new version: a route does not see the worker's own
    # fetch of /sw.js, so one there changed nothing (and the waits below, then promises
    # wait_for_function took for true, did not notice).
    monkeypatch.setattr(pwa, "shell_version", lambda: "0123456789ab")
    page.evaluate("() => navigator.serviceWorker.getRegistration().then(r => r.update())")
    until(page, "() => caches.keys().then(k => k.includes('sk-shell-0123456789ab'))")
    until(page, f"() => caches.keys().then(k => !k.includes('sk-shell-{version}'))")
