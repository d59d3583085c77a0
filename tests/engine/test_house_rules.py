"""Issue 8: house rules other engines play, each an option — per value, through the summary contract,
the live hand and the series, and listed by ``scorekeeper rules``."""

from __future__ import annotations

import subprocess
import sys

import pytest

from scorekeeper.engine.live.hand import HandSetup, replay
from scorekeeper.engine.rules import OPTIONS, PRESETS, Rules, rules_from
from scorekeeper.engine.summary.contract import score_summary

from .series_cases import series

NEW_OPTIONS = ("meong_bak_five", "shake_bomb_once", "reverse_go", "meong_dda_per_animal", "chongtong_zero_still_wins")
HONG_DAN = ["1r", "2r", "3r"]  # 3 points, no double of its own
ANIMALS_5 = ["2a", "5a", "6a", "7a", "10a"]  # 5 animals, no godori: 1 point
JUNK_12 = ["1j1", "1j2", "3j1", "3j2", "4j1", "4j2", "5j1", "5j2", "6j1", "6j2", "7j1", "7j2"]  # 3 points


def stop(options: dict, captures: dict, players=("A", "B", "C"), **kw) -> dict:
    doc = {
        "players": list(players),
        "rules": {"options": options},
        "captures": captures,
        "outcome": {"type": "stop", "winner": "A"},
        **kw,
    }
    result = score_summary(doc)
    assert result["ok"], result
    return result


def paid(result: dict) -> dict[str, int]:
    return {p["from"]: p["points"] for p in result["payments"] if p["kind"] == "stop"}


def test_every_new_option_is_off_by_default_in_every_preset():
    for rules in PRESETS.values():
        assert not any(getattr(rules, name) for name in NEW_OPTIONS)
        assert rules.go_bak_three_players in ("dok_bak", "double_own")


@pytest.mark.parametrize("name", NEW_OPTIONS)
def test_every_new_option_has_a_korean_and_an_english_label(name):
    meta = OPTIONS[name].metadata
    hangul = lambda text: any("가" <= ch <= "힣" for ch in text)
    assert hangul(meta["ko"]) and meta["en"] and meta["en"][0].isascii() and meta["group"]


# -- 멍박 as "winner with 5+ animals, this loser none": ×2, stacking with meong-dda ----------------------


@pytest.mark.parametrize(
    "options, b_cards, winner_cards, b_pays",
    [
        pytest.param({}, [], ANIMALS_5 + HONG_DAN, 4, id="off"),  # 1 + 3
        pytest.param({"meong_bak_five": True}, [], ANIMALS_5 + HONG_DAN, 8, id="on-loser-without-animals"),
        pytest.param({"meong_bak_five": True}, ["4a"], ANIMALS_5 + HONG_DAN, 4, id="on-loser-with-an-animal"),
        pytest.param({"meong_bak_five": True}, [], ["2a", "5a", "6a", "7a", *HONG_DAN], 3, id="on-four-animals"),
        # 7 animals: 3 + 3 = 6, meong-dda ×2 and meong-bak ×2 stack.
        pytest.param(
            {"meong_bak_five": True}, [], [*ANIMALS_5, "9a", "12a", *HONG_DAN], 24, id="stacks-with-meong-dda"
        ),
    ],
)
def test_meong_bak_five(options, b_cards, winner_cards, b_pays):
    options = {"cup_flexible": False, **options}
    result = stop(options, {"A": winner_cards, "B": b_cards, "C": ["8a"]})
    assert paid(result)["B"] == b_pays


# -- shakes and bombs not cumulative -------------------------------------------------------------------


@pytest.mark.parametrize(
    "options, shakes, bombs, factor",
    [
        pytest.param({}, [4, 5], [], 4, id="off-two-shakes-x4"),
        pytest.param({"shake_bomb_once": True}, [4, 5], [], 2, id="on-two-shakes-x2"),
        pytest.param({"shake_bomb_once": True}, [4], [], 2, id="on-one-shake-x2"),
        pytest.param({"shake_bomb_once": True}, [], [], 1, id="on-nothing"),
        pytest.param({"bomb_doubles": True}, [4], [6], 4, id="off-shake-and-bomb-x4"),
        pytest.param({"bomb_doubles": True, "shake_bomb_once": True}, [4], [6], 2, id="on-shake-and-bomb-x2"),
        pytest.param({"bomb_doubles": True, "shake_bomb_once": True}, [], [6, 7], 2, id="on-two-bombs-x2"),
        pytest.param({"shake_bomb_once": True}, [], [6], 1, id="on-bomb-that-does-not-double"),
    ],
)
def test_shake_bomb_once(options, shakes, bombs, factor):
    cards = HONG_DAN + [c for m in bombs for c in (f"{m}a", f"{m}r")]  # a bomb's month captured whole
    result = stop(options, {"A": cards, "B": ["8a"], "C": ["11g"]}, shakes={"A": shakes}, bombs={"A": bombs})
    assert paid(result)["B"] == result["scores"]["A"]["points"] * factor


# -- go-bak with three players: the go-sayer pays the total doubled, or own amount × players -------------


@pytest.mark.parametrize(
    "rule, payments",
    [
        pytest.param("dok_bak", {"B": 6}, id="dok-bak"),  # 3 + 3
        pytest.param("double_own", {"B": 6, "C": 3}, id="double-own"),
        pytest.param("dok_bak_doubled", {"B": 12}, id="dok-bak-doubled"),  # (3 + 3) × 2
        pytest.param("times_players", {"B": 9}, id="times-players"),  # 3 × 3
    ],
)
def test_go_bak_three_players(rule, payments):
    result = stop({"go_bak_three_players": rule}, {"A": HONG_DAN, "B": ["8a"], "C": ["11g"]}, gos={"B": 1})
    assert paid(result) == payments
    assert sum(result["net"].values()) == 0


def test_go_bak_variants_in_a_live_hand():
    events = [
        {"type": "capture", "player": "A", "cards": ["11g"]},
        {"type": "end_turn"},
        {"type": "capture", "player": "B", "cards": ["1g", "3g", "8g"]},
        {"type": "end_turn"},
        {"type": "go", "player": "B"},
        {"type": "end_turn"},
        {"type": "capture", "player": "A", "cards": HONG_DAN},
        {"type": "end_turn"},
        {"type": "stop", "player": "A"},
    ]
    for rule, b_pays in (("dok_bak_doubled", 12), ("times_players", 9)):
        state = replay(HandSetup.create(["A", "B", "C"], "A", "pagat", {"go_bak_three_players": rule}), events)
        assert paid(state.result()) == {"B": b_pays}


def test_go_bak_dokbak_given_in_the_summary_is_accepted_by_the_new_variants():
    doc = {
        "players": ["A", "B", "C"],
        "rules": {"options": {"go_bak_three_players": "dok_bak_doubled"}},
        "captures": {"A": HONG_DAN},
        "gos": {"B": 1},
        "outcome": {"type": "stop", "winner": "A"},
        "dokbak": {"player": "B", "reason": "go_bak"},
    }
    assert paid(score_summary(doc)) == {"B": 12}


# -- 역고, reverse go (bipark/gostop-ts): a go said after an opponent's go; ×N instead of the go doubling --

REVERSE = [
    {"type": "capture", "player": "A", "cards": ["1g", "3g", "8g"]},
    {"type": "end_turn"},
    {"type": "go", "player": "A"},
    {"type": "capture", "player": "B", "cards": ["6r", "9r", "10r"]},
    {"type": "end_turn"},
    {"type": "go", "player": "B"},
    {"type": "end_turn"},
    {"type": "end_turn"},
    {"type": "capture", "player": "B", "cards": HONG_DAN},
    {"type": "end_turn"},
    {"type": "stop", "player": "B"},
]


@pytest.mark.parametrize(
    "factor, c_pays",
    [
        pytest.param(0, 9, id="off"),  # hong-dan 3 + cheong-dan 3 + 6 ribbons 2, + 1 go
        pytest.param(4, 36, id="x4"),
        pytest.param(2, 18, id="x2"),
    ],
)
def test_reverse_go_in_a_live_hand(factor, c_pays):
    state = replay(HandSetup.create(["A", "B", "C"], "A", "pagat", {"reverse_go": factor}), REVERSE)
    summary = state.summary()
    assert summary.get("reverse_go", []) == (["B"] if factor else [])
    # A said go and lost: A pays both shares (dok-bak); C's share is the one without gwang-bak.
    payment = state.result()["payments"][0]
    assert payment["from"] == "A"
    assert next(s for s in payment["trail"] if s["id"] == "dok_bak")["value"] == c_pays


def test_reverse_go_replaces_the_go_doubling_in_the_summary():
    caps = {"A": [*JUNK_12, "8j1", "8j2", "9j1"], "B": ["8a"], "C": ["11g"]}  # 15 junk: 6 points
    plain = stop({"reverse_go": 4}, caps, gos={"A": 3})
    reverse = stop({"reverse_go": 4}, caps, gos={"A": 3}, reverse_go=["A"])
    assert [s["id"] for s in plain["payments"][0]["trail"]].count("go_doubling") == 1
    ids = [s["id"] for s in reverse["payments"][0]["trail"]]
    assert "reverse_go" in ids and "go_doubling" not in ids
    assert paid(reverse)["B"] == paid(plain)["B"] * 2  # ×4 instead of the third go's ×2


@pytest.mark.parametrize(
    "options, field, code",
    [
        pytest.param({}, ["A"], "rule_off", id="rule-off"),
        pytest.param({"reverse_go": 4}, ["B"], "bad_value", id="player-without-a-go"),
        pytest.param({"reverse_go": 4}, ["Z"], "unknown_player", id="not-a-player"),
        pytest.param({"reverse_go": 4}, "A", "bad_value", id="not-a-list"),
    ],
)
def test_reverse_go_refusals(options, field, code):
    doc = {
        "players": ["A", "B"],
        "rules": {"options": options},
        "captures": {"A": JUNK_12},
        "gos": {"A": 1},
        "outcome": {"type": "stop", "winner": "A"},
        "reverse_go": field,
    }
    result = score_summary(doc)
    assert not result["ok"] and result["errors"][0]["code"] == code


# -- meong-dda doubling again for each animal beyond 7 -------------------------------------------------


@pytest.mark.parametrize(
    "per_animal, animals, factor",
    [
        pytest.param(False, 7, 2, id="off-seven"),
        pytest.param(False, 9, 2, id="off-nine"),
        pytest.param(True, 6, 1, id="on-six"),
        pytest.param(True, 7, 2, id="on-seven"),
        pytest.param(True, 8, 4, id="on-eight"),
        pytest.param(True, 9, 8, id="on-nine"),
    ],
)
def test_meong_dda_per_animal(per_animal, animals, factor):
    cards = ["2a", "5a", "6a", "7a", "9a", "10a", "12a", "4a", "8a"][:animals] + HONG_DAN
    result = stop({"meong_dda_per_animal": per_animal, "cup_flexible": False}, {"A": cards, "B": ["11g"]})
    assert paid(result)["B"] == result["scores"]["A"]["points"] * factor


# -- a chongtong paying 0 without switching chongtong off ----------------------------------------------


@pytest.mark.parametrize(
    "options, ok, net_a",
    [
        pytest.param({}, True, 10, id="default-five"),
        pytest.param({"chongtong": 0}, False, None, id="zero-is-off"),
        pytest.param({"chongtong": 0, "chongtong_zero_still_wins": True}, True, 0, id="zero-still-wins"),
    ],
)
def test_chongtong_worth_zero(options, ok, net_a):
    doc = {
        "players": ["A", "B", "C"],
        "rules": {"options": options},
        "outcome": {"type": "chongtong", "winner": "A", "month": 1},
    }
    result = score_summary(doc)
    assert result["ok"] is ok
    if ok:
        assert result["net"]["A"] == net_a and result["outcome"]["type"] == "chongtong"
    else:
        assert result["errors"][0]["code"] == "rule_off"


def test_chongtong_worth_zero_in_a_live_hand_and_a_series():
    setup = HandSetup.create(["A", "B", "C"], "A", "pagat", {"chongtong": 0, "chongtong_zero_still_wins": True})
    state = replay(setup, [{"type": "chongtong", "player": "B", "month": 4}])
    assert state.outcome.type == "chongtong" and state.result()["net"] == {"A": 0, "B": 0, "C": 0}
    rules = {"options": {"chongtong": 0, "chongtong_zero_still_wins": True}}
    s = series(
        "ABC",
        [{"summary": {"outcome": {"type": "chongtong", "winner": "B", "month": 1}}}],
        first_dealer="A",
        rules=rules,
        length=2,
    )
    assert s.deals[0].number == 1 and s.next.dealer == "B"


def test_new_options_in_a_series():
    rules = {"options": {"go_bak_three_players": "times_players"}}
    record = {"summary": {"captures": {"A": HONG_DAN}, "gos": {"B": 1}, "outcome": {"type": "stop", "winner": "A"}}}
    s = series("ABC", [record], first_dealer="A", rules=rules, length=2)
    assert s.deals[0].net == {"A": 9, "B": -9, "C": 0}


def test_scorekeeper_rules_lists_the_new_options():
    out = subprocess.run(
        [sys.executable, "-m", "scorekeeper.cli", "rules"], capture_output=True, text=True, check=True
    ).stdout
    for name in NEW_OPTIONS:
        assert name in out and OPTIONS[name].metadata["ko"] in out
    assert "dok_bak_doubled" in str(rules_from("pagat", {"go_bak_three_players": "dok_bak_doubled"}))


def test_rules_defaults_unchanged_for_existing_tables():
    assert Rules().chongtong_played and not Rules(chongtong=0).chongtong_played
    assert Rules(chongtong=0, chongtong_zero_still_wins=True).chongtong_played


# -- every new option through a live hand and a series, per value ------------------------------------

LIVE_CASES = [
    # (option, value, events after which A stops, what B pays)
    ("meong_bak_five", False, [{"type": "capture", "player": "A", "cards": ANIMALS_5 + HONG_DAN}], 4),
    ("meong_bak_five", True, [{"type": "capture", "player": "A", "cards": ANIMALS_5 + HONG_DAN}], 8),
    (
        "shake_bomb_once",
        False,
        [
            {"type": "shake", "player": "A", "month": 11},
            {"type": "shake", "player": "A", "month": 12},
            {"type": "capture", "player": "A", "cards": HONG_DAN},
        ],
        12,
    ),
    (
        "shake_bomb_once",
        True,
        [
            {"type": "shake", "player": "A", "month": 11},
            {"type": "shake", "player": "A", "month": 12},
            {"type": "capture", "player": "A", "cards": HONG_DAN},
        ],
        6,
    ),
    # 8 animals with godori: 4 + 5 = 9 points; meong-dda ×2, or ×4 for the eighth animal.
    (
        "meong_dda_per_animal",
        False,
        [{"type": "capture", "player": "A", "cards": ["2a", "4a", "5a", "6a", "7a", "8a", "10a", "12a"]}],
        18,
    ),
    (
        "meong_dda_per_animal",
        True,
        [{"type": "capture", "player": "A", "cards": ["2a", "4a", "5a", "6a", "7a", "8a", "10a", "12a"]}],
        36,
    ),
]


@pytest.mark.parametrize("option, value, events, b_pays", LIVE_CASES, ids=[f"{o}-{v}" for o, v, _, _ in LIVE_CASES])
def test_new_options_in_a_live_hand_and_a_series(option, value, events, b_pays):
    options = {option: value}
    state = replay(
        HandSetup.create(["A", "B", "C"], "A", "pagat", options),
        [*events, {"type": "end_turn"}, {"type": "stop", "player": "A"}],
    )
    assert paid(state.result())["B"] == b_pays
    s = series(
        "ABC",
        [{"log": {"events": [*events, {"type": "end_turn"}, {"type": "stop", "player": "A"}]}}],
        first_dealer="A",
        rules={"options": options},
        length=2,
    )
    assert s.deals[0].net["B"] == -b_pays
