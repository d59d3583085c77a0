"""The flags each event kind declares (passes_turn, asks_decision, ends_hand, while_deciding) are
what its handler does: the page's offline queue trusts them instead of replaying the log."""

from __future__ import annotations

import pytest

from scorekeeper.engine.live.hand import EVENTS, HandSetup, apply, replay

from .hand_cases import END, E, cap, junk, three, two

MISSIONS = {"missions": True}
AT_3 = [cap("A", "1g 3g 8g")]  # three brights, the three-player target: go or stop is asked at the turn's end
# (type, set-up, the log before, the event): each event taken where the rules allow it.
SCENES = [
    ("capture", two(), [], cap("A", "1g")),
    ("take_junk", two(), [cap("B", "2j1")], junk("A", "sseul")),
    ("ppuk", two(), [], E("ppuk", player="A", month=1)),
    ("shake", two(), [], E("shake", player="A", month=1)),
    ("bomb", two(), [], E("bomb", player="A", month=1)),
    ("end_turn", two(), [], END),  # A at 0: play moves on
    ("end_turn", three(), AT_3, END),  # A at the target: asked
    ("end_turn", three(), [END], E("end_turn", player="B")),
    ("go", three(), [*AT_3, END], E("go", player="A")),
    ("stop", three(), [*AT_3, END], E("stop", player="A")),
    ("showdown_offer", three(), [], E("showdown_offer", player="A")),
    ("showdown_accept", three(), [E("showdown_offer", player="A")], E("showdown_accept", player="B")),
    ("showdown_refuse", three(), [E("showdown_offer", player="A")], E("showdown_refuse", player="B")),
    ("oe_myeon", three(), [], E("oe_myeon", player="C")),
    ("chongtong", two(), [], E("chongtong", player="A", month=1)),
    ("four_on_table", two(), [], E("four_on_table", month=1)),
    ("nagari", two(), [], E("nagari")),
    (
        "weol_yak",
        HandSetup.create(["A", "B"], "A", "pagat", {"weol_yak": True}),
        [cap("A", "1g 1r 1j1 1j2")],
        E("weol_yak", player="A"),
    ),
    ("mission", HandSetup.create(["A", "B"], "A", "pagat", MISSIONS), [], E("mission", multiplier=2)),
]


def test_every_event_kind_has_a_scene():
    assert {t for t, *_ in SCENES} == set(EVENTS)


@pytest.mark.parametrize("type_, setup, log, event", SCENES, ids=[s[0] for s in SCENES])
def test_each_scene_keeps_to_the_flags(type_, setup, log, event):
    kind = EVENTS[type_]
    before = replay(setup, log)
    after = apply(before, event)
    assert after.over == kind.ends_hand  # these scenes are not the last turn: only the flagged end it
    if after.turn != before.turn:
        assert kind.passes_turn and after.current == setup.after[before.current]
    if after.must_decide and not before.must_decide:
        assert kind.asks_decision
    if before.must_decide:
        assert kind.while_deciding and after.must_decide is None


def test_what_the_flags_promise_happens_in_some_scene():
    moved, asked = set(), set()
    for type_, setup, log, event in SCENES:
        before = replay(setup, log)
        after = apply(before, event)
        if after.turn != before.turn:
            moved.add(type_)
        if after.must_decide and not before.must_decide:
            asked.add(type_)
    assert moved == {t for t, k in EVENTS.items() if k.passes_turn}
    assert asked == {t for t, k in EVENTS.items() if k.asks_decision}


@pytest.mark.parametrize("dealer", ["A", "B", "C"])
def test_play_moves_to_the_player_after(dealer):
    setup = HandSetup.create(["A", "B", "C"], dealer)
    state = replay(setup, [])
    for _ in range(4):
        on_turn = state.current
        state = apply(state, END)
        assert state.current == setup.after[on_turn] != on_turn
    assert setup.after == {"A": "B", "B": "C", "C": "A"}  # seating order, to the right
