"""한 판 A live hand as an append-only log of events (the README's contract, rules.md §2, §4, §7, §9).

The phone appends events as the players tap them in; the state is never stored but
derived by replaying the log: ``replay(setup, events)``. ``apply(state, event)``
answers a new state or raises ``EngineError`` (a coded refusal, nothing changed);
undo is the replay of the log without its last event. Events are plain JSON objects
``{"type": ..., ...}``, stored as they are. Players do not record every card played:
captures and junk need no turn event before them, and the turn events only tell
first and last turns and whose go or stop it is. So the first-turn payments (a ppuk,
ttadak, chok, four of a month or the boar) and the last-turn exceptions apply to the
player on turn, as the ``end_turn`` events have counted the turns.

===================  =============================================  ==============================================
type                 fields (``?`` optional)                        effect
===================  =============================================  ==============================================
``capture``          player, cards [codes], from? hand|stock|stack  the player takes the cards (bonus cards too)
``take_junk``        player, reason, give? {giver: [codes]}         each opponent gives a junk, two for ja_ppuk;
                                                                    reason: sseul, ttadak, chok, ppuk, ja_ppuk,
                                                                    boss_joker; the cheapest unless ``give`` names
                                                                    the cards
``ppuk``             player, month?                                 a stack of three left on the table (뻑);
                                                                    a first-turn ppuk pays, the third one wins
``shake``            player, month                                  흔들기: three of a month shown
``bomb``             player, month, give?                           폭탄: captures the four cards of the month,
                                                                    and a junk from each when the rules say so
``end_turn``         player?                                        the turn ends: go/stop is asked now if the
                                                                    score is eligible, else play moves right
``go``               player                                         고: play on (this ends the turn)
``stop``             player                                         스톱: the player wins
``showdown_offer``   player                                         쇼당 at the start of one's turn (3 players)
``showdown_accept``  player                                         the right answers first, then the left
``showdown_refuse``  player                                         play goes on; the refuser may pay dok-bak
``oe_myeon``         player, last_card? bool                        외면: this loser left the card the player
                                                                    on turn wins with (dok-bak at a stop)
``chongtong``        player + month, or players {name: month}       총통 at the deal: instant win (two collect
                                                                    from the third; three cancel)
``four_on_table``    month                                          four of a month on the table: void deal (or
                                                                    the dealer's win, ``void_deal_chongtong``)
``nagari``           –                                              the cards ran out with no stop
``weol_yak``         player                                         월약: the player took all four cards of a
                                                                    month on their first turn (rules ×4)
``mission``          multiplier 2–9 (player)                        미션: the multiplier drawn for the hand; the
                                                                    player who completed it (only their win)
===================  =============================================  ==============================================

Every event may also carry ``note``, ``at``, ``by``, ``id`` or ``seq`` for the app;
the engine ignores them. While a player must say go or stop (``must_decide``) only
``go``, ``stop`` and the facts ``oe_myeon``, ``weol_yak`` and ``mission`` are taken; while a showdown
waits for an answer (``must_answer``) only the answers.

>>> setup = HandSetup.create(["A", "B"], "A")
>>> state = replay(setup, [{"type": "capture", "player": "A", "cards": ["1g", "1j1"]}])
>>> state.player("A").captures, state.current
(('1g', '1j1'), 'A')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict

from ..cards import BONUS_CARDS
from ..checks import is_month, is_whole
from ..errors import EngineError
from ..model import RefusedJSON, ResultJSON
from . import kinds
from .events import (
    on_bomb,
    on_capture,
    on_chongtong,
    on_end_turn,
    on_four_on_table,
    on_go,
    on_mission,
    on_nagari,
    on_oe_myeon,
    on_ppuk,
    on_shake,
    on_showdown_accept,
    on_showdown_offer,
    on_showdown_refuse,
    on_stop,
    on_take_junk,
    on_weol_yak,
)
from .setup import HandSetup
from .state import HandState, LiveOutcome, PlayerState
from .steps import JUNK_REASONS, SOURCES

__all__ = [
    "EVENTS",
    "HandSetup",
    "HandState",
    "LiveOutcome",
    "PlayerState",
    "apply",
    "replay",
    "replay_hand_document",
    "undo",
]

META_FIELDS = frozenset({"type", "note", "at", "by", "id", "seq"})


@dataclass(frozen=True, slots=True)
class EventKind:
    """How an event type is shaped (its class in ``kinds``: the fields, typed) and handled."""

    handler: Callable[[HandState, dict], HandState]
    shape: type[kinds.Event]
    while_deciding: bool = False  # taken from the decider while a player must say go or stop
    fact: bool = False  # a fact of the hand: taken while anyone must say go or stop
    # What the event does to the turn and the hand, declared for readers that cannot replay the
    # log (the page's offline queue); tests/engine/test_event_kinds.py holds the handlers to it.
    passes_turn: bool = False  # play may move on to the next player (unless go/stop is asked)
    asks_decision: bool = False  # the turn's end: go or stop is asked here when the score allows
    ends_hand: bool = False  # the hand is over once it is taken
    answers_showdown: bool = False
    required: tuple[str, ...] = field(init=False)  # the JSON fields of ``shape``, as it orders them
    optional: tuple[str, ...] = field(init=False)
    allowed: frozenset[str] = field(init=False, repr=False)  # every field the event may carry
    needs: frozenset[str] = field(init=False, repr=False)  # the required ones

    def __post_init__(self) -> None:
        declared = kinds.json_fields(self.shape)
        required = tuple(name for _, name, needed in declared if needed)
        optional = tuple(name for _, name, needed in declared if not needed)
        object.__setattr__(self, "required", required)
        object.__setattr__(self, "optional", optional)
        object.__setattr__(self, "allowed", META_FIELDS | frozenset(required) | frozenset(optional))
        object.__setattr__(self, "needs", frozenset(required))


EVENTS: dict[str, EventKind] = {
    "capture": EventKind(on_capture, kinds.Capture),
    "take_junk": EventKind(on_take_junk, kinds.TakeJunk),
    "ppuk": EventKind(on_ppuk, kinds.Ppuk),
    "shake": EventKind(on_shake, kinds.Shake),
    "bomb": EventKind(on_bomb, kinds.Bomb),
    "end_turn": EventKind(on_end_turn, kinds.EndTurn, passes_turn=True, asks_decision=True),
    "go": EventKind(on_go, kinds.Go, while_deciding=True, passes_turn=True),
    "stop": EventKind(on_stop, kinds.Stop, while_deciding=True, ends_hand=True),
    "showdown_offer": EventKind(on_showdown_offer, kinds.ShowdownOffer),
    "showdown_accept": EventKind(on_showdown_accept, kinds.ShowdownAccept, answers_showdown=True),
    "showdown_refuse": EventKind(on_showdown_refuse, kinds.ShowdownRefuse, answers_showdown=True),
    "oe_myeon": EventKind(on_oe_myeon, kinds.OeMyeon, fact=True),
    "chongtong": EventKind(on_chongtong, kinds.Chongtong, ends_hand=True),
    "four_on_table": EventKind(on_four_on_table, kinds.FourOnTable, ends_hand=True),
    "nagari": EventKind(on_nagari, kinds.Nagari, ends_hand=True),
    "weol_yak": EventKind(on_weol_yak, kinds.WeolYak, fact=True),
    "mission": EventKind(on_mission, kinds.Mission, fact=True),
}
assert all(name == kind.shape.TYPE for name, kind in EVENTS.items()), "each kind's class is of its type"


# -- the shape of an event: each field's check ---------------------------------------------


def _check_month(v: object, path: str) -> bool:
    if not is_month(v):
        raise EngineError("bad_month", "A month is a whole number from 1 to 12.", path)
    return True


def _check_players(v: object) -> bool:  # chongtong holders
    if not isinstance(v, dict) or not all(isinstance(k, str) for k in v):
        raise EngineError("bad_event", "players is an object: name → month.", "players")
    for holder, month in v.items():
        _check_month(month, f"players.{holder}")
    return True


_FIELD_HELP = {
    "player": "player is the name of a player of the hand.",
    "cards": 'cards lists one or more card codes, e.g. ["1g", "1j1"].',
    "from": "from is hand, stock or stack.",
    "reason": f"reason is one of {', '.join(JUNK_REASONS)} (a bomb takes its junk itself).",
    "give": "give is an object: giver → list of card codes.",
    "last_card": "last_card is true or false.",
    "multiplier": "multiplier is the mission's multiplier, a whole number from 2 to 9.",
}


# Each field's check: True when the value suits it (month and players raise their own refusal).
FIELD_CHECKS: dict[str, Callable[[object], bool]] = {
    "player": lambda v: isinstance(v, str),
    "cards": lambda v: isinstance(v, list) and bool(v) and all(isinstance(c, str) for c in v),
    "from": lambda v: v in SOURCES,
    "reason": lambda v: v in JUNK_REASONS,
    "give": lambda v: isinstance(v, dict),
    "last_card": lambda v: isinstance(v, bool),
    "multiplier": lambda v: is_whole(v, 2, 9),
    "month": lambda v: _check_month(v, "month"),
    "players": _check_players,
}


def _kind(event: object) -> EventKind:
    if not isinstance(event, dict):
        raise EngineError("bad_event", 'An event is an object {"type": ..., ...}.')
    type_ = event.get("type")
    kind = EVENTS.get(type_) if isinstance(type_, str) else None  # a list or object cannot be looked up
    if kind is None:
        raise EngineError("bad_event", f"Unknown event type {event.get('type')!r}; one of {', '.join(EVENTS)}.", "type")
    return kind


def _check_shape(event: dict, kind: EventKind) -> None:
    if not kind.allowed.issuperset(event):
        name = next(name for name in event if name not in kind.allowed)
        raise EngineError("bad_event", f"A {event['type']} event has no field {name!r}.", name)
    if not event.keys() >= kind.needs:
        name = next(name for name in kind.required if name not in event)
        raise EngineError("bad_event", f"A {event['type']} event needs {name!r}.", name)
    for name, value in event.items():
        if name not in META_FIELDS and not FIELD_CHECKS[name](value):
            raise EngineError("bad_event", _FIELD_HELP[name], name)


def _check_moment(state: HandState, event: dict, kind: EventKind) -> None:
    """Whether anything but a go/stop or a showdown answer may happen now."""
    if state.showdown is not None and state.must_answer and not kind.answers_showdown:
        raise EngineError("must_answer", f"{state.must_answer} must first answer the showdown.")
    decider = state.must_decide
    if decider and not kind.fact and (not kind.while_deciding or event["player"] != decider):
        raise EngineError("must_decide", f"{decider} must first say go or stop.")


def _is_play(event: dict) -> bool:
    """Anything but the dealer taking jokers off the table ends the moment of the deal."""
    return not (event["type"] == "capture" and all(code in BONUS_CARDS for code in event["cards"]))


# -- applying and replaying -------------------------------------------------------------------


def apply(state: HandState, event: dict) -> HandState:
    """The state after ``event``, or a coded ``EngineError`` (``state`` is never changed)."""
    kind = _kind(event)
    if state.outcome is not None:
        raise EngineError("hand_over", "The hand has ended: no more events (undo the last one to change it).")
    _check_shape(event, kind)
    if "player" in event and event["player"] not in state.setup.seat:
        raise EngineError("unknown_player", f"{event['player']!r} is not a player of this hand.", "player")
    _check_moment(state, event, kind)
    return kind.handler(state, event).but(seq=state.seq + 1, played=state.played or _is_play(event))


def replay(setup: HandSetup, events: Iterable[dict]) -> HandState:
    """The state a log leads to. A refusal names the event: ``err.at_event``, paths ``events[i]…``."""
    state = HandState.start(setup)
    for i, event in enumerate(events):
        try:
            state = apply(state, event)
        except EngineError as err:
            for e in err.errors:
                e["path"] = f"events[{i}]" + (f".{e['path']}" if e["path"] else "")
            err.at_event = i
            raise
    return state


def undo(setup: HandSetup, events: list[dict]) -> tuple[list[dict], HandState]:
    """Drop the last event: the shorter log and its state."""
    if not events:
        raise EngineError("nothing_to_undo", "The log is empty: nothing to undo.")
    kept = list(events[:-1])
    return kept, replay(setup, kept)


class HandReplayJSON(TypedDict):
    """A hand log replayed: its live view, and the contract's result once it has ended (else null);
    or refused (``ok`` false, ``errors``, the index of the refused event or null for the set-up)."""

    ok: bool
    state: NotRequired[dict]
    result: NotRequired[ResultJSON | RefusedJSON | None]
    errors: NotRequired[list[dict]]
    at_event: NotRequired[int | None]


def replay_hand_document(doc: Any) -> HandReplayJSON:
    """``{"setup": {...}, "events": [...]}`` → ``{"ok": true, "state", "result"}`` or the refusal.

    ``result`` is the engine contract's result once the hand has ended, else null.
    A refusal answers ``{"ok": false, "errors": [...], "at_event": i}`` (null when the
    set-up itself is refused).
    """
    if not isinstance(doc, dict) or not isinstance(doc.get("events", []), list):
        return _refused(EngineError("bad_event", 'A hand log is {"setup": {...}, "events": [...]}.', ""), None)
    try:
        setup = HandSetup.from_json(doc.get("setup"))
    except EngineError as err:
        return _refused(err, None)
    try:
        state = replay(setup, doc.get("events", []))
    except EngineError as err:
        return _refused(err, err.at_event)
    return {"ok": True, "state": state.to_json(), "result": state.result()}


def _refused(err: EngineError, at_event: int | None) -> HandReplayJSON:
    return {"ok": False, "errors": err.errors, "at_event": at_event}
