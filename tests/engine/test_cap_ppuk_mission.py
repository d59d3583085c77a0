"""Issue 22: house rules Korean tables play — 상한가 (a cap on what one loser pays), go-bak where both
losers pay, how the winner's cup is counted, 연뻑, and a mission that belongs to whoever made it.
Each through the summary contract, the live hand and the series, with its worked example."""

from __future__ import annotations

import subprocess
import sys

import pytest

from scorekeeper.engine.live.hand import HandSetup, replay
from scorekeeper.engine.rules import OPTIONS, PRESETS, rules_from
from scorekeeper.engine.summary.contract import score_summary

from .series_cases import series

JUNK_12 = ["1j1", "1j2", "2j1", "2j2", "3j1", "3j2", "4j1", "4j2", "5j1", "5j2", "6j1", "6j2"]  # 12 junk: 3 points
ANIMALS_7 = ["2a", "4a", "5a", "6a", "7a", "10a", "12a"]  # 7 animals, no godori: 3 points
HONG_DAN = ["1r", "2r", "3r"]  # 3 points, no double of its own
# rules.md §5, pagat's worked example in its reachable form: A 12 junk + 7 animals, three goes;
# B (4 junk) pays (6 + 2) × 2 (third go) × 2 (pi-bak) × 2 (meong-dda) = 64, C (5 junk, 1g) 32.
PAGAT = {
    "players": ["A", "B", "C"],
    "outcome": {"type": "stop", "winner": "A"},
    "gos": {"A": 3},
    "captures": {
        "A": JUNK_12 + ANIMALS_7,
        "B": ["7j1", "7j2", "8j1", "8j2"],
        "C": ["1g", "9j1", "9j2", "10j1", "10j2", "11j1", "11j2"],
    },
}


def scored(doc: dict, options: dict | None = None, **kw) -> dict:
    doc = {**doc, **kw}
    if options is not None:
        doc["rules"] = {"preset": doc.get("rules", {}).get("preset", "pagat"), "options": options}
    result = score_summary(doc)
    assert result["ok"], result
    return result


def paid(result: dict) -> dict[str, int]:
    return {p["from"]: p["points"] for p in result["payments"] if p["kind"] == "stop"}


def test_the_new_options_keep_every_preset_as_it_was():
    for rules in PRESETS.values():
        assert rules.payment_cap == 0 and rules.cup_counting == "payment" and rules.consecutive_ppuk == 0


def test_the_new_options_have_korean_and_english_labels():
    for name in ("payment_cap", "cup_counting", "consecutive_ppuk"):
        meta = OPTIONS[name].metadata
        assert any("가" <= ch <= "힣" for ch in meta["ko"]) and meta["en"][0].isascii() and meta["group"]


# -- 상한가: "점 백원, 상한가 만원" is a cap of 100 points --------------------------------------------------


@pytest.mark.parametrize(
    "cap, payments",
    [
        pytest.param(0, {"B": 64, "C": 32}, id="no-cap"),
        pytest.param(100, {"B": 64, "C": 32}, id="cap-above-both"),  # 점 백원, 상한가 만원
        pytest.param(50, {"B": 50, "C": 32}, id="cap-between"),
        pytest.param(32, {"B": 32, "C": 32}, id="cap-equal-to-c"),
        pytest.param(10, {"B": 10, "C": 10}, id="cap-below-both"),
    ],
)
def test_payment_cap_on_pagats_worked_example(cap, payments):
    result = scored(PAGAT, {"payment_cap": cap})
    assert paid(result) == payments
    b_trail = result["payments"][0]["trail"]
    if payments["B"] < 64:
        assert b_trail[-1] == {"id": "payment_cap", "label": b_trail[-1]["label"], "value": cap, "before": 64}
    else:
        assert all(s["id"] != "payment_cap" for s in b_trail)


def test_payment_cap_changes_nothing_when_off():
    assert score_summary({**PAGAT, "rules": {"options": {"payment_cap": 0}}}) == score_summary(PAGAT)


def test_payment_cap_leaves_fixed_payments_alone():
    result = scored(PAGAT, {"payment_cap": 2}, fixed=[{"kind": "first_turn_ppuk", "player": "A"}])
    assert paid(result) == {"B": 2, "C": 2}
    assert [p["points"] for p in result["payments"] if p["kind"] == "first_turn_ppuk"] == [3, 3]


def test_payment_cap_a_dok_bak_payer_pays_each_share_capped():
    # B said go: B pays its own 64 and C's 32, each capped at 50: 50 + 32.
    result = scored(PAGAT, {"payment_cap": 50}, gos={"A": 3, "B": 1})
    [payment] = result["payments"]
    assert (payment["from"], payment["points"]) == ("B", 82)
    share = next(s for s in payment["trail"] if s["id"] == "dok_bak")
    assert share["value"] == 32
    uncapped = scored(PAGAT, {}, gos={"A": 3, "B": 1})
    assert result["notes"] == uncapped["notes"] and [n["id"] for n in result["notes"]] == ["dok_bak"]
    capped = scored(PAGAT, {"payment_cap": 20}, gos={"A": 3, "B": 1})
    [payment] = capped["payments"]
    assert payment["points"] == 40  # 20 + 20
    assert next(s for s in payment["trail"] if s["id"] == "dok_bak")["trail"][-1]["id"] == "payment_cap"


@pytest.mark.parametrize(
    "rule, cap, payments",
    [
        pytest.param("dok_bak_doubled", 100, {"B": 100 + 64}, id="doubled-each-share-capped"),  # 128→100, 64
        pytest.param("times_players", 100, {"B": 100}, id="times-players-capped"),  # 64 × 3 = 192 → 100
        pytest.param("double_own", 100, {"B": 100, "C": 32}, id="double-own-capped"),  # 128 → 100
    ],
)
def test_payment_cap_after_the_go_bak_doubles(rule, cap, payments):
    result = scored(PAGAT, {"payment_cap": cap, "go_bak_three_players": rule}, gos={"A": 3, "B": 1})
    assert paid(result) == payments
    assert sum(result["net"].values()) == 0


CUP = {
    **PAGAT,
    "captures": {
        "A": ["2a", "4a", "5a", "6a", "7a", "9a", "10a", *JUNK_12],
        "B": ["7j1", "7j2", "8j1", "8j2"],
        "C": ["1g", "9j1", "9j2", "10j1", "10j2", "11j1"],
    },
}


@pytest.mark.parametrize(
    "cap, a_score, payments",
    [
        # The reference's second example: the cup as an animal, 6 with meong-dda, brings 64 + 32; as junk,
        # 7 without it, (7 + 2) × 2 × 2 (pi-bak) = 36 and 18.
        pytest.param(0, 6, {"B": 64, "C": 32}, id="no-cap-animal"),
        pytest.param(20, 6, {"B": 20, "C": 20}, id="cap-20-animal-still-more"),  # 40 against 20 + 18
        pytest.param(18, 7, {"B": 18, "C": 18}, id="cap-18-a-tie-goes-to-the-higher-score"),  # 36 each way
    ],
)
def test_payment_cap_counts_the_cup_for_the_larger_capped_total(cap, a_score, payments):
    result = scored(CUP, {"payment_cap": cap})
    assert result["scores"]["A"]["points"] == a_score and paid(result) == payments


CAP_EVENTS = [
    {"type": "capture", "player": "A", "cards": ["1g", "3g", "8g", *ANIMALS_7]},
    {"type": "end_turn"},
    {"type": "stop", "player": "A"},
]  # 3 brights + 7 animals: 6, ×2 gwang-bak ×2 meong-dda = 24


def test_payment_cap_in_a_live_hand_and_a_series():
    state = replay(HandSetup.create(["A", "B", "C"], "A", "pagat", {"payment_cap": 10}), CAP_EVENTS)
    assert paid(state.result()) == {"B": 10, "C": 10}
    s = series(
        "ABC", [{"log": {"events": CAP_EVENTS}}], first_dealer="A", rules={"options": {"payment_cap": 10}}, length=2
    )
    assert s.deals[0].net == {"A": 20, "B": -10, "C": -10}


def test_scorekeeper_rules_lists_the_new_options():
    out = subprocess.run(
        [sys.executable, "-m", "scorekeeper.cli", "rules"], capture_output=True, text=True, check=True
    ).stdout
    for name in ("payment_cap", "cup_counting", "consecutive_ppuk"):
        assert name in out and OPTIONS[name].metadata["ko"] in out
    assert rules_from("pagat", {"payment_cap": 100}).payment_cap == 100


# -- 3-player go-bak where both losers pay: the go-sayer own × players, the other their own ------------


@pytest.mark.parametrize(
    "rule, payments",
    [
        pytest.param("times_players", {"B": 9}, id="times-players"),  # 3 × 3, C nothing
        pytest.param("times_players_each", {"B": 9, "C": 3}, id="times-players-each"),  # michaeldslim: B 9, C 3
    ],
)
def test_go_bak_times_players_each(rule, payments):
    result = scored(
        {
            "players": ["A", "B", "C"],
            "outcome": {"type": "stop", "winner": "A"},
            "captures": {"A": HONG_DAN, "B": ["8a"], "C": ["11g"]},
            "gos": {"B": 1},
        },
        {"go_bak_three_players": rule},
    )
    assert paid(result) == payments and sum(result["net"].values()) == 0
    b = next(p for p in result["payments"] if p["from"] == "B")
    assert b["trail"][-1] == {"id": "go_bak", "label": b["trail"][-1]["label"], "factor": 3, "players": 3}
    assert all(s["id"] != "dok_bak" for s in b["trail"])


def test_go_bak_times_players_each_with_both_losers_gone_and_a_cap():
    doc = {
        "players": ["A", "B", "C"],
        "outcome": {"type": "stop", "winner": "A"},
        "last_go": "C",
        "captures": {"A": HONG_DAN, "B": ["8a"], "C": ["11g"]},
        "gos": {"B": 1, "C": 1},
    }
    assert paid(scored(doc, {"go_bak_three_players": "times_players_each"})) == {"B": 3, "C": 9}
    assert paid(scored(doc, {"go_bak_three_players": "times_players_each", "payment_cap": 5})) == {"B": 3, "C": 5}
    given = {**doc, "dokbak": {"player": "B", "reason": "go_bak"}}
    assert paid(scored(given, {"go_bak_three_players": "times_players_each"})) == {"B": 9, "C": 3}


GO_BAK_EVENTS = [
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


def test_go_bak_times_players_each_in_a_live_hand_and_a_series():
    options = {"go_bak_three_players": "times_players_each"}
    state = replay(HandSetup.create(["A", "B", "C"], "A", "pagat", options), GO_BAK_EVENTS)
    assert paid(state.result()) == {"B": 9, "C": 3}
    s = series("ABC", [{"log": {"events": GO_BAK_EVENTS}}], first_dealer="A", rules={"options": options}, length=2)
    assert s.deals[0].net == {"A": 12, "B": -9, "C": -3}


# -- how the winner's cup is counted: for the larger payment (reading 5.5) or the higher score ------------


@pytest.mark.parametrize(
    "counting, a_score, payments",
    [
        # The reference's second example: the cup as an animal makes 6 with meong-dda, 64 + 32; as junk 7
        # without it, (7 + 2) × 2 (third go) × 2 (pi-bak) = 36 and 18. bipark counts it for the higher score.
        pytest.param(None, 6, {"B": 64, "C": 32}, id="default-payment"),
        pytest.param("payment", 6, {"B": 64, "C": 32}, id="payment"),
        pytest.param("score", 7, {"B": 36, "C": 18}, id="score"),
    ],
)
def test_cup_counting(counting, a_score, payments):
    options = {} if counting is None else {"cup_counting": counting}
    result = scored(CUP, options)
    assert result["scores"]["A"]["points"] == a_score and paid(result) == payments


@pytest.mark.parametrize("counting", ["payment", "score"])
def test_cup_counting_leaves_a_losers_cup_to_save_them(counting):
    # B's cup as junk makes 6 junk: no pi-bak under either counting; C (no junk) pays double.
    doc = {
        "players": ["A", "B", "C"],
        "outcome": {"type": "stop", "winner": "A"},
        "captures": {"A": JUNK_12 + HONG_DAN, "B": ["9a", "7j1", "7j2", "8j1", "8j2"], "C": ["11g"]},
    }
    assert paid(scored(doc, {"cup_counting": counting})) == {"B": 6, "C": 12}


def test_cup_counting_in_a_live_hand_and_a_series():
    events = [
        {"type": "end_turn"},
        {"type": "capture", "player": "B", "cards": CUP["captures"]["B"]},
        {"type": "end_turn"},
        {"type": "capture", "player": "C", "cards": CUP["captures"]["C"]},
        {"type": "end_turn"},
        {"type": "capture", "player": "A", "cards": CUP["captures"]["A"]},
        {"type": "end_turn"},
        {"type": "stop", "player": "A"},
    ]
    options = {"cup_counting": "score"}
    state = replay(HandSetup.create(["A", "B", "C"], "A", "pagat", options), events)
    assert state.result()["scores"]["A"]["points"] == 7
    s = series("ABC", [{"log": {"events": events}}], first_dealer="A", rules={"options": options}, length=2)
    plain = series("ABC", [{"log": {"events": events}}], first_dealer="A", length=2)
    assert s.deals[0].net["A"] < plain.deals[0].net["A"]


# -- 연뻑: a ppuk on each of a player's first two turns, paid instead of the first-turn ppuk ---------------

PPUK = {"type": "ppuk", "player": "B"}
END = {"type": "end_turn"}
HANGAME = {"first_turn_ppuk": 7, "consecutive_ppuk": 14}  # Hangame's 맞고: 첫뻑 7, 연뻑 14 (삼연뻑 21)


def fixed_paid(result: dict) -> list[tuple[str, str, str, int]]:
    return sorted((p["kind"], p["from"], p["to"], p["points"]) for p in result["payments"] if p["kind"] != "stop")


@pytest.mark.parametrize(
    "options, events, fixed",
    [
        pytest.param(
            HANGAME,
            [END, PPUK, END, END, END, PPUK],
            [{"kind": "consecutive_ppuk", "player": "B"}],
            id="two-first-turns-consecutive",
        ),
        pytest.param(
            HANGAME, [END, PPUK, END, END, END], [{"kind": "first_turn_ppuk", "player": "B"}], id="first-turn-only"
        ),
        pytest.param(HANGAME, [END, END, END, END, PPUK], [], id="second-turn-only"),
        pytest.param(
            HANGAME,
            [END, PPUK, END, END, END, END, END, END, PPUK],
            [{"kind": "first_turn_ppuk", "player": "B"}],
            id="first-and-third-turns",
        ),
        pytest.param(
            {"first_turn_ppuk": 7},
            [END, PPUK, END, END, END, PPUK],
            [{"kind": "first_turn_ppuk", "player": "B"}],
            id="off-first-turn-ppuk-stays",
        ),
        pytest.param(
            {"first_turn_ppuk": 0, "consecutive_ppuk": 14},
            [END, PPUK, END, END, END, PPUK],
            [{"kind": "consecutive_ppuk", "player": "B"}],
            id="first-turn-ppuk-off",
        ),
    ],
)
def test_consecutive_ppuk_recognised_from_the_log(options, events, fixed):
    state = replay(HandSetup.create(["A", "B", "C"], "A", "pagat", options), events)
    assert state.fixed() == fixed


def test_consecutive_ppuk_pays_hangames_fourteen_instead_of_seven():
    events = [
        END,
        PPUK,
        END,
        END,
        END,
        PPUK,
        END,
        END,
        {"type": "capture", "player": "A", "cards": HONG_DAN},
        END,
        {"type": "stop", "player": "A"},
    ]
    state = replay(HandSetup.create(["A", "B", "C"], "A", "pagat", HANGAME), events)
    result = state.result()
    assert state.summary()["fixed"] == [{"kind": "consecutive_ppuk", "player": "B"}]
    assert fixed_paid(result) == [("consecutive_ppuk", "A", "B", 14), ("consecutive_ppuk", "C", "B", 14)]
    s = series("ABC", [{"log": {"events": events}}], first_dealer="A", rules={"options": HANGAME}, length=2)
    assert s.deals[0].net == result["net"]


def test_consecutive_ppuk_in_a_summary():
    doc = {
        "players": ["A", "B", "C"],
        "outcome": {"type": "nagari"},
        "fixed": [{"kind": "consecutive_ppuk", "player": "B"}],
    }
    result = scored(doc, HANGAME)
    assert fixed_paid(result) == [("consecutive_ppuk", "A", "B", 14), ("consecutive_ppuk", "C", "B", 14)]
    assert result["payments"][0]["trail"][0]["id"] == "consecutive_ppuk"
    capped = scored(
        {**doc, "outcome": {"type": "stop", "winner": "A"}, "captures": {"A": HONG_DAN}}, {**HANGAME, "payment_cap": 2}
    )
    assert ("consecutive_ppuk", "A", "B", 14) in fixed_paid(capped)  # never capped


@pytest.mark.parametrize(
    "options, fixed, code",
    [
        pytest.param({}, [{"kind": "consecutive_ppuk", "player": "B"}], "rule_off", id="off"),
        pytest.param(
            HANGAME,
            [{"kind": "consecutive_ppuk", "player": "B"}, {"kind": "first_turn_ppuk", "player": "B"}],
            "bad_value",
            id="both-for-one-player",
        ),
        pytest.param(HANGAME, [{"kind": "consecutive_ppuk", "player": "Z"}], "unknown_player", id="not-a-player"),
    ],
)
def test_consecutive_ppuk_refusals(options, fixed, code):
    doc = {"players": ["A", "B", "C"], "outcome": {"type": "nagari"}, "fixed": fixed, "rules": {"options": options}}
    result = score_summary(doc)
    assert not result["ok"] and result["errors"][0]["code"] == code


# -- a mission belongs to whoever completed it (pagat: "if a player manages to make the combination and
#    win the game, the multiplier is applied to their winnings") -------------------------------------------

MISSIONS = {"missions": True}
STOP_A = {
    "players": ["A", "B", "C"],
    "outcome": {"type": "stop", "winner": "A"},
    "captures": {"A": HONG_DAN, "B": ["8a"], "C": ["11g"]},
}


@pytest.mark.parametrize(
    "mission, b_pays",
    [
        pytest.param(3, 9, id="a-number-multiplies-the-winner-as-before"),
        pytest.param({"multiplier": 3, "player": "A"}, 9, id="the-winner-made-it"),
        pytest.param({"multiplier": 3, "player": "B"}, 3, id="another-player-made-it"),
    ],
)
def test_mission_belongs_to_whoever_completed_it(mission, b_pays):
    result = scored(STOP_A, MISSIONS, mission=mission)
    assert paid(result) == {"B": b_pays, "C": b_pays}


def test_mission_with_a_player_in_a_number_summary_is_byte_identical_to_before():
    assert score_summary({**STOP_A, "rules": {"options": MISSIONS}, "mission": 3}) == score_summary(
        {**STOP_A, "rules": {"options": MISSIONS}, "mission": {"multiplier": 3, "player": "A"}}
    )


@pytest.mark.parametrize(
    "mission, code, path",
    [
        pytest.param({"multiplier": 3, "player": "Z"}, "unknown_player", "mission.player", id="not-a-player"),
        pytest.param({"multiplier": 12, "player": "A"}, "bad_value", "mission", id="out-of-range"),
        pytest.param({"multiplier": 3}, "bad_value", "mission", id="no-player"),
        pytest.param({"multiplier": 3, "player": "A", "x": 1}, "bad_value", "mission", id="unknown-key"),
    ],
)
def test_mission_object_refusals(mission, code, path):
    result = score_summary({**STOP_A, "rules": {"options": MISSIONS}, "mission": mission})
    assert not result["ok"] and (result["errors"][0]["code"], result["errors"][0]["path"]) == (code, path)


MISSION_EVENTS = [{"type": "capture", "player": "A", "cards": HONG_DAN}, END, {"type": "stop", "player": "A"}]


@pytest.mark.parametrize(
    "event, summary_mission, b_pays",
    [
        pytest.param({"type": "mission", "multiplier": 3}, 3, 9, id="no-player-as-before"),
        pytest.param(
            {"type": "mission", "multiplier": 3, "player": "A"}, {"multiplier": 3, "player": "A"}, 9, id="the-winner"
        ),
        pytest.param(
            {"type": "mission", "multiplier": 3, "player": "B"},
            {"multiplier": 3, "player": "B"},
            3,
            id="another-player",
        ),
    ],
)
def test_mission_event_names_the_player_in_a_live_hand_and_a_series(event, summary_mission, b_pays):
    events = [event, *MISSION_EVENTS]
    state = replay(HandSetup.create(["A", "B", "C"], "A", "pagat", MISSIONS), events)
    assert state.summary()["mission"] == summary_mission
    assert paid(state.result()) == {"B": b_pays, "C": b_pays}
    s = series("ABC", [{"log": {"events": events}}], first_dealer="A", rules={"options": MISSIONS}, length=2)
    assert s.deals[0].net["B"] == -b_pays


# -- 월약 offered when the log shows it -------------------------------------------------------------------

FOUR_B = {"type": "capture", "player": "B", "cards": ["2a", "2r", "2j1", "2j2"]}


@pytest.mark.parametrize(
    "options, events, offers",
    [
        pytest.param({"weol_yak": True}, [END, FOUR_B], ("B",), id="b-took-four-on-the-first-turn"),
        pytest.param({"weol_yak": True}, [END, FOUR_B, {"type": "weol_yak", "player": "B"}], (), id="already-recorded"),
        pytest.param({}, [END, FOUR_B], (), id="rule-off"),
        pytest.param(
            {"weol_yak": True},
            [END, {"type": "capture", "player": "B", "cards": ["2a", "2r", "2j1"]}],
            (),
            id="three-cards",
        ),
        pytest.param({"weol_yak": True}, [END, END, END, END, FOUR_B], (), id="second-turn"),
    ],
)
def test_weol_yak_offers(options, events, offers):
    state = replay(HandSetup.create(["A", "B", "C"], "A", "pagat", options), events)
    assert state.weol_yak_offers() == offers


def test_refusal_messages_stay_as_they_were_for_tables_without_consecutive_ppuk():
    doc = {"players": ["A", "B"], "outcome": {"type": "nagari"}, "fixed": [{"kind": "nope", "player": "A"}]}
    [error] = score_summary(doc)["errors"]
    assert error["message"] == (
        "fixed kind is one of first_turn_ppuk, first_turn_ttadak, first_turn_chok, first_turn_four, boar_pot."
    )
    assert "consecutive_ppuk" in score_summary({**doc, "rules": {"options": HANGAME}})["errors"][0]["message"]
    [error] = score_summary({**STOP_A, "rules": {"options": MISSIONS}, "mission": 12})["errors"]
    assert error["message"] == "mission is a multiplier from 2 to 9."
