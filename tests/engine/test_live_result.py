"""A finished live hand hands its result to the series typed (``live.summary.hand_result``): the
same outcome, payments and JSON as the contract's answer to the hand's summary, read back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given

from scorekeeper.engine.errors import EngineError
from scorekeeper.engine.live.hand import HandSetup, replay
from scorekeeper.engine.live.state import LiveOutcome
from scorekeeper.engine.live.summary import facts, hand_result
from scorekeeper.engine.model import HandResult
from scorekeeper.engine.summary.contract import dumps, parse_summary, score_summary

from .hand_cases import E, cap, three
from .live_facts import checked_facts, same_facts
from .test_hand_properties import SETTINGS, logs

EXAMPLES = Path(__file__).parents[2] / "examples" / "replay"


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


@SETTINGS
@given(logs(max_events=120))
def test_a_finished_hands_facts_are_those_its_summary_parses_to(log):
    """The live hand hands the payout its facts directly; the summary (its JSON edge) read back by
    ``parse_summary`` gives the same facts and rules, and so the same result, byte for byte. (Every
    other engine test checks its live hands' facts so too: see conftest.py.)"""
    state = log[2][-1]
    if not state.over:
        return
    rules, parsed = parse_summary(state.summary())
    assert rules == state.rules
    same_facts(facts(state), parsed)
    assert dumps(state.result()) == dumps(score_summary(state.summary()))


@SETTINGS
@given(logs(max_events=120))
def test_the_what_if_stops_facts_are_those_its_summary_parses_to(log):
    """The hints' what-if (the leader stops now) at every step of a log."""
    for state in log[2]:
        if not state.over:
            leader = max(state.players, key=lambda p: state.score(p.name).toward_target).name
            checked_facts(state.but(outcome=LiveOutcome("stop", (leader,)), must_decide=None))


@pytest.mark.parametrize("name", ["hand-live.json"])
def test_the_example_hands_facts_are_those_its_summary_parses_to(name):
    doc = json.loads((EXAMPLES / name).read_text())
    state = replay(HandSetup.from_json(doc["setup"]), doc["events"])
    assert state.over
    same_facts(facts(state), parse_summary(state.summary())[1])
