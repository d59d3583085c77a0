"""The check that a live hand's facts, handed to the payout directly (``live.summary.facts``), are
those its summary (the JSON edge) reads back to with ``parse_summary``: conftest.py runs it on every
live hand the engine's tests settle, so the two paths cannot drift."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from scorekeeper.engine.errors import EngineError
from scorekeeper.engine.live import summary as live_summary
from scorekeeper.engine.live.state import HandState
from scorekeeper.engine.summary.contract import parse_summary
from scorekeeper.engine.summary.facts import HandFacts

_direct = live_summary.facts


def same_facts(direct: HandFacts, parsed: HandFacts) -> None:
    """Equal field by field, and each mapping in the same order: the JSON made of them is the same."""
    assert direct == parsed
    for name, mine, theirs in zip(HandFacts._fields, direct, parsed, strict=True):
        if isinstance(mine, Mapping):
            assert list(mine.items()) == list(theirs.items()), name


def checked_facts(state: HandState) -> HandFacts:
    """``live.summary.facts``, checked against ``parse_summary`` of the hand's summary. The scores at
    the last gos are compared apart: the hints' what-if stop may fall below them, which the summary's
    reading refuses and the what-if ignores."""
    try:
        direct = _direct(state)
    except EngineError as err:
        with pytest.raises(EngineError) as parsed_err:
            parse_summary(live_summary.summary(state))
        assert parsed_err.value.errors == err.errors
        raise
    doc = live_summary.summary(state)
    at_last_go = doc.pop("score_at_last_go")
    rules, parsed = parse_summary(doc)
    assert rules == state.rules
    same_facts(direct._replace(score_at_last_go={}), parsed)
    assert list(direct.score_at_last_go.items()) == list(at_last_go.items())
    return direct
