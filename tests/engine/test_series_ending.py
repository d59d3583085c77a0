"""rules.md §13 reading 10: ending a series early settles on the hands played, and nothing more is added."""

from __future__ import annotations

import pytest

from scorekeeper.engine.errors import EngineError
from scorekeeper.engine.series import config_from, play
from scorekeeper.engine.series.ending import end_early

STOP_A = {"summary": {"captures": {"A": ["1g", "3g", "8g"]}, "outcome": {"type": "stop", "winner": "A"}}}
NAGARI = {"summary": {"captures": {}, "outcome": {"type": "nagari"}}}
VOID = {"summary": {"captures": {}, "outcome": {"type": "void_deal"}}}
DOC = {"players": ["A", "B", "C"], "length": 12}


@pytest.mark.parametrize(
    "records",
    [[STOP_A], [STOP_A, NAGARI], [NAGARI, VOID, STOP_A], [STOP_A] * 5],
    ids=["one", "nagari-last", "void-between", "five"],
)
def test_ending_early_keeps_every_balance_and_finishes(records):
    before = play(config_from(DOC), records)
    ended_doc = end_early(DOC, before)
    after = play(config_from(ended_doc), records)
    assert after.finished and after.balances == before.balances
    assert after.settle_up() == before.settle_up()
    with pytest.raises(EngineError) as err:
        after.append(STOP_A)
    assert err.value.errors[0]["code"] == "series_finished"


@pytest.mark.parametrize(
    ("records", "live", "code"),
    [
        ([], False, "bad_value"),  # nothing played: nothing to settle
        ([STOP_A], True, "hand_not_finished"),  # never settled half-way
        ([STOP_A, VOID], False, "hand_not_finished"),  # the redeal is the hand in play
        ([STOP_A] * 12, False, "series_finished"),  # already over
    ],
    ids=["nothing-played", "hand-in-play", "void-last", "already-finished"],
)
def test_ending_early_refusals(records, live, code):
    with pytest.raises(EngineError) as err:
        end_early(DOC, play(config_from(DOC), records), hand_in_play=live)
    assert err.value.errors[0]["code"] == code


def test_open_ended_series_can_end():
    doc = DOC | {"length": None}
    s = play(config_from(doc), [STOP_A, STOP_A])
    assert end_early(doc, s)["length"] == 2
