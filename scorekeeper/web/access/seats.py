"""자리 A phone's seat at a table: "I am 지영", kept in the phone's session beside the table's key.

A seat-bound phone records its own player's captures and events; the turn before passes by
itself (``engine.hand_turns``). A seat is a choice of the phone, not a secret: any phone that
may edit the table may take any seat (a seat link is the edit link with the seat named), and
one seat may be taken on several phones. Nothing is stored in the database.
"""

from __future__ import annotations

from flask import has_request_context, request, session

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


def actor(table) -> str:
    """Who is making this request's change, for the history: the phone's seat at ``table``,
    "phone" (a page, or the pages' scripts on the phone's cookie) or "api" (a key in a header)."""
    if not has_request_context():
        return "api"
    seat = seat_of(table.public_id) if table is not None else None
    if seat:
        return seat
    if request.headers.get("X-Table-Key") or request.headers.get("X-Group-Key"):
        return "api"
    # The pages' scripts call the API on the phone's cookie, with its CSRF token; a program does not.
    if request.blueprint == "api" and not request.headers.get("X-CSRFToken"):
        return "api"
    return "phone"
