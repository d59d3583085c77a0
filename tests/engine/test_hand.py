"""The live hand: every event, every refusal, and whole hands played event by event."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorekeeper.engine.errors import ERROR_CODES, EngineError
from scorekeeper.engine.live import hand
from scorekeeper.engine.live.hand import EVENTS, HandSetup, apply, replay, replay_hand_document, undo
from scorekeeper.engine.summary.contract import score_summary

from .hand_cases import END, E, cap, junk, refusal, three, two

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "replay"


# The three brights 1g 3g 8g score 3: the three-player target.
THREE_BRIGHTS = cap("A", "1g 3g 8g")
A_MUST_DECIDE = [THREE_BRIGHTS, END]


def test_every_error_code_used_here_is_documented():
    for code in (
        "hand_over",
        "not_eligible",
        "must_decide",
        "junk_not_held",
        "bad_event",
        "not_at_deal",
        "not_your_turn",
        "must_answer",
        "no_showdown",
        "showdown_needs_three",
        "last_turn",
    ):
        assert code in ERROR_CODES


def test_every_event_type_is_documented_in_the_table():
    for type_ in EVENTS:
        assert f"``{type_}``" in hand.__doc__


# -- the set-up ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "players, dealer, code",
    [
        pytest.param(["A"], "A", "bad_players", id="one-player"),
        pytest.param(["A", "B", "C", "D"], "A", "bad_players", id="four-players"),
        pytest.param(["A", "A"], "A", "bad_players", id="same-name-twice"),
        pytest.param(["A", ""], "A", "bad_players", id="empty-name"),
        pytest.param("AB", "A", "bad_players", id="not-a-list"),
        pytest.param(["A", "B"], "Z", "unknown_player", id="dealer-not-playing"),
    ],
)
def test_setup_refusals(players, dealer, code):
    with pytest.raises(EngineError) as err:
        HandSetup.create(players, dealer)
    assert err.value.code == code


@pytest.mark.parametrize(
    "fields, code",
    [
        pytest.param({"nagari_carry": -1}, "bad_value", id="negative-carry"),
        pytest.param({"chip_value": "100"}, "bad_value", id="chip-value-text"),
        pytest.param({"rules": {"preset": "hoyle"}}, "unknown_preset", id="unknown-preset"),
        pytest.param({"rules": {"options": {"godory": 3}}}, "unknown_option", id="unknown-option"),
    ],
)
def test_setup_from_json_refusals(fields, code):
    with pytest.raises(EngineError) as err:
        HandSetup.from_json({"players": ["A", "B"], **fields})
    assert err.value.code == code


def test_setup_keeps_preset_and_overrides_for_the_summary():
    setup = HandSetup.from_json(
        {"players": ["A", "B"], "dealer": "B", "rules": {"preset": "korean-common", "options": {"godori": 3}}}
    )
    assert setup.rules.godori == 3 and setup.rules.go_bonus == "plus_one_each"
    assert setup.to_json()["rules"] == {"preset": "korean-common", "options": {"godori": 3}}


@pytest.mark.parametrize(
    "players, dealer, order",
    [
        pytest.param(["A", "B", "C"], "A", ("A", "B", "C"), id="dealer-first-in-seating"),
        pytest.param(["A", "B", "C"], "B", ("B", "C", "A"), id="dealer-in-the-middle"),
        pytest.param(["A", "B"], "B", ("B", "A"), id="two-players"),
    ],
)
def test_turn_order_starts_with_the_dealer_and_goes_right(players, dealer, order):
    state = replay(HandSetup.create(players, dealer), [])
    assert state.order == order and state.current == dealer


# -- turns ---------------------------------------------------------------------------------------


def test_end_turn_passes_play_to_the_right_and_counts_turns():
    state = replay(three(), [END, END, END, END])
    assert (state.current, state.round) == ("B", 2)
    assert state.to_json()["turn"] == {"player": "B", "number": 2, "of": 7, "first": False, "last": False, "index": 4}


@pytest.mark.parametrize(
    "setup, turns",
    [
        pytest.param(two(), 20, id="two-players-ten-turns-each"),
        pytest.param(three(), 21, id="three-players-seven-turns-each"),
    ],
)
def test_the_cards_run_out_after_the_last_turn(setup, turns):
    almost = replay(setup, [END] * (turns - 1))
    assert not almost.over and almost.on_last_turn and almost.to_json()["turn"]["last"]
    done = apply(almost, END)
    assert done.outcome.type == "nagari" and done.outcome.reason == "cards_ran_out"
    assert done.result()["payments"] == []


def test_end_turn_naming_another_player_is_refused():
    assert refusal(three(), [], E("end_turn", player="B")) == "not_your_turn"


def test_captures_need_no_turn_event_before_them():
    state = replay(three(), [cap("C", "1g 1j1"), cap("B", "2a 2j1")])
    assert state.current == "A"
    assert state.player("C").captures == ("1g", "1j1")


# -- capture ---------------------------------------------------------------------------------------


def test_capture_groups_the_cards_by_kind():
    state = replay(three(), [cap("A", "1j1 9a 1g 2r b2", **{"from": "hand"})])
    view = state.to_json()["players"][0]
    assert view["captures"] == {"bright": ["1g"], "animal": ["9a"], "ribbon": ["2r"], "junk": ["1j1", "b2"]}


@pytest.mark.parametrize(
    "before, event, code",
    [
        pytest.param([], cap("A", "13g"), "unknown_card", id="unknown-code"),
        pytest.param([cap("B", "1g")], cap("A", "1g"), "card_twice", id="held-by-another"),
        pytest.param([cap("A", "1g")], cap("A", "1g"), "card_twice", id="held-already"),
        pytest.param([], cap("A", "1g 1g"), "card_twice", id="named-twice"),
        pytest.param([], cap("A", "bb"), "bonus_not_in_rules", id="boss-joker-not-in-deck"),
        pytest.param([cap("B", "b2")], cap("A", "b2"), "too_many_cards", id="only-one-b2"),
        pytest.param([], E("capture", player="A", cards=[]), "bad_event", id="no-cards"),
        pytest.param([], E("capture", player="A", cards="1g"), "bad_event", id="cards-not-a-list"),
        pytest.param([], E("capture", player="A", cards=["1g"], **{"from": "floor"}), "bad_event", id="bad-from"),
        pytest.param([], E("capture", player="A", card=["1g"]), "bad_event", id="unknown-field"),
        pytest.param([], E("capture", player="Z", cards=["1g"]), "unknown_player", id="unknown-player"),
        pytest.param([], E("capture", player=7, cards=["1g"]), "bad_event", id="player-not-a-name"),
    ],
)
def test_capture_refusals(before, event, code):
    assert refusal(three(), before, event) == code


def test_bonus_cards_may_repeat_as_the_rules_allow():
    setup = three(bonus_two_junk=2)
    state = replay(setup, [cap("A", "b2"), cap("B", "b2")])
    assert state.player("A").captures == ("b2",) and state.player("B").captures == ("b2",)
    assert refusal(setup, [cap("A", "b2"), cap("B", "b2")], cap("C", "b2")) == "too_many_cards"


@pytest.mark.parametrize(
    "event",
    [
        pytest.param("not an event", id="not-an-object"),
        pytest.param(E("draw", player="A"), id="unknown-type"),
        pytest.param({"player": "A"}, id="no-type"),
        # A type that is not text cannot be looked up (it raised TypeError: unhashable type).
        pytest.param({"type": ["capture"], "player": "A"}, id="type-a-list"),
        pytest.param({"type": {"capture": 1}, "player": "A"}, id="type-an-object"),
    ],
)
def test_malformed_events_are_refused(event):
    assert refusal(three(), [], event) == "bad_event"


@pytest.mark.parametrize("type_", [["capture"], {"type": "go"}])
def test_a_hand_document_with_an_event_type_that_is_not_text_is_refused_with_a_code(type_):
    doc = {"setup": {"players": ["A", "B", "C"], "dealer": "A"}, "events": [{"type": type_, "player": "A"}]}
    out = replay_hand_document(doc)
    assert out["ok"] is False and out["errors"][0]["code"] == "bad_event"


def test_app_metadata_on_an_event_is_ignored():
    state = replay(three(), [cap("A", "1g", note="from the deal", at="2024-01-01T20:00", by="phone-2")])
    assert state.player("A").captures == ("1g",)


# -- junk taken --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "pile, amount, given",
    [
        pytest.param("3j1 11jd b3", 1, ("3j1",), id="ordinary-first"),
        pytest.param("11jd b3", 1, ("11jd",), id="double-before-bonus-three"),
        pytest.param("b3", 1, ("b3",), id="bonus-when-nothing-else"),
        pytest.param("1g 2a", 1, (), id="no-junk-gives-nothing"),
        pytest.param("3j1 4j1 11jd", 2, ("3j1", "4j1"), id="two-ordinary"),
        pytest.param("3j1 11jd", 2, ("11jd",), id="one-worth-two"),
        pytest.param("3j1 b3", 2, ("b3",), id="one-worth-three"),
        pytest.param("3j1", 2, ("3j1",), id="all-they-have"),
        pytest.param("9a 1g", 1, (), id="the-cup-is-not-given-as-junk"),
    ],
)
def test_engine_picks_the_cheapest_junk(pile, amount, given):
    reason = "ja_ppuk" if amount == 2 else "sseul"
    state = replay(three(), [cap("B", pile), junk("A", reason)])
    assert state.player("A").captures == given
    assert sorted(state.player("B").captures + given) == sorted(pile.split())


def test_each_opponent_gives_a_junk():
    state = replay(three(), [cap("B", "1j1"), cap("C", "2j1 12jd"), junk("A", "chok")])
    assert state.player("A").captures == ("1j1", "2j1")
    assert state.player("C").captures == ("12jd",)


def test_named_junk_is_taken_instead_of_the_cheapest():
    state = replay(three(), [cap("B", "1j1 11jd"), cap("C", "2j1"), junk("A", "ttadak", give={"B": ["11jd"]})])
    assert state.player("A").captures == ("2j1", "11jd")
    assert state.player("B").captures == ("1j1",)


@pytest.mark.parametrize(
    "give, code",
    [
        pytest.param({"B": ["2j1"]}, "junk_not_held", id="card-of-another-player"),
        pytest.param({"B": ["1g"]}, "junk_not_held", id="not-junk"),
        pytest.param({"B": ["13j"]}, "unknown_card", id="unknown-card"),
        pytest.param({"B": ["1j1", "1j2"]}, "bad_event", id="two-cards-for-one-junk"),
        pytest.param({"B": []}, "bad_event", id="nothing-while-holding-junk"),
        pytest.param({"A": ["1j1"]}, "bad_event", id="taker-gives"),
        pytest.param({"Z": ["1j1"]}, "unknown_player", id="unknown-giver"),
        pytest.param({"B": "1j1"}, "bad_event", id="not-a-list"),
        pytest.param(["1j1"], "bad_event", id="give-not-an-object"),
    ],
)
def test_named_junk_refusals(give, code):
    before = [cap("B", "1j1 1j2 1g"), cap("C", "2j1")]
    assert refusal(three(), before, junk("A", "sseul", give=give)) == code


@pytest.mark.parametrize(
    "setup, card, code",
    [
        pytest.param(three(), "9a", None, id="cup-given-as-double-junk"),
        pytest.param(three(cup_flexible=False), "9a", "junk_not_held", id="cup-always-an-animal"),
        pytest.param(three(), "5a", "junk_not_held", id="bridge-is-an-animal"),
        pytest.param(three("encyclopedia"), "5a", None, id="flexible-bridge"),
        pytest.param(three("encyclopedia"), "12r", None, id="rain-ribbon-that-scores-as-junk"),
        pytest.param(three(), "12r", "junk_not_held", id="rain-ribbon"),
    ],
)
def test_named_flexible_cards(setup, card, code):
    before = [cap("B", f"{card} 1g")]
    event = junk("A", "sseul", give={"B": [card]})
    if code:
        assert refusal(setup, before, event) == code
    else:
        assert replay(setup, [*before, event]).player("A").captures == (card,)


def test_rain_ribbon_that_scores_as_junk_is_given_last_among_ordinary_junk():
    state = replay(three("encyclopedia"), [cap("B", "12r 12jd 3j1"), junk("A", "sseul"), junk("A", "sseul")])
    assert state.player("A").captures == ("3j1", "12r")


def test_ja_ppuk_named_cards_must_be_worth_two():
    before = [cap("B", "1j1 1j2 11jd")]
    assert refusal(three(), before, junk("A", "ja_ppuk", give={"B": ["1j1"]})) == "bad_event"
    state = replay(three(), [*before, junk("A", "ja_ppuk", give={"B": ["11jd"]})])
    assert state.player("A").captures == ("11jd",)


@pytest.mark.parametrize(
    "reason, code",
    [
        pytest.param("sseul", "last_turn", id="sseul"),
        pytest.param("ttadak", "last_turn", id="ttadak"),
        pytest.param("chok", "last_turn", id="chok"),
        pytest.param("ppuk", None, id="ppuk-capture-still-counts"),
        pytest.param("ja_ppuk", None, id="ja-ppuk-still-counts"),
    ],
)
def test_last_turn_exceptions(reason, code):
    before = [cap("A", "1j1 1j2 2j1"), cap("B", "3j1 3j2 4j1")] + [END] * 20  # C's last turn
    event = junk("C", reason)
    if code:
        assert refusal(three(), before, event) == code
    else:
        assert len(replay(three(), [*before, event]).player("C").captures) >= 2


def test_sseul_on_an_earlier_last_turn_still_counts():
    before = [cap("A", "1j1"), cap("C", "2j1")] + [END] * 19  # B's last turn, C still plays
    state = replay(three(), [*before, junk("B", "sseul")])
    assert state.player("B").captures == ("1j1", "2j1")


@pytest.mark.parametrize(
    "setup, code",
    [
        pytest.param(three(), "rule_off", id="no-boss-joker-in-deck"),
        pytest.param(three(boss_junk_jokers=1), None, id="boss-joker-in-deck"),
    ],
)
def test_boss_joker_takes_junk_only_when_played(setup, code):
    event = junk("A", "boss_joker")
    if code:
        assert refusal(setup, [cap("B", "1j1")], event) == code
    else:
        assert replay(setup, [cap("A", "bb"), cap("B", "1j1"), event]).player("A").captures == ("1j1", "bb")


@pytest.mark.parametrize("reason", ["bomb", "steal", ""])
def test_unknown_junk_reasons_are_refused(reason):
    assert refusal(three(), [], junk("A", reason)) == "bad_event"


# -- ppuk -----------------------------------------------------------------------------------------


def test_first_turn_ppuk_pays_each_opponent():
    state = replay(three(), [E("ppuk", player="A", month=5)])
    assert state.player("A").ppuks == (5,)
    assert state.fixed() == [{"kind": "first_turn_ppuk", "player": "A"}]


@pytest.mark.parametrize(
    "setup, before, fixed",
    [
        pytest.param(three("ogb-matgo"), [], [], id="rules-pay-nothing"),
        pytest.param(three(), [END, END, END], [], id="second-turn"),
        pytest.param(three(), [END], [{"kind": "first_turn_ppuk", "player": "B"}], id="b-first-turn"),
    ],
)
def test_first_turn_ppuk_only_on_the_first_turn_when_paid(setup, before, fixed):
    player = replay(setup, before).current
    assert replay(setup, [*before, E("ppuk", player=player)]).fixed() == fixed


def test_third_ppuk_is_an_instant_win():
    ppuk = E("ppuk", player="B")
    state = replay(three(), [END, ppuk, END, END, END, ppuk, END, END, END, ppuk])
    assert state.outcome.type == "three_ppuk" and state.outcome.winner == "B"
    result = state.result()
    assert result["net"] == {"A": -8, "B": 16, "C": -8}  # 5 each for three ppuk, 3 each for the first-turn one
    assert refusal(three(), [END, ppuk, END, END, END, ppuk, END, END, END, ppuk], END) == "hand_over"


def test_third_ppuk_plays_on_when_the_rules_have_no_three_ppuk():
    ppuk = E("ppuk", player="A")
    state = replay(three("encyclopedia"), [ppuk, ppuk, ppuk])
    assert not state.over and len(state.player("A").ppuks) == 3


@pytest.mark.parametrize(
    "before, event, code",
    [
        pytest.param(
            [E("ppuk", player="B", month=5)], E("ppuk", player="A", month=5), "card_twice", id="month-stacked-twice"
        ),
        pytest.param([cap("B", "5a 5r")], E("ppuk", player="A", month=5), "card_twice", id="two-cards-captured"),
        pytest.param([], E("ppuk", player="A", month=13), "bad_month", id="bad-month"),
    ],
)
def test_ppuk_refusals(before, event, code):
    assert refusal(three(), before, event) == code


# -- shake and bomb ---------------------------------------------------------------------------------


def test_shake_is_recorded_and_doubles_the_winner():
    state = replay(three(), [E("shake", player="A", month=4), *A_MUST_DECIDE, E("stop", player="A")])
    assert state.player("A").shakes == (4,)
    steps = [s["id"] for s in state.result()["payments"][0]["trail"]]
    assert "shake" in steps


@pytest.mark.parametrize(
    "before, event, code",
    [
        pytest.param(
            [E("shake", player="A", month=4)], E("shake", player="A", month=4), "shake_twice", id="same-month-twice"
        ),
        pytest.param(
            [E("shake", player="B", month=4)],
            E("shake", player="A", month=4),
            "card_twice",
            id="another-player-showed-it",
        ),
        pytest.param([cap("B", "4a 4r")], E("shake", player="A", month=4), "card_twice", id="two-cards-captured"),
        pytest.param([], E("shake", player="A", month=0), "bad_month", id="month-zero"),
        pytest.param([], E("shake", player="A", month="4"), "bad_month", id="month-text"),
        pytest.param([], E("shake", player="A"), "bad_event", id="no-month"),
    ],
)
def test_shake_refusals(before, event, code):
    assert refusal(three(), before, event) == code


def test_bomb_captures_the_four_cards_of_the_month():
    state = replay(three(), [E("bomb", player="A", month=11)])
    assert state.player("A").captures == ("11g", "11j1", "11j2", "11jd")
    assert state.player("A").bombs == (11,)


def test_bomb_takes_a_junk_when_the_rules_say_so():
    setup = three("korean-common")
    state = replay(setup, [cap("B", "1j1 1j2"), cap("C", "12jd"), E("bomb", player="A", month=3)])
    assert state.player("A").captures == ("1j1", "3g", "3r", "3j1", "3j2", "12jd")
    named = replay(setup, [cap("B", "1j1 1j2"), E("bomb", player="A", month=3, give={"B": ["1j2"]})])
    assert named.player("B").captures == ("1j1",)


@pytest.mark.parametrize(
    "setup, before, event, code",
    [
        pytest.param(
            three(),
            [E("shake", player="A", month=3)],
            E("bomb", player="A", month=3),
            "bomb_after_shake",
            id="shaken-month",
        ),
        pytest.param(
            three(), [cap("B", "3j1")], E("bomb", player="A", month=3), "card_twice", id="a-card-already-captured"
        ),
        pytest.param(
            three(), [E("bomb", player="B", month=3)], E("bomb", player="A", month=3), "card_twice", id="bombed-already"
        ),
        pytest.param(
            three(),
            [],
            E("bomb", player="A", month=3, give={"B": ["1j1"]}),
            "rule_off",
            id="names-junk-but-bomb-takes-none",
        ),
    ],
)
def test_bomb_refusals(setup, before, event, code):
    assert refusal(setup, before, event) == code


def test_bomb_after_shake_when_the_rules_allow_it():
    setup = three("encyclopedia")
    state = replay(setup, [E("shake", player="A", month=3), E("bomb", player="A", month=3)])
    assert state.player("A").shakes == (3,) and state.player("A").bombs == (3,)


# -- go and stop -------------------------------------------------------------------------------------


def test_reaching_the_target_at_the_end_of_a_turn_asks_go_or_stop():
    state = replay(three(), A_MUST_DECIDE)
    assert state.must_decide == "A" and state.current == "A"
    assert state.to_json()["must_decide"] == "A"


def test_a_score_below_target_passes_the_turn():
    state = replay(three(), [cap("A", "1g 3g"), END])
    assert state.must_decide is None and state.current == "B"


@pytest.mark.parametrize(
    "event",
    [
        pytest.param(cap("B", "1j1"), id="capture"),
        pytest.param(junk("B", "sseul"), id="junk"),
        pytest.param(END, id="end-turn"),
        pytest.param(E("shake", player="A", month=5), id="shake"),
        pytest.param(E("ppuk", player="A"), id="ppuk"),
        pytest.param(E("go", player="B"), id="another-players-go"),
        pytest.param(E("stop", player="C"), id="another-players-stop"),
        pytest.param(E("nagari"), id="nagari"),
    ],
)
def test_while_a_player_must_decide_other_events_are_refused(event):
    assert refusal(three(), A_MUST_DECIDE, event) == "must_decide"


def test_go_counts_remembers_the_score_and_passes_the_turn():
    state = replay(three(), [*A_MUST_DECIDE, E("go", player="A")])
    a = state.player("A")
    assert (a.gos, a.score_at_last_go, state.current, state.must_decide) == (1, 3, "B", None)


def test_stop_ends_the_hand_with_the_stopper_as_winner():
    state = replay(three(), [*A_MUST_DECIDE, E("stop", player="A")])
    assert state.outcome.type == "stop" and state.outcome.winner == "A"
    assert state.result()["net"]["A"] == 12  # 3 points, gwang-bak from both (no brights): 6 each


@pytest.mark.parametrize(
    "before, event",
    [
        pytest.param([cap("A", "1g 3g"), END], E("go", player="A"), id="below-target"),
        pytest.param([cap("A", "1g 3g")], E("stop", player="A"), id="below-target-on-turn"),
        pytest.param([cap("B", "1g 3g 8g")], E("stop", player="B"), id="not-their-turn"),
        pytest.param([*A_MUST_DECIDE, E("go", player="A"), END, END], E("stop", player="A"), id="after-go-same-score"),
    ],
)
def test_go_and_stop_refused_when_not_eligible(before, event):
    assert refusal(three(), before, event) == "not_eligible"


def test_after_a_go_a_higher_score_asks_again():
    events = [*A_MUST_DECIDE, E("go", player="A"), END, END, cap("A", "11g"), END]  # four brights: 4
    state = replay(three(), events)
    assert state.must_decide == "A"
    won = apply(state, E("stop", player="A"))
    assert won.result()["payments"][0]["trail"][1] == {
        "id": "go_bonus",
        "label": "고 보너스 go bonus",
        "value": 1,
        "gos": 1,
    }


def test_after_a_go_the_same_score_passes_the_turn():
    state = replay(three(), [*A_MUST_DECIDE, E("go", player="A"), END, END, END])
    assert state.must_decide is None and state.current == "B"


def test_a_score_that_fell_must_rise_above_the_last_go():
    """rules.md §4: the check is against the score at the last go, not the current score."""
    ten_junk = "1j1 1j2 2j1 2j2 3j1 3j2 4j1 4j2 5j1 5j2"
    events = [cap("A", "1r 2r 3r " + ten_junk), END, E("go", player="A")]  # hong-dan 3 + junk 1 = 4
    events += [junk("B", "sseul"), END, END]  # A gives a junk back: 3 points
    assert replay(three(), events).score("A").toward_target == 3
    back_to_four = [*events, cap("A", "6j1"), END]
    assert replay(three(), back_to_four).current == "B"  # 4 is not above 4
    five = [*events, cap("A", "6j1 6j2"), END]
    assert replay(three(), five).must_decide == "A"


def test_the_player_on_turn_may_say_go_without_ending_the_turn_first():
    state = replay(three(), [THREE_BRIGHTS, E("go", player="A")])
    assert state.player("A").gos == 1 and state.current == "B"


def test_pagat_stop_while_the_opponent_has_more():
    """Pagat: target 5, you stop at 5 while the opponent has 7 after a go: you are paid 5."""
    setup = two(target_two_players=5)
    events = [
        END,  # A's first turn: nothing
        cap("B", "2a 4a 8a 12g"),
        END,
        E("go", player="B"),  # godori: 5, go
        cap("A", "1g 1r"),
        END,
        cap("B", "5a 6a"),
        END,
        E("go", player="B"),  # 5 animals + godori: 6, go
        cap("A", "3g 4r 5r"),
        END,
        cap("B", "7a"),
        END,
        E("go", player="B"),  # 7
        cap("A", "8g 6r 9r 12r"),
        END,  # three brights 3 + six ribbons 2 = 5
    ]
    state = replay(setup, events)
    assert state.score("B").points == 7 and state.must_decide == "A"
    won = apply(state, E("stop", player="A"))
    assert won.result()["net"] == {"A": 5, "B": -5}


def test_go_on_the_very_last_turn_ends_in_nagari():
    events = [END] * 20 + [cap("C", "1g 3g 8g"), END]
    state = replay(three(), events)
    assert state.must_decide == "C"
    after = apply(state, E("go", player="C"))
    assert after.outcome.type == "nagari" and after.outcome.reason == "go_not_raised"


def test_pagat_worked_example_three_goes_meong_dda_pi_bak():
    """rules.md §5: (6 + 2) × 2 (third go) × 2 (meong-dda) × 2 (pi-bak) = 64 on a reachable state."""
    rest = [END, END]  # B's and C's turns
    events = [
        cap("A", "2a 4a 5a 6a 7a 10a 12a"),
        END,
        E("go", player="A"),  # seven animals: 3
        cap("B", "1j1 1j2 2j1 2j2"),
        END,
        cap("C", "3j1 3j2 4j1 4j2 5j1 5j2"),
        END,
        cap("A", "6j1 6j2 7j1 7j2 8j1 8j2 9j1 9j2 10j1 10j2"),
        END,
        E("go", player="A"),  # 4
        *rest,
        cap("A", "11j1"),
        END,
        E("go", player="A"),  # 5
        *rest,
        cap("A", "11j2"),
        END,
        E("stop", player="A"),  # 6
    ]
    result = replay(three(), events).result()
    owed = {p["from"]: p["points"] for p in result["payments"]}
    assert owed == {"B": 64, "C": 32}


# -- showdown -----------------------------------------------------------------------------------------

SHOWDOWN_REFUSED_BY_B = [E("showdown_offer", player="A"), E("showdown_refuse", player="B")]


def test_showdown_both_accept_is_a_nagari():
    state = replay(three(), [E("showdown_offer", player="A"), E("showdown_accept", player="B")])
    assert state.must_answer == "C" and not state.over
    done = apply(state, E("showdown_accept", player="C"))
    assert done.outcome.type == "nagari" and done.outcome.reason == "showdown"


@pytest.mark.parametrize(
    "answers, refuser",
    [
        pytest.param([E("showdown_refuse", player="B")], "B", id="right-refuses-left-accepts-by-itself"),
        pytest.param([E("showdown_accept", player="B"), E("showdown_refuse", player="C")], "C", id="left-refuses"),
    ],
)
def test_showdown_refused_play_goes_on(answers, refuser):
    state = replay(three(), [E("showdown_offer", player="A"), *answers])
    assert not state.over and state.must_answer is None and state.current == "A"
    assert state.refused_showdown.refused_by == refuser


@pytest.mark.parametrize(
    "setup, before, event, code",
    [
        pytest.param(two(), [], E("showdown_offer", player="A"), "showdown_needs_three", id="two-players"),
        pytest.param(three(), [], E("showdown_offer", player="B"), "not_your_turn", id="not-their-turn"),
        pytest.param(three(), [cap("A", "1j1")], E("showdown_offer", player="A"), "not_your_turn", id="after-playing"),
        pytest.param(three(), [], E("showdown_accept", player="B"), "no_showdown", id="nothing-offered"),
        pytest.param(
            three(),
            [E("showdown_offer", player="A")],
            E("showdown_accept", player="C"),
            "must_answer",
            id="left-answers-first",
        ),
        pytest.param(
            three(), [E("showdown_offer", player="A")], cap("A", "1j1"), "must_answer", id="play-before-the-answer"
        ),
        pytest.param(
            three(), SHOWDOWN_REFUSED_BY_B, E("showdown_accept", player="C"), "no_showdown", id="answer-after-refusal"
        ),
    ],
)
def test_showdown_refusals(setup, before, event, code):
    assert refusal(setup, before, event) == code


def test_showdown_refuser_pays_dok_bak_if_the_other_wins_in_the_round():
    events = [*SHOWDOWN_REFUSED_BY_B, END, END, cap("C", "1g 3g 8g"), END, E("stop", player="C")]
    state = replay(three(), events)
    assert state.summary()["showdown"] == {"offered_by": "A", "refused_by": "B"}
    payments = state.result()["payments"]
    assert [(p["from"], p["points"]) for p in payments] == [("B", 12)]


def test_showdown_offerer_winning_also_makes_the_refuser_pay():
    events = [*SHOWDOWN_REFUSED_BY_B, THREE_BRIGHTS, END, E("stop", player="A")]
    payments = replay(three(), events).result()["payments"]
    assert [(p["from"], p["points"]) for p in payments] == [("B", 12)]


def test_showdown_refuser_winning_pays_normally_and_lifts_the_offerers_go_bak():
    events = [*A_MUST_DECIDE, E("go", player="A"), END, END]  # A said go; A's second turn
    events += [*SHOWDOWN_REFUSED_BY_B, END, cap("B", "1r 2r 3r"), END, E("stop", player="B")]
    result = replay(three(), events).result()
    assert sorted(p["from"] for p in result["payments"]) == ["A", "C"]
    assert any(n["id"] == "showdown_go_bak_lifted" for n in result["notes"])


def test_showdown_refusal_expires_after_the_round():
    events = [*SHOWDOWN_REFUSED_BY_B, END, END, END, THREE_BRIGHTS, END, E("stop", player="A")]
    state = replay(three(), events)
    assert "showdown" not in state.summary()
    assert sorted(p["from"] for p in state.result()["payments"]) == ["B", "C"]


# -- oe-myeon ----------------------------------------------------------------------------------------------

OE_MYEON_WIN = [END, cap("B", "1g 3g 8g")]


@pytest.mark.parametrize(
    "last_card, payers",
    [
        pytest.param(False, ["A"], id="the-loser-pays-for-both"),
        pytest.param(True, ["A", "C"], id="not-for-their-last-card"),
    ],
)
def test_oe_myeon(last_card, payers):
    events = [*OE_MYEON_WIN, END, E("oe_myeon", player="A", last_card=last_card), E("stop", player="B")]
    result = replay(three(), events).result()
    assert sorted(p["from"] for p in result["payments"]) == payers


def test_oe_myeon_recorded_before_the_turn_ends():
    events = [*OE_MYEON_WIN, E("oe_myeon", player="C"), END, E("stop", player="B")]
    assert replay(three(), events).summary()["dokbak"] == {"player": "C", "reason": "oe_myeon", "last_card": False}


def test_oe_myeon_lapses_when_the_turn_passes():
    events = [END, E("oe_myeon", player="A"), END, cap("C", "1g 3g 8g"), END, E("stop", player="C")]
    assert replay(three(), events).summary()["dokbak"] is None


@pytest.mark.parametrize(
    "setup, event, code",
    [
        pytest.param(two(), E("oe_myeon", player="B"), "dokbak_needs_three", id="two-players"),
        pytest.param(three(oe_myeon=False), E("oe_myeon", player="B"), "rule_off", id="rules-off"),
        pytest.param(three(), E("oe_myeon", player="A"), "dokbak_is_winner", id="names-the-player-on-turn"),
        pytest.param(three(), E("oe_myeon", player="B", last_card="yes"), "bad_event", id="last-card-not-bool"),
    ],
)
def test_oe_myeon_refusals(setup, event, code):
    assert refusal(setup, [], event) == code


# -- at the deal: chongtong and four of a month on the table ---------------------------------------------


@pytest.mark.parametrize(
    "event, net",
    [
        pytest.param(E("chongtong", player="B", month=4), {"A": -5, "B": 10, "C": -5}, id="one"),
        pytest.param(E("chongtong", players={"B": 4, "C": 9}), {"A": -10, "B": 5, "C": 5}, id="two-collect-from-third"),
        pytest.param(E("chongtong", players={"A": 1, "B": 4, "C": 9}), {"A": 0, "B": 0, "C": 0}, id="three-cancel"),
    ],
)
def test_chongtong(event, net):
    state = replay(three(), [event])
    assert state.outcome.type == "chongtong"
    assert state.result()["net"] == net


def test_chongtong_after_the_dealer_takes_jokers_off_the_table():
    state = replay(three(), [cap("A", "b2"), E("chongtong", player="C", month=12)])
    assert state.outcome.winners == ("C",) and state.summary()["outcome"] == {
        "type": "chongtong",
        "winner": "C",
        "month": 12,
    }


@pytest.mark.parametrize(
    "setup, before, event, code",
    [
        pytest.param(three(), [cap("A", "1j1")], E("chongtong", player="B", month=4), "not_at_deal", id="after-play"),
        pytest.param(three(), [END], E("four_on_table", month=4), "not_at_deal", id="four-after-a-turn"),
        pytest.param(three(chongtong=0), [], E("chongtong", player="B", month=4), "rule_off", id="rules-pay-nothing"),
        pytest.param(three(), [], E("chongtong", players={"B": 4, "C": 4}), "card_twice", id="one-month-two-holders"),
        pytest.param(three(), [], E("chongtong", players={"Z": 4}), "unknown_player", id="unknown-holder"),
        pytest.param(three(), [], E("chongtong", players={"B": 13}), "bad_month", id="bad-month"),
        pytest.param(three(), [], E("chongtong", player="B"), "bad_event", id="no-month"),
        pytest.param(three(), [], E("chongtong", player="B", month=4, players={"C": 5}), "bad_event", id="both-forms"),
        pytest.param(three(), [], E("chongtong", players={}), "bad_event", id="nobody"),
    ],
)
def test_deal_refusals(setup, before, event, code):
    assert refusal(setup, before, event) == code


@pytest.mark.parametrize(
    "setup, kind, net",
    [
        pytest.param(three(), "void_deal", {"A": 0, "B": 0, "C": 0}, id="void-deal"),
        pytest.param(
            three(void_deal_chongtong=True), "chongtong", {"A": 10, "B": -5, "C": -5}, id="dealer-wins-by-option"
        ),
    ],
)
def test_four_of_a_month_on_the_table(setup, kind, net):
    state = replay(setup, [E("four_on_table", month=6)])
    assert state.outcome.type == kind
    assert state.result()["net"] == net


# -- nagari -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "before, reason",
    [
        pytest.param([], "declared", id="cards-ran-out"),
        pytest.param([*A_MUST_DECIDE, E("go", player="A")], "go_not_raised", id="after-a-go"),
    ],
)
def test_nagari_declared(before, reason):
    state = replay(three(), [*before, E("nagari")])
    assert state.outcome.type == "nagari" and state.outcome.reason == reason
    assert state.result()["payments"] == [] and state.summary()["outcome"] == {"type": "nagari"}


def test_events_after_the_end_are_refused():
    for event in (cap("B", "1j1"), END, E("nagari"), E("stop", player="A"), E("chongtong", player="A", month=1)):
        assert refusal(three(), [E("nagari")], event) == "hand_over"


# -- first-turn fixed payments -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options, events, fixed",
    [
        pytest.param({"first_turn_ttadak": 3}, [junk("A", "ttadak")], ["first_turn_ttadak"], id="ttadak"),
        pytest.param({}, [junk("A", "ttadak")], [], id="ttadak-unpaid-by-default"),
        pytest.param({"first_turn_chok": 3}, [junk("A", "chok")], ["first_turn_chok"], id="chok"),
        pytest.param({"first_turn_chok": 3}, [END, END, END, junk("A", "chok")], [], id="chok-second-turn"),
        pytest.param(
            {"first_turn_four": 3},
            [cap("A", "1g 1j1"), cap("A", "1r 1j2")],
            ["first_turn_four"],
            id="four-as-two-pairs",
        ),
        pytest.param({"first_turn_four": 3}, [E("bomb", player="A", month=2)], ["first_turn_four"], id="four-by-bomb"),
        pytest.param({"first_turn_four": 3}, [junk("A", "ttadak")], ["first_turn_four"], id="ttadak-is-four"),
        pytest.param(
            {"first_turn_four": 3, "first_turn_ttadak": 3},
            [cap("A", "1g 1r 1j1 1j2"), junk("A", "ttadak")],
            ["first_turn_ttadak"],
            id="ttadak-paid-once",
        ),
        pytest.param(
            {"first_turn_four": 3},
            [cap("A", "1g 1j1"), END, END, END, cap("A", "1r 1j2")],
            [],
            id="four-over-two-turns",
        ),
        pytest.param({"boar_pot": 2}, [cap("A", "7a 7j1")], ["boar_pot"], id="boar"),
        pytest.param({"boar_pot": 2}, [cap("B", "7a 7j1")], [], id="boar-off-turn"),
    ],
)
def test_first_turn_feats(options, events, fixed):
    assert [f["kind"] for f in replay(three(**options), events).fixed()] == fixed


def test_fixed_payments_are_paid_even_in_a_nagari():
    state = replay(three(), [E("ppuk", player="A"), E("nagari")])
    assert state.result()["net"] == {"A": 6, "B": -3, "C": -3}


# -- the summary, the result, the view --------------------------------------------------------------------


def test_result_is_the_contract_scoring_the_summary():
    events = [
        E("shake", player="A", month=5),
        *A_MUST_DECIDE,
        E("go", player="A"),
        END,
        END,
        cap("A", "11g"),
        END,
        E("stop", player="A"),
    ]
    state = replay(three(), events)
    summary = state.summary()
    assert summary["outcome"] == {"type": "stop", "winner": "A"}
    assert summary["gos"] == {"A": 1} and summary["shakes"] == {"A": [5]}
    assert state.result() == score_summary(summary)
    assert state.result()["ok"] and sum(state.result()["net"].values()) == 0


def test_last_go_names_the_loser_whose_go_came_last():
    events = [
        cap("B", "1g 3g 8g"),
        cap("C", "1r 2r 3r"),
        END,
        END,
        E("go", player="B"),
        END,
        E("go", player="C"),
        cap("A", "2a 4a 8a"),
        END,
        E("stop", player="A"),
    ]
    state = replay(three(), events)
    assert state.summary()["last_go"] == "C"
    assert [p["from"] for p in state.result()["payments"]] == ["C"]  # go-bak: C pays for both


def test_an_unfinished_hand_has_no_summary_and_no_result():
    state = replay(three(), [cap("A", "1g")])
    assert state.result() is None
    with pytest.raises(EngineError) as err:
        state.summary()
    assert err.value.code == "hand_not_finished"


def test_state_to_json_is_plain_json():
    state = replay(three(), [*A_MUST_DECIDE, E("go", player="A")])
    view = json.loads(json.dumps(state.to_json()))
    a = view["players"][0]
    assert (a["name"], a["gos"], a["score_at_last_go"], a["needs"], a["dealer"]) == ("A", 1, 3, 4, True)
    assert view["players"][1]["needs"] == 3
    assert a["score"]["lines"][0]["id"] == "three_brights"
    assert view["turn"]["player"] == "B" and view["over"] is False


# -- undo and replay --------------------------------------------------------------------------------------


def test_undo_drops_the_last_event():
    events = [*A_MUST_DECIDE, E("go", player="A")]
    kept, state = undo(three(), events)
    assert kept == A_MUST_DECIDE and state == replay(three(), A_MUST_DECIDE) and state.must_decide == "A"


def test_undo_of_an_empty_log_is_refused():
    with pytest.raises(EngineError) as err:
        undo(three(), [])
    assert err.value.code == "nothing_to_undo"


def test_replay_names_the_refused_event():
    with pytest.raises(EngineError) as err:
        replay(three(), [cap("A", "1g"), cap("B", "2a 1g")])
    assert err.value.at_event == 1 and err.value.errors[0]["path"] == "events[1].cards[1]"


DOC_SETUP = {
    "players": ["A", "B", "C"],
    "dealer": "A",
    "rules": {"preset": "pagat", "options": {}},
    "nagari_carry": 1,
    "chip_value": 100,
}


def test_replay_hand_document_answers_state_and_result():
    doc = {"setup": DOC_SETUP, "events": [*A_MUST_DECIDE, E("stop", player="A")]}
    out = replay_hand_document(doc)
    assert out["ok"] and out["state"]["over"]
    assert out["result"]["net"]["A"] == 24  # 3 × gwang-bak 2 × nagari carry 2, from each
    assert json.loads(json.dumps(out)) == out


def test_replay_hand_document_of_a_hand_in_play_has_no_result():
    out = replay_hand_document({"setup": DOC_SETUP, "events": [cap("A", "1g")]})
    assert out["ok"] and out["result"] is None and out["state"]["turn"]["player"] == "A"


@pytest.mark.parametrize(
    "doc, code, at_event",
    [
        pytest.param(
            {"setup": DOC_SETUP, "events": [cap("A", "1g"), cap("B", "1g")]}, "card_twice", 1, id="refused-event"
        ),
        pytest.param({"setup": {**DOC_SETUP, "players": ["A"]}, "events": []}, "bad_players", None, id="bad-setup"),
        pytest.param({"setup": DOC_SETUP, "events": {}}, "bad_event", None, id="events-not-a-list"),
        pytest.param([], "bad_event", None, id="not-an-object"),
    ],
)
def test_replay_hand_document_refusals(doc, code, at_event):
    out = replay_hand_document(doc)
    assert out["ok"] is False and out["errors"][0]["code"] == code and out["at_event"] == at_event


# -- whole hands from the source texts ---------------------------------------------------------------------


def test_pagat_ppuk_ttadak_chok_and_ja_ppuk_in_one_hand():
    """Pagat "Special events during the play", event by event at a three-player table."""
    events = [
        E("ppuk", player="A", month=5),
        END,  # A: 5r on 5j1, draws 5j2: ppuk
        cap("B", "9a 9r 9j1 9j2"),
        junk("B", "ttadak"),
        END,  # B: ttadak; nobody has junk yet
        cap("C", "1j1 1j2"),
        junk("C", "chok"),
        END,  # C: chok; B gives 9j1
        cap("A", "5r 5j1 5j2 5a", **{"from": "stack"}),
        junk("A", "ja_ppuk"),
        END,  # A takes back its stack
        cap("B", "2r 2j1"),
        END,
        cap("C", "3g 3j1", **{"from": "hand"}),
        cap("C", "8g 8j1", **{"from": "stock"}),
        END,
        END,
        END,
        cap("C", "11g 11j1"),
        END,  # three brights: 3
    ]
    state = replay(three(), events)
    assert state.player("A").captures == ("1j1", "1j2", "5a", "5r", "5j1", "5j2", "9j2")
    assert state.player("B").captures == ("2r", "2j1", "9a", "9r")
    assert state.must_decide == "C"
    result = apply(state, E("stop", player="C")).result()
    # C: 3 points, gwang-bak from A and B (×2); A's first-turn ppuk: 3 from B and from C.
    assert result["net"] == {"A": 0, "B": -9, "C": 9}


def test_sseul_on_the_last_turn_does_not_count_but_a_ppuk_capture_does():
    """Pagat: the first three special events don't count in the last player's last turn."""
    events = [cap("A", "1j1"), cap("B", "2j1"), E("ppuk", player="A", month=4)] + [END] * 20
    assert refusal(three(), events, junk("C", "sseul")) == "last_turn"
    state = replay(three(), [*events, cap("C", "4a 4r 4j1 4j2"), junk("C", "ppuk"), END])
    assert state.player("C").captures == ("1j1", "2j1", "4a", "4r", "4j1", "4j2")
    assert state.outcome.type == "nagari"


# -- the example log and speed ------------------------------------------------------------------------------


def test_the_live_example_ends_in_a_stop_with_a_go_and_pi_bak():
    doc = json.loads((EXAMPLES / "hand-live.json").read_text(encoding="utf-8"))
    assert doc["note"]
    out = replay_hand_document(doc)
    assert out["ok"], out
    winner = out["result"]["outcome"]["winner"]
    assert out["state"]["outcome"]["type"] == "stop"
    assert next(p for p in out["state"]["players"] if p["name"] == winner)["gos"] >= 1
    steps = {s["id"] for p in out["result"]["payments"] for s in p["trail"]}
    assert "pi_bak" in steps


def sixty_events() -> list[dict]:
    """A long hand nobody wins: 21 turns, a junk card captured and some junk taken on each turn."""
    junk_cards = [f"{m}j{n}" for m in range(1, 12) for n in (1, 2)]
    events: list[dict] = []
    for turn in range(21):
        player = "ABC"[turn % 3]
        events.append(cap(player, junk_cards[turn]))
        if turn < 12:
            events.append(junk(player, "sseul"))
        if turn < 6:
            events.append(E("ppuk", player=player))
        events.append(END)
    return events


def test_sixty_events_replay_to_a_nagari():
    """The long hand of benchmarks/hand.py: every event valid, the last one ends it (speed: BENCHMARKS.md)."""
    events = sixty_events()
    assert len(events) == 60
    assert not replay(three(), events[:-1]).over
    assert replay(three(), events).over
