"""차례 넘기기 The turn passes by itself when each player records on their own phone.

At a table where every player has taken a seat on their own phone, nobody taps End turn
after a turn with captures: the next player's first capture or event of their turn ends
the turn before. ``seat_tap`` says which ``end_turn`` events come first, so that the log
stays exactly what one phone tapping End turn would have stored (the engine's turn
counting, the first-turn and last-turn rules and go/stop stay as they are).

- A tap for the player on turn, a fact, a go or stop, a showdown answer or an explicit
  End turn passes nothing.
- When ending a turn makes the engine ask that player go or stop, passing stops there:
  the ``end_turn`` is stored (that player's phone asks) and the tap waits (``waiting``)
  until the answer; sent again after it, it lands in order.
- A tap from a seat further ahead than the next player passes every turn between, but
  only when the phone confirmed it (``skip``): otherwise it is refused with
  ``skip_turns`` (a late tap of the player whose turn has just ended reads the same way,
  and must not end two turns unnoticed).
- The last turn of the hand is never passed by a tap: the hand would end in a nagari.
- A late tap passes nothing (``late``): the phone tapped while its player's turn was still
  going, and another phone's tap has ended that turn since (it is the turn just ended). It is
  stored as it is, a capture or event of that player, as the one-phone table stores a tap for
  a player not on turn. ``ended_since`` tells it from the log and the log length the phone saw.
"""

from __future__ import annotations

from dataclasses import dataclass

from .hand import EVENTS, apply
from .state import HandState
from .steps import refuse

__all__ = ["SeatTap", "ended_since", "seat_tap", "turns_ahead"]


@dataclass(frozen=True, slots=True)
class SeatTap:
    """What a seat's tap comes to: the turn ends stored before it, and whether it waits.

    ``passes``: the ``end_turn`` events to store first; ``state``: the state after them;
    ``waiting``: the player who must say go or stop before the tap itself can land (the
    tap is not stored then), else None.
    """

    passes: tuple[dict, ...]
    state: HandState
    waiting: str | None = None


def _passes_nothing(event: dict) -> bool:
    kind = EVENTS.get(event.get("type", ""))
    return kind is None or kind.fact or kind.while_deciding or kind.answers_showdown or kind.passes_turn


def turns_ahead(state: HandState, player: str) -> int:
    """How many turns end before ``player``'s: 0 on turn, 1 for the next player, ..."""
    order = state.order
    if state.current is None or player not in order:
        return 0
    return (order.index(player) - order.index(state.current)) % len(order)


def ended_since(log: list[dict], seen: int, player: str) -> bool:
    """Whether ``player``'s turn ended in the events after the first ``seen`` of ``log``."""
    return any(e.get("type") == "end_turn" and e.get("player") == player for e in log[max(seen, 0) :])


def _lands_as_it_is(state: HandState, event: dict, player: object, late: bool) -> bool:
    """Whether the tap passes no turn: the hand is over, it names no player, it is of a kind that
    passes nothing, a showdown waits for an answer, it is late for the turn just ended, or its
    player is on turn (and nobody is being asked go or stop)."""
    if state.over or not isinstance(player, str) or _passes_nothing(event) or state.must_answer:
        return True
    if late and turns_ahead(state, player) == len(state.order) - 1:
        return True  # its turn was the one just ended: the tap belongs to it
    return state.must_decide is None and turns_ahead(state, player) == 0


def seat_tap(state: HandState, event: dict, skip: bool = False, late: bool = False) -> SeatTap:
    """The turns a seat's ``event`` passes before it lands (the event itself is not applied).

    Refuses (``EngineError``) with ``skip_turns`` when the tap would end more than one turn
    and ``skip`` is not set, and with ``not_your_turn`` when it would pass the hand's last
    turn. Anything else the event does wrong is for ``apply`` to refuse afterwards.
    """
    player = event.get("player")
    if _lands_as_it_is(state, event, player, late):
        return SeatTap((), state)
    assert isinstance(player, str)  # _lands_as_it_is answers True for any other
    if state.must_decide is not None:
        # The turn before already ended and its player is being asked: this tap waits.
        return SeatTap((), state, state.must_decide if state.must_decide != player else None)
    ahead = turns_ahead(state, player)
    if state.turn + ahead >= state.setup.total_turns:
        refuse("not_your_turn", f"It is {state.current}'s turn, the hand's last: it is not passed by a tap.", "player")
    if ahead > 1 and not skip:
        start = state.order.index(state.current or player)
        between = ", ".join(state.order[(start + k) % len(state.order)] for k in range(ahead))
        refuse("skip_turns", f"This ends the turns of {between}: confirm it to pass them.", "player")
    passes: list[dict] = []
    s = state
    while s.current != player:
        end = {"type": "end_turn", "player": s.current}
        s = apply(s, end)
        passes.append(end)
        if s.must_decide is not None:
            return SeatTap(tuple(passes), s, s.must_decide)
    return SeatTap(tuple(passes), s)
