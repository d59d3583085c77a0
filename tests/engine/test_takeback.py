"""Taking back one player's last event from the middle of the log (engine/live/takeback.py, issue 28)."""

from __future__ import annotations

import pytest

from benchmarks.scripted_hand import PLAYERS, PRESET
from benchmarks.scripted_hand import events as scripted_log
from scorekeeper.engine.errors import EngineError
from scorekeeper.engine.live.hand import HandSetup, replay
from scorekeeper.engine.live.takeback import own_last, take_back

from .hand_cases import E, cap, three

THREE_BRIGHTS = [cap("A", "1g"), cap("A", "3g"), cap("A", "8g")]  # A reaches the three-player target

# The table: 민수 (A here) takes 9 국진 by mistake, 현우 (B) taps 6 피 on his own phone,
# which ends A's turn before it.
MISTAKE = [cap("A", "1j1"), cap("A", "9a"), E("end_turn", player="A"), cap("B", "6j1")]


@pytest.mark.parametrize(
    "log, player, index",
    [
        pytest.param(MISTAKE, "A", 1, id="the-players-capture-not-the-tables-last-event"),
        pytest.param(MISTAKE, "B", 3, id="the-tables-last-event-is-its-players"),
        pytest.param(MISTAKE, "C", None, id="nothing-of-that-player"),
        pytest.param(MISTAKE[:3], "A", 2, id="an-end-of-turn-just-tapped-is-its-players"),
        pytest.param([E("end_turn", player="A"), cap("B", "2j1")], "A", None, id="a-passed-end-of-turn-is-not"),
        pytest.param([E("mission", multiplier=2)], "A", None, id="an-event-of-no-player"),
    ],
)
def test_a_players_last_event(log, player, index):
    assert own_last(log, player) == index


def test_taking_back_the_mistake_keeps_the_next_players_card():
    kept, state = take_back(three(), MISTAKE, 1)
    assert kept == [MISTAKE[0], MISTAKE[2], MISTAKE[3]]
    assert state.player("A").captures == ("1j1",)
    assert state.player("B").captures == ("6j1",)
    assert state.current == "B"  # the turn A's end passed stays passed


@pytest.mark.parametrize(
    "log, index, later, reason",
    [
        pytest.param(
            [*THREE_BRIGHTS, E("end_turn", player="A"), E("go", player="A"), cap("B", "2j1")],
            4,
            5,
            "must_decide",
            id="a-go-taken-back-after-the-next-player-played",
        ),
        pytest.param(
            [cap("A", "1g"), cap("A", "3g"), cap("A", "8g"), E("end_turn", player="A"), E("go", player="A")],
            2,
            4,
            "not_eligible",
            id="the-capture-that-made-the-go-possible",
        ),
    ],
)
def test_a_take_back_that_leaves_a_later_event_invalid_is_refused_naming_it(log, index, later, reason):
    with pytest.raises(EngineError) as err:
        take_back(three(), log, index)
    assert err.value.code == "takeback_breaks_log"
    assert err.value.errors[0]["index"] == later and err.value.errors[0]["path"] == f"events[{later}]"
    assert err.value.errors[1]["code"] == reason


def test_a_finished_hand_gives_back_only_its_last_event():
    log = [*THREE_BRIGHTS, E("end_turn", player="A"), E("stop", player="A")]
    with pytest.raises(EngineError) as err:
        take_back(three(), log, 1)
    assert err.value.code == "hand_over"
    _kept, state = take_back(three(), log, 4)
    assert not state.over and state.must_decide == "A"


def test_every_event_of_a_whole_hand_comes_back_as_the_log_without_it_or_is_refused_at_the_first_that_breaks():
    """Each of the scripted hand's events taken back in turn: either the engine takes the rest of
    the log as it stands, or the refusal names the first later event it refuses."""
    setup = HandSetup.create(PLAYERS, PLAYERS[0], PRESET)
    log = scripted_log()[:-1]  # the hand still going (a finished one gives back only its last)
    outcomes = set()
    for index in range(len(log)):
        kept = log[:index] + log[index + 1 :]
        try:
            expected = replay(setup, kept)
        except EngineError as err:
            with pytest.raises(EngineError) as refused:
                take_back(setup, log, index)
            assert refused.value.code == "takeback_breaks_log"
            assert refused.value.errors[0]["index"] == err.at_event + 1 > index
            outcomes.add("refused")
        else:
            assert take_back(setup, log, index) == (kept, expected)
            outcomes.add("taken")
    assert outcomes == {"refused", "taken"}
