"""The live hand's compact notation for tests: cap("A", "1g 1j1"), END, E("go", player="A")."""

from __future__ import annotations

import copy

import pytest

from scorekeeper.engine.errors import EngineError
from scorekeeper.engine.live.hand import HandSetup, apply, replay


def E(type_: str, **fields) -> dict:
    return {"type": type_, **fields}


def cap(player: str, cards: str, **fields) -> dict:
    return E("capture", player=player, cards=cards.split(), **fields)


def junk(player: str, reason: str, **fields) -> dict:
    return E("take_junk", player=player, reason=reason, **fields)


END = E("end_turn")


def three(preset: str = "pagat", **options) -> HandSetup:
    """A, B, C at the table; A deals, so A plays first, then B, then C."""
    return HandSetup.create(["A", "B", "C"], "A", preset, options)


def two(preset: str = "pagat", **options) -> HandSetup:
    return HandSetup.create(["A", "B"], "A", preset, options)


def refusal(setup: HandSetup, events: list[dict], event: dict) -> str:
    """The code ``event`` is refused with after ``events``; the state is left as it was."""
    state = replay(setup, events)
    before = copy.deepcopy(state)
    with pytest.raises(EngineError) as err:
        apply(state, event)
    assert state == before
    return err.value.code
