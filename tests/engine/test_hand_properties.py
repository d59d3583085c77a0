"""Invariants of the live hand over random logs (Hypothesis).

A log is built by a random walk: at each step an event is drawn that suits the state
more often than not (a capture of free cards, the player on turn saying go …); the
refused ones are left out of the log, as the app leaves them out of its store.
"""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.engine.cards import BONUS_CARDS, DECK
from scorekeeper.engine.errors import ERROR_CODES, EngineError
from scorekeeper.engine.live.events import JUNK_REASONS
from scorekeeper.engine.live.hand import HandSetup, HandState, apply, replay, undo
from scorekeeper.engine.live.junk import named_value
from scorekeeper.engine.summary.contract import score_summary

SETUPS = [
    HandSetup.create(["A", "B", "C"], "A"),
    HandSetup.create(["A", "B", "C"], "C", "korean-common", {"first_turn_chok": 3}),
    HandSetup.create(["A", "B"], "B", "ogb-matgo"),
    HandSetup.create(["A", "B"], "A", "encyclopedia", {"target_two_players": 3, "boss_junk_jokers": 1}),
    HandSetup.create(
        ["A", "B", "C"],
        "B",
        "pagat",
        {  # the issue-8 house rules
            "weol_yak": True,
            "missions": True,
            "reverse_go": 4,
            "meong_bak_five": True,
            "shake_bomb_once": True,
            "go_bak_three_players": "dok_bak_doubled",
            "bridge_flexible": True,
            "meong_dda_per_animal": True,
        },
    ),
    HandSetup.create(
        ["A", "B", "C"],
        "A",
        "korean-common",
        {  # the issue-22 house rules
            "payment_cap": 30,
            "cup_counting": "score",
            "consecutive_ppuk": 14,
            "go_bak_three_players": "times_players_each",
            "missions": True,
            "weol_yak": True,
        },
    ),
    HandSetup.create(  # issue 31: Hangame's ppuk chain, each link paid, the third ppuk a win
        ["A", "B"],
        "A",
        "pagat",
        {
            "first_turn_ppuk": 7,
            "consecutive_ppuk": 14,
            "three_consecutive_ppuk": 21,
            "ppuk_chain": "each",
            "three_ppuk": 7,
        },
    ),
    HandSetup.create(  # issue 31: the chain replacing, no three-ppuk win; the cap per player
        ["A", "B", "C"],
        "C",
        "korean-common",
        {
            "consecutive_ppuk": 14,
            "three_consecutive_ppuk": 21,
            "three_ppuk": 0,
            "payment_cap": 20,
            "payment_cap_per": "player",
            "go_bak_three_players": "dok_bak_doubled",
        },
    ),
]
CODES = [c.code for c in DECK]
# Turn events weigh most, as at a real table; the deal events are rare.
KINDS = (
    ["capture"] * 16
    + ["end_turn"] * 14
    + ["take_junk"] * 6
    + ["decide"] * 3
    + ["ppuk", "shake", "bomb", "showdown", "oe_myeon", "wild", "fact"] * 2
    + ["rare"]
)
SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _capture(draw, state: HandState, player: str) -> dict:
    held = state.captured()
    free = [c for c in CODES if c not in held] or CODES
    cards = draw(st.lists(st.sampled_from(free + list(BONUS_CARDS)), min_size=1, max_size=4, unique=True))
    return {"type": "capture", "player": player, "cards": cards}


def _take_junk(draw, state: HandState, player: str) -> dict:
    event = {"type": "take_junk", "player": player, "reason": draw(st.sampled_from(sorted(JUNK_REASONS)))}
    giver = draw(st.sampled_from(list(state.order)))
    pile = [c for c in state.player(giver).captures if named_value(c, state.rules)]
    if pile and draw(st.booleans()):
        event["give"] = {giver: draw(st.lists(st.sampled_from(pile), min_size=1, max_size=2))}
    return event


def _showdown(draw, state: HandState, player: str) -> dict:
    if state.must_answer:
        answer = draw(st.sampled_from(["showdown_accept", "showdown_refuse"]))
        return {"type": answer, "player": state.must_answer}
    return {"type": "showdown_offer", "player": state.current or player}


@st.composite
def events_for(draw, state: HandState) -> dict:
    """One event, likely but not certainly acceptable in ``state``."""
    players = list(state.order)
    player = draw(st.sampled_from(players))
    month = draw(st.integers(1, 12))
    kind = draw(st.sampled_from(KINDS))
    if state.must_answer or state.must_decide:  # mostly answer what is asked, sometimes try otherwise
        kind = draw(st.sampled_from(["showdown" if state.must_answer else "decide"] * 4 + [kind]))
    if kind == "capture":
        return _capture(draw, state, player)
    if kind == "take_junk":
        return _take_junk(draw, state, player)
    if kind == "end_turn":
        return {"type": "end_turn"}
    if kind == "decide":
        decider = state.must_decide or state.current or player
        return {"type": draw(st.sampled_from(["go", "stop"])), "player": decider}
    if kind in ("ppuk", "shake", "bomb"):
        event = {"type": kind, "player": player, "month": month}
        if kind == "ppuk" and draw(st.booleans()):
            del event["month"]
        return event
    if kind == "showdown":
        return _showdown(draw, state, player)
    if kind == "oe_myeon":
        return {"type": "oe_myeon", "player": player, "last_card": draw(st.booleans())}
    if kind == "fact":
        return draw(
            st.sampled_from(
                [
                    {"type": "weol_yak", "player": player},
                    {"type": "mission", "multiplier": draw(st.integers(1, 10))},
                    {"type": "mission", "multiplier": draw(st.integers(2, 9)), "player": player},
                ]
            )
        )
    if kind == "rare":  # rare at a table: the end declared, or the deal's instant ends
        return draw(
            st.sampled_from(
                [
                    {"type": "nagari"},
                    {"type": "chongtong", "player": player, "month": month},
                    {"type": "four_on_table", "month": month},
                ]
            )
        )
    return draw(
        st.sampled_from(
            [
                {"type": "draw"},
                {"type": "capture", "player": "Z", "cards": ["1g"]},
                {"type": "shake", "player": player, "month": 13},
                "junk",
            ]
        )
    )


@st.composite
def logs(draw, max_events: int = 80):
    """(setup, accepted events, the state after each prefix, the refused events with their state)."""
    setup = draw(st.sampled_from(SETUPS))
    state = HandState.start(setup)
    events, states, refused = [], [state], []
    for _ in range(draw(st.integers(0, max_events))):
        if state.over:
            break
        event = draw(events_for(state))
        try:
            state = apply(state, event)
        except EngineError as err:
            refused.append((states[-1], event, err))
            continue
        events.append(event)
        states.append(state)
    return setup, events, states, refused


@SETTINGS
@given(logs())
def test_replaying_a_log_gives_the_same_state(log):
    setup, events, states, _ = log
    assert replay(setup, events) == states[-1]
    assert replay(setup, events) == replay(setup, json.loads(json.dumps(events)))


@SETTINGS
@given(logs())
def test_any_prefix_of_a_valid_log_is_valid(log):
    setup, events, states, _ = log
    for k in range(len(events) + 1):
        assert replay(setup, events[:k]) == states[k]


@SETTINGS
@given(logs())
def test_undo_restores_the_previous_state_exactly(log):
    setup, events, states, _ = log
    if events:
        kept, state = undo(setup, events)
        assert kept == events[:-1] and state == states[-2]


@SETTINGS
@given(logs())
def test_a_card_is_never_in_two_places(log):
    setup, _, states, _ = log
    for state in states:
        held = Counter(code for p in state.players for code in p.captures)
        for code, n in held.items():
            limit = setup.rules.bonus_count(code) if code in BONUS_CARDS else 1
            assert n <= limit, (code, n)


@SETTINGS
@given(logs())
def test_junk_surrendered_comes_from_what_the_giver_holds(log):
    """Cards only move between piles when junk is taken: none appear, none go below zero."""
    _, events, states, _ = log
    for event, before, after in zip(events, states, states[1:]):
        if event["type"] != "take_junk":
            continue
        taker = event["player"]
        gained = Counter(after.player(taker).captures) - Counter(before.player(taker).captures)
        lost = Counter()
        for giver in before.opponents(taker):
            given_up = Counter(before.player(giver).captures) - Counter(after.player(giver).captures)
            assert not Counter(after.player(giver).captures) - Counter(before.player(giver).captures)
            assert all(named_value(code, before.rules) > 0 for code in given_up)
            assert sum(given_up.values()) <= 2
            lost += given_up
        assert gained == lost


@SETTINGS
@given(logs())
def test_refused_events_are_coded_and_change_nothing(log):
    setup, events, states, refused = log
    for state, event, err in refused:
        assert err.code in ERROR_CODES and err.errors[0]["message"]
    assert replay(setup, events) == states[-1]  # the refusals left no trace in the log


@SETTINGS
@given(logs())
def test_whoever_must_decide_is_on_turn_and_eligible(log):
    _, _, states, _ = log
    for state in states:
        if state.must_decide:
            assert state.must_decide == state.current and state.eligible(state.current)
        assert state.turn <= state.setup.total_turns


@SETTINGS
@given(logs())
def test_a_finished_hand_is_paid_by_the_contract_and_balances(log):
    _, _, states, _ = log
    state = states[-1]
    json.dumps(state.to_json())
    if not state.over:
        assert state.result() is None
        return
    result = state.result()
    assert result["ok"], result
    assert result == score_summary(state.summary())
    assert sum(result["net"].values()) == 0


@SETTINGS
@given(logs())
def test_after_a_go_the_winners_counting_passes_the_stop_check(log):
    """rules.md §13 reading 1: the payments use a cup/bridge counting above the score at the winner's last go."""
    _, _, states, _ = log
    state = states[-1]
    if not state.over or state.outcome.type != "stop":
        return
    winner = state.player(state.outcome.winner)
    result = state.result()
    assert result["ok"], result
    if winner.gos:
        assert result["scores"][winner.name]["toward_target"] > winner.score_at_last_go
