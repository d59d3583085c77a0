"""A live hand's state as plain JSON, and back: what the app keeps with the table's version so
that a hand is read after a restart instead of replayed from its log.

``dump(state)`` writes every field of the state but its set-up (the app keeps the set-up beside
it), with the version of the engine's code that made it (``CODE``); ``restore(setup, doc)``
answers the state again, equal to the replay that made it, or None when the document is not one
this code wrote (another version of the engine, a field it does not know): the caller then
replays the log, which is always right. Nothing here checks an event: a snapshot is only ever
made from a state the engine derived.

>>> from scorekeeper.engine.live.hand import HandSetup, replay
>>> setup = HandSetup.create(["A", "B"], "A")
>>> state = replay(setup, [{"type": "capture", "player": "A", "cards": ["1g", "1j1"]}])
>>> restore(setup, dump(state)) == state
True
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path
from typing import Any

from .setup import HandSetup
from .state import HandState, LiveOutcome, LiveShowdown, OeMyeon, PlayerState

_ENGINE = Path(__file__).resolve().parent.parent


@cache
def code_version() -> str:
    """A digest of the engine's source: a snapshot made by other code (an upgrade that changed
    how any event counts) is never read as this code's; its hands are replayed once instead."""
    digest = hashlib.sha256()
    for path in sorted(_ENGINE.rglob("*.py")):
        digest.update(path.relative_to(_ENGINE).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


# The fields of each record as JSON: tuples become lists, small dataclasses objects.
_PLAYER_TUPLES = ("bonus", "shakes", "bombs", "ppuks")
_HAND_TUPLES = ("turn_captures", "go_order", "weol_yak")


def dump(state: HandState) -> dict[str, Any]:
    """The state's fields (set-up aside) as a JSON object, marked with the engine's code version."""
    d = state.__dict__
    out: dict[str, Any] = {"code": code_version()}
    for name in HandState.FIELDS:
        if name == "setup":
            continue
        value = d[name]
        if name == "players":
            value = [_player(p) for p in value]
        elif name in _HAND_TUPLES:
            value = list(value)
        elif name == "feats":
            value = [list(f) for f in value]
        elif name == "showdown" and value is not None:
            value = [value.offered_by, value.turn, list(value.accepted_by), value.refused_by]
        elif name == "oe_myeon" and value is not None:
            value = [value.player, value.last_card, value.turn]
        elif name == "outcome" and value is not None:
            value = [value.type, list(value.winners), value.month, value.reason]
        out[name] = value
    return out


def _player(p: PlayerState) -> dict[str, Any]:
    d = p.__dict__
    return {name: list(d[name]) if name in _PLAYER_TUPLES else d[name] for name in PlayerState.FIELDS}


def restore(setup: HandSetup, doc: object) -> HandState | None:
    """The state ``dump`` wrote, on ``setup``; None unless this code wrote exactly such a document."""
    if not isinstance(doc, dict) or doc.get("code") != code_version():
        return None
    if set(doc) != {"code", *HandState.FIELDS} - {"setup"}:
        return None
    try:
        values = dict(doc)
        del values["code"]
        values["setup"] = setup
        players = tuple(_restore_player(p) for p in doc["players"])
        if tuple(p.name for p in players) != setup.order:
            return None
        values["players"] = players
        for name in _HAND_TUPLES:
            values[name] = tuple(doc[name])
        values["feats"] = tuple(tuple(f) for f in doc["feats"])
        if doc["showdown"] is not None:
            by, turn, accepted, refused = doc["showdown"]
            values["showdown"] = LiveShowdown(by, turn, tuple(accepted), refused)
        if doc["oe_myeon"] is not None:
            values["oe_myeon"] = OeMyeon(*doc["oe_myeon"])
        if doc["outcome"] is not None:
            kind, winners, month, reason = doc["outcome"]
            values["outcome"] = LiveOutcome(kind, tuple(winners), month, reason)
        return HandState(**values)
    except (TypeError, ValueError, KeyError):
        return None


def _restore_player(doc: object) -> PlayerState:
    if not isinstance(doc, dict) or set(doc) != set(PlayerState.FIELDS):
        raise ValueError("not a player's fields")
    values = dict(doc)
    for name in _PLAYER_TUPLES:
        values[name] = tuple(doc[name])
    return PlayerState(**values)
