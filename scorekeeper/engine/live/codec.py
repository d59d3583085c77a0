"""An event of a live hand ↔ its JSON object: the one place events are read from JSON and written.

``load`` reads an event the engine has taken (``hand.apply`` checked its shape: a stored log's
events, or one just applied) into its class of ``kinds``; the app's own fields (note, at, by, id,
seq) are left out. ``dump`` writes an event as the log stores it: the type, then each field set, in
the order its class declares them.

>>> event = load({"type": "capture", "player": "A", "cards": ["1g", "1j1"], "from": "hand", "at": 3})
>>> event
Capture(player='A', cards=('1g', '1j1'), source='hand')
>>> dump(event)
{'type': 'capture', 'player': 'A', 'cards': ['1g', '1j1'], 'from': 'hand'}
"""

from __future__ import annotations

from collections.abc import Mapping

from .kinds import KINDS, Event, json_fields

__all__ = ["dump", "load"]


def load(doc: Mapping[str, object]) -> Event:
    """The event a checked JSON object is (a list read as a tuple, an object's lists as tuples)."""
    cls = KINDS[str(doc["type"])]
    return cls(**{attr: _frozen(doc[name]) for attr, name, _ in json_fields(cls) if name in doc})


def dump(event: Event) -> dict[str, object]:
    """The event's JSON object: its type and the fields it has."""
    out: dict[str, object] = {"type": event.TYPE}
    for attr, name, _ in json_fields(type(event)):
        value = getattr(event, attr)
        if value is not None:
            out[name] = _thawed(value)
    return out


def _frozen(value: object) -> object:
    if isinstance(value, list):
        return tuple(value)
    if isinstance(value, dict):
        return {k: _frozen(v) for k, v in value.items()}
    return value


def _thawed(value: object) -> object:
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, Mapping):
        return {k: _thawed(v) for k, v in value.items()}
    return value
