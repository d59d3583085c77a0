"""Issue 13: plural forms, money per locale, points as 점, cards and months as players say them."""

from __future__ import annotations

import pytest

from scorekeeper.engine.cards import CARDS
from scorekeeper.web.catalogue import i18n, terms


@pytest.fixture
def app(sqlite_app):
    return sqlite_app


def in_lang(app, lang):
    ctx = app.test_request_context("/", headers={"Cookie": f"lang={lang}"})
    ctx.push()
    return ctx


@pytest.mark.parametrize(
    ("lang", "key", "n", "text"),
    [
        ("ko", "gos_n", 1, "1고"),
        ("ko", "gos_n", 2, "2고"),
        ("en", "gos_n", 1, "1 go"),
        ("en", "gos_n", 2, "2 gos"),
        ("ko", "points_n", 1400, "1,400점"),
        ("en", "points_n", 1, "1 point"),
        ("en", "points_n", 12, "12 points"),
        ("en", "cards_n", 1, "1 card"),
        ("en", "cards_n", 3, "3 cards"),
        ("ko", "cards_n", 3, "3장"),
    ],
)
def test_count_forms(app, lang, key, n, text):
    ctx = in_lang(app, lang)
    try:
        assert i18n.gettext(key, n=n) == text
    finally:
        ctx.pop()


@pytest.mark.parametrize(
    ("lang", "value", "currency", "text"),
    [
        ("ko", 1400, "₩", "1,400원"),
        ("en", 1400, "₩", "₩1,400"),
        ("ko", -600, "₩", "-600원"),
        ("en", -600, "₩", "-₩600"),
        ("ko", 12, "pt", "12점"),
        ("en", 12, "pt", "12 points"),
        ("en", 2.5, "$", "$2.5"),
        ("ko", 1500, "$", "$1,500"),
    ],
)
def test_money_per_locale(app, lang, value, currency, text):
    ctx = in_lang(app, lang)
    try:
        assert i18n.money_text(value, currency) == text
    finally:
        ctx.pop()


@pytest.mark.parametrize(
    ("code", "ko", "en"),
    [
        ("1g", "송학 광", "pine bright (crane)"),
        ("12g", "비광", "rain bright"),
        ("9a", "국진", "sake cup"),
        ("11jd", "똥쌍피", "paulownia double junk"),
        ("5r", "난초 초단", "iris red plain ribbon"),
        ("6r", "모란 청단", "peony blue ribbon"),
        ("5j2", "난초 피", "iris junk"),
        ("b3", "쓰리피 보너스", "three-junk joker"),
    ],
)
def test_cards_as_players_say_them(app, code, ko, en):
    for lang, name in (("ko", ko), ("en", en)):
        ctx = in_lang(app, lang)
        try:
            assert terms.card_name(code) == name
        finally:
            ctx.pop()


def test_every_card_has_a_name_without_its_code(app):
    for lang in ("ko", "en"):
        ctx = in_lang(app, lang)
        try:
            for code in CARDS:
                name = terms.card_name(code)
                assert name and code not in name, (lang, code, name)
        finally:
            ctx.pop()


def test_months_as_months(app):
    ctx = in_lang(app, "ko")
    try:
        assert terms.shakes_text([5]) == "5월 흔들기"
    finally:
        ctx.pop()
    ctx = in_lang(app, "en")
    try:
        assert terms.shakes_text([5]) == "shake of month 5"
    finally:
        ctx.pop()


def test_terms_korean_alone_in_korean_and_glossed_in_english(app):
    ctx = in_lang(app, "ko")
    try:
        assert i18n.both("step_gwang_bak") == "광박" and terms.step_label({"id": "pi_bak"}) == "피박"
    finally:
        ctx.pop()
    ctx = in_lang(app, "en")
    try:
        assert i18n.both("step_gwang_bak") == "광박 gwang-bak" and i18n.both("pending") == "pending"
    finally:
        ctx.pop()


def test_refusals_in_korean_never_english(app):
    ctx = in_lang(app, "ko")
    try:
        assert i18n.refusal({"code": "card_twice", "message": "1g is captured twice"}) == "이미 먹은 패입니다."
        assert i18n.refusal({"code": "some_new_code", "message": "English"}) == "규칙에 맞지 않는 입력입니다."
    finally:
        ctx.pop()


def test_a_korean_phone_may_ask_for_glosses(app):
    client = app.test_client()
    client.get("/lang/ko")
    t = client.post("/api/v1/tables", json={"players": ["A", "B", "C"]}).get_json()
    client.get(f"/j/{t['id']}/{t['edit_key']}")
    client.post(
        f"/api/v1/tables/{t['id']}/hands",
        headers={"X-Table-Key": t["edit_key"]},
        json={"summary": {"captures": {"A": ["1g", "3g", "8g"]}, "outcome": {"type": "stop", "winner": "A"}}},
    )
    page = client.get(f"/t/{t['id']}/hands/1").get_data(as_text=True)
    assert "광박" in page and "gwang-bak" not in page
    client.get("/gloss/on")
    assert "광박 gwang-bak" in client.get(f"/t/{t['id']}/hands/1").get_data(as_text=True)
