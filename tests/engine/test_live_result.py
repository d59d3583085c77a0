"""A finished live hand hands its result to the series typed (``live.summary.hand_result``): the
same outcome, payments and JSON as the contract's answer to the hand's summary, read back."""

from __future__ import annotations

import pytest
from hypothesis import given

from scorekeeper.engine.errors import EngineError
from scorekeeper.engine.live.hand import replay
from scorekeeper.engine.live.summary import hand_result
from scorekeeper.engine.model import HandResult
from scorekeeper.engine.summary.contract import score_summary

from .hand_cases import E, cap, three
from .test_hand_properties import SETTINGS, logs


@SETTINGS
@given(logs(max_events=120))
def test_a_finished_hands_result_is_the_contracts_answer_to_its_summary(log):
    _setup, _events, states, _ = log
    state = states[-1]
    if not state.over:
        return
    answer = score_summary(state.summary())
    assert answer["ok"]
    assert hand_result(state) == HandResult.from_json(answer)


def test_an_unfinished_hand_has_no_result():
    with pytest.raises(EngineError) as err:
        hand_result(replay(three(), [cap("A", "1g")]))
    assert err.value.code == "hand_not_finished"


def test_a_stop_pays_the_winner():
    state = replay(three(), [cap("A", "1g 3g 8g"), E("end_turn"), E("stop", player="A")])
    result = hand_result(state)
    assert result.outcome.winner == "A" and {p.payer for p in result.payments} == {"B", "C"}
    assert result.json["ok"] and result.json["outcome"] == {"type": "stop", "winner": "A"}
