"""The turn passing by itself at a seat-bound table (engine/hand_turns.py)."""

from __future__ import annotations

import pytest

from benchmarks.scripted_hand import PLAYERS, PRESET, TURNS
from benchmarks.scripted_hand import events as one_phone_log
from scorekeeper.engine.errors import EngineError
from scorekeeper.engine.live.hand import HandSetup, apply, replay
from scorekeeper.engine.live.turns import ended_since, seat_tap, turns_ahead

from .hand_cases import END, E, cap, three, two

THREE_BRIGHTS = cap("A", "1g 3g 8g")  # A reaches the three-player target


def land(state, event, skip=False):
    """What a seat phone's tap stores: the passes, then the tap (unless it waits)."""
    tap = seat_tap(state, event, skip)
    stored = list(tap.passes)
    if tap.waiting is None:
        stored.append(event)
        return stored, apply(tap.state, event), None
    return stored, tap.state, tap.waiting


@pytest.mark.parametrize(
    "log, event, passes",
    [
        pytest.param([], cap("A", "1j1"), [], id="on-turn-passes-nothing"),
        pytest.param([], cap("B", "1j1"), [E("end_turn", player="A")], id="next-player-ends-the-turn-before"),
        pytest.param(
            [cap("A", "2j1")], E("shake", player="B", month=3), [E("end_turn", player="A")], id="an-event-passes-too"
        ),
        pytest.param([], E("weol_yak", player="B"), [], id="a-fact-passes-nothing"),
        pytest.param([], E("end_turn", player="A"), [], id="end-turn-itself"),
        pytest.param([], E("mission", multiplier=2), [], id="no-player"),
    ],
)
def test_which_turns_a_seat_tap_passes(log, event, passes):
    assert list(seat_tap(replay(three(), log), event).passes) == passes


def test_the_next_players_tap_waits_for_go_or_stop_and_lands_after_the_answer():
    state = replay(three(), [THREE_BRIGHTS])
    stored, state, waiting = land(state, cap("B", "2j1"))
    assert stored == [E("end_turn", player="A")] and waiting == "A" and state.must_decide == "A"
    # Sent again before the answer: it still waits, nothing more is stored.
    again = seat_tap(state, cap("B", "2j1"))
    assert again.passes == () and again.waiting == "A"
    state = apply(state, E("go", player="A"))
    stored, state, waiting = land(state, cap("B", "2j1"))
    assert stored == [cap("B", "2j1")] and waiting is None and state.current == "B"


def test_a_tap_from_further_ahead_is_confirmed_then_passes_every_turn_between():
    state = replay(three(), [])
    with pytest.raises(EngineError) as err:
        seat_tap(state, cap("C", "1j1"))
    assert err.value.errors[0]["code"] == "skip_turns" and "A, B" in err.value.errors[0]["message"]
    stored, state, _ = land(state, cap("C", "1j1"), skip=True)
    assert stored == [E("end_turn", player="A"), E("end_turn", player="B"), cap("C", "1j1")]
    assert state.current == "C"


def test_passing_stops_where_go_or_stop_is_asked():
    state = replay(three(), [THREE_BRIGHTS])
    stored, state, waiting = land(state, cap("C", "2j1"), skip=True)
    assert stored == [E("end_turn", player="A")] and waiting == "A"


def test_the_last_turn_is_never_passed_by_a_tap():
    setup = two()
    state = replay(setup, [END] * (setup.total_turns - 1))
    assert state.current == "B" and state.on_last_turn
    with pytest.raises(EngineError) as err:
        seat_tap(state, cap("A", "1j1"))
    assert err.value.errors[0]["code"] == "not_your_turn"


def test_turns_ahead_counts_round_the_table():
    state = replay(three(), [END])  # B on turn
    assert [turns_ahead(state, p) for p in "ABC"] == [2, 0, 1]


def test_the_scripted_hand_tapped_on_seat_phones_stores_the_one_phone_log():
    """Each seat taps only its own player's captures and events, and no End turn at all (Mina's
    empty turn 10 is passed by Jun's tap from two seats ahead, confirmed)."""
    state = replay(HandSetup.create(PLAYERS, PLAYERS[0], PRESET), [])
    stored: list[dict] = []
    for player, steps in TURNS:
        for kind, value in steps:
            if kind == "cards":
                taps = [{"type": "capture", "player": player, "cards": [c]} for c in value]
            elif kind in ("shake", "bomb"):
                taps = [{"type": kind, "player": player, "month": value}]
            elif kind == "junk":
                taps = [{"type": "take_junk", "player": player, "reason": value}]
            else:  # go or stop: the seat's Go/Stop button ends its own turn with the answer
                taps = [{"type": "end_turn", "player": player}, {"type": kind, "player": player}]
            for tap in taps:
                new, state, waiting = land(state, tap, skip=True)
                assert waiting is None
                stored += new
    # The one-phone log captures card by card in this benchmark's taps: compare as events merged.
    assert _merged(stored) == one_phone_log()


def _merged(log: list[dict]) -> list[dict]:
    out: list[dict] = []
    for e in log:
        if out and e["type"] == "capture" and out[-1]["type"] == "capture" and out[-1]["player"] == e["player"]:
            out[-1] = out[-1] | {"cards": out[-1]["cards"] + e["cards"]}
        else:
            out.append(dict(e))
    return out


def test_a_late_tap_passes_nothing():
    """A's tap made while A's turn was going lands as A's, though B's tap ended that turn first."""
    log = [cap("A", "1j1"), E("end_turn", player="A"), cap("B", "2j1")]
    assert ended_since(log, 1, "A") and not ended_since(log, 2, "A") and not ended_since(log, 1, "B")
    state = replay(three(), log)
    tap = seat_tap(state, cap("A", "1j2"), late=ended_since(log, 1, "A"))
    assert tap.passes == () and tap.waiting is None
    assert apply(tap.state, cap("A", "1j2")).current == "B"


def test_late_counts_only_for_the_turn_just_ended():
    """A stale page of A's after C is on turn: A's tap starts A's next turn, passing C's."""
    log = [cap("A", "1j1"), E("end_turn", player="A"), cap("B", "2j1"), E("end_turn", player="B")]
    state = replay(three(), log)
    assert list(seat_tap(state, cap("A", "1j2"), late=True).passes) == [E("end_turn", player="C")]
