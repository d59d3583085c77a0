"""Issue 31: the winner's cup counted on what is finally paid (after go-bak's ×players, dok-bak and the
cap), the ppuk chain as Hangame pays it (`ppuk_chain`, `three_consecutive_ppuk`) and the cap per player
(`payment_cap_per`). Each through the summary contract, the live hand and the series, with its worked
example."""

from __future__ import annotations

import subprocess
import sys

import pytest

from scorekeeper.engine.live.hand import HandSetup, replay
from scorekeeper.engine.rules import OPTIONS, PRESETS, rules_from
from scorekeeper.engine.summary.contract import score_summary

from .series_cases import series

NEW_OPTIONS = ("ppuk_chain", "three_consecutive_ppuk", "payment_cap_per")


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
        assert (rules.ppuk_chain, rules.three_consecutive_ppuk, rules.payment_cap_per) == ("replace", 0, "share")


def test_the_new_options_have_korean_and_english_labels():
    for name in NEW_OPTIONS:
        meta = OPTIONS[name].metadata
        assert any("가" <= ch <= "힣" for ch in meta["ko"]) and meta["en"][0].isascii() and meta["group"]


def test_scorekeeper_rules_lists_the_new_options():
    out = subprocess.run(
        [sys.executable, "-m", "scorekeeper.cli", "rules"], capture_output=True, text=True, check=True
    ).stdout
    for name in NEW_OPTIONS:
        assert name in out and OPTIONS[name].metadata["ko"] in out
    assert rules_from("pagat", {"ppuk_chain": "each"}).ppuk_chain == "each"


@pytest.mark.parametrize(
    "option, value",
    [
        pytest.param("ppuk_chain", "both", id="chain-not-a-choice"),
        pytest.param("payment_cap_per", "hand", id="cap-per-not-a-choice"),
        pytest.param("three_consecutive_ppuk", -1, id="below-zero"),
        pytest.param("three_consecutive_ppuk", True, id="a-flag-for-a-number"),
    ],
)
def test_the_new_options_refuse_what_they_do_not_take(option, value):
    result = score_summary(
        {"players": ["A", "B"], "outcome": {"type": "nagari"}, "rules": {"options": {option: value}}}
    )
    assert not result["ok"] and result["errors"][0]["code"] == "bad_option"


# -- the winner's cup chosen on what is finally paid ---------------------------------------------------

# The hand: C holds 7 animals with the cup and 9 junk; A said go. As an animal the cup makes 5 (7
# animals 3, ×2 meong-dda; 9 junk), as junk 4 (6 animals 2, 11 junk 2, no meong-dda). korean-common.
CUP_HAND = {
    "rules": {"preset": "korean-common", "options": {"go_bak_three_players": "times_players_each"}},
    "players": ["A", "B", "C"],
    "captures": {
        "C": [
            *["5a", "6a", "7a", "10a", "12a", "2a", "9a", "4r", "5r", "6r", "9r", "12r"],
            *["1j1", "1j2", "4j1", "4j2", "5j1", "5j2", "6j1", "6j2", "7j1"],
        ],
        "A": ["1r", "2r", "3r", "8j1", "8j2", "10j1"],
        "B": ["2j1", "2j2", "3j1", "3j2", "9j1", "9j2"],
    },
    "gos": {"A": 1},
    "outcome": {"type": "stop", "winner": "C"},
}


def with_go_bak(rule: str, **options) -> dict:
    return {**CUP_HAND, "rules": {"preset": "korean-common", "options": {"go_bak_three_players": rule, **options}}}


@pytest.mark.parametrize(
    "rule, payments",
    [
        # The worked example: as an animal A 24 + B 8 = 32; as junk A 30 + B 5 = 35.
        pytest.param("times_players_each", {"A": 30, "B": 5}, id="times-players-each-35-not-32"),
        # The go-sayer alone: 24 as an animal, 30 as junk.
        pytest.param("times_players", {"A": 30}, id="times-players-30-not-24"),
    ],
)
def test_the_winners_cup_is_counted_on_what_is_finally_paid(rule, payments):
    result = score_summary(with_go_bak(rule))
    assert result["ok"], result
    assert paid(result) == payments
    assert [line["id"] for line in result["scores"]["C"]["lines"] if line["id"] == "meong_dda"] == []


def test_the_cup_ranked_after_the_cap_on_the_go_bak_total():
    # times_players under a cap of 27: the animal brings min(24, 27) = 24, the junk min(30, 27) = 27.
    assert paid(score_summary(with_go_bak("times_players", payment_cap=27))) == {"A": 27}


def test_cup_counting_score_takes_the_higher_score_whatever_go_bak_makes_of_it():
    # The junk makes 5 points, the animal 4 (with meong-dda): `score` keeps the junk.
    result = score_summary(with_go_bak("times_players_each", cup_counting="score"))
    assert result["scores"]["C"]["points"] == 5 and paid(result) == {"A": 30, "B": 5}


def test_cup_counting_score_breaks_a_tie_of_scores_on_what_is_finally_paid():
    # C's cup as an animal: 7 animals 3 points, meong-bak (no_animal_only) doubles A, who has no animal;
    # as junk: 6 animals 2 + 10 junk 1, also 3 points, pi-bak doubles B (one junk). Before go-bak both
    # bring 6 + 3 = 9; B said go and pays its own × 3: the animal brings 6 + 9 = 15, the junk 3 + 18 = 21.
    doc = {
        "players": ["A", "B", "C"],
        "outcome": {"type": "stop", "winner": "C"},
        "gos": {"B": 1},
        "captures": {
            "C": ["4a", "5a", "6a", "7a", "9a", "10a", "12a", "1j1", "1j2", "2j1", "2j2", "3j1", "3j2", "4j1", "4j2"],
            "A": ["5j1", "5j2", "6j1", "6j2", "7j1"],
            "B": ["8a", "8j1"],
        },
    }
    options = {"meong_dda": "no_animal_only", "go_bak_three_players": "times_players_each"}
    for counting in ("score", "payment"):
        result = scored(doc, options | {"cup_counting": counting})
        assert result["scores"]["C"]["counted_as"]["9a"] == "junk" and paid(result) == {"A": 3, "B": 18}


def test_an_empty_pile_that_pays_nothing_is_not_counted_in_the_ranking():
    # A loser who captured nothing pays nothing: the cup is counted for what the other loser pays.
    doc = {
        "players": ["A", "B", "C"],
        "outcome": {"type": "stop", "winner": "A"},
        "captures": {
            "A": [
                *["4a", "5a", "6a", "7a", "9a", "10a", "12a"],
                *["1j1", "1j2", "2j1", "2j2", "3j1", "3j2", "4j1", "4j2", "5j1"],
            ],
            "B": [],
            "C": ["6j1", "6j2", "7j1", "7j2", "8j1"],
        },
    }
    # As an animal: 7 animals, 3 points, ×2 meong-dda: B 6, C 6. As junk: 6 animals 2 + 11 junk 2 = 4
    # points: B 8 (pi-bak), C 4. Both 12 in all, a tie the higher score (junk) would take; but B pays
    # nothing, so what is paid is C's 6 against 4: the animal.
    result = scored(doc, {"empty_pile_pays_nothing": True})
    assert paid(result) == {"C": 6} and result["scores"]["A"]["points"] == 3
    assert [n["id"] for n in result["notes"]] == ["empty_pile"]


# -- the ppuk chain as Hangame pays it ----------------------------------------------------------------

HANGAME = {
    "first_turn_ppuk": 7,
    "consecutive_ppuk": 14,
    "three_consecutive_ppuk": 21,
    "ppuk_chain": "each",
    "three_ppuk": 7,
}
PPUK_A = {"type": "ppuk", "player": "A"}
END = {"type": "end_turn"}
THREE_TURNS = [PPUK_A, END, END, PPUK_A, END, END, PPUK_A]  # two players, A deals: A's first three turns


def fixed_paid(result: dict) -> list[tuple[str, str, str, int]]:
    return sorted((p["kind"], p["from"], p["to"], p["points"]) for p in result["payments"])


def test_hangames_chain_pays_forty_nine():
    """Hangame's guide: 첫뻑 7, 2연뻑 14, 3연뻑 21, each as it happens, and the third ppuk wins as 삼뻑 (7)."""
    state = replay(HandSetup.create(["A", "B"], "A", "pagat", HANGAME), THREE_TURNS)
    summary = state.summary()
    assert summary["outcome"] == {"type": "three_ppuk", "winner": "A"}
    assert summary["fixed"] == [
        {"kind": "first_turn_ppuk", "player": "A"},
        {"kind": "consecutive_ppuk", "player": "A"},
        {"kind": "three_consecutive_ppuk", "player": "A"},
    ]
    result = state.result()
    assert result["net"] == {"A": 49, "B": -49}
    assert fixed_paid(result) == [
        ("consecutive_ppuk", "B", "A", 14),
        ("first_turn_ppuk", "B", "A", 7),
        ("three_consecutive_ppuk", "B", "A", 21),
        ("three_ppuk", "B", "A", 7),
    ]
    assert scored(summary)["net"] == result["net"]  # the summary alone says the same
    s = series("AB", [{"log": {"events": THREE_TURNS}}], first_dealer="A", rules={"options": HANGAME}, length=2)
    assert s.deals[0].net == {"A": 49, "B": -49}


@pytest.mark.parametrize(
    "options, events, fixed",
    [
        pytest.param(
            {**HANGAME, "ppuk_chain": "replace"},
            THREE_TURNS,
            [{"kind": "three_consecutive_ppuk", "player": "A"}],
            id="replace-the-longest-link-only",
        ),
        pytest.param(
            {**HANGAME, "ppuk_chain": "replace", "three_consecutive_ppuk": 0},
            THREE_TURNS,
            [{"kind": "consecutive_ppuk", "player": "A"}],
            id="replace-third-link-off",
        ),
        pytest.param(
            HANGAME,
            [PPUK_A, END, END, PPUK_A, END],
            [{"kind": "first_turn_ppuk", "player": "A"}, {"kind": "consecutive_ppuk", "player": "A"}],
            id="each-two-links",
        ),
        pytest.param(
            HANGAME,
            [PPUK_A, END, END, END, END, PPUK_A],
            [{"kind": "first_turn_ppuk", "player": "A"}],
            id="each-first-and-third-turn-no-chain",
        ),
        pytest.param(
            {**HANGAME, "three_ppuk": 0},
            [*THREE_TURNS, END],
            [
                {"kind": "first_turn_ppuk", "player": "A"},
                {"kind": "consecutive_ppuk", "player": "A"},
                {"kind": "three_consecutive_ppuk", "player": "A"},
            ],
            id="each-no-three-ppuk-win-play-goes-on",
        ),
        pytest.param(
            {"first_turn_ppuk": 7, "consecutive_ppuk": 14},
            THREE_TURNS,
            [{"kind": "consecutive_ppuk", "player": "A"}],
            id="default-as-before",
        ),
    ],
)
def test_the_ppuk_chain_recognised_from_the_log(options, events, fixed):
    state = replay(HandSetup.create(["A", "B"], "A", "pagat", options), events)
    assert state.fixed() == fixed


def test_the_chain_in_a_three_player_hand_is_paid_by_each_opponent():
    events = [PPUK_A, END, END, END, PPUK_A, END, END, END, PPUK_A]
    state = replay(HandSetup.create(["A", "B", "C"], "A", "pagat", HANGAME), events)
    assert state.result()["net"] == {"A": 98, "B": -49, "C": -49}


def test_the_chain_in_a_summary_is_never_multiplied_nor_capped():
    doc = {
        "players": ["A", "B", "C"],
        "outcome": {"type": "stop", "winner": "B"},
        "captures": {"B": ["1r", "2r", "3r"]},
        "nagari_carry": 2,
        "fixed": [{"kind": "first_turn_ppuk", "player": "A"}, {"kind": "consecutive_ppuk", "player": "A"}],
    }
    result = scored(doc, {**HANGAME, "payment_cap": 5})
    ppuk = [(p["kind"], p["from"], p["points"]) for p in result["payments"] if p["kind"] != "stop"]
    assert sorted(ppuk) == [
        ("consecutive_ppuk", "B", 14),
        ("consecutive_ppuk", "C", 14),
        ("first_turn_ppuk", "B", 7),
        ("first_turn_ppuk", "C", 7),
    ]
    assert paid(result) == {"A": 5, "C": 5}  # 3 × 4 (two nagari) = 12, capped


@pytest.mark.parametrize(
    "options, fixed, outcome, code",
    [
        pytest.param(
            {**HANGAME, "three_consecutive_ppuk": 0},
            [{"kind": "three_consecutive_ppuk", "player": "A"}],
            {"type": "three_ppuk", "winner": "A"},
            "rule_off",
            id="off",
        ),
        pytest.param(
            {**HANGAME, "ppuk_chain": "replace"},
            [{"kind": "first_turn_ppuk", "player": "A"}, {"kind": "three_consecutive_ppuk", "player": "A"}],
            {"type": "three_ppuk", "winner": "A"},
            "bad_value",
            id="replace-two-links-for-one-player",
        ),
        pytest.param(
            HANGAME,
            [{"kind": "three_consecutive_ppuk", "player": "A"}],
            {"type": "three_ppuk", "winner": "A"},
            "bad_value",
            id="each-a-link-without-those-before",
        ),
        pytest.param(
            HANGAME,
            [
                {"kind": "first_turn_ppuk", "player": "A"},
                {"kind": "consecutive_ppuk", "player": "A"},
                {"kind": "three_consecutive_ppuk", "player": "A"},
            ],
            {"type": "nagari"},
            "bad_value",
            id="a-third-ppuk-that-did-not-win",
        ),
    ],
)
def test_the_chain_refusals(options, fixed, outcome, code):
    doc = {"players": ["A", "B"], "outcome": outcome, "fixed": fixed, "rules": {"options": options}}
    result = score_summary(doc)
    assert not result["ok"] and result["errors"][0]["code"] == code, result


def test_the_chain_in_a_summary_pays_forty_nine():
    doc = {
        "players": ["A", "B"],
        "outcome": {"type": "three_ppuk", "winner": "A"},
        "fixed": [
            {"kind": "first_turn_ppuk", "player": "A"},
            {"kind": "consecutive_ppuk", "player": "A"},
            {"kind": "three_consecutive_ppuk", "player": "A"},
        ],
    }
    result = scored(doc, HANGAME)
    assert result["net"] == {"A": 49, "B": -49}
    trail = next(p["trail"] for p in result["payments"] if p["kind"] == "three_consecutive_ppuk")
    assert trail == [{"id": "three_consecutive_ppuk", "label": trail[0]["label"], "value": 21}]


def test_refusal_messages_name_the_third_link_only_where_the_table_plays_it():
    doc = {"players": ["A", "B"], "outcome": {"type": "nagari"}, "fixed": [{"kind": "nope", "player": "A"}]}
    [error] = score_summary(doc)["errors"]
    assert "three_consecutive_ppuk" not in error["message"]
    assert "three_consecutive_ppuk" in score_summary({**doc, "rules": {"options": HANGAME}})["errors"][0]["message"]


# -- the cap per share or per player -----------------------------------------------------------------

JUNK_12 = ["1j1", "1j2", "2j1", "2j2", "3j1", "3j2", "4j1", "4j2", "5j1", "5j2", "6j1", "6j2"]
ANIMALS_7 = ["2a", "4a", "5a", "6a", "7a", "10a", "12a"]
# Pagat's worked example in its reachable form: B pays 64, C 32; B said go, so B is dok-bak: 64 + 32.
PAGAT_GO_BAK = {
    "players": ["A", "B", "C"],
    "outcome": {"type": "stop", "winner": "A"},
    "gos": {"A": 3, "B": 1},
    "captures": {
        "A": JUNK_12 + ANIMALS_7,
        "B": ["7j1", "7j2", "8j1", "8j2"],
        "C": ["1g", "9j1", "9j2", "10j1", "10j2", "11j1", "11j2"],
    },
}


@pytest.mark.parametrize(
    "per, rule, points",
    [
        pytest.param("share", "dok_bak", 50 + 32, id="share-each-share-capped"),
        pytest.param("player", "dok_bak", 50, id="player-the-whole-capped"),  # 96 → 50
        pytest.param("share", "dok_bak_doubled", 50 + 50, id="share-doubled"),  # 128 → 50, 64 → 50
        pytest.param("player", "dok_bak_doubled", 50, id="player-doubled"),  # 192 → 50
        pytest.param("player", "times_players", 50, id="player-times-players"),  # 192 → 50
    ],
)
def test_a_dok_bak_payer_under_payment_cap_per(per, rule, points):
    result = scored(PAGAT_GO_BAK, {"payment_cap": 50, "payment_cap_per": per, "go_bak_three_players": rule})
    [payment] = result["payments"]
    assert (payment["from"], payment["points"]) == ("B", points)
    assert sum(result["net"].values()) == 0
    if per == "player":
        before = {"dok_bak": 96, "dok_bak_doubled": 192, "times_players": 192}[rule]
        last = payment["trail"][-1]
        assert last == {"id": "payment_cap", "label": last["label"], "value": 50, "before": before}


def test_payment_cap_per_player_is_per_share_where_each_pays_their_own():
    doc = {**PAGAT_GO_BAK, "gos": {"A": 3}}
    for per in ("share", "player"):
        assert paid(scored(doc, {"payment_cap": 50, "payment_cap_per": per})) == {"B": 50, "C": 32}


def test_payment_cap_per_changes_nothing_without_a_cap():
    plain = score_summary(PAGAT_GO_BAK)
    assert score_summary({**PAGAT_GO_BAK, "rules": {"options": {"payment_cap_per": "player"}}}) == plain


CAP_EVENTS = [
    END,
    {"type": "capture", "player": "B", "cards": ["1r", "2r", "3r"]},
    END,
    {"type": "go", "player": "B"},
    END,
    {"type": "capture", "player": "A", "cards": JUNK_12 + ANIMALS_7},
    END,
    {"type": "stop", "player": "A"},
]  # A 6 points; B and C each owe 6 × 2 (pi-bak) × 2 (meong-dda) = 24; B said go: dok-bak, 48


def test_payment_cap_per_player_in_a_live_hand_and_a_series():
    options = {"payment_cap": 20, "payment_cap_per": "player"}
    state = replay(HandSetup.create(["A", "B", "C"], "A", "pagat", options), CAP_EVENTS)
    result = state.result()
    assert paid(result) == {"B": 20}
    s = series("ABC", [{"log": {"events": CAP_EVENTS}}], first_dealer="A", rules={"options": options}, length=2)
    assert s.deals[0].net == result["net"] == {"A": 20, "B": -20, "C": 0}
    per_share = replay(HandSetup.create(["A", "B", "C"], "A", "pagat", {"payment_cap": 20}), CAP_EVENTS)
    assert paid(per_share.result()) == {"B": 40}
