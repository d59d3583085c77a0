"""Issue 8: what the outside referee found, each defect's own input as a test (rules.md §13)."""

from __future__ import annotations

import pytest

from scorekeeper.engine.live.hand import apply, replay, replay_hand_document
from scorekeeper.engine.summary.contract import score_summary

from .hand_cases import END, E, cap, refusal, three

# -- defect 1: the cup choice after a go (rules.md §4, §5 item 5, §11.1) ------------------------------

# The input. A's best is 4 with the cup as double junk (5 animals 1 + 12 junk 3; as an animal
# 6 animals 2 + 10 junk 1 = 3): A says go at 4. After 12a 12g the cup as junk gives 5 (above 4: A may
# stop), the cup as an animal 4 (7 animals: meong-dda, but not above the last go).
CUP_AFTER_GO = [
    cap("A", "2a 5a 6a 7a 10a 9a 1j1 1j2 2j1 3j1 3j2 4j1 4j2 5j1 6j1 7j1"),
    END,
    E("go", player="A"),
    END,
    END,
    cap("A", "12a 12g"),
    END,
    E("stop", player="A"),
]


def test_cup_choice_after_a_go_must_pass_the_stop_check_against_the_last_go():
    state = replay(three(), CUP_AFTER_GO)
    a = state.player("A")
    assert a.score_at_last_go == 4 and state.score("A").toward_target == 5
    result = state.result()
    assert result["scores"]["A"]["counted_as"]["9a"] == "junk"
    assert {(p["from"], p["points"]) for p in result["payments"]} == {("B", 12), ("C", 12)}  # (5 + 1) × 2 pi-bak


def test_summary_carries_the_score_at_the_last_go_and_the_contract_honours_it():
    state = replay(three(), CUP_AFTER_GO)
    summary = state.summary()
    assert summary["score_at_last_go"] == {"A": 4}
    assert score_summary(summary)["net"] == {"A": 24, "B": -12, "C": -12}


@pytest.mark.parametrize(
    "last_go, ok, net_a",
    [
        pytest.param(None, True, 40, id="without-it-target-plus-gos"),  # the cup as animal: 4 + 1, ×2 ×2
        pytest.param(4, True, 24, id="above-four-only-cup-as-junk"),
        pytest.param(5, False, None, id="five-is-not-above-five"),
    ],
)
def test_contract_score_at_last_go(last_go, ok, net_a):
    doc = {
        "players": ["A", "B", "C"],
        "gos": {"A": 1},
        "outcome": {"type": "stop", "winner": "A"},
        "captures": {
            "A": [
                "2a",
                "5a",
                "6a",
                "7a",
                "10a",
                "9a",
                "1j1",
                "1j2",
                "2j1",
                "3j1",
                "3j2",
                "4j1",
                "4j2",
                "5j1",
                "6j1",
                "7j1",
                "12a",
                "12g",
            ]
        },
    }
    if last_go is not None:
        doc["score_at_last_go"] = {"A": last_go}
    result = score_summary(doc)
    assert result["ok"] is ok and "warnings" not in result
    if ok:
        assert result["net"]["A"] == net_a
    else:
        assert result["errors"][0]["code"] == "stop_below_target"


@pytest.mark.parametrize(
    "value, path",
    [
        pytest.param({"A": -1}, "score_at_last_go.A", id="negative"),
        pytest.param({"A": "4"}, "score_at_last_go.A", id="text"),
        pytest.param({"B": 3}, "score_at_last_go.B", id="player-without-a-go"),
        pytest.param({"Z": 3}, "score_at_last_go.Z", id="not-a-player"),
        pytest.param([4], "score_at_last_go", id="not-an-object"),
    ],
)
def test_contract_score_at_last_go_refusals(value, path):
    doc = {"players": ["A", "B"], "gos": {"A": 1}, "outcome": {"type": "nagari"}, "score_at_last_go": value}
    result = score_summary(doc)
    assert not result["ok"] and path in [e["path"] for e in result["errors"]]


# -- defect 2: weol-yak and missions in a live hand (§11.9) ---------------------------------------------

WEOL_YAK_HAND = [
    END,  # A
    cap("B", "2a 2r 2j1 2j2"),
    E("weol_yak", player="B"),
    END,
    END,  # C
    END,  # A
    cap("B", "1r 1j1 3r 3j1"),
    END,
    E("stop", player="B"),
]


def test_weol_yak_in_a_live_hand_pays_four_times_as_the_summary_does():
    state = replay(three(weol_yak=True), WEOL_YAK_HAND)
    summary = state.summary()
    assert summary["weol_yak"] == ["B"]
    assert {(p["from"], p["points"]) for p in state.result()["payments"]} == {("A", 12), ("C", 12)}


def test_mission_in_a_live_hand_multiplies_the_stop():
    events = [E("mission", multiplier=3), *WEOL_YAK_HAND[:2], *WEOL_YAK_HAND[3:]]
    state = replay(three(missions=True), events)
    assert state.summary()["mission"] == 3
    assert {(p["from"], p["points"]) for p in state.result()["payments"]} == {("A", 9), ("C", 9)}


@pytest.mark.parametrize(
    "setup, before, event, code",
    [
        pytest.param(three(), [cap("A", "2a 2r 2j1 2j2")], E("weol_yak", player="A"), "rule_off", id="weol-yak-off"),
        pytest.param(
            three(weol_yak=True),
            [cap("A", "2a 2r 2j1")],
            E("weol_yak", player="A"),
            "not_weol_yak",
            id="three-of-a-month",
        ),
        pytest.param(
            three(weol_yak=True),
            [END, END, END, cap("A", "2a 2r 2j1 2j2")],
            E("weol_yak", player="A"),
            "not_weol_yak",
            id="not-the-first-turn",
        ),
        pytest.param(
            three(weol_yak=True),
            [cap("A", "2a 2r 2j1 2j2")],
            E("weol_yak", player="B"),
            "not_weol_yak",
            id="another-player",
        ),
        pytest.param(
            three(weol_yak=True),
            [cap("A", "2a 2r 2j1 2j2"), E("weol_yak", player="A")],
            E("weol_yak", player="A"),
            "bad_event",
            id="twice",
        ),
        pytest.param(three(), [], E("mission", multiplier=2), "rule_off", id="missions-off"),
        pytest.param(three(missions=True), [], E("mission", multiplier=1), "bad_event", id="multiplier-one"),
        pytest.param(three(missions=True), [], E("mission", multiplier=10), "bad_event", id="multiplier-ten"),
        pytest.param(three(missions=True), [], E("mission", multiplier="2"), "bad_event", id="multiplier-text"),
        pytest.param(three(missions=True), [], E("mission"), "bad_event", id="no-multiplier"),
        pytest.param(
            three(missions=True),
            [E("mission", multiplier=2)],
            E("mission", multiplier=3),
            "bad_event",
            id="second-mission",
        ),
    ],
)
def test_weol_yak_and_mission_refusals(setup, before, event, code):
    assert refusal(setup, before, event) == code


def test_weol_yak_may_be_recorded_while_the_winner_must_decide():
    events = WEOL_YAK_HAND[:1] + WEOL_YAK_HAND[1:2] + WEOL_YAK_HAND[3:-1]
    state = replay(three(weol_yak=True), events)
    assert state.must_decide == "B"
    state = apply(state, E("weol_yak", player="B"))
    assert apply(state, E("stop", player="B")).summary()["weol_yak"] == ["B"]


@pytest.mark.parametrize("field", ["mission", "weol_yak", "missions", "rule"])
def test_unknown_setup_fields_are_refused(field):
    doc = {"setup": {"players": ["A", "B"], field: 2}, "events": []}
    answer = replay_hand_document(doc)
    assert not answer["ok"] and answer["errors"][0]["code"] == "unknown_field"
    assert answer["errors"][0]["path"] == f"setup.{field}"


# -- defect 3: a void deal as the dealer's chongtong (§11.8) --------------------------------------------


def test_void_deal_as_chongtong_is_reported_as_the_dealers_chongtong():
    state = replay(three(void_deal_chongtong=True), [E("four_on_table", month=6)])
    assert state.outcome.type == "chongtong" and state.outcome.winners == ("A",)
    result = state.result()
    assert result["outcome"] == {"type": "chongtong", "winner": "A", "month": 6}
    assert result["net"] == {"A": 10, "B": -5, "C": -5}


def test_void_deal_summary_under_the_option_is_reported_as_the_dealers_chongtong():
    result = score_summary(
        {
            "players": ["A", "B"],
            "dealer": "B",
            "rules": {"options": {"void_deal_chongtong": True}},
            "outcome": {"type": "void_deal"},
        }
    )
    assert result["outcome"] == {"type": "chongtong", "winner": "B"}
    assert result["net"] == {"A": -5, "B": 5}


def test_void_deal_without_the_option_stays_a_void_deal():
    state = replay(three(), [E("four_on_table", month=6)])
    assert state.outcome.type == "void_deal" and state.result()["outcome"] == {"type": "void_deal"}


# -- defect 4: readings of §11 — ja-ppuk needs the capturer's own stack (§11.5) ---------------------------


def test_ja_ppuk_of_a_stack_another_player_made_is_refused():
    before = [E("ppuk", player="A", month=3), cap("A", "1j1"), END, cap("B", "3j1")]
    assert refusal(three(), before, E("take_junk", player="B", reason="ja_ppuk")) == "not_own_stack"


def test_ja_ppuk_of_ones_own_stack_is_taken():
    before = [cap("A", "1j1"), cap("B", "2j1 2j2"), cap("C", "4j1 4j2"), E("ppuk", player="A", month=3), END, END, END]
    state = replay(three(), [*before, cap("A", "3j1 3j2 3r 3g"), E("take_junk", player="A", reason="ja_ppuk")])
    assert state.player("B").captures == () and state.player("C").captures == ()


def test_ja_ppuk_with_no_stack_in_the_log_is_accepted_as_a_stack_from_the_deal_would_not_be():
    # No stack in the log at all: the log cannot show that another player made it.
    state = replay(three(), [cap("B", "2j1"), cap("A", "3j1"), E("take_junk", player="A", reason="ja_ppuk")])
    assert state.player("B").captures == ()


def test_ja_ppuk_once_per_own_stack_when_the_log_shows_another_players_stack():
    before = [
        cap("B", "2j1 2j2 5j1 5j2"),
        cap("C", "4j1 4j2 6j1 6j2"),
        E("ppuk", player="A", month=3),
        END,
        E("ppuk", player="B", month=8),
        END,
        END,
        cap("A", "3j1 3j2 3r 3g"),
        E("take_junk", player="A", reason="ja_ppuk"),
    ]
    assert refusal(three(), before, E("take_junk", player="A", reason="ja_ppuk")) == "not_own_stack"


# -- found by the live-hand property test: the cup given as junk after a bomb of month 9 ----------------


def test_a_bomb_of_month_nine_then_the_cup_given_as_double_junk_is_paid():
    """rules.md §13 reading 5: the owner may name the cup as double junk; the bomb still stands (§6.2)."""
    events = [
        E("bomb", player="A", month=9),
        E("take_junk", player="B", reason="sseul", give={"A": ["9a"]}),
        E("nagari"),
    ]
    result = replay(three(), events).result()
    assert result["ok"], result
    summary = {
        "players": ["A", "B"],
        "captures": {"A": ["9r", "9j1", "9j2"], "B": ["9a"]},
        "bombs": {"A": [9]},
        "outcome": {"type": "nagari"},
    }
    assert score_summary(summary)["ok"]
    # Without a flexible cup the animal is no junk to give, and a bomb without it stays refused.
    fixed = {**summary, "rules": {"options": {"cup_flexible": False}}}
    assert score_summary(fixed)["errors"][0]["code"] == "bomb_cards_missing"


# -- found by the live-hand property test: the rain ribbon given as junk after a bomb of month 12 -------


def test_a_bomb_of_month_twelve_then_the_rain_ribbon_given_as_junk_is_paid():
    """Where the rain ribbon counts as one junk (rain_ribbon_counts off), it may be given as junk
    like any junk; the bomb of month 12 still stands, as the cup's does (§11.5, §6.2)."""
    events = [
        E("bomb", player="A", month=12),
        E("take_junk", player="B", reason="sseul", give={"A": ["12r"]}),
        E("nagari"),
    ]
    result = replay(three(rain_ribbon_counts=False), events).result()
    assert result["ok"], result
    summary = {
        "players": ["A", "B"],
        "captures": {"A": ["12g", "12a", "12jd"], "B": ["12r"]},
        "bombs": {"A": [12]},
        "outcome": {"type": "nagari"},
        "rules": {"options": {"rain_ribbon_counts": False}},
    }
    assert score_summary(summary)["ok"]
    # Where it counts as a ribbon it is no junk to give, and a bomb without it stays refused.
    counted = {**summary, "rules": {"options": {"rain_ribbon_counts": True}}}
    assert score_summary(counted)["errors"][0]["code"] == "bomb_cards_missing"


# -- the other readings of rules.md §13, each held by a test ---------------------------------------------


def test_expired_showdown_refusal_leaves_the_offerers_go_bak_in_force():
    """§11.2: once the refusal expired, the offerer who said go is go-bak again when another wins."""
    events = [
        cap("A", "1g 3g 8g"),
        END,
        E("go", player="A"),
        END,
        END,  # A said go at 3
        E("showdown_offer", player="A"),
        E("showdown_refuse", player="B"),
        END,
        END,
        END,  # the round of the refusal passes: nobody won
        END,
        cap("B", "1r 2r 3r"),
        END,
        E("stop", player="B"),
    ]
    state = replay(three(), events)
    assert "showdown" not in state.summary()
    payments = state.result()["payments"]
    assert [(p["from"], p["points"]) for p in payments] == [("A", 6)]  # A pays both shares: go-bak


def test_oe_myeon_holds_when_the_other_loser_played_in_between():
    """§11.3: B left the card, C played, A takes it on A's next turn and stops: B pays for both."""
    events = [
        END,
        END,
        END,  # A, B (leaves the card), C
        cap("A", "1g 3g 8g"),
        E("oe_myeon", player="B"),
        END,
        E("stop", player="A"),
    ]
    payments = replay(three(), events).result()["payments"]
    assert [(p["from"], p["points"]) for p in payments] == [("B", 12)]  # (3 + 3) gwang-bak ×2 each


def test_go_bak_double_own_doubles_every_loser_who_said_go():
    """§11.4: under the encyclopedia rule both losers who said go pay their own amount ×2."""
    doc = {
        "rules": {"preset": "encyclopedia"},
        "players": ["A", "B", "C"],
        "gos": {"B": 1, "C": 1},
        "captures": {"A": ["1r", "2r", "3r"], "B": ["8a"], "C": ["9a"]},
        "outcome": {"type": "stop", "winner": "A"},
    }
    payments = score_summary(doc)["payments"]
    assert sorted((p["from"], p["points"]) for p in payments) == [("B", 6), ("C", 6)]


def test_fixed_payments_are_never_multiplied_nor_shifted_to_the_dok_bak_payer():
    """§11.7: C's first-turn ppuk is paid by A and B themselves, though B pays A's stop for both."""
    doc = {
        "players": ["A", "B", "C"],
        "captures": {"A": ["1g", "3g", "8g"]},
        "nagari_carry": 2,
        "outcome": {"type": "stop", "winner": "A"},
        "dokbak": {"player": "B", "reason": "oe_myeon"},
        "fixed": [{"kind": "first_turn_ppuk", "player": "C"}],
    }
    payments = score_summary(doc)["payments"]
    fixed = sorted((p["from"], p["points"]) for p in payments if p["kind"] == "first_turn_ppuk")
    assert fixed == [("A", 3), ("B", 3)]
