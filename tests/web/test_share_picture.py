"""The share picture (issues 28 and 29): a chat preview's shape (2:1, 1200×600, its size in the
tags), a new address when the standings or what is owed change, kept per version with an ETag,
drawn off the request path, and safe for whatever a group holds."""

from __future__ import annotations

import io
import itertools
import os
import re
import signal
import threading
from collections import OrderedDict

import pytest
from PIL import Image, ImageChops
from sqlalchemy import text

from scorekeeper.web.groups import picture, pictures
from tests.web.conftest import BRIGHTS, group_with_an_evening


@pytest.fixture
def grp(client):
    return group_with_an_evening(client)


def og(client, grp) -> dict[str, str]:
    page = client.application.test_client(use_cookies=False).get(f"/gj/{grp['id']}/{grp['view_key']}")
    tags = dict(re.findall(r'<meta property="(og:[a-z:_]+)" content="([^"]*)"', page.get_data(as_text=True)))
    tags["og:image"] = tags["og:image"].replace("&amp;", "&").removeprefix("http://localhost")
    return tags


def test_the_picture_is_2_to_1_and_its_size_is_in_the_tags(client, grp):
    tags = og(client, grp)
    assert (tags["og:image:width"], tags["og:image:height"]) == ("1200", "600")
    png = client.application.test_client(use_cookies=False).get(tags["og:image"])
    assert png.status_code == 200 and png.mimetype == "image/png"
    assert Image.open(io.BytesIO(png.data)).size == (1200, 600)


def test_the_share_link_has_no_refresh_a_scraper_would_follow(client, grp):
    """A preview that followed the page's meta refresh landed on a 401 without tags: the phone
    goes on by script (js/enter.js), the scraper stays on the tags."""
    page = client.application.test_client(use_cookies=False).get(f"/gj/{grp['id']}/{grp['view_key']}")
    html = page.get_data(as_text=True)
    assert 'http-equiv="refresh"' not in html and "data-go-on" in html and 'property="og:image"' in html


def test_the_image_address_follows_the_standings_and_what_is_owed(client, grp):
    first = og(client, grp)["og:image"]
    assert og(client, grp)["og:image"] == first  # nothing changed: the same address
    r = client.post(
        f"/api/v1/groups/{grp['id']}/payments",
        json={"from": "민수", "to": "지영", "points": 1},
        headers={"X-Group-Key": grp["edit_key"]},
    )
    assert r.status_code == 201
    paid = og(client, grp)["og:image"]
    assert paid != first
    t = grp["table"]
    client.post(f"/api/v1/tables/{t['id']}/hands", json={"summary": BRIGHTS}, headers={"X-Table-Key": t["edit_key"]})
    assert og(client, grp)["og:image"] not in (first, paid)


def test_the_picture_is_kept_per_version_with_an_etag(client, grp):
    bot = client.application.test_client(use_cookies=False)
    url = og(client, grp)["og:image"]
    one = bot.get(url)
    etag = one.headers["ETag"]
    assert one.status_code == 200 and etag and one.headers["Cache-Control"] == "private, no-cache"
    drawn = pictures.draws
    again = bot.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.headers["ETag"] == etag and not again.data
    assert bot.get(url).data == one.data and pictures.draws == drawn  # kept: not drawn again
    client.post(
        f"/api/v1/groups/{grp['id']}/payments",
        json={"from": "민수", "to": "지영", "points": 1},
        headers={"X-Group-Key": grp["edit_key"]},
    )
    changed = bot.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag


def test_many_requests_at_once_draw_one_picture(client, grp):
    from concurrent.futures import ThreadPoolExecutor

    app = client.application
    url = og(client, grp)["og:image"]
    pictures._kept.clear()
    drawn = pictures.draws

    def fetch(_i):
        return app.test_client(use_cookies=False).get(url).status_code

    with ThreadPoolExecutor(8) as pool:
        assert set(pool.map(fetch, range(16))) == {200}
    assert pictures.draws == drawn + 1


def test_a_kept_picture_is_answered_from_the_versions_alone(client, grp, monkeypatch):
    """Issue 29: each request for a picture kept already loaded the whole group first (18 ms of
    CPU for a large group, on the path that serves taps: 50 at once moved another table's poll
    to p95 4.1 s). A version seen before is answered from the group's versions: no state loaded."""
    from scorekeeper.web.groups import routes

    bot = client.application.test_client(use_cookies=False)
    url = og(client, grp)["og:image"]
    evening = f"{url}&evening={grp['table']['id']}"
    tag = bot.get(url).headers["ETag"]
    bot.get(evening)
    loads: list[int] = []
    real = routes.service.load
    monkeypatch.setattr(routes.service, "load", lambda *a: loads.append(1) or real(*a))
    assert bot.get(url).status_code == 200
    assert bot.get(url, headers={"If-None-Match": tag}).status_code == 304
    assert bot.get(evening).status_code == 200
    assert loads == []
    client.post(
        f"/api/v1/groups/{grp['id']}/payments",
        json={"from": "민수", "to": "지영", "points": 1},
        headers={"X-Group-Key": grp["edit_key"]},
    )
    loads.clear()
    paid = bot.get(url, headers={"If-None-Match": tag})
    assert paid.status_code == 200 and paid.headers["ETag"] != tag and len(loads) == 1
    t = grp["table"]
    client.post(f"/api/v1/tables/{t['id']}/hands", json={"summary": BRIGHTS}, headers={"X-Table-Key": t["edit_key"]})
    loads.clear()
    played = bot.get(evening)
    assert played.status_code == 200 and len(loads) == 1  # the evening's table moved on: read again
    assert bot.get(evening).status_code == 200 and len(loads) == 1


def test_the_picture_is_drawn_in_a_process_of_its_own(client, grp, monkeypatch):
    """Issue 29: drawn on a thread of the serving process, a picture still held that process's GIL,
    and another table's poll waited (p95 260 ms on SQLite while 50 pictures were asked for). It is
    drawn in a child process; one that died is started again at the next picture."""
    assert pictures._off_path(os.getpid) != os.getpid()
    monkeypatch.setattr(pictures, "_kept", OrderedDict())
    bot = client.application.test_client(use_cookies=False)
    url = og(client, grp)["og:image"]
    first = bot.get(url)
    assert first.status_code == 200 and first.data[:4] == b"\x89PNG"
    child = pictures._drawer.pid
    assert child not in (None, os.getpid())
    os.kill(child, signal.SIGKILL)
    monkeypatch.setattr(pictures, "_kept", OrderedDict())  # drawn again
    again = bot.get(url)
    assert again.status_code == 200 and again.data == first.data
    assert pictures._drawer.pid not in (None, child, os.getpid())


def test_each_language_keeps_its_own_picture(client, grp):
    bot = client.application.test_client(use_cookies=False)
    url = og(client, grp)["og:image"]
    ko = bot.get(url, headers={"Accept-Language": "ko"})
    en = bot.get(url, headers={"Accept-Language": "en"})
    assert ko.headers["ETag"] != en.headers["ETag"]
    assert bot.get(url, headers={"Accept-Language": "ko"}).data == ko.data
    assert bot.get(url, headers={"Accept-Language": "en"}).data == en.data


def test_an_evening_not_in_the_group_is_not_found(client, grp):
    bot = client.application.test_client(use_cookies=False)
    other = client.post("/api/v1/tables", json={"players": ["A", "B"]}).get_json()
    for evening in (other["id"], "nope", "x" * 40):
        r = bot.get(f"/g/{grp['id']}/share.png?key={grp['view_key']}&evening={evening}")
        assert r.status_code == 404, evening


def hold_drawings(monkeypatch) -> tuple[threading.Event, threading.Event]:
    """Every picture drawn from now on sets ``started`` and waits for ``release``: a drawing held
    in progress, its slot taken."""
    from scorekeeper.web.groups import routes

    started, release = threading.Event(), threading.Event()
    real = routes.picture

    def slow(*args):
        started.set()
        release.wait(20)
        return real(*args)

    monkeypatch.setattr(routes, "picture", slow)
    return started, release


def test_pictures_past_those_being_served_and_queued_are_refused_with_retry_after(client, grp, monkeypatch):
    """Picture requests a process serves at once are bounded, a few more wait their turn, and one
    past those is told to come back (503, Retry-After) rather than queued in front of the taps."""
    from concurrent.futures import ThreadPoolExecutor

    app = client.application
    app.config.update(PICTURE_SLOTS=1, PICTURE_QUEUE=1)
    monkeypatch.setattr(pictures, "_kept", OrderedDict())  # drawn, not kept from another test
    started, release = hold_drawings(monkeypatch)
    group = f"/g/{grp['id']}/share.png?key={grp['view_key']}"
    evening = f"{group}&evening={grp['table']['id']}"

    def fetch(url):
        return app.test_client(use_cookies=False).get(url)

    with ThreadPoolExecutor(2) as pool:
        first = pool.submit(fetch, group)
        assert started.wait(20)
        queued = pool.submit(fetch, evening)
        while pictures_waiting(app) < 1 and not queued.done():
            threading.Event().wait(0.01)
        refused = fetch(evening)
        release.set()
        assert refused.status_code == 503 and refused.headers["Retry-After"] == "2", refused.status_code
        assert first.result().status_code == queued.result().status_code == 200
    assert fetch(evening).status_code == 200
    polled = app.test_client().get(
        f"/api/v1/tables/{grp['table']['id']}/version", headers={"X-Table-Key": grp["table"]["edit_key"]}
    )
    assert polled.status_code == 200


def pictures_waiting(app) -> int:
    """Requests waiting at the picture gate (0 where there is none)."""
    layer = app.wsgi_app
    while layer is not None:
        if hasattr(layer, "_waiting"):
            return layer._waiting
        layer = getattr(layer, "wsgi_app", None) or getattr(layer, "app", None)
        if not callable(layer) or hasattr(layer, "config"):
            return 0
    return 0


HOSTILE = ["a\x85b", "<b>x</b>", "\x01\x07", "가나다라마바사아자차카타파하가나", "a\u202eb", "x" * 120]


@pytest.mark.parametrize("bad", HOSTILE)
def test_the_picture_is_drawn_for_anything_a_group_holds(client, grp, bad):
    """Rows a past import left (a C1 control, markup, 16 characters, a colour "nope", a currency
    or an evening's name with a control): the picture is drawn, never a 500."""
    engine = client.application.extensions["sk_engine"]
    with engine.begin() as conn:
        gid = conn.execute(text("select id from sk_groups where public_id = :p"), {"p": grp["id"]}).scalar_one()
        conn.execute(text("update sk_groups set name = :n where id = :g"), {"n": bad[:120], "g": gid})
        conn.execute(text("update sk_group_players set colour = 'nope' where group_id = :g"), {"g": gid})
        conn.execute(text("update sk_tables set title = :n where group_id = :g"), {"n": bad[:120], "g": gid})
    bot = client.application.test_client(use_cookies=False)
    for url in (
        f"/g/{grp['id']}/share.png?key={grp['view_key']}",
        f"/g/{grp['id']}/share.png?key={grp['view_key']}&evening={grp['table']['id']}",
    ):
        r = bot.get(url)
        assert r.status_code == 200 and r.data[:4] == b"\x89PNG", url


@pytest.mark.parametrize("players", [5, 56])
@pytest.mark.parametrize("currency", ["원", "\x85", "<i>"])
def test_everything_drawn_stays_inside_the_margin_a_crop_may_take(players, currency):
    """Legible when a chat shows it small: nothing drawn outside the centre a 2:1 crop keeps,
    however many players, however long their names, whatever the currency holds."""
    names = [f"플레이어{i:02d}이름이아주긴사람" for i in range(players)]
    standings = [
        (n, "#1c7ed6" if i % 2 else "nope", f"+{i * 10**9:,}{currency}", 1 - 2 * (i % 2)) for i, n in enumerate(names)
    ]
    transfers = [(f"{a} → {b}", f"{10**12:,}{currency}") for a, b in itertools.pairwise(names)]
    png = picture.picture("모임" * 40, "부제" * 40, standings, transfers, "고스톱 점수판", "남은 정산", "… 외 {n}")
    img = Image.open(io.BytesIO(png)).convert("RGB")
    assert img.size == (1200, 600)
    box = ImageChops.difference(img, Image.new("RGB", img.size, picture.BG)).getbbox()
    assert box[0] >= picture.MARGIN - 2 and box[2] <= 1200 - picture.MARGIN + 2 and box[3] <= 600 - 20, box


def test_a_missing_font_falls_back(monkeypatch):
    monkeypatch.setattr(picture, "FONT", picture.FONT.with_name("missing.ttf"))
    monkeypatch.setattr(picture, "FONT_BOLD", picture.FONT.with_name("missing.ttf"))
    picture.font.cache_clear()
    try:
        png = picture.picture("토요일", "x", [("민수", "#123456", "+1", 1)], [("민수 → 지영", "1원")], "app", "h")
        assert png[:4] == b"\x89PNG"
    finally:
        picture.font.cache_clear()
