"""A live hand's snapshot (``engine.live.snapshot``) is the replay: over random logs, the state
restored from its JSON equals the replayed one, shows the same view byte for byte, and takes the
next event (or refuses it) exactly as the replayed state does; anything not written by this code
is not read."""

from __future__ import annotations

import json

import pytest
from hypothesis import given

from scorekeeper.engine.errors import EngineError
from scorekeeper.engine.live import snapshot
from scorekeeper.engine.live.hand import HandSetup, apply, replay
from tests.engine.test_hand_properties import SETTINGS, SETUPS, logs


def _through_json(setup: HandSetup, state):
    return snapshot.restore(setup, json.loads(json.dumps(snapshot.dump(state))))


def _outcome(state, event):
    try:
        return apply(state, event)
    except EngineError as err:
        return err.errors


@SETTINGS
@given(logs())
def test_every_prefix_restored_is_its_replay(log):
    setup, events, states, refused = log
    for k, state in enumerate(states):
        restored = _through_json(setup, state)
        assert restored == state == replay(setup, events[:k])
        assert json.dumps(restored.to_json()) == json.dumps(state.to_json())
        if state.over:
            assert restored.summary() == state.summary() and restored.result() == state.result()
    # the next event, on the restored state and on the replayed one: the same state or refusal
    for k, event in enumerate(events):
        assert _outcome(_through_json(setup, states[k]), event) == states[k + 1]
    for state, event, err in refused:
        assert _outcome(_through_json(setup, state), event) == err.errors


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d | {"code": "0" * 16},  # another version of the engine
        lambda d: {k: v for k, v in d.items() if k != "code"},
        lambda d: d | {"extra": 1},
        lambda d: {k: v for k, v in d.items() if k != "turn"},
        lambda d: d | {"players": d["players"][:1]},
        lambda d: d | {"players": [p | {"name": "Z"} for p in d["players"]]},
        lambda d: d | {"players": [{**p, "color": 1} for p in d["players"]]},
        lambda d: d | {"showdown": [1]},
        lambda d: "not a snapshot",
        lambda d: None,
    ],
)
def test_a_snapshot_this_code_did_not_write_is_not_read(change):
    setup = SETUPS[0]
    state = replay(setup, [{"type": "capture", "player": "A", "cards": ["1g"]}])
    assert snapshot.restore(setup, change(snapshot.dump(state))) is None
