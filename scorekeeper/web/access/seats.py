"""자리 A phone's seat at a table: "I am 지영", kept in the phone's session beside the table's key.

A seat-bound phone records its own player's captures and events; the turn before passes by
itself (``engine.hand_turns``). A seat is a choice of the phone, not a secret: any phone that
may edit the table may take any seat (a seat link is the edit link with the seat named), and
one seat may be taken on several phones. Nothing is stored in the database.
"""

from __future__ import annotations

from flask import session

MAX_SEATS = 40  # seats stay in the session: 40 of them are about 1.5 KB of its cookie


def seat_of(public_id: str) -> str | None:
    seats = session.get("seats")
    seat = seats.get(public_id) if isinstance(seats, dict) else None
    return seat if isinstance(seat, str) else None


def take(public_id: str, name: str | None) -> None:
    """Bind this phone to ``name`` at the table (None: no seat, one phone for everyone)."""
    seats = dict(session.get("seats") or {})
    seats.pop(public_id, None)
    if name:
        seats[public_id] = name
    session["seats"] = dict(list(seats.items())[-MAX_SEATS:])
    session.permanent = True


def seat_in(public_id: str, players) -> str | None:
    """The phone's seat if its player is one of ``players`` (a player sitting out has none)."""
    seat = seat_of(public_id)
    return seat if seat in players else None
