"""The events document as text (``tablejson.events_document_json``): what an API stream sends is
``json.dumps(events_document(...), separators=(",", ":"))``, byte for byte, whether the log's text
was kept from an earlier, shorter log of the hand or written whole (a log that grew, one whose
earlier events changed (an undo, a replaced event), another database's hand with the same id)."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.web.views import tablejson
from tests.engine.test_hand_properties import logs

SOME = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))


def reference(hand_id: int, events: list, view: dict | None, version: int) -> str:
    """The document as streams built it before: the dict, dumped whole."""
    return json.dumps(tablejson.events_document(hand_id, events, view, version), separators=(",", ":"))


def check(hand_id: int, events: list, view: dict | None, version: int) -> None:
    assert tablejson.events_document_json(hand_id, events, view, version) == reference(hand_id, events, view, version)


@SOME
@given(logs(), st.integers(1, 10**9), st.integers(0, 10**6))
def test_a_log_growing_tap_by_tap_is_written_as_dumped_whole(log, hand_id, version):
    _setup, events, states, _refused = log
    tablejson.forget()
    for k, state in enumerate(states):  # each prefix, as the stream of each tap sees it
        check(hand_id, events[:k], None if state.over else state.to_json(), version + k)
        check(hand_id, list(events[:k]), state.to_json(), version + k)  # equal, not the same list


@SOME
@given(logs(), st.integers(1, 50), st.data())
def test_an_undone_or_replaced_event_is_never_served_from_the_longer_log(log, hand_id, data):
    _setup, events, states, _refused = log
    tablejson.forget()
    check(hand_id, events, states[-1].to_json(), 7)
    cut = data.draw(st.integers(0, len(events)))
    check(hand_id, events[:cut], None, 8)  # an undo
    if cut:
        replaced = [*events[: cut - 1], {"type": "end_turn", "note": "replaced"}]
        check(hand_id, replaced, None, 9)
        check(hand_id, [*replaced, *events[cut:]], None, 10)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


@SOME
@given(st.lists(st.dictionaries(st.text(max_size=8), JSON_VALUES, max_size=5), max_size=12), st.data())
def test_any_json_events_are_written_as_dumped_whole(events, data):
    """Not only the engine's events: unicode, escapes, floats, nesting (what a JSON column holds)."""
    tablejson.forget()
    view = data.draw(st.none() | st.dictionaries(st.text(max_size=6), JSON_VALUES, max_size=4))
    for k in range(len(events) + 1):
        check(3, events[:k], view, k)
    check(3, events[::-1], view, 99)


def test_two_databases_hands_with_one_id_do_not_mix():
    tablejson.forget()
    one = [{"type": "capture", "player": "A", "cards": ["1j1"]}]
    other = [{"type": "capture", "player": "B", "cards": ["2j1"]}]
    check(1, one, None, 1)
    check(1, other, None, 1)
    check(1, [*other, {"type": "end_turn"}], None, 2)
