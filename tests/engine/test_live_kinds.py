"""The event kinds' classes (``engine.live.kinds``) are what ``hand.EVENTS`` says of each type, and the
codec reads every event the engine takes and writes it back as it was (the app's own fields aside)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given

from scorekeeper.engine.live import codec
from scorekeeper.engine.live.hand import EVENTS, META_FIELDS
from scorekeeper.engine.live.kinds import KINDS, json_fields

from .test_hand_properties import SETTINGS, logs


def test_every_event_type_has_its_class():
    assert list(KINDS) == list(EVENTS)
    for name, kind in EVENTS.items():
        assert kind.shape is KINDS[name]


@pytest.mark.parametrize("name", list(EVENTS))
def test_the_table_reads_each_kinds_fields_from_its_class(name):
    declared = json_fields(KINDS[name])
    kind = EVENTS[name]
    assert kind.required == tuple(n for _, n, needed in declared if needed)
    assert kind.optional == tuple(n for _, n, needed in declared if not needed)


@SETTINGS
@given(logs())
def test_every_event_taken_reads_and_writes_back_as_it_was(log):
    _setup, events, _states, _ = log
    for event in events:
        stored = json.loads(json.dumps(event))  # as the log keeps it
        typed = codec.load(stored | {"note": "x", "at": 1})
        assert event["type"] == type(typed).TYPE
        assert codec.dump(typed) == {k: v for k, v in stored.items() if k not in META_FIELDS or k == "type"}
