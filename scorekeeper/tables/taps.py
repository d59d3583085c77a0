"""A phone's tap on the live hand, stored as a seat's tap or as a plain append: decided here once,
for the page and the API alike.

A seated phone (its session's seat, ``web.access.seats``) tapping for its own player passes the
turns before its tap by itself (``writes.seat_tap_event``); any other tap is appended as it is
(``writes.append_event``), with the go or stop the page's End turn may say with it (``then``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from . import writes
from .service import TableState

__all__ = ["Tap", "record"]

DECISIONS = ("go", "stop")


@dataclass(frozen=True, slots=True)
class Tap:
    """What a phone sent: the event, the log length it was sent against (``seq``) and the phone's seat.

    ``then``: go or stop said with an end of turn (the page's End turn of a player at the target).
    ``skip``: the phone confirmed that the tap ends more than one turn. ``queued``: the tap comes
    from the API's offline queue, so a seat's tap too must land at ``seq`` (else a conflict);
    ``saw``: the log length the queued tap was first made against (``seq`` when not said).
    """

    event: dict[str, Any]
    seq: int
    seat: str | None = None
    then: str | None = None
    skip: bool = False
    queued: bool = False
    saw: int | None = None

    @property
    def seat_tap(self) -> bool:
        """The seat's own player's tap: the turns before it pass by themselves."""
        return self.seat is not None and self.seat == self.event.get("player") and not self.then

    @property
    def answers_for_another(self) -> bool:
        """A seated phone's go or stop (or End turn with one) for another player: asked first."""
        kind = self.event.get("type")
        says = kind in DECISIONS or (kind == "end_turn" and self.then in DECISIONS)
        return self.seat is not None and says and self.event.get("player") != self.seat


def record(session: Session, state: TableState, hand_id: int, tap: Tap) -> tuple[TableState, str | None]:
    """Store the tap: the new state, and who must first say go or stop when a seat's tap waits for
    that answer (``writes.seat_tap_event``). Raises what the write raises."""
    if tap.seat_tap:
        expected = tap.seq if tap.queued else None
        seen = tap.saw if tap.saw is not None else tap.seq
        return writes.seat_tap_event(session, state, hand_id, tap.event, tap.skip, expected, seen)
    return writes.append_event(session, state, hand_id, tap.seq, tap.event, tap.then), None
