"""되돌리기 Taking back one player's last event, wherever it stands in the hand's log.

When every player records on their own phone, the table's last event is rarely the one a player
wants back: 민수 taps 9 국진 by mistake, 현우's tap of 6 피 lands after it (ending 민수's turn on
the way), and 민수's ↶ must take back 민수's card, not 현우's. The log is append-only and each
event is checked against the ones before it, so removing an event from its middle is a new log:
it stands only if the engine takes every event after it again, replayed without it. When a later
event no longer holds (민수's 고 taken back after 현우 played on: 현우's card would come while 민수
must still say go or stop), nothing is removed and the refusal names that later event and why.

A player's events are those naming the player, but for an end of turn followed by anything: on
a table of seat phones the next player's tap stores the turn's end before itself, and taking it
back would move that tap into the turn before. The log's very last event, an end of turn too, is
its player's (the End turn just tapped).

>>> from .hand import HandSetup
>>> setup = HandSetup.create(["A", "B"], "A")
>>> log = [{"type": "capture", "player": "A", "cards": ["9a"]}, {"type": "end_turn", "player": "A"},
...        {"type": "capture", "player": "B", "cards": ["6j1"]}]
>>> own_last(log, "A"), own_last(log, "B")
(0, 2)
>>> kept, state = take_back(setup, log, 0)
>>> [e["type"] for e in kept], state.player("A").captures, state.player("B").captures
(['end_turn', 'capture'], (), ('6j1',))
"""

from __future__ import annotations

from ..errors import EngineError
from .hand import HandSetup, HandState, replay

__all__ = ["own_last", "take_back"]


def own_last(events: list[dict], player: str) -> int | None:
    """The index of ``player``'s last event in ``events``, or None when the log has none."""
    last = len(events) - 1
    for i in range(last, -1, -1):
        event = events[i]
        if event.get("player") != player:
            continue
        if event.get("type") == "end_turn" and i != last:
            continue  # the turn's end that a later tap passed: the table's, not the player's
        return i
    return None


def take_back(setup: HandSetup, events: list[dict], index: int) -> tuple[list[dict], HandState]:
    """The log without event ``index`` and the state it leads to; refused (``takeback_breaks_log``,
    its ``index`` the later event that would no longer hold, then that event's own refusal) when
    replaying it fails, and ``hand_over`` when the hand has ended and the event is not its last."""
    if not 0 <= index < len(events):
        raise EngineError("nothing_to_undo", f"The log has no event {index}.", "at")
    if index != len(events) - 1 and replay(setup, events).over:
        raise EngineError("hand_over", "The hand has ended: only its last event can be taken back.", "at")
    kept = events[:index] + events[index + 1 :]
    try:
        state = replay(setup, kept)
    except EngineError as err:
        later = (err.at_event or 0) + 1  # its index in the log as it is
        reason = err.errors[0]
        path = f"events[{later}]"
        message = (
            f"Without event {index} ({_named(events[index])}), event {later} ({_named(events[later])}) "
            f"would be refused: {reason['message']}"
        )
        refusal = EngineError.many(
            [
                {"code": "takeback_breaks_log", "message": message, "path": path, "index": later},
                {**reason, "path": path},
            ]
        )
        refusal.at_event = later
        raise refusal from None
    return kept, state


def _named(event: dict) -> str:
    """ "capture of A", "end_turn": an event as a refusal names it."""
    kind, player = event.get("type", "?"), event.get("player")
    return f"{kind} of {player}" if player else str(kind)
