"""사건의 종류 One frozen dataclass per event kind of a live hand: its fields, typed, declared once.

``hand.EVENTS`` reads each kind's fields from here (a field without a default is required, one
with a default optional, in this order), so the table of events, the API's schema and the page's
forms all say what these classes say. ``codec`` turns an event into its JSON and back: the log is
stored and replayed as JSON (the handlers read the checked JSON object: building a class per event
would cost the replay of every tap), and the JSON is what the phones send.

A field whose JSON name is a Python keyword says it in its metadata (``from``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING, dataclass, field, fields
from typing import ClassVar

from ..model import Card, Month, Player

__all__ = ["KINDS", "Event", "json_fields"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """What every event is: a type (the JSON ``type``)."""

    TYPE: ClassVar[str] = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Capture(Event):
    TYPE = "capture"
    player: Player
    cards: tuple[Card, ...]
    source: str | None = field(default=None, metadata={"json": "from"})  # hand, stock or stack


@dataclass(frozen=True, slots=True, kw_only=True)
class TakeJunk(Event):
    TYPE = "take_junk"
    player: Player
    reason: str
    give: Mapping[Player, tuple[Card, ...]] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Ppuk(Event):
    TYPE = "ppuk"
    player: Player
    month: Month | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Shake(Event):
    TYPE = "shake"
    player: Player
    month: Month


@dataclass(frozen=True, slots=True, kw_only=True)
class Bomb(Event):
    TYPE = "bomb"
    player: Player
    month: Month
    give: Mapping[Player, tuple[Card, ...]] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class EndTurn(Event):
    TYPE = "end_turn"
    player: Player | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Go(Event):
    TYPE = "go"
    player: Player


@dataclass(frozen=True, slots=True, kw_only=True)
class Stop(Event):
    TYPE = "stop"
    player: Player


@dataclass(frozen=True, slots=True, kw_only=True)
class ShowdownOffer(Event):
    TYPE = "showdown_offer"
    player: Player


@dataclass(frozen=True, slots=True, kw_only=True)
class ShowdownAccept(Event):
    TYPE = "showdown_accept"
    player: Player


@dataclass(frozen=True, slots=True, kw_only=True)
class ShowdownRefuse(Event):
    TYPE = "showdown_refuse"
    player: Player


@dataclass(frozen=True, slots=True, kw_only=True)
class OeMyeon(Event):
    TYPE = "oe_myeon"
    player: Player
    last_card: bool | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Chongtong(Event):
    """One holder (player and month) or several (players: {name: month})."""

    TYPE = "chongtong"
    player: Player | None = None
    month: Month | None = None
    players: Mapping[Player, Month] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class FourOnTable(Event):
    TYPE = "four_on_table"
    month: Month


@dataclass(frozen=True, slots=True, kw_only=True)
class Nagari(Event):
    TYPE = "nagari"


@dataclass(frozen=True, slots=True, kw_only=True)
class WeolYak(Event):
    TYPE = "weol_yak"
    player: Player


@dataclass(frozen=True, slots=True, kw_only=True)
class Mission(Event):
    TYPE = "mission"
    multiplier: int
    player: Player | None = None


KINDS: dict[str, type[Event]] = {
    cls.TYPE: cls
    for cls in (
        Capture,
        TakeJunk,
        Ppuk,
        Shake,
        Bomb,
        EndTurn,
        Go,
        Stop,
        ShowdownOffer,
        ShowdownAccept,
        ShowdownRefuse,
        OeMyeon,
        Chongtong,
        FourOnTable,
        Nagari,
        WeolYak,
        Mission,
    )
}


def json_fields(cls: type[Event]) -> tuple[tuple[str, str, bool], ...]:
    """(attribute, JSON name, required) of each field of an event class, in order.

    >>> json_fields(Capture)
    (('player', 'player', True), ('cards', 'cards', True), ('source', 'from', False))
    """
    return tuple((f.name, f.metadata.get("json", f.name), f.default is MISSING) for f in fields(cls))
